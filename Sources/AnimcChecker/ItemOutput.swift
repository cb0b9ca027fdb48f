import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// What lowering one top-level item (a layer, an instance, a `for`, an `if`) produced,
/// beside the layer nodes it attached to the root: the checker merges it into the
/// file's result when the item is done (``Checker/merge(_:)``), and a ``CheckMemo``
/// keeps it to replay in a later check. Lowering writes here and nowhere else that
/// outlives the item; it knows nothing of the memo.
struct ItemOutput {
    /// Every report, in order, each once by its key (one mistake, one message); the
    /// file's merge keeps the first of equal keys across items.
    private(set) var diagnostics: [(key: String, diagnostic: Diagnostic)] = []
    private var keys: Set<String> = []
    /// How many of them no item merged before had reported: what counts towards the
    /// check's cap on diagnostics.
    private(set) var newDiagnostics = 0
    /// Hover values, by the start of the declaration's name.
    private(set) var folded: [UInt32: Folded] = [:]
    /// Per animation template (an animation item in a loop or component body, by its
    /// range): how many times it was expanded, how many of those had no visible effect,
    /// and the warning to give if none had.
    private(set) var effects: [SourceRange: EffectCount] = [:]
    /// The animation items lowered, in order.
    var animations: [Item] = []
    /// The range naming each animation lowered, by the animation's range: filled for an
    /// output kept for a later check, whose tree will not hold these items.
    var animationNames: [SourceRange: SourceRange] = [:]
    /// The top-level layers the item made.
    var layers: [LayerNode] = []
    /// The animations registered for references (`go.end`), in order.
    var lowered: [LoweredAnimation] = []
    /// Animation items whose attributes were not all recognised.
    var unrecognised: [SourceRange] = []
    /// The work the item did, and the part of it spent evaluating top-level
    /// declarations first used here (a later check may find them evaluated already).
    var work = Work()
    var firstUseEvaluations = 0
    /// Why a later check may not replay this output: what the item read lies outside its
    /// text and the declarations it named, or its result depends on where a limit fell.
    private(set) var notReplayable: Set<NotReplayable> = []

    /// What a declaration folded to: the value itself until a second value comes (most
    /// bindings of a template take the same value every time, and comparing values costs
    /// less than writing them), then its text, or ``Checker/varies``.
    enum Folded {
        case value(SemaValue)
        case text(String)

        /// The text hover shows.
        var text: String {
            switch self {
            case .value(let v): return v.sourceText ?? ""
            case .text(let t): return t
            }
        }

        /// What kind of value it is ("a time"), while it is one value.
        var typeName: String? {
            if case .value(let v) = self { return v.typeName }
            return nil
        }

        /// The fold of this and a later value at the same declaration.
        func adding(_ other: Folded) -> Folded {
            if case .text(Checker.varies) = self { return self }
            if case .value(let a) = self, case .value(let b) = other, a.isSame(as: b) { return self }
            return text == other.text ? self : .text(Checker.varies)
        }
    }

    struct EffectCount {
        var instances = 0
        var none = 0
        var warning: Diagnostic?
    }

    mutating func report(_ d: Diagnostic, key: String, new: Bool) {
        guard keys.insert(key).inserted else { return }
        diagnostics.append((key, d))
        if new { newDiagnostics += 1 }
    }

    func hasReported(_ key: String) -> Bool { keys.contains(key) }

    mutating func fold(_ key: UInt32, _ value: SemaValue) {
        if let previous = folded[key] {
            folded[key] = previous.adding(.value(value))
        } else if value.sourceText != nil {
            folded[key] = .value(value)
        }
    }

    /// Counts one expansion of the animation template at `key`, with the warning it
    /// gets when it has no visible effect.
    mutating func noteExpansion(_ key: SourceRange, noEffect warning: Diagnostic?) {
        effects[key, default: EffectCount()].instances += 1
        if let warning {
            effects[key, default: EffectCount()].none += 1
            effects[key]?.warning = warning
        }
    }

    mutating func cannotReplay(_ reason: NotReplayable) { notReplayable.insert(reason) }

