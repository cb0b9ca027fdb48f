import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Built-in constants and the enumerations whose case names are contextual.
enum Builtins {
    static let colors: [String: Color] = [
        "clear": .clear, "black": .black, "white": .white,
        "red": Color(red: 1, green: 0, blue: 0), "green": Color(red: 0, green: 1, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 1), "yellow": Color(red: 1, green: 1, blue: 0),
        "cyan": Color(red: 0, green: 1, blue: 1), "magenta": Color(red: 1, green: 0, blue: 1),
        "orange": Color(red: 1, green: 0.5, blue: 0), "purple": Color(red: 0.5, green: 0, blue: 0.5),
        "brown": Color(red: 0.6, green: 0.4, blue: 0.2), "gray": Color(red: 0.5, green: 0.5, blue: 0.5),
        "darkGray": Color(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3),
        "lightGray": Color(red: 2.0 / 3, green: 2.0 / 3, blue: 2.0 / 3),
    ]

    static let timings: [String: TimingFunction] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut, "default": .default,
    ]

    /// Every built-in constant in one table. `SemaValue` is not `Sendable` (components
    /// hold mutable scopes), but this table never holds a component and is never mutated
    /// after initialisation, so sharing it is safe.
    nonisolated(unsafe) private static let constants: NameTable<SemaValue> = {
        var table = NameTable<SemaValue>([
            ("pi", .number(.pi, .none)), ("inf", .number(.infinity, .none)), ("infinity", .number(.infinity, .none)),
            ("identity", .transform([])), ("presentation", .presentation),
        ])
        for (name, c) in colors { table[name] = .color(c) }
        for (name, t) in timings { table[name] = .timing(t) }
        return table
    }()

    static func constant(_ name: String) -> SemaValue? { constants[name] }

    /// Listed once: a misspelt name in a loop asks for it every iteration.
    static let constantNames: [String] = ["pi", "inf", "identity", "presentation"] + colors.keys.sorted() + timings.keys.sorted()

    /// Built-in functions, grouped as `callBuiltin` handles them (each group is named
    /// after its first member).
    enum Function {
        case rgb, sqrt, min, mod, pow, sin, atan2, clamp, lerp, length, normalize, distance, dot, translate, translateX, scale, scaleX, rotate, rotate3d, skew, skewX, perspective, matrix, concat, cubic, steps, spring, image, arc
    }

    static let functions = NameTable<Function>([
        ("rgb", .rgb), ("rgba", .rgb), ("hsb", .rgb), ("hsba", .rgb), ("withAlpha", .rgb), ("sqrt", .sqrt), ("abs", .sqrt), ("floor", .sqrt), ("ceil", .sqrt),
        ("round", .sqrt), ("min", .min), ("max", .min), ("mod", .mod), ("rem", .mod), ("pow", .pow), ("sin", .sin), ("cos", .sin),
        ("tan", .sin), ("atan2", .atan2), ("clamp", .clamp), ("lerp", .lerp), ("length", .length),
        ("normalize", .normalize), ("distance", .distance), ("dot", .dot), ("translate", .translate),
        ("translateX", .translateX), ("translateY", .translateX), ("translateZ", .translateX), ("scale", .scale),
        ("scaleX", .scaleX), ("scaleY", .scaleX), ("scaleZ", .scaleX), ("rotate", .rotate), ("rotateZ", .rotate),
        ("rotateX", .rotate), ("rotateY", .rotate), ("rotate3d", .rotate3d), ("skew", .skew), ("skewX", .skewX),
        ("skewY", .skewX), ("perspective", .perspective), ("matrix", .matrix), ("concat", .concat), ("cubic", .cubic),
        ("steps", .steps), ("spring", .spring), ("image", .image), ("arc", .arc), ("rect", .arc),
        ("roundedRect", .arc), ("ellipse", .arc), ("circle", .arc),
    ])

    static let functionNames: [String] = functions.entries.map(\.key).sorted()

    /// Enumerations whose case names are written bare where that enumeration is
    /// expected (`fillMode: backwards`).
    static let enumerations: [(String, [String])] = [
        ("fillMode", FillMode.allCases.map(\.rawValue)),
        ("calculationMode", CalculationMode.allCases.map(\.rawValue)),
        ("rotationMode", RotationMode.allCases.map(\.rawValue)),
        ("lineCap", EnumerationType.lineCap.cases), ("lineJoin", EnumerationType.lineJoin.cases),
        ("fillRule", EnumerationType.fillRule.cases), ("contentsGravity", EnumerationType.contentsGravity.cases),
        ("gradientType", EnumerationType.gradientType.cases),
        ("a steps position", StepPosition.allCases.map(\.rawValue)),
    ]

    /// The first enumeration (in ``enumerations`` order) with a case of each name: a
    /// misspelt name repeated by a loop asked every iteration.
    private static let enumerationByCase: [String: String] = {
        var table: [String: String] = [:]
        for (enumeration, cases) in enumerations { for c in cases where table[c] == nil { table[c] = enumeration } }
        return table
    }()

    static func enumerationOwning(_ name: String) -> String? { enumerationByCase[name] }
}

