import AnimcBase
import AnimcDiagnostics
import AnimcIR
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
}

/// What each declaration folded to, by the start of its name (see
/// ``CheckResult/foldedValues``). Written out when asked: a check records every
/// declaration of every component, and a command-line check or a keystroke's re-check
/// asks for none of them (writing a component's values that do not vary, numbers and
/// tuples formatted, cost about 15,000 instructions per component). An editor asks for
/// one at a time, on hover.
public struct FoldedValues: Sendable, Equatable {
    private let storage: Storage?

    /// No values.
    public init() { storage = nil }

    init(_ table: OffsetTable<Checker.FoldedValue>) {
        storage = table.isEmpty ? nil : Storage(table)
    }

    /// The text of the declaration whose name starts at `offset`.
    public subscript(offset: UInt32) -> String? { storage?.table[UInt64(offset)]?.text }

    public var count: Int { storage?.table.count ?? 0 }

    /// Every value's text by offset: what a test compares.
    public var texts: [UInt32: String] {
        guard let table = storage?.table else { return [:] }
        var out: [UInt32: String] = [:]
        out.reserveCapacity(table.count)
        for (key, folded) in zip(table.keys, table.values) { out[UInt32(truncatingIfNeeded: key)] = folded.text }
        return out
    }

    /// Equal when every declaration reads the same: how the values were kept (a value
    /// or its text) does not matter.
    public static func == (a: FoldedValues, b: FoldedValues) -> Bool { a.texts == b.texts }

    /// Unchecked because it holds ``SemaValue``s, whose `component` case refers to a
    /// class. None is ever held: ``Checker/recordFolded(_:_:)`` keeps only values with
    /// a source text, which a component has not. The rest are plain values, and the
    /// table is never changed after the check.
    private final class Storage: @unchecked Sendable {
        let table: OffsetTable<Checker.FoldedValue>
        init(_ table: OffsetTable<Checker.FoldedValue>) { self.table = table }
    }
}

/// Checks a parsed file and lowers it to IR. Never traps; broken trees give
/// diagnostics. The tree's own syntax diagnostics are not included in the result.
///
/// With a `memo`, top-level items whose text and dependencies are unchanged since the
/// memo's last check are not lowered again, and the memo is updated for the next
/// check: what an editor does on every keystroke. The result is the same as without.
public func check(_ tree: SyntaxTree, memo: CheckMemo? = nil) -> CheckResult {
    let checker = Checker(tree: tree, memo: memo)
    return checker.run()
}

/// What a check counted besides its result, for the tests.
struct CheckCounts {
    /// Template animations whose lowering was reused (see TemplateReuse.swift).
    var templateReuses: Int
    /// Template layer property values reused.
    var propertyReuses: Int
    /// Template layers whose lowering was reused (see LayerTemplates.swift).
    var layerReuses: Int
    /// Candidates its suggestions compared (see ``Checker/suggestionBudget``).
    var suggestionWork: Int
    /// Whether its top-level layers were flattened item by item (see ``Checker/lowerFile()``).
    var streamedLayers: Bool
}

