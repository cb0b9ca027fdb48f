import AnimcIR
import AnimcSyntax

/// A built-in function's parameters: what a call binds its arguments to (by position,
/// then by label), what its error messages show as usage, and what an editor's
/// signature help and hover show. One table, so the three cannot disagree.
public struct BuiltinSignature: Sendable, Equatable {
    public struct Parameter: Sendable, Equatable {
        public let name: String
        /// What it takes, as the language reference says it (`angle`, `(x, y)`).
        public let type: String
        /// Its value when left out; nil when it must be given.
        public let defaultValue: String?
    }

    public let function: String
    public let parameters: [Parameter]
    /// How many leading parameters a call must give.
    public let required: Int
    /// Every way to call it, as error messages show it (`scale(s), scale(x, y) or scale(x, y, z)`).
    public let usage: String
    public let summary: String
    /// Whether it takes any number of arguments (`min`, `concat`): calls are not bound by name.
    public let variadic: Bool

    /// The call as an editor shows it: `cubic(x1: number, y1: number, x2: number, y2: number)`.
    public var label: String { function + "(" + parameterLabels.joined(separator: ", ") + ")" }

    /// Each parameter as it appears in ``label``.
    public var parameterLabels: [String] {
        parameters.map { p in "\(p.name): \(p.type)" + (p.defaultValue.map { " = \($0)" } ?? "") } + (variadic ? ["…"] : [])
    }

    var names: [String] { parameters.map(\.name) }
}

extension BuiltinSignature {
    init(_ function: String, _ parameters: [(String, String, String?)], required: Int? = nil, usage: String? = nil,
         variadic: Bool = false, _ summary: String) {
        self.function = function
        self.parameters = parameters.map { Parameter(name: $0.0, type: $0.1, defaultValue: $0.2) }
        self.required = required ?? parameters.filter { $0.2 == nil }.count
        self.variadic = variadic
        self.summary = summary
        self.usage = usage ?? function + "(" + parameters.map { $0.0 + ($0.2.map { " = \($0)" } ?? "") }.joined(separator: ", ") + ")"
    }
}

extension BuiltinSignature {
    /// A component's signature, for signature help and completion in its instances:
    /// each parameter with its type and default as written.
    public static func component(_ name: String, parameters: [(name: String, type: String, defaultValue: String?)],
                                 summary: String) -> BuiltinSignature {
        BuiltinSignature(name, parameters.map { ($0.name, $0.type, $0.defaultValue) }, summary)
    }
}

