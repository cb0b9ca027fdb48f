import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// `name = Component(label: value, ...)`: the component's root layer, named `name`,
    /// lowered with the arguments bound to the parameters. Components are lexically
    /// scoped: the parameters live in a scope whose parent is the component's
    /// declaration scope, not the caller's.
    func lowerInstance(_ name: Identifier, _ indices: Children<Expr>, _ value: Expr, _ range: SourceRange, parent: LayerNode, scope: Scope) {
        if case .qualifiedCall(let qualifier, let callee, let arguments) = tree[value] {
            guard let (module, _) = module(named: qualifier, scope) else {
                _ = lookupValue(qualifier.name, qualifier.range, scope, id: qualifier.nameID)
                return
            }
            guard let module, let instanceName = indexedName(name.name, indices, scope, what: "an instance index") else { return }
            guard context.definitionDepth < ExpansionLimits.maxDefinitionDepth else {
                definitionsTooDeep(callee.range, name: callee.name)
                return
            }
            lowerImportedInstance(module, qualifier: qualifier, callee: callee, arguments: arguments, instanceName: instanceName,
                                  nameRange: name.range, value: value, range: range, parent: parent, scope: scope)
            return
        }
        guard case .call(let callee, let arguments) = tree[value] else {
            if case .error = tree[value] { return }
            report(Messages.badInstance(value.range, problem: "'\(name.name) = ...' must instantiate a component",
                                        help: "write '\(name.name) = SomeComponent(label: value, ...)'; to declare a constant use 'let'"))
            return
        }
        guard let (info, declarationScope) = component(callee, scope) else { return }
        guard let instanceName = indexedName(name.name, indices, scope, what: "an instance index") else { return }
        if context.instantiating.contains(ObjectIdentifier(info)) {
            report(Messages.recursive(callee.range, name: callee.name, what: "component"))
            return
        }
        guard context.definitionDepth < ExpansionLimits.maxDefinitionDepth else {
            definitionsTooDeep(callee.range, name: callee.name)
            return
        }
        guard let values = bindArguments(tree[arguments], to: info.parameters, callee: callee.name, instance: value,
                                         callerScope: scope, foreign: false, defaultValue: { self.eval($1, declarationScope) })
        else { return }
        let parameterScope = Scope(parent: declarationScope)
        for (parameter, v) in values {
            declare(Binding(name: parameter, kind: .parameter, value: v), in: parameterScope)
            if let binding = parameterScope.local(parameter) { recordFolded(binding, v) }
        }
        context.instantiating.append(ObjectIdentifier(info))
        context.definitionDepth += 1
        defer {
            context.instantiating.removeLast()
            context.definitionDepth -= 1
        }
        lowerRoot(of: info, scope: parameterScope, instanceName: instanceName, nameRange: name.range, range: range, parent: parent)
    }

    /// Lowers the one root layer of `info`'s body, named `instanceName`, into `parent`.
    func lowerRoot(of info: ComponentInfo, scope: Scope, instanceName: String, nameRange: SourceRange, range: SourceRange,
                   parent: LayerNode) {
        var roots = 0
        expand(info.body, scope: scope) { item, itemScope in
            guard case .layer(let mask, let kind, let layerName, _, let body) = tree[item] else { return }
            roots += 1
            if roots > 1 {
                report(Messages.badComponent(item.range, problem: "component '\(info.name.name)' has more than one root layer"))
                return
            }
            lowerLayer(mask: mask != nil, kind: kind, name: layerName, nameOverride: (instanceName, nameRange), body: body,
                       range: range, parent: parent, scope: itemScope)
        }
        if roots == 0 {
            report(Messages.badComponent(info.name.range, problem: "component '\(info.name.name)' has no root layer"))
        }
    }

    /// An instance's arguments bound to its component's parameters: each argument by
    /// its label (to the first parameter of that name), each parameter without one to
    /// `defaultValue` of its default. Nil after reporting a mistake. With `foreign`, the
    /// parameters are another file's: a declared type is checked at the argument.
    func bindArguments(_ arguments: SyntaxList<Argument>, to parameters: [Parameter], callee: String, instance: Expr,
                       callerScope: Scope, foreign: Bool, defaultValue: (Parameter, Expr) -> SemaValue) -> [(Identifier, SemaValue)]? {
        var given: [Argument?] = Array(repeating: nil, count: parameters.count)
        for argument in arguments {
            guard let label = argument.label else {
                report(Messages.badArguments(argument.range, callee: callee, problem: "an unlabelled argument",
                                             usage: "\(callee)(" + parameters.map { "\($0.name.name): ..." }.joined(separator: ", ") + ")"))
                return nil
            }
            guard let p = parameters.firstIndex(where: { $0.name.name == label.name }) else {
                report(Messages.badArguments(label.range, callee: callee, problem: "unknown parameter '\(label.name)'",
                                             usage: "parameters are " + parameters.map(\.name.name).joined(separator: ", ")))
                return nil
            }
            if given[p] != nil {
                report(Messages.badArguments(label.range, callee: callee, problem: "parameter '\(label.name)' given twice"))
                return nil
            }
            given[p] = argument
        }
        var values: [(Identifier, SemaValue)] = []
        for (p, parameter) in parameters.enumerated() {
            let v: SemaValue
            if let argument = given[p] {
                v = eval(argument.value, callerScope)
            } else if let d = parameter.defaultValue {
                v = defaultValue(parameter, d)
            } else {
                report(Messages.badInstance(instance.range, problem: "missing argument '\(parameter.name.name)' for component '\(callee)'"))
                return nil
            }
            if v.isPoison { return nil }
            var checked = v
            if let type = parameter.type {
                // A default of another file's component was checked there (`defaultValue`).
                if foreign && given[p] == nil { values.append((parameter.name, v)); continue }
                let at = given[p]?.range ?? parameter.range
                checked = checkDeclaredType(v, foreign ? Identifier(type.name, at) : type, at)
                if checked.isPoison { return nil }
            }
            values.append((parameter.name, checked))
        }
        return values
    }

    /// The component `callee` names and the scope that declares it, or nil, reported,
    /// when it names none.
    private func component(_ callee: Identifier, _ scope: Scope) -> (ComponentInfo, Scope)? {
        guard let (binding, declaring) = scope.resolve(callee) else {
            reportSuggesting(callee.name, among: scope.visibleNameCount,
                             { scope.visibleNames.filter { scope.lookup($0)?.kind == .component } }) {
                Messages.unknownName(callee.range, name: callee.name, suggestion: $0)
            }
            return nil
        }
        guard case .component(let info)? = binding.value else {
            report(Messages.badInstance(callee.range, problem: "'\(callee.name)' is a \(binding.kind.noun), not a component"))
            return nil
        }
        return (info, declaring)
    }
}
