import AnimcBase

/// A stable text dump of a composition for goldens and `animc check --dump-ir`: one
/// line per layer, property and animation, indented by nesting. Numbers are rounded to
/// nine decimals so that one-ulp differences between math libraries do not churn goldens.
public enum IRDump {
    public static func dump(_ c: Composition) -> String {
        var out = "composition \(c.name) size=\(n(c.size.width))x\(n(c.size.height)) fps=\(n(c.fps))"
        if let w = c.window { out += " window=\(n(w.start))\(w.includesEnd ? "..." : "..<")\(n(w.end))" }
        if let bg = c.backgroundColor { out += " backgroundColor=\(color(bg))" }
        out += "\n"
        for (i, layer) in c.layers.enumerated() {
            var head = "layer \(layer.id) kind=\(layer.kind.rawValue)"
            if let p = layer.parent { head += " parent=\(c.layers[p].id)" }
            if layer.isMask { head += " role=mask" }
            if let m = layer.mask { head += " mask=\(c.layers[m].id)" }
            if !layer.timing.isIdentity {
                head += " beginTime=\(n(layer.timing.beginTime)) speed=\(n(layer.timing.speed)) timeOffset=\(n(layer.timing.timeOffset))"
            }
            out += head + "  #\(i)\n"
            for p in layer.properties {
                out += "  \(p.property.rawValue) = \(value(p.value))\n"
            }
            for a in layer.animations { animation(a, depth: 1, into: &out) }
        }
        return out
    }

