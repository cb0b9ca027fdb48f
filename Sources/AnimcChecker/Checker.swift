import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcPorting
import AnimcSyntax

/// What checking one file produced: the IR when there are no errors, and every
/// diagnostic (syntax diagnostics are the parser's and are not repeated here).
public struct CheckResult: Sendable {
    public var composition: Composition?
    public var diagnostics: [Diagnostic]
    /// The folded value of each constant, timing function and parameter, by the start
    /// of its name, as `.anim` would write it ("1.2s", "rgb(15, 78, 101)"); "varies"
    /// for a declaration inside a loop or component that took several values. For an
    /// editor's hover.
    public var foldedValues = FoldedValues()
    /// The IR as far as it could be lowered, even with errors (items that failed are
    /// missing from it). Never to be built: for an editor's hover while typing.
    public var partialComposition: Composition?
    /// The file's declarations and references, which the check builds for its unused
    /// warnings: an editor's navigation needs the same index.
    public var names: NameIndex?
    /// The file's `test` blocks, checked against the composition (`animc test`).
    public var tests: [TestCase] = []
    /// The file's inputs, states and transitions, when it declares any and has no
    /// errors; the composition then shows the first state.
    public var interaction: Interaction?
}

/// What each declaration folded to, by the start of its name (see
/// ``CheckResult/foldedValues``).
public struct FoldedValues: Sendable, Equatable {
    /// Every value's text by offset.
    public private(set) var texts: [UInt32: String] = [:]
    /// What kind of value each is ("a time", "a timing function"), where a declaration
    /// took one value: for an editor's completion to offer what fits.
    public private(set) var typeNames: [UInt32: String] = [:]

    /// No values.
    public init() {}

    init(_ texts: [UInt32: String], typeNames: [UInt32: String] = [:]) {
        self.texts = texts
        self.typeNames = typeNames
    }

    /// The text of the declaration whose name starts at `offset`.
    public subscript(offset: UInt32) -> String? { texts[offset] }

    /// The kind of value of the declaration whose name starts at `offset`, as messages
    /// name it ("a time").
    public func typeName(at offset: UInt32) -> String? { typeNames[offset] }

    public var count: Int { texts.count }
}

/// Checks a parsed file and lowers it to IR. Never traps; broken trees give
/// diagnostics. The tree's own syntax diagnostics are not included in the result.
///
/// With a `memo`, top-level items whose text and dependencies are unchanged since the
/// memo's last check are not lowered again, and the memo is updated for the next
/// check: what an editor does on every keystroke. The result is the same as without.
///
/// `imports` are the modules the file's `import`s resolved to (see ``ResolvedImports``);
/// without them every import is unresolved.
public func check(_ tree: SyntaxTree, imports: ResolvedImports = .none, memo: CheckMemo? = nil,
                  limits: ExpansionLimits = .standard) -> CheckResult {
    // Without a way to cancel, a check always finishes.
    Checker(tree: tree, memo: memo, limits: limits, imports: imports).run() ?? CheckResult(composition: nil, diagnostics: [])
}

/// ``check(_:memo:)`` that stops early, returning nil, once `isCancelled` returns true:
/// an editor's check of a version the user has already typed past. It is asked between
/// top-level items and every few thousand evaluations inside one, so a check stops
/// within milliseconds whatever the file holds. A cancelled check leaves `memo` as
/// useful as before: what it replayed or lowered completely is kept for the next check.
public func check(_ tree: SyntaxTree, imports: ResolvedImports = .none, memo: CheckMemo?,
                  until isCancelled: @escaping () -> Bool) -> CheckResult? {
    let checker = Checker(tree: tree, memo: memo, imports: imports)
    checker.isCancelled = isCancelled
    checker.nextCancellationPoll = Checker.cancellationPollInterval
    return checker.run()
}

