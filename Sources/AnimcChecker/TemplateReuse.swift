import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

// Templates (component bodies and `for` bodies) lower the same animation syntax once per
// instance. Most of a template's animations do not depend on the instance at all (a
// tile's opacity keyframes), and those that do often get the same inputs again (the
// tiles of a symmetric grid). A leaf animation lowered in a template is therefore kept
// with every name its lowering looked up and what each resolved to; a later instance
// whose lookups resolve to the same values reuses the lowered animation and replays
// what lowering does besides returning it (the template's "no visible effect" count and
// the registration that sequencing reads).
//
// What is reused has to be exactly what lowering again would give: the key holds all
// the checker state a leaf's lowering reads besides names (where it is written, the
// layer's kind, the group's duration, the definition depth, the expected dimension),
// and a lowering is kept only when it reported nothing, read no other animation
// (`go.end`) and declared nothing of its own (its body is attributes and keyframe rows
// only). The lookups are logged by `Scope.lookup` itself, so no path through the
// evaluator can read a name unseen.
//
// Instances by substitution. A tile's position keyframes read its offset, and its
// group its delay: every instance differs there, and only there. Where a value is
// written as a bare name bound inside the template (`0.7 = offset ~ T`, `beginTime:
// delay`, `from: turn`), lowering records the site (a hole) instead of the read. A later
// instance whose other reads match takes the kept lowering and evaluates only the holes,
// through the same functions lowering uses at those sites, then runs again the rules
// that read a hole's value (the template's "no visible effect" and a transform's turn for
// a leaf with a value in a hole, the group rules for a child whose begin is one; the
// others keep the kept lowering's outcome, see ``TemplateRules``) and the registration
// sequencing reads. A hole whose evaluation reports anything
// or fails sends the instance back to lowering afresh. Holes are taken only where the
// value is nothing but that value: one keyframe, one end of a `from`/`to` pair without
// `by`, a `beginTime`; and only for values whose shape no rule compares (not paths or
// lists), of bindings already evaluated (so each costs exactly one evaluation).
//
// A group is a template too when its children are such leaves and it gives its own
// duration (a group without one takes the end of its last child, which holes move).

/// The lookup log of the template animation being lowered, shared by the scopes of one
/// check.
/// A name a template's lowering looked up, with its interned id when the lookup had one
/// (a later instance looks it up again by id: one array entry at the top level instead
/// of hashing the name), and what it resolved to.
struct TemplateRead {
    let name: String
    let id: UInt32
    let binding: Binding?
}

/// A name a kept lowering read, and that binding's value then.
struct KeptRead {
    let name: String
    let id: UInt32
    let binding: Binding?
    let value: SemaValue?
}

final class TemplateReads {
    final class Log {
        // Appended to by every lookup while a template is lowered; only ever accessed by
        // the thread that checks the file (see `Scope`), so the dynamic exclusivity
        // checks are skipped.
        @exclusivity(unchecked) var reads: [TemplateRead]
        /// Room for the few reads most logs hold, at once: grown one read at a time, a
        /// log's list was allocated four times.
        init() { reads = []; reads.reserveCapacity(8) }
        /// Sites whose value was read as a hole, in the order lowering met them.
        var holes: [TemplateHole] = []
        /// The child of a group being lowered, for the holes its lowering meets.
        var child: Int?
        func append(_ read: TemplateRead) { reads.append(read) }
    }

    /// The log lookups go to; nil when no template animation is being lowered. (Read by
    /// every lookup; see `Scope` for why unchecked.)
    @exclusivity(unchecked) var active: Log?
}

/// A key of a ``TemplateTable``: compared in full, found by where it is written.
protocol TemplateTableKey: Equatable {
    var range: SourceRange { get }
}

/// Whether an animation item can be kept as a template's lowering, and as what.
enum ReusableKind: UInt8 {
    case none, leaf, group
}

/// Everything besides names that lowering a leaf animation reads.
struct TemplateKey: TemplateTableKey {
    var range: SourceRange
    var layerKind: LayerKind
    /// The enclosing group's duration as bits (a child without a duration takes it); nil
    /// outside a group and in a group that gives none, which `inGroup` tells apart.
    var groupDuration: UInt64?
    var inGroup: Bool
    var definitionDepth: Int
    var expectedDimension: Dimension?
}

/// Template slots by key, found by the range the key holds and then compared in full.
///
/// Every instance of a template looks its slots up, several a layer. A `Dictionary`
/// hashed each key with SipHash, whose set-up and finalisation were most of the lookup;
/// here the range finds the chain (an ``OffsetTable`` probe), and the few keys written
/// at one range (one per definition depth or enclosing group) are compared in turn.
struct TemplateTable<Key: TemplateTableKey, Slot: AnyObject> {
    /// Per range, the position of the last entry added for it.
    private var last = OffsetTable<Int32>()
    private var keys: [Key] = []
    private var slots: [Slot] = []
    /// Per entry, the position of the previous one at its range, or -1.
    private var previous: [Int32] = []

