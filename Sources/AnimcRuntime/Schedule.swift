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
    /// `[start, end]`, as the runtime decides them; each change of phase is located by
    /// bisection to 1e-12 s between two times where the phase was sampled.
    ///
    /// Where the samples go: an animation attached to a layer whose time is an affine
    /// map of the composition's changes phase only where it begins, ends, is added or
    /// is replaced, so it is sampled there and between them. Inside a group, the phase
    /// follows the group's time, which a timing function may warp, so it is sampled on
    /// a grid of `resolution` steps over the window, but only where the top-level group
    /// plays: where that group fills or is absent its time is frozen or gone, and the
    /// phase cannot change. A stretch shorter than a grid step inside a playing group
    /// may be missed; the chart that draws these cannot show it anyway. Layers with
    /// their own passes (their time is not affine) are sampled on the grid throughout.
    public func schedule(from start: Double, to end: Double, resolution: Int = 2048) -> [AnimationSchedule] {
        guard start.isFinite, end.isFinite, end > start, !animations.isEmpty else {
            return animations.map { AnimationSchedule(animation: $0.id, segments: []) }
        }
        // Keep the whole chart's work bounded for compositions with thousands of animations.
        let steps = max(16, min(resolution, 8_000_000 / max(animations.count, 1)))
        let grid = (0...steps).map { start + (end - start) * Double($0) / Double(steps) }
        // Per top-level animation: the times its phase can change at, when known.
        var breaks: [Int: [Double]] = [:]
        func changeTimes(_ info: AnimationInfo) -> [Double]? {
            if let known = breaks[info.id] { return known }
            let timing = MediaTiming(info.timing, topLevel: true)
            let span = info.timing.activeSpan
            var times: [Double] = []
            for t in [span.start, span.end, timing.beginTime, timing.endInParent ?? .infinity, timing.added, timing.replaced] where t.isFinite {
                guard let root = rootTime(info.layer, fromLayerTime: t) else { return nil }
                if root > start && root < end { times.append(root) }
            }
            let sorted = ([start, end] + times).sorted()
            breaks[info.id] = sorted
            return sorted
        }
        return animations.map { info in
            guard let (chain, layer) = chain(info.id) else { return AnimationSchedule(animation: info.id, segments: []) }
            let top = info.ancestors.first.map { animations[$0] } ?? info
            guard let times = changeTimes(top) else {
                return AnimationSchedule(animation: info.id, segments: segments(chain, layer: layer, over: grid))
            }
            // Each stretch between two change times, sampled at its middle too; inside
            // a group, the stretches where the top-level group plays get the grid.
            let topChain = Array(chain.prefix(1))
            var points: [Double] = [times[0]]
            var g = 0
            for (a, b) in zip(times, times.dropFirst()) where b > a {
                let middle = a + (b - a) / 2
                if chain.count > 1 && phases(topChain, layer: layer, at: middle).own == .active {
                    if chain.count == 2, let crossings = crossings(group: chain[0], child: chain[1], layer: layer, from: a, to: b, limit: steps) {
                        var previous = a
                        for t in crossings where t > previous && t < b {
                            points += [previous + (t - previous) / 2, t]
                            previous = t
                        }
                        points.append(previous + (b - previous) / 2)
                    } else {
                        while g < grid.count && grid[g] <= a { g += 1 }
                        while g < grid.count && grid[g] < b { points.append(grid[g]); g += 1 }
                    }
                } else {
                    points.append(middle)
                }
                points.append(b)
            }
            return AnimationSchedule(animation: info.id, segments: segments(chain, layer: layer, over: points))
        }
    }

    /// Where, between composition times `a` and `b` (while `group` plays), the phase of
    /// `child` can change: where the group starts a pass and where its warped time
    /// reaches one of the child's own change times. Nil when these cannot be listed: a
    /// timing function that can run backwards (a spring), a layer time that is not
    /// affine, or more than `limit` passes (the grid is used then).
    private func crossings(group: RuntimeAnimation, child: RuntimeAnimation, layer: Int, from a: Double, to b: Double, limit: Int) -> [Double]? {
        let g = group.timing, c = child.timing
        guard group.timingFunction.isMonotone, g.duration > 0 else { return nil }
        guard g.speed != 0 else { return [] }
        // The group's unwrapped local time at the ends, in passes.
        let la = layerTime(layer, at: a), lb = layerTime(layer, at: b)
        let pa = ((la - g.beginTime) * g.speed + g.timeOffset) / g.duration
        let pb = ((lb - g.beginTime) * g.speed + g.timeOffset) / g.duration
        let first = min(pa, pb).rounded(.down), last = max(pa, pb).rounded(.up)
        guard first.isFinite, last.isFinite, last - first <= Double(limit) else { return nil }
        // The child's change times, as fractions of the group's pass.
        let fractions = [c.beginTime, c.endInParent ?? .infinity, c.added, c.replaced]
            .filter(\.isFinite).compactMap { invert(group.timingFunction, $0 / g.duration) }
        var times: [Double] = []
        for i in 0...Int(last - first) {
            let k = first + Double(i)
            // Forward passes reach a fraction at x, reversed ones at 1 − x: both are listed.
            for x in [0.0] + fractions.flatMap({ [$0, 1 - $0] }) {
                let local = (k + x) * g.duration
                guard let root = rootTime(layer, fromLayerTime: g.beginTime + (local - g.timeOffset) / g.speed) else { return nil }
                if root > a && root < b { times.append(root) }
            }
        }
        return times.sorted()
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
