import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// A checked file that other files of the same compilation import: what they read of
/// it. Its top-level declarations were evaluated by its own check; its components are
/// instantiated by it too, for the importer, since their bodies are its syntax.
///
/// A module belongs to one compilation, and that compilation's one thread: an
/// importer's instance lowers through the module's checker, which is not shared.
public final class CheckedModule: @unchecked Sendable {
    let checker: Checker
    /// The file, as the compilation names it (for notes pointing into it).
    public var file: SourceFile { checker.tree.file }
    /// How many errors the file has, its imports' included (its importers cannot be
    /// built): its check's, and what its compilation found loading its imports.
    public var errorCount: Int

    init(checker: Checker, errorCount: Int) {
        self.checker = checker
        self.errorCount = errorCount
    }

    /// The top-level declarations importers may name, in order.
    var exportedNames: [String] { checker.global.bindings.filter { $0.kind != .module }.map(\.name.name) }

    /// The value of the top-level declaration `name`, or nil when the file declares none
    /// (its imports are not re-exported).
    func export(_ name: String) -> SemaValue? {
        guard let binding = checker.global.local(name), binding.kind != .module else { return nil }
        // The module's check ran to the end (it is never cancelled) and evaluated every
        // declaration, its mistakes reported there.
        return binding.value ?? .poison
    }
}

/// What each `import` of a file resolved to, given to its check by whoever loaded the
/// files (the compiler's project loader).
public struct ResolvedImports: Sendable {
    /// By the start of each import's path string: the module, or nil when the file
    /// could not be imported (already reported at the string).
    public var modules: [UInt32: CheckedModule?] = [:]
    /// What identifies the imported files' contents: a memo's records are kept only
    /// while it is the same (an item's dependencies are its own file's text).
    public var fingerprint: [String] = []

    public init(modules: [UInt32: CheckedModule?] = [:], fingerprint: [String] = []) {
        self.modules = modules
        self.fingerprint = fingerprint
    }

    /// No imports resolved: every import is unresolved and poisons what reads it.
    public static let none = ResolvedImports()
}

/// Checks a file that other files import, keeping what they need of it (see
/// ``CheckedModule``).
public func checkModule(_ tree: SyntaxTree, imports: ResolvedImports, limits: ExpansionLimits = .standard) -> (CheckResult, CheckedModule) {
    let checker = Checker(tree: tree, memo: nil, limits: limits, imports: imports)
    let result = checker.run() ?? CheckResult(composition: nil, diagnostics: [])
    let errors = result.diagnostics.filter { $0.severity == .error }.count + tree.diagnostics.filter { $0.severity == .error }.count
    return (result, CheckedModule(checker: checker, errorCount: errors))
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
    func member(of module: CheckedModule, _ moduleName: String, _ name: Identifier) -> SemaValue {
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
    func module(named name: Identifier, _ scope: Scope) -> (CheckedModule?, Binding)? {
        guard let (binding, _) = scope.resolve(name), binding.kind == .module else { return nil }
        if case .module(let m)? = binding.value { return (m, binding) }
        return (nil, binding)
    }

    /// Runs `body` with the reports it makes kept apart from this file's, and returns
    /// them: what lowering made for an importer is reported there.
    func capturing<T>(_ body: () -> T) -> (T, [Diagnostic]) {
        let savedOutput = output, savedContext = context
        output = ItemOutput()
        let result = body()
        let reports = output.diagnostics.map(\.diagnostic)
        output = savedOutput
        context = savedContext
        return (result, reports)
    }

    /// `name = module.Component(...)`: lowers the component, declared in `module`, by the
    /// module's checker with the arguments evaluated here, and adopts its root layer
    /// into `parent`. The layers' ranges are the instance's (they have none in this
    /// file), and what the module reports while lowering them is reported at the
    /// instance, with a note saying where in the module.
    func lowerImportedInstance(_ module: CheckedModule, qualifier: Identifier, callee: Identifier, arguments: Children<Argument>,
                               instanceName: String, nameRange: SourceRange, value: Expr, range: SourceRange, parent: LayerNode,
                               scope: Scope) {
        let library = module.checker
        guard case .component(let info)? = module.export(callee.name) else {
            if module.export(callee.name) != nil {
                report(Messages.badInstance(callee.range, problem: "'\(qualifier.name).\(callee.name)' is not a component"))
            } else {
                _ = member(of: module, qualifier.name, callee)
            }
            return
        }
        let parameters = Array(library.tree[info.parameterList])
        guard let values = bindArguments(tree[arguments], to: parameters, callee: "\(qualifier.name).\(callee.name)", instance: value,
                                         callerScope: scope, foreign: true, defaultValue: { parameter, d in
                                             let (v, reports) = library.capturing {
                                                 let v = library.eval(d, library.global)
                                                 guard let type = parameter.type, !v.isPoison else { return v }
                                                 return library.checkDeclaredType(v, type, d.range)
                                             }
                                             self.reportFromModule(reports, module, component: info, at: value.range)
                                             return v
                                         })
        else { return }
        let before = library.work, children = parent.children.count
        let ((), reports) = library.capturing {
            library.context.definitionDepth = context.definitionDepth + 1
            library.context.layers = context.layers
            library.context.frame = context.frame
            library.instantiate(info, values: values, instanceName: instanceName, nameRange: nameRange, range: range, parent: parent)
        }
        work = work + (library.work - before)
        library.work = before
        // Its masks are resolved with this file's layers.
        masksWritten = true
        if parent.children.count > children, let node = parent.children.last {
            _ = node.move(RangeShift.everything(to: range))
            node.nameRange = nameRange
        }
        if !reports.isEmpty, parent === root { output.cannotReplay(.otherItemsLayers) }
        reportFromModule(reports, module, component: info, at: value.range)
    }

    /// Reports what `module` reported while lowering for this file, at `range`; not what
    /// its own check reported already (a library's check lowers each component once:
    /// a mistake whatever the arguments is its own finding, counted by E0326 here).
    private func reportFromModule(_ reports: [Diagnostic], _ module: CheckedModule, component: ComponentInfo, at range: SourceRange) {
        guard !reports.isEmpty else { return }
        let index = LineIndex(module.file)
        for d in reports where !module.checker.seen.contains(Checker.reportKey(d)) {
            let place = index.location(of: d.range.start)
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