    /// The slot of `key`. Mutating though it changes nothing: the checker holds the
    /// table in a property, and a read copied the table out of it (its six arrays
    /// retained and released) for every lookup, where a mutating access works in place.
    /// (A class instead cost a search of the runtime's conformance records the first
    /// time each kind of table was made, in every process.)
    mutating func slot(_ key: Key) -> Slot? {
        guard var i = last[key.range] else { return nil }
        while i >= 0 {
            if keys[Int(i)] == key { return slots[Int(i)] }
            i = previous[Int(i)]
        }
        return nil
    }

    /// Adds a slot for a key not in the table.
    mutating func insert(_ slot: Slot, for key: Key) {
        let position = Int32(truncatingIfNeeded: keys.count)
        keys.append(key)
        slots.append(slot)
        previous.append(last[key.range] ?? -1)
        last.set(OffsetTable<Int32>.key(key.range), position)
    }
}

/// Where in a lowered animation a hole's value goes.
enum HoleSite: Equatable {
    /// The value of the keyframe row with this index (rows counted in the body).
    case row(Int)
    case from, to
    case beginTime
}

/// A value a kept lowering takes from each instance: the site, in the group's child with
/// this index (nil for the animation itself).
struct TemplateHole: Equatable {
    var child: Int?
    var site: HoleSite
}

/// The lowerings kept for one key, and how often one was reused: a key whose every
/// instance differs (a tile's offset from the centre) stops being logged and searched
/// once it holds its share.
///
/// Slots and entries are classes so that searching them copies nothing: a struct entry
/// (its reads, its animation's arrays) copied out of the cache to be tested cost more
/// than the test.
final class TemplateSlot<Entry: KeptLowering> {
    /// Searched by every instance; only ever accessed by the thread that checks the file
    /// (see `Scope`), so the dynamic exclusivity check on each search is skipped.
    @exclusivity(unchecked) var entries: [Entry] = []
    var reuses = 0
    var isCold: Bool { reuses == 0 && entries.count >= Checker.maxTemplateEntries }
}

/// What every kept lowering records for a later instance to be tested against.
protocol KeptLowering: AnyObject {
    /// Each name looked up, what it resolved to, and that binding's value once lowered.
    var reads: [KeptRead] { get }
    /// Expression evaluations lowering it again would make (see
    /// ``Checker/recordingReads(_:_:)``), so reuse counts toward the limit as lowering does.
    var evaluations: Int { get }
}

/// A lowered leaf animation or group and what its lowering read. Immutable once kept.
final class TemplateEntry: KeptLowering {
    let reads: [KeptRead]
    let animation: Animation
    /// Holes included.
    let evaluations: Int
    let shape: TemplateShape
    let rules: TemplateRules
    /// Leaves whose kept outcome of W0509 this check has noted, a bit per leaf (see
    /// ``Checker/replayEffects(of:item:entry:)``).
    var notedOutcomes: UInt64 = 0

    init(reads: [KeptRead], animation: Animation, evaluations: Int,
         shape: TemplateShape, rules: TemplateRules) {
        self.reads = reads
        self.animation = animation
        self.evaluations = evaluations
        self.shape = shape
        self.rules = rules
    }
}

/// Which of the rules lowering ran an instance must run again. A kept lowering reported
/// nothing, so a rule that reads none of the holes' values would report nothing again:
/// only its bookkeeping is replayed.
struct TemplateRules {
    enum Leaf {
        /// A hole is one of the leaf's values: its rules run again.
        case rerun
        /// Its values are the kept lowering's, and so is its W0509 outcome: it has an
        /// effect. (Its own case, with nothing to copy: every instance reads it.)
        case kept
        /// The same, for a lowering that changes nothing: W0509's warning.
        indirect case keptWithoutEffect(Diagnostic)
    }

    /// Per leaf, in ``TemplateShape/leaves`` order: one for each.
    let leaves: [Leaf]
    /// Whether the group rules run again: they read the children's timing, so a hole at a
    /// child's `beginTime` moves them. They read no value but whether an end is taken
    /// from the presentation, which a hole never is (its name is bound, and a binding
    /// holding the presentation fails E0420 where it is read). The group's own
    /// `beginTime` is outside its children's time frame.
    let group: Bool
}

/// What reusing a kept lowering needs of the template's syntax, found once when it is
/// kept rather than on every instance.
final class TemplateShape {
    struct Leaf {
        let item: Item
        let info: KeyPathInfo
        let property: PropertyInfo
        /// The range that names it in messages and sequencing.
        let nameRange: SourceRange
    }

