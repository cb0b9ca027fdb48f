import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// A checked file as the files importing it see it: an immutable value, made once per
/// content by its own check and shared by every importer, on any thread (a module cache
/// keeps it while the file's text and its imports' are the same).
///
/// It carries its syntax tree, its facts and its top-level declarations, each evaluated
/// by its own check: an importer lowers the file's components itself, reading the
/// module's tree in a lowering of its own (``Checker/lowerImportedInstance``), so
/// nothing of the module is written after it is made.
public final class ModuleInterface: @unchecked Sendable {
    // Unchecked: `global` is a scope of classes. It is frozen when the interface is made
    // (every binding holds its value, the name tables are built, nothing observes it),
    // and every later access is a read: a lookup finds a value and returns it.
    let tree: SyntaxTree
    let facts: FileFacts
    /// The file's top-level declarations.
    let global: Scope
    /// What the file's own check reported, by report key: an importer does not report
    /// again what is wrong whatever the arguments (counted at its import by E0326).
    let reportKeys: Set<String>
    /// Where the file's lines start, for the notes pointing into it.
    let lines: LineIndex
    /// The file, as the compilation names it (for notes pointing into it).
    public var file: SourceFile { tree.file }
    /// How many errors the file has, its imports' included (its importers cannot be
    /// built): its check's, and what its compilation found loading its imports.
    public let errorCount: Int

    init(_ checker: Checker, errorCount: Int) {
        tree = checker.tree
        facts = checker.facts
        global = checker.global
        reportKeys = checker.seen
        lines = LineIndex(checker.tree.file)
        self.errorCount = errorCount
        global.freeze()
    }

    /// The top-level declarations importers may name, in order.
    var exportedNames: [String] { global.bindings.filter { $0.kind != .module }.map(\.name.name) }

    /// The value of the top-level declaration `name`, or nil when the file declares none
    /// (its imports are not re-exported).
    func export(_ name: String) -> SemaValue? {
        guard let binding = global.local(name), binding.kind != .module else { return nil }
        // Frozen: a declaration its check could not evaluate (past a limit) is poison.
        return binding.value ?? .poison
    }
}

/// A library's check, before its interface is made: the compiler counts the file's
/// errors with what loading its imports found, which the interface carries.
public struct CheckedLibrary {
    /// The check's result, as ``check(_:imports:memo:limits:)`` gives it.
    public let result: CheckResult
    let checker: Checker

    /// The immutable interface importers read, with the file's `errorCount`.
    public func interface(errorCount: Int) -> ModuleInterface { ModuleInterface(checker, errorCount: errorCount) }
}

/// What each `import` of a file resolved to, given to its check by whoever loaded the
/// files (the compiler's project loader).
public struct ResolvedImports: Sendable {
    /// By the start of each import's path string: the module, or nil when the file
    /// could not be imported (already reported at the string).
    public var modules: [UInt32: ModuleInterface?] = [:]
    /// What identifies the imported files' contents: a memo's records are kept only
    /// while it is the same (an item's dependencies are its own file's text).
    public var fingerprint: [String] = []

    public init(modules: [UInt32: ModuleInterface?] = [:], fingerprint: [String] = []) {
        self.modules = modules
        self.fingerprint = fingerprint
    }

    /// No imports resolved: every import is unresolved and poisons what reads it.
    public static let none = ResolvedImports()
}

/// Checks a file that other files import; its interface is made from the result (see
/// ``CheckedLibrary``).
public func checkModule(_ tree: SyntaxTree, imports: ResolvedImports, limits: ExpansionLimits = .standard) -> CheckedLibrary {
    let checker = Checker(tree: tree, memo: nil, limits: limits, imports: imports)
    let result = checker.run() ?? CheckResult(composition: nil, diagnostics: [])
    return CheckedLibrary(result: result, checker: checker)
}

extension Checker {
    /// Registers an `import` as a name bound to its module (poison when it could not
    /// be imported: uses say nothing more).
    func registerImport(_ item: Item) {
        guard let declaration = facts.imports[item.range.start] else { return }
        guard let name = declaration.name else {
            // A path that is not of an .anim file is reported as that, where it is loaded.
            guard declaration.path.hasSuffix(ImportPaths.fileExtension) else { return }
            let stem = ImportPaths.stem(declaration.path)
            let suggested = String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" })
            let fix = ImportPaths.isName(suggested)
                ? [FixIt.insert(" as \(suggested)", at: declaration.pathRange.end, "name it '\(suggested)'")] : []
            report(CheckerDiagnostics.badImport.at(declaration.pathRange, "'\(stem)' is not a name to qualify this file's declarations with",
                                                   label: "imported as?", help: "name it with 'as': import \"\(declaration.path)\" as name",
                                                   fixIts: fix))
            return
        }
        let module = imports.modules[declaration.pathRange.start] ?? nil
        declare(Binding(name: name, kind: .module, value: module.map { .module($0) } ?? .poison), in: global)
        if let module, module.errorCount > 0 {
            report(CheckerDiagnostics.importedErrors.at(
                declaration.pathRange, "'\(declaration.path)' has \(module.errorCount) error\(module.errorCount == 1 ? "" : "s")",
                label: "reported at \(module.file.name)"))
        }
    }

