import AnimcBase
import AnimcIR

/// Writes a composition as `animc.timeline` JSON (see docs/formats.md).
///
/// An animation that occurs more than once (the same body in every instance of a
/// component, at any depth) is written once, in the top-level `animations` table, and
/// each occurrence is its index there. Layer fields at their defaults (no parent, not
/// a mask, no timing of its own) are left out.
public enum TimelineWriter {
    public static let format = "animc.timeline"
    /// The version written. Version 1 wrote every animation where it occurs and every
    /// layer field; ``TimelineLoader`` reads both.
    public static let version = 2
    public static let readableVersions: ClosedRange<Int> = 1...2

    /// - Parameter interaction: the file's inputs, states and transitions, for a runtime
    ///   that plays events live (``LiveInteraction``); the layers show its first state.
    public static func json(_ c: Composition, interaction: Interaction? = nil) -> JSONValue {
        var composition: [JSONMember] = [
            JSONMember("name", .string(c.name)),
            JSONMember("size", [.number(c.size.width), .number(c.size.height)]),
            JSONMember("fps", .number(c.fps)),
        ]
        composition.append(JSONMember("window", c.window.map { w in
            .object([JSONMember("start", .number(w.start)), JSONMember("end", .number(w.end)),
                     JSONMember("includesEnd", .bool(w.includesEnd))])
        } ?? .null))
        composition.append(JSONMember("backgroundColor", c.backgroundColor.map(color) ?? .null))
        var shared = SharedAnimations(c)
        let layers = c.layers.map { layer($0, &shared) }
        var members = [
            JSONMember("format", .string(format)),
            JSONMember("version", .number(Double(version))),
            JSONMember("composition", .object(composition)),
        ]
        if !shared.table.isEmpty { members.append(JSONMember("animations", .array(shared.table))) }
        members.append(JSONMember("layers", .array(layers)))
        if let interaction { members.append(JSONMember("interaction", self.interaction(interaction))) }
        return .object(members)
    }

    public static func bytes(_ c: Composition) -> [UInt8] { json(c).serialized(style: .pretty) }

    public static func bytes(_ c: Composition, interaction: Interaction?) -> [UInt8] {
        json(c, interaction: interaction).serialized(style: .pretty)
    }

    static func interaction(_ i: Interaction) -> JSONValue {
        func setting(_ s: Interaction.Setting) -> JSONValue {
            .object([JSONMember("layer", .number(Double(s.layer))), JSONMember("keyPath", .string(s.target.keyPath)),
                     JSONMember("value", value(s.value))])
        }
        let inputs: [JSONValue] = i.inputs.map { input in
            var m = [JSONMember("name", .string(input.name)), JSONMember("kind", .string(input.kind.rawValue))]
            if let r = input.allowed { m.append(JSONMember("range", [.number(r.lowerBound), .number(r.upperBound)])) }
            if let v = input.initial { m.append(JSONMember("initial", inputValue(v))) }
            return .object(m)
        }
        let states: [JSONValue] = i.states.map { .object([JSONMember("name", .string($0.name)), JSONMember("values", .array($0.values.map(setting)))]) }
        let transitions: [JSONValue] = i.transitions.map { t in
            var m = [JSONMember("input", .number(Double(t.input))), JSONMember("from", .array(t.from.map { .number(Double($0)) })),
                     JSONMember("to", .number(Double(t.to)))]
            if let c = t.condition { m.append(JSONMember("condition", condition(c))) }
            if let a = t.animation {
                m.append(JSONMember("duration", .number(a.duration)))
                m.append(JSONMember("timingFunction", timingFunction(a.timingFunction)))
            }
            m.append(JSONMember("interruption", .string(t.interruption.rawValue)))
            return .object(m)
        }
        return .object([JSONMember("inputs", .array(inputs)), JSONMember("states", .array(states)),
                        JSONMember("transitions", .array(transitions)), JSONMember("baseValues", .array(i.baseValues.map(setting)))])
    }

    static func inputValue(_ v: Interaction.Value) -> JSONValue {
        switch v {
        case .bool(let b): return .bool(b)
        case .number(let x): return .number(x)
        case .point(let p): return [.number(p.x), .number(p.y)]
        }
    }

    static func condition(_ c: Interaction.Condition) -> JSONValue {
        switch c {
        case .input(let i): return .object([JSONMember("input", .number(Double(i)))])
        case .constant(let v): return .object([JSONMember("constant", inputValue(v))])
        case .not(let a): return .object([JSONMember("not", condition(a))])
        case .and(let a, let b): return .object([JSONMember("and", [condition(a), condition(b)])])
        case .or(let a, let b): return .object([JSONMember("or", [condition(a), condition(b)])])
        case .compare(let op, let a, let b):
            return .object([JSONMember("compare", .string(op.rawValue)), JSONMember("left", condition(a)), JSONMember("right", condition(b))])
        }
    }