/// Checks with the settings the tests turn (template reuse, the suggestion budget), and
/// says what the check counted.
func checkCounting(_ tree: SyntaxTree, memo: CheckMemo? = nil, reusingTemplates: Bool = true,
                   streamingLayers: Bool = true, suggestionBudget: Int = Checker.suggestionBudget,
                   evaluationLimit: Int = ExpansionLimits.maxEvaluations) -> (CheckResult, CheckCounts) {
    let checker = Checker(tree: tree, memo: memo)
    checker.reusesTemplates = reusingTemplates
    checker.streamsLayers = streamingLayers
    checker.suggestionBudget = suggestionBudget
    checker.evaluationLimit = evaluationLimit
    let result = checker.run()
    return (result, CheckCounts(templateReuses: checker.templateReuses, propertyReuses: checker.propertyReuses,
                               layerReuses: checker.layerReuses, suggestionWork: checker.suggestionWork,
                               streamedLayers: checker.streamedLayers))
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
    // The containers below are read and changed on every name, layer and animation, and
    // the dynamic exclusivity checks on them were 5% of a check of templates. A checker
    // belongs to the one thread that checks the file, and none of them is passed inout,
    // so no access to one can overlap another (as for ``Scope``).
    let tree: SyntaxTree
    let global: Scope
    @exclusivity(unchecked) var diagnostics: [Diagnostic] = []
    @exclusivity(unchecked) private var seen: Set<String> = []
    var layerCount = 0
    var iterationCount = 0
    var evaluationCount = 0
    /// ``ExpansionLimits/maxEvaluations``, lowered by tests that check every way of
    /// reaching it gives the same result.
    var evaluationLimit = ExpansionLimits.maxEvaluations
    /// Evaluations made evaluating bindings on their first use, nested ones counted once:
    /// a template's next instance finds them evaluated, so a reused lowering does not
    /// count them again.
    var bindingEvaluations = 0
    var bindingsEvaluating = 0
    /// Exact decimal results of the check's arithmetic, by operands (see
    /// ``ExactDecimal/Memo``). Only this check's thread touches it.
    @exclusivity(unchecked) var decimals = ExactDecimal.Memo()
    var expansionReported = false
    /// Components being instantiated, to catch a component that contains itself.
    @exclusivity(unchecked) var instantiating: [ObjectIdentifier] = []
    /// Whether a mask layer or a `mask:` was lowered (or replayed from the memo): only
    /// then are masks resolved.
    var masksWritten = false
    /// Where each animation key and timing attribute (and `mask:`) of the layer bodies
    /// being lowered is written, innermost body at `bodyDepth - 1`: read only while a
    /// body is lowered, for duplicates. Kept here and reused from body to body, not in
    /// each layer node, where the tables stayed (one allocation per animated layer)
    /// until the check's end, through its peak.
    @exclusivity(unchecked) var bodyKeys: [LayerBodyKeys] = []
    /// Keyframe lists made lately, to share (see ``RecentLists``).
    @exclusivity(unchecked) var recentKeyTimes = RecentLists<Double>()
    @exclusivity(unchecked) var recentTimingFunctions = RecentLists<TimingFunction>()
    @exclusivity(unchecked) var recentValues = RecentLists<Value>()
    var bodyDepth = 0
    /// The scope and parameter bindings of each component declaration's last instance,
    /// handed to its next (see ``ScopeRecycler``). Held here, by declaration, and not by
    /// the component: a component is a value of its own declaration scope, so a scope
    /// it held would hold that scope in a cycle past the check.
    @exclusivity(unchecked) var instanceScopes: [ScopeRecycler] = []
    @exclusivity(unchecked) var instanceScopeIndices = OffsetTable<Int>()

    /// The place in ``instanceScopes`` of the component declared at `range`.
    func instanceScopeIndex(_ range: SourceRange) -> Int {
        if let i = instanceScopeIndices[range] { return i }
        instanceScopes.append(ScopeRecycler())
        instanceScopeIndices.set(range, instanceScopes.count - 1)
        return instanceScopes.count - 1
    }
    /// Definitions (constants, paths, component instances) being evaluated, one inside
    /// the other. Each level recurses through the evaluator, so the chain is bounded.
    var definitionDepth = 0
    /// The dimension the expression being evaluated will need, when known: where an
    /// angle is expected, a pasted `.pi` is rewritten as degrees.
    var expectedDimension: Dimension?
    /// The `for` bindings being expanded, innermost last, for messages about what a
    /// loop repeats.
    @exclusivity(unchecked) var activeLoops: [SourceRange] = []
    /// Animations lowered so far, and where the one being lowered sits: for
    /// `beginTime: go.end`.
    @exclusivity(unchecked) var loweredAnimations: [LoweredAnimation] = []
    /// Whether lowered animations are registered at all: only a reference (`go.end`)
    /// reads them, and a file without one has no use for them. A memo's record says
    /// whether its item's were registered, and a check that registers replays only
    /// records that did (see ``ItemRecord/registered``).
    lazy var registersLowered: Bool = tree.arena.hasMemberAccess(named: Checker.sequencingMembers)
    /// Whether any name in the file spells π as Swift does (`M_PI`, `.pi`, `Double.pi`):
    /// without one, no product can be a folded π, and every product, quotient and
    /// negation skips looking for one (a dictionary lookup per operand name).
    lazy var spellsSwiftPi: Bool = tree.arena.names.contains { name in
        // Lengths first: a file's names are mostly of other lengths than the few
        // spellings, and looking each name up in the spelling tables hashed it.
        let length = name.utf8.count
        return SwiftSpellings.piSpellings.contains { $0.utf8.count == length && $0 == name }
    }
    /// Whether the file names the host clock (`CACurrentMediaTime`) anywhere: without
    /// it, no sum is a ported `CACurrentMediaTime() + delay`.
    lazy var namesHostClock: Bool = tree.arena.names.contains(SwiftSpellings.hostClock)
    /// What each interned name means as a declared type and as a built-in function,
    /// found once per name: every instance of a component checks its parameters' types
    /// and most call `rgb` or `length`, and each found them by hashing the name.
    @exclusivity(unchecked) var typeNames = NameIDCache<TypeNames.Kind>()
    @exclusivity(unchecked) var builtinFunctions = NameIDCache<Builtins.Function>()
    /// What each written key path means, the same way: every layer property and
    /// animation target looked its path up by hashing it.
    @exclusivity(unchecked) var keyPathInfos = NameIDCache<KeyPathInfo>()

    /// The property table's entry for a key path as written.
    func keyPathInfo(_ key: KeyPathSyntax) -> KeyPathInfo? {
        keyPathInfos.value(key.dottedID, nameCount: tree.arena.names.count) { PropertyTable.keyPath(key.dotted) }
    }
    /// The same, by layer: a reference searches its layer's, not every animation so far
    /// (a loop of sequenced layers was quadratic). Layers are alive as long as the check,
    /// so their identities are not reused.
    @exclusivity(unchecked) var loweredByLayer: [ObjectIdentifier: [LoweredAnimation]] = [:]
    @exclusivity(unchecked) var currentFrame = TimeFrame()
    /// Leaf animations of templates already lowered, by where they are written and
    /// what they read (see TemplateReuse.swift).
    @exclusivity(unchecked) var templateCache = TemplateTable<TemplateKey, TemplateSlot<TemplateEntry>>()
    /// Layer property values of templates already lowered, the same way.
    @exclusivity(unchecked) var propertyTemplates = TemplateTable<PropertyTemplateKey, TemplateSlot<PropertyTemplateEntry>>()
    /// Layers of templates already lowered, by where their body is written and what they
    /// read (see LayerTemplates.swift); whether a body can be kept, by its range; what
    /// the layer being lowered to be kept records; and the kept lowering the last
    /// template animation lowered is, if any.
    @exclusivity(unchecked) var layerTemplates = TemplateTable<LayerTemplateKey, TemplateSlot<LayerTemplateEntry>>()
    @exclusivity(unchecked) var layerTemplateBodies = OffsetTable<Bool>()
    var layerRecording: LayerRecording?
    var lastTemplateEntry: TemplateEntry?
    var layerReuses = 0
    /// ``ReusableKind`` of the animations asked about, by range: a question of syntax
    /// alone, which every instance's template key asks, and a layer's eligibility and
    /// the kept shape ask of a template's first instance (a group's answer reading each
    /// child's).
    @exclusivity(unchecked) var reusableKinds = OffsetTable<ReusableKind>()
    var reusesTemplates = true
    /// Whether a check may flatten its top-level layers item by item (the tests turn it
    /// off to compare), and whether this one did.
    var streamsLayers = true
    var streamedLayers = false
    /// The layers of the items lowered so far, in a check that streams them.
    let streamed = StreamedLayers()
    var templateEntryCount = 0
    var templateReuses = 0
    var propertyReuses = 0
    /// Calls of ``report(_:)`` so far, kept or not: a lowering that reported anything
    /// is not reused.
    var reportCalls = 0
    /// Set when sequencing reads the animations lowered so far (`go.end`), which no
    /// template key covers; cleared by template reuse before each lowering it may keep.
    var readLoweredAnimations = false
    static let maxDefinitionDepth = 128

    /// Reports the definition depth limit once per file: past the first, every later
    /// evaluation of the same chain would meet it again.
    func definitionsTooDeep(_ range: SourceRange, name: String) {
        recorder?.cacheable = false
        guard !reportedDefinitionDepth else { return }
        reportedDefinitionDepth = true
        report(Messages.definitionsTooDeep(range, name: name, limit: Checker.maxDefinitionDepth))
    }
    private var reportedDefinitionDepth = false
    /// The animation items lowered in this check's tree, found by range for the rules.
    let animationItems: LoweredAnimationItems
    /// The ranges naming the animations of items a check memo reused, whose syntax was
    /// a previous check's (see ``animationItems``).
    @exclusivity(unchecked) var reusedAnimationNames = OffsetTable<SourceRange>()
    /// Per animation template: how many expansions there were, how many had no visible
    /// effect, and the warning to give if all of them had none.
    @exclusivity(unchecked) var noEffect = OffsetTable<(instances: Int, count: Int)>()
    /// The warning to give for a template of ``noEffect`` whose every expansion had no
    /// visible effect, kept apart from the counts: few animations have one, and a
    /// `Diagnostic` in every entry made each entry ten times the size.
    @exclusivity(unchecked) var noEffectWarnings: [SourceRange: Diagnostic] = [:]
    /// By the start of the declaration's name (see ``CheckResult/foldedValues``).
    @exclusivity(unchecked) var foldedValues = OffsetTable<FoldedValue>()
    var nameIndex: NameIndex?

    /// A hover value as recorded. The first value a declaration takes is kept as the
    /// value and written out only for the result; a second one that surely prints
    /// differently makes it "varies" with nothing written. Formatting the values (number
    /// formatting, joined tuples) of the first two instances of every template binding
    /// was most of recording them. Values that might print alike (zeros, angles, which
    /// are rounded) are compared by text, as they always were.
    enum FoldedValue {
        case value(SemaValue)
        case text(String)

        /// The text hover shows. A value is kept only when it has one.
        var text: String {
            switch self {
            case .value(let v): return v.sourceText ?? ""
            case .text(let t): return t
            }
        }
    }

    /// Records what a declaration evaluated to, for hover.
    func recordFolded(_ binding: Binding, _ value: SemaValue) {
        // Once a template's binding varies it stays so: without a recorder to feed, the
        // text of each further instance's value would be computed only to be dropped.
        let key = binding.name.range.start
        if let recorder {
            // Recorded for a later check: skipped only once this item's own record says
            // "varies" (the result does too, then).
            if recorder.foldedVaries(key) { return }
            guard !value.isPoison, let text = value.sourceText else { return }
            recordFolded(at: key, text)
            return
        }
        if binding.foldedVaries { return }
        let previous = foldedValues[UInt64(key)]
        if case .text(let t)? = previous, t == Checker.varies {
            binding.foldedVaries = true
            return
        }
        guard !value.isPoison, value.hasSourceText else { return }
        switch previous {
        case nil:
            // A long list's text is short ("a list of 1000 values"): kept as text, the
            // list is not held to the end of the check.
            if case .list(let items) = value, items.count > 16, let text = value.sourceText {
                foldedValues.set(UInt64(key), .text(text))
            } else {
                foldedValues.set(UInt64(key), .value(value))
            }
        case .value(let first)?:
            if first.isSame(as: value) { return }
            if first.printsDifferently(from: value) {
                foldedValues.set(UInt64(key), .text(Checker.varies))
                return
            }
            let text = first.sourceText ?? ""
            foldedValues.set(UInt64(key), .text(text == value.sourceText ? text : Checker.varies))
        case .text(let text)?:
            if text != value.sourceText { foldedValues.set(UInt64(key), .text(Checker.varies)) }
        }
    }

    func recordFolded(at key: UInt32, _ text: String) {
        recorder?.fold(key, text)
        if let previous = foldedValues[UInt64(key)], previous.text != text {
            foldedValues.set(UInt64(key), .text(Checker.varies))
        } else {
            foldedValues.set(UInt64(key), .text(text))
        }
    }

    /// What hover shows for a binding whose value differs between instances or iterations.
    static let varies = "varies"

    /// Reuse of top-level items between checks (nil without a memo), and what the item
    /// being lowered does, to be replayed by a later check.
    let memo: CheckMemo?
    /// Read by every fold and every template warning while an item is recorded;
    /// unchecked for the reason given above.
    @exclusivity(unchecked) var recorder: ItemRecorder?
    /// The first declaration of each top-level name, as registered: what an item's
    /// dependency on a name is compared by.
    lazy var topLevelDeclarations: [String: Item] = {
        var map: [String: Item] = [:]
        for item in tree[tree.root.items] {
            let name: Identifier
            switch tree[item] {
            case .letDecl(let n, _, _), .timingDecl(let n, _), .pathDecl(let n, _), .component(let n, _, _): name = n
            default: continue
            }
            if map[name.name] == nil { map[name.name] = item }
        }
        return map
    }()

    /// Set when the tree had syntax errors: some checks (unused names) would only add noise.
    let hasSyntaxErrors: Bool
    /// Where the parser reported errors, sorted. A node spanning one is poison: what the
    /// parser recovered there is a guess, and a message about the guess would be a
    /// second message for one mistake.
    let syntaxErrorOffsets: [UInt32]

    init(tree: SyntaxTree, memo: CheckMemo? = nil) {
        self.tree = tree
        self.memo = memo
        self.global = Scope(parent: nil)
        self.animationItems = LoweredAnimationItems(tree.arena)
        self.hasSyntaxErrors = tree.diagnostics.contains { $0.severity == .error }
        self.syntaxErrorOffsets = tree.diagnostics.filter { $0.severity == .error }.map(\.range.start).sorted()
    }

    /// Whether the parser reported an error within `range` (ends included: a missing
    /// `)` is reported where the expression stops).
    ///
    /// Answered inline from ``hasSyntaxErrors`` for a file without any: every
    /// evaluation asks, and the call and the array's emptiness cost a sixth of an
    /// evaluation of a name.
    @inline(__always)
    func spansSyntaxError(_ range: SourceRange) -> Bool {
        hasSyntaxErrors && syntaxErrorWithin(range)
    }

    private func syntaxErrorWithin(_ range: SourceRange) -> Bool {
        var lo = 0, hi = syntaxErrorOffsets.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if syntaxErrorOffsets[mid] < range.start { lo = mid + 1 } else { hi = mid }
        }
        return lo < syntaxErrorOffsets.count && syntaxErrorOffsets[lo] <= range.end
    }

    /// Reports that something required is missing, unless the construct `extent` holds
    /// a syntax error: the missing part is then most likely the part that did not parse.
    func reportMissing(in extent: SourceRange, _ d: Diagnostic) {
        if !spansSyntaxError(extent) && !unrecognisedAttributeItems.contains(extent) { report(d) }
    }

    /// Constructs (by their whole range) holding an attribute the checker did not
    /// recognise: a "missing" attribute there is most likely the one written wrongly.
    @exclusivity(unchecked) var unrecognisedAttributeItems: Set<SourceRange> = []

    // MARK: Reporting

    /// Records a diagnostic once: loops and instances evaluate the same source many
    /// times, and one mistake must still be one message.
    func report(_ d: Diagnostic) { report(d, key: nil) }

    /// ``report(_:)`` with the report's key when the caller already made it.
    func report(_ d: Diagnostic, key known: String?) {
        reportCalls &+= 1
        recorder?.reports.append(d)
        guard !recordingStopped else { return }
        let key = known ?? Checker.reportKey(d)
        guard !seen.contains(key) else { return }
        seen.insert(key)
        if diagnostics.count < SyntaxDiagnostics.recordedLimit {
            diagnostics.append(d)
        } else {
            diagnostics.append(SyntaxDiagnostics.tooManyDiagnostics(d.range, stage: "checking"))
        }
    }

    /// What makes two reports one message.
    static func reportKey(_ d: Diagnostic) -> String { "\(d.code.rawValue)|\(d.range.start)|\(d.range.end)|\(d.message)" }

    /// Past ``SyntaxDiagnostics/recordedLimit`` diagnostics (and the E0213 that says
    /// so) nothing more is recorded, and nothing is spent on messages.
    var recordingStopped: Bool { diagnostics.count > SyntaxDiagnostics.recordedLimit }

    // Suggestions ("did you mean") are skipped once recording has stopped (an edit
    // distance against every property name for each of two million bad lines took most
    // of a minute), for a message already reported, and past ``suggestionBudget``.

    /// Whether a report with the same key as `d` was already kept (it would be dropped).
    func hasReported(_ d: Diagnostic) -> Bool { seen.contains(Checker.reportKey(d)) }

    /// Reports `make(suggestion)`, with a suggestion for `name` among `candidates` when
    /// one is worth finding: not when the same message (which never names the
    /// suggestion) was already reported, as it is for every further iteration of a loop
    /// and instance of a component, and not past the budget. `count` bounds how many
    /// candidates there are, so that nothing is listed when no suggestion will be made:
    /// listing every name, layer or animation for each iteration made loops of typos
    /// quadratic (20,000 iterations among 20,000 names ran for minutes).
    /// Returns the message without a suggestion and its key, which is what a repeat reports.
    @discardableResult
    func reportSuggesting(_ name: String, among count: Int, _ candidates: () -> [String],
                          _ make: (String?) -> Diagnostic) -> (plain: Diagnostic, key: String) {
        let plain = make(nil)
        let key = Checker.reportKey(plain)
        if !seen.contains(key), affordsSuggestion(among: count) {
            suggestionWork += count
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
        guard suggestionWork + count <= suggestionBudget else {
            // What a later check replaying this item would spend is not known: it is
            // lowered again instead (see `replay`).
            recorder?.cacheable = false
            return false
        }
        return true
    }

    /// Candidates compared in all for "did you mean" suggestions in one check. Each
    /// costs about 0.1 µs; a file of a thousand typos among tens of thousands of
    /// declarations took seconds. Past the budget, messages come without a suggestion.
    static let suggestionBudget = 2_000_000
    var suggestionBudget = Checker.suggestionBudget
    /// Candidates compared so far (replayed items count what they compared).
    var suggestionWork = 0
    /// Unknown names already reported, by where they are written, with the message a
    /// repeat reports (see `lookupValue`).
    @exclusivity(unchecked) var repeatedUnknownNames: [SourceRange: (Diagnostic, String)] = [:]
    /// Whether the top-level names are those of the memo's last check, for records that
    /// read them all. Asked once per check at most: the list can be long.
    lazy var everyNameUnchanged: Bool = memo.map { $0.everyName == topLevelNames } ?? false

    /// The file's top-level names, in declaration order.
    var topLevelNames: [String] { global.bindings.all.map(\.name.name) }

    func text(_ range: SourceRange) -> String { tree.file.text(range) }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Driver

    func run() -> CheckResult {
        // The name index reads the tree alone, so it is built before lowering: its
        // working tables (a table of names per layer that names something, the largest
        // the top level's) are gone by the check's peak. Built after, its lists were
        // the compile's peak, beside the tree and the IR.
        let index = NameIndex.build(tree)
        nameIndex = index
        let composition = lowerFile()
        memo?.finish { topLevelNames }
        for (key, d) in noEffectWarnings.sorted(by: { $0.key < $1.key }) {
            if let entry = noEffect[key], entry.count == entry.instances { report(d) }
        }
        reportUnused(index)
        let sorted = diagnostics.sorted(by: Diagnostic.ordered)
        let ok = !sorted.contains { $0.severity == .error } && !hasSyntaxErrors
        return CheckResult(composition: ok ? composition : nil, diagnostics: sorted, foldedValues: FoldedValues(foldedValues),
                           partialComposition: composition, names: nameIndex)
    }

    /// Registers a binding in `scope`, reporting duplicates and (unless the caller knows
    /// the answer already) shadowing. Whether `binding` is now the scope's binding of its
    /// name (false when the scope already had one, which stays).
    @discardableResult
    func declare(_ binding: Binding, in scope: Scope, checkingShadowing: Bool = true) -> Bool {
        let name = binding.name
        if let existing = scope.local(name.name, id: name.nameID) {
            if existing.name.range != name.range {
                report(Messages.duplicate(name.range, name: name.name, what: binding.kind.noun, previous: existing.name.range))
            }
            return false
        }
        if checkingShadowing, binding.kind != .loopVariable, let outer = scope.parent?.lookup(name),
           outer.name.range != name.range, outer.kind != .component {
            report(Messages.shadowing(name.range, name: name.name, outer: outer.name.range, what: outer.kind.noun))
        }
        scope.insert(binding)
        return true
    }

    /// Unused declarations, from the static name index rather than from evaluation: a
    /// use inside a broken expression, an untaken `if` branch or a loop that runs zero
    /// times still counts, so errors never turn into unused warnings, and the warning
    /// can be given whatever else is wrong with the file.
    private func reportUnused(_ index: NameIndex) {
        // Only declarations that can be warned about are candidates (layers and
        // animations, most of a large file's declarations, are not), picked out by kind
        // before anything is copied: with every layer among them, 100,000 layers made
        // this an edit distance per layer per misspelling.
        let unreferenced = index.unreferenced.filter { Checker.warnsUnused(index.declarations[$0].kind) }
        // Inside a component nobody instantiates, the component's own warning says it all.
        // A misspelt use (`duraton`) is reported with its suggestion; the declaration it
        // meant is not also "never used".
        let declaredNames = Array(Set(unreferenced.map { index.declarations[$0].name }))
        let meant = declaredNames.isEmpty ? [] : Set(index.unresolvedNames.compactMap { AnimcBase.closestMatch(to: $0, in: declaredNames) })
        let deadComponents = unreferenced.map { index.declarations[$0] }.filter { $0.kind == .component }.map(\.extent)
        let bytes = tree.file.bytes
        // Where each line feed is, found once when first needed: each declaration
        // scanning on to its line's end took time quadratic in a line of many (60,000
        // parameters on one line: 10 s).
        var lineFeeds: [Int]?
        func lineEnd(from offset: Int) -> Int {
            let feeds = lineFeeds ?? bytes.indices.filter { bytes[$0] == 0x0A }
            lineFeeds = feeds
            var lo = 0, hi = feeds.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if feeds[mid] < offset { lo = mid + 1 } else { hi = mid }
            }
            return lo < feeds.count ? feeds[lo] : bytes.count
        }
        for d in unreferenced {
            let declaration = index.declarations[d]
            if declaration.name.hasPrefix("_") || meant.contains(declaration.name) { continue }
            // A declaration being typed is not yet "unused": an error in it, or later on
            // its last line (where the parser may have cut it short), keeps it quiet.
            if hasSyntaxErrors,
               spansSyntaxError(SourceRange(start: declaration.extent.start,
                                            end: UInt32(clamping: lineEnd(from: min(Int(declaration.extent.end), bytes.count))))) {
                continue
            }
            if deadComponents.contains(where: { $0 != declaration.extent && $0.contains(declaration.range.start) }) { continue }
            report(Messages.unused(declaration.range, name: declaration.name, what: declaration.kind.noun))
        }
    }

    /// Whether a declaration of this kind gets an "unused" warning: loop variables,
    /// layers and animations are often named only to be read.
    static func warnsUnused(_ kind: NameIndex.Kind) -> Bool {
        switch kind {
        case .constant, .timing, .path, .component, .parameter: return true
        case .loopVariable, .layer, .animation: return false
        }
    }

    /// Counts expanded layers and loop iterations; past a limit, reports once and
    /// returns false so the caller stops expanding.
    func allowExpansion(layers: Int = 0, iterations: Int = 0, at range: SourceRange) -> Bool {
        layerCount += layers
        iterationCount += iterations
        if layerCount > ExpansionLimits.maxLayers || iterationCount > ExpansionLimits.maxLoopIterations
            || evaluationCount > evaluationLimit {
            recorder?.cacheable = false
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

/// Per interned name of one tree, a value computed from the name once (nil included).
/// A name made outside the tree (``Identifier/noNameID``) is computed every time.
///
/// Four bytes per name of the tree (where each name's value is among the few computed),
/// so a file of 100,000 names pays 400 KB for each table, whatever the value's size.
struct NameIDCache<T> {
    /// Per name: 0 when not computed yet, else one more than the value's place in `values`.
    private var slots: [Int32] = []
    private var values: [T?] = []

    mutating func value(_ id: UInt32, nameCount: Int, _ compute: () -> T?) -> T? {
        guard id != Identifier.noNameID, Int(id) < nameCount else { return compute() }
        if slots.isEmpty { slots = Array(repeating: 0, count: nameCount) }
        let slot = slots[Int(id)]
        if slot > 0 { return values[Int(slot) - 1] }
        let made = compute()
        values.append(made)
        slots[Int(id)] = Int32(truncatingIfNeeded: values.count)
        return made
    }
}
