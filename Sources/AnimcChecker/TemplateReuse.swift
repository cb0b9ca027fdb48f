import AnimcBase
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

/// The lookup log of the template animation being lowered, shared by the scopes of one
/// check.
final class TemplateReads {
    final class Log {
        var reads: [(name: String, binding: Binding?)] = []
        func append(_ read: (String, Binding?)) { reads.append(read) }
    }

    /// The log lookups go to; nil when no template animation is being lowered. (Read by
    /// every lookup; see `Scope` for why unchecked.)
    @exclusivity(unchecked) var active: Log?
}

/// Everything besides names that lowering a leaf animation reads.
struct TemplateKey: Hashable {
    var range: SourceRange
    var layerKind: LayerKind
    /// The enclosing group's duration as bits (a child without a duration takes it); nil
    /// outside a group and in a group that gives none, which `inGroup` tells apart.
    var groupDuration: UInt64?
    var inGroup: Bool
    var definitionDepth: Int
    var expectedDimension: Dimension?
}

/// The lowerings kept for one key, and how often one was reused: a key whose every
/// instance differs (a tile's offset from the centre) stops being logged and searched
/// once it holds its share.
///
/// Slots and entries are classes so that searching them copies nothing: a struct entry
/// (its reads, its animation's arrays) copied out of the cache to be tested cost more
/// than the test.
final class TemplateSlot {
    var entries: [TemplateEntry] = []
    var reuses = 0
    var isCold: Bool { reuses == 0 && entries.count >= Checker.maxTemplateEntries }
}

/// A lowered leaf animation and what its lowering read. Immutable once kept.
final class TemplateEntry {
    /// Each name looked up, what it resolved to, and that binding's value once lowered.
    let reads: [(name: String, binding: Binding?, value: SemaValue?)]
    let animation: Animation
    let type: ValueType
    /// Expression evaluations the lowering made, so reuse counts toward the same limit.
    let evaluations: Int

    init(reads: [(name: String, binding: Binding?, value: SemaValue?)], animation: Animation, type: ValueType, evaluations: Int) {
        self.reads = reads
        self.animation = animation
        self.type = type
        self.evaluations = evaluations
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
        guard reusesTemplates, definitionDepth > 0 || !activeLoops.isEmpty,
              case .animation(let kind, let target, _, let along, let body) = item.kind,
              target != nil, along == nil, kind.name == "basic" || kind.name == "keyframes",
              !spansSyntaxError(item.range) else { return nil }
        for child in body.items {
            switch child.kind {
            case .property, .keyframe: continue
            default: return nil
            }
        }
        return TemplateKey(range: item.range, layerKind: layerKind, groupDuration: group?.duration.map(\.bitPattern),
                           inGroup: group != nil, definitionDepth: definitionDepth, expectedDimension: expectedDimension)
    }

    /// Reuses an earlier instance's lowering when every name it read resolves to the same
    /// value here; otherwise lowers afresh and keeps the result when it can be reused.
    func lowerTemplateAnimation(_ item: Item, key: TemplateKey, layerKind: LayerKind, scope: Scope,
                                group: GroupContext?) -> Animation? {
        let slot = templateCache[key]
        if let slot {
            if slot.isCold { return lowerAnimationAfresh(item, layerKind: layerKind, scope: scope, group: group) }
            for entry in slot.entries where evaluationCount <= ExpansionLimits.maxEvaluations - entry.evaluations {
                guard entry.reads.allSatisfy({ read in sameBinding(scope.lookup(read.name), read.binding, read.value) }) else { continue }
                evaluationCount += entry.evaluations
                templateReuses += 1
                slot.reuses += 1
                checkPropertyAnimationRules(entry.animation, item: item, type: entry.type)
                registerLowered(entry.animation, nameRange: animationNameRange(item))
                return entry.animation
            }
        }

        let hub = scope.templateReads
        let log = TemplateReads.Log()
        let outerLog = hub.active, reportsBefore = reportCalls, evaluationsBefore = evaluationCount
        hub.active = log
        readLoweredAnimations = false
        let animation = lowerAnimationAfresh(item, layerKind: layerKind, scope: scope, group: group)
        hub.active = outerLog
        outerLog?.reads += log.reads

        guard let animation, reportCalls == reportsBefore, !readLoweredAnimations,
              (slot?.entries.count ?? 0) < Checker.maxTemplateEntries,
              templateEntryCount < Checker.maxTemplateEntriesInAll,
              case .animation(_, let target?, _, _, _) = item.kind, let info = PropertyTable.keyPath(target.dotted) else { return animation }
        var reads: [(name: String, binding: Binding?, value: SemaValue?)] = []
        for read in log.reads where !reads.contains(where: { $0.name == read.name && $0.binding === read.binding }) {
            reads.append((read.name, read.binding, read.binding?.value))
        }
        templateEntryCount += 1
        let kept = slot ?? TemplateSlot()
        if slot == nil { templateCache[key] = kept }
        kept.entries.append(TemplateEntry(reads: reads, animation: animation, type: info.type,
                                          evaluations: evaluationCount - evaluationsBefore))
        return animation
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
