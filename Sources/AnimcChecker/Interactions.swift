import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// `input`, `state` and `on`: read against the finished composition (their key paths
/// name its layers), outside the memo, as tests are.
extension Checker {
    /// The file's inputs, states and transitions, or nil when it declares none. The
    /// composition's layers are given the first state's values.
    func lowerInteraction(_ composition: inout Composition) -> Interaction? {
        var inputItems: [Item] = [], stateItems: [Item] = [], transitionItems: [Item] = []
        for item in tree[tree.root.items] {
            switch tree.tag(item) {
            case .inputDecl: inputItems.append(item)
            case .stateDecl: stateItems.append(item)
            case .transition: transitionItems.append(item)
            default: break
            }
        }
        if inputItems.isEmpty && stateItems.isEmpty && transitionItems.isEmpty { return nil }
        var failed = false
        let inputs = lowerInputs(inputItems, failed: &failed)
        let declaredInputs = Set(inputItems.compactMap { item -> String? in
            if case .inputDecl(let name, _, _, _) = tree[item] { return name.name } else { return nil }
        })
        let states = lowerStates(stateItems, composition, failed: &failed)
        let transitions = lowerTransitions(transitionItems, inputs: inputs, declaredInputs: declaredInputs, states: states, failed: &failed)
        if states.isEmpty, let first = transitionItems.first {
            report(CheckerDiagnostics.badInteraction.at(first.range, "a transition needs states to go between", label: "no state declared",
                                                        help: "declare them: 'state closed { card.position: (100, 150) }'"))
            failed = true
        }
        // A state other than the first that nothing goes to is never shown.
        let reached = Set(transitions.map(\.to))
        var nameRanges: [String: SourceRange] = [:]
        for item in stateItems { if case .stateDecl(let name, _) = tree[item] { nameRanges[name.name] = name.range } }
        for (k, state) in states.enumerated() where k > 0 && !reached.contains(k) && !failed {
            report(CheckerDiagnostics.idleInteraction.at(nameRanges[state.name] ?? state.range, "no transition goes to state '\(state.name)'",
                                                         label: "never shown",
                                                         help: "add 'on INPUT from ... -> \(state.name)', or remove the state"))
        }
        if failed { return nil }
        // Each key path any state sets, with the layer's own value there, before the
        // first state's values replace them.
        var base: [Interaction.Setting] = []
        for setting in states.flatMap(\.values) where !base.contains(where: { $0.layer == setting.layer && $0.target == setting.target }) {
            guard let own = composition.layers[setting.layer].modelValue(of: setting.target) else { continue }
            base.append(Interaction.Setting(layer: setting.layer, target: setting.target, value: own, range: composition.layers[setting.layer].range))
        }
        if let initial = states.first { apply(initial, to: &composition) }
        return Interaction(inputs: inputs, states: states, transitions: transitions, baseValues: base)
    }