    /// The animations that occur more than once, by their content (source ranges aside),
    /// and the table they are written to, children before the groups that hold them.
    struct SharedAnimations {
        private var counts: [Animation: Int] = [:]
        private var indices: [Animation: Int] = [:]
        private(set) var table: [JSONValue] = []

        init(_ c: Composition) {
            for l in c.layers { for a in l.animations { _ = count(a) } }
        }

        /// Counts `a` and everything in it; returns its key.
        private mutating func count(_ a: Animation) -> Animation {
            var key = a
            key.range = .empty(at: 0)
            if case .group(let children) = a.kind { key.kind = .group(children.map { count($0) }) }
            counts[key, default: 0] += 1
            return key
        }

        /// `a` as written where it occurs: its index in the table when it occurs more
        /// than once, else the animation itself.
        mutating func entry(_ a: Animation) -> (json: JSONValue, key: Animation) {
            var key = a
            key.range = .empty(at: 0)
            var children: [JSONValue] = []
            if case .group(let members) = a.kind {
                var keys: [Animation] = []
                for child in members {
                    let (json, childKey) = entry(child)
                    children.append(json)
                    keys.append(childKey)
                }
                key.kind = .group(keys)
            }
            if let index = indices[key] { return (.number(Double(index)), key) }
            let json = TimelineWriter.animation(a, children: children)
            guard counts[key, default: 0] > 1 else { return (json, key) }
            indices[key] = table.count
            table.append(json)
            return (.number(Double(table.count - 1)), key)
        }
    }

    static func layer(_ l: Layer, _ shared: inout SharedAnimations) -> JSONValue {
        var members = [JSONMember("id", .string(l.id)), JSONMember("kind", .string(l.kind.rawValue))]
        if let parent = l.parent { members.append(JSONMember("parent", .number(Double(parent)))) }
        if l.isMask { members.append(JSONMember("isMask", true)) }
        if let mask = l.mask { members.append(JSONMember("mask", .number(Double(mask)))) }
        if !l.timing.isIdentity {
            var timing = [
                JSONMember("beginTime", .number(l.timing.beginTime)),
                JSONMember("speed", .number(l.timing.speed)),
                JSONMember("timeOffset", .number(l.timing.timeOffset)),
            ]
            // A layer's passes only when it has them, so other layers read as before.
            if !l.timing.isAffine {
                timing += [
                    JSONMember("duration", .number(l.timing.duration)),
                    JSONMember("repeatCount", maybeInfinite(l.timing.repeatCount)),
                    JSONMember("repeatDuration", maybeInfinite(l.timing.repeatDuration)),
                    JSONMember("autoreverses", .bool(l.timing.autoreverses)),
                ]
            }
            members.append(JSONMember("timing", .object(timing)))
        }
        members.append(JSONMember("properties", .object(l.properties.map { JSONMember($0.property.rawValue, value($0.value)) })))
        members.append(JSONMember("animations", .array(l.animations.map { shared.entry($0).json })))
        return .object(members)
    }

    /// - Parameter children: a group's children as written (inline or table indices).
    static func animation(_ a: Animation, children: [JSONValue]) -> JSONValue {
        var members = [JSONMember("name", .string(a.name)), JSONMember("timing", timing(a.timing))]
        switch a.kind {
        case .group:
            members.append(JSONMember("group", .array(children)))
        case .property(let p):
            members.append(JSONMember("keyPath", .string(p.target.keyPath)))
            members.append(JSONMember("additive", .bool(p.additive)))
            members.append(JSONMember("cumulative", .bool(p.cumulative)))
            // Written only when not the default, so timelines of other key paths are unchanged.
            if p.transformInterpolation != .matrix {
                members.append(JSONMember("transformInterpolation", .string(p.transformInterpolation.rawValue)))
            }
            switch p.content {
            case .basic(let from, let to):
                members.append(JSONMember("basic", .object([JSONMember("from", animated(from)), JSONMember("to", animated(to))])))
            case .keyframes(let k):
                members.append(JSONMember("keyframes", .object([
                    JSONMember("values", .array(k.values.map(value))),
                    JSONMember("keyTimes", k.keyTimes.map { .array($0.map { .number($0) }) } ?? .null),
                    JSONMember("timingFunctions", .array(k.timingFunctions.map(timingFunction))),
                    JSONMember("calculationMode", .string(k.calculationMode.rawValue)),
                    JSONMember("tension", .array(k.tension.map { .number($0) })),
                    JSONMember("continuity", .array(k.continuity.map { .number($0) })),
                    JSONMember("bias", .array(k.bias.map { .number($0) })),
                ])))
            case .motion(let m):
                members.append(JSONMember("motion", .object([
                    JSONMember("path", value(.path(m.path))),
                    JSONMember("keyTimes", m.keyTimes.map { .array($0.map { .number($0) }) } ?? .null),
                    JSONMember("timingFunctions", .array(m.timingFunctions.map(timingFunction))),
                    JSONMember("calculationMode", .string(m.calculationMode.rawValue)),
                    JSONMember("rotationMode", .string(m.rotationMode.rawValue)),
                ])))
            case .spring(let from, let to, let s):
                members.append(JSONMember("spring", .object([
                    JSONMember("from", animated(from)), JSONMember("to", animated(to)),
                    JSONMember("mass", .number(s.mass)), JSONMember("stiffness", .number(s.stiffness)),
                    JSONMember("damping", .number(s.damping)), JSONMember("initialVelocity", .number(s.initialVelocity)),
                    JSONMember("allowsOverdamping", .bool(s.allowsOverdamping)),
                ])))
            case .decay(let from, let velocity, let deceleration):
                members.append(JSONMember("decay", .object([
                    JSONMember("from", animated(from)), JSONMember("velocity", value(velocity)),
                    JSONMember("deceleration", .number(deceleration)),
                ])))
            }
        }
        return .object(members)
    }

