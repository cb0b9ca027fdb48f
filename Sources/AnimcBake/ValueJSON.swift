import AnimcBase
import AnimcIR
import AnimcRuntime

/// How presentation values are written in baked and eval JSON. One encoding, used by
/// every backend that writes sampled values:
///
/// | type | JSON |
/// |---|---|
/// | number, length, angle (radians), time (seconds) | number |
/// | point, size | `[x, y]`, `[width, height]` |
/// | rect | `[x, y, width, height]` |
/// | colour | `[red, green, blue, alpha]`, straight alpha, 0...1 |
/// | transform | 16 numbers, m11...m44 in Core Animation's layout |
/// | boolean | `true` / `false` |
/// | enumeration | its case name |
/// | image | the asset name, or `null` |
/// | numbers / colours | arrays of the above |
/// | path | `[["move", x, y], ["line", x, y], ["quad", cx, cy, x, y], ["cubic", c1x, c1y, c2x, c2y, x, y], ["arc", cx, cy, r, start, end, clockwise], ["close"]]` |
public enum ValueJSON {
    public static func encode(_ v: Value) -> JSONValue {
        switch v {
        case .number(let x): return .number(x)
        case .point(let p): return .array([.number(p.x), .number(p.y)])
        case .size(let s): return .array([.number(s.width), .number(s.height)])
        case .rect(let r): return .array([.number(r.x), .number(r.y), .number(r.width), .number(r.height)])
        case .color(let c): return .array([.number(c.red), .number(c.green), .number(c.blue), .number(c.alpha)])
        case .transform(let t): return .array(t.matrix.array.map { .number($0) })
        case .bool(let b): return .bool(b)
        case .enumeration(let e): return .string(e)
        case .image(let name): return name.map { .string($0) } ?? .null
        case .numbers(let xs): return .array(xs.map { .number($0) })
        case .colors(let cs): return .array(cs.map { encode(.color($0)) })
        case .path(let p): return .array(p.elements.map(\.json))
        }
    }

    /// A value for people: numbers to six decimals, angles also in degrees.
    public static func describe(_ v: Value, type: ValueType) -> String {
        func n(_ x: Double) -> String { formatNumber((x * 1e6).rounded() / 1e6 + 0) }
        switch v {
        case .number(let x):
            switch type {
            case .angle: return "\(n(x)) rad (\(n(x * 180 / .pi))°)"
            case .time: return "\(n(x)) s"
            default: return n(x)
            }
        case .point(let p): return "(\(n(p.x)), \(n(p.y)))"
        case .size(let s): return "\(n(s.width)) x \(n(s.height))"
        case .rect(let r): return "(\(n(r.x)), \(n(r.y)), \(n(r.width)), \(n(r.height)))"
        case .color(let c):
            return "rgba(\(n(c.red * 255)), \(n(c.green * 255)), \(n(c.blue * 255)), \(n(c.alpha)))"
        case .transform(let t):
            let m = t.matrix.array
            if m == M4.identity.array { return "identity" }
            return "[" + stride(from: 0, to: 16, by: 4).map { r in (r..<(r + 4)).map { n(m[$0]) }.joined(separator: " ") }
                .joined(separator: "; ") + "]"
        case .bool(let b): return b ? "true" : "false"
        case .enumeration(let e): return e
        case .image(let name): return name.map { "image(\"\($0)\")" } ?? "none"
        case .numbers(let xs): return "[" + xs.map(n).joined(separator: ", ") + "]"
        case .colors(let cs): return "[" + cs.map { describe(.color($0), type: .color) }.joined(separator: ", ") + "]"
        case .path(let p): return "path with \(p.elements.count) elements"
        }
    }
}