/// One evaluated argument of a call.
struct CallItem {
    let label: String?
    let value: SemaValue
    /// The argument as written, for fix-its made from its syntax.
    let expr: Expr
    var range: SourceRange { expr.range }
}

/// A built-in's parameters, each with the argument bound to it (nil when none was).
typealias ArgumentSlots = [(SemaValue, SourceRange)?]

/// The evaluated arguments of a call, with helpers that bind them to parameters and
/// check their types, reporting problems against the call.
struct CallArguments {
    let callee: String
    let items: [CallItem]
    let range: SourceRange
    let checker: Checker

    var hasPoison: Bool { items.contains { $0.value.isPoison } }

    /// Binds arguments to the parameters of the built-in `function`'s signature.
    func bind(_ function: String) -> ArgumentSlots? {
        guard let signature = Builtins.signatures[function] else { return nil }
        return bind(signature)
    }

    func bind(_ s: BuiltinSignature) -> ArgumentSlots? { bind(s.names, required: s.required, usage: s.usage) }

    /// Binds arguments to `names` by position, then by label. Returns nil (after
    /// reporting) for unknown labels, too many arguments or missing required ones.
    func bind(_ names: [String], required: Int, usage: String) -> ArgumentSlots? {
        var slots = ArgumentSlots(repeating: nil, count: names.count)
        var next = 0
        for item in items {
            if let label = item.label {
                guard let i = names.firstIndex(of: label) else {
                    checker.report(Messages.badArguments(item.range, callee: callee, problem: "unknown argument label '\(label)'", usage: usage))
                    return nil
                }
                if slots[i] != nil {
                    checker.report(Messages.badArguments(item.range, callee: callee, problem: "argument '\(label)' given twice", usage: usage))
                    return nil
                }
                slots[i] = (item.value, item.range)
            } else {
                while next < names.count && slots[next] != nil { next += 1 }
                guard next < names.count else {
                    checker.report(Messages.badArguments(item.range, callee: callee, problem: "too many arguments", usage: usage))
                    return nil
                }
                slots[next] = (item.value, item.range)
                next += 1
            }
        }
        for i in 0..<required where slots[i] == nil {
            checker.report(Messages.badArguments(range, callee: callee, problem: "missing argument '\(names[i])'", usage: usage))
            return nil
        }
        return slots
    }

    func number(_ slot: (SemaValue, SourceRange)?, _ dim: Dimension = .none, what: String) -> Double? {
        guard let (v, r) = slot else { return nil }
        switch v {
        case .number(let x, let d) where d == dim: return x
        case .number(let x, .none) where dim != .none:
            // The unit is given from the argument's syntax, as for any value (`unitEdits`).
            let written = items.first { $0.range == r }?.expr
            let literal = written.map(checker.isLiteralNumber) ?? false
            let edits = literal ? [] : written.map { checker.unitEdits($0, unit: dim == .time ? "s" : "rad") } ?? []
            checker.report(Messages.missingUnit(r, expected: dim, literal: literal, value: x, context: "\(what) of '\(callee)'", edits: edits))
        case .number(_, let d):
            checker.report(Messages.dimensionMismatch(r, expected: dim, found: d, context: "\(what) of '\(callee)'"))
        case .poison: break
        default:
            checker.report(Messages.typeMismatch(r, expected: dim.noun, found: v.typeName, context: "\(what) of '\(callee)'"))
        }
        return nil
    }

    /// An angle, accepting a plain number as radians where math functions take one.
    func angleOrRadians(_ slot: (SemaValue, SourceRange)?, what: String) -> Double? {
        if let (v, _) = slot, case .number(let x, .none) = v { return x }
        return number(slot, .angle, what: what)
    }

