import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// Visits the items of `block` in order with `scope` as their scope: declarations
    /// (`let`, `timing`, `path`, `component`) are registered first so that order within
    /// a block does not matter; `for` and `if` are expanded in place; every other item
    /// is passed to `visit` with the scope it sees. Afterwards every declaration is
    /// evaluated once, so mistakes in unused constants are still reported.
    ///
    /// Every item of a block expanded counts as an evaluation, whatever it is, so the
    /// evaluation limit bounds a loop or an instance whatever its body holds.
    func expand(_ block: Block, scope: Scope, _ visit: (Item, Scope) -> Void) {
        work.evaluations += block.items.count
        register(block.items, in: scope)
        for item in tree[block.items] {
            expandItem(item, scope: scope, visit)
        }
        evaluateUnevaluated(scope)
    }

    /// ``expand(_:scope:_:)`` for a nested block (a layer's, an animation's, a branch's):
    /// in a scope of its own when it declares something, else in `outer` itself (a scope
    /// with no bindings passes every lookup outwards, so the two answer alike).
    func expandNested(_ block: Block, in outer: Scope, _ visit: (Item, Scope) -> Void) {
        guard tree[block.items].contains(where: { Checker.declaresName(tree.tag($0)) }) else {
            work.evaluations += block.items.count
            for item in tree[block.items] { expandItem(item, scope: outer, visit) }
            return
        }
        expand(block, scope: Scope(parent: outer), visit)
    }

    /// One item of a block whose declarations are registered: `for` and `if` expanded,
    /// declarations skipped, anything else passed to `visit`.
    func expandItem(_ item: Item, scope: Scope, _ visit: (Item, Scope) -> Void) {
        switch tree.tag(item) {
        case .letDecl, .timingDecl, .pathDecl, .component, .error:
            return
        case .forLoop, .ifItem:
            break
        default:
            visit(item, scope)
            return
        }
        switch tree[item] {
        case .forLoop(let bindings, let body):
            expandLoop(bindings, body, scope, item.range, visit)
        case .ifItem(let condition, let then, let otherwise):
            let c = eval(condition, scope)
            guard case .bool(let flag) = c else {
                if !c.isPoison {
                    report(Messages.typeMismatch(condition.range, expected: "a boolean", found: c.typeName, context: "'if'"))
                }
                return
            }
            if let chosen = flag ? then : otherwise {
                expandNested(chosen, in: scope, visit)
            }
        default:
            break
        }
    }

    /// Evaluates the declarations of `scope` nothing used, so that their mistakes are
    /// still reported.
    func evaluateUnevaluated(_ scope: Scope) {
        for binding in scope.bindings where binding.value == nil {
            switch binding.kind {
            case .constant, .timing, .path: _ = value(of: binding, in: scope, at: binding.name.range)
            default: break
            }
        }
    }

    /// Whether an item of this kind declares a name in its block's scope (`let`,
    /// `timing`, `path`, `component`): what ``register`` registers, what
    /// ``expandNested(_:in:_:)`` looks for and what the name index declares first.
    static func declaresName(_ tag: ItemTag) -> Bool {
        switch tag {
        case .letDecl, .timingDecl, .pathDecl, .component, .importDecl: return true
        default: return false
        }
    }

    /// Registers the declarations among `items` in `scope`.
    /// A declaration counts as an evaluation once more: making its binding is work a
    /// loop repeats.
    func register(_ items: Children<Item>, in scope: Scope) {
        for item in tree[items] where Checker.declaresName(tree.tag(item)) {
            work.evaluations += 1
            switch tree[item] {
            case .letDecl(let name, let type, let value):
                declare(Binding(name: name, kind: .constant, expr: value, declaredType: type), in: scope)
            case .timingDecl(let name, let value):
                declare(Binding(name: name, kind: .timing, expr: value), in: scope)
            case .pathDecl(let name, let body):
                declare(Binding(name: name, kind: .path, pathBody: body), in: scope)
            case .component(let name, let params, let body):
                let info = ComponentInfo(name: name, parameters: params, in: tree, body: body, range: item.range)
                reportDuplicateParameters(params)
                declare(Binding(name: name, kind: .component, value: .component(info)), in: scope)
            case .importDecl:
                registerImport(item)
            default:
                break
            }
        }
    }

    /// A parameter named like an earlier one of the same component: its argument would
    /// always go to the first.
    private func reportDuplicateParameters(_ list: Children<Parameter>) {
        let parameters = tree[list]
        // A handful, compared pairwise; a long list (a generated component) through a table.
        if parameters.count <= 8 {
            for j in parameters.indices {
                if let i = parameters[..<j].firstIndex(where: { $0.name.name == parameters[j].name.name }) {
                    let p = parameters[j]
                    report(Messages.duplicate(p.name.range, name: p.name.name, what: "parameter", previous: parameters[i].name.range))
                }
            }
            return
        }
        var first: [String: SourceRange] = [:]
        for parameter in parameters {
            if let previous = first[parameter.name.name] {
                report(Messages.duplicate(parameter.name.range, name: parameter.name.name, what: "parameter", previous: previous))
            } else {
                first[parameter.name.name] = parameter.name.range
            }
        }
    }

    /// `for a in s1, b in s2 { body }`: the body once per combination, the first
    /// binding varying slowest, each iteration in its own scope.
    private func expandLoop(_ bindings: Children<LoopBinding>, _ body: Block, _ scope: Scope, _ range: SourceRange,
                            _ visit: (Item, Scope) -> Void) {
        var sequences: [LoopSequence] = []
        for binding in tree[bindings] {
            guard let values = loopValues(binding.sequence, scope) else { return }
            sequences.append(values)
        }
        var total = 1.0
        for s in sequences { total *= Double(s.count) }
        if total > Double(limits.loopIterations) {
            _ = allowExpansion(iterations: limits.loopIterations + 1, at: range)
            return
        }
        var indices = [Int](repeating: 0, count: sequences.count)
        guard !sequences.contains(where: { $0.count == 0 }) else { return }
        context.activeLoops.append(tree[bindings].first.map { $0.range.union(tree[bindings][bindings.count - 1].range) } ?? range)
        defer { context.activeLoops.removeLast() }
        let names = tree[bindings].map(\.name)
        while true {
            guard allowExpansion(iterations: 1, at: range) else { return }
            let iteration = Scope(parent: scope)
            for k in names.indices {
                declare(Binding(name: names[k], kind: .loopVariable, value: sequences[k][indices[k]]), in: iteration)
            }
            expand(body, scope: iteration, visit)
            // Advance the odometer, last binding fastest.
            var k = sequences.count - 1
            while k >= 0 {
                indices[k] += 1
                if indices[k] < sequences[k].count { break }
                indices[k] = 0
                k -= 1
            }
            if k < 0 { return }
        }
    }

    /// What a loop variable runs over. Ranges stay ranges: materialising
    /// `0 ..< 4999999` as an array cost 120 MB before the first iteration.
    private enum LoopSequence {
        case range(lower: Double, count: Int, dimension: Dimension)
        case list([SemaValue])

        var count: Int {
            switch self {
            case .range(_, let n, _): return n
            case .list(let items): return items.count
            }
        }

        subscript(i: Int) -> SemaValue {
            switch self {
            case .range(let lo, _, let dim): return .number(lo + Double(i), dim)
            case .list(let items): return items[i]
            }
        }
    }

    private func loopValues(_ expr: Expr, _ scope: Scope) -> LoopSequence? {
        let v = eval(expr, scope)
        switch v {
        case .range(let lo, let hi, let inclusive, let dim):
            guard lo.isFinite, hi.isFinite else {
                report(Messages.nonFinite(expr.range, nan: false))
                return nil
            }
            let count = max(0, (inclusive ? (hi - lo).rounded(.down) + 1 : (hi - lo).rounded(.up)))
            if count > Double(limits.loopIterations) {
                _ = allowExpansion(iterations: limits.loopIterations + 1, at: expr.range)
                return nil
            }
            return .range(lower: lo, count: Int(saturating: count), dimension: dim)
        case .list(let items):
            return .list(items)
        case .poison:
            return nil
        default:
            report(Messages.typeMismatch(expr.range, expected: "a range or a list", found: v.typeName, context: "'for'"))
            return nil
        }
    }
}