    private func lowerInputs(_ items: [Item], failed: inout Bool) -> [Interaction.Input] {
        var inputs: [Interaction.Input] = []
        var seen: [String: SourceRange] = [:]
        for item in items {
            guard case .inputDecl(let name, let type, let rangeExpr, let defaultExpr) = tree[item] else { continue }
            if let previous = seen[name.name] ?? facts.topLevelDeclarations[name.name]?.range {
                report(Messages.duplicate(name.range, name: name.name, what: "input", previous: previous))
                failed = true
                continue
            }
            seen[name.name] = name.range
            guard let kind = Interaction.Input.Kind(rawValue: type.name) else {
                let kinds = Interaction.Input.Kind.allCases.map(\.rawValue)
                report(CheckerDiagnostics.badInteraction.at(
                    type.range, "'\(type.name)' is not a kind of input", label: "unknown input kind",
                    help: closestMatch(to: type.name, in: kinds).map { "did you mean '\($0)'?" } ?? "inputs are " + kinds.joined(separator: ", ")))
                failed = true
                continue
            }
            var allowed: ClosedRange<Double>?
            if let r = rangeExpr {
                guard kind == .number else {
                    report(CheckerDiagnostics.badInteraction.at(r.range, "only a number input has a range", label: "a \(kind.rawValue) input"))
                    failed = true
                    continue
                }
                let v = eval(r, global)
                guard case .range(let lo, let hi, _, .none) = v, lo.isFinite, hi.isFinite, lo <= hi else {
                    if !v.isPoison {
                        report(Messages.typeMismatch(r.range, expected: "a range of numbers such as 0 ... 1", found: v.typeName, context: "an input's range"))
                    }
                    failed = true
                    continue
                }
                allowed = lo...hi
            }
            var initial: Interaction.Value?
            switch kind {
            case .trigger:
                if let d = defaultExpr {
                    report(CheckerDiagnostics.badInteraction.at(d.range, "a trigger holds no value", label: "a default",
                                                                help: "remove it, or declare a bool or number input"))
                    failed = true
                    continue
                }
            case .bool:
                initial = .bool(false)
                if let d = defaultExpr {
                    guard case .bool(let b)? = lowerValue(d, global, as: .bool, context: "input '\(name.name)'") else { failed = true; continue }
                    initial = .bool(b)
                }
            case .number:
                initial = .number(allowed?.lowerBound ?? 0)
                if let d = defaultExpr {
                    guard case .number(let x)? = lowerValue(d, global, as: .number, context: "input '\(name.name)'") else { failed = true; continue }
                    if let allowed, !allowed.contains(x) {
                        report(Messages.outOfRange(d.range, what: "input '\(name.name)''s default", value: formatNumber(x),
                                                   valid: "\(formatNumber(allowed.lowerBound)) ... \(formatNumber(allowed.upperBound))"))
                        failed = true
                        continue
                    }
                    initial = .number(x)
                }
            case .point:
                initial = .point(Point(0, 0))
                if let d = defaultExpr {
                    guard case .point(let p)? = lowerValue(d, global, as: .point, context: "input '\(name.name)'") else { failed = true; continue }
                    initial = .point(p)
                }
            }
            inputs.append(Interaction.Input(name: name.name, kind: kind, allowed: allowed, initial: initial, range: item.range))
        }
        return inputs
    }

    private func lowerStates(_ items: [Item], _ composition: Composition, failed: inout Bool) -> [Interaction.State] {
        var states: [Interaction.State] = []
        var seen: [String: SourceRange] = [:]
        let ids = composition.layers.map(\.id)
        let idSet = Set(ids)
        var indexOf: [String: Int] = [:]
        for (k, id) in ids.enumerated() where indexOf[id] == nil { indexOf[id] = k }
        for item in items {
            guard case .stateDecl(let name, let body) = tree[item] else { continue }
            if let previous = seen[name.name] {
                report(Messages.duplicate(name.range, name: name.name, what: "state", previous: previous))
                failed = true
                continue
            }
            seen[name.name] = name.range
            var settings: [Interaction.Setting] = []
            var keys: [String: SourceRange] = [:]
            for entry in tree[body.items] {
                guard case .property(let key, let value) = tree[entry] else {
                    report(Messages.misplaced(entry.range, problem: "a state holds 'layer.keyPath: value' lines",
                                              help: "write the layer's value in this state, such as 'card.opacity: 1'"))
                    failed = true
                    continue
                }
                let path = key.dotted
                if let previous = keys[path] {
                    report(Messages.duplicateProperty(key.range, name: path, previous: previous))
                    failed = true
                    continue
                }
                keys[path] = key.range
                guard let (layerID, _, info) = Checker.expectationTarget(path, layers: idSet), let layer = indexOf[layerID] else {
                    reportUnknownKeyPath(key.range, path, among: ids.flatMap { id in ["opacity", "position", "bounds"].map { id + "." + $0 } },
                                         example: "card.opacity")
                    failed = true
                    continue
                }
                guard info.type.isSubtractable, PropertyTable.info(info.target.property).applies(to: composition.layers[layer].kind)
                else {
                    report(CheckerDiagnostics.badInteraction.at(
                        key.range, "'\(info.keyPath)' cannot change in a transition", label: "its values do not add",
                        help: "a transition runs as an additive animation from the old value to the new: numbers, points, sizes, rects and colours"))
                    failed = true
                    continue
                }
                guard let v = lowerValue(value, global, as: info.type, context: "'\(path)'") else { failed = true; continue }
                settings.append(Interaction.Setting(layer: layer, target: info.target, value: v, range: entry.range))
            }
            states.append(Interaction.State(name: name.name, values: settings, range: item.range))
        }
        return states
    }

