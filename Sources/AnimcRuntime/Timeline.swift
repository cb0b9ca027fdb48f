import AnimcIR

/// Where a value lives in a scene's value buffer.
struct Slot: Hashable, Sendable {
    var offset: Int
    var width: Int
}

/// What a property animation writes.
enum TrackTarget: Sendable {
    /// A whole vector property, or a range of one (`position.x` is offset 0, width 1).
    case vector(Slot)
    /// A whole transform (16 doubles).
    case matrix(offset: Int)
    /// One part of a transform, through its decomposition (`transform.rotation.z`).
    case matrixComponent(offset: Int, component: KeyPathComponent)
    /// A motion along a path: the position, plus the layer's heading.
    case motion(position: Slot)
}

/// A compiled property animation's values. Every payload is a single class reference,
/// so binding a case in the evaluator is one retain; with struct and array payloads the
/// enum's outlined copy and destroy were a fifth of whole-scene evaluation.
enum TrackContent: Sendable {
    case vector(VectorKeyframes)
    case matrix(TransformKeyframes)
    case motion(MotionTrack)
    /// Spring progress over `from` → `to` keyframes (interpolation extrapolates on overshoot).
    case springVector(Sprung<VectorKeyframes>)
    case springMatrix(Sprung<TransformKeyframes>)
    /// from + velocity · displacement(t)
    case decay(DecayTrack)
}

/// Keyframes driven by a spring's position instead of the animation's progress.
final class Sprung<Keys: Sendable>: Sendable {
    let spring: SpringSolution
    let keys: Keys

    init(_ spring: SpringSolution, _ keys: Keys) {
        self.spring = spring
        self.keys = keys
    }
}

/// A decay: `from + velocity · displacement(t)`, per component.
final class DecayTrack: Sendable {
    let from: [Double]
    let velocity: [Double]
    let rate: Double

    init(from: [Double], velocity: [Double], rate: Double) {
        self.from = from
        self.velocity = velocity
        self.rate = rate
    }
}

/// A class so that the evaluator borrows it with one reference count, not a copy.
final class RuntimeTrack: Sendable {
    let target: TrackTarget
    let additive: Bool
    let cumulative: Bool
    let content: TrackContent
    /// The last value, added once per completed cycle when cumulative.
    let endValue: [Double]
    let hintIndex: Int

    init(target: TrackTarget, additive: Bool, cumulative: Bool, content: TrackContent, endValue: [Double], hintIndex: Int) {
        self.target = target
        self.additive = additive
        self.cumulative = cumulative
        self.content = content
        self.endValue = endValue
        self.hintIndex = hintIndex
    }
}

/// A compiled animation or group; a class for the same reason as ``RuntimeTrack``.
final class RuntimeAnimation: Sendable {
    let id: Int
    let name: String
    let timing: MediaTiming
    let timingFunction: CompiledTimingFunction
    let body: Body

    init(id: Int, name: String, timing: MediaTiming, timingFunction: CompiledTimingFunction, body: Body) {
        self.id = id
        self.name = name
        self.timing = timing
        self.timingFunction = timingFunction
        self.body = body
    }

    enum Body: Sendable {
        case property(RuntimeTrack)
        case group([RuntimeAnimation])
    }

    /// This animation as if nothing replaced it: what shows just before the animation
    /// that replaces it is added.
    func notReplaced() -> RuntimeAnimation {
        RuntimeAnimation(id: id, name: name, timing: timing.notReplaced, timingFunction: timingFunction, body: body)
    }
}

/// A compiled layer.
struct RuntimeLayer: Sendable {
    let index: Int
    let id: String
    let kind: LayerKind
    let parent: Int?
    let isMask: Bool
    /// The slot of each property this layer has, by `PropertyID.index`.
    var slots: [Slot?]
    /// The layer's range in the scene buffer.
    var range: Range<Int>
    var animations: [RuntimeAnimation] = []
    /// The layer's timing, compiled: what the layer's time is at a parent time.
    let clock: LayerClock
    let flattensSublayers: Bool
    /// Offsets of the properties the geometry pass reads, resolved once.
    var geometry = GeometryOffsets()
    /// Whether any layer names this one as its parent.
    var hasSublayers = false
    /// The parts of `range` that animations write, merged and sorted: only these are
    /// reset to the model before each sample (a layer's whole range is mostly values
    /// nothing animates).
    var written: [Range<Int>] = []

    func slot(_ p: PropertyID) -> Slot? { slots[p.index] }

