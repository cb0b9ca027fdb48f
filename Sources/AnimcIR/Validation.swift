/// Checks the invariants the runtime relies on. The checker produces IR that always
/// passes; IR read from a file (a timeline JSON) is validated before use, so no input
/// can make the runtime index out of bounds or divide by zero.
public enum IRValidation {
    public static let maxGroupDepth = 64

    /// The problems found, each with the path of the offending node; empty when valid.
    public static func problems(_ c: Composition) -> [String] {
        var out: [String] = []
        func check(_ ok: Bool, _ path: String, _ what: String) { if !ok { out.append("\(path): \(what)") } }
        check(c.size.width.isFinite && c.size.height.isFinite && c.size.width >= 0 && c.size.height >= 0, "composition.size", "must be finite and not negative")
        check(c.fps.isFinite && c.fps > 0 && c.fps <= 1000, "composition.fps", "must be in (0, 1000]")
        if let w = c.window {
            check(w.start.isFinite && w.end.isFinite && w.end >= w.start, "composition.window", "must be finite with end >= start")
        }
        for (i, layer) in c.layers.enumerated() {
            let path = "layers[\(i)]"
            if let p = layer.parent { check(p >= 0 && p < i, path + ".parent", "must name an earlier layer") }
            if let m = layer.mask {
                check(m > i && m < c.layers.count && c.layers[m].isMask && c.layers[m].parent == i, path + ".mask",
                      "must name a later mask layer whose parent is this layer")
            }
            if layer.isMask { check(layer.parent != nil, path + ".isMask", "a mask layer needs the layer it masks as parent") }
            check(layer.timing.beginTime.isFinite && layer.timing.speed.isFinite && layer.timing.timeOffset.isFinite,
                  path + ".timing", "must be finite")
            for p in layer.properties {
                let info = PropertyTable.info(p.property)
                check(info.applies(to: layer.kind), "\(path).properties.\(p.property.rawValue)", "not a property of \(layer.kind.rawValue) layers")
                check(matches(p.value, info.type), "\(path).properties.\(p.property.rawValue)", "expected \(info.type)")
            }
            for (j, a) in layer.animations.enumerated() {
                animation(a, "\(path).animations[\(j)]", layer.kind, depth: 0, &out)
            }
        }
        return out
    }