/// Limits on expansion, so that no input can make the checker run away.
///
/// The limits are sized so that hitting one takes about a second (release build):
/// a runaway loop must fail fast, not after minutes and gigabytes. Every check uses
/// ``standard``; the fuzz targets use smaller ones, so that any input is checked within
/// a fraction of their time limit and one that is not is a finding.
public struct ExpansionLimits: Sendable, Equatable {
    public var layers = 250_000
    public var loopIterations = 1_000_000
    public var keyframes = 1_000_000
    /// Expression evaluations in one file, all loops and instances included, where
    /// every item a loop's body holds and every declaration made counts as one too: loop
    /// bodies of any size and kind times any iteration count stay bounded.
    public var evaluations = 5_000_000
    /// What making one layer or one animation in a loop or an instance counts for
    /// against ``evaluations``.
    /// Measured in a release build, lowering a layer or an animation costs about as much
    /// as 16 evaluations; without the weight a loop whose body makes layers with
    /// animations reached the limit after 3 s and 200 MB instead of about a second.
    public var loweringWeight = 16

    public init() {}

    /// The limits of every check (and the language reference).
    public static let standard = ExpansionLimits()

    /// Each limit divided by `factor` (at least 1).
    public func scaled(down factor: Int) -> ExpansionLimits {
        var l = self
        l.layers = max(1, layers / factor)
        l.loopIterations = max(1, loopIterations / factor)
        l.keyframes = max(1, keyframes / factor)
        l.evaluations = max(1, evaluations / factor)
        return l
    }

    /// Definitions (constants, paths, component instances) evaluated one inside the
    /// other. Each level recurses through the evaluator, so the chain is bounded
    /// whatever the other limits.
    static let maxDefinitionDepth = 128
}

/// The work a check has done, against ``ExpansionLimits``.
struct Work: Equatable {
    var layers = 0
    var iterations = 0
    var evaluations = 0
    /// "Did you mean" candidates compared (see ``Checker/suggestionBudget``).
    var suggestions = 0

    static func + (a: Work, b: Work) -> Work {
        Work(layers: a.layers + b.layers, iterations: a.iterations + b.iterations, evaluations: a.evaluations + b.evaluations,
             suggestions: a.suggestions + b.suggestions)
    }

    static func - (a: Work, b: Work) -> Work {
        Work(layers: a.layers - b.layers, iterations: a.iterations - b.iterations, evaluations: a.evaluations - b.evaluations,
             suggestions: a.suggestions - b.suggestions)
    }
}

/// What the checker knows about the file before it lowers anything: read off the tree
/// once, the same for every item.
struct FileFacts {
    /// Whether the parser reported errors (some checks, unused names, would only add noise).
    let hasSyntaxErrors: Bool
    /// Where the parser reported errors, sorted. A node spanning one is poison: what the
    /// parser recovered there is a guess, and a message about the guess would be a
    /// second message for one mistake.
    let syntaxErrorOffsets: [UInt32]
    /// The first declaration of each top-level name: what an item's dependency on a
    /// name is compared by.
    let topLevelDeclarations: [String: Item]
    /// Whether lowered animations are registered for references (`go.end`): only a
    /// file that reads them has a use for them.
    let registersLowered: Bool
    /// Whether any name spells π as Swift does (`M_PI`, `.pi`): without one, no product
    /// needs looking at as a pasted π.
    let spellsSwiftPi: Bool
    /// Whether the file names the host clock (`CACurrentMediaTime`).
    let namesHostClock: Bool
    /// Whether the file may spell something as Swift or Objective-C does that a fix-it
    /// rewrites as an expression: a name of the porting tables (`M_PI`, `CGFloat`,
    /// `UIColor`, `.cgColor`, `init`, `nil`), an implicit member or a message send. Only
    /// then does evaluation keep the precedence levels and expected colours those
    /// fix-its read (``LoweringContext/operandLevel``).
    let spellsSwift: Bool
    /// Whether the file holds declarations only (see ``Checker/isLibrary``).
    let isLibrary: Bool
    /// The file's imports, by where each item starts.
    let imports: [UInt32: ImportDeclaration]

