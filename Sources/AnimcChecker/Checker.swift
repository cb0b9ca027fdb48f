import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// What checking one file produced: the IR when there are no errors, and every
/// diagnostic (syntax diagnostics are the parser's and are not repeated here).
public struct CheckResult: Sendable {
    public var composition: Composition?
    public var diagnostics: [Diagnostic]
}

/// Checks a parsed file and lowers it to IR. Never traps; broken trees give
/// diagnostics. The tree's own syntax diagnostics are not included in the result.
public func check(_ tree: SyntaxTree) -> CheckResult {
    let checker = Checker(tree: tree)
    return checker.run()
}

/// Limits on expansion, so that no input can make the checker run away.
///
/// The limits are sized so that hitting one takes about a second (release build):
/// a runaway loop must fail fast, not after minutes and gigabytes.
public enum ExpansionLimits {
    public static let maxLayers = 250_000
    public static let maxLoopIterations = 1_000_000
    public static let maxKeyframes = 1_000_000
    /// Expression evaluations in one file, all loops and instances included: loop
    /// bodies of any size times any iteration count stay bounded.
    public static let maxEvaluations = 20_000_000
}

final class Checker {
    let tree: SyntaxTree
    let global: Scope
    var diagnostics: [Diagnostic] = []
    private var seen: Set<String> = []
    /// Declarations (by the start of their name) that something referred to.
    var used: Set<UInt32> = []
    /// Every declaration that was registered, for the unused-definition warning.
    var declared: [UInt32: Binding] = [:]
    var layerCount = 0
    var iterationCount = 0
    var evaluationCount = 0
    var expansionReported = false
    /// Components being instantiated, to catch a component that contains itself.
    var instantiating: [ObjectIdentifier] = []
    /// Definitions (constants, paths, component instances) being evaluated, one inside
    /// the other. Each level recurses through the evaluator, so the chain is bounded.
    var definitionDepth = 0
    /// The dimension the expression being evaluated will need, when known: where an
    /// angle is expected, a pasted `.pi` is rewritten as degrees.
    var expectedDimension: Dimension?
    /// The `for` bindings being expanded, innermost last, for messages about what a
    /// loop repeats.
    var activeLoops: [SourceRange] = []
    /// Animations lowered so far, and where the one being lowered sits: for
    /// `beginTime: go.end`.
    var loweredAnimations: [LoweredAnimation] = []
    var currentFrame = TimeFrame()
    static let maxDefinitionDepth = 128

    /// Reports the definition depth limit once per file: past the first, every later
    /// evaluation of the same chain would meet it again.
    func definitionsTooDeep(_ range: SourceRange, name: String) {
        guard !reportedDefinitionDepth else { return }
        reportedDefinitionDepth = true
        report(Messages.definitionsTooDeep(range, name: name, limit: Checker.maxDefinitionDepth))
    }
    private var reportedDefinitionDepth = false
    /// By the animation's range: its body, for fix-its that add attributes, and the
    /// range naming it (its key path, `as` name or group name).
    var animationSites: [SourceRange: (block: Block, name: SourceRange)] = [:]
    /// Per animation template: how many expansions there were, how many had no visible
    /// effect, and the warning to give if all of them had none.
    var noEffect: [SourceRange: (instances: Int, count: Int, diagnostic: Diagnostic?)] = [:]
    /// Set when the tree had syntax errors: some checks (unused names) would only add noise.
    let hasSyntaxErrors: Bool

    init(tree: SyntaxTree) {
        self.tree = tree
        self.global = Scope(parent: nil)
        self.hasSyntaxErrors = tree.diagnostics.contains { $0.severity == .error }
    }

    // MARK: Reporting

    /// Records a diagnostic once: loops and instances evaluate the same source many
    /// times, and one mistake must still be one message.
    func report(_ d: Diagnostic) {
        guard !recordingStopped else { return }
        let key = "\(d.code.rawValue)|\(d.range.start)|\(d.range.end)|\(d.message)"
        guard !seen.contains(key) else { return }
        seen.insert(key)
        if diagnostics.count < SyntaxDiagnostics.recordedLimit {
            diagnostics.append(d)
        } else {
            diagnostics.append(SyntaxDiagnostics.tooManyDiagnostics(d.range, stage: "checking"))
        }
    }

    /// Past ``SyntaxDiagnostics/recordedLimit`` diagnostics (and the E0213 that says
    /// so) nothing more is recorded, and nothing is spent on messages.
    var recordingStopped: Bool { diagnostics.count > SyntaxDiagnostics.recordedLimit }

    /// The global suggestion search, skipped once recording has stopped: an edit
    /// distance against every property name for each of two million bad lines took
    /// most of a minute.
    func closestMatch(to name: String, in candidates: [String]) -> String? {
        recordingStopped ? nil : AnimcBase.closestMatch(to: name, in: candidates)
    }

    func text(_ range: SourceRange) -> String { tree.file.text(range) }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Driver

    func run() -> CheckResult {
        let composition = lowerFile()
        for (_, entry) in noEffect.sorted(by: { $0.key < $1.key }) where entry.count == entry.instances {
            if let d = entry.diagnostic { report(d) }
        }
        reportUnused()
        let sorted = diagnostics.sorted(by: Diagnostic.ordered)
        let ok = !sorted.contains { $0.severity == .error } && !hasSyntaxErrors
        return CheckResult(composition: ok ? composition : nil, diagnostics: sorted)
    }

    /// Registers a binding in `scope`, reporting duplicates and shadowing.
    func declare(_ binding: Binding, in scope: Scope) {
        let name = binding.name
        if let existing = scope.local(name.name) {
            if existing.name.range != name.range {
                report(Messages.duplicate(name.range, name: name.name, what: binding.kind.noun, previous: existing.name.range))
            }
            return
        }
        if binding.kind != .loopVariable, let outer = scope.parent?.lookup(name.name),
           outer.name.range != name.range, outer.kind != .component {
            report(Messages.shadowing(name.range, name: name.name, outer: outer.name.range, what: outer.kind.noun))
        }
        scope.insert(binding)
        if binding.kind != .loopVariable && declared[name.range.start] == nil {
            declared[name.range.start] = binding
        }
    }

    func markUsed(_ binding: Binding) { used.insert(binding.name.range.start) }

    private func reportUnused() {
        guard !hasErrors && !hasSyntaxErrors else { return }
        for (start, binding) in declared.sorted(by: { $0.key < $1.key }) where !used.contains(start) {
            if binding.name.name.hasPrefix("_") { continue }
            report(Messages.unused(binding.name.range, name: binding.name.name, what: binding.kind.noun))
        }
    }

    /// Counts expanded layers and loop iterations; past a limit, reports once and
    /// returns false so the caller stops expanding.
    func allowExpansion(layers: Int = 0, iterations: Int = 0, at range: SourceRange) -> Bool {
        layerCount += layers
        iterationCount += iterations
        if layerCount > ExpansionLimits.maxLayers || iterationCount > ExpansionLimits.maxLoopIterations
            || evaluationCount > ExpansionLimits.maxEvaluations {
            if !expansionReported {
                expansionReported = true
                let limit: Messages.ExpansionLimit = layerCount > ExpansionLimits.maxLayers ? .layers
                    : iterationCount > ExpansionLimits.maxLoopIterations ? .iterations : .evaluations
                report(Messages.expansionTooLarge(range, limit))
            }
            return false
        }
        return true
    }
}