    /// `declaredInputs` names every input written, those that failed too: a name among
    /// them was reported at its declaration.
    private func lowerTransitions(_ items: [Item], inputs: [Interaction.Input], declaredInputs: Set<String>, states: [Interaction.State],
                                  failed: inout Bool) -> [Interaction.Transition] {
        var transitions: [Interaction.Transition] = []
        func state(_ name: String, _ range: SourceRange) -> Int? {
            if let k = states.firstIndex(where: { $0.name == name }) { return k }
            if !states.isEmpty {
                report(Messages.unknownName(range, name: name, suggestion: closestMatch(to: name, in: states.map(\.name)),
                                            help: "states are " + states.map(\.name).joined(separator: ", ")))
            }
            return nil
        }
        for item in items {
            guard case .transition(let inputName, let conditionExpr, let fromList, let toName, let durationExpr, let timingExpr,
                                   let interruptionName) = tree[item]
            else { continue }
            var ok = true
            let input = inputs.firstIndex { $0.name == inputName.name }
            if input == nil && !declaredInputs.contains(inputName.name) {
                report(Messages.unknownName(inputName.range, name: inputName.name, suggestion: closestMatch(to: inputName.name, in: inputs.map(\.name)),
                                            help: inputs.isEmpty ? "declare it: 'input \(inputName.name): trigger'" : nil))
            }
            if input == nil { ok = false }
            var from: [Int] = []
            for e in tree[fromList] {
                guard case .identifier(let n) = tree[e] else { continue }
                if let k = state(n, e.range) { from.append(k) } else { ok = false }
            }
            let to = state(toName.name, toName.range)
            if to == nil { ok = false }
            var condition: Interaction.Condition?
            if let c = conditionExpr {
                condition = lowerCondition(c, inputs: inputs, declaredInputs: declaredInputs)
                if condition == nil { ok = false }
            }
            let animation = lowerTransitionTiming(duration: durationExpr, timing: timingExpr)
            if animation == nil && (durationExpr != nil || timingExpr != nil) { ok = false }
            var interruption = Interaction.Interruption.additive
            if let m = interruptionName {
                let models = Interaction.Interruption.allCases.map(\.rawValue)
                if let model = Interaction.Interruption(rawValue: m.name) {
                    interruption = model
                    if model == .reverse, case .spring? = animation?.timingFunction {
                        // CSS shortens a reversed transition's duration; a spring's motion is
                        // its physics, not a duration to shorten.
                        report(CheckerDiagnostics.badInteraction.at(m.range, "a spring cannot be reversed as CSS reverses a transition",
                                                                    label: "a spring", help: "use 'additive' (the default) or 'replace', or a curve"))
                        ok = false
                    }
                } else {
                    report(CheckerDiagnostics.badInteraction.at(
                        m.range, "'\(m.name)' is not an interruption model", label: "unknown model",
                        help: closestMatch(to: m.name, in: models).map { "did you mean '\($0)'?" } ?? "models are " + models.joined(separator: ", ")))
                    ok = false
                }
            }
            guard ok, let input, let to else { failed = true; continue }
            if from.contains(to) {
                report(CheckerDiagnostics.idleInteraction.at(toName.range, "a transition from '\(states[to].name)' to itself changes nothing",
                                                             label: "already in this state"))
            }
            transitions.append(Interaction.Transition(input: input, condition: condition, from: from, to: to,
                                                      animation: durationExpr == nil && timingExpr == nil ? nil : animation,
                                                      interruption: interruption, range: item.range))
        }
        return transitions
    }

