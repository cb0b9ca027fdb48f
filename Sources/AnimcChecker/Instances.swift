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
        let parameterScope = Scope(parent: declarationScope)
        guard bindArguments(tree[arguments], of: info, callee: callee, instance: value, callerScope: scope,
                            declarationScope: declarationScope, into: parameterScope)
        else { return }
        context.instantiating.append(ObjectIdentifier(info))
        context.definitionDepth += 1
        defer {
            context.instantiating.removeLast()
            context.definitionDepth -= 1
        }
        var roots = 0
        expand(info.body, scope: parameterScope) { item, itemScope in
            guard case .layer(let mask, let kind, let layerName, _, let body) = tree[item] else { return }
            roots += 1
            if roots > 1 {
                report(Messages.badComponent(item.range, problem: "component '\(info.name.name)' has more than one root layer"))
                return
            }
            lowerLayer(mask: mask != nil, kind: kind, name: layerName, nameOverride: (instanceName, name.range), body: body,
                       range: range, parent: parent, scope: itemScope)
        }
        if roots == 0 {
            report(Messages.badComponent(info.name.range, problem: "component '\(info.name.name)' has no root layer"))
        }
    }

    /// Binds an instance's arguments to its component's parameters in `parameterScope`:
    /// each argument by its label (to the first parameter of that name), each parameter
    /// without one to its default. False after reporting a mistake.
    private func bindArguments(_ arguments: SyntaxList<Argument>, of info: ComponentInfo, callee: Identifier, instance: Expr,
                               callerScope: Scope, declarationScope: Scope, into parameterScope: Scope) -> Bool {
        let parameters = Array(tree[info.parameterList])
        var given: [Argument?] = Array(repeating: nil, count: parameters.count)
        for argument in arguments {
            guard let label = argument.label else {
                report(Messages.badArguments(argument.range, callee: callee.name, problem: "an unlabelled argument",
                                             usage: "\(callee.name)(" + parameters.map { "\($0.name.name): ..." }.joined(separator: ", ") + ")"))
                return false
            }
            guard let p = parameters.firstIndex(where: { $0.name.name == label.name }) else {
                report(Messages.badArguments(label.range, callee: callee.name, problem: "unknown parameter '\(label.name)'",
                                             usage: "parameters are " + parameters.map(\.name.name).joined(separator: ", ")))
                return false
            }
            if given[p] != nil {
                report(Messages.badArguments(label.range, callee: callee.name, problem: "parameter '\(label.name)' given twice"))
                return false
            }
            given[p] = argument
        }
        for (p, parameter) in parameters.enumerated() {
            let v: SemaValue
            if let argument = given[p] {
                v = eval(argument.value, callerScope)
            } else if let d = parameter.defaultValue {
                v = eval(d, declarationScope)
            } else {
                report(Messages.badInstance(instance.range, problem: "missing argument '\(parameter.name.name)' for component '\(callee.name)'"))
                return false
            }
            if v.isPoison { return false }
            var checked = v
            if let type = parameter.type {
                checked = checkDeclaredType(v, type, given[p]?.range ?? parameter.range)
                if checked.isPoison { return false }
            }
            declare(Binding(name: parameter.name, kind: .parameter, value: checked), in: parameterScope)
            if let binding = parameterScope.local(parameter.name) { recordFolded(binding, checked) }
        }
        return true
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
