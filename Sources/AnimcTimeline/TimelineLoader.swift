import AnimcBase
import AnimcIR

/// Why a timeline file could not be loaded: the JSON path of the problem and what is
/// wrong there, e.g. `layers[3].animations[0].timing.duration: expected a number`.
public struct TimelineLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads `animc.timeline` JSON back into the IR, checking every field, then validates
/// the IR so the runtime can trust it.
public enum TimelineLoader {
    public static func load(_ bytes: [UInt8]) throws(TimelineLoadError) -> Composition {
        try loadInteractive(bytes).composition
    }

    /// The composition and, when the file carries one, its inputs, states and
    /// transitions, every index and key path checked against the layers.
    public static func loadInteractive(_ bytes: [UInt8]) throws(TimelineLoadError) -> (composition: Composition, interaction: Interaction?) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw TimelineLoadError(path: "", message: "not valid JSON: \(error.description)")
        }
        var reader = Reader()
        let c = try reader.composition(json)
        let problems = IRValidation.problems(c)
        if let first = problems.first {
            throw TimelineLoadError(path: "", message: "invalid timeline: \(first)")
        }
        guard let i = json["interaction"] else { return (c, nil) }
        return (c, try reader.interaction(i, c))
    }

    /// The most animations a timeline may expand to. Shared animations let a small file
    /// stand for a large tree (a table entry that is a group of two of the one before,
    /// and so on); this bounds the work and memory of loading and compiling it, far
    /// above any composition a source file of the checker's 8 MiB limit produces.
    public static let maxAnimations = 2_000_000

    private struct Reader {
        /// The table's animations, decoded once: each with its height (nodes on the
        /// longest path to a leaf) and size (nodes in all), for the limits.
        var shared: [(animation: Animation, height: Int, size: Int)] = []
        /// Animations in the expanded composition so far.
        var expanded = 0

        func fail(_ path: String, _ message: String) -> TimelineLoadError { TimelineLoadError(path: path, message: message) }

        func object(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> JSONValue {
            guard let v, case .object = v else { throw fail(path, "expected an object") }
            return v
        }

        func number(_ v: JSONValue?, _ path: String, allowInfinity: Bool = false) throws(TimelineLoadError) -> Double {
            if allowInfinity, v?.stringValue == "inf" { return .infinity }
            guard let x = v?.numberValue else { throw fail(path, "expected a number") }
            return x
        }

        func int(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> Int {
            let x = try number(v, path)
            guard x == x.rounded(), abs(x) < 1e9 else { throw fail(path, "expected a whole number") }
            return Int(x)
        }

        func string(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> String {
            guard let s = v?.stringValue else { throw fail(path, "expected a string") }
            return s
        }

        func bool(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> Bool {
            guard let b = v?.boolValue else { throw fail(path, "expected true or false") }
            return b
        }

        func array(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> [JSONValue] {
            guard let a = v?.arrayValue else { throw fail(path, "expected an array") }
            return a
        }

        func numbers(_ v: JSONValue?, _ path: String, count: Int? = nil, allowInfinity: Bool = false) throws(TimelineLoadError) -> [Double] {
            let items = try array(v, path)
            if let count, items.count != count { throw fail(path, "expected \(count) numbers") }
            var out: [Double] = []
            for (i, item) in items.enumerated() { out.append(try number(item, "\(path)[\(i)]", allowInfinity: allowInfinity)) }
            return out
        }

        func enumeration<E: RawRepresentable>(_ v: JSONValue?, _ path: String, _: E.Type) throws(TimelineLoadError) -> E where E.RawValue == String {
            let s = try string(v, path)
            guard let e = E(rawValue: s) else { throw fail(path, "unknown value '\(s)'") }
            return e
        }

        mutating func composition(_ json: JSONValue) throws(TimelineLoadError) -> Composition {
            _ = try object(json, "")
            guard json["format"]?.stringValue == TimelineWriter.format else {
                throw fail("format", "expected \"\(TimelineWriter.format)\"")
            }
            let version = try int(json["version"], "version")
            guard TimelineWriter.readableVersions.contains(version) else {
                let readable = TimelineWriter.readableVersions
                throw fail("version", "version \(version) is not supported (this loader reads versions \(readable.lowerBound) to \(readable.upperBound))")
            }
            if let table = json["animations"] {
                guard version >= 2 else { throw fail("animations", "a table of shared animations needs version 2") }
                for (i, entry) in try array(table, "animations").enumerated() {
                    let (a, height, size) = try sharedEntry(entry, "animations[\(i)]")
                    shared.append((a, height, size))
                }
            }
            let comp = try object(json["composition"], "composition")
            let size = try numbers(comp["size"], "composition.size", count: 2)
            var window: TimeWindow?
            if let w = comp["window"], w != .null {
                _ = try object(w, "composition.window")
                window = TimeWindow(start: try number(w["start"], "composition.window.start"),
                                    end: try number(w["end"], "composition.window.end"),
                                    includesEnd: try bool(w["includesEnd"], "composition.window.includesEnd"))
            }
            var background: Color?
            if let b = comp["backgroundColor"], b != .null { background = try color(b, "composition.backgroundColor") }
            var layers: [Layer] = []
            for (i, l) in try array(json["layers"], "layers").enumerated() {
                layers.append(try layer(l, "layers[\(i)]"))
            }
            return Composition(name: try string(comp["name"], "composition.name"), size: Size(size[0], size[1]),
                               fps: try number(comp["fps"], "composition.fps"), window: window, backgroundColor: background,
                               layers: layers, range: .empty(at: 0))
        }

        func interaction(_ json: JSONValue, _ c: Composition) throws(TimelineLoadError) -> Interaction {
            let o = try object(json, "interaction")
            func index(_ v: JSONValue?, _ path: String, below count: Int) throws(TimelineLoadError) -> Int {
                let k = try int(v, path)
                guard k >= 0, k < count else { throw fail(path, "expected an index below \(count)") }
                return k
            }
            func setting(_ v: JSONValue, _ path: String) throws(TimelineLoadError) -> Interaction.Setting {
                let s = try object(v, path)
                let layer = try index(s["layer"], path + ".layer", below: c.layers.count)
                let keyPath = try string(s["keyPath"], path + ".keyPath")
                guard let info = PropertyTable.keyPath(keyPath), info.type.isSubtractable else {
                    throw fail(path + ".keyPath", "'\(keyPath)' is not a key path a state can set")
                }
                let v = try value(s["value"] ?? .null, path + ".value")
                guard IRValidation.matches(v, info.type) else { throw fail(path + ".value", "not a value of '\(keyPath)'") }
                return Interaction.Setting(layer: layer, target: info.target, value: v, range: .empty(at: 0))
            }
            func inputValue(_ v: JSONValue, _ kind: Interaction.Input.Kind, _ path: String) throws(TimelineLoadError) -> Interaction.Value {
                switch kind {
                case .bool: return .bool(try bool(v, path))
                case .number: return .number(try number(v, path))
                case .point: let p = try numbers(v, path, count: 2); return .point(Point(p[0], p[1]))
                case .trigger: throw fail(path, "a trigger holds no value")
                }
            }
            var inputs: [Interaction.Input] = []
            for (n, v) in try array(o["inputs"], "interaction.inputs").enumerated() {
                let path = "interaction.inputs[\(n)]"
                let i = try object(v, path)
                let kind = try enumeration(i["kind"], path + ".kind", Interaction.Input.Kind.self)
                var allowed: ClosedRange<Double>?
                if let r = i["range"] {
                    let x = try numbers(r, path + ".range", count: 2)
                    guard x[0] <= x[1] else { throw fail(path + ".range", "expected [low, high]") }
                    allowed = x[0]...x[1]
                }
                let initial = try i["initial"].map { v throws(TimelineLoadError) in try inputValue(v, kind, path + ".initial") }
                guard (initial == nil) == (kind == .trigger) else { throw fail(path + ".initial", "a \(kind.rawValue) input \(kind == .trigger ? "has no" : "needs an") initial value") }
                inputs.append(Interaction.Input(name: try string(i["name"], path + ".name"), kind: kind, allowed: allowed, initial: initial,
                                                range: .empty(at: 0)))
            }
            var states: [Interaction.State] = []
            for (n, v) in try array(o["states"], "interaction.states").enumerated() {
                let path = "interaction.states[\(n)]"
                let s = try object(v, path)
                var values: [Interaction.Setting] = []
                for (k, x) in try array(s["values"], path + ".values").enumerated() { values.append(try setting(x, "\(path).values[\(k)]")) }
                states.append(Interaction.State(name: try string(s["name"], path + ".name"), values: values, range: .empty(at: 0)))
            }
            guard !states.isEmpty else { throw fail("interaction.states", "expected at least one state") }
            func condition(_ v: JSONValue, _ path: String, depth: Int) throws(TimelineLoadError) -> Interaction.Condition {
                guard depth < 64 else { throw fail(path, "nested too deeply") }
                let x = try object(v, path)
                if let i = x["input"] { return .input(try index(i, path + ".input", below: inputs.count)) }
                if let k = x["constant"] {
                    if case .bool(let b) = k { return .constant(.bool(b)) }
                    return .constant(.number(try number(k, path + ".constant")))
                }
                if let a = x["not"] { return .not(try condition(a, path + ".not", depth: depth + 1)) }
                for key in ["and", "or"] {
                    if let pair = x[key] {
                        let items = try array(pair, path + "." + key)
                        guard items.count == 2 else { throw fail(path + "." + key, "expected two conditions") }
                        let a = try condition(items[0], path + ".\(key)[0]", depth: depth + 1)
                        let b = try condition(items[1], path + ".\(key)[1]", depth: depth + 1)
                        return key == "and" ? .and(a, b) : .or(a, b)
                    }
                }
                let op = try enumeration(x["compare"], path + ".compare", Interaction.Condition.Comparison.self)
                return .compare(op, try condition(x["left"] ?? .null, path + ".left", depth: depth + 1),
                                try condition(x["right"] ?? .null, path + ".right", depth: depth + 1))
            }
            var transitions: [Interaction.Transition] = []
            for (n, v) in try array(o["transitions"], "interaction.transitions").enumerated() {
                let path = "interaction.transitions[\(n)]"
                let t = try object(v, path)
                var from: [Int] = []
                for (k, s) in try array(t["from"], path + ".from").enumerated() { from.append(try index(s, "\(path).from[\(k)]", below: states.count)) }
                var animation: Interaction.TransitionTiming?
                if let d = t["duration"] {
                    let duration = try number(d, path + ".duration")
                    guard duration > 0 else { throw fail(path + ".duration", "expected more than 0") }
                    animation = Interaction.TransitionTiming(duration: duration, timingFunction: try timingFunction(t["timingFunction"], path + ".timingFunction"))
                }
                transitions.append(Interaction.Transition(
                    input: try index(t["input"], path + ".input", below: inputs.count),
                    condition: try t["condition"].map { v throws(TimelineLoadError) in try condition(v, path + ".condition", depth: 0) },
                    from: from, to: try index(t["to"], path + ".to", below: states.count), animation: animation,
                    interruption: try enumeration(t["interruption"], path + ".interruption", Interaction.Interruption.self), range: .empty(at: 0)))
            }
            var base: [Interaction.Setting] = []
            for (k, x) in try array(o["baseValues"], "interaction.baseValues").enumerated() { base.append(try setting(x, "interaction.baseValues[\(k)]")) }
            // Every key path a state sets has its base value, which a state that leaves it out shows.
            for state in states {
                for s in state.values where !base.contains(where: { $0.layer == s.layer && $0.target == s.target }) {
                    throw fail("interaction.baseValues", "no base value for layer \(s.layer)'s '\(s.target.keyPath)'")
                }
            }
            return Interaction(inputs: inputs, states: states, transitions: transitions, baseValues: base)
        }

        func optionalIndex(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> Int? {
            guard let v, v != .null else { return nil }
            return try int(v, path)
        }

        mutating func layer(_ json: JSONValue, _ path: String) throws(TimelineLoadError) -> Layer {
            _ = try object(json, path)
            let kind = try enumeration(json["kind"], path + ".kind", LayerKind.self)
            // Version 2 leaves out the layer fields at their defaults.
            var timing = LayerTiming()
            if let t = json["timing"] {
                let timingJSON = try object(t, path + ".timing")
                timing = LayerTiming(beginTime: try number(timingJSON["beginTime"], path + ".timing.beginTime"),
                                     speed: try number(timingJSON["speed"], path + ".timing.speed"),
                                     timeOffset: try number(timingJSON["timeOffset"], path + ".timing.timeOffset"))
                if timingJSON["duration"] != nil {
                    timing.duration = try number(timingJSON["duration"], path + ".timing.duration")
                    guard timing.duration > 0 else { throw fail(path + ".timing.duration", "a layer's duration is positive when written") }
                    timing.repeatCount = try number(timingJSON["repeatCount"], path + ".timing.repeatCount", allowInfinity: true)
                    timing.repeatDuration = try number(timingJSON["repeatDuration"], path + ".timing.repeatDuration", allowInfinity: true)
                    timing.autoreverses = try bool(timingJSON["autoreverses"], path + ".timing.autoreverses")
                }
            }
            var properties: [PropertyValue] = []
            let props = try object(json["properties"], path + ".properties")
            for member in props.objectValue ?? [] {
                let p = "\(path).properties.\(member.key)"
                guard let id = PropertyID(rawValue: member.key) else { throw fail(p, "unknown property") }
                properties.append(PropertyValue(id, try value(member.value, p), range: .empty(at: 0)))
            }
            var animations: [Animation] = []
            for (i, a) in try array(json["animations"], path + ".animations").enumerated() {
                let (animation, _, size) = try self.animation(a, "\(path).animations[\(i)]", depth: 0, available: shared.count)
                try count(size, path)
                animations.append(animation)
            }
            let isMask = json["isMask"] == nil ? false : try bool(json["isMask"], path + ".isMask")
            return Layer(id: try string(json["id"], path + ".id"), kind: kind, parent: try optionalIndex(json["parent"], path + ".parent"),
                         isMask: isMask, mask: try optionalIndex(json["mask"], path + ".mask"),
                         properties: properties, animations: animations, timing: timing, range: .empty(at: 0))
        }

        /// Adds `size` animations to the expanded total, within ``TimelineLoader/maxAnimations``.
        mutating func count(_ size: Int, _ path: String) throws(TimelineLoadError) {
            expanded += size
            if expanded > TimelineLoader.maxAnimations {
                throw fail(path, "the timeline expands to more than \(TimelineLoader.maxAnimations) animations")
            }
        }

        /// An entry of the shared table: an animation, which may use earlier entries.
        mutating func sharedEntry(_ json: JSONValue, _ path: String) throws(TimelineLoadError) -> (Animation, Int, Int) {
            guard json.numberValue == nil else { throw fail(path, "expected an animation, not a reference") }
            return try animation(json, path, depth: 0, available: shared.count)
        }

        /// An animation, or a reference to an entry of the shared table (its index, among
        /// the first `available`), with its height and size in nodes.
        mutating func animation(_ json: JSONValue, _ path: String, depth: Int,
                                available: Int) throws(TimelineLoadError) -> (Animation, height: Int, size: Int) {
            if json.numberValue != nil {
                let index = try int(json, path)
                guard index >= 0, index < available else {
                    throw fail(path, available == 0 ? "no shared animation comes before this reference"
                                                    : "expected an index into the shared animations before it (0 to \(available - 1))")
                }
                let entry = shared[index]
                guard depth + entry.height - 1 <= IRValidation.maxGroupDepth else { throw fail(path, "groups nest too deeply") }
                guard entry.size <= TimelineLoader.maxAnimations else {
                    throw fail(path, "the timeline expands to more than \(TimelineLoader.maxAnimations) animations")
                }
                return (entry.animation, entry.height, entry.size)
            }
            _ = try object(json, path)
            guard depth <= IRValidation.maxGroupDepth else { throw fail(path, "groups nest too deeply") }
            let name = try string(json["name"], path + ".name")
            let timing = try self.timing(json["timing"], path + ".timing")
            if let group = json["group"] {
                var children: [Animation] = []
                var height = 0, size = 1
                for (i, child) in try array(group, path + ".group").enumerated() {
                    let (c, h, n) = try animation(child, "\(path).group[\(i)]", depth: depth + 1, available: available)
                    children.append(c)
                    height = max(height, h)
                    // Saturating: a table entry's size may be large, and is checked where it is used.
                    size = min(size + n, TimelineLoader.maxAnimations + 1)
                }
                return (Animation(name: name, timing: timing, kind: .group(children), range: .empty(at: 0)), height + 1, size)
            }
            let keyPath = try string(json["keyPath"], path + ".keyPath")
            guard let info = PropertyTable.keyPath(keyPath) else { throw fail(path + ".keyPath", "unknown key path '\(keyPath)'") }
            let content: AnimationContent
            if let b = json["basic"] {
                _ = try object(b, path + ".basic")
                content = .basic(from: try animated(b["from"], path + ".basic.from"), to: try animated(b["to"], path + ".basic.to"))
            } else if let k = json["keyframes"] {
                _ = try object(k, path + ".keyframes")
                let values = try array(k["values"], path + ".keyframes.values")
                var decoded: [Value] = []
                for (i, v) in values.enumerated() { decoded.append(try value(v, "\(path).keyframes.values[\(i)]")) }
                content = .keyframes(Keyframes(
                    values: decoded,
                    keyTimes: k["keyTimes"] == .null ? nil : try numbers(k["keyTimes"], path + ".keyframes.keyTimes"),
                    timingFunctions: try timingFunctions(k["timingFunctions"], path + ".keyframes.timingFunctions"),
                    calculationMode: try enumeration(k["calculationMode"], path + ".keyframes.calculationMode", CalculationMode.self),
                    tension: try numbers(k["tension"], path + ".keyframes.tension"),
                    continuity: try numbers(k["continuity"], path + ".keyframes.continuity"),
                    bias: try numbers(k["bias"], path + ".keyframes.bias")))
            } else if let m = json["motion"] {
                _ = try object(m, path + ".motion")
                guard case .path(let p) = try value(m["path"] ?? .null, path + ".motion.path") else {
                    throw fail(path + ".motion.path", "expected a path")
                }
                content = .motion(Motion(
                    path: p, keyTimes: m["keyTimes"] == .null ? nil : try numbers(m["keyTimes"], path + ".motion.keyTimes"),
                    timingFunctions: try timingFunctions(m["timingFunctions"], path + ".motion.timingFunctions"),
                    calculationMode: try enumeration(m["calculationMode"], path + ".motion.calculationMode", CalculationMode.self),
                    rotationMode: try enumeration(m["rotationMode"], path + ".motion.rotationMode", RotationMode.self)))
            } else if let s = json["spring"] {
                _ = try object(s, path + ".spring")
                content = .spring(from: try animated(s["from"], path + ".spring.from"), to: try animated(s["to"], path + ".spring.to"),
                                  parameters: SpringParameters(
                                    mass: try number(s["mass"], path + ".spring.mass"),
                                    stiffness: try number(s["stiffness"], path + ".spring.stiffness"),
                                    damping: try number(s["damping"], path + ".spring.damping"),
                                    initialVelocity: try number(s["initialVelocity"], path + ".spring.initialVelocity"),
                                    allowsOverdamping: try bool(s["allowsOverdamping"], path + ".spring.allowsOverdamping")))
            } else if let d = json["decay"] {
                _ = try object(d, path + ".decay")
                content = .decay(from: try animated(d["from"], path + ".decay.from"),
                                 velocity: try value(d["velocity"] ?? .null, path + ".decay.velocity"),
                                 deceleration: try number(d["deceleration"], path + ".decay.deceleration"))
            } else {
                throw fail(path, "expected one of group, basic, keyframes, motion, spring, decay")
            }
            var interpolation = TransformInterpolation.matrix
            if let v = json["transformInterpolation"] {
                guard let text = v.stringValue, let mode = TransformInterpolation(rawValue: text) else {
                    throw fail(path + ".transformInterpolation", "expected \"matrix\" or \"functions\"")
                }
                interpolation = mode
            }
            return (Animation(name: name, timing: timing,
                              kind: .property(PropertyAnimation(target: info.target, additive: try bool(json["additive"], path + ".additive"),
                                                                cumulative: try bool(json["cumulative"], path + ".cumulative"),
                                                                transformInterpolation: interpolation, content: content)),
                              range: .empty(at: 0)), 1, 1)
        }

        func timing(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> Timing {
            let t = try object(v, path)
            return Timing(beginTime: try number(t["beginTime"], path + ".beginTime"),
                          duration: try number(t["duration"], path + ".duration"),
                          speed: try number(t["speed"], path + ".speed"),
                          timeOffset: try number(t["timeOffset"], path + ".timeOffset"),
                          repeatCount: try number(t["repeatCount"], path + ".repeatCount", allowInfinity: true),
                          repeatDuration: try number(t["repeatDuration"], path + ".repeatDuration", allowInfinity: true),
                          autoreverses: try bool(t["autoreverses"], path + ".autoreverses"),
                          fillMode: try enumeration(t["fillMode"], path + ".fillMode", FillMode.self),
                          removedOnCompletion: try bool(t["removedOnCompletion"], path + ".removedOnCompletion"),
                          timingFunction: try timingFunction(t["timingFunction"], path + ".timingFunction"),
                          added: t["added"] == nil ? -.infinity : try number(t["added"], path + ".added"),
                          replaced: t["replaced"] == nil ? .infinity : try number(t["replaced"], path + ".replaced"))
        }

        func timingFunctions(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> [TimingFunction] {
            var out: [TimingFunction] = []
            for (i, f) in try array(v, path).enumerated() { out.append(try timingFunction(f, "\(path)[\(i)]")) }
            return out
        }

        func timingFunction(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> TimingFunction {
            if v?.stringValue == "linear" { return .linear }
            let items = try array(v, path)
            guard let tag = items.first?.stringValue else { throw fail(path, "expected \"linear\" or a tagged array") }
            let args = JSONValue.array(Array(items.dropFirst()))
            switch tag {
            case "cubic":
                let x = try numbers(args, path, count: 4)
                return .cubic(x1: x[0], y1: x[1], x2: x[2], y2: x[3])
            case "steps":
                guard items.count == 3 else { throw fail(path, "expected [\"steps\", count, position]") }
                return .steps(count: try int(items[1], path + "[1]"), position: try enumeration(items[2], path + "[2]", StepPosition.self))
            case "spring":
                guard items.count == 6 else { throw fail(path, "expected [\"spring\", mass, stiffness, damping, initialVelocity, allowsOverdamping]") }
                return .spring(SpringParameters(mass: try number(items[1], path + "[1]"), stiffness: try number(items[2], path + "[2]"),
                                                damping: try number(items[3], path + "[3]"), initialVelocity: try number(items[4], path + "[4]"),
                                                allowsOverdamping: try bool(items[5], path + "[5]")))
            default:
                throw fail(path, "unknown timing function '\(tag)'")
            }
        }

        func animated(_ v: JSONValue?, _ path: String) throws(TimelineLoadError) -> AnimatedValue {
            if v?.stringValue == "model" { return .model }
            if v?.stringValue == "presentation" { return .presentation }
            let o = try object(v, path)
            if let x = o["value"] { return .value(try value(x, path + ".value")) }
            if let x = o["modelPlus"] { return .modelPlus(try value(x, path + ".modelPlus")) }
            throw fail(path, "expected \"model\", \"presentation\", {\"value\": ...} or {\"modelPlus\": ...}")
        }

        func color(_ v: JSONValue, _ path: String) throws(TimelineLoadError) -> Color {
            let c = try numbers(v, path, count: 4)
            return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        }

        func point(_ items: [JSONValue], _ at: Int, _ path: String) throws(TimelineLoadError) -> Point {
            guard at + 1 < items.count else { throw fail(path, "too few numbers") }
            return Point(try number(items[at], "\(path)[\(at)]"), try number(items[at + 1], "\(path)[\(at + 1)]"))
        }

        /// A tagged value: `{"point": [x, y]}`.
        func value(_ json: JSONValue, _ path: String) throws(TimelineLoadError) -> Value {
            guard case .object(let members) = json, members.count == 1, let member = members.first else {
                throw fail(path, "expected a tagged value such as {\"number\": 1}")
            }
            let p = path + "." + member.key
            let v = member.value
            switch member.key {
            case "number": return .number(try number(v, p))
            case "point": let x = try numbers(v, p, count: 2); return .point(Point(x[0], x[1]))
            case "size": let x = try numbers(v, p, count: 2); return .size(Size(x[0], x[1]))
            case "rect": let x = try numbers(v, p, count: 4); return .rect(Rect(x[0], x[1], x[2], x[3]))
            case "color": return .color(try color(v, p))
            case "bool": return .bool(try bool(v, p))
            case "image": return .image(v == .null ? nil : try string(v, p))
            case "enum": return .enumeration(try string(v, p))
            case "numbers": return .numbers(try numbers(v, p))
            case "colors":
                var cs: [Color] = []
                for (i, c) in try array(v, p).enumerated() { cs.append(try color(c, "\(p)[\(i)]")) }
                return .colors(cs)
            case "transform":
                var functions: [TransformFunction] = []
                for (i, f) in try array(v, p).enumerated() {
                    let fp = "\(p)[\(i)]"
                    let items = try array(f, fp)
                    guard let tag = items.first?.stringValue else { throw fail(fp, "expected a tagged array") }
                    let x = try numbers(.array(Array(items.dropFirst())), fp, allowInfinity: tag == "perspective")
                    switch (tag, x.count) {
                    case ("translate", 3): functions.append(.translate(x: x[0], y: x[1], z: x[2]))
                    case ("scale", 3): functions.append(.scale(x: x[0], y: x[1], z: x[2]))
                    case ("rotate", 4): functions.append(.rotate(x: x[0], y: x[1], z: x[2], angle: x[3]))
                    case ("skew", 2): functions.append(.skew(x: x[0], y: x[1]))
                    case ("perspective", 1): functions.append(.perspective(distance: x[0]))
                    case ("matrix", 16): functions.append(.matrix(Matrix4(x)))
                    default: throw fail(fp, "unknown transform function '\(tag)' with \(x.count) numbers")
                    }
                }
                return .transform(Transform(functions))
            case "path":
                var elements: [PathElement] = []
                for (i, e) in try array(v, p).enumerated() {
                    let ep = "\(p)[\(i)]"
                    let items = try array(e, ep)
                    guard let tag = items.first?.stringValue else { throw fail(ep, "expected a tagged array") }
                    switch (tag, items.count) {
                    case ("move", 3): elements.append(.move(to: try point(items, 1, ep)))
                    case ("line", 3): elements.append(.line(to: try point(items, 1, ep)))
                    case ("quad", 5): elements.append(.quad(control: try point(items, 1, ep), to: try point(items, 3, ep)))
                    case ("cubic", 7):
                        elements.append(.cubic(control1: try point(items, 1, ep), control2: try point(items, 3, ep), to: try point(items, 5, ep)))
                    case ("arc", 7):
                        elements.append(.arc(center: try point(items, 1, ep), radius: try number(items[3], ep + "[3]"),
                                             startAngle: try number(items[4], ep + "[4]"), endAngle: try number(items[5], ep + "[5]"),
                                             clockwise: try bool(items[6], ep + "[6]")))
                    case ("close", 1): elements.append(.close)
                    default: throw fail(ep, "unknown path element '\(tag)' with \(items.count - 1) values")
                    }
                }
                return .path(Path(elements))
            default:
                throw fail(path, "unknown value kind '\(member.key)'")
            }
        }
    }
}
