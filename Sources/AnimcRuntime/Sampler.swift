import AnimcIR

/// Samples one number-valued key path of one layer, frame after frame: the fast path
/// for a renderer that drives a single property (or for benchmarks). Sampling
/// increasing times resumes keyframe lookups where the last sample left them.
///
/// When the layer's only animation is a plain keyframe or basic animation of the key
/// path, samples go straight through timing, the timing functions and the keyframes;
/// otherwise the layer's animations are evaluated as in ``Timeline/evaluate(at:into:)``.
/// Both give the same values.
public struct PropertySampler {
    private let timeline: Timeline
    private let layer: RuntimeLayer
    private let offset: Int
    private let modelValue: Double
    // The direct path's parts are separate stored properties, not an optional tuple:
    // unwrapping a tuple that holds the keyframes' arrays costs a retain and release
    // of each array per sample, which was most of the sampler's overhead.
    private let isDirect: Bool
    private let directTiming: MediaTiming
    private let directFunction: CompiledTimingFunction
    private let directKeys: VectorKeyframes
    private var hint = 0
    private var state: SceneState

    init?(_ timeline: Timeline, layer index: Int, keyPath: String) {
        guard index >= 0, index < timeline.layers.count, let info = PropertyTable.keyPath(keyPath),
              case .vector(let slot)? = TargetResolver(layers: timeline.layers).target(info.target, layer: index), slot.width == 1
        else { return nil }
        self.timeline = timeline
        layer = timeline.layers[index]
        offset = slot.offset
        modelValue = timeline.model[slot.offset]
        state = timeline.makeState()
        if layer.clock.timing.isIdentity, layer.parent == nil, layer.animations.count == 1,
           case .property(let track) = layer.animations[0].body,
           case .vector(let k) = track.content, k.width == 1, !track.additive, !track.cumulative,
           case .vector(let target) = track.target, target.offset == slot.offset {
            (isDirect, directTiming, directFunction, directKeys) = (true, layer.animations[0].timing, layer.animations[0].timingFunction, k)
        } else {
            isDirect = false
            directTiming = MediaTiming(Timing(duration: 1), topLevel: true)
            directFunction = .linear
            directKeys = VectorKeyframes(width: 1, values: [], keyTimes: nil, segmentTiming: [], mode: .linear)
        }
    }

    /// The value at composition time `t`.
    @inline(__always)
    public mutating func value(at t: Double) -> Double {
        if isDirect {
            let sample = directTiming.sample(t)
            if sample.phase == .absent { return modelValue }
            let before = sample.phase == .fillingBackwards
            return directKeys.scalar(directFunction.apply(sample.progress, before: before), hint: &hint, before: before)
        }
        timeline.evaluate(at: t, into: &state)
        return state.values[offset]
    }
}

extension Timeline {
    /// A sampler for a number-valued key path (`opacity`, `position.x`,
    /// `transform.rotation.z` is not one: it writes a matrix) of layer `layer`.
    public func sampler(layer: Int, keyPath: String) -> PropertySampler? {
        PropertySampler(self, layer: layer, keyPath: keyPath)
    }
}
