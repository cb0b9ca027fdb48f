import AnimcBase

/// Where an animation is active, on its parent's timeline (its layer's time, or its
/// group's time for a child): the same rule the runtime applies (semantics.md §2–3),
/// computed with ``ExactDecimal`` so that instants written in the source come out as
/// written (`beginTime: 1s, duration: 0.3s` ends at 1.3 s, not 1.3000000000000003 s).
public struct ActiveSpan: Hashable, Sendable {
    /// Parent time at which the active interval starts and ends; `end` may be
    /// infinite, and with speed 0 both are (the animation is active forever).
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// The length in parent time.
    public var length: Double { end - start }
}

extension Timing {
    /// The active interval in the parent's time: `[beginTime, beginTime + AD/speed]`,
    /// or `[beginTime − AD/|speed|, beginTime]` when the speed is negative (the
    /// animation plays backwards and ends at its beginTime), or all of time at speed 0.
    /// An animation that plays backwards forever starts at its beginTime instead
    /// (``playsBackwardsForever``).
    public var activeSpan: ActiveSpan {
        if speed == 0 { return ActiveSpan(start: -.infinity, end: .infinity) }
        let ad = exactActiveDuration
        let length = ad.isInfinite ? Double.infinity : ExactDecimal.divide(ad, abs(speed))
        if speed > 0 || length.isInfinite {
            return ActiveSpan(start: beginTime, end: length.isInfinite ? .infinity : ExactDecimal.add(beginTime, length))
        }
        return ActiveSpan(start: ExactDecimal.subtract(beginTime, length), end: beginTime)
    }

    /// A negative speed with infinite repeats (Shimmer's left and up directions: speed
    /// −1, `repeatCount: HUGE_VALF`, a beginTime after a fade). Read literally, the
    /// interval `(beginTime − ∞, beginTime]` would be all of time before the beginTime
    /// and nothing after it, so the animation would stop where its author starts it;
    /// in Core Animation it starts at its beginTime and plays backwards from then on,
    /// as every app using Shimmer shows (docs/semantics.md, "Choices").
    public var playsBackwardsForever: Bool { speed < 0 && exactActiveDuration.isInfinite }

    /// Whether the animation fills before its active interval, in parent time: a
    /// backwards fill for a forward animation, a forwards fill for one that plays
    /// backwards (fills are in local terms, semantics.md §3). One that plays backwards
    /// forever waits for its beginTime as a forward one does, with a backwards fill.
    public var fillsBeforeInParent: Bool {
        speed > 0 || playsBackwardsForever ? fillMode.fillsBackwards : speed < 0 ? fillMode.fillsForwards : false
    }

    /// Whether it fills after its active interval, in parent time; `kept` is whether a
    /// forwards fill survives (inside a group, or with removedOnCompletion off).
    public func fillsAfterInParent(kept: Bool) -> Bool {
        speed > 0 ? fillMode.fillsForwards && kept : speed < 0 ? fillMode.fillsBackwards : false
    }

    /// The active duration (`activeDuration` with Core Animation's repeat rules), exact
    /// for decimal inputs.
    public var exactActiveDuration: Double {
        let cycle = autoreverses ? ExactDecimal.multiply(2, duration) : duration
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 {
            return repeatCount.isInfinite || repeatCount >= Double(Float.greatestFiniteMagnitude)
                ? .infinity : ExactDecimal.multiply(repeatCount, cycle)
        }
        return cycle
    }
}

/// An affine map between two timelines, `outer = scale · inner + offset`, with exact
/// decimal arithmetic: how a layer's time or a non-repeating group's time sits on the
/// time around it.
public struct TimeMap: Hashable, Sendable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    public static let identity = TimeMap(scale: 1, offset: 0)

    /// A layer's time in its parent's: `layerTime = (parent − beginTime)·speed +
    /// timeOffset`, so `parent = layerTime / speed + beginTime − timeOffset / speed`.
    /// Nil at speed 0 (the layer's time does not move) and for a layer with passes.
    public init?(layer t: LayerTiming) {
        guard t.speed != 0, t.isAffine else { return nil }
        scale = ExactDecimal.divide(1, t.speed)
        offset = ExactDecimal.subtract(t.beginTime, ExactDecimal.divide(t.timeOffset, t.speed))
    }

    /// A group's basic time in its parent's, during its first pass: `parent =
    /// beginTime + (groupTime − timeOffset) / speed`. Nil when that is not one affine
    /// map: a timing function other than linear, or speed 0.
    public init?(group t: Timing) {
        guard t.speed != 0, t.timingFunction == .linear else { return nil }
        scale = ExactDecimal.divide(1, t.speed)
        offset = ExactDecimal.subtract(t.beginTime, ExactDecimal.divide(t.timeOffset, t.speed))
    }

    public func apply(_ inner: Double) -> Double {
        inner.isInfinite ? (scale > 0 ? inner : -inner) : ExactDecimal.add(ExactDecimal.multiply(scale, inner), offset)
    }

    public func inverse(_ outer: Double) -> Double {
        outer.isInfinite ? (scale > 0 ? outer : -outer) : ExactDecimal.divide(ExactDecimal.subtract(outer, offset), scale)
    }

    /// `self` after `inner`: first `inner`, then `self`.
    public func after(_ inner: TimeMap) -> TimeMap {
        TimeMap(scale: ExactDecimal.multiply(scale, inner.scale), offset: ExactDecimal.add(ExactDecimal.multiply(scale, inner.offset), offset))
    }
}
