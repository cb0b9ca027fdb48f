import AnimcBase
import AnimcIR

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

    public static var layerKinds: [String] { LayerKind.allCases.map(\.rawValue) }

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
        case .component, .poison: return nil
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
        default: return "\(t)"
        }
    }
}
