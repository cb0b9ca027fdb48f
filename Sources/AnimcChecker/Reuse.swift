import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// A top-level item's text, as the memo finds its records by: the bytes, and their hash
/// made once. Keyed by the bytes themselves, every lookup hashed the whole text a byte
/// at a time with SipHash, three lookups per item per check and again whenever a table
/// grew: most of what a keystroke spent on the memo itself.
struct ItemText: Hashable {
    let bytes: [UInt8]
    private let hash: UInt64

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
        hash = bytes.withContiguousStorageIfAvailable { FNV1a.hash($0) } ?? FNV1a.hash(bytes)
    }

    static func == (a: ItemText, b: ItemText) -> Bool { a.hash == b.hash && a.bytes == b.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// What one check of a document leaves for the next check of an edited version: the
/// lowering of each top-level layer, instance, `for` and `if`, with everything it read
/// and everything it did.
///
/// An editor checks the whole file on every keystroke, and most top-level items did
/// not change. An item is reused when its text is byte for byte the same and so is the
/// text of every top-level declaration it read (found or not, directly or through other
/// declarations); its layers, diagnostics and hover values are then replayed, moved to
/// where the texts now sit, instead of lowered again. The result is the same as a check
/// without a memo: anything an item read that is not in its record (a layer of another
/// item, the list of every name for a suggestion, a limit) makes the item not reusable.
///
/// A memo belongs to one document and one caller at a time.
public final class CheckMemo: @unchecked Sendable {
    /// The records of the last check, by item text.
    var records: [ItemText: [ItemRecord]] = [:]
    /// The records of the check in progress.
    var next: [ItemText: [ItemRecord]] = [:]

    /// How many top-level items the last check reused and lowered.
    public private(set) var reused = 0
    public private(set) var lowered = 0
    var reusedNow = 0, loweredNow = 0
    /// Counts checks, so that a record is replayed at most once per check.
    var generation = 0
    /// Per item text, how many of its records the check in progress has tried.
    var cursor: [ItemText: Int] = [:]
    /// Records the last check tried to replay, whether it could or not: at most one
    /// attempt per record, so never more than the records the check before kept.
    public private(set) var attempted = 0
    var attemptedNow = 0

    public init() {}

    /// The top-level names, in order, of the last check that kept a record reading them
    /// all. One list for the memo rather than one per record: every record it keeps was
    /// made or replayed by the last check, so each read that check's list. (A copy per
    /// record was a gigabyte for a thousand typos among 60,000 declarations.)
    var everyName: [String] = []

    func finish(everyName names: () -> [String]) {
        if next.values.contains(where: { $0.contains(where: \.readsEveryName) }) { everyName = names() }
        // The kept layers let go of this check's root, which goes with the check: a
        // layer's parent is unowned (see ``LayerNode/parent``), and the next check that
        // replays one sets it again.
        for records in next.values {
            for record in records {
                for node in record.roots { node.parent = nil }
            }
        }
        generation += 1
        records = next
        // Sized for as many texts as this check had: grown from empty, each table
        // rehashed its keys several times per check.
        next = Dictionary(minimumCapacity: records.count)
        cursor = Dictionary(minimumCapacity: records.count)
        attempted = attemptedNow
        attemptedNow = 0
        reused = reusedNow
        lowered = loweredNow
        reusedNow = 0
        loweredNow = 0
    }
}

/// The names read on the top-level scope: one frame for the item, and one more for each
/// top-level declaration being evaluated inside it. Each frame keeps only the names read
/// directly; what an item depends on is their closure (``Checker/dependencyClosure(_:)``),
/// so a chain of declarations costs its length, not its square.
final class DependencyLog {
    /// Stands for "every top-level name": a suggestion read the whole list.
    static let everyName = "*"
    // Written by every top-level lookup of the item being recorded, by the one thread that
    // checks the file (see ``Scope``): no dynamic exclusivity checks.
    @exclusivity(unchecked) private var frames: [Set<String>] = [DependencyLog.frame()]
    /// The interned names already in the top frame, as bits. An item reads the same
    /// handful of names again and again (every tile reads its component, `T`, `rgb`,
    /// `length`): a bit answers what hashing the name into the set again would.
    @exclusivity(unchecked) private var seen: [UInt64] = []

    /// A name read on the top-level scope; `id` is its interned id when the lookup had one.
    func read(_ name: String, id: UInt32 = Identifier.noNameID) {
        guard id != Identifier.noNameID else {
            frames[frames.count - 1].insert(name)
            return
        }
        let word = Int(id >> 6), bit: UInt64 = 1 << UInt64(id & 63)
        if word < seen.count, seen[word] & bit != 0 { return }
        if word >= seen.count { seen += [UInt64](repeating: 0, count: word + 1 - seen.count) }
        seen[word] |= bit
        frames[frames.count - 1].insert(name)
    }

    /// A suggestion read the list of every top-level name.
    func readEveryName() { read(DependencyLog.everyName) }

    // A frame pushed or popped changes which set the bits stand for: they are cleared,
    // which costs at most a name's insertion again.
    func push() {
        frames.append(DependencyLog.frame())
        clearSeen()
    }

    /// An empty frame with room for the handful of names an item or a declaration reads:
    /// grown from empty, a set was rehashed (with SipHash) three times on the way.
    private static func frame() -> Set<String> { Set(minimumCapacity: 8) }

    /// Ends a declaration's evaluation: the names it read directly.
    func pop() -> Set<String> {
        clearSeen()
        guard frames.count > 1, let top = frames.popLast() else { return [] }
        return top
    }

    private func clearSeen() {
        for i in seen.indices { seen[i] = 0 }
    }

    var itemNames: Set<String> { frames[0] }
}

/// What lowering one top-level item did, in the coordinates of the check that lowered it.
final class ItemRecorder {
    // Appended to by every instance of the item being recorded, by the one thread that
    // checks the file (see ``Scope``): no dynamic exclusivity checks.
    var cacheable = true
    @exclusivity(unchecked) var reports: [Diagnostic] = []
    @exclusivity(unchecked) var folded: [(UInt32, String)] = []
    /// Per key, the first text this item folded there, or nil once a different one came:
    /// the compacted value is then "varies" whatever follows (see ``compact()``).
    @exclusivity(unchecked) private var foldedSoFar = OffsetTable<String?>()
    @exclusivity(unchecked) var effects: [(SourceRange, Diagnostic?)] = []
    var animationNames: [(SourceRange, SourceRange)] = []
    var unrecognised: [SourceRange] = []
    let loweredStart: Int

    init(loweredStart: Int) { self.loweredStart = loweredStart }

    /// Records a folded value.
    func fold(_ key: UInt32, _ text: String) {
        folded.append((key, text))
        let k = UInt64(key)
        guard let seen = foldedSoFar[k] else {
            foldedSoFar.set(k, text)
            return
        }
        if let first = seen, first != text { foldedSoFar.set(k, nil) }
    }

    /// Whether values folded at `key` can no longer change what this item records: it
    /// already folded two different ones there. Each instance's text need not be made.
    func foldedVaries(_ key: UInt32) -> Bool {
        if case .some(.none) = foldedSoFar[UInt64(key)] { return true }
        return false
    }

    /// Merges what instances repeat (25 tiles report the same warning and fold the
    /// same parameters), so a replay does each thing once. Replaying the compacted
    /// events has the same effect: ``Checker/report(_:)`` keeps the first of equal
    /// messages, a folded value is one text or "varies", and a template's warning
    /// counts are sums with the last warning kept.
    func compact() {
        var seenReports: Set<String> = []
        reports = reports.filter { seenReports.insert(Checker.reportKey($0)).inserted }
        var foldedOrder: [UInt32] = []
        var merged: [UInt32: String] = [:]
        for (key, text) in folded {
            if let previous = merged[key] {
                if previous != text { merged[key] = Checker.varies }
            } else {
                merged[key] = text
                foldedOrder.append(key)
            }
        }
        folded = foldedOrder.map { ($0, merged[$0] ?? "") }
        // Per template, its place in the counts, found through the file's own range
        // table (a `Dictionary` hashed each instance's key with SipHash).
        var places = OffsetTable<Int>()
        var counts: [(key: SourceRange, instances: Int, none: Int, diagnostic: Diagnostic?)] = []
        for (key, none) in effects {
            let k = OffsetTable<Int>.key(key)
            let place: Int
            if let known = places[k] {
                place = known
            } else {
                place = counts.count
                places.set(k, place)
                counts.append((key, 0, 0, nil))
            }
            counts[place].instances += 1
            if let none {
                counts[place].none += 1
                counts[place].diagnostic = none
            }
        }
        effectCounts = counts
        effects = []
    }

    /// The template warnings after ``compact()``: per template, the expansions, how many
    /// had no effect, and the last warning.
    var effectCounts: [(key: SourceRange, instances: Int, none: Int, diagnostic: Diagnostic?)] = []
}

/// A top-level item's lowering, kept for later checks. A replay hands its layers to the
/// new check and moves its ranges, in place, to where the texts now sit: the record
/// then describes the new check, and the next edit moves it again.
final class ItemRecord {
    struct Dependency {
        let name: String
        /// The declaration's text and where it starts, or nil for a name that was not declared.
        var declaration: (text: [UInt8], start: UInt32)?
    }

    var start: UInt32
    let length: UInt32
    var dependencies: [Dependency]
    /// Whether a suggestion read the list of every top-level name: the record then
    /// stands only while that list is what it was (``CheckMemo/everyName``).
    let readsEveryName: Bool
    let roots: [LayerNode]
    let lowered: [LoweredAnimation]
    /// Whether the item's animations were registered as lowered (``lowered`` is then all
    /// of them). A file without a reference (`go.end`) registers none, and a record made
    /// so cannot be replayed into a check of a file with one: that item is lowered again.
    let registered: Bool
    let events: ItemRecorder
    let layers: Int, iterations: Int, evaluations: Int
    /// Candidates its suggestions compared (see ``Checker/suggestionBudget``).
    let suggestionWork: Int
    /// The memo generation that last replayed this record: one record serves one item per check.
    var replayedIn = -1

    init(start: UInt32, length: UInt32, dependencies: [Dependency], readsEveryName: Bool, roots: [LayerNode],
         lowered: [LoweredAnimation], registered: Bool, events: ItemRecorder, layers: Int, iterations: Int, evaluations: Int,
         suggestionWork: Int) {
        self.start = start
        self.length = length
        self.dependencies = dependencies
        self.readsEveryName = readsEveryName
        self.roots = roots
        self.lowered = lowered
        self.registered = registered
        self.events = events
        self.layers = layers
        self.iterations = iterations
        self.evaluations = evaluations
        self.suggestionWork = suggestionWork
    }

    /// Moves every range the record holds; false if one lies outside the moved spans
    /// (the record is then half moved and must be dropped).
    func move(_ shift: RangeShift) -> Bool {
        for node in roots where !node.move(shift) { return false }
        for a in lowered {
            guard let r = shift(a.nameRange) else { return false }
            a.nameRange = r
            for i in a.groups.indices where !a.groups[i].move(shift) { return false }
        }
        let e = events
        for i in e.reports.indices {
            guard let d = shift.diagnostic(e.reports[i]) else { return false }
            e.reports[i] = d
        }
        for i in e.effectCounts.indices {
            guard let k = shift(e.effectCounts[i].key) else { return false }
            e.effectCounts[i].key = k
            if let d = e.effectCounts[i].diagnostic {
                guard let moved = shift.diagnostic(d) else { return false }
                e.effectCounts[i].diagnostic = moved
            }
        }
        for i in e.animationNames.indices {
            guard let a = shift(e.animationNames[i].0), let n = shift(e.animationNames[i].1) else { return false }
            e.animationNames[i] = (a, n)
        }
        for i in e.unrecognised.indices {
            guard let r = shift(e.unrecognised[i]) else { return false }
            e.unrecognised[i] = r
        }
        for i in e.folded.indices {
            guard let r = shift(.empty(at: e.folded[i].0)) else { return false }
            e.folded[i].0 = r.start
        }
        return true
    }
}

extension Checker {
    /// Lowers the top-level item `item` with `lower`, or replays its record from the
    /// memo when nothing it read changed; with a memo, records it for the next check.
    func lowerTopLevel(_ item: Item, root: LayerNode, _ lower: () -> Void) {
        guard let memo else { return lower() }
        let text = ItemText(tree.file.bytes[Int(item.range.start)..<Int(item.range.end)])
        if let candidates = memo.records[text] {
            // Items of the same text take the records in turn, each record tried at most
            // once per check: trying all of them for every item made a re-check of n
            // identical items (`if c { }` repeated) cost n² replay attempts, 37 s for
            // 32,000. A record that fails for one item is not tried for the next one of
            // the same text, which at worst lowers that item again.
            var next = memo.cursor[text] ?? 0
            defer { memo.cursor[text] = next }
            while next < candidates.count {
                let record = candidates[next]
                next += 1
                memo.attemptedNow += 1
                guard replay(record, item, root: root) else { continue }
                memo.next[text, default: []].append(record)
                memo.reusedNow += 1
                return
            }
        }
        memo.loweredNow += 1
        let log = DependencyLog()
        global.observer = log
        let recorder = ItemRecorder(loweredStart: loweredAnimations.count)
        self.recorder = recorder
        let before = (layerCount, iterationCount, evaluationCount, root.children.count, suggestionWork)
        lower()
        self.recorder = nil
        global.observer = nil
        guard recorder.cacheable, !recordingStopped else { return }
        let (names, everyName) = dependencyClosure(log.itemNames)
        var dependencies: [ItemRecord.Dependency] = []
        for name in names.sorted() {
            let declaration = topLevelDeclarations[name].map { decl in
                (text: Array(tree.file.bytes[Int(decl.range.start)..<Int(decl.range.end)]), start: decl.range.start)
            }
            dependencies.append(.init(name: name, declaration: declaration))
        }
        let regions = [item.range] + dependencies.compactMap { d in
            d.declaration.map { SourceRange(start: $0.start, end: $0.start + UInt32($0.text.count)) }
        }
        // What the parser recovered is a guess, and the checker's messages near it depend
        // on where every error is.
        guard !regions.contains(where: spansSyntaxError) else { return }
        let record = ItemRecord(
            start: item.range.start, length: item.range.end - item.range.start, dependencies: dependencies,
            readsEveryName: everyName,
            roots: Array(root.children[before.3...]), lowered: Array(loweredAnimations[recorder.loweredStart...]),
            registered: registersLowered, events: recorder, layers: layerCount - before.0, iterations: iterationCount - before.1,
            evaluations: evaluationCount - before.2, suggestionWork: suggestionWork - before.4)
        recorder.compact()
        memo.next[text, default: []].append(record)
    }

    /// The top-level names read by an item that read `names`: those, and what the
    /// declarations they name read when they were evaluated, recursively; and whether
    /// any of them read the list of every name.
    func dependencyClosure(_ names: Set<String>) -> (Set<String>, everyName: Bool) {
        var seen = Set<String>(minimumCapacity: names.count)
        var everyName = false
        var pending = Array(names)
        while let name = pending.popLast() {
            if name == DependencyLog.everyName {
                everyName = true
                continue
            }
            guard seen.insert(name).inserted else { continue }
            if let direct = global.local(name)?.dependencies { pending += direct }
        }
        return (seen, everyName)
    }

    /// Replays `record` for `item` when everything it read is unchanged and the result
    /// is what lowering would give; false (having changed nothing) otherwise.
    private func replay(_ record: ItemRecord, _ item: Item, root: LayerNode) -> Bool {
        var moves = [(from: record.start, length: record.length, to: item.range.start)]
        for d in record.dependencies {
            let current = topLevelDeclarations[d.name]
            switch (d.declaration, current) {
            case (nil, nil):
                continue
            case (let old?, let now?):
                guard now.range.end - now.range.start == UInt32(old.text.count),
                      tree.file.bytes[Int(now.range.start)..<Int(now.range.end)].elementsEqual(old.text) else { return false }
                moves.append((old.start, UInt32(old.text.count), now.range.start))
            default:
                return false
            }
        }
        if record.readsEveryName && !everyNameUnchanged { return false }
        if registersLowered && !record.registered { return false }
        for m in moves where spansSyntaxError(SourceRange(start: m.to, end: m.to + m.length)) { return false }
        guard layerCount + record.layers <= ExpansionLimits.maxLayers,
              iterationCount + record.iterations <= ExpansionLimits.maxLoopIterations,
              evaluationCount + record.evaluations <= evaluationLimit,
              suggestionWork + record.suggestionWork <= suggestionBudget,
              diagnostics.count + record.events.reports.count < SyntaxDiagnostics.recordedLimit,
              !record.roots.contains(where: { root.child(named: $0.name) != nil }) else { return false }

        guard let memo, record.replayedIn != memo.generation else { return false }
        record.replayedIn = memo.generation
        if moves.contains(where: { $0.from != $0.to }) {
            // Half moved: lowered afresh below, and recorded anew. The record is not tried
            // again in this check (see the cursor in `lowerTopLevel`), and the next check
            // keeps only the records this one replayed or made.
            guard record.move(RangeShift(moves)) else { return false }
            record.start = item.range.start
            for i in record.dependencies.indices {
                guard let old = record.dependencies[i].declaration, let now = topLevelDeclarations[record.dependencies[i].name] else { continue }
                record.dependencies[i].declaration = (old.text, now.range.start)
            }
        }
        // Made in an earlier check: whether they hold masks is not known here.
        masksWritten = true
        for node in record.roots {
            node.resetMasks()
            node.parent = root
            root.children.append(node)
            root.childNames.table[node.name] = node.nameRange
        }
        for a in record.lowered { appendLowered(a) }
        let events = record.events
        for d in events.reports { report(d) }
        for (key, text) in events.folded { recordFolded(at: key, text) }
        for e in events.effectCounts { noteEffects(e.key, instances: e.instances, none: e.none, last: e.diagnostic) }
        for (range, name) in events.animationNames where reusedAnimationNames[range] == nil { reusedAnimationNames.set(range, name) }
        unrecognisedAttributeItems.formUnion(events.unrecognised)
        layerCount += record.layers
        iterationCount += record.iterations
        evaluationCount += record.evaluations
        suggestionWork += record.suggestionWork
        return true
    }
}

/// Moves ranges of a recorded check to where their text sits now. Each range must lie
/// inside one of the moved spans (the item, or a declaration it read); one that does not
/// gives nil, and the record is not used.
struct RangeShift {
    private let moves: [(from: UInt32, length: UInt32, to: UInt32)]

    init(_ moves: [(from: UInt32, length: UInt32, to: UInt32)]) { self.moves = moves }

    func callAsFunction(_ r: SourceRange) -> SourceRange? {
        for m in moves where r.start >= m.from && r.end <= m.from + m.length && r.start <= r.end {
            return SourceRange(start: r.start - m.from + m.to, end: r.end - m.from + m.to)
        }
        return nil
    }

    func diagnostic(_ d: Diagnostic) -> Diagnostic? {
        var moved = d
        guard let primary = self(d.primary.range) else { return nil }
        moved.primary.range = primary
        for i in moved.secondary.indices {
            guard let r = self(moved.secondary[i].range) else { return nil }
            moved.secondary[i].range = r
        }
        for i in moved.notes.indices {
            guard let old = moved.notes[i].range else { continue }
            guard let r = self(old) else { return nil }
            moved.notes[i].range = r
        }
        for i in moved.fixIts.indices {
            for j in moved.fixIts[i].edits.indices {
                guard let r = self(moved.fixIts[i].edits[j].range) else { return nil }
                moved.fixIts[i].edits[j].range = r
            }
        }
        return moved
    }
}

extension Animation {
    /// Moves this animation's ranges in place (its children's too, without copying
    /// them when nothing else holds them); false if one cannot be moved.
    mutating func move(_ shift: RangeShift) -> Bool {
        guard let r = shift(range) else { return false }
        range = r
        guard case .group(var children) = kind else { return true }
        kind = .group([])
        defer { kind = .group(children) }
        for i in children.indices where !children[i].move(shift) { return false }
        return true
    }
}

extension LayerNode {
    /// Moves this subtree's ranges in place; false if one cannot be moved.
    func move(_ shift: RangeShift) -> Bool {
        guard let n = shift(nameRange), let r = shift(range) else { return false }
        nameRange = n
        range = r
        irLayer = nil
        guard properties.moveRanges({ shift($0) }) else { return false }
        for i in animations.indices where !animations[i].move(shift) { return false }
        if let (name, r) = maskReference {
            guard let moved = shift(r) else { return false }
            maskReference = (name, moved)
        }
        for child in children where !child.move(shift) { return false }
        return moveChildNames(shift)
    }

    /// Forgets the masks resolved by the check that made this subtree: masks are
    /// resolved again over the whole tree of each check.
    func resetMasks() {
        clearMasks()
        for child in children { child.resetMasks() }
    }
}
