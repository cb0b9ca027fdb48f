import AnimcIR

/// A cubic Bézier timing curve from (0,0) to (1,1), solved for y given x.
///
/// Coefficients are precomputed as in WebKit's UnitBezier. `solveX` runs Newton's
/// method from t = x inside a bracket [lo, hi] that always holds the root (x(t) is
/// non-decreasing because the checker keeps x1 and x2 in [0, 1]); a step that would
/// leave the bracket, or a (nearly) vanishing derivative, bisects instead. It stops
/// when a step is below 1e-12 in t. Converging in t rather than in x matters where
/// x(t) is flat (x1 = 1, x2 = 0): there an x within 1e-12 still leaves t, and so
/// progress, off by 1e-5. The bracket keeps the rare hard case (a flat start such as
/// x1 = 0 near x = 0) to a few extra steps instead of a bisection from scratch.
/// Progress is exact to well below 1e-9 for every curve, and baked output is
/// deterministic.
public struct UnitBezier: Hashable, Sendable {
    let ax, bx, cx, ay, by, cy: Double
    let startGradient, endGradient: Double

    /// Whether y never decreases with x: both control points' heights within [0, 1]
    /// (then y′(t) is a quadratic with Bernstein coefficients y1, y2 − y1, 1 − y2, which
    /// is never negative there).
    var isMonotone: Bool {
        let y1 = cy / 3, y2 = (by + 2 * cy) / 3
        return y1 >= -1e-12 && y1 <= 1 + 1e-12 && y2 >= -1e-12 && y2 <= 1 + 1e-12
    }

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        // Tangents used outside [0, 1] (CSS Easing): through the nearer control point.
        if x1 > 0 { startGradient = y1 / x1 } else if y1 == 0 && x2 > 0 { startGradient = y2 / x2 } else { startGradient = 0 }
        if x2 < 1 { endGradient = (y2 - 1) / (x2 - 1) } else if y2 == 1 && x1 < 1 { endGradient = (y1 - 1) / (x1 - 1) } else { endGradient = 0 }
    }

    @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `x`, for x in [0, 1].
    @inline(__always)
    public func solveX(_ x: Double) -> Double { solveXCountingSteps(x).t }

    /// ``solveX(_:)`` and the steps it took (Newton's and the fallback bisection's), for
    /// the tests that keep the fallback rare.
    @inline(__always)
    func solveXCountingSteps(_ x: Double) -> (t: Double, steps: Int) {
        var t = x, lo = 0.0, hi = 1.0
        for step in 1...16 {
            let err = sampleX(t) - x
            if err == 0 { return (t, step) }
            if err < 0 { lo = t } else { hi = t }
            let next = t - err / sampleDerivativeX(t)
            // Convergence first: the last, tiny Newton step may land just past a bracket
            // end that an earlier step set at nearly the root, and must not be taken
            // for a diverging step (which would bisect from there for nothing).
            if abs(next - t) < 1e-12 { return (min(max(next, 0), 1), step) }
            if next > lo && next < hi { t = next; continue }
            // A step out of the bracket, or a vanishing derivative (an infinite or NaN
            // step), bisects instead.
            let mid = (lo + hi) * 0.5
            if abs(mid - t) < 1e-12 { return (mid, step) }
            t = mid
        }
        let (t2, bisections) = bisect(x, lo, hi)
        return (t2, 16 + bisections)
    }

    @inline(never)
    func bisect(_ x: Double, _ lo: Double, _ hi: Double) -> (t: Double, steps: Int) {
        var lo = lo, hi = hi, steps = 0
        while hi - lo > 1e-15 {
            let mid = (lo + hi) * 0.5
            if sampleX(mid) < x { lo = mid } else { hi = mid }
            steps += 1
        }
        return ((lo + hi) * 0.5, steps)
    }

    /// y at x; outside [0, 1] the curve continues along its end tangents.
    @inline(__always)
    public func solve(_ x: Double) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        return sampleY(solveX(x))
    }
}

/// A timing function ready to evaluate: progress in, progress out.
public enum CompiledTimingFunction: Hashable, Sendable {
    case linear
    case bezier(UnitBezier)
    case steps(count: Int, position: StepPosition)
    /// Spring progress at `x · duration` seconds.
    case spring(SpringSolution, duration: Double)

    /// - Parameter duration: seconds the function spans, which a spring needs.
    public init(_ f: TimingFunction, duration: Double) {
        switch f {
        case .linear: self = .linear
        case .cubic(let x1, let y1, let x2, let y2):
            self = (x1, y1, x2, y2) == (0, 0, 1, 1) ? .linear : .bezier(UnitBezier(x1, y1, x2, y2))
        case .steps(let n, let p): self = .steps(count: max(n, 1), position: p)
        case .spring(let s): self = .spring(SpringSolution(s), duration: duration)
        }
    }

    /// Whether progress never decreases as time goes on: linear, steps, a cubic whose
    /// control points' heights are within [0, 1]; not a spring, which may overshoot.
    public var isMonotone: Bool {
        switch self {
        case .linear, .steps: return true
        case .bezier(let b): return b.isMonotone
        case .spring: return false
        }
    }

    /// - Parameter before: CSS's "before flag" for steps: true while filling backwards,
    ///   so a jump at the very start is not taken yet.
    @inline(__always)
    public func apply(_ x: Double, before: Bool = false) -> Double {
        switch self {
        case .linear: return x
        case .bezier(let b): return b.solve(x)
        case .steps(let n, let position): return CompiledTimingFunction.steps(x, n, position, before)
        case .spring(let s, let d): return s.position(at: x * d)
        }
    }

    static func steps(_ x: Double, _ n: Int, _ position: StepPosition, _ before: Bool) -> Double {
        let scaled = x * Double(n)
        var current = scaled.rounded(.down)
        if position == .start || position == .jumpBoth { current += 1 }
        if before && scaled == scaled.rounded(.down) { current -= 1 }
        if x >= 0 && current < 0 { current = 0 }
        let jumps = Double(position.jumps(n))
        if x <= 1 && current > jumps { current = jumps }
        return current / jumps
    }

    public var isLinear: Bool { if case .linear = self { return true } else { return false } }
}