    /// `module.name`: the declaration the imported file makes, or poison, reported.
    func member(of module: ModuleInterface, _ moduleName: String, _ name: Identifier) -> SemaValue {
        if let v = module.export(name.name) { return v }
        let names = module.exportedNames
        reportSuggesting(name.name, among: names.count, { names }) {
            CheckerDiagnostics.unknownExport.at(name.range, "'\(moduleName)' (\(module.file.name)) declares no '\(name.name)'",
                                                label: "not declared there", help: $0.map { "did you mean '\($0)'?" },
                                                fixIts: $0.map { [.replace(name.range, with: $0, "replace with '\($0)'")] } ?? [])
        }
        return .poison
    }

    /// The module `name` denotes in `scope`, if it names one.
    func module(named name: Identifier, _ scope: Scope) -> (ModuleInterface?, Binding)? {
        guard let (binding, _) = scope.resolve(name), binding.kind == .module else { return nil }
        if case .module(let m)? = binding.value { return (m, binding) }
        return (nil, binding)
    }

    /// `name = module.Component(...)`: lowers the component, declared in `module`, with
    /// the arguments evaluated here, and adopts its root layer into `parent`. The body is
    /// the module's syntax, read in its scope: it is lowered by a ``Checker`` over the
    /// module's interface, which spends this check's limits and hands back what it
    /// reported. The layers' ranges are the instance's (they have none in this file), and
    /// what the body reports is reported at the instance, with a note saying where in the
    /// module.
    func lowerImportedInstance(_ module: ModuleInterface, qualifier: Identifier, callee: Identifier, arguments: Children<Argument>,
                               instanceName: String, nameRange: SourceRange, value: Expr, range: SourceRange, parent: LayerNode,
                               scope: Scope) {
        guard case .component(let info)? = module.export(callee.name) else {
            if module.export(callee.name) != nil {
                report(Messages.badInstance(callee.range, problem: "'\(qualifier.name).\(callee.name)' is not a component"))
            } else {
                _ = member(of: module, qualifier.name, callee)
            }
            return
        }
        let lowering = Checker(lowering: module, for: self)
        let values = bindArguments(tree[arguments], to: info.parameters, callee: "\(qualifier.name).\(callee.name)", instance: value,
                                   callerScope: scope, foreign: true, defaultValue: { parameter, d in
                                       lowering.spend(self)
                                       var v = lowering.eval(d, module.global)
                                       if let type = parameter.type, !v.isPoison { v = lowering.checkDeclaredType(v, type, d.range) }
                                       self.takeBack(lowering, module, component: info, at: value.range)
                                       return v
                                   })
        guard let values else { return }
        let children = parent.children.count
        lowering.spend(self)
        lowering.context.definitionDepth = context.definitionDepth + 1
        lowering.context.layers = context.layers
        lowering.context.frame = context.frame
        lowering.instantiate(info, values: values, instanceName: instanceName, nameRange: nameRange, range: range, parent: parent)
        // Its masks are resolved with this file's layers.
        masksWritten = true
        if parent.children.count > children, let node = parent.children.last {
            _ = node.move(RangeShift.everything(to: range))
            node.nameRange = nameRange
        }
        if lowering.output.newDiagnostics > 0, parent === root { output.cannotReplay(.otherItemsLayers) }
        takeBack(lowering, module, component: info, at: value.range)
    }

    /// A checker that lowers `module`'s syntax for `importer`: the module's tree, facts
    /// and frozen declarations, no memo, nothing of its own to report into but its
    /// output (see ``spend(_:)`` and ``takeBack(_:_:component:at:)``).
    convenience init(lowering module: ModuleInterface, for importer: Checker) {
        self.init(tree: module.tree, facts: module.facts, global: module.global, memo: nil, limits: importer.limits, imports: .none)
        isCancelled = importer.isCancelled
    }