    init(_ tree: SyntaxTree) {
        let errors = tree.diagnostics.filter { $0.severity == .error }
        hasSyntaxErrors = !errors.isEmpty
        syntaxErrorOffsets = errors.map(\.range.start).sorted()
        var declarations: [String: Item] = [:]
        for item in tree[tree.root.items] {
            switch tree[item] {
            case .letDecl(let n, _, _), .timingDecl(let n, _), .pathDecl(let n, _), .component(let n, _, _):
                if declarations[n.name] == nil { declarations[n.name] = item }
            default: continue
            }
        }
        var imports: [UInt32: ImportDeclaration] = [:]
        for i in tree.imports {
            imports[i.item.range.start] = i
            if let n = i.name, declarations[n.name] == nil { declarations[n.name] = i.item }
        }
        self.imports = imports
        topLevelDeclarations = declarations
        isLibrary = !tree[tree.root.items].contains {
            switch tree.tag($0) {
            case .composition, .layer, .instance, .forLoop, .ifItem: return true
            default: return false
            }
        }
        registersLowered = tree.arena.hasMemberAccess(named: Checker.sequencingMembers)
        let names = Set(tree.arena.names)
        spellsSwiftPi = SwiftSpellings.piSpellings.contains { names.contains($0) }
        namesHostClock = names.contains(SwiftSpellings.hostClock)
        spellsSwift = tree.arena.hasSwiftSyntax || names.contains { name in
            SwiftSpellings.names[name] != nil || SwiftSpellings.functions.contains(name) || SwiftSpellings.types.contains(name)
                || SwiftSpellings.bridgingMembers.contains(name) || name == "nil"
        }
    }

    /// Whether the parser reported an error within `range` (ends included: a missing
    /// `)` is reported where the expression stops).
    func spansSyntaxError(_ range: SourceRange) -> Bool {
        guard hasSyntaxErrors else { return false }
        var lo = 0, hi = syntaxErrorOffsets.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if syntaxErrorOffsets[mid] < range.start { lo = mid + 1 } else { hi = mid }
        }
        return lo < syntaxErrorOffsets.count && syntaxErrorOffsets[lo] <= range.end
    }
}

/// Where lowering is: what the item being lowered is inside of. Saved and restored
/// as lowering enters and leaves loops, instances, layers and groups.
struct LoweringContext {
    /// The `for` bindings being expanded, innermost last, for messages about what a
    /// loop repeats.
    var activeLoops: [SourceRange] = []
    /// Components being instantiated, to catch a component that contains itself.
    var instantiating: [ObjectIdentifier] = []
    /// Definitions (constants, paths, component instances) being evaluated, one inside
    /// the other.
    var definitionDepth = 0
    /// The dimension the expression being evaluated will need, when known: where an
    /// angle is expected, a pasted `.pi` is rewritten as degrees.
    var expectedDimension: Dimension?
    /// The layers being lowered, outermost first: the layer whose body is lowered and
    /// its ancestors, below the root.
    var layers: [LayerNode] = []
    /// The layer and groups the animation being lowered sits in (for `go.end`).
    var frame = TimeFrame()
    /// Per layer body being lowered, innermost last: where each animation key and timing
    /// attribute (and `mask:`) is written so far, for duplicates.
    var bodies: [LayerBodyKeys] = []
    /// The least ``Precedence`` level the expression about to be evaluated must keep
    /// where it stands (an operand of `/` needs more than an argument does); set by the
    /// operator evaluating it and taken at the start of each evaluation.
    var operandLevel = Precedence.any
    /// That level for the expression being evaluated: a fix-it that replaces it (a
    /// pasted `CGFloat(n / 3)`) is parenthesised where its text would bind otherwise.
    var spellingLevel = Precedence.any
    /// The type the value being evaluated will be converted to, in a file that spells
    /// Swift (a pasted `.zero` is `(0, 0)` for a point, `0 x 0` for a size).
    var expectedType: ValueType?
    /// Whether the value being evaluated will be a colour, where a pasted `nil` is `clear`.
    var expectsColour: Bool { expectedType == .color || expectedType == .colors }
}

/// Checks one file. Its phases, in order (see the README):
/// 1. facts: ``FileFacts`` and the ``NameIndex`` are read off the tree;
/// 2. declarations: the top level's are registered in ``global``;
/// 3. items: each top-level layer, instance, `for` and `if` is lowered into an
///    ``ItemOutput`` (or replayed from the memo) and merged;
/// 4. the rest: unused declarations evaluated, masks resolved, the composition lowered,
///    the tree flattened to IR, and the file-wide rules run.
final class Checker {
    // MARK: State

    let tree: SyntaxTree
    let facts: FileFacts
    let global: Scope
    /// What the file's imports resolved to.
    let imports: ResolvedImports
    /// Reuse of top-level items between checks; nil without one.
    let memo: CheckMemo?