    struct Hole {
        let hole: TemplateHole
        /// The bare name written at the site, and the leaf it is in.
        let expr: Expr
        let name: String
        let leaf: Int
    }

    /// The animation itself, or a group's children in order.
    let leaves: [Leaf]
    let holes: [Hole]
    /// The range that names the animation (or group) in messages and sequencing.
    let nameRange: SourceRange

    /// Nil when the item's syntax does not have what the holes say (it always does: the
    /// holes were recorded lowering it).
    /// `keyPath` is the checker's ``Checker/keyPathInfo(_:)``, which finds a path the
    /// check has met by its interned id instead of hashing its text.
    init?(_ item: Item, isGroup: Bool, holes: [TemplateHole], in tree: SyntaxTree,
          keyPath: (KeyPathSyntax) -> KeyPathInfo?) {
        let items = isGroup ? Checker.groupChildren(item, in: tree) : [item]
        var leaves: [Leaf] = []
        leaves.reserveCapacity(items.count)
        for leaf in items {
            guard case .animation(_, let target?, _, _, _) = tree[leaf], let info = keyPath(target) else { return nil }
            leaves.append(Leaf(item: leaf, info: info, property: PropertyTable.info(info.target.property),
                               nameRange: Checker.animationNameRange(leaf, in: tree)))
        }
        var found: [Hole] = []
        found.reserveCapacity(holes.count)
        for hole in holes {
            let index = hole.child ?? 0
            guard index < leaves.count, let expr = TemplateShape.expression(hole.site, in: hole.child == nil ? item : leaves[index].item, of: tree),
                  case .identifier(let name) = tree[expr] else { return nil }
            found.append(Hole(hole: hole, expr: expr, name: name, leaf: index))
        }
        self.leaves = leaves
        self.holes = found
        nameRange = Checker.animationNameRange(item, in: tree)
    }

    /// The expression at a hole site of an animation item.
    static func expression(_ site: HoleSite, in item: Item, of tree: SyntaxTree) -> Expr? {
        guard case .animation(_, _, _, _, let body) = tree[item] else { return nil }
        switch site {
        case .row(let i):
            var n = 0
            for child in tree[body.items] {
                guard case .keyframe(_, let value, _) = tree[child] else { continue }
                if n == i { return value }
                n += 1
            }
            return nil
        case .from, .to, .beginTime:
            let name = site == .from ? "from" : site == .to ? "to" : "beginTime"
            for child in tree[body.items] {
                if case .property(let key, let value) = tree[child], key.dotted == name { return value }
            }
            return nil
        }
    }
}

extension Checker {
    /// Instances kept per template animation: enough for the distinct inputs of a
    /// symmetric grid, bounded so that a template whose every instance differs costs
    /// little to search.
    static let maxTemplateEntries = 8
    /// Lowerings kept in all. Keys are bounded by the file's text only together with the
    /// values that distinguish them (a group's duration that grows with a loop index), and
    /// an entry keeps its bindings alive: past this, nothing more is kept.
    static let maxTemplateEntriesInAll = 50_000

    /// The key under which the animation can be reused, or nil when it is not a
    /// reusable leaf in a template.
    func templateKey(_ item: Item, layerKind: LayerKind, group: GroupContext?) -> TemplateKey? {
        guard reusesTemplates, definitionDepth > 0 || !activeLoops.isEmpty, reusableKind(item) != .none else { return nil }
        return TemplateKey(range: item.range, layerKind: layerKind, groupDuration: group?.duration.map(\.bitPattern),
                           inGroup: group != nil, definitionDepth: definitionDepth, expectedDimension: expectedDimension)
    }

    /// Whether `item` is a reusable leaf, a reusable group or neither
    /// (``isReusableLeaf(_:in:)``, ``isReusableGroup(_:in:isLeaf:)``; neither when it
    /// spans a syntax error), worked out once per check: each child of a group is asked
    /// once, for the group and for itself.
    func reusableKind(_ item: Item) -> ReusableKind {
        if let known = reusableKinds[item.range] { return known }
        let kind: ReusableKind
        if spansSyntaxError(item.range) {
            kind = .none
        } else if Checker.isReusableLeaf(item, in: tree) {
            kind = .leaf
        } else if Checker.isReusableGroup(item, in: tree, isLeaf: { reusableKind($0) == .leaf }) {
            kind = .group
        } else {
            kind = .none
        }
        reusableKinds.set(item.range, kind)
        return kind
    }