extension Builtins {
    /// Every built-in function's signature, by name.
    static let signatures: [String: BuiltinSignature] = {
        var table: [String: BuiltinSignature] = [:]
        func add(_ s: BuiltinSignature) { table[s.function] = s }
        let n = "number"
        add(BuiltinSignature("rgb", [("red", n, nil), ("green", n, nil), ("blue", n, nil)],
                             usage: "rgb(red, green, blue) with components 0...255", "A colour from components 0...255."))
        add(BuiltinSignature("rgba", [("red", n, nil), ("green", n, nil), ("blue", n, nil), ("alpha", n, nil)],
                             usage: "rgba(red, green, blue, alpha) with alpha 0...1",
                             "A colour from components 0...255 and an opacity 0...1."))
        add(BuiltinSignature("hsb", [("hue", n, nil), ("saturation", n, nil), ("brightness", n, nil)],
                             usage: "hsb(hue, saturation, brightness) with components 0...1",
                             "A colour from hue, saturation and brightness 0...1, as UIColor(hue:saturation:brightness:alpha:)."))
        add(BuiltinSignature("hsba", [("hue", n, nil), ("saturation", n, nil), ("brightness", n, nil), ("alpha", n, nil)],
                             usage: "hsba(hue, saturation, brightness, alpha) with components 0...1",
                             "A colour from hue, saturation, brightness and an opacity, each 0...1."))
        add(BuiltinSignature("withAlpha", [("colour", "colour", nil), ("alpha", n, nil)], usage: "withAlpha(colour, alpha)",
                             "The colour with its opacity replaced, as UIColor's withAlphaComponent."))
        for (name, what) in [("sqrt", "The square root of a plain number."), ("abs", "The magnitude, in the number's unit."),
                             ("floor", "Rounded down, in the number's unit."), ("ceil", "Rounded up, in the number's unit."),
                             ("round", "Rounded to the nearest whole number, halves away from zero.")] {
            add(BuiltinSignature(name, [("x", n, nil)], what))
        }
        add(BuiltinSignature("min", [("a", n, nil), ("b", n, nil)], required: 1, usage: "min(a, b, ...)", variadic: true,
                             "The smallest of numbers of one unit."))
        add(BuiltinSignature("max", [("a", n, nil), ("b", n, nil)], required: 1, usage: "max(a, b, ...)", variadic: true,
                             "The largest of numbers of one unit."))
        add(BuiltinSignature("mod", [("a", n, nil), ("b", n, nil)], "The remainder of a / b, with b's sign (floored)."))
        add(BuiltinSignature("rem", [("a", n, nil), ("b", n, nil)], "The remainder of a / b, with a's sign (truncated, as C's fmod)."))
        add(BuiltinSignature("pow", [("base", n, nil), ("exponent", n, nil)], "base raised to exponent."))
        for name in ["sin", "cos", "tan"] {
            add(BuiltinSignature(name, [("angle", "angle", nil)], "The \(name == "sin" ? "sine" : name == "cos" ? "cosine" : "tangent") of an angle (a plain number is radians)."))
        }
        add(BuiltinSignature("atan2", [("y", n, nil), ("x", n, nil)], "The angle of the point (x, y) from the x axis."))
        add(BuiltinSignature("clamp", [("x", n, nil), ("min", n, nil), ("max", n, nil)], "x limited to min...max."))
        add(BuiltinSignature("lerp", [("from", "value", nil), ("to", "value", nil), ("t", n, nil)],
                             "The value a fraction t of the way from `from` to `to`."))
        add(BuiltinSignature("length", [("v", "vector", nil)], "A vector's length."))
        add(BuiltinSignature("normalize", [("v", "vector", nil)], "The vector of length 1 in v's direction."))
        add(BuiltinSignature("distance", [("a", "point", nil), ("b", "point", nil)], "The distance between two points."))
        add(BuiltinSignature("dot", [("a", "vector", nil), ("b", "vector", nil)], "The dot product of two vectors."))
        add(BuiltinSignature("translate", [("x", n, nil), ("y", n, "0"), ("z", n, "0")],
                             usage: "translate(x, y, z = 0) or translate(point)", "A translation (CATransform3DMakeTranslation)."))
        for axis in ["X", "Y", "Z"] {
            add(BuiltinSignature("translate" + axis, [("offset", n, nil)], "A translation along \(axis.lowercased())."))
            add(BuiltinSignature("scale" + axis, [("factor", n, nil)], "A scale along \(axis.lowercased())."))
            add(BuiltinSignature("rotate" + axis, [("angle", "angle", nil)], "A rotation about the \(axis.lowercased()) axis."))
        }
        add(BuiltinSignature("scale", [("x", n, nil), ("y", n, "x"), ("z", n, "1")],
                             usage: "scale(s), scale(x, y) or scale(x, y, z)", "A scale (CATransform3DMakeScale)."))
        add(BuiltinSignature("rotate", [("angle", "angle", nil)], "A rotation about the z axis."))
        add(BuiltinSignature("rotate3d", [("axis", "(x, y, z)", nil), ("angle", "angle", nil)],
                             usage: "rotate3d((x, y, z), angle)", "A rotation about an axis (CATransform3DMakeRotation)."))
        add(BuiltinSignature("skew", [("x", "angle", nil), ("y", "angle", "0deg")], "A shear by angles along x and y."))
        add(BuiltinSignature("skewX", [("angle", "angle", nil)], "A shear along x."))
        add(BuiltinSignature("skewY", [("angle", "angle", nil)], "A shear along y."))
        add(BuiltinSignature("perspective", [("distance", n, nil)], "Perspective seen from a distance (m34 = -1 / distance)."))
        add(BuiltinSignature("matrix", [("a", n, nil), ("b", n, nil), ("c", n, nil), ("d", n, nil), ("tx", n, nil), ("ty", n, nil)],
                             usage: "matrix(a, b, c, d, tx, ty) or matrix(m11, m12, ..., m44)", variadic: true,
                             "An affine transform (CGAffineTransform's order), or 16 numbers of a CATransform3D."))
        add(BuiltinSignature("concat", [("a", "transform", nil), ("b", "transform", nil)], required: 1, usage: "concat(a, b, ...)",
                             variadic: true, "Transforms applied in order, as CATransform3DConcat(a, b) applies a, then b."))
        add(BuiltinSignature("cubic", [("x1", n, nil), ("y1", n, nil), ("x2", n, nil), ("y2", n, nil)],
                             "A cubic Bézier timing curve through (0, 0) and (1, 1) (CAMediaTimingFunction(controlPoints:))."))
        add(BuiltinSignature("steps", [("count", "whole number", nil), ("position", "start | end", "end")],
                             usage: "steps(count, position = end)", "A staircase of count equal steps."))
        add(BuiltinSignature("spring", [("mass", n, "1"), ("stiffness", n, "100"), ("damping", n, "10"), ("initialVelocity", n, "0")],
                             usage: "spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0) or spring(perceptualDuration: 0.5s, bounce: 0.2)",
                             "A damped spring, as CASpringAnimation's mass, stiffness, damping and initialVelocity."))
        add(BuiltinSignature("image", [("name", "string", nil)], usage: "image(\"asset-name\")",
                             "An image asset by name (a file in assets/ beside the .anim file)."))
        add(BuiltinSignature("arc", [("center", "(x, y)", nil), ("radius", n, nil), ("from", "angle", nil), ("to", "angle", nil),
                                     ("clockwise", "bool", "true")],
                             usage: "arc(center: (x, y), radius: r, from: angle, to: angle, clockwise: true)",
                             "An arc, as UIBezierPath's addArc(withCenter:radius:startAngle:endAngle:clockwise:): clockwise on screen."))
        add(BuiltinSignature("circle", [("center", "(x, y)", nil), ("radius", n, nil)], usage: "circle(center: (x, y), radius: r)",
                             "A circle, as CGPath's addEllipse(in:) of its bounding square."))
        add(BuiltinSignature("rect", [("rect", "(x, y, w, h)", nil)], usage: "rect(x, y, width, height) or rect((x, y, w, h))",
                             "A rectangle, as CGPath's addRect."))
        add(BuiltinSignature("ellipse", [("in", "(x, y, w, h)", nil)], usage: "ellipse((x, y, w, h))",
                             "An ellipse in a rectangle, as CGPath's addEllipse(in:)."))
        add(BuiltinSignature("roundedRect", [("rect", "(x, y, w, h)", nil), ("radius", n, nil)],
                             usage: "roundedRect((x, y, w, h), radius: r)", "A rectangle with rounded corners, as CGPath's addRoundedRect."))
        return table
    }()