    var ref: LayerRef { LayerRef(index: index, sublayerTransform: geometry.sublayerTransform) }
}

/// Where a layer's geometric properties live in the scene buffer, or −1 when the
/// layer kind has none. Looking slots up by property per frame cost a dictionary probe
/// per property per layer, about half of a whole-scene evaluation.
struct GeometryOffsets: Sendable {
    var position = -1, zPosition = -1, anchorPoint = -1, anchorPointZ = -1, bounds = -1
    var transform = -1, sublayerTransform = -1, opacity = -1, hidden = -1, doubleSided = -1

    init() {}

    init(_ slot: (PropertyID) -> Slot?) {
        func offset(_ p: PropertyID) -> Int { slot(p)?.offset ?? -1 }
        position = offset(.position); zPosition = offset(.zPosition)
        anchorPoint = offset(.anchorPoint); anchorPointZ = offset(.anchorPointZ); bounds = offset(.bounds)
        transform = offset(.transform); sublayerTransform = offset(.sublayerTransform)
        opacity = offset(.opacity); hidden = offset(.hidden); doubleSided = offset(.doubleSided)
    }
}

/// Facts about one compiled animation, for lookups by name.
public struct AnimationInfo: Hashable, Sendable {
    /// Stable id within the timeline.
    public let id: Int
    public let layer: Int
    /// The animation's path from its layer: `looping` or `looping/strokeEnd`.
    public let path: String
    /// The ids of the groups containing it, outermost first.
    public let ancestors: [Int]
    public let timing: Timing
}

/// An evaluable timeline: a composition compiled for sampling at any time.
///
/// Build it once from the IR (or from a loaded timeline JSON), then call
/// ``evaluate(at:into:)`` as often as needed: it allocates nothing. ``state(at:)`` is
/// the convenient allocating form. Immutable and `Sendable`: one timeline can serve
/// many threads, each with its own ``SceneState``.
public struct Timeline: Sendable {
    public let composition: Composition
    let layers: [RuntimeLayer]
    let model: [Double]
    var symbols: SymbolTable
    let hintCount: Int
    let scratchWidth: Int
    public let animations: [AnimationInfo]
    /// The layers' animations laid out for per-frame evaluation.
    let plan: FlatPlan

    public init(_ composition: Composition) {
        var builder = TimelineBuilder(composition)
        builder.build()
        self.composition = composition
        layers = builder.layers
        model = builder.model
        symbols = builder.symbols
        hintCount = builder.hintCount
        scratchWidth = max(builder.scratchWidth, 16)
        animations = builder.infos
        plan = FlatPlan(builder.layers, model: builder.model)
    }

    public var layerCount: Int { layers.count }

    /// The index of the layer with id `id` (`grid.tile[3,4]`).
    public func layerIndex(_ id: String) -> Int? { layers.firstIndex { $0.id == id } }

    /// A fresh state, sized for this timeline. Reuse it across samples.
    public func makeState() -> SceneState {
        SceneState(valueCount: model.count, layerCount: layers.count, hintCount: hintCount, scratch: scratchWidth,
                   nodeCount: plan.nodes.count)
    }

    /// The whole scene at time `t` (seconds of composition time).
    public func state(at t: Double) -> SceneState {
        var s = makeState()
        evaluate(at: t, into: &s)
        return s
    }
}

/// Compiles the IR into slots and tracks.
struct TimelineBuilder {
    let composition: Composition
    var layers: [RuntimeLayer] = []
    var model: [Double] = []
    var symbols = SymbolTable()
    var hintCount = 0
    var scratchWidth = 16
    var infos: [AnimationInfo] = []
    var nextID = 0

    init(_ c: Composition) { composition = c }

