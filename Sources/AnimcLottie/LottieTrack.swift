/// How a Lottie keyframe eases towards the next one.
enum LottieEase: Equatable, Sendable {
    /// The value stays until the next keyframe (`h: 1`).
    case hold
    case linear
    /// A cubic Bézier from (0,0) to (1,1): `o` = (ox, oy), `i` = (ix, iy).
    case bezier(ox: Double, oy: Double, ix: Double, iy: Double)
}

/// One Lottie keyframe: at frame `t` the property is `value`, and `ease` leads to the next.
struct LottieKeyframe: Equatable, Sendable {
    var t: Double
    var value: [Double]
    var ease: LottieEase
}

/// An animatable Lottie property: one value, or keyframes in time order (two may share
/// a time: the second takes over there, which is how a jump is written).
struct LottieTrack: Equatable, Sendable {
    var keyframes: [LottieKeyframe]

    static func constant(_ v: [Double]) -> LottieTrack { LottieTrack(keyframes: [LottieKeyframe(t: 0, value: v, ease: .hold)]) }

    var isConstant: Bool {
        guard let first = keyframes.first else { return true }
        return keyframes.allSatisfy { $0.value == first.value }
    }

    /// The value at frame `f` as the players compute it (docs/specs/properties.md):
    /// before the first keyframe its value, after the last its value, between two the
    /// eased interpolation. Written independently of the runtime: it is what the export
    /// is checked against.
    func value(at f: Double) -> [Double] {
        guard let first = keyframes.first else { return [] }
        if keyframes.count == 1 || f < first.t { return first.value }
        // The last keyframe at or before f.
        var lo = 0, hi = keyframes.count - 1
        if f >= keyframes[hi].t { return keyframes[hi].value }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyframes[mid].t <= f { lo = mid } else { hi = mid }
        }
        let a = keyframes[lo], b = keyframes[lo + 1]
        let span = b.t - a.t
        guard span > 0 else { return b.value }
        let x = (f - a.t) / span
        let p: Double
        switch a.ease {
        case .hold: return a.value
        case .linear: p = x
        case .bezier(let ox, let oy, let ix, let iy): p = BezierEasing(ox, oy, ix, iy).progress(x)
        }
        var out = a.value
        for k in out.indices where k < b.value.count { out[k] = a.value[k] + (b.value[k] - a.value[k]) * p }
        return out
    }
}

/// A cubic Bézier easing from (0,0) to (1,1), solved by bisection so that no input can
/// make it diverge. Deliberately not the runtime's solver: exports are verified with it.
struct BezierEasing: Equatable, Sendable {
    var x1, y1, x2, y2: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    static func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
    }

    /// The curve parameter where x(s) = x, for x in [0, 1] (x(s) is monotone when the
    /// handles' x are in [0, 1]).
    func parameter(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if BezierEasing.coordinate(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    func progress(_ x: Double) -> Double { BezierEasing.coordinate(parameter(x), y1, y2) }

    /// The part of the curve over time fractions [xa, xb] (xb < xa for the curve run
    /// backwards), rescaled to the unit box: the easing of a keyframe segment that
    /// covers only part of a Core Animation segment. Nil when the part cannot be an
    /// easing (no change in value while the curve moves, or handles outside [0, 1] in x).
    func part(from xa: Double, to xb: Double) -> BezierEasing? {
        let sa = parameter(xa), sb = parameter(xb)
        let (lo, hi) = (min(sa, sb), max(sa, sb))
        // de Casteljau: the control points of the curve between parameters lo and hi.
        func point(_ s: Double) -> (Double, Double) { (BezierEasing.coordinate(s, x1, x2), BezierEasing.coordinate(s, y1, y2)) }
        func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * p1 + 6 * r * s * (p2 - p1) + 3 * s * s * (1 - p2)
        }
        let p0 = point(lo), p3 = point(hi)
        let k = (hi - lo) / 3
        var q1 = (p0.0 + k * derivative(lo, x1, x2), p0.1 + k * derivative(lo, y1, y2))
        var q2 = (p3.0 - k * derivative(hi, x1, x2), p3.1 - k * derivative(hi, y1, y2))
        var start = p0, end = p3
        if sa > sb { swap(&start, &end); swap(&q1, &q2) }
        let dx = end.0 - start.0, dy = end.1 - start.1
        guard abs(dx) > 1e-12, abs(dy) > 1e-12 else { return nil }
        let e = BezierEasing((q1.0 - start.0) / dx, (q1.1 - start.1) / dy, (q2.0 - start.0) / dx, (q2.1 - start.1) / dy)
        guard e.x1 >= -1e-9, e.x1 <= 1 + 1e-9, e.x2 >= -1e-9, e.x2 <= 1 + 1e-9 else { return nil }
        return BezierEasing(min(max(e.x1, 0), 1), e.y1, min(max(e.x2, 0), 1), e.y2)
    }
}