    /// `spring`'s other form (iOS 17's parameterisation), bound when a call names
    /// `perceptualDuration` or `bounce`.
    static let perceptualSpring = BuiltinSignature(
        "spring", [("perceptualDuration", "time", nil), ("bounce", "number", "0"), ("initialVelocity", "number", "0")],
        usage: "spring(perceptualDuration: 0.5s, bounce: 0.2)",
        "A spring by how long it seems to take and how much it bounces (SwiftUI's and iOS 17's).")
}

extension Builtins {
    /// `rect`'s other form: four numbers.
    static let rectOfComponents = BuiltinSignature(
        "rect", [("x", "number", nil), ("y", "number", nil), ("width", "number", nil), ("height", "number", nil)],
        usage: "rect(x, y, width, height) or rect((x, y, w, h))", "A rectangle, as CGPath's addRect.")
}

extension LanguageFacts {
    /// The built-in function `name`'s signatures (two for `spring`); empty for none.
    public static func signatures(of name: String) -> [BuiltinSignature] {
        guard let s = Builtins.signatures[name] else { return [] }
        switch name {
        case "spring": return [s, Builtins.perceptualSpring]
        case "rect": return [Builtins.rectOfComponents, s]
        default: return [s]
        }
    }

    /// Every built-in function's name.
    public static var functionNames: [String] { Builtins.functionNames }
}

extension Checker {
    /// The type a built-in's argument is converted to, so that it is evaluated in
    /// context: a pasted `M_PI` is `180deg` for an arc's `from` and `pi` for its radius.
    func expectedArgumentType(_ callee: String, label: String?, index: Int) -> ValueType? {
        guard let signature = Builtins.signatures[callee], !signature.variadic else { return nil }
        let parameter = label.map { l in signature.parameters.first { $0.name == l } }
            ?? (index < signature.parameters.count ? signature.parameters[index] : nil)
        switch parameter?.type {
        case "angle": return .angle
        case "time": return .time
        case "number", "whole number": return .number
        default: return nil
        }
    }

    /// Evaluates a call's argument in the context its parameter gives.
    func evaluateArgument(_ argument: Argument, index: Int, of callee: String, _ scope: Scope) -> SemaValue {
        guard let type = expectedArgumentType(callee, label: argument.label?.name, index: index) else { return eval(argument.value, scope) }
        return evaluating(argument.value, scope, expecting: type)
    }
}