    mutating func build() {
        for (i, layer) in composition.layers.enumerated() {
            let start = model.count
            var slots = [Slot?](repeating: nil, count: PropertyID.allCases.count)
            let applicable = PropertyTable.properties.filter { $0.applies(to: layer.kind) }
            for info in applicable {
                let modelValue = layer.modelValue(info.id)
                var encoded = symbols.encode(modelValue)
                let capacity = max(encoded.count, maxAnimatedWidth(info.id, layer.animations))
                encoded += [Double](repeating: 0, count: capacity - encoded.count)
                slots[info.id.index] = Slot(offset: model.count, width: capacity)
                model += encoded
            }
            var runtimeLayer = RuntimeLayer(index: i, id: layer.id, kind: layer.kind, parent: layer.parent, isMask: layer.isMask,
                                            slots: slots, range: start..<model.count,
                                            clock: LayerClock(layer.timing), flattensSublayers: layer.kind != .transformLayer)
            runtimeLayer.geometry = GeometryOffsets { slots[$0.index] }
            layers.append(runtimeLayer)
            if let parent = layer.parent, parent >= 0, parent < i { layers[parent].hasSublayers = true }
        }
        for (i, layer) in composition.layers.enumerated() {
            var compiled: [RuntimeAnimation] = []
            for animation in layer.animations {
                if let a = compile(animation, layer: i, topLevel: true, previous: compiled, ancestors: [], pathPrefix: "",
                                   startsAt: animation.timing.beginTime) {
                    compiled.append(a)
                }
            }
            layers[i].animations = compiled
            layers[i].written = TimelineBuilder.writtenRanges(compiled)
        }
    }