    /// Limits: the work done so far and what it may reach.
    var work = Work()
    let limits: ExpansionLimits
    /// ``limits``' evaluations, until a cancellation spends it.
    var evaluationLimit: Int
    var suggestionBudget = Checker.suggestionBudget
    var expansionReported = false
    var reportedDefinitionDepth = false
    /// Whether a top-level declaration is being evaluated (its cost is the item's first use).
    var evaluatingTopLevel = false

    /// Reporting, file-wide: every diagnostic merged so far, and the keys that make two
    /// reports one message.
    var diagnostics: [Diagnostic] = []
    var seen: Set<String> = []
    /// Whether an error was left out once recording stopped (E0213 is then an error;
    /// a build must not pass over what it did not record).
    var droppedAnError = false
    /// Unknown names already reported, by where they are written, with the message a
    /// repeat reports (see `lookupValue`).
    var repeatedUnknownNames: [SourceRange: (Diagnostic, String)] = [:]

    /// The output of the item being lowered (between items, the file's own).
    var output = ItemOutput()
    /// What the merged outputs add up to, file-wide.
    var merged = MergedOutputs()
    var context = LoweringContext()
    /// The root of the layer tree: its children are the top level's layers.
    let root: LayerNode
    /// The animation items lowered in this check's tree, by range: the rules read their
    /// bodies for fix-its.
    var animationItems: [SourceRange: Item] = [:]
    /// Animations lowered so far (for `go.end`), in order and by layer.
    var loweredAnimations: [LoweredAnimation] = []
    var loweredByLayer: [ObjectIdentifier: [LoweredAnimation]] = [:]
    /// The top-level item being lowered or replayed (the last one, between items),
    /// counted from 1 in file order.
    var itemNumber = 0
    /// Whether a mask layer or a `mask:` was lowered (or replayed): only then are masks
    /// resolved.
    var masksWritten = false
    /// Constructs (by their whole range) holding an attribute the checker did not
    /// recognise: a "missing" attribute there is most likely the one written wrongly.
    var unrecognisedAttributeItems: Set<SourceRange> = []
    var nameIndex: NameIndex?
    /// The caller's "stop now" (see ``check(_:memo:until:)``), asked when the work done
    /// reaches ``nextCancellationPoll`` evaluations; once it says yes, ``cancelled``.
    var isCancelled: (() -> Bool)?
    var nextCancellationPoll = Int.max
    var cancelled = false
    static let cancellationPollInterval = 4096

    convenience init(tree: SyntaxTree, memo: CheckMemo? = nil, limits: ExpansionLimits = .standard, imports: ResolvedImports = .none) {
        self.init(tree: tree, facts: FileFacts(tree), global: Scope(parent: nil), memo: memo, limits: limits, imports: imports)
    }

    /// A checker of `tree` whose facts and top-level scope are given: a file's own
    /// (above), or an imported module's, frozen, which a lowering checker reads.
    init(tree: SyntaxTree, facts: FileFacts, global: Scope, memo: CheckMemo?, limits: ExpansionLimits, imports: ResolvedImports) {
        self.tree = tree
        self.memo = memo
        self.imports = imports
        memo?.begin(importing: imports.fingerprint)
        self.limits = limits
        evaluationLimit = limits.evaluations
        self.facts = facts
        self.global = global
        root = LayerNode(name: "", id: "", nameRange: .empty(at: 0), kind: .layer, isMask: false, range: tree.root.range)
    }

    var hasSyntaxErrors: Bool { facts.hasSyntaxErrors }
    /// Whether the file is a library: no composition and no layers at its top level, only
    /// declarations for other files to import. It checks, but does not build.
    var isLibrary: Bool { facts.isLibrary }
    func spansSyntaxError(_ range: SourceRange) -> Bool { facts.spansSyntaxError(range) }
    func text(_ range: SourceRange) -> String { tree.file.text(range) }

    /// The edit that removes the item at `range` with one separator beside it (see
    /// ``TextEdit/removal(of:in:)``).
    func removal(of range: SourceRange) -> TextEdit { TextEdit.removal(of: range, in: tree.file.bytes) }