    /// A `basic` or `keyframes` animation of a property whose body is attributes and
    /// keyframe rows only: nothing in it declares a name or reads another animation's
    /// lowering except through a name.
    static func isReusableLeaf(_ item: Item, in tree: SyntaxTree) -> Bool {
        guard case .animation(let kind, let target, _, let along, let body) = tree[item],
              target != nil, along == nil, kind.name == "basic" || kind.name == "keyframes" else { return false }
        for child in tree[body.items] {
            switch tree[child] {
            case .property, .keyframe: continue
            default: return false
            }
        }
        return true
    }

    /// A group of reusable leaves that gives its own duration. `isLeaf` answers
    /// ``isReusableLeaf(_:in:)`` for a child.
    static func isReusableGroup(_ item: Item, in tree: SyntaxTree, isLeaf: (Item) -> Bool) -> Bool {
        guard case .animation(let kind, nil, _, nil, let body) = tree[item], kind.name == "group" else { return false }
        var duration = false
        for child in tree[body.items] {
            switch tree[child] {
            case .property(let key, _): if key.dotted == "duration" { duration = true }
            case .animation: if !isLeaf(child) { return false }
            default: return false
            }
        }
        return duration
    }

    /// A group's child animations, in the order lowering numbers them.
    static func groupChildren(_ item: Item, in tree: SyntaxTree) -> [Item] {
        guard case .animation(_, _, _, _, let body) = tree[item] else { return [] }
        return tree[body.items].filter { if case .animation = tree[$0] { return true } else { return false } }
    }

    /// Lowers the value at a hole site. While a template is recorded and the value is a
    /// bare name bound inside it to a value already evaluated, the read is not logged:
    /// the site is, so a later instance can take this lowering with its own value there.
    /// Anywhere else this is `lower()`.
    @inline(__always)  // Called, its closure's captures were retained and released around every hole.
    func atHole<T>(_ site: HoleSite, _ expr: Expr, _ scope: Scope, type: ValueType, _ lower: () -> T) -> T {
        let hub = scope.templateReads
        guard let log = hub.active, case .identifier(let name) = tree[expr], Checker.holeTypeAllowed(type),
              isHoleValueReady(name, expr, scope) else { return lower() }
        hub.active = nil
        let result = lower()
        hub.active = log
        log.holes.append(TemplateHole(child: log.child, site: site))
        return result
    }

    /// Whether the bare name `name` written at `expr` is bound inside the template (below
    /// the top level) to a value already evaluated: what a hole takes, at the site when
    /// a lowering is recorded and again before a later instance fills it.
    func isHoleValueReady(_ name: String, _ expr: Expr, _ scope: Scope) -> Bool {
        let id = tree.nameID(expr)
        if let ready = scope.isEvaluatedBelowTopLevel(id: id) { return ready }
        return scope.bindingBelowTopLevel(name, id: id)?.value != nil
    }

    /// Values whose shape no rule compares between keyframes (paths and lists are).
    static func holeTypeAllowed(_ type: ValueType) -> Bool {
        switch type {
        case .path, .numbers, .colors: return false
        default: return true
        }
    }

    /// Reuses an earlier instance's lowering when every name it read resolves to the same
    /// value here; otherwise lowers afresh and keeps the result when it can be reused.
    func lowerTemplateAnimation(_ item: Item, key: TemplateKey, layerKind: LayerKind, scope: Scope,
                                group: GroupContext?) -> Animation? {
        let (animation, entry) = lowerTemplateAnimationEntry(item, key: key, layerKind: layerKind, scope: scope, group: group)
        lastTemplateEntry = entry
        return animation
    }

    /// ``lowerTemplateAnimation(_:key:layerKind:scope:group:)``, and the kept lowering the
    /// animation is (taken or kept now), if any: a layer kept around it takes the same.
    private func lowerTemplateAnimationEntry(_ item: Item, key: TemplateKey, layerKind: LayerKind, scope: Scope,
                                             group: GroupContext?) -> (Animation?, TemplateEntry?) {
        let slot = templateCache.slot(key)
        if let slot {
            if slot.isCold { return (lowerAnimationAfresh(item, layerKind: layerKind, scope: scope, group: group), nil) }
            // Holes are evaluated first, so that one that fails falls back before any
            // effect is replayed.
            if let entry = keptLowering(in: slot, scope) {
                var animation = entry.animation
                if let holeEvaluations = instantiate(entry, scope: scope, into: &animation) {
                    evaluationCount = evaluationCount - holeEvaluations + entry.evaluations
                    templateReuses += 1
                    slot.reuses += 1
                    replayEffects(of: animation, item: item, entry: entry)
                    return (animation, entry)
                }
            }
        }

        let (animation, recorded) = recordingReads(scope) {
            lowerAnimationAfresh(item, layerKind: layerKind, scope: scope, group: group)
        }
        if let outerLog = scope.templateReads.active {
            outerLog.reads += recorded.log.reads
            // A leaf's holes are holes of the group being recorded around it, in the
            // child the group is lowering.
            outerLog.holes += recorded.log.holes.map { TemplateHole(child: outerLog.child, site: $0.site) }
        }

        guard let animation, recorded.keepable, hasRoom(slot),
              let shape = TemplateShape(item, isGroup: reusableKind(item) == .group, holes: recorded.log.holes, in: tree,
                                        keyPath: keyPathInfo)
        else { return (animation, nil) }
        templateEntryCount += 1
        let kept = slot ?? TemplateSlot<TemplateEntry>()
        if slot == nil { templateCache.insert(kept, for: key) }
        let entry = TemplateEntry(reads: Checker.keptReads(recorded.log), animation: animation,
                                  evaluations: recorded.evaluations, shape: shape,
                                  rules: templateRules(animation, shape: shape))
        kept.entries.append(entry)
        return (animation, entry)
    }