    /// `with 0.3s easeOut`, `with snappy`, `with 0.3s`: a spring runs until it has
    /// settled to a billionth of the distance; a curve without a duration takes Core
    /// Animation's 0.25 s.
    private func lowerTransitionTiming(duration durationExpr: Expr?, timing timingExpr: Expr?) -> Interaction.TransitionTiming? {
        var duration: Double?
        var function = TimingFunction.default
        if let d = durationExpr {
            guard case .number(let t)? = lowerValue(d, global, as: .time, context: "a transition's duration") else { return nil }
            duration = t
        }
        if let e = timingExpr {
            let v = eval(e, global)
            switch v {
            case .timing(let f): function = f
            case .number(let t, .time) where durationExpr == nil: duration = t
            case .poison: return nil
            default:
                report(Messages.typeMismatch(e.range, expected: durationExpr == nil ? "a duration or a timing function" : "a timing function",
                                             found: v.typeName, context: "'with'"))
                return nil
            }
        }
        if case .spring(let p) = function {
            let settle = SpringSolution(p).settlingTime(within: 1e-9)
            guard settle.isFinite, settle > 0 else {
                report(CheckerDiagnostics.badInteraction.at((timingExpr ?? durationExpr)?.range ?? .empty(at: 0), "this spring never settles",
                                                            label: "undamped", help: "give it some damping"))
                return nil
            }
            return Interaction.TransitionTiming(duration: duration ?? settle, timingFunction: function)
        }
        let total = duration ?? CoreAnimationDefaults.duration
        guard total > 0, total.isFinite else {
            report(Messages.outOfRange((durationExpr ?? timingExpr)?.range ?? .empty(at: 0), what: "a transition's duration",
                                       value: formatNumber(total) + "s", valid: "more than 0 s"))
            return nil
        }
        return Interaction.TransitionTiming(duration: total, timingFunction: function)
    }

    /// A guard over inputs and constants; nil after reporting.
    private func lowerCondition(_ expr: Expr, inputs: [Interaction.Input], declaredInputs: Set<String>) -> Interaction.Condition? {
        func lower(_ e: Expr) -> (Interaction.Condition, kind: String)? {
            switch tree[e] {
            case .paren(let inner): return lower(inner)
            case .identifier(let name):
                if let k = inputs.firstIndex(where: { $0.name == name }) {
                    guard inputs[k].kind != .trigger else {
                        report(CheckerDiagnostics.badInteraction.at(e.range, "trigger '\(name)' holds no value to test", label: "a trigger"))
                        return nil
                    }
                    return (.input(k), inputs[k].kind.rawValue)
                }
                if declaredInputs.contains(name) { return nil }  // reported where it is declared
                return constant(e)
            case .unary(.not, let operand):
                guard let (c, kind) = lower(operand) else { return nil }
                guard kind == "bool" else { return mismatch(operand, "a boolean", kind) }
                return (.not(c), "bool")
            case .binary(let op, let l, let r):
                guard let (a, ka) = lower(l), let (b, kb) = lower(r) else { return nil }
                switch op {
                case .and, .or:
                    guard ka == "bool" else { return mismatch(l, "a boolean", ka) }
                    guard kb == "bool" else { return mismatch(r, "a boolean", kb) }
                    return (op == .and ? .and(a, b) : .or(a, b), "bool")
                case .less, .lessEqual, .greater, .greaterEqual:
                    guard ka == "number" else { return mismatch(l, "a number", ka) }
                    guard kb == "number" else { return mismatch(r, "a number", kb) }
                    let comparison: Interaction.Condition.Comparison = op == .less ? .less : op == .lessEqual ? .lessEqual : op == .greater ? .greater : .greaterEqual
                    return (.compare(comparison, a, b), "bool")
                case .equal, .notEqual:
                    guard ka == kb else { return mismatch(r, "a \(ka)", kb) }
                    return (.compare(op == .equal ? .equal : .notEqual, a, b), "bool")
                default:
                    return constant(e)
                }
            default:
                return constant(e)
            }
        }
        func mismatch(_ e: Expr, _ expected: String, _ found: String) -> (Interaction.Condition, kind: String)? {
            report(Messages.typeMismatch(e.range, expected: expected, found: "a \(found)", context: "a transition's condition"))
            return nil
        }
        /// Anything without an input in it: evaluated now.
        func constant(_ e: Expr) -> (Interaction.Condition, kind: String)? {
            let v = eval(e, global)
            switch v {
            case .bool(let b): return (.constant(.bool(b)), "bool")
            case .number(let x, .none): return (.constant(.number(x)), "number")
            case .poison: return nil
            default:
                report(Messages.typeMismatch(e.range, expected: "a boolean or a number over the inputs", found: v.typeName,
                                             context: "a transition's condition"))
                return nil
            }
        }
        guard let (c, kind) = lower(expr) else { return nil }
        guard kind == "bool" else { _ = mismatch(expr, "a boolean", kind); return nil }
        return c
    }

    /// The initial state's values as the layers' model values.
    private func apply(_ state: Interaction.State, to composition: inout Composition) {
        for setting in state.values {
            composition.layers[setting.layer].setModelValue(setting.value, of: setting.target)
        }
    }
}