    static func animation(_ a: Animation, _ path: String, _ kind: LayerKind, depth: Int, _ out: inout [String]) {
        func check(_ ok: Bool, _ p: String, _ what: String) { if !ok { out.append("\(path)\(p): \(what)") } }
        let t = a.timing
        check(t.duration.isFinite && t.duration > 0, ".timing.duration", "must be positive and finite")
        check(t.beginTime.isFinite && t.timeOffset.isFinite && t.speed.isFinite, ".timing", "must be finite")
        check(t.repeatCount >= 0 && !t.repeatCount.isNaN, ".timing.repeatCount", "must not be negative")
        check(t.repeatDuration >= 0 && !t.repeatDuration.isNaN, ".timing.repeatDuration", "must not be negative")
        check(timingFunctionValid(t.timingFunction), ".timing.timingFunction", "invalid parameters")
        switch a.kind {
        case .group(let children):
            guard depth < maxGroupDepth else { check(false, "", "groups nest deeper than \(maxGroupDepth)"); return }
            for (i, child) in children.enumerated() { animation(child, "\(path).group[\(i)]", kind, depth: depth + 1, &out) }
        case .property(let p):
            let info = PropertyTable.info(p.target.property)
            let type = PropertyTable.type(of: p.target)
            check(info.applies(to: kind), ".keyPath", "not a property of \(kind.rawValue) layers")
            check(PropertyTable.keyPaths.contains { $0.target == p.target }, ".keyPath", "not an animatable key path")
            if p.additive || p.cumulative { check(type.isAdditive, ".additive", "the type has no addition") }
            func value(_ v: AnimatedValue, _ name: String) {
                switch v {
                case .value(let x), .modelPlus(let x): check(matches(x, type), name, "expected \(type)")
                default: break
                }
            }
            switch p.content {
            case .basic(let from, let to):
                value(from, ".basic.from"); value(to, ".basic.to")
                check(type.interpolates, ".basic", "\(type) cannot be interpolated")
            case .keyframes(let k):
                let n = k.values.count
                check(n > 0, ".keyframes.values", "must not be empty")
                check(k.values.allSatisfy { matches($0, type) }, ".keyframes.values", "expected \(type)")
                check(type.interpolates || k.calculationMode == .discrete, ".keyframes.calculationMode", "\(type) needs discrete mode")
                if let times = k.keyTimes {
                    check(times.count == (k.calculationMode == .discrete ? n + 1 : n), ".keyframes.keyTimes", "wrong count")
                    check(times.allSatisfy { $0 >= 0 && $0 <= 1 }, ".keyframes.keyTimes", "must lie in [0, 1]")
                    check(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, ".keyframes.keyTimes", "must not decrease")
                } else {
                    check(k.calculationMode.isPaced, ".keyframes.keyTimes", "required unless paced")
                }
                check(k.timingFunctions.isEmpty || k.timingFunctions.count == max(n - 1, 0), ".keyframes.timingFunctions", "one per segment")
                check(k.timingFunctions.allSatisfy(timingFunctionValid), ".keyframes.timingFunctions", "invalid parameters")
                for (name, xs) in [("tension", k.tension), ("continuity", k.continuity), ("bias", k.bias)] {
                    check(xs.isEmpty || xs.count == n, ".keyframes.\(name)", "one per value")
                    check(xs.allSatisfy(\.isFinite), ".keyframes.\(name)", "must be finite")
                }
                check(sameShape(k.values), ".keyframes.values", "must share one structure")
            case .motion(let m):
                check(type == .point, ".keyPath", "motion needs a point key path")
                let vertices = PathGeometry(m.path).vertexCount
                check(vertices > 1, ".motion.path", "needs at least one segment")
                check(pathFinite(m.path), ".motion.path", "must be finite")
                if let times = m.keyTimes {
                    check(times.count == vertices, ".motion.keyTimes", "one per path vertex")
                    check(times.allSatisfy { $0 >= 0 && $0 <= 1 } && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 },
                          ".motion.keyTimes", "must be non-decreasing in [0, 1]")
                }
                check(m.timingFunctions.isEmpty || m.timingFunctions.count == vertices - 1, ".motion.timingFunctions", "one per segment")
                check(m.timingFunctions.allSatisfy(timingFunctionValid), ".motion.timingFunctions", "invalid parameters")
            case .spring(let from, let to, let s):
                value(from, ".spring.from"); value(to, ".spring.to")
                check(type.interpolates, ".spring", "\(type) cannot be interpolated")
                check(springValid(s), ".spring", "needs mass > 0, stiffness > 0, damping >= 0")
            case .decay(let from, let velocity, let rate):
                value(from, ".decay.from")
                check(matches(velocity, type), ".decay.velocity", "expected \(type)")
                check([.number, .length, .angle, .time, .point, .size, .rect, .color].contains(type), ".decay", "\(type) cannot decay")
                check(rate > 0 && rate < 1, ".decay.deceleration", "must lie in (0, 1)")
            }
        }
    }

    static func timingFunctionValid(_ f: TimingFunction) -> Bool {
        switch f {
        case .linear: return true
        case .cubic(let x1, let y1, let x2, let y2):
            return x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1 && y1.isFinite && y2.isFinite
        case .steps(let n, let p): return n >= (p == .jumpNone ? 2 : 1) && n <= 1_000_000
        case .spring(let s): return springValid(s)
        }
    }

    static func springValid(_ s: SpringParameters) -> Bool {
        s.mass > 0 && s.mass.isFinite && s.stiffness > 0 && s.stiffness.isFinite && s.damping >= 0 && s.damping.isFinite
            && s.initialVelocity.isFinite
    }

    /// Whether a value has the type, with finite numbers (positive infinity is allowed
    /// only as a perspective distance).
    public static func matches(_ v: Value, _ type: ValueType) -> Bool {
        switch (v, type) {
        case (.number(let x), .number), (.number(let x), .length), (.number(let x), .angle), (.number(let x), .time):
            return x.isFinite
        case (.point(let p), .point): return p.x.isFinite && p.y.isFinite
        case (.size(let s), .size): return s.width.isFinite && s.height.isFinite
        case (.rect(let r), .rect): return [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite)
        case (.color(let c), .color): return [c.red, c.green, c.blue, c.alpha].allSatisfy(\.isFinite)
        case (.transform(let t), .transform):
            return t.functions.allSatisfy { f in
                switch f {
                case .translate(let x, let y, let z), .scale(let x, let y, let z): return x.isFinite && y.isFinite && z.isFinite
                case .rotate(let x, let y, let z, let a):
                    return x.isFinite && y.isFinite && z.isFinite && a.isFinite
                case .skew(let x, let y): return x.isFinite && y.isFinite
                case .perspective(let d): return d != 0 && !d.isNaN
                case .matrix(let m): return m.entries.allSatisfy(\.isFinite)
                }
            }
        case (.path(let p), .path): return pathFinite(p)
        case (.bool, .bool), (.image, .image): return true
        case (.enumeration(let e), .enumeration(let en)): return en.cases.contains(e)
        case (.numbers(let xs), .numbers): return xs.allSatisfy(\.isFinite)
        case (.colors(let cs), .colors): return cs.allSatisfy { [$0.red, $0.green, $0.blue, $0.alpha].allSatisfy(\.isFinite) }
        default: return false
        }
    }

    static func pathFinite(_ p: Path) -> Bool {
        p.elements.allSatisfy { e in
            switch e {
            case .move(let q), .line(let q): return q.x.isFinite && q.y.isFinite
            case .quad(let c, let q): return [c.x, c.y, q.x, q.y].allSatisfy(\.isFinite)
            case .cubic(let a, let b, let q): return [a.x, a.y, b.x, b.y, q.x, q.y].allSatisfy(\.isFinite)
            case .arc(let c, let r, let a0, let a1, _): return [c.x, c.y, r, a0, a1].allSatisfy(\.isFinite) && r >= 0
            case .close: return true
            }
        }
    }

    static func sameShape(_ values: [Value]) -> Bool {
        guard let first = values.first else { return true }
        return values.allSatisfy { v in
            switch (first, v) {
            case (.path(let a), .path(let b)): return a.hasSameStructure(as: b)
            case (.numbers(let a), .numbers(let b)): return a.count == b.count
            case (.colors(let a), .colors(let b)): return a.count == b.count
            default: return true
            }
        }
    }
}