    /// The first kept lowering whose every read resolves to the same value here and whose
    /// evaluations fit under the limit.
    func keptLowering<Entry>(in slot: TemplateSlot<Entry>, _ scope: Scope) -> Entry? {
        for entry in slot.entries where evaluationCount <= evaluationLimit - entry.evaluations {
            if readsMatch(entry.reads, scope) { return entry }
        }
        return nil
    }

    /// What lowering under a lookup log of its own did: the log, whether the result may
    /// be kept (it reported nothing and read no other animation's lowering), and the
    /// evaluations lowering the same again would make. That leaves out the evaluations
    /// spent on bindings used for the first time, which a later instance finds evaluated:
    /// counted again, the limit was met earlier with reuse than without.
    struct RecordedLowering {
        let log: TemplateReads.Log
        let keepable: Bool
        let evaluations: Int
    }

    /// Runs `lower` with its lookups logged (see ``RecordedLowering``), then gives the
    /// log back to whatever was logging before.
    func recordingReads<T>(_ scope: Scope, _ lower: () -> T) -> (T, RecordedLowering) {
        let hub = scope.templateReads
        let log = TemplateReads.Log()
        let outer = hub.active, reportsBefore = reportCalls, evaluationsBefore = evaluationCount,
            firstUsesBefore = bindingEvaluations, outerReadLowered = readLoweredAnimations
        hub.active = log
        readLoweredAnimations = false
        let result = lower()
        hub.active = outer
        let readLowered = readLoweredAnimations
        // What the lowering around this one read before it still counts for that one.
        readLoweredAnimations = outerReadLowered || readLowered
        let evaluations = evaluationCount - evaluationsBefore - (bindingEvaluations - firstUsesBefore)
        return (result, RecordedLowering(log: log, keepable: reportCalls == reportsBefore && !readLowered,
                                         evaluations: evaluations))
    }

    /// Whether one more lowering may be kept: in the slot, and in all.
    func hasRoom<Entry>(_ slot: TemplateSlot<Entry>?) -> Bool {
        (slot?.entries.count ?? 0) < Checker.maxTemplateEntries && templateEntryCount < Checker.maxTemplateEntriesInAll
    }

    /// Puts this instance's values in the holes of `animation`, a copy of the kept
    /// lowering's, and returns the evaluations the holes made; nil when a hole's value
    /// cannot be taken (its binding is not evaluated yet, or lowering it failed or
    /// reported anything): the instance is then lowered afresh, which reports the same.
    /// Filled in place, where the caller keeps it: an animation returned and then stored
    /// was copied once more, and its fields retained and released again.
    func instantiate(_ entry: TemplateEntry, scope: Scope, into animation: inout Animation) -> Int? {
        // Holes and leaves are read in place, by index: copied out of the shape, each
        // retained and released the strings and tables it holds.
        let shape = entry.shape
        guard !shape.holes.isEmpty else { return 0 }
        // Nothing is evaluated unless every hole can be: a binding evaluated on first use
        // here would cost more than the one evaluation the entry counted.
        for h in shape.holes.indices where !isHoleValueReady(shape.holes[h].name, shape.holes[h].expr, scope) { return nil }
        let log = scope.templateReads.active
        let holesBefore = log?.holes.count ?? 0, reportsBefore = reportCalls, evaluationsBefore = evaluationCount
        // A group's members are taken out once and put back once: taken out per hole,
        // they were shared with the group again each time and copied whole again. A
        // hole of the group itself is its `beginTime`, which `fill` sets on the timing
        // alone, so the members being out meanwhile changes nothing.
        var members: [Animation] = [], tookMembers = false
        var failed = false
        for h in shape.holes.indices {
            guard let value = lowerHole(h, of: shape, scope: scope) else { failed = true; break }
            let site = shape.holes[h].hole.site
            if let j = shape.holes[h].hole.child {
                if !tookMembers, case .group(let kept) = animation.kind {
                    members = kept
                    animation.kind = .group([])
                    tookMembers = true
                }
                guard tookMembers, j < members.count else { failed = true; break }
                Checker.fill(site, with: value, in: &members[j])
            } else {
                Checker.fill(site, with: value, in: &animation)
            }
        }
        if tookMembers { animation.kind = .group(members) }
        if failed || reportCalls != reportsBefore {
            // Lowering afresh evaluates these again and counts them, and what was logged
            // for a group recorded around this instance goes with it.
            evaluationCount = evaluationsBefore
            if let log, log.holes.count > holesBefore { log.holes.removeSubrange(holesBefore...) }
            return nil
        }
        return evaluationCount - evaluationsBefore
    }