    func vector(_ slot: (SemaValue, SourceRange)?, count: Int?, what: String) -> [Double]? {
        guard let (v, r) = slot else { return nil }
        if v.isPoison { return nil }
        if let xs = v.plainNumbers, count == nil || xs.count == count { return xs }
        checker.report(Messages.typeMismatch(r, expected: count == 3 ? "an (x, y, z) vector" : count == 2 ? "a point (x, y)" : "a vector",
                                             found: v.typeName, context: "\(what) of '\(callee)'"))
        return nil
    }

    func bool(_ slot: (SemaValue, SourceRange)?, what: String) -> Bool? {
        guard let (v, r) = slot else { return nil }
        if case .bool(let b) = v { return b }
        if !v.isPoison { checker.report(Messages.typeMismatch(r, expected: "a boolean", found: v.typeName, context: "\(what) of '\(callee)'")) }
        return nil
    }
}

extension Checker {
    /// `callee(arguments)`: a built-in function. Components are only called as instances.
    func call(_ callee: Identifier, _ arguments: Children<Argument>, _ range: SourceRange, _ scope: Scope) -> SemaValue {
        if let binding = scope.lookup(callee) {
            if binding.kind == .component {
                report(Messages.badInstance(range, problem: "component '\(callee.name)' can only be instantiated as a layer",
                                            help: "write 'name = \(callee.name)(...)' inside a layer or at the top level"))
            } else {
                report(Messages.notCallable(callee.range, name: callee.name, what: binding.kind.noun))
            }
            return .poison
        }
        let function = Builtins.functions[callee.name]
        var items: [CallItem] = []
        items.reserveCapacity(arguments.count)
        for (i, argument) in tree[arguments].enumerated() {
            // `steps(4, start)`: the position is a bare case name, like an enumeration.
            if function == .steps, i == 1, case .identifier(let word) = tree[argument.value],
               StepPosition(rawValue: word) != nil, scope.lookup(word) == nil {
                items.append(CallItem(label: argument.label?.name, value: .string(word), expr: argument.value))
                continue
            }
            items.append(CallItem(label: argument.label?.name, value: evaluateArgument(argument, index: i, of: callee.name, scope),
                                  expr: argument.value))
        }
        let args = CallArguments(callee: callee.name, items: items, range: range, checker: self)
        if function == nil, let v = swiftCFunction(callee, args) { return v }
        if args.hasPoison { return .poison }
        if let function, let result = callBuiltin(callee.name, function, args) { return result }
        if Builtins.constant(callee.name) != nil {
            report(Messages.notCallable(callee.range, name: callee.name, what: "constant"))
            return .poison
        }
        reportSuggesting(callee.name, among: Builtins.functionNames.count, { Builtins.functionNames }) {
            Messages.unknownFunction(callee.range, name: callee.name, suggestion: $0)
        }
        return .poison
    }

    /// The largest value channel `i` of `rgb`/`rgba` takes: 255, and 1 for alpha.
    static func channelMaximum(_ i: Int) -> Double { i == 3 ? 1 : 255 }

    /// Whether `x` is a value channel `i` takes (the general path reports the others).
    static func isChannel(_ x: Double, _ i: Int) -> Bool { !(x < 0 || x > channelMaximum(i)) }

    /// `rgb`/`rgba`'s colour from its channels as written (0...255, alpha 0...1).
    static func rgbColor(_ c: (Double, Double, Double, Double)) -> SemaValue {
        .color(Color(red: c.0 / 255, green: c.1 / 255, blue: c.2 / 255, alpha: c.3))
    }

    /// Whether `x` may be one of `cubic`'s x control points (0...1).
    static func isCubicControl(_ x: Double) -> Bool { !(x < 0 || x > 1) }

    /// `cubic(x1, y1, x2, y2)`'s timing function: the straight line's control points are
    /// `linear`.
    static func cubicTiming(_ p: (Double, Double, Double, Double)) -> SemaValue {
        if p.0 == 0 && p.1 == 0 && p.2 == 1 && p.3 == 1 { return .timing(.linear) }
        return .timing(.cubic(x1: p.0, y1: p.1, x2: p.2, y2: p.3))
    }

    /// A built-in function's value, by family. Nil for none (an unknown name).
    func callBuiltin(_ name: String, _ function: Builtins.Function, _ a: CallArguments) -> SemaValue? {
        switch function {
        case .rgb: return colour(name, a)
        case .sqrt, .min, .mod, .pow, .sin, .atan2, .clamp, .lerp, .length, .normalize, .distance, .dot:
            return mathFunction(name, function, a)
        case .translate, .translateX, .scale, .scaleX, .rotate, .rotate3d, .skew, .skewX, .perspective, .matrix, .concat:
            return transformFunction(name, function, a)
        case .cubic, .steps, .spring: return timingFunction(name, function, a)
        case .image, .arc: return assetOrPath(name, function, a)
        }
    }

