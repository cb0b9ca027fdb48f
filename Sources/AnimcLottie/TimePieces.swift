import AnimcIR
import AnimcRuntime

/// A span of composition time over which an animation's progress (its pass time over
/// its duration, before its own timing function) is an affine function of time,
/// constant, or absent.
///
/// Core Animation maps time through every enclosing layer's and group's beginTime,
/// speed and timeOffset, then wraps it into repeats and mirrors autoreversed passes.
/// Each stage is affine between its boundaries (begin, end, cycle and pass starts), so
/// over a window the composed map is affine piece by piece. That is what makes
/// repeats, staggers, offsets and groups exact in Lottie: each piece becomes keyframes
/// with the segments' own easings, cut where the piece cuts them.
struct ProgressPiece: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// The animation contributes nothing (before or after it, without fill).
        case absent
        /// Filling, or stopped by a zero speed: one progress throughout.
        case constant(Double)
        /// progress = slope · t + intercept.
        case affine(slope: Double, intercept: Double)
    }
    var start: Double
    var end: Double
    var kind: Kind

    func progress(at t: Double) -> Double? {
        switch kind {
        case .absent: return nil
        case .constant(let p): return p
        case .affine(let s, let c): return s * t + c
        }
    }
}

enum TimePieces {
    /// A map from composition time to some local time, affine over [start, end].
    private struct Span {
        var start: Double
        var end: Double
        /// nil: absent. Otherwise local = slope · t + intercept.
        var slope: Double?
        var intercept: Double
    }

    /// The pieces of `chain` (outermost group first, the property animation last) over
    /// composition times [start, end], for an animation on a layer whose time is
    /// `layerSlope · t + layerIntercept`. Nil when the map is not piecewise affine (a
    /// group with a timing function) or has more than `limit` pieces.
    static func pieces(chain: [Animation], layerSlope: Double, layerIntercept: Double,
                       start: Double, end: Double, limit: Int) -> [ProgressPiece]? {
        var spans = [Span(start: start, end: end, slope: layerSlope, intercept: layerIntercept)]
        for (level, animation) in chain.enumerated() {
            let timing = MediaTiming(animation.timing, topLevel: level == 0)
            let isLast = level == chain.count - 1
            if !isLast, animation.timing.timingFunction != .linear { return nil }
            var next: [Span] = []
            for span in spans {
                guard let slope = span.slope else { next.append(span); continue }
                guard let pieces = split(span, slope: slope, timing) else { return nil }
                next += pieces
                if next.count > limit { return nil }
            }
            spans = next
        }
        let duration = chain.last.map { MediaTiming($0.timing, topLevel: chain.count == 1).duration } ?? 1
        return merged(spans.map { s in
            guard let slope = s.slope else { return ProgressPiece(start: s.start, end: s.end, kind: .absent) }
            if slope == 0 { return ProgressPiece(start: s.start, end: s.end, kind: .constant(s.intercept / duration)) }
            return ProgressPiece(start: s.start, end: s.end, kind: .affine(slope: slope / duration, intercept: s.intercept / duration))
        })
    }

