import AnimcIR

/// One stretch of an animation's life on the composition's timeline.
public struct ScheduleSegment: Hashable, Sendable {
    /// Composition times; `start <= end`.
    public var start: Double
    public var end: Double
    /// `.active`, `.fillingBackwards` or `.fillingForwards` (absent stretches are left out).
    public var phase: AnimationPhase

    public init(start: Double, end: Double, phase: AnimationPhase) {
        self.start = start
        self.end = end
        self.phase = phase
    }
}

/// Where one animation (or group) plays and fills within a window of composition time.
public struct AnimationSchedule: Hashable, Sendable {
    /// The animation's id in ``Timeline/animations``.
    public let animation: Int
    public let segments: [ScheduleSegment]
}

extension Timeline {
    /// The phase as a timeline chart shows it: like ``phase(ofAnimation:at:)``, except
    /// that an animation inside a group that is filling is filling too (its time is
    /// frozen, so it is not playing even where its own phase is active).
    public func shownPhase(ofAnimation id: Int, at t: Double) -> AnimationPhase {
        guard let (chain, layer) = chain(id) else { return .absent }
        return shownPhase(chain, layer: layer, at: t)
    }

    private func shownPhase(_ chain: [RuntimeAnimation], layer: Int, at t: Double) -> AnimationPhase {
        let (own, frozen) = phases(chain, layer: layer, at: t)
        return own == .active ? frozen ?? .active : own
    }

    /// Every animation's active and filling stretches in composition time within
    /// `[start, end]`, as the runtime decides them: the phase is sampled on a grid of
    /// `resolution` steps (plus the exact begin and end of every animation attached to
    /// a layer) and each change is located by bisection to 1e-12 s. A stretch shorter
    /// than a grid step inside a group may be missed; the chart that draws these cannot
    /// show it anyway. Works through every layer and group time map, including groups
    /// that repeat, reverse or warp time with a timing function.
    public func schedule(from start: Double, to end: Double, resolution: Int = 2048) -> [AnimationSchedule] {
        guard start.isFinite, end.isFinite, end > start, !animations.isEmpty else {
            return animations.map { AnimationSchedule(animation: $0.id, segments: []) }
        }
        // Keep the whole chart's work bounded for compositions with thousands of animations.
        let steps = max(16, min(resolution, 8_000_000 / max(animations.count, 1)))
        let grid = (0...steps).map { start + (end - start) * Double($0) / Double(steps) }
        return animations.map { info in
            var points = grid
            if info.ancestors.isEmpty, let span = layerSpan(info) {
                points += [span.start, span.end].filter { $0 > start && $0 < end }
                points.sort()
            }
            guard let (chain, layer) = chain(info.id) else { return AnimationSchedule(animation: info.id, segments: []) }
            return AnimationSchedule(animation: info.id, segments: segments(chain, layer: layer, over: points))
        }
    }

    /// A top-level animation's active interval in composition time, when its layer's
    /// time is an affine map of the composition's.
    private func layerSpan(_ info: AnimationInfo) -> ActiveSpan? {
        let span = info.timing.activeSpan
        guard let a = rootTime(info.layer, fromLayerTime: span.start), let b = rootTime(info.layer, fromLayerTime: span.end) else { return nil }
        return ActiveSpan(start: min(a, b), end: max(a, b))
    }

    /// The stretches of the animation at the end of `chain`, found once per animation
    /// so that the thousands of samples below do not look the chain up again.
    private func segments(_ chain: [RuntimeAnimation], layer: Int, over points: [Double]) -> [ScheduleSegment] {
        var result: [ScheduleSegment] = []
        var segmentStart = points[0]
        var phase = shownPhase(chain, layer: layer, at: points[0])
        var previous = points[0]
        func close(at t: Double) {
            if phase != .absent, t >= segmentStart { result.append(ScheduleSegment(start: segmentStart, end: t, phase: phase)) }
        }
        for t in points.dropFirst() where t > previous {
            let next = shownPhase(chain, layer: layer, at: t)
            if next != phase {
                // The change lies in (previous, t]: bisect for it.
                var lo = previous, hi = t
                for _ in 0..<60 where hi - lo > 1e-12 {
                    let mid = (lo + hi) / 2
                    if shownPhase(chain, layer: layer, at: mid) == phase { lo = mid } else { hi = mid }
                }
                close(at: hi)
                segmentStart = hi
                phase = next
            }
            previous = t
        }
        close(at: points[points.count - 1])
        return result
    }
}