    /// The property table's entry for a key path as written.
    func keyPathInfo(_ key: KeyPathSyntax) -> KeyPathInfo? { PropertyTable.keyPath(key.dotted) }

    // MARK: Driver

    /// The check's result, or nil when it was cancelled.
    func run() -> CheckResult? {
        nameIndex = NameIndex.build(tree)
        let composition = lowerFile()
        if cancelled {
            memo?.abandon()
            return nil
        }
        memo?.finish(topLevelNames: global.bindings.map(\.name.name))
        // Tests read the finished composition and are not items the memo replays: they
        // are checked on every check (a few properties each).
        let tests = composition.map(lowerTests) ?? []
        // Inputs, states and transitions name the finished layers, as tests do; the
        // layers then show the first state's values.
        var finished = composition
        var interaction: Interaction?
        if var c = finished {
            interaction = lowerInteraction(&c)
            finished = c
            checkTestEvents(tests, interaction)
        }
        merge(output)
        output = ItemOutput()
        for (_, effects) in merged.effects.sorted(by: { $0.key < $1.key }) where effects.none == effects.instances {
            if let warning = effects.warning { report(warning) }
        }
        if let nameIndex { reportUnused(nameIndex) }
        merge(output)
        if !droppedAnError, let i = diagnostics.firstIndex(where: { $0.code == SyntaxDiagnostics.tooManyDiagnosticsDescriptor.code }) {
            diagnostics[i] = SyntaxDiagnostics.tooManyWarnings(diagnostics[i].range, stage: "checking")
        }
        let sorted = diagnostics.sorted(by: Diagnostic.ordered)
        let ok = !sorted.contains { $0.severity == .error } && !hasSyntaxErrors
        return CheckResult(composition: ok ? finished : nil, diagnostics: sorted,
                           foldedValues: FoldedValues(merged.folded.mapValues(\.text), typeNames: merged.folded.compactMapValues(\.typeName)),
                           partialComposition: finished, names: nameIndex, tests: tests, interaction: ok ? interaction : nil)
    }

    // MARK: Reporting

    /// Records a diagnostic once: loops and instances evaluate the same source many
    /// times, and one mistake must still be one message.
    func report(_ d: Diagnostic) { report(d, key: Checker.reportKey(d)) }

    /// ``report(_:)`` with the report's key when the caller already made it.
    func report(_ d: Diagnostic, key: String) {
        guard !recordingStopped else {
            output.cannotReplay(.diagnosticCap)
            if d.severity == .error { droppedAnError = true }
            return
        }
        output.report(d, key: key, new: !seen.contains(key))
    }

    /// What makes two reports one message.
    static func reportKey(_ d: Diagnostic) -> String { "\(d.code.rawValue)|\(d.range.start)|\(d.range.end)|\(d.message)" }

    /// Whether a report with the same key as `d` was already made.
    func hasReported(_ d: Diagnostic) -> Bool {
        let key = Checker.reportKey(d)
        return seen.contains(key) || output.hasReported(key)
    }

    /// Past ``SyntaxDiagnostics/recordedLimit`` diagnostics nothing more is recorded,
    /// and nothing is spent on messages.
    var recordingStopped: Bool { diagnostics.count + output.newDiagnostics > SyntaxDiagnostics.recordedLimit }

    /// Reports that something required is missing, unless the construct `extent` holds
    /// a syntax error: the missing part is then most likely the part that did not parse.
    func reportMissing(in extent: SourceRange, _ d: Diagnostic) {
        if !spansSyntaxError(extent) && !unrecognisedAttributeItems.contains(extent) { report(d) }
    }

    /// Reports `make(suggestion)`, with a suggestion for `name` among `candidates` when
    /// one is worth finding: not when the same message (which never names the
    /// suggestion) was already reported, as it is for every further iteration of a loop
    /// and instance of a component, and not past the budget. `count` bounds how many
    /// candidates there are, so that nothing is listed when no suggestion will be made.
    /// Returns the message without a suggestion and its key, which is what a repeat reports.
    @discardableResult
    func reportSuggesting(_ name: String, among count: Int, _ candidates: () -> [String],
                          _ make: (String?) -> Diagnostic) -> (plain: Diagnostic, key: String) {
        let plain = make(nil)
        let key = Checker.reportKey(plain)
        if !seen.contains(key), !output.hasReported(key), affordsSuggestion(among: count) {
            work.suggestions += count
            report(make(AnimcBase.closestMatch(to: name, in: candidates())), key: key)
        } else {
            report(plain, key: key)
        }
        return (plain, key)
    }