    /// What a hole's value is once lowered: a model value, an end of a basic animation,
    /// or a time.
    enum HoleValue {
        case value(Value)
        case endpoint(AnimatedValue)
        case time(Double)
    }

    /// Lowers the value at a hole site as lowering does there (``atHole`` included, so
    /// a group recorded around this instance logs the hole, not the read).
    private func lowerHole(_ h: Int, of shape: TemplateShape, scope: Scope) -> HoleValue? {
        let site = shape.holes[h].hole.site, expr = shape.holes[h].expr
        switch site {
        case .beginTime:
            return atHole(site, expr, scope, type: .time) { lowerTimeAttribute("beginTime", expr, scope) }.map { .time($0) }
        case .row:
            let info = shape.leaves[shape.holes[h].leaf].info, property = shape.leaves[shape.holes[h].leaf].property
            return atHole(site, expr, scope, type: info.type) { lowerRowValue(expr, scope, info, property) }.map { .value($0) }
        case .from, .to:
            let info = shape.leaves[shape.holes[h].leaf].info, property = shape.leaves[shape.holes[h].leaf].property
            return atHole(site, expr, scope, type: info.type) {
                lowerEndpoint(site == .from ? "from" : "to", expr, scope, info, model: property)
            }.map { .endpoint($0) }
        }
    }

    /// The animation with a hole's value in place.
    private static func fill(_ site: HoleSite, with value: consuming HoleValue, in a: inout Animation) {
        switch (site, value) {
        case (.beginTime, .time(let x)):
            a.timing.beginTime = x
        case (.row(let i), .value(let v)):
            // The kept box is shared with the template, so its payload is copied once
            // (a retain per field: the new box holds them all). The content is moved out
            // of that copy and back, not copied: `case .keyframes(var k) = p.content`
            // retained every array of the keyframes again, and storing `k` back released
            // the first copy's.
            guard case .property(var p) = a.kind else { break }
            var content = AnimationContent.basic(from: .presentation, to: .presentation)
            swap(&content, &p.content)
            switch consume content {
            case .keyframes(var k):
                if i < k.values.count { k.values[i] = v }
                p.content = .keyframes(k)
            case let other:
                p.content = other
            }
            a.kind = .property(p)
        case (.from, .endpoint(let v)):
            if case .property(var p) = a.kind, case .basic(_, let to) = p.content {
                p.content = .basic(from: v, to: to)
                a.kind = .property(p)
            }
        case (.to, .endpoint(let v)):
            if case .property(var p) = a.kind, case .basic(let from, _) = p.content {
                p.content = .basic(from: from, to: v)
                a.kind = .property(p)
            }
        default:
            break
        }
    }

    /// Which rules an instance of a kept lowering runs again (see ``TemplateRules``).
    private func templateRules(_ animation: Animation, shape: TemplateShape) -> TemplateRules {
        let members: [Animation]
        if case .group(let children) = animation.kind { members = children } else { members = [animation] }
        var leaves: [TemplateRules.Leaf] = []
        leaves.reserveCapacity(shape.leaves.count)
        for (j, leaf) in shape.leaves.enumerated() {
            let valueHole = shape.holes.contains { $0.leaf == j && $0.hole.site != .beginTime }
            if valueHole || j >= members.count {
                leaves.append(.rerun)
            } else {
                leaves.append(noVisibleEffect(members[j], item: leaf.item).map { .keptWithoutEffect($0) } ?? .kept)
            }
        }
        let group = shape.holes.contains { $0.hole.child != nil && $0.hole.site == .beginTime }
        return TemplateRules(leaves: leaves, group: group)
    }

