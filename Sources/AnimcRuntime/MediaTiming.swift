import AnimcIR

/// Whether an animation contributes at a time, and how.
public enum AnimationPhase: String, Hashable, Sendable {
    /// Inside its active interval.
    case active
    /// Before it begins, showing its first value (`fillMode` backwards or both).
    case fillingBackwards
    /// After it ends, holding its last value (`fillMode` forwards or both, and not removed).
    case fillingForwards
    /// Contributing nothing: before or after without fill, or removed on completion.
    case absent
}

/// Core Animation's media timing for one animation or group, compiled.
///
/// The mapping from parent time `tp` to basic local time follows semantics.md §1–4:
/// `tau = (tp − beginTime)·speed` decides the phase; `tau + timeOffset` wraps within the
/// active duration; a cycle index selects forward or reversed passes. At exactly the
/// end the end state shows (end-inclusive), and a frozen value is the limit from
/// below, so a timeOffset never makes the fill jump to the start.
public struct MediaTiming: Hashable, Sendable {
    public let beginTime: Double
    public let duration: Double
    public let speed: Double
    public let timeOffset: Double
    public let activeDuration: Double
    public let autoreverses: Bool
    public let fillsBackwards: Bool
    public let fillsForwards: Bool

    /// - Parameter topLevel: whether the animation is attached to a layer directly;
    ///   inside a group `removedOnCompletion` is ignored, so forwards fills always hold.
    public init(_ t: Timing, topLevel: Bool) {
        beginTime = t.beginTime
        duration = t.duration > 0 ? t.duration : 0.25
        speed = t.speed
        timeOffset = t.timeOffset
        let cycle = t.autoreverses ? 2 * duration : duration
        if t.repeatDuration > 0 {
            activeDuration = t.repeatDuration
        } else if t.repeatCount > 0 {
            activeDuration = t.repeatCount >= Double(Float.greatestFiniteMagnitude) ? .infinity : t.repeatCount * cycle
        } else {
            activeDuration = cycle
        }
        autoreverses = t.autoreverses
        fillsBackwards = t.fillMode.fillsBackwards
        fillsForwards = t.fillMode.fillsForwards && (!topLevel || !t.removedOnCompletion)
    }

    /// Where the animation is at parent time `tp`.
    public struct Sample: Hashable, Sendable {
        public var phase: AnimationPhase
        /// Seconds into the current pass, in [0, duration] (reversed passes already mirrored).
        public var passTime: Double
        /// Progress through the pass, passTime / duration, before the timing function.
        public var progress: Double
        /// Completed repeat cycles, for `cumulative`.
        public var cycle: Double
    }

    @inline(__always)
    public func sample(_ tp: Double) -> Sample {
        let tau = speed == 0 ? 0 : (tp - beginTime) * speed
        let phase: AnimationPhase
        var local: Double
        var leftLimit = false
        if tau < 0 {
            guard fillsBackwards else { return Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0) }
            phase = .fillingBackwards
            local = timeOffset
        } else if tau > activeDuration {
            guard fillsForwards else { return Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0) }
            phase = .fillingForwards
            local = activeDuration + timeOffset
            leftLimit = true
        } else {
            phase = .active
            local = tau + timeOffset
            leftLimit = tau == activeDuration
        }
        if activeDuration.isFinite && activeDuration > 0 {
            if leftLimit {
                // The end state is the limit from below: map into (0, AD].
                local = local - activeDuration * ((local / activeDuration).rounded(.up) - 1)
            } else {
                local = local - activeDuration * (local / activeDuration).rounded(.down)
            }
        } else if local < 0 {
            let cycle = autoreverses ? 2 * duration : duration
            local = local - cycle * (local / cycle).rounded(.down)
        }
        return pass(local, leftLimit: leftLimit, phase: phase)
    }

    /// Splits a wrapped active time into the pass index and the time within the pass.
    @inline(__always)
    func pass(_ t: Double, leftLimit: Bool, phase: AnimationPhase) -> Sample {
        var k = leftLimit ? (t / duration).rounded(.up) - 1 : (t / duration).rounded(.down)
        if k < 0 { k = 0 }
        var within = t - k * duration
        if within > duration { within = duration }
        var cycle = k
        if autoreverses {
            let odd = k.truncatingRemainder(dividingBy: 2) != 0
            if odd { within = duration - within }
            cycle = (k / 2).rounded(.down)
        }
        return Sample(phase: phase, passTime: within, progress: within / duration, cycle: cycle)
    }
}