    /// Whether a suggestion among `count` candidates is still within the budget (and
    /// recording has not stopped).
    func affordsSuggestion(among count: Int) -> Bool {
        guard !recordingStopped else { return false }
        guard work.suggestions + count <= suggestionBudget else {
            output.cannotReplay(.suggestionBudget)
            return false
        }
        return true
    }

    /// Candidates compared in all for "did you mean" suggestions in one check. Each
    /// costs about 0.1 µs; a file of a thousand typos among tens of thousands of
    /// declarations took seconds. Past the budget, messages come without a suggestion.
    static let suggestionBudget = 2_000_000

    /// Reports the definition depth limit once per file: past the first, every later
    /// evaluation of the same chain would meet it again.
    func definitionsTooDeep(_ range: SourceRange, name: String) {
        output.cannotReplay(.limit)
        guard !reportedDefinitionDepth else { return }
        reportedDefinitionDepth = true
        report(Messages.definitionsTooDeep(range, name: name, limit: ExpansionLimits.maxDefinitionDepth))
    }

    /// Counts expanded layers and loop iterations; past a limit, reports once and
    /// returns false so the caller stops expanding.
    func allowExpansion(layers: Int = 0, iterations: Int = 0, at range: SourceRange) -> Bool {
        work.layers += layers
        work.iterations += iterations
        if expanding { work.evaluations += layers * limits.loweringWeight }
        if work.evaluations >= nextCancellationPoll { pollCancellation() }
        let limit: Messages.ExpansionLimit? = work.layers > limits.layers ? .layers(limits.layers)
            : work.iterations > limits.loopIterations ? .iterations(limits.loopIterations)
            : work.evaluations > evaluationLimit ? .evaluations(limits.evaluations) : nil
        guard let limit else { return true }
        output.cannotReplay(.limit)
        if !expansionReported {
            expansionReported = true
            report(Messages.expansionTooLarge(range, limit))
        }
        return false
    }

    /// Whether what is lowered now is made by a loop or a component instance: work the
    /// source's size does not bound, which the limits count with ``ExpansionLimits/loweringWeight``.
    /// (A layer written out is bounded by the 8 MiB source limit: a generated 4 MB file
    /// of 100,000 animated layers checks.)
    var expanding: Bool { !context.activeLoops.isEmpty || !context.instantiating.isEmpty }

    /// Asks the caller whether to stop. Once cancelled, the evaluation limit is spent, so
    /// every loop and evaluation stops at its next step as it does at the limit (what is
    /// reported then is never shown: a cancelled check has no result).
    func pollCancellation() {
        nextCancellationPoll = work.evaluations + Checker.cancellationPollInterval
        guard !cancelled, let isCancelled, isCancelled() else { return }
        cancelled = true
        evaluationLimit = 0
        nextCancellationPoll = Int.max
    }

    // MARK: Declarations

    /// Registers a binding in `scope`, reporting duplicates and shadowing. Whether
    /// `binding` is now the scope's binding of its name (false when the scope already
    /// had one, which stays).
    @discardableResult
    func declare(_ binding: Binding, in scope: Scope) -> Bool {
        let name = binding.name
        if let existing = scope.local(name) {
            if existing.name.range != name.range {
                report(Messages.duplicate(name.range, name: name.name, what: binding.kind.noun, previous: existing.name.range))
            }
            return false
        }
        if binding.kind != .loopVariable, let outer = scope.parent?.lookup(name),
           outer.name.range != name.range, outer.kind != .component {
            report(Messages.shadowing(name.range, name: name.name, outer: outer.name.range, what: outer.kind.noun))
        }
        scope.insert(binding)
        return true
    }

    /// Records what a declaration evaluated to, for hover.
    func recordFolded(_ binding: Binding, _ value: SemaValue) {
        guard !value.isPoison else { return }
        output.fold(binding.name.range.start, value)
    }