    /// What a check has spent against its limits, and the limits' reports it made: what
    /// a lowering checker is lent by its importer and gives back.
    struct Spending {
        var work: Work
        var evaluationLimit: Int
        var suggestionBudget: Int
        var nextCancellationPoll: Int
        var cancelled: Bool
        var expansionReported: Bool
        var reportedDefinitionDepth: Bool
    }

    var spending: Spending {
        get {
            Spending(work: work, evaluationLimit: evaluationLimit, suggestionBudget: suggestionBudget,
                     nextCancellationPoll: nextCancellationPoll, cancelled: cancelled, expansionReported: expansionReported,
                     reportedDefinitionDepth: reportedDefinitionDepth)
        }
        set {
            (work, evaluationLimit, suggestionBudget) = (newValue.work, newValue.evaluationLimit, newValue.suggestionBudget)
            (nextCancellationPoll, cancelled) = (newValue.nextCancellationPoll, newValue.cancelled)
            (expansionReported, reportedDefinitionDepth) = (newValue.expansionReported, newValue.reportedDefinitionDepth)
        }
    }

    /// Gives this lowering checker what `importer` has left to spend: its work so far
    /// against the same limits, its cancellation, the limits' reports already made.
    func spend(_ importer: Checker) {
        spending = importer.spending
        output = ItemOutput()
    }

    /// Takes back from `lowering` (see ``spend(_:)``) what it spent and reported: its
    /// reports are made at `range`, in this file.
    private func takeBack(_ lowering: Checker, _ module: ModuleInterface, component: ComponentInfo, at range: SourceRange) {
        spending = lowering.spending
        if lowering.output.notReplayable.contains(.limit) { output.cannotReplay(.limit) }
        reportFromModule(lowering.output.diagnostics.map(\.diagnostic), module, component: component, at: range)
    }

    /// Reports what `module` reported while lowering for this file, at `range`; not what
    /// its own check reported already (a library's check lowers each component once:
    /// a mistake whatever the arguments is its own finding, counted by E0326 here).
    private func reportFromModule(_ reports: [Diagnostic], _ module: ModuleInterface, component: ComponentInfo, at range: SourceRange) {
        guard !reports.isEmpty else { return }
        for d in reports where !module.reportKeys.contains(Checker.reportKey(d)) {
            let place = module.lines.location(of: d.range.start)
            let quoted = module.file.text(d.range).prefix(60)
            var notes = [Note("in component '\(component.name.name)', at \(module.file.name):\(place.line):\(place.column)"
                              + (quoted.isEmpty ? "" : ": '\(quoted)'"))]
            notes += d.notes.filter { $0.range == nil }
            report(Diagnostic(code: d.code, severity: d.severity, message: d.message, primary: Label(range, "in this instance"),
                              notes: notes, help: d.help))
        }
    }

    /// A library's components, each lowered once apart from any layer tree, so that
    /// checking the library finds what is wrong in their bodies whatever the arguments
    /// (its importers' instances would each find it again). A parameter takes its
    /// default, or, without one, a poisoned value: what depends on it says nothing.
    func checkComponentsOfLibrary() {
        for binding in global.bindings where binding.kind == .component {
            guard !cancelled, case .component(let info)? = binding.value else { continue }
            var values: [(Identifier, SemaValue)] = []
            for parameter in tree[info.parameterList] {
                var v = parameter.defaultValue.map { eval($0, global) } ?? .poison
                if let type = parameter.type, !v.isPoison { v = checkDeclaredType(v, type, parameter.defaultValue?.range ?? parameter.range) }
                values.append((parameter.name, v))
            }
            let scratch = LayerNode(name: "", id: "", nameRange: info.name.range, kind: .layer, isMask: false, range: info.range)
            instantiate(info, values: values, instanceName: info.name.name, nameRange: info.name.range, range: info.range, parent: scratch)
        }
    }

    /// Lowers an instance of `info`, one of this file's components, with its
    /// parameters bound to `values`, into `parent` (which may be another file's layer).
    func instantiate(_ info: ComponentInfo, values: [(Identifier, SemaValue)], instanceName: String, nameRange: SourceRange,
                     range: SourceRange, parent: LayerNode) {
        let parameterScope = Scope(parent: global)
        for (name, v) in values { declare(Binding(name: name, kind: .parameter, value: v), in: parameterScope) }
        context.instantiating.append(ObjectIdentifier(info))
        defer { context.instantiating.removeLast() }
        lowerRoot(of: info, scope: parameterScope, instanceName: instanceName, nameRange: nameRange, range: range, parent: parent)
    }
}