    /// What lowering the animation afresh does besides returning it, in the same order:
    /// the rules that read values, and the registration sequencing reads (a group's
    /// children register inside the group's time frame).
    func replayEffects(of animation: Animation, item: Item, entry: TemplateEntry) {
        let shape = entry.shape, rules = entry.rules
        guard case .group(let members) = animation.kind else {
            if let leafRules = rules.leaves.first, !outcomeNoted(entry, 0, leafRules) { replayRules(animation, shape, 0, leafRules) }
            registerLowered(name: animation.name, timing: animation.timing, nameRange: shape.nameRange)
            return
        }
        // The group's time frame is read only by registration (rules read the IR), and
        // registration happens only in files with a reference: elsewhere the frame is
        // not made (an array and a copy of the group per instance).
        let framed = registersLowered
        if framed {
            currentFrame.groups.append(Animation(name: animation.name, timing: animation.timing, kind: .group([]), range: item.range))
        }
        // By index, not by copying each member and leaf: an `Animation` is many fields,
        // and a member is read only by a rule that runs again, or by registration (which
        // files without a reference skip, so its arguments are not even gathered).
        for j in members.indices where j < rules.leaves.count {
            if !outcomeNoted(entry, j, rules.leaves[j]) { replayRules(members[j], shape, j, rules.leaves[j]) }
            if framed { registerLowered(name: members[j].name, timing: members[j].timing, nameRange: shape.leaves[j].nameRange) }
        }
        if rules.group { checkGroupRules(animation, item: item) }
        if framed {
            currentFrame.groups.removeLast(1)
            registerLowered(name: animation.name, timing: animation.timing, nameRange: shape.nameRange)
        }
    }

    /// Whether leaf `j`'s kept outcome was noted already in this check, marking it noted
    /// if not. Noting it again would change nothing: W0509 is given only when no
    /// expansion of an animation had an effect, and every expansion that takes a kept
    /// outcome has the same one. (Not while a memo records an item's effects: each item
    /// records its own, to replay in a later check.)
    private func outcomeNoted(_ entry: TemplateEntry, _ j: Int, _ rules: TemplateRules.Leaf) -> Bool {
        guard recorder == nil, j < UInt64.bitWidth else { return false }
        if case .rerun = rules { return false }
        let bit: UInt64 = 1 << UInt64(j)
        if entry.notedOutcomes & bit != 0 { return true }
        entry.notedOutcomes |= bit
        return false
    }

    /// Leaf `j`'s rules again, or its kept outcome. The animation is read only for a rule
    /// that runs again.
    private func replayRules(_ animation: @autoclosure () -> Animation, _ shape: TemplateShape, _ j: Int,
                             _ rules: TemplateRules.Leaf) {
        switch rules {
        case .rerun: checkPropertyAnimationRules(animation(), item: shape.leaves[j].item, type: shape.leaves[j].info.type,
                                                 nameRange: shape.leaves[j].nameRange)
        case .kept: noteEffect(shape.leaves[j].nameRange)
        case .keptWithoutEffect(let none): noteNoEffect(shape.leaves[j].nameRange, none)
        }
    }

    /// Each name a lowering looked up once, with what it resolved to and that binding's
    /// value then.
    static func keptReads(_ log: TemplateReads.Log) -> [KeptRead] {
        // Room for every read at once (most are distinct): grown one at a time, each
        // kept lowering's list was allocated several times.
        var reads: [KeptRead] = []
        reads.reserveCapacity(log.reads.count)
        // Read by index, and names compared by interned id where both lookups had one
        // (equal ids are equal names within a tree): each read copied out of the log and
        // each name compared as text cost more than the rest of keeping a lowering.
        for r in log.reads.indices {
            let binding = log.reads[r].binding, id = log.reads[r].id
            let seen = reads.contains { kept in
                guard kept.binding === binding else { return false }
                if id != Identifier.noNameID && kept.id != Identifier.noNameID { return kept.id == id }
                return kept.name == log.reads[r].name
            }
            if !seen {
                reads.append(KeptRead(name: log.reads[r].name, id: id, binding: binding, value: binding?.value))
            }
        }
        return reads
    }

    /// Whether every name a kept lowering read resolves to the same value here.
    private func readsMatch(_ reads: [KeptRead], _ scope: Scope) -> Bool {
        // A name that resolves to the very binding it did is compared in place where the
        // scope can answer so (most reads of most instances); by index, a read is not
        // copied out.
        for r in reads.indices {
            let id = reads[r].id
            if scope.resolves(id: id, to: reads[r].binding) == true { continue }
            guard sameBinding(scope.lookup(reads[r].name, id: id), reads[r].binding, reads[r].value) else { return false }
        }
        return true
    }

    /// Whether a name that resolved to `recorded` (with `value` then) gives the same value
    /// now that it resolves to `current`.
    private func sameBinding(_ current: Binding?, _ recorded: Binding?, _ value: SemaValue?) -> Bool {
        guard let current, let recorded else { return current == nil && recorded == nil }
        if current === recorded { return true }
        guard current.kind == recorded.kind, let now = current.value, let then = value else { return false }
        return now.isSame(as: then)
    }
}