    /// `rgb(red, green, blue)` and `rgba(red, green, blue, alpha)`; `hsb`, `hsba` and
    /// `withAlpha` (below).
    private func colour(_ name: String, _ a: CallArguments) -> SemaValue {
        if name == "hsb" || name == "hsba" { return hsbColour(name, a) }
        if name == "withAlpha" { return colourWithAlpha(a) }
        let names = name == "rgb" ? ["red", "green", "blue"] : ["red", "green", "blue", "alpha"]
        guard let s = a.bind(name) else { return .poison }
        var c = (0.0, 0.0, 0.0, 1.0)
        for (i, slot) in s.enumerated() {
            guard let x = a.number(slot, what: names[i]) else { return .poison }
            let maximum = Checker.channelMaximum(i)
            if !Checker.isChannel(x, i), let r = slot?.1 {
                report(Messages.outOfRange(r, what: "\(names[i])", value: formatNumber(x), valid: "0...\(formatNumber(maximum))"))
                return .poison
            }
            switch i {
            case 0: c.0 = x
            case 1: c.1 = x
            case 2: c.2 = x
            default: c.3 = x
            }
        }
        return Checker.rgbColor(c)
    }

    /// `hsb(hue, saturation, brightness)`, `hsba(..., alpha)`: UIColor(hue:saturation:
    /// brightness:alpha:), every component 0...1 (a hue of 1 is red again), converted as
    /// the HSV model defines it.
    private func hsbColour(_ name: String, _ a: CallArguments) -> SemaValue {
        let names = ["hue", "saturation", "brightness", "alpha"]
        guard let s = a.bind(name) else { return .poison }
        var c = [0.0, 0.0, 0.0, 1.0]
        for (i, slot) in s.enumerated() {
            guard let x = a.number(slot, what: names[i]) else { return .poison }
            guard x >= 0, x <= 1 else {
                report(Messages.outOfRange(slot?.1 ?? a.range, what: names[i], value: formatNumber(x), valid: "0...1"))
                return .poison
            }
            c[i] = x
        }
        let rgb = Checker.rgb(hue: c[0], saturation: c[1], brightness: c[2])
        return .color(Color(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: c[3]))
    }