    /// Moves every range the output holds to where its text now sits (see
    /// ``RangeShift``); false if one lies outside the moved spans, and the output is
    /// then not to be used.
    mutating func move(_ shift: RangeShift) -> Bool {
        for i in diagnostics.indices {
            guard let d = shift.diagnostic(diagnostics[i].diagnostic) else { return false }
            diagnostics[i] = (Checker.reportKey(d), d)
        }
        keys = Set(diagnostics.map(\.key))
        var movedFolded: [UInt32: Folded] = [:]
        for (key, value) in folded {
            guard let r = shift(.empty(at: key)) else { return false }
            movedFolded[r.start] = value
        }
        folded = movedFolded
        var movedEffects: [SourceRange: EffectCount] = [:]
        for (key, count) in effects {
            guard let k = shift(key) else { return false }
            var moved = count
            if let w = count.warning {
                guard let d = shift.diagnostic(w) else { return false }
                moved.warning = d
            }
            movedEffects[k] = moved
        }
        effects = movedEffects
        var movedNames: [SourceRange: SourceRange] = [:]
        for (a, n) in animationNames {
            guard let a2 = shift(a), let n2 = shift(n) else { return false }
            movedNames[a2] = n2
        }
        animationNames = movedNames
        for i in unrecognised.indices {
            guard let r = shift(unrecognised[i]) else { return false }
            unrecognised[i] = r
        }
        for node in layers where !node.move(shift) { return false }
        for a in lowered where !a.move(shift) { return false }
        return true
    }
}

/// Why a top-level item's output cannot be replayed by a later check, each decided in
/// one place: while the item is lowered (``ItemOutput/cannotReplay(_:)``), when it is
/// recorded, or when a later check tries it (``Checker/replayBlocker(_:for:)``).
enum NotReplayable: String, CaseIterable, Hashable {
    /// A limit (layers, iterations, evaluations, definition depth) was met: where it
    /// falls depends on the items before.
    case limit
    /// A suggestion was left out for the check's budget, which the items before spent.
    case suggestionBudget
    /// The composition was declared inside the item (a top-level `if`).
    case composition
    /// A top-level layer's name clashed with another item's layer.
    case otherItemsLayers
    /// A reference (`go.end`) read another item's animation, or a suggestion read them all.
    case otherItemsAnimations
    /// The check had stopped recording diagnostics.
    case diagnosticCap
    /// The item, or a declaration it read, spans a syntax error: what the parser recovered
    /// there depends on every error's place.
    case nearSyntaxError
    /// A top-level declaration it read (or a name it looked up in vain) is now written
    /// differently, or declared where it was not.
    case dependencyChanged
    /// A suggestion read every top-level name, and the names are not what they were.
    case everyNameChanged
    /// The file now has references (`go.end`) and the item's animations were not registered.
    case registration
    /// The item's work would pass a limit after the items before it.
    case noRoom
    /// One of its top-level layers is named like a layer an earlier item made.
    case nameClash
}

/// What every item merged so far adds up to, besides the diagnostics.
struct MergedOutputs {
    var folded: [UInt32: ItemOutput.Folded] = [:]
    var effects: [SourceRange: ItemOutput.EffectCount] = [:]
    var animationNames: [SourceRange: SourceRange] = [:]
}

extension Checker {
    /// What hover shows for a binding whose value differs between instances or iterations.
    static let varies = "varies"

    /// Adds an item's output to the file's result.
    func merge(_ item: ItemOutput) {
        for (key, d) in item.diagnostics where seen.insert(key).inserted {
            if diagnostics.count < SyntaxDiagnostics.recordedLimit {
                diagnostics.append(d)
                continue
            }
            if diagnostics.count == SyntaxDiagnostics.recordedLimit {
                diagnostics.append(SyntaxDiagnostics.tooManyDiagnostics(d.range, stage: "checking"))
            }
            if d.severity == .error { droppedAnError = true }
        }
        for (key, value) in item.folded {
            merged.folded[key] = merged.folded[key].map { $0.adding(value) } ?? value
        }
        for (key, count) in item.effects {
            var total = merged.effects[key, default: ItemOutput.EffectCount()]
            total.instances += count.instances
            total.none += count.none
            if count.none > 0 { total.warning = count.warning }
            merged.effects[key] = total
        }
        merged.animationNames.merge(item.animationNames) { first, _ in first }
    }

    /// The range that names an animation in messages.
    func nameRange(_ a: Animation) -> SourceRange {
        if let item = animationItems[a.range] { return animationNameRange(item) }
        return merged.animationNames[a.range] ?? a.range
    }
}
