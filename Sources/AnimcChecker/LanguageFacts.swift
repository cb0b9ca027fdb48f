import AnimcBase
import AnimcIR
import AnimcSyntax

/// What the language knows, for tools that help write it (an editor's completion and
/// hover): the same tables the checker validates against, so they cannot drift.
public enum LanguageFacts {
    /// `basic`, `keyframes`, `motion`, `spring`, `decay`, `group`, ...
    public static var animationKinds: [String] { Checker.knownAttributes.entries.map(\.key).sorted() }

    /// The attributes an animation of `kind` accepts (timing attributes included).
    public static func attributes(ofAnimationKind kind: String) -> [String] {
        Checker.knownAttributes[kind] ?? []
    }

    /// The named timing functions (`easeIn`, ...).
    public static var timingFunctionNames: [String] { Builtins.timings.keys.sorted() }

    public static func timingFunction(named name: String) -> TimingFunction? { Builtins.timings[name] }

    public static var layerKinds: [String] { LayerKind.allCases.map(\.rawValue) + [ContextualKeywords.replicator] }

    public static let keywords = ["let", "timing", "path", "component", "composition", "for", "in", "if", "else", "true", "false"]
}

extension SemaValue {
    /// The value as `.anim` source would write it; nil for values with no short form.
    var sourceText: String? {
        switch self {
        case .number(let v, let d):
            switch d {
            case .none: return formatNumber(v)
            case .time: return formatNumber(v) + "s"
            // Degrees went through radians: round away the last bits of that trip.
            case .angle: return formatNumber((v * 180 / .pi * 1e9).rounded() / 1e9) + "deg"
            }
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "\"\(s)\""
        case .color(let c):
            let rgb = [c.red, c.green, c.blue].map { formatNumber(($0 * 255 * 1000).rounded() / 1000) }.joined(separator: ", ")
            return c.alpha == 1 ? "rgb(\(rgb))" : "rgba(\(rgb), \(formatNumber(c.alpha)))"
        case .tuple(let items, let isSize):
            let parts = items.compactMap(\.sourceText)
            guard parts.count == items.count else { return nil }
            return isSize && parts.count == 2 ? "\(parts[0]) x \(parts[1])" : "(" + parts.joined(separator: ", ") + ")"
        case .list(let items):
            guard items.count <= 16 else { return "a list of \(items.count) values" }
            let parts = items.compactMap(\.sourceText)
            guard parts.count == items.count else { return nil }
            return "[" + parts.joined(separator: ", ") + "]"
        case .range(let lo, let hi, let inclusive, let d):
            let unit = d == .time ? "s" : ""
            return "\(formatNumber(lo))\(unit) \(inclusive ? "..." : "..<") \(formatNumber(hi))\(unit)"
        case .timing(let t): return LanguageFacts.describe(t)
        case .path(let elements): return "a path of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .transform(let functions): return "a transform of \(functions.count) function\(functions.count == 1 ? "" : "s")"
        case .image(let name): return "image(\"\(name)\")"
        case .presentation: return "presentation"
        case .component, .module, .poison: return nil
        }
    }
}

extension LanguageFacts {
    /// A timing function as source, with its control points for the named ones.
    public static func describe(_ t: TimingFunction) -> String {
        switch t {
        case .linear: return "linear: cubic(0, 0, 1, 1)"
        case .easeIn: return "easeIn: cubic(0.42, 0, 1, 1)"
        case .easeOut: return "easeOut: cubic(0, 0, 0.58, 1)"
        case .easeInEaseOut: return "easeInEaseOut: cubic(0.42, 0, 0.58, 1)"
        case .default: return "default: cubic(0.25, 0.1, 0.25, 1)"
        case .cubic(let x1, let y1, let x2, let y2):
            return "cubic(\([x1, y1, x2, y2].map(formatNumber).joined(separator: ", ")))"
        default:
            // As the source writes it, never Swift's dump of the value (hover showed
            // `spring(AnimcIR.SpringParameters(mass: 1.0, …))`).
            return IRDump.timingFunction(t)
        }
    }
}

extension LanguageFacts {
    /// The named colours (`red`, `clear`, ...).
    public static var colorNames: [String] { Builtins.colors.keys.sorted() }

    public static func color(named name: String) -> Color? { Builtins.colors[name] }

    /// The colour `rgb`, `rgba`, `hsb` or `hsba` makes of `channels` as written (for an
    /// editor's colour swatches), or nil when the call makes none: another function, a
    /// count it does not take, a channel out of its range.
    public static func color(calling name: String, channels: [Double]) -> Color? {
        switch (name, channels.count) {
        case ("rgb", 3), ("rgba", 4):
            guard channels.indices.allSatisfy({ Checker.isChannel(channels[$0], $0) }) else { return nil }
            return Color(red: channels[0] / 255, green: channels[1] / 255, blue: channels[2] / 255, alpha: channels.count == 4 ? channels[3] : 1)
        case ("hsb", 3), ("hsba", 4):
            guard channels.allSatisfy({ $0 >= 0 && $0 <= 1 }) else { return nil }
            let (r, g, b) = Checker.rgb(hue: channels[0], saturation: channels[1], brightness: channels[2])
            return Color(red: r, green: g, blue: b, alpha: channels.count == 4 ? channels[3] : 1)
        default:
            return nil
        }
    }

    /// The cases of the enumeration an attribute or property of this name takes
    /// (`fillMode`: `removed`, `forwards`, ...); nil when it takes none.
    public static func enumerationCases(of name: String) -> [String]? {
        Builtins.enumerations.first { $0.0 == name }?.1
    }

    /// The enumeration (as an attribute or property name) a bare word is a case of.
    public static func enumerationOwning(_ word: String) -> String? { Builtins.enumerationOwning(word) }

    /// What a built-in constant that is not a colour or timing function is (`pi`, `inf`).
    public static func constantSummary(_ name: String) -> String? {
        switch name {
        case "pi": return "π, 3.14159…, a plain number (radians where an angle is taken)"
        case "inf", "infinity": return "infinity: `repeatCount: inf` repeats forever (Core Animation's HUGE_VALF)"
        case "identity": return "the identity transform (CATransform3DIdentity)"
        case "presentation": return "the layer's value at the time the animation is added (a nil fromValue or toValue)"
        default: return nil
        }
    }

    /// What an animation attribute takes, for completion after `name:`.
    public enum Expectation: Sendable, Equatable {
        case time, timing, timings, bool, number, path
        case enumeration([String])
        /// A value of the animated property (`from`, `to`, `by`, `values`).
        case propertyValue
        case other
    }

    public static func expectation(ofAttribute name: String) -> Expectation {
        switch name {
        case "beginTime", "duration", "timeOffset", "repeatDuration", "perceptualDuration", "added": return .time
        case "timingFunction": return .timing
        case "timingFunctions": return .timings
        case "autoreverses", "removedOnCompletion", "additive", "isAdditive", "cumulative", "isCumulative", "allowsOverdamping":
            return .bool
        case "speed", "repeatCount", "mass", "stiffness", "damping", "initialVelocity", "bounce", "velocity", "deceleration":
            return .number
        case "path": return .path
        case "from", "to", "by", "values": return .propertyValue
        default:
            if let cases = enumerationCases(of: name) { return .enumeration(cases) }
            return .other
        }
    }
}

extension LanguageFacts {
    /// Whether `name` means something without a declaration: a built-in constant,
    /// colour, timing function or function. A declaration of that name hides it.
    public static func isBuiltinName(_ name: String) -> Bool {
        Builtins.constant(name) != nil || Builtins.functions[name] != nil
    }
}