    /// Red, green and blue (0...1) of a hue, saturation and brightness (0...1), as the
    /// HSV model defines them.
    static func rgb(hue h: Double, saturation sat: Double, brightness v: Double) -> (Double, Double, Double) {
        let sector = (h * 6).truncatingRemainder(dividingBy: 6), k = sector.rounded(.down), f = sector - k
        let p = v * (1 - sat), q = v * (1 - sat * f), t = v * (1 - sat * (1 - f))
        switch Int(k) {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }

    /// `withAlpha(colour, alpha)`: UIColor's withAlphaComponent, the colour with its alpha
    /// replaced.
    private func colourWithAlpha(_ a: CallArguments) -> SemaValue {
        guard let s = a.bind("withAlpha"), let slot = s[0] else { return .poison }
        guard case .color(let c) = slot.0 else {
            report(Messages.typeMismatch(slot.1, expected: "a colour", found: slot.0.typeName, context: "'withAlpha'"))
            return .poison
        }
        guard let alpha = a.number(s[1], what: "alpha") else { return .poison }
        guard alpha >= 0, alpha <= 1 else {
            report(Messages.outOfRange(s[1]?.1 ?? a.range, what: "alpha", value: formatNumber(alpha), valid: "0...1"))
            return .poison
        }
        return .color(Color(red: c.red, green: c.green, blue: c.blue, alpha: alpha))
    }

    /// Numbers and vectors: `sqrt`, `min`, `mod`, `pow`, `sin`, `atan2`, `clamp`, `lerp`, `length`, ...
    private func mathFunction(_ name: String, _ function: Builtins.Function, _ a: CallArguments) -> SemaValue {
        switch function {
        case .sqrt:
            guard let s = a.bind(name), let slot = s[0] else { return .poison }
            guard case .number(let x, let d) = slot.0 else {
                report(Messages.typeMismatch(slot.1, expected: "a number", found: slot.0.typeName, context: "'\(name)'"))
                return .poison
            }
            switch name {
            case "sqrt":
                guard d == .none else { report(Messages.dimensionMismatch(slot.1, expected: .none, found: d, context: "'sqrt'")); return .poison }
                guard x >= 0 else { report(Messages.nonFinite(a.range, nan: true)); return .poison }
                return .number(x.squareRoot(), .none)
            case "abs": return .number(abs(x), d)
            case "floor": return .number(x.rounded(.down), d)
            case "ceil": return .number(x.rounded(.up), d)
            default: return .number(x.rounded(.toNearestOrAwayFromZero), d)
            }
        case .min:
            guard a.items.count >= 1 else {
                report(Messages.badArguments(a.range, callee: name, problem: "missing arguments", usage: "\(name)(a, b, ...)"))
                return .poison
            }
            var best: Double?
            var dim: Dimension?
            for item in a.items {
                guard case .number(let x, let d) = item.value else {
                    report(Messages.typeMismatch(item.range, expected: "a number", found: item.value.typeName, context: "'\(name)'"))
                    return .poison
                }
                if let dd = dim, dd != d {
                    report(Messages.operandDimensions(item.range, op: name, left: dd, right: d))
                    return .poison
                }
                dim = d
                best = best.map { name == "min" ? Swift.min($0, x) : Swift.max($0, x) } ?? x
            }
            return .number(best ?? 0, dim ?? .none)
        case .mod:
            guard let s = a.bind(name), let x = s[0], let y = s[1] else { return .poison }
            guard case .number(let p, let dp) = x.0, case .number(let q, let dq) = y.0 else {
                report(Messages.typeMismatch(a.range, expected: "two numbers", found: "\(x.0.typeName) and \(y.0.typeName)", context: "'\(name)'"))
                return .poison
            }
            guard dp == dq || dq == .none else { report(Messages.operandDimensions(a.range, op: name, left: dp, right: dq)); return .poison }
            guard q != 0 else { report(Messages.divisionByZero(y.1)); return .poison }
            // `rem` is C's fmod (exact, the dividend's sign); `mod` is floored.
            let r = name == "rem" ? p.truncatingRemainder(dividingBy: q) : p - q * (p / q).rounded(.down)
            return .number(r, dp)
        case .pow:
            guard let s = a.bind("pow") else { return .poison }
            let b = a.number(s[0], what: "base"), e = a.number(s[1], what: "exponent")
            guard let b, let e else { return .poison }
            let r = Foundationless.pow(b, e)
            guard r.isFinite else { report(Messages.nonFinite(a.range, nan: r.isNaN)); return .poison }
            return .number(r, .none)
        case .sin:
            guard let s = a.bind(name), let x = a.angleOrRadians(s[0], what: "angle") else { return .poison }
            let r = name == "sin" ? Foundationless.sin(x) : name == "cos" ? Foundationless.cos(x) : Foundationless.tan(x)
            return .number(r, .none)
        case .atan2:
            guard let s = a.bind("atan2") else { return .poison }
            let y = a.number(s[0], what: "y"), x = a.number(s[1], what: "x")
            guard let y, let x else { return .poison }
            return .number(Foundationless.atan2(y, x), .angle)
        case .clamp:
            guard let s = a.bind("clamp"),
                  case .number(let x, let d)? = s[0]?.0, case .number(let lo, let d2)? = s[1]?.0, case .number(let hi, let d3)? = s[2]?.0,
                  d == d2, d == d3 else {
                report(Messages.badArguments(a.range, callee: name, problem: "arguments must be three numbers of one dimension", usage: "clamp(x, min, max)"))
                return .poison
            }
            return .number(Swift.min(Swift.max(x, lo), hi), d)
        case .lerp:
            guard let s = a.bind("lerp"),
                  let from = s[0], let to = s[1], let t = a.number(s[2], what: "t") else { return .poison }
            let diff = binary(.subtract, to.0, from.0, a.range, to.1, from.1)
            let scaled = binary(.multiply, diff, .number(t, .none), a.range, a.range, a.range)
            return binary(.add, from.0, scaled, a.range, from.1, a.range)
        case .length:
            guard let s = a.bind("length") else { return .poison }
            guard let v = a.vector(s[0], count: nil, what: "v") else { return .poison }
            return .number(v.reduce(0) { $0 + $1 * $1 }.squareRoot(), .none)
        case .normalize:
            guard let s = a.bind("normalize") else { return .poison }
            guard let v = a.vector(s[0], count: nil, what: "v") else { return .poison }
            let len = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            // The zero vector has no direction; normalising it gives zero, so the centre
            // tile of a grid needs no special case.
            return .tuple(v.map { .number(len == 0 ? 0 : $0 / len, .none) }, isSize: false)
        case .distance:
            guard let s = a.bind("distance") else { return .poison }
            let p = a.vector(s[0], count: nil, what: "a"), q = a.vector(s[1], count: p?.count, what: "b")
            guard let p, let q, p.count == q.count else { return .poison }
            return .number(zip(p, q).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot(), .none)
        case .dot:
            guard let s = a.bind("dot") else { return .poison }
            let p = a.vector(s[0], count: nil, what: "a"), q = a.vector(s[1], count: p?.count, what: "b")
            guard let p, let q, p.count == q.count else { return .poison }
            return .number(zip(p, q).reduce(0) { $0 + $1.0 * $1.1 }, .none)
        default:
            return .poison
        }
    }

    /// Transform functions: `translate`, `scale`, `rotate`, `skew`, `perspective`, `matrix`, `concat`.
    private func transformFunction(_ name: String, _ function: Builtins.Function, _ a: CallArguments) -> SemaValue {
        switch function {
        case .translate:
            guard let s = a.bind("translate") else { return .poison }
            if s[1] == nil, let p = s[0], p.0.isPlainNumbers, let v = a.vector(p, count: 2, what: "offset") {
                return .transform([.translate(x: v[0], y: v[1], z: 0)])
            }
            let x = a.number(s[0], what: "x"), y = s[1] == nil ? 0 : a.number(s[1], what: "y"),
                z = s[2] == nil ? 0 : a.number(s[2], what: "z")
            guard let x, let y, let z else { return .poison }
            return .transform([.translate(x: x, y: y, z: z)])
        case .translateX:
            guard let s = a.bind(name), let v = a.number(s[0], what: "offset") else { return .poison }
            return .transform([.translate(x: name == "translateX" ? v : 0, y: name == "translateY" ? v : 0, z: name == "translateZ" ? v : 0)])
        case .scale:
            guard let s = a.bind("scale") else { return .poison }
            // Each argument is checked before any failure returns: one run, every mistake.
            let x = a.number(s[0], what: "x")
            let y = s[1] == nil ? x : a.number(s[1], what: "y")
            let z = s[2] == nil ? (s[1] == nil ? x : 1) : a.number(s[2], what: "z")
            guard let x, let y, let z else { return .poison }
            return .transform([.scale(x: x, y: y, z: s[1] == nil && s[2] == nil ? 1 : z)])
        case .scaleX:
            guard let s = a.bind(name), let v = a.number(s[0], what: "factor") else { return .poison }
            return .transform([.scale(x: name == "scaleX" ? v : 1, y: name == "scaleY" ? v : 1, z: name == "scaleZ" ? v : 1)])
        case .rotate:
            guard let s = a.bind(name), let angle = a.number(s[0], .angle, what: "angle") else { return .poison }
            let axis: (Double, Double, Double) = name == "rotateX" ? (1, 0, 0) : name == "rotateY" ? (0, 1, 0) : (0, 0, 1)
            return .transform([.rotate(x: axis.0, y: axis.1, z: axis.2, angle: angle)])
        case .rotate3d:
            guard let s = a.bind("rotate3d") else { return .poison }
            let axis = a.vector(s[0], count: 3, what: "axis"), angle = a.number(s[1], .angle, what: "angle")
            guard let axis, let angle else { return .poison }
            // CATransform3DMakeRotation returns the identity for a zero axis: accepted, as
            // there, with a warning.
            guard axis.contains(where: { $0 != 0 }) else {
                report(Messages.zeroRotationAxis(s[0]?.1 ?? a.range))
                return .transform([])
            }
            return .transform([.rotate(x: axis[0], y: axis[1], z: axis[2], angle: angle)])
        case .skew:
            guard let s = a.bind("skew") else { return .poison }
            let x = a.number(s[0], .angle, what: "x"), y = s[1] == nil ? 0 : a.number(s[1], .angle, what: "y")
            guard let x, let y else { return .poison }
            return .transform([.skew(x: x, y: y)])
        case .skewX:
            guard let s = a.bind(name), let v = a.number(s[0], .angle, what: "angle") else { return .poison }
            return .transform([.skew(x: name == "skewX" ? v : 0, y: name == "skewY" ? v : 0)])
        case .perspective:
            guard let s = a.bind("perspective"), let d = a.number(s[0], what: "distance") else { return .poison }
            // A negative distance is a positive m34, which Core Animation accepts (ports
            // of SpinKit set m34 = +1/120); zero would be an infinite m34.
            guard d != 0 else {
                report(Messages.outOfRange(s[0]?.1 ?? a.range, what: "perspective distance", value: formatNumber(d), valid: "any number but 0"))
                return .poison
            }
            if d < 0 { report(Messages.invertedPerspective(s[0]?.1 ?? a.range, distance: d)) }
            return .transform([.perspective(distance: d)])
        case .matrix:
            var values: [Double] = []
            for item in a.items {
                guard case .number(let x, .none) = item.value, item.label == nil else {
                    report(Messages.typeMismatch(item.range, expected: "a number", found: item.value.typeName, context: "'matrix'"))
                    return .poison
                }
                values.append(x)
            }
            if values.count == 6 {
                // CGAffineTransform(a, b, c, d, tx, ty) in Core Animation's layout.
                return .transform([.matrix(Matrix4([values[0], values[1], 0, 0, values[2], values[3], 0, 0,
                                                    0, 0, 1, 0, values[4], values[5], 0, 1]))])
            }
            guard values.count == 16 else {
                report(Messages.badArguments(a.range, callee: name, problem: "\(values.count) numbers",
                                             usage: "matrix(a, b, c, d, tx, ty) or matrix(m11, m12, ..., m44)"))
                return .poison
            }
            return .transform([.matrix(Matrix4(values))])
        case .concat:
            // CATransform3DConcat(a, b) applies a first, then b. Lists apply right to left,
            // so the later arguments go in front: concat(a, b) is the list `b a`.
            var functions: [TransformFunction] = []
            for item in a.items {
                guard case .transform(let fs) = item.value else {
                    report(Messages.typeMismatch(item.range, expected: "a transform", found: item.value.typeName, context: "'concat'"))
                    return .poison
                }
                functions = fs + functions
            }
            return .transform(functions)
        default:
            return .poison
        }
    }

    /// Timing functions: `cubic`, `steps`, `spring`.
    private func timingFunction(_ name: String, _ function: Builtins.Function, _ a: CallArguments) -> SemaValue {
        switch function {
        case .cubic:
            guard let s = a.bind("cubic") else { return .poison }
            guard let x1 = a.number(s[0], what: "x1"), let y1 = a.number(s[1], what: "y1"),
                  let x2 = a.number(s[2], what: "x2"), let y2 = a.number(s[3], what: "y2") else { return .poison }
            if !Checker.isCubicControl(x1) {
                report(Messages.cubicControl(s[0]?.1 ?? a.range, which: "x1", value: x1))
                return .poison
            }
            if !Checker.isCubicControl(x2) {
                report(Messages.cubicControl(s[2]?.1 ?? a.range, which: "x2", value: x2))
                return .poison
            }
            return Checker.cubicTiming((x1, y1, x2, y2))
        case .steps:
            guard a.items.count >= 1, a.items.count <= 2 else {
                report(Messages.badArguments(a.range, callee: name, problem: "\(a.items.count) arguments", usage: "steps(count, position = end)"))
                return .poison
            }
            guard case .number(let n, .none) = a.items[0].value, n == n.rounded() else {
                report(Messages.typeMismatch(a.items[0].range, expected: "a whole number", found: a.items[0].value.typeName, context: "the step count"))
                return .poison
            }
            var position = StepPosition.end
            if a.items.count == 2 {
                guard case .string(let p) = a.items[1].value, let pos = StepPosition(rawValue: p) else {
                    report(Messages.typeMismatch(a.items[1].range, expected: "start, end, jumpNone or jumpBoth",
                                                 found: a.items[1].value.typeName, context: "the step position"))
                    return .poison
                }
                position = pos
            }
            let minimum = position == .jumpNone ? 2 : 1
            guard n >= Double(minimum), n <= 1_000_000 else {
                report(Messages.stepsCount(a.items[0].range, minimum: minimum))
                return .poison
            }
            return .timing(.steps(count: Int(n), position: position))
        case .spring:
            guard let p = springParameters(a) else { return .poison }
            return .timing(.spring(p))
        default:
            return .poison
        }
    }

    /// Assets and shapes: `image(...)`, `arc`, `rect`, `roundedRect`, `ellipse`, `circle`.
    private func assetOrPath(_ name: String, _ function: Builtins.Function, _ a: CallArguments) -> SemaValue {
        switch function {
        case .image:
            guard let s = a.bind("image"), let slot = s[0] else { return .poison }
            guard case .string(let asset) = slot.0, !asset.isEmpty else {
                report(Messages.typeMismatch(slot.1, expected: "a non-empty asset name string", found: slot.0.typeName, context: "'image'"))
                return .poison
            }
            return .image(asset)

        case .arc:
            guard let elements = shapeElements(name, a) else { return .poison }
            return .path(elements)
        default:
            return .poison
        }
    }

    /// `spring(mass:, stiffness:, damping:, initialVelocity:)` or
    /// `spring(perceptualDuration:, bounce:)` (iOS 17's parameterisation).
    func springParameters(_ a: CallArguments) -> SpringParameters? {
        let labels = Set(a.items.compactMap(\.label))
        if labels.contains("perceptualDuration") || labels.contains("bounce") {
            guard let s = a.bind(Builtins.perceptualSpring),
                  let d = a.number(s[0], .time, what: "perceptualDuration") else { return nil }
            let bounce = s[1] == nil ? 0 : a.number(s[1], what: "bounce")
            let v0 = s[2] == nil ? 0 : a.number(s[2], what: "initialVelocity")
            guard let b = bounce, let v = v0 else { return nil }
            guard d > 0 else { report(Messages.springParameter(s[0]?.1 ?? a.range, name: "perceptualDuration", valid: "positive")); return nil }
            guard b > -1, b < 1 else { report(Messages.springParameter(s[1]?.1 ?? a.range, name: "bounce", valid: "in (-1, 1)")); return nil }
            let p = SpringParameters(perceptualDuration: d, bounce: b, initialVelocity: v)
            // 1e-300 s or 1e300 s gives an infinite or zero stiffness.
            guard physical(p) else {
                report(Messages.springParameter(s[0]?.1 ?? a.range, name: "perceptualDuration", valid: "of ordinary size, such as 0.5s (this one makes the stiffness 0 or infinite)"))
                return nil
            }
            return p
        }
        guard let s = a.bind("spring") else { return nil }
        var p = SpringParameters()
        if s[0] != nil { guard let m = a.number(s[0], what: "mass") else { return nil }; p.mass = m }
        if s[1] != nil { guard let k = a.number(s[1], what: "stiffness") else { return nil }; p.stiffness = k }
        if s[2] != nil { guard let c = a.number(s[2], what: "damping") else { return nil }; p.damping = c }
        if s[3] != nil { guard let v = a.number(s[3], what: "initialVelocity") else { return nil }; p.initialVelocity = v }
        guard p.mass > 0 else { report(Messages.springParameter(s[0]?.1 ?? a.range, name: "mass", valid: "positive")); return nil }
        guard p.stiffness > 0 else { report(Messages.springParameter(s[1]?.1 ?? a.range, name: "stiffness", valid: "positive")); return nil }
        guard p.damping >= 0 else { report(Messages.springParameter(s[2]?.1 ?? a.range, name: "damping", valid: "0 or more")); return nil }
        guard physical(p) else {
            report(Messages.springParameter(a.range, name: "parameters", valid: "finite"))
            return nil
        }
        return p
    }

    /// Whether a spring's parameters are finite: a perceptual duration of 1e-300 s
    /// passes the sign checks and then makes the stiffness infinite.
    private func physical(_ p: SpringParameters) -> Bool {
        p.mass.isFinite && p.stiffness.isFinite && p.damping.isFinite && p.initialVelocity.isFinite
            && p.mass > 0 && p.stiffness > 0 && p.damping >= 0
    }
}

/// Thin wrappers so the checker's math reads the same on Linux and macOS.
enum Foundationless {
    static func sin(_ x: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.sin(x)
        #else
        return Darwin.sin(x)
        #endif
    }
    static func cos(_ x: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.cos(x)
        #else
        return Darwin.cos(x)
        #endif
    }
    static func tan(_ x: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.tan(x)
        #else
        return Darwin.tan(x)
        #endif
    }
    static func atan2(_ y: Double, _ x: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.atan2(y, x)
        #else
        return Darwin.atan2(y, x)
        #endif
    }
    static func pow(_ x: Double, _ y: Double) -> Double {
        #if canImport(Glibc)
        return Glibc.pow(x, y)
        #else
        return Darwin.pow(x, y)
        #endif
    }
}