    /// Unused declarations, from the static name index rather than from evaluation: a
    /// use inside a broken expression, an untaken `if` branch or a loop that runs zero
    /// times still counts, so errors never turn into unused warnings, and the warning
    /// can be given whatever else is wrong with the file.
    private func reportUnused(_ index: NameIndex) {
        // A library's top-level declarations are there for the files that import it.
        let exported: Set<UInt32> = isLibrary
            ? Set(tree[tree.root.items].filter { tree.tag($0) != .importDecl }.map(\.range.start)) : []
        // An import that failed was reported; it is not also unused.
        let failedImports = Set(facts.imports.values.filter { imports.modules[$0.pathRange.start] ?? nil == nil }.map(\.item.range.start))
        let unreferenced = index.unreferenced.filter {
            let d = index.declarations[$0]
            return Checker.warnsUnused(d.kind) && !exported.contains(d.extent.start) && !(d.kind == .module && failedImports.contains(d.extent.start))
        }
        // Inside a component nobody instantiates, the component's own warning says it all.
        // A misspelt use (`duraton`) is reported with its suggestion; the declaration it
        // meant is not also "never used".
        let declaredNames = Array(Set(unreferenced.map { index.declarations[$0].name }))
        let meant = declaredNames.isEmpty ? [] : Set(index.unresolvedNames.compactMap { AnimcBase.closestMatch(to: $0, in: declaredNames) })
        let deadComponents = unreferenced.map { index.declarations[$0] }.filter { $0.kind == .component }.map(\.extent)
        // Where each line feed is, found once when first needed: scanning on to the line's
        // end from each declaration was quadratic in a line of many.
        let bytes = tree.file.bytes
        var lineFeeds: [Int]?
        func lineEnd(from offset: UInt32) -> UInt32 {
            let feeds = lineFeeds ?? bytes.indices.filter { bytes[$0] == 0x0A }
            lineFeeds = feeds
            var lo = 0, hi = feeds.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if feeds[mid] < Int(offset) { lo = mid + 1 } else { hi = mid }
            }
            return UInt32(clamping: lo < feeds.count ? feeds[lo] : bytes.count)
        }
        for d in unreferenced {
            let declaration = index.declarations[d]
            if declaration.name.hasPrefix("_") || meant.contains(declaration.name) { continue }
            // A declaration being typed is not yet "unused": an error in it, or later on
            // its last line (where the parser may have cut it short), keeps it quiet.
            if hasSyntaxErrors,
               spansSyntaxError(SourceRange(start: declaration.extent.start,
                                            end: lineEnd(from: min(declaration.extent.end, UInt32(clamping: bytes.count))))) {
                continue
            }
            if deadComponents.contains(where: { $0 != declaration.extent && $0.contains(declaration.range.start) }) { continue }
            // An import nothing reads goes whole (its line): offered, not applied in bulk,
            // as removing any declaration is the author's call.
            let fixIts = declaration.kind == .module
                ? [FixIt("remove the import", edits: [removal(of: declaration.extent)], applicability: .maybeIncorrect)] : []
            report(Messages.unused(declaration.range, name: declaration.name, what: declaration.kind.noun, fixIts: fixIts))
        }
    }

    /// Whether a declaration of this kind gets an "unused" warning: loop variables,
    /// layers and animations are often named only to be read.
    static func warnsUnused(_ kind: NameIndex.Kind) -> Bool {
        switch kind {
        case .constant, .timing, .path, .component, .parameter, .module, .input: return true
        // A state nothing goes to is W0516's, which says why it matters.
        case .loopVariable, .layer, .animation, .state: return false
        }
    }
}

/// Checks with the limits the tests turn (the suggestion budget, the evaluation limit),
/// and says what the check spent.
func checkMeasuring(_ tree: SyntaxTree, memo: CheckMemo? = nil, suggestionBudget: Int = Checker.suggestionBudget,
                    evaluationLimit: Int = ExpansionLimits.standard.evaluations) -> (CheckResult, Work) {
    let checker = Checker(tree: tree, memo: memo)
    checker.suggestionBudget = suggestionBudget
    checker.evaluationLimit = evaluationLimit
    let result = checker.run() ?? CheckResult(composition: nil, diagnostics: [])
    return (result, checker.work)
}