// Layer properties in templates. A tile's `bounds: 18 x 18` or `backgroundColor:
// rgb(12, 78, 101)` evaluates to the same value in every instance: its value is kept with
// the names it read, as a leaf animation's lowering is, and a later instance whose names
// resolve to the same values takes it. Lowering a property value has no effect besides
// its value, its reports (a value that reported is not kept) and the evaluations it
// counts. A bare name or literal is not kept: looking it up costs what keeping would.

/// Where a layer property's value is written, and the definition depth (the depth limit
/// is met inside evaluation).
struct PropertyTemplateKey: TemplateTableKey {
    var range: SourceRange
    var definitionDepth: Int
}

/// A layer property's value lowered in a template, and what its lowering read.
final class PropertyTemplateEntry: KeptLowering {
    let reads: [KeptRead]
    let value: Value
    let evaluations: Int

    init(reads: [KeptRead], value: Value, evaluations: Int) {
        self.reads = reads
        self.value = value
        self.evaluations = evaluations
    }
}

extension Checker {
    /// The value of a layer property written at `expr`: ``lowerValue(_:_:as:context:)``
    /// and the property's range check, taken from an earlier instance of the template
    /// when every name it read resolves to the same value here.
    func lowerPropertyValue(_ expr: Expr, _ scope: Scope, _ info: PropertyInfo, path: @autoclosure () -> String) -> Value? {
        func lower() -> Value? { lowerPropertyValueAfresh(expr, scope, info, path: path()) }
        let hub = scope.templateReads
        switch tree[expr] {
        case .identifier, .number, .string, .bool, .color: return lower()
        default: break
        }
        guard reusesTemplates, definitionDepth > 0 || !activeLoops.isEmpty else { return lower() }
        let key = PropertyTemplateKey(range: expr.range, definitionDepth: definitionDepth)
        let slot = propertyTemplates.slot(key)
        if let slot {
            if slot.isCold { return lower() }
            if let entry = keptLowering(in: slot, scope) {
                evaluationCount += entry.evaluations
                propertyReuses += 1
                slot.reuses += 1
                return entry.value
            }
        }
        let (value, recorded) = recordingReads(scope, lower)
        // A layer kept around this property read what its value read (a kept value's
        // reads are logged to it by matching them).
        hub.active?.reads += recorded.log.reads
        guard let value, recorded.keepable, hasRoom(slot) else { return value }
        templateEntryCount += 1
        let kept = slot ?? TemplateSlot<PropertyTemplateEntry>()
        if slot == nil { propertyTemplates.insert(kept, for: key) }
        kept.entries.append(PropertyTemplateEntry(reads: Checker.keptReads(recorded.log), value: value,
                                                  evaluations: recorded.evaluations))
        return value
    }
}

extension Checker {
    /// A layer property's value lowered from its expression: its value of the property's
    /// type, in the property's range. What a kept value or a layer's hole stands for.
    func lowerPropertyValueAfresh(_ expr: Expr, _ scope: Scope, _ info: PropertyInfo, path: @autoclosure () -> String) -> Value? {
        guard let v = lowerValue(expr, scope, as: info.type, context: "'\(path())'"),
              checkRange(v, info, component: nil, at: expr.range) else { return nil }
        return v
    }
}

extension SemaValue {
    /// Exact equality, bit for bit in numbers: two values that lower identically. False
    /// for poison and for values compared by identity elsewhere.
    func isSame(as other: SemaValue) -> Bool {
        switch (self, other) {
        case (.number(let a, let d), .number(let b, let e)): return a.bitPattern == b.bitPattern && d == e
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.color(let a), .color(let b)): return a.isSame(as: b)
        case (.tuple(let a, let s), .tuple(let b, let t)):
            return s == t && a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.range(let l1, let u1, let i1, let d1), .range(let l2, let u2, let i2, let d2)):
            return l1.bitPattern == l2.bitPattern && u1.bitPattern == u2.bitPattern && i1 == i2 && d1 == d2
        // `==` takes -0 for 0; the text tells them apart.
        case (.timing(let a), .timing(let b)): return a == b && "\(a)" == "\(b)"
        case (.image(let a), .image(let b)): return a == b
        case (.presentation, .presentation): return true
        case (.component(let a), .component(let b)): return a === b
        default: return false
        }
    }
}

extension Color {
    func isSame(as other: Color) -> Bool {
        red.bitPattern == other.red.bitPattern && green.bitPattern == other.green.bitPattern
            && blue.bitPattern == other.blue.bitPattern && alpha.bitPattern == other.alpha.bitPattern
    }
}