    static func animation(_ a: Animation, depth: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: depth)
        switch a.kind {
        case .group(let children):
            out += "\(pad)group \(a.name) \(timing(a.timing))\n"
            for child in children { animation(child, depth: depth + 1, into: &out) }
        case .property(let p):
            var head = "\(pad)\(kindName(p.content)) \(p.target.keyPath)"
            if a.name != p.target.keyPath { head += " as \(a.name)" }
            head += " " + timing(a.timing)
            if p.additive { head += " additive" }
            if p.cumulative { head += " cumulative" }
            if p.transformInterpolation != .matrix { head += " interpolation=\(p.transformInterpolation.rawValue)" }
            out += head + "\n"
            let inner = pad + "  "
            switch p.content {
            case .basic(let from, let to):
                out += "\(inner)from: \(animated(from))\n\(inner)to: \(animated(to))\n"
            case .keyframes(let k):
                out += "\(inner)calculationMode: \(k.calculationMode.rawValue)\n"
                out += "\(inner)values: [\(k.values.map(value).joined(separator: ", "))]\n"
                if let times = k.keyTimes { out += "\(inner)keyTimes: [\(times.map(n).joined(separator: ", "))]\n" }
                if !k.timingFunctions.isEmpty {
                    out += "\(inner)timingFunctions: [\(k.timingFunctions.map(timingFunction).joined(separator: ", "))]\n"
                }
                if !k.tension.isEmpty { out += "\(inner)tension: [\(k.tension.map(n).joined(separator: ", "))]\n" }
                if !k.continuity.isEmpty { out += "\(inner)continuity: [\(k.continuity.map(n).joined(separator: ", "))]\n" }
                if !k.bias.isEmpty { out += "\(inner)bias: [\(k.bias.map(n).joined(separator: ", "))]\n" }
            case .motion(let m):
                out += "\(inner)path: \(path(m.path))\n"
                out += "\(inner)calculationMode: \(m.calculationMode.rawValue) rotationMode: \(m.rotationMode.rawValue)\n"
                if let times = m.keyTimes { out += "\(inner)keyTimes: [\(times.map(n).joined(separator: ", "))]\n" }
                if !m.timingFunctions.isEmpty {
                    out += "\(inner)timingFunctions: [\(m.timingFunctions.map(timingFunction).joined(separator: ", "))]\n"
                }
            case .spring(let from, let to, let s):
                out += "\(inner)from: \(animated(from))\n\(inner)to: \(animated(to))\n"
                out += "\(inner)mass: \(n(s.mass)) stiffness: \(n(s.stiffness)) damping: \(n(s.damping)) initialVelocity: \(n(s.initialVelocity))"
                out += s.allowsOverdamping ? " allowsOverdamping\n" : "\n"
            case .decay(let from, let velocity, let deceleration):
                out += "\(inner)from: \(animated(from))\n\(inner)velocity: \(value(velocity))\n\(inner)deceleration: \(n(deceleration))\n"
            }
        }
    }

    static func kindName(_ c: AnimationContent) -> String {
        switch c {
        case .basic: return "basic"
        case .keyframes: return "keyframes"
        case .motion: return "motion"
        case .spring: return "spring"
        case .decay: return "decay"
        }
    }

    public static func timing(_ t: Timing) -> String {
        var parts = ["duration=\(n(t.duration))"]
        if t.beginTime != 0 { parts.append("beginTime=\(n(t.beginTime))") }
        if t.speed != 1 { parts.append("speed=\(n(t.speed))") }
        if t.timeOffset != 0 { parts.append("timeOffset=\(n(t.timeOffset))") }
        if t.repeatCount != 0 { parts.append("repeatCount=\(n(t.repeatCount))") }
        if t.repeatDuration != 0 { parts.append("repeatDuration=\(n(t.repeatDuration))") }
        if t.autoreverses { parts.append("autoreverses") }
        if t.fillMode != .removed { parts.append("fillMode=\(t.fillMode.rawValue)") }
        if !t.removedOnCompletion { parts.append("removedOnCompletion=false") }
        if t.timingFunction != .linear { parts.append("timingFunction=\(timingFunction(t.timingFunction))") }
        return parts.joined(separator: " ")
    }

    public static func timingFunction(_ f: TimingFunction) -> String {
        switch f {
        case .linear: return "linear"
        case .cubic(let a, let b, let c, let d):
            switch f {
            case .easeIn: return "easeIn"
            case .easeOut: return "easeOut"
            case .easeInEaseOut: return "easeInEaseOut"
            case .default: return "default"
            default: return "cubic(\(n(a)), \(n(b)), \(n(c)), \(n(d)))"
            }
        case .steps(let count, let position): return "steps(\(count), \(position.rawValue))"
        case .spring(let s):
            return "spring(mass: \(n(s.mass)), stiffness: \(n(s.stiffness)), damping: \(n(s.damping)), initialVelocity: \(n(s.initialVelocity)))"
        }
    }

    static func animated(_ v: AnimatedValue) -> String {
        switch v {
        case .value(let x): return value(x)
        case .presentation: return "presentation"
        case .model: return "model"
        case .modelPlus(let v): return "model + \(value(v))"
        }
    }

    public static func value(_ v: Value) -> String {
        switch v {
        case .number(let x): return n(x)
        case .point(let p): return "(\(n(p.x)), \(n(p.y)))"
        case .size(let s): return "\(n(s.width)) x \(n(s.height))"
        case .rect(let r): return "(\(n(r.x)), \(n(r.y)), \(n(r.width)), \(n(r.height)))"
        case .color(let c): return color(c)
        case .transform(let t): return transform(t)
        case .path(let p): return path(p)
        case .bool(let b): return b ? "true" : "false"
        case .image(let name): return name.map { "image(\"\($0)\")" } ?? "none"
        case .enumeration(let e): return e
        case .numbers(let xs): return "[\(xs.map(n).joined(separator: ", "))]"
        case .colors(let cs): return "[\(cs.map(color).joined(separator: ", "))]"
        }
    }

    static func color(_ c: Color) -> String {
        "rgba(\(n(c.red * 255)), \(n(c.green * 255)), \(n(c.blue * 255)), \(n(c.alpha)))"
    }

    static func transform(_ t: Transform) -> String {
        if t.functions.isEmpty { return "identity" }
        return t.functions.map { f -> String in
            switch f {
            case .translate(let x, let y, let z): return "translate(\(n(x)), \(n(y)), \(n(z)))"
            case .scale(let x, let y, let z): return "scale(\(n(x)), \(n(y)), \(n(z)))"
            case .rotate(let x, let y, let z, let a): return "rotate3d((\(n(x)), \(n(y)), \(n(z))), \(n(a))rad)"
            case .skew(let x, let y): return "skew(\(n(x))rad, \(n(y))rad)"
            case .perspective(let d): return "perspective(\(d.isInfinite ? "inf" : n(d)))"
            case .matrix(let m): return "matrix(\(m.entries.map(n).joined(separator: ", ")))"
            }
        }.joined(separator: " ")
    }

    static func path(_ p: Path) -> String {
        if p.elements.isEmpty { return "path {}" }
        return "path { " + p.elements.map { e -> String in
            switch e {
            case .move(let q): return "move \(point(q))"
            case .line(let q): return "line \(point(q))"
            case .quad(let c, let q): return "quad \(point(q)) control: \(point(c))"
            case .cubic(let c1, let c2, let q): return "cubic \(point(q)) c1: \(point(c1)) c2: \(point(c2))"
            case .arc(let c, let r, let a0, let a1, let cw):
                return "arc center: \(point(c)) radius: \(n(r)) from: \(n(a0))rad to: \(n(a1))rad clockwise: \(cw)"
            case .close: return "close"
            }
        }.joined(separator: "; ") + " }"
    }

    static func point(_ p: Point) -> String { "(\(n(p.x)), \(n(p.y)))" }

    /// Numbers for dumps: nine decimals, shortest form.
    public static func n(_ x: Double) -> String {
        if x.isInfinite { return x > 0 ? "inf" : "-inf" }
        if x.isNaN { return "nan" }
        if abs(x) < 1e9 {
            return formatNumber((x * 1e9).rounded() / 1e9)
        }
        return formatNumber(x)
    }
}