/// Makes successive angles (degrees) continuous: each within half a turn of the one
/// before, so that interpolating between samples never spins the long way.
func unwrapDegrees(_ values: inout [[Double]]) {
    guard values.count > 1 else { return }
    for i in 1..<values.count where !values[i].isEmpty && !values[i - 1].isEmpty {
        let previous = values[i - 1][0]
        var v = values[i][0]
        let turns = ((previous - v) / 360).rounded()
        v += turns * 360
        values[i][0] = v
    }
}

/// A sampled track from samples at every half frame (frame f is sample 2f), which the
/// players interpolate between keyframes as they draw between frames: every whole frame
/// is a keyframe, and a half frame becomes one where the straight line through its
/// whole-frame neighbours misses it by more than `tolerance` (a curve bending within a
/// frame, a decay's or a spring's). Where the half frame sits on one side of a jump (a
/// cycle that restarts, a layer that snaps back), the jump is written as a jump: a hold
/// up to the next sample, not a one-frame slide. Collinear keyframes are then dropped,
/// so every sample is still met within the tolerance.
func sampledTrack(halfFrames s: [[Double]], tolerance: Double) -> LottieTrack {
    guard let first = s.first else { return .constant([0]) }
    if s.allSatisfy({ $0 == first }) { return .constant(first) }
    func distance(_ a: [Double], _ b: [Double]) -> Double {
        var d = 0.0
        for k in a.indices where k < b.count { d = max(d, abs(a[k] - b[k])) }
        return d
    }
    var keys: [LottieKeyframe] = []
    let segments = (s.count - 1) / 2
    for k in 0..<segments {
        let a = s[2 * k], m = s[2 * k + 1], b = s[2 * k + 2]
        keys.append(LottieKeyframe(t: Double(k), value: a, ease: .linear))
        var line = a
        for i in line.indices where i < b.count { line[i] = (a[i] + b[i]) / 2 }
        let miss = distance(m, line)
        guard miss > tolerance else { continue }
        // A jump: the half frame is where one end is and far from the other, with no
        // more between than a straight line would put there.
        let step = distance(a, b)
        if distance(m, a) <= tolerance && step > 4 * tolerance {
            keys[keys.count - 1].ease = .hold
        } else if distance(m, b) <= tolerance && step > 4 * tolerance {
            keys[keys.count - 1].ease = .hold
            keys.append(LottieKeyframe(t: Double(k) + 0.5, value: m, ease: .linear))
        } else {
            keys.append(LottieKeyframe(t: Double(k) + 0.5, value: m, ease: .linear))
        }
    }
    keys.append(LottieKeyframe(t: Double(segments), value: s[2 * segments], ease: .linear))
    if s.count % 2 == 0, let last = s.last {
        // An odd count of half frames ends on a half frame.
        keys.append(LottieKeyframe(t: Double(segments) + 0.5, value: last, ease: .linear))
    }
    // Drop the keyframes a straight line through their neighbours already meets.
    var kept: [LottieKeyframe] = [keys[0]]
    for i in 1..<keys.count {
        let b = keys[i]
        if i == keys.count - 1 { kept.append(b); break }
        let a = kept[kept.count - 1], c = keys[i + 1]
        var onLine = a.ease == .linear && b.ease == .linear && a.value.count == c.value.count && b.value.count == c.value.count
        if onLine {
            for j in b.value.indices {
                let expected = a.value[j] + (c.value[j] - a.value[j]) * (b.t - a.t) / (c.t - a.t)
                if abs(expected - b.value[j]) > 1e-9 * max(1, abs(b.value[j])) { onLine = false; break }
            }
        }
        if !onLine { kept.append(b) }
    }
    return LottieTrack(keyframes: kept)
}
