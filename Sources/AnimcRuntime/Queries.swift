import AnimcIR

/// How a fraction of an animation maps to what it shows.
public enum ScrubMode: String, Sendable, CaseIterable {
    /// As at that moment in real time: the animation's timing function applies, so
    /// fraction 0.25 of an ease-in-ease-out animation shows progress 0.129.
    case timing
    /// The fraction is the progress, as UIViewPropertyAnimator shows while paused and
    /// scrubbed (`scrubsLinearly`).
    case linear
}

extension Timeline {
    /// The presentation value of `keyPath` (a property or a key path such as
    /// `transform.rotation.z` or `position.x`) of layer `layer` in `state`. Whole
    /// transforms come back as a matrix. Nil when the layer lacks the property.
    public func value(_ keyPath: String, layer: Int, in state: SceneState) -> Value? {
        guard let info = PropertyTable.keyPath(keyPath) else { return nil }
        return value(info, layer: layer, in: state)
    }

    /// ``value(_:layer:in:)`` of a key path already looked up in the property table (a
    /// backend reading every layer at every frame asks by ``KeyPathInfo``, not by text).
    public func value(_ info: KeyPathInfo, layer: Int, in state: SceneState) -> Value? {
        guard layer >= 0, layer < layers.count else { return nil }
        let builder = TargetResolver(layers: layers)
        guard let target = builder.target(info.target, layer: layer) else { return nil }
        return state.values.withUnsafeBufferPointer { buffer -> Value? in
            switch target {
            case .vector(let slot), .motion(let slot):
                let width = info.target.component == nil
                    ? symbols.actualWidth(info.type, state.values, slot.offset, slot.width) : slot.width
                return symbols.decode(info.type, UnsafeBufferPointer(rebasing: buffer[slot.offset..<(slot.offset + width)]))
            case .matrix(let o):
                return symbols.decode(.transform, UnsafeBufferPointer(rebasing: buffer[o..<(o + 16)]))
            case .matrixComponent(let o, let c):
                let slotIndex = layer * 2 + (layers[layer].slot(.sublayerTransform)?.offset == o ? 1 : 0)
                if state.lastComponent[slotIndex] == TransformComponents.ordinal(c) {
                    return .number(state.lastComponentValue[slotIndex])
                }
                let parts = TransformComponents.read(c, from: M4(Array(buffer[o..<(o + 16)])))
                return parts.count == 2 ? .size(Size(parts[0], parts[1])) : .number(parts[0])
            }
        }
    }

    /// The value of `keyPath` on the layer with id `layer` at time `t`.
    public func value(_ keyPath: String, layer: String, at t: Double) -> Value? {
        guard let i = layerIndex(layer) else { return nil }
        return value(keyPath, layer: i, in: state(at: t))
    }

    /// The heading a motion animation gives layer `layer` in `state` (radians; 0 without one).
    public func motionAngle(ofLayer layer: Int, in state: SceneState) -> Double { state.angles[layer] }

    /// Animations whose path (`looping/strokeEnd`) or last name (`strokeEnd`) is `name`,
    /// on the layer with id `layer` if given.
    public func animations(named name: String, layer: String? = nil) -> [AnimationInfo] {
        animations.filter { info in
            (layer == nil || layers[info.layer].id == layer)
                && (info.path == name || info.path.split(separator: "/").last.map(String.init) == name
                    || "\(layers[info.layer].id)/\(info.path)" == name)
        }
    }

    /// The id of the layer an animation is attached to.
    public func layerID(ofAnimation id: Int) -> String { layers[animations[id].layer].id }

    /// Whether animation `id` is active, filling or absent at composition time `t`.
    public func phase(ofAnimation id: Int, at t: Double) -> AnimationPhase {
        guard let (chain, layer) = chain(id) else { return .absent }
        return phases(chain, layer: layer, at: t).own
    }

    /// The innermost animation's own phase at composition time `t`, walking down its
    /// chain of groups, and the phase of the outermost group that is filling there
    /// (nil when every group is active). Any absent group makes the animation absent.
    func phases(_ chain: [RuntimeAnimation], layer: Int, at t: Double) -> (own: AnimationPhase, frozen: AnimationPhase?) {
        var time = layerTime(layer, at: t)
        var frozen: AnimationPhase?
        for (k, a) in chain.enumerated() {
            let sample = a.timing.sample(time)
            if sample.phase == .absent || k == chain.count - 1 { return (sample.phase, frozen) }
            if sample.phase != .active && frozen == nil { frozen = sample.phase }
            time = a.timing.duration * a.timingFunction.apply(sample.progress, before: sample.phase == .fillingBackwards)
        }
        return (.absent, frozen)
    }

