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
///
/// Instants are compared as the author wrote them: a time that differs from the
/// beginning, the end or a cycle boundary only by the rounding of the subtraction
/// (`1.3 − 1.0` is `0.30000000000000004`, past a duration of `0.3`) counts as that
/// boundary. Without this, `eval --at 1.3` and a hand-off written to begin at 1.3 saw
/// an animation from 1.0 lasting 0.3 as already over.
public struct MediaTiming: Hashable, Sendable {
    public let beginTime: Double
    public let duration: Double
    public let speed: Double
    public let timeOffset: Double
    public let activeDuration: Double
    public let autoreverses: Bool
    public let fillsBackwards: Bool
    public let fillsForwards: Bool
    /// When it is added to its layer and replaced there (`Timing.added`, `.replaced`).
    public let added: Double
    public private(set) var replaced: Double
    /// One pass from the parent's zero at normal speed (an animation inside a group,
    /// typically): inside the pass, parent time is the pass time.
    let isPlain: Bool

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
        added = t.added
        replaced = t.replaced
        isPlain = beginTime == 0 && speed == 1 && timeOffset == 0 && !autoreverses && activeDuration == duration
            && added == -.infinity && replaced == .infinity
    }

    /// The same timing without its replacement (``isPlain`` stays false: a fast path
    /// is not taken, nothing else changes).
    var notReplaced: MediaTiming {
        var copy = self
        copy.replaced = .infinity
        return copy
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

    /// Where the active interval ends in the parent's time (a negative speed ends at the
    /// beginTime); nil when it never ends (speed 0, infinite repeats).
    var endInParent: Double? {
        guard speed != 0, activeDuration.isFinite else { return nil }
        return speed > 0 ? beginTime + activeDuration / speed : beginTime
    }

    /// One cycle: a pass, or two with `autoreverses`.
    var cycleLength: Double { autoreverses ? 2 * duration : duration }

    /// How far from a boundary rounding can put `tau` or the local time: a few ulps of
    /// the magnitudes that went into them.
    @inline(__always)
    func roundingTolerance(_ tp: Double) -> Double {
        8 * Double.ulpOfOne * (abs(tp) + abs(beginTime) + abs(timeOffset) + duration) * Swift.max(1, abs(speed))
    }

    @inline(__always)
    public func sample(_ tp: Double) -> Sample {
        let tolerance = roundingTolerance(tp)
        // Strictly inside a plain pass, away from both ends by more than the rounding
        // tolerance, every step below is the identity: the same bits, without the
        // wrapping and rounding.
        if isPlain && tp > tolerance && tp < duration && abs(tp - duration) > tolerance {
            return Sample(phase: .active, passTime: tp, progress: tp / duration, cycle: 0)
        }
        // Before it is added or after it is replaced it does not exist, fill or not.
        if added != -.infinity || replaced != .infinity {
            let exists = (tp >= added || added - tp <= tolerance) && tp < replaced && replaced - tp > tolerance
            if !exists { return Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0) }
        }
        var tau = speed == 0 ? 0 : (tp - beginTime) * speed
        if tau < 0 && tau >= -tolerance { tau = 0 }
        // On either side of the end by rounding is the end, which shows the end state.
        if abs(tau - activeDuration) <= tolerance { tau = activeDuration }
        let phase: AnimationPhase
        var local: Double
        var leftLimit = false
        if speed < 0 && activeDuration == .infinity {
            // Plays backwards forever from its beginTime (`Timing.playsBackwardsForever`):
            // before it, it waits as a forward animation does; from it on, the local time
            // runs below zero and wraps into the cycle, so the content plays backwards.
            if tau > tolerance {
                guard fillsBackwards else { return Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0) }
                return pass(timeOffset - cycleLength * roundedDown(timeOffset / cycleLength), leftLimit: false,
                            phase: .fillingBackwards, tolerance: tolerance)
            }
            local = Swift.min(tau, 0) + timeOffset
            return pass(local - cycleLength * roundedDown(local / cycleLength), leftLimit: false, phase: .active, tolerance: tolerance)
        }
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
                local = local - activeDuration * (roundedUp(local / activeDuration) - 1)
            } else {
                local = local - activeDuration * roundedDown(local / activeDuration)
            }
        } else if local < 0 {
            local = local - cycleLength * roundedDown(local / cycleLength)
        }
        return pass(local, leftLimit: leftLimit, phase: phase, tolerance: tolerance)
    }

    /// Splits a wrapped active time into the pass index and the time within the pass.
    @inline(__always)
    func pass(_ time: Double, leftLimit: Bool, phase: AnimationPhase, tolerance: Double = 0) -> Sample {
        var t = time
        var q = t / duration
        // Just below a cycle boundary by rounding is on it: the next pass starts there.
        let nearest = roundedToNearest(q)
        if !leftLimit && abs(t - nearest * duration) <= tolerance {
            t = nearest * duration
            q = t / duration
        }
        var k = leftLimit ? roundedUp(q) - 1 : roundedDown(q)
        if k < 0 { k = 0 }
        var within = t - k * duration
        if within > duration { within = duration }
        var cycle = k
        if autoreverses {
            let odd = k.truncatingRemainder(dividingBy: 2) != 0
            if odd { within = duration - within }
            cycle = roundedDown(k / 2)
        }
        return Sample(phase: phase, passTime: within, progress: within / duration, cycle: cycle)
    }
}

/// A layer's clock: its parent's time to its own (``LayerTiming``). Without a duration
/// that is one affine map; with one, the layer's time runs through passes as an
/// animation's does, and holds at the nearest end outside its active duration.
struct LayerClock: Sendable {
    let timing: LayerTiming
    let passes: MediaTiming?

    init(_ timing: LayerTiming) {
        self.timing = timing
        passes = timing.passes.map { MediaTiming($0, topLevel: false) }
    }

    @inline(__always)
    func local(_ parent: Double) -> Double {
        if let passes { return passes.sample(parent).passTime }
        return (parent - timing.beginTime) * timing.speed + timing.timeOffset
    }

    /// The parent time at which the layer's time is `t`, when one affine map gives it
    /// (no passes, speed not 0).
    func parent(ofLocal t: Double) -> Double? {
        guard passes == nil, timing.speed != 0 else { return nil }
        return (t - timing.timeOffset) / timing.speed + timing.beginTime
    }
}