    /// The buffer ranges a layer's animations write, merged.
    static func writtenRanges(_ animations: [RuntimeAnimation]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        func visit(_ a: RuntimeAnimation) {
            switch a.body {
            case .group(let children): children.forEach(visit)
            case .property(let track):
                switch track.target {
                case .vector(let slot), .motion(let slot): ranges.append(slot.offset..<(slot.offset + slot.width))
                case .matrix(let offset), .matrixComponent(let offset, _): ranges.append(offset..<(offset + 16))
                }
            }
        }
        animations.forEach(visit)
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in ranges {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The widest encoded value any animation writes to `property` whole (lists and
    /// paths may be longer than the model value).
    func maxAnimatedWidth(_ property: PropertyID, _ animations: [Animation]) -> Int {
        var w = 0
        var copy = symbols
        func visit(_ a: Animation) {
            switch a.kind {
            case .group(let children): children.forEach(visit)
            case .property(let p) where p.target.property == property && p.target.component == nil:
                switch p.content {
                case .basic(let f, let t), .spring(let f, let t, _):
                    for v in [f, t] { if case .value(let x) = v { w = max(w, copy.encode(x).count) } }
                case .keyframes(let k): for v in k.values { w = max(w, copy.encode(v).count) }
                case .decay(let f, let v, _):
                    w = max(w, copy.encode(v).count)
                    if case .value(let x) = f { w = max(w, copy.encode(x).count) }
                case .motion: w = max(w, 2)
                }
            default: break
            }
        }
        animations.forEach(visit)
        return w
    }

    /// `previous`: what is below this animation on the layer, for `presentation` ends:
    /// the animations added before it and, inside a group, the group's earlier children
    /// (as a group with its timing). `startsAt`: when it starts, in layer time, where a
    /// `presentation` end is read.
    mutating func compile(_ a: Animation, layer: Int, topLevel: Bool, previous: [RuntimeAnimation], ancestors: [Int],
                          pathPrefix: String, startsAt: Double) -> RuntimeAnimation? {
        let id = nextID
        nextID += 1
        let path = pathPrefix.isEmpty ? a.name : pathPrefix + "/" + a.name
        infos.append(AnimationInfo(id: id, layer: layer, path: path, ancestors: ancestors, timing: a.timing))
        let timing = MediaTiming(a.timing, topLevel: topLevel)
        let tf = CompiledTimingFunction(a.timing.timingFunction, duration: timing.duration)
        switch a.kind {
        case .group(let children):
            var compiled: [RuntimeAnimation] = []
            for child in children {
                // Below a child: what is below the group, then the group's earlier children.
                let siblings = RuntimeAnimation(id: id, name: a.name, timing: timing, timingFunction: tf, body: .group(compiled))
                let start = Self.layerTime(ofGroupTime: child.timing.beginTime, group: a.timing, groupStart: startsAt)
                if let c = compile(child, layer: layer, topLevel: false, previous: previous + [siblings], ancestors: ancestors + [id],
                                   pathPrefix: path, startsAt: start) {
                    compiled.append(c)
                }
            }
            return RuntimeAnimation(id: id, name: a.name, timing: timing, timingFunction: tf, body: .group(compiled))
        case .property(let p):
            // Code that adds an animation with `fromValue = layer.presentation()...` reads
            // the value just before add(_:forKey:): at the add time, with the animation it
            // replaces under the same key still showing (issue 49: it read the model value).
            let readsAt = topLevel && a.timing.added.isFinite ? a.timing.added : startsAt
            let below = topLevel && a.timing.added.isFinite
                ? previous.map { $0.timing.replaced == a.timing.added ? $0.notReplaced() : $0 } : previous
            guard let track = compileTrack(p, a.timing, layer: layer, previous: below, startsAt: readsAt) else { return nil }
            return RuntimeAnimation(id: id, name: a.name, timing: timing, timingFunction: tf, body: .property(track))
        }
    }

    /// The slot and value type that a target writes.
    func target(_ t: AnimationTarget, layer: Int, isMotion: Bool) -> (TrackTarget, ValueType)? {
        let type = PropertyTable.type(of: t)
        if isMotion {
            guard let slot = layers[layer].slot(t.property) else { return nil }
            return (.motion(position: Slot(offset: slot.offset, width: 2)), .point)
        }
        return TargetResolver(layers: layers).target(t, layer: layer).map { ($0, type) }
    }

    /// The layer time of a group's local time `g` in its first cycle: where a child that
    /// begins at `g` starts (the group's timing function, which warps its children's
    /// clock, is not inverted: exact at the group's start and for linear groups).
    static func layerTime(ofGroupTime g: Double, group: Timing, groupStart: Double) -> Double {
        guard group.speed != 0, g.isFinite else { return groupStart }
        return groupStart + (g - group.timeOffset) / group.speed
    }

    mutating func compileTrack(_ p: PropertyAnimation, _ timing: Timing, layer: Int, previous: [RuntimeAnimation],
                               startsAt: Double) -> RuntimeTrack? {
        let isMotion: Bool
        if case .motion = p.content { isMotion = true } else { isMotion = false }
        guard let (target, type) = target(p.target, layer: layer, isMotion: isMotion) else { return nil }
        let hint = hintCount
        hintCount += 1
        let duration = timing.duration
        let isMatrix: Bool
        switch target {
        case .matrix: isMatrix = true
        default: isMatrix = false
        }
        func resolve(_ v: AnimatedValue) -> [Double] {
            resolveValue(v, target: p.target, layer: layer, at: startsAt, previous: previous)
        }
        func transformOf(_ d: [Double]) -> Transform {
            Transform([.matrix(M4(d).matrix4)])
        }
        let content: TrackContent
        switch p.content {
        case .basic(let from, let to):
            if isMatrix {
                content = .matrix(TransformKeyframes([transformValue(from, p, layer, startsAt, previous), transformValue(to, p, layer, startsAt, previous)],
                                                     keyTimes: [0, 1], segmentTiming: [], mode: .linear, interpolation: p.transformInterpolation))
            } else {
                let a = resolve(from), b = resolve(to)
                guard a.count == b.count else { return nil }
                content = .vector(VectorKeyframes(width: a.count, values: a + b, keyTimes: [0, 1], segmentTiming: [], mode: .linear))
            }
        case .keyframes(let k):
            let segmentTiming = k.timingFunctions.enumerated().map { i, f -> CompiledTimingFunction in
                let times = k.keyTimes ?? []
                let span = i + 1 < times.count ? (times[i + 1] - times[i]) * duration : duration
                return CompiledTimingFunction(f, duration: span)
            }
            if isMatrix {
                let transforms = k.values.map { v -> Transform in if case .transform(let t) = v { return t } else { return .identity } }
                content = .matrix(TransformKeyframes(transforms, keyTimes: k.keyTimes, segmentTiming: segmentTiming, mode: k.calculationMode,
                                                     interpolation: p.transformInterpolation))
            } else {
                let encoded = k.values.map { symbols.encode($0) }
                let width = encoded.first?.count ?? 0
                guard encoded.allSatisfy({ $0.count == width }) else { return nil }
                content = .vector(VectorKeyframes(width: width, values: encoded.flatMap { $0 }, keyTimes: k.keyTimes,
                                                  segmentTiming: segmentTiming, mode: k.calculationMode,
                                                  tension: k.tension, continuity: k.continuity, bias: k.bias,
                                                  interpolates: type.interpolates))
            }
        case .motion(let m):
            content = .motion(MotionTrack(m, duration: duration))
        case .spring(let from, let to, let parameters):
            let solution = SpringSolution(parameters)
            if isMatrix {
                content = .springMatrix(Sprung(solution, TransformKeyframes(
                    [transformValue(from, p, layer, startsAt, previous), transformValue(to, p, layer, startsAt, previous)],
                    keyTimes: [0, 1], segmentTiming: [], mode: .linear, interpolation: p.transformInterpolation)))
            } else {
                let a = resolve(from), b = resolve(to)
                guard a.count == b.count else { return nil }
                content = .springVector(Sprung(solution, VectorKeyframes(width: a.count, values: a + b, keyTimes: [0, 1],
                                                                         segmentTiming: [], mode: .linear)))
            }
        case .decay(let from, let velocity, let rate):
            let a = resolve(from)
            let v = symbols.encode(velocity)
            guard a.count == v.count, !isMatrix else { return nil }
            content = .decay(DecayTrack(from: a, velocity: v, rate: rate))
        }
        let end: [Double]
        switch content {
        case .vector(let k): end = k.endValue
        case .springVector(let s): end = s.keys.endValue
        case .matrix(let k): end = k.matrices.last?.array ?? M4.identity.array
        case .springMatrix(let s): end = s.keys.matrices.last?.array ?? M4.identity.array
        case .decay(let d):
            let x = Decay.displacement(at: duration, rate: d.rate)
            end = zip(d.from, d.velocity).map { $0 + $1 * x }
        case .motion(let m):
            let last = m.path.segments.last?.endPoint ?? Point(0, 0)
            end = [last.x, last.y]
        }
        scratchWidth = max(scratchWidth, end.count, 16)
        return RuntimeTrack(target: target, additive: p.additive, cumulative: p.cumulative, content: content,
                            endValue: end, hintIndex: hint)
    }

    /// A transform end as a function list when it is one (so matching lists interpolate
    /// function by function), or the resolved matrix of `model`/`presentation`.
    mutating func transformValue(_ v: AnimatedValue, _ p: PropertyAnimation, _ layer: Int, _ startsAt: Double,
                                 _ previous: [RuntimeAnimation]) -> Transform {
        switch v {
        case .value(.transform(let t)): return t
        case .model:
            if case .transform(let t) = composition.layers[layer].modelValue(p.target.property) { return t }
            return .identity
        case .modelPlus(.transform(let t)):
            if case .transform(let m) = composition.layers[layer].modelValue(p.target.property) {
                return Transform(m.functions + t.functions)
            }
            return t
        default:
            let d = resolveValue(v, target: p.target, layer: layer, at: startsAt, previous: previous)
            return d.count == 16 ? Transform([.matrix(M4(d).matrix4)]) : .identity
        }
    }

    /// Encodes a start or end value: a literal, the model value (of the targeted
    /// component), the model value plus an offset, or the presentation value just
    /// before `beginTime` given the animations added before this one.
    mutating func resolveValue(_ v: AnimatedValue, target: AnimationTarget, layer: Int, at begin: Double,
                               previous: [RuntimeAnimation]) -> [Double] {
        switch v {
        case .value(let x):
            return symbols.encode(x)
        case .model:
            return modelComponent(target, layer: layer)
        case .modelPlus(let offset):
            let base = modelComponent(target, layer: layer)
            let add = symbols.encode(offset)
            return zip(base, add).map(+)
        case .presentation:
            var partial = layers[layer]
            partial.animations = previous
            var state = SceneState(valueCount: model.count, layerCount: layers.count, hintCount: hintCount, scratch: max(scratchWidth, 64))
            state.values = model
            state.withBuffers { b in
                Evaluator.evaluateAnimations(partial, layerTime: begin, b, linearOverride: nil)
            }
            let values = state.values
            return component(target, of: values, layer: layer)
        }
    }

    mutating func modelComponent(_ target: AnimationTarget, layer: Int) -> [Double] {
        if target.component == nil, PropertyTable.info(target.property).type != .transform {
            return symbols.encode(composition.layers[layer].modelValue(target.property))
        }
        return component(target, of: model, layer: layer)
    }

    /// Reads a target's value (a whole property or one component) from a buffer.
    func component(_ target: AnimationTarget, of buffer: [Double], layer: Int) -> [Double] {
        guard let (t, _) = self.target(target, layer: layer, isMotion: false) else { return [] }
        switch t {
        case .vector(let s), .motion(let s):
            let width = target.component == nil
                ? symbols.actualWidth(PropertyTable.info(target.property).type, buffer, s.offset, s.width) : s.width
            return Array(buffer[s.offset..<(s.offset + width)])
        case .matrix(let o): return Array(buffer[o..<(o + 16)])
        case .matrixComponent(let o, let c):
            return TransformComponents.read(c, from: M4(Array(buffer[o..<(o + 16)])))
        }
    }
}
