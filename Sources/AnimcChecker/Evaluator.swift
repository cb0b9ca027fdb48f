import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcPorting
import AnimcSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Checker {
    /// A number literal's value.
    static func number(_ v: Double, _ unit: NumberUnit?) -> SemaValue {
        switch unit {
        case nil, .pt?: return .number(v, .none)
        case .s?: return .number(v, .time)
        case .ms?: return .number(ExactDecimal.divide(v, 1000), .time)
        case .deg?: return .number(v * .pi / 180, .angle)
        case .rad?: return .number(v, .angle)
        case .turn?: return .number(v * 2 * .pi, .angle)
        case .percent?: return .number(ExactDecimal.divide(v, 100), .none)
        }
    }

    /// Says what ``Precedence`` level the expression evaluated next must keep (see
    /// `LoweringContext.operandLevel`): only a file that spells Swift or Objective-C
    /// can get a fix-it that needs it, and only there is it kept (it cost 3% of a check).
    @inline(__always)
    func expectOperand(_ level: Int) {
        if facts.spellsSwift { context.operandLevel = level }
    }

    /// Evaluates `expr` in `scope`. Errors are reported and yield `.poison`.
    func eval(_ expr: Expr, _ scope: Scope) -> SemaValue {
        if facts.spellsSwift {
            context.spellingLevel = context.operandLevel
            context.operandLevel = Precedence.any
        }
        work.evaluations += 1
        if work.evaluations >= nextCancellationPoll { pollCancellation() }
        if work.evaluations > evaluationLimit {
            _ = allowExpansion(at: expr.range)
            return .poison
        }
        if spansSyntaxError(expr.range) { return .poison }
        switch tree[expr] {
        case .number(let v, let unit): return Checker.number(v, unit)
        case .string(let s): return .string(s)
        case .color(let r, let g, let b, let a): return .color(Color(red: r, green: g, blue: b, alpha: a))
        case .bool(let b): return .bool(b)
        case .identifier(let name): return lookupValue(name, expr.range, scope, id: tree.nameID(expr))
        case .paren(let inner): return eval(inner, scope)
        case .tuple(let elements):
            let values = tree[elements].map { eval($0, scope) }
            if values.contains(where: \.isPoison) { return .poison }
            return .tuple(values, isSize: false)
        case .list(let elements):
            if elements.count > limits.keyframes {
                report(Messages.tooManyKeyframes(expr.range, limit: limits.keyframes))
                return .poison
            }
            let values = tree[elements].map { eval($0, scope) }
            if values.contains(where: \.isPoison) { return .poison }
            return .list(values)
        case .unary(let op, let operand):
            if op == .negate, let v = swiftFoldedPi(expr, scope) { return v }
            expectOperand(Precedence.unary)
            return unary(op, eval(operand, scope), expr.range)
        case .binary(let op, let l, let r):
            if op == .multiply || op == .divide, let v = swiftFoldedPi(expr, scope) { return v }
            if op == .add || op == .subtract, let v = swiftHostClockSum(expr, scope) { return v }
            if op == .and || op == .or {
                expectOperand(op.operandLevels.left)
                let lhs = eval(l, scope)
                guard case .bool(let a) = lhs else {
                    if !lhs.isPoison { report(Messages.typeMismatch(l.range, expected: "a boolean", found: lhs.typeName, context: "'\(op.rawValue)'")) }
                    return .poison
                }
                if op == .and && !a { return .bool(false) }
                if op == .or && a { return .bool(true) }
                expectOperand(op.operandLevels.right)
                let rhs = eval(r, scope)
                guard case .bool(let b) = rhs else {
                    if !rhs.isPoison { report(Messages.typeMismatch(r.range, expected: "a boolean", found: rhs.typeName, context: "'\(op.rawValue)'")) }
                    return .poison
                }
                return .bool(b)
            }
            expectOperand(op.operandLevels.left)
            let lhs = eval(l, scope)
            expectOperand(op.operandLevels.right)
            return binary(op, lhs, eval(r, scope), expr.range, l.range, r.range)
        case .conditional(let c, let a, let b):
            let condition = eval(c, scope)
            guard case .bool(let flag) = condition else {
                if !condition.isPoison { report(Messages.typeMismatch(c.range, expected: "a boolean", found: condition.typeName, context: "the condition")) }
                return .poison
            }
            return eval(flag ? a : b, scope)
        case .range(let lo, let hi, let inclusive):
            let lower = eval(lo, scope), upper = eval(hi, scope)
            guard case .number(let a, let da) = lower, case .number(let b, let db) = upper else {
                if !lower.isPoison && !upper.isPoison {
                    report(Messages.typeMismatch(expr.range, expected: "numbers or times at both ends of a range",
                                                 found: "\(lower.typeName) and \(upper.typeName)"))
                }
                return .poison
            }
            guard da == db else {
                report(Messages.operandDimensions(expr.range, op: inclusive ? "..." : "..<", left: da, right: db))
                return .poison
            }
            return .range(lower: a, upper: b, inclusive: inclusive, dimension: da)
        case .call(let callee, let arguments):
            if let v = swiftCall(expr, callee, scope) { return v }
            return call(callee, arguments, expr.range, scope)
        case .qualifiedCall(let qualifier, let callee, let arguments):
            if let v = swiftQualifiedCall(expr, qualifier, callee, arguments, scope) { return v }
            let v = qualifiedValue(qualifier, callee, scope)
            if v.isPoison { return .poison }
            if case .component = v {
                report(Messages.badInstance(expr.range, problem: "a component makes a layer, not a value",
                                            help: "instantiate it as a layer: 'name = \(qualifier.name).\(callee.name)(...)'"))
            } else {
                report(CheckerDiagnostics.badArguments.at(callee.range, "'\(qualifier.name).\(callee.name)' is \(v.typeName), not a function",
                                                          label: "called here"))
            }
            return .poison
        case .index(let base, let indices):
            expectOperand(Precedence.postfix)
            return index(eval(base, scope), indices, expr.range, scope)
        case .member(let base, let name):
            if case .identifier(let q) = tree[base], let v = importedMember(Identifier(q, base.range, nameID: tree.nameID(base)), name, scope) {
                return v
            }
            if let v = sequencing(base, name, expr.range, scope) { return v }
            if let v = swiftMember(expr, scope) { return v }
            if let chain = appRead(expr, scope) {
                reportAppRead(chain, expr.range)
                return .poison
            }
            expectOperand(Precedence.postfix)
            return member(eval(base, scope), name, expr.range)
        case .implicitMember:
            return swiftMember(expr, scope) ?? .poison
        case .message:
            return swiftMessage(expr)
        case .sequence(let items):
            var functions: [TransformFunction] = []
            for item in tree[items] {
                let v = eval(item, scope)
                switch v {
                case .transform(let fs): functions += fs
                case .poison: return .poison
                default:
                    report(Messages.typeMismatch(item.range, expected: "a transform function", found: v.typeName,
                                                 context: "a transform list"))
                    return .poison
                }
            }
            return .transform(functions)
        case .pathLiteral(let block):
            guard let elements = evalPathBlock(block, scope) else { return .poison }
            return .path(elements)
        case .error:
            return .poison
        }
    }

    /// The value a name denotes: a declaration in scope, else a built-in constant.
    func lookupValue(_ name: String, _ range: SourceRange, _ scope: Scope, id: UInt32 = Identifier.noNameID) -> SemaValue {
        if let (binding, declaring) = scope.resolve(Identifier(name, range, nameID: id)) {
            return value(of: binding, in: declaring, at: range)
        }
        if let constant = Builtins.constant(name) { return constant }
        if let v = swiftName(name, range, scope) { return v }
        if name == "self" {
            reportAppRead([name], range)
            return .poison
        }
        if let e = Builtins.enumerationOwning(name) {
            report(Messages.unknownName(range, name: name, suggestion: nil,
                                        help: "'\(name)' is a value of \(e); it can only be written there"))
            return .poison
        }
        // The same misspelling again (a loop's next iteration): the message without a
        // suggestion, as `reportSuggesting` gives it, but made once.
        if let (plain, key) = repeatedUnknownNames[range] {
            report(plain, key: key)
            return .poison
        }
        repeatedUnknownNames[range] = reportSuggesting(name, among: scope.visibleNameCount + Builtins.constantNames.count,
                                                       { scope.visibleNames + Builtins.constantNames }) {
            Messages.unknownName(range, name: name, suggestion: $0)
        }
        return .poison
    }

    /// Evaluates a binding of `scope` once and keeps its value; a binding reached while
    /// it is being evaluated is a cycle.
    func value(of binding: Binding, in scope: Scope, at use: SourceRange) -> SemaValue {
        if let v = binding.value { return v }
        if binding.evaluating {
            report(Messages.recursive(use, name: binding.name.name, what: binding.kind.noun))
            return .poison
        }
        guard context.definitionDepth < ExpansionLimits.maxDefinitionDepth else {
            definitionsTooDeep(use, name: binding.name.name)
            return .poison
        }
        let saved = (depth: context.definitionDepth, expected: context.expectedDimension, frame: context.frame)
        context.definitionDepth += 1
        binding.evaluating = true
        // A top-level declaration has one value wherever it is first used: what the use
        // expects does not leak into it. The names it reads are kept with it, for the
        // items that use it (see CheckMemo), and so is what evaluating it cost, which a
        // later check replaying the item may find spent already.
        let topLevel = scope.parent == nil
        let outermost = topLevel && !evaluatingTopLevel
        let evaluationsBefore = work.evaluations
        if topLevel {
            context.expectedDimension = nil
            context.frame = TimeFrame()
            global.observer?.push()
            evaluatingTopLevel = true
        }
        defer {
            binding.evaluating = false
            context.definitionDepth = saved.depth
            if topLevel {
                context.expectedDimension = saved.expected
                context.frame = saved.frame
                binding.dependencies = global.observer?.pop()
            }
            if outermost {
                evaluatingTopLevel = false
                output.firstUseEvaluations += work.evaluations - evaluationsBefore
            }
        }
        var result: SemaValue
        switch binding.kind {
        case .path:
            if let body = binding.pathBody, let elements = evalPathBlock(body, scope) {
                result = .path(elements)
            } else {
                result = .poison
            }
        case .timing:
            result = binding.expr.map { eval($0, scope) } ?? .poison
            if !result.isPoison, case .timing = result {} else if !result.isPoison, let e = binding.expr {
                report(Messages.typeMismatch(e.range, expected: "a timing function", found: result.typeName,
                                             context: "'timing \(binding.name.name)'",
                                             help: "timing functions are linear, easeIn, easeOut, easeInEaseOut, default, cubic(...), steps(...) and spring(...)"))
                result = .poison
            }
        default:
            result = binding.expr.map { eval($0, scope) } ?? .poison
            if let type = binding.declaredType, !result.isPoison, let e = binding.expr {
                result = checkDeclaredType(result, type, e.range, literal: isLiteralNumber(e), expr: e)
            }
        }
        binding.value = result
        recordFolded(binding, result)
        return result
    }

    /// `let times: [CFTimeInterval] = [0.12, 0.24]`: Swift's array type is `.anim`'s
    /// `List`; a list of bare numbers declared as times gets its unit on each element
    /// in the same fix (the type said seconds).
    private func checkDeclaredArrayType(_ v: SemaValue, _ type: Identifier, _ expr: Expr?) -> SemaValue {
        let element = String(type.name.dropFirst().dropLast())
        let ported = SwiftSpellings.typeNames[element] ?? element
        var edits = [TextEdit(range: type.range, replacement: "List")]
        var value = v
        if ported == "Time", case .list(let items) = v, let e = expr.flatMap(literalNumbers), e.count == items.count,
           items.allSatisfy({ if case .number(_, .none) = $0 { return true } else { return false } }) {
            edits += e.map { TextEdit(range: .empty(at: $0.range.end), replacement: "s") }
            value = .list(items.map { if case .number(let x, _) = $0 { return .number(x, .time) } else { return $0 } })
        }
        report(CheckerDiagnostics.swiftSpelling.at(
            type.range, "'\(type.name)' is a Swift array type, not .anim: write 'List'", label: "pasted type",
            fixIts: [FixIt("write it the .anim way", edits: edits, applicability: .machineApplicable)]))
        guard case .list = value else { return .poison }
        return value
    }

    /// The elements of a list literal when each is a bare number.
    private func literalNumbers(_ e: Expr) -> [Expr]? {
        guard case .list(let items) = tree[e] else { return nil }
        let elements = Array(tree[items])
        return elements.allSatisfy(isLiteralNumber) ? elements : nil
    }

    /// `let x: Time = ...`: the annotation names a type the value must have.
    func checkDeclaredType(_ v: SemaValue, _ type: Identifier, _ range: SourceRange, literal: Bool = false, expr: Expr? = nil) -> SemaValue {
        if type.name.hasPrefix("[") { return checkDeclaredArrayType(v, type, expr) }
        if TypeNames.lookup(type.name) == nil, let ported = SwiftSpellings.typeNames[type.name], let expected = TypeNames.lookup(ported) {
            // `let d: CFTimeInterval = 1.5`: the type written the .anim way, and a bare
            // number of seconds given its unit in the same fix.
            var edits = [TextEdit(range: type.range, replacement: ported)]
            var value = v
            if ported == "Time", literal, case .number(let x, .none) = v {
                edits.append(TextEdit(range: .empty(at: range.end), replacement: "s"))
                value = .number(x, .time)
            }
            report(CheckerDiagnostics.swiftSpelling.at(
                type.range, "'\(type.name)' is a Swift or C type, not .anim: write '\(ported)'", label: "pasted type",
                fixIts: [FixIt("write it the .anim way", edits: edits, applicability: .machineApplicable)]))
            return TypeNames.matches(value, expected) ? value : .poison
        }
        guard let expected = TypeNames.lookup(type.name) else {
            reportSuggesting(type.name, among: TypeNames.all.count, { TypeNames.all }) {
                Messages.unknownName(type.range, name: type.name, suggestion: $0, help: "types are " + TypeNames.all.joined(separator: ", "))
            }
            return .poison
        }
        if TypeNames.matches(v, expected) { return v }
        if literal, case .number(let x, .none) = v {
            let time = TypeNames.matches(.number(x, .time), expected), angle = TypeNames.matches(.number(x, .angle), expected)
            if time || angle {
                // `let d: Time = 1.5`: the unit the type says, where the number is written.
                report(Messages.missingUnit(range, expected: time ? .time : .angle, literal: true, value: x, context: "'\(type.name)'"))
                return .number(x, time ? .time : .angle)
            }
        }
        report(Messages.typeMismatch(range, expected: TypeNames.describe(expected), found: v.typeName))
        return .poison
    }

    private func unary(_ op: UnaryOperator, _ v: SemaValue, _ range: SourceRange) -> SemaValue {
        switch (op, v) {
        case (_, .poison): return .poison
        case (.plus, .number), (.plus, .tuple): return v
        case (.negate, .number(let x, let d)): return .number(-x, d)
        case (.negate, .tuple(let items, let isSize)):
            var out: [SemaValue] = []
            for item in items {
                let n = unary(.negate, item, range)
                if n.isPoison { return .poison }
                out.append(n)
            }
            return .tuple(out, isSize: isSize)
        case (.not, .bool(let b)): return .bool(!b)
        default:
            report(Messages.typeMismatch(range, expected: op == .not ? "a boolean" : "a number or a point",
                                         found: v.typeName, context: "'\(op.rawValue)'"))
            return .poison
        }
    }

    /// A tuple of `count` components, each from `component(i)`. Stops at the first
    /// poisoned component, whose error was reported, so one mistake gives one message.
    private func componentwise(_ count: Int, isSize: Bool, _ component: (Int) -> SemaValue) -> SemaValue {
        var out: [SemaValue] = []
        for i in 0..<count {
            let v = component(i)
            if v.isPoison { return .poison }
            out.append(v)
        }
        return .tuple(out, isSize: isSize)
    }

    func binary(_ op: BinaryOperator, _ l: SemaValue, _ r: SemaValue, _ range: SourceRange,
                _ lRange: SourceRange, _ rRange: SourceRange) -> SemaValue {
        if l.isPoison || r.isPoison { return .poison }
        switch (op, l, r) {
        case (.size, .number(let w, let dw), .number(let h, let dh)):
            guard dw == .none && dh == .none else {
                report(Messages.typeMismatch(range, expected: "two lengths for a size", found: "\(dw.noun) x \(dh.noun)"))
                return .poison
            }
            return .pair(w, h, isSize: true)

        case (.add, .number(let a, let da), .number(let b, let db)),
             (.subtract, .number(let a, let da), .number(let b, let db)):
            guard da == db else {
                report(Messages.operandDimensions(range, op: op.rawValue, left: da, right: db))
                return .poison
            }
            // Exact for decimal inputs: `1s + 0.3s` is the instant written `1.3s`.
            return finite(.number(op == .add ? ExactDecimal.add(a, b) : ExactDecimal.subtract(a, b), da), range, a, b)

        case (.multiply, .number(let a, let da), .number(let b, let db)):
            guard da == .none || db == .none else {
                report(Messages.operandDimensions(range, op: "*", left: da, right: db))
                return .poison
            }
            return finite(.number(ExactDecimal.multiply(a, b), da == .none ? db : da), range, a, b)

        case (.divide, .number(let a, let da), .number(let b, let db)):
            let dim: Dimension
            if da == db { dim = .none } else if db == .none { dim = da } else {
                report(Messages.operandDimensions(range, op: "/", left: da, right: db))
                return .poison
            }
            guard b != 0 else {
                report(Messages.divisionByZero(rRange))
                return .poison
            }
            return finite(.number(ExactDecimal.divide(a, b), dim), range, a, b)

        case (.less, .number(let a, let da), .number(let b, let db)), (.lessEqual, .number(let a, let da), .number(let b, let db)),
             (.greater, .number(let a, let da), .number(let b, let db)), (.greaterEqual, .number(let a, let da), .number(let b, let db)),
             (.equal, .number(let a, let da), .number(let b, let db)), (.notEqual, .number(let a, let da), .number(let b, let db)):
            guard da == db else {
                report(Messages.operandDimensions(range, op: op.rawValue, left: da, right: db))
                return .poison
            }
            switch op {
            case .less: return .bool(a < b)
            case .lessEqual: return .bool(a <= b)
            case .greater: return .bool(a > b)
            case .greaterEqual: return .bool(a >= b)
            case .equal: return .bool(a == b)
            default: return .bool(a != b)
            }

        case (.equal, .bool(let a), .bool(let b)): return .bool(a == b)
        case (.notEqual, .bool(let a), .bool(let b)): return .bool(a != b)
        case (.equal, .string(let a), .string(let b)): return .bool(a == b)
        case (.notEqual, .string(let a), .string(let b)): return .bool(a != b)

        case (.add, .string(let a), .string(let b)): return .string(a + b)
        case (.add, .string(let a), .number(let b, .none)): return .string(a + formatNumber(b))
        case (.add, .number(let a, .none), .string(let b)): return .string(formatNumber(a) + b)

        case (.add, .tuple(let a, let sa), .tuple(let b, let sb)), (.subtract, .tuple(let a, let sa), .tuple(let b, let sb)):
            guard a.count == b.count else {
                report(Messages.operandTypes(range, op: op.rawValue, left: l.typeName, right: r.typeName))
                return .poison
            }
            return componentwise(a.count, isSize: sa && sb) { binary(op, a[$0], b[$0], range, lRange, rRange) }

        case (.multiply, .tuple(let a, let s), .number), (.divide, .tuple(let a, let s), .number):
            return componentwise(a.count, isSize: s) { binary(op, a[$0], r, range, lRange, rRange) }
        case (.multiply, .number, .tuple(let b, let s)):
            return componentwise(b.count, isSize: s) { binary(op, l, b[$0], range, lRange, rRange) }

        case (.multiply, .transform(let a), .transform(let b)):
            return .transform(a + b)

        default:
            report(Messages.operandTypes(range, op: op.rawValue, left: l.typeName, right: r.typeName))
            return .poison
        }
    }

    /// Reports NaN, and overflow from finite operands (`inf` itself is allowed).
    private func finite(_ v: SemaValue, _ range: SourceRange, _ a: Double, _ b: Double) -> SemaValue {
        guard case .number(let x, _) = v else { return v }
        if x.isNaN {
            report(Messages.nonFinite(range, nan: true))
            return .poison
        }
        if x.isInfinite && a.isFinite && b.isFinite {
            report(Messages.nonFinite(range, nan: false))
            return .poison
        }
        return v
    }

    private func index(_ base: SemaValue, _ indices: Children<Expr>, _ range: SourceRange, _ scope: Scope) -> SemaValue {
        if base.isPoison { return .poison }
        guard indices.count == 1 else {
            report(Messages.typeMismatch(range, expected: "one index", found: "\(indices.count) indices"))
            return .poison
        }
        let i = eval(tree[indices][0], scope)
        guard case .number(let x, .none) = i else {
            if !i.isPoison { report(Messages.typeMismatch(tree[indices][0].range, expected: "a whole number", found: i.typeName, context: "an index")) }
            return .poison
        }
        switch base {
        case .list(let xs): return element(xs, at: x, indices)
        case .tuple(let xs, _): return element(xs, at: x, indices)
        default:
            report(Messages.typeMismatch(range, expected: "a list", found: base.typeName, context: "indexing"))
            return .poison
        }
    }

    private func element<C: RandomAccessCollection>(_ items: C, at x: Double, _ indices: Children<Expr>) -> SemaValue
        where C.Element == SemaValue, C.Index == Int {
        guard x == x.rounded(), x >= 0, x < Double(items.count) else {
            report(Messages.indexOutOfRange(tree[indices][0].range, index: formatNumber(x), count: items.count))
            return .poison
        }
        return items[items.startIndex + Int(x)]
    }

    /// CGRectGetMinX/MidX/MaxX (and Y) of a rect `(x, y, width, height)` of plain numbers.
    private func rectEdge(_ xs: [SemaValue], _ member: String) -> SemaValue? {
        guard case .number(let x, .none) = xs[0], case .number(let y, .none) = xs[1],
              case .number(let w, .none) = xs[2], case .number(let h, .none) = xs[3] else { return nil }
        let origin = member.hasSuffix("X") ? x : y
        let length = member.hasSuffix("X") ? w : h
        // CGRectGetMinX and MaxX standardise a negative width, as Core Graphics does.
        switch member.dropLast() {
        case "min": return .number(min(origin, origin + length), .none)
        case "mid": return .number(origin + length / 2, .none)
        default: return .number(max(origin, origin + length), .none)
        }
    }

    private func member(_ base: SemaValue, _ name: Identifier, _ range: SourceRange) -> SemaValue {
        switch (base, name.name) {
        case (.poison, _): return .poison
        // A rect is (x, y, width, height); a size or a point is two numbers, whose
        // width and height are the first and second. `.width` of a rect once read
        // its x, silently (issue 49).
        case (.tuple(let xs, _), "x"), (.tuple(let xs, _), "y"):
            let i = name.name == "x" ? 0 : 1
            if xs.count == 2 || xs.count == 3 || xs.count == 4 { return xs[i] }
        case (.tuple(let xs, _), "z"): if xs.count == 3 { return xs[2] }
        case (.tuple(let xs, _), "width"), (.tuple(let xs, _), "height"):
            let i = name.name == "width" ? 0 : 1
            if xs.count == 2 { return xs[i] }
            if xs.count == 4 { return xs[2 + i] }
        case (.tuple(let xs, _), "origin"): if xs.count == 4 { return .tuple(Array(xs[0..<2]), isSize: false) }
        case (.tuple(let xs, _), "size"): if xs.count == 4 { return .tuple(Array(xs[2..<4]), isSize: true) }
        case (.tuple(let xs, _), "midX"), (.tuple(let xs, _), "midY"), (.tuple(let xs, _), "maxX"), (.tuple(let xs, _), "maxY"),
             (.tuple(let xs, _), "minX"), (.tuple(let xs, _), "minY"):
            if xs.count == 4, let v = rectEdge(xs, name.name) { return v }
        case (.color(let c), "red"): return .number(c.red, .none)
        case (.color(let c), "green"): return .number(c.green, .none)
        case (.color(let c), "blue"): return .number(c.blue, .none)
        case (.color(let c), "alpha"): return .number(c.alpha, .none)
        case (.list(let xs), "count"): return .number(Double(xs.count), .none)
        default: break
        }
        report(Messages.typeMismatch(name.range, expected: "a member such as .x, .y, .width, .height, .midX, .alpha or .count",
                                     found: "'.\(name.name)' on \(base.typeName)"))
        return .poison
    }
}