    /// JSON has no infinity: unbounded repeats are the string "inf".
    static func maybeInfinite(_ x: Double) -> JSONValue { x.isInfinite ? "inf" : .number(x) }

    static func timing(_ t: Timing) -> JSONValue {
        var members = [
            JSONMember("beginTime", .number(t.beginTime)),
            JSONMember("duration", .number(t.duration)),
            JSONMember("speed", .number(t.speed)),
            JSONMember("timeOffset", .number(t.timeOffset)),
            JSONMember("repeatCount", maybeInfinite(t.repeatCount)),
            JSONMember("repeatDuration", maybeInfinite(t.repeatDuration)),
            JSONMember("autoreverses", .bool(t.autoreverses)),
            JSONMember("fillMode", .string(t.fillMode.rawValue)),
            JSONMember("removedOnCompletion", .bool(t.removedOnCompletion)),
            JSONMember("timingFunction", timingFunction(t.timingFunction)),
        ]
        // Only when set, so that a timeline without add times reads as before.
        if t.added.isFinite { members.append(JSONMember("added", .number(t.added))) }
        if t.replaced.isFinite { members.append(JSONMember("replaced", .number(t.replaced))) }
        return .object(members)
    }

    static func timingFunction(_ f: TimingFunction) -> JSONValue {
        switch f {
        case .linear: return "linear"
        case .cubic(let x1, let y1, let x2, let y2): return ["cubic", .number(x1), .number(y1), .number(x2), .number(y2)]
        case .steps(let n, let p): return ["steps", .number(Double(n)), .string(p.rawValue)]
        case .spring(let s):
            return ["spring", .number(s.mass), .number(s.stiffness), .number(s.damping), .number(s.initialVelocity),
                    .bool(s.allowsOverdamping)]
        }
    }

    static func animated(_ v: AnimatedValue) -> JSONValue {
        switch v {
        case .value(let x): return .object([JSONMember("value", value(x))])
        case .model: return "model"
        case .presentation: return "presentation"
        case .modelPlus(let x): return .object([JSONMember("modelPlus", value(x))])
        }
    }

    static func color(_ c: Color) -> JSONValue {
        [.number(c.red), .number(c.green), .number(c.blue), .number(c.alpha)]
    }

    /// Values are tagged with their kind so a value reads back without knowing its
    /// property: `{"point": [x, y]}`.
    static func value(_ v: Value) -> JSONValue {
        let (tag, payload): (String, JSONValue)
        switch v {
        case .number(let x): (tag, payload) = ("number", .number(x))
        case .point(let p): (tag, payload) = ("point", [.number(p.x), .number(p.y)])
        case .size(let s): (tag, payload) = ("size", [.number(s.width), .number(s.height)])
        case .rect(let r): (tag, payload) = ("rect", [.number(r.x), .number(r.y), .number(r.width), .number(r.height)])
        case .color(let c): (tag, payload) = ("color", color(c))
        case .transform(let t): (tag, payload) = ("transform", .array(t.functions.map(transformFunction)))
        case .path(let p): (tag, payload) = ("path", .array(p.elements.map(\.json)))
        case .bool(let b): (tag, payload) = ("bool", .bool(b))
        case .image(let name): (tag, payload) = ("image", name.map { .string($0) } ?? .null)
        case .enumeration(let e): (tag, payload) = ("enum", .string(e))
        case .numbers(let xs): (tag, payload) = ("numbers", .array(xs.map { .number($0) }))
        case .colors(let cs): (tag, payload) = ("colors", .array(cs.map(color)))
        }
        return .object([JSONMember(tag, payload)])
    }

    static func transformFunction(_ f: TransformFunction) -> JSONValue {
        switch f {
        case .translate(let x, let y, let z): return ["translate", .number(x), .number(y), .number(z)]
        case .scale(let x, let y, let z): return ["scale", .number(x), .number(y), .number(z)]
        case .rotate(let x, let y, let z, let a): return ["rotate", .number(x), .number(y), .number(z), .number(a)]
        case .skew(let x, let y): return ["skew", .number(x), .number(y)]
        case .perspective(let d): return ["perspective", maybeInfinite(d)]
        case .matrix(let m): return .array([.string("matrix")] + m.entries.map { .number($0) })
        }
    }
}