    /// One level: parent time (affine over `span`) → pass time of `timing`, cut at the
    /// instants where the pass time stops being affine.
    private static func split(_ span: Span, slope: Double, _ timing: MediaTiming) -> [Span]? {
        func parentTime(_ t: Double) -> Double { slope * t + span.intercept }
        let tauSlope = slope * timing.speed
        if tauSlope == 0 {
            // Constant parent time (or speed 0): one sample says everything.
            let s = timing.sample(parentTime((span.start + span.end) / 2))
            if s.phase == .absent { return [Span(start: span.start, end: span.end, slope: nil, intercept: 0)] }
            return [Span(start: span.start, end: span.end, slope: 0, intercept: s.passTime)]
        }
        func tau(_ t: Double) -> Double { (parentTime(t) - timing.beginTime) * timing.speed }
        func time(ofTau x: Double) -> Double { ((x / timing.speed + timing.beginTime) - span.intercept) / slope }
        let (tauA, tauB) = (tau(span.start), tau(span.end))
        let (lo, hi) = (min(tauA, tauB), max(tauA, tauB))
        var cuts: [Double] = [0]
        let ad = timing.activeDuration
        if ad.isFinite { cuts.append(ad) }
        // Inside the active interval, local = tau + timeOffset wraps at multiples of the
        // active duration and passes start at multiples of the duration after each wrap.
        let activeLo = max(lo, 0), activeHi = ad.isFinite ? min(hi, ad) : hi
        if activeLo < activeHi {
            let offset = timing.timeOffset
            let d = timing.duration
            if ad.isFinite && ad > 0 {
                let firstWrap = ((activeLo + offset) / ad).rounded(.down), lastWrap = ((activeHi + offset) / ad).rounded(.down)
                guard lastWrap - firstWrap < 10_000 else { return nil }
                var m = firstWrap
                while m <= lastWrap {
                    let wrapStart = m * ad - offset
                    cuts.append(wrapStart)
                    let passes = (ad / d).rounded(.up)
                    guard passes < 100_000 else { return nil }
                    let firstPass = max(0, ((activeLo - wrapStart) / d).rounded(.down))
                    let lastPass = min(passes, ((activeHi - wrapStart) / d).rounded(.up))
                    guard lastPass - firstPass < 100_000 else { return nil }
                    var j = firstPass
                    while j <= lastPass { cuts.append(wrapStart + j * d); j += 1 }
                    guard cuts.count < 200_000 else { return nil }
                    m += 1
                }
            } else {
                let first = ((activeLo + offset) / d).rounded(.down), last = ((activeHi + offset) / d).rounded(.up)
                guard last - first < 100_000 else { return nil }
                var j = first
                while j <= last { cuts.append(j * d - offset); j += 1 }
            }
        }
        var times = cuts.filter { $0 > lo && $0 < hi }.map(time(ofTau:)).filter { $0 > span.start && $0 < span.end }
        times.append(span.start)
        times.append(span.end)
        times.sort()
        var out: [Span] = []
        for (a, b) in zip(times, times.dropFirst()) where b > a {
            let mid = (a + b) / 2
            let s = timing.sample(parentTime(mid))
            switch s.phase {
            case .absent:
                out.append(Span(start: a, end: b, slope: nil, intercept: 0))
            case .fillingBackwards, .fillingForwards:
                out.append(Span(start: a, end: b, slope: 0, intercept: s.passTime))
            case .active:
                // Forward or mirrored pass: compare with a second point of the same piece.
                let probe = a + (b - a) * 0.75
                let later = timing.sample(parentTime(probe)).passTime
                let direction: Double = (later - s.passTime) * (probe - mid) >= 0 ? 1 : -1
                let passSlope = direction * abs(tauSlope)
                out.append(Span(start: a, end: b, slope: passSlope, intercept: s.passTime - passSlope * mid))
            }
        }
        return out
    }

    /// Joins neighbours that are the same map (cuts that turned out not to be).
    private static func merged(_ pieces: [ProgressPiece]) -> [ProgressPiece] {
        var out: [ProgressPiece] = []
        for p in pieces {
            if var last = out.last {
                let same: Bool
                switch (last.kind, p.kind) {
                case (.absent, .absent): same = true
                case let (.constant(a), .constant(b)): same = abs(a - b) <= 1e-12
                case let (.affine(s1, c1), .affine(s2, c2)):
                    same = abs(s1 - s2) <= 1e-12 * abs(s1) && abs((s1 * p.start + c1) - (s2 * p.start + c2)) <= 1e-9
                default: same = false
                }
                if same {
                    last.end = p.end
                    out[out.count - 1] = last
                    continue
                }
            }
            out.append(p)
        }
        return out
    }
}