/// The type names usable in `let x: Type` and component parameters.
enum TypeNames {
    enum Kind: Hashable { case number, time, angle, length, point, size, rect, color, transform, path, bool, string, image, timing, list, any }

    static let table: [String: Kind] = [
        "Number": .number, "Time": .time, "Angle": .angle, "Length": .length, "Point": .point, "Size": .size,
        "Rect": .rect, "Color": .color, "Colour": .color, "Transform": .transform, "Path": .path, "Bool": .bool,
        "String": .string, "Image": .image, "Timing": .timing, "List": .list, "Any": .any,
    ]
    static var all: [String] { table.keys.sorted() }

    static func lookup(_ name: String) -> Kind? { table[name] }

    static func describe(_ k: Kind) -> String {
        switch k {
        case .number: return "a number"
        case .time: return "a time"
        case .angle: return "an angle"
        case .length: return "a length"
        case .point: return "a point"
        case .size: return "a size"
        case .rect: return "a rect"
        case .color: return "a colour"
        case .transform: return "a transform"
        case .path: return "a path"
        case .bool: return "a boolean"
        case .string: return "a string"
        case .image: return "an image"
        case .timing: return "a timing function"
        case .list: return "a list"
        case .any: return "any value"
        }
    }

    static func matches(_ v: SemaValue, _ k: Kind) -> Bool {
        switch (k, v) {
        case (.any, _): return true
        case (.number, .number(_, .none)), (.length, .number(_, .none)): return true
        case (.time, .number(_, .time)), (.angle, .number(_, .angle)): return true
        case (.point, .tuple(let xs, _)), (.size, .tuple(let xs, _)): return xs.count == 2 && v.isPlainNumbers
        case (.rect, .tuple(let xs, let isSize)): return (xs.count == 4 || (xs.count == 2 && isSize)) && v.isPlainNumbers
        case (.color, .color), (.transform, .transform), (.path, .path), (.bool, .bool), (.string, .string),
             (.image, .image), (.timing, .timing), (.list, .list):
            return true
        default: return false
        }
    }
}

extension Checker {
    /// `module.name`, when `qualifier` names an import; nil when it names something else.
    func importedMember(_ qualifier: Identifier, _ name: Identifier, _ scope: Scope) -> SemaValue? {
        guard let (module, _) = module(named: qualifier, scope) else { return nil }
        guard let module else { return .poison }
        return member(of: module, qualifier.name, name)
    }

    /// `module.name` read where a call needs it, reported when `module` names no import.
    func qualifiedValue(_ qualifier: Identifier, _ name: Identifier, _ scope: Scope) -> SemaValue {
        if let v = importedMember(qualifier, name, scope) { return v }
        let base = lookupValue(qualifier.name, qualifier.range, scope, id: qualifier.nameID)
        if !base.isPoison {
            report(Messages.typeMismatch(qualifier.range, expected: "an imported file", found: base.typeName,
                                         context: "'\(qualifier.name).\(name.name)(...)'"))
        }
        return .poison
    }
}