    /// Composition time at which animation `id` shows fraction `f` of its duration (in
    /// its first pass), or nil when that time cannot be found (a zero speed anywhere on
    /// the way, or a group timing function that cannot be inverted).
    public func time(atFraction f: Double, ofAnimation id: Int) -> Double? {
        guard let (chain, layer) = chain(id) else { return nil }
        // Walk outwards: the local time wanted in each animation gives the parent time
        // at which it is shown, which is the local time wanted in the enclosing group.
        var wanted = f * chain[chain.count - 1].timing.duration
        for index in stride(from: chain.count - 1, through: 0, by: -1) {
            let timing = chain[index].timing
            guard timing.speed != 0 else { return nil }
            var tau = wanted - timing.timeOffset
            if timing.activeDuration.isFinite && timing.activeDuration > 0 {
                tau -= timing.activeDuration * (tau / timing.activeDuration).rounded(.down)
            } else if tau < 0 {
                let cycle = timing.autoreverses ? 2 * timing.duration : timing.duration
                tau -= cycle * (tau / cycle).rounded(.down)
            }
            let parentTime = timing.beginTime + tau / timing.speed
            if index == 0 { return rootTime(layer, fromLayerTime: parentTime) }
            // The enclosing group shows `parentTime` when its warped progress reaches it.
            let group = chain[index - 1]
            guard let progress = invert(group.timingFunction, parentTime / group.timing.duration) else { return nil }
            wanted = progress * group.timing.duration
        }
        return nil
    }

    /// The scene at fraction `f` of animation `id`; with ``ScrubMode/linear`` that
    /// animation's timing function is bypassed so the fraction is its progress.
    public func state(atFraction f: Double, ofAnimation id: Int, scrub: ScrubMode) -> SceneState? {
        guard let t = time(atFraction: f, ofAnimation: id) else { return nil }
        var s = makeState()
        evaluate(at: t, into: &s, linearOverride: scrub == .linear ? id : nil)
        return s
    }

    // MARK: Helpers

    /// The animations from the layer down to `id`, outermost first.
    func chain(_ id: Int) -> ([RuntimeAnimation], Int)? {
        guard id >= 0, id < animations.count else { return nil }
        let info = animations[id]
        var list = layers[info.layer].animations
        var result: [RuntimeAnimation] = []
        for wanted in info.ancestors + [id] {
            guard let a = list.first(where: { $0.id == wanted }) else { return nil }
            result.append(a)
            if case .group(let children) = a.body { list = children } else { list = [] }
        }
        return (result, info.layer)
    }

    /// A layer's time at composition time `t`: the root's clock first, down to the
    /// layer's. The ancestors are listed in temporary (stack) storage, not an array per
    /// call (the chart asks this per sample), and not by recursion: a loaded timeline's
    /// layers may nest as deep as it has layers.
    func layerTime(_ layer: Int, at t: Double) -> Double {
        var depth = 0
        var current: Int? = layer
        while let c = current { depth += 1; current = layers[c].parent }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: depth) { chain in
            var i = depth
            current = layer
            while let c = current { i -= 1; chain[i] = c; current = layers[c].parent }
            var time = t
            for c in chain { time = layers[c].clock.local(time) }
            return time
        }
    }

    /// When what a layer shows stops changing, in composition time, given that its
    /// animations stop at layer time `t`: `t` mapped up through the layers' clocks, except
    /// that a layer with passes replays its animations every pass and so changes until
    /// its own active duration ends. Nil when that never happens.
    func settledTime(_ layer: Int, fromLayerTime t: Double) -> Double? {
        var time = t
        var current: Int? = layer
        while let c = current {
            let clock = layers[c].clock
            if let passes = clock.passes {
                guard let end = passes.endInParent else { return nil }
                time = end
            } else {
                guard let parent = clock.parent(ofLocal: time) else { return nil }
                time = parent
            }
            current = layers[c].parent
        }
        return time
    }

    func rootTime(_ layer: Int, fromLayerTime t: Double) -> Double? {
        var time = t
        var current: Int? = layer
        while let c = current {
            guard let parent = layers[c].clock.parent(ofLocal: time) else { return nil }
            time = parent
            current = layers[c].parent
        }
        return time
    }

    /// x with f(x) = y for a monotone timing function, by bisection.
    func invert(_ f: CompiledTimingFunction, _ y: Double) -> Double? {
        if f.isLinear { return y }
        var lo = 0.0, hi = 1.0
        guard f.apply(lo) <= y + 1e-12, f.apply(hi) >= y - 1e-12 else { return nil }
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if f.apply(mid) < y { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}

/// Maps key paths to slots for queries, with the same rules the builder uses.
struct TargetResolver {
    let layers: [RuntimeLayer]

    func target(_ t: AnimationTarget, layer: Int) -> TrackTarget? {
        guard let slot = layers[layer].slot(t.property) else { return nil }
        let info = PropertyTable.info(t.property)
        guard let c = t.component else {
            return info.type == .transform ? .matrix(offset: slot.offset) : .vector(slot)
        }
        if info.type == .transform { return .matrixComponent(offset: slot.offset, component: c) }
        switch c {
        case .x, .originX: return .vector(Slot(offset: slot.offset, width: 1))
        case .y, .originY: return .vector(Slot(offset: slot.offset + 1, width: 1))
        case .width: return .vector(Slot(offset: slot.offset + (info.type == .rect ? 2 : 0), width: 1))
        case .height: return .vector(Slot(offset: slot.offset + (info.type == .rect ? 3 : 1), width: 1))
        case .origin: return .vector(Slot(offset: slot.offset, width: 2))
        case .size: return .vector(Slot(offset: slot.offset + 2, width: 2))
        default: return nil
        }
    }
}
