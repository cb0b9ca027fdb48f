import AnimcIR
@testable import AnimcRuntime
import Testing

/// Timing functions against semantics.md §17 and against an independent reference:
/// bisection on the Bézier's x(t) to 1e-13, then y(t).
@Suite struct TimingFunctionTests {
    /// The reference, written without any of the runtime's code. Every curve passes
    /// through (0, 0) and (1, 1); the ends are pinned because where x(t) is flat, x rounds
    /// to exactly 1 over an interval of t and bisection alone would stop short.
    static func reference(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func bez(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if bez(x1, x2, mid) < x { lo = mid } else { hi = mid }
            if hi - lo < 1e-15 { break }
        }
        return bez(y1, y2, (lo + hi) / 2)
    }

    static let vectors: [(name: String, curve: (Double, Double, Double, Double), values: [(Double, Double)])] = [
        ("easeIn", (0.42, 0, 1, 1), [(0.1, 0.017027), (0.25, 0.093465), (0.5, 0.315357), (0.7, 0.554814), (0.75, 0.621862), (0.9, 0.839428)]),
        ("easeOut", (0, 0, 0.58, 1), [(0.1, 0.160572), (0.25, 0.378138), (0.5, 0.684643), (0.7, 0.870423), (0.75, 0.906535), (0.9, 0.982973)]),
        ("easeInEaseOut", (0.42, 0, 0.58, 1), [(0.1, 0.019722), (0.25, 0.129162), (0.5, 0.5), (0.7, 0.812604), (0.75, 0.870838), (0.9, 0.980278)]),
        ("default", (0.25, 0.1, 0.25, 1), [(0.1, 0.094796), (0.25, 0.408511), (0.5, 0.802403), (0.7, 0.940765), (0.75, 0.960459), (0.9, 0.994316)]),
        ("overshoot", (0.68, -0.55, 0.265, 1.55), [(0.1, -0.066291), (0.25, -0.082807), (0.5, 0.606680), (0.7, 1.069261), (0.75, 1.089166), (0.9, 1.062373)]),
    ]

    /// The vectors are given to six decimals: tolerance 1e-6.
    @Test func matchesTheSemanticsVectors() {
        for v in Self.vectors {
            let b = UnitBezier(v.curve.0, v.curve.1, v.curve.2, v.curve.3)
            for (x, y) in v.values {
                #expect(close(b.solve(x), y, 1e-6), "\(v.name)(\(x)) = \(b.solve(x)), expected \(y)")
            }
        }
    }

    @Test func namedFunctionsHaveCoreAnimationsControlPoints() {
        #expect(TimingFunction.easeIn == .cubic(x1: 0.42, y1: 0, x2: 1, y2: 1))
        #expect(TimingFunction.easeOut == .cubic(x1: 0, y1: 0, x2: 0.58, y2: 1))
        #expect(TimingFunction.easeInEaseOut == .cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
        #expect(TimingFunction.default == .cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
    }

    /// The slope dy/dx of the curve at x, from the reference parameter: how much any
    /// Double-precision answer can be off where x(t) is flat (the problem's conditioning).
    static func slope(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func d(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
        }
        var lo = 0.0, hi = 1.0
        func bez(_ t: Double) -> Double { let u = 1 - t; return 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t }
        for _ in 0..<200 where hi - lo > 1e-15 {
            let mid = (lo + hi) / 2
            if bez(mid) < x { lo = mid } else { hi = mid }
        }
        let t = (lo + hi) / 2
        return abs(d(y1, y2, t)) / max(abs(d(x1, x2, t)), 1e-300)
    }

    /// Over a grid of control points, overshooting y included, the solver is within
    /// 1e-9 of the reference (the requirement is 1e-7), plus, where the curve is so flat
    /// in x that no Double answer can be better, |dy/dx| times two ulps of x.
    @Test func matchesAnIndependentReferenceOverAGrid() {
        let xs = [0.0, 0.1, 0.25, 0.42, 0.5, 0.75, 0.9, 1.0]
        let ys = [-0.55, 0.0, 0.1, 0.5, 1.0, 1.55]
        var worst = 0.0
        var checked = 0
        for x1 in xs { for x2 in xs { for y1 in ys { for y2 in ys {
            let b = UnitBezier(x1, y1, x2, y2)
            for k in 0...50 {
                let x = Double(k) / 50
                let error = abs(b.solve(x) - Self.reference(x1, y1, x2, y2, x))
                let allowed = 1e-9 + Self.slope(x1, y1, x2, y2, x) * 2 * x.ulp
                #expect(error <= allowed, "cubic(\(x1), \(y1), \(x2), \(y2)) at \(x): error \(error)")
                worst = max(worst, min(error, 1))
                checked += 1
            }
        } } } }
        #expect(checked == 8 * 8 * 6 * 6 * 51)
    }

    @Test func extrapolatesAlongTheEndTangents() {
        let ease = UnitBezier(0.25, 0.1, 0.25, 1)
        #expect(close(ease.solve(-0.5), -0.2, 1e-12))
        #expect(close(ease.solve(1.5), 1.0, 1e-12))
        #expect(close(UnitBezier(0.42, 0, 1, 1).solve(1.5), 1.862069, 1e-6))
        #expect(close(UnitBezier(0.42, 0, 0.58, 1).solve(-0.5), 0, 1e-12))
        let overshoot = UnitBezier(0.68, -0.55, 0.265, 1.55)
        #expect(close(overshoot.solve(-0.5), 0.404412, 1e-6))
        #expect(close(overshoot.solve(1.5), 0.625850, 1e-6))
    }

    /// Reversing a curve: (x1, y1, x2, y2) → (1−x2, 1−y2, 1−x1, 1−y1); easeIn reversed is easeOut.
    @Test func reversedCurvesMirror() {
        let easeIn = UnitBezier(0.42, 0, 1, 1), easeOut = UnitBezier(0, 0, 0.58, 1)
        for k in 0...20 {
            let x = Double(k) / 20
            #expect(close(easeOut.solve(x), 1 - easeIn.solve(1 - x), 1e-9))
        }
    }

    @Test func stepsFollowCSSEasing() {
        func s(_ x: Double, _ n: Int, _ p: StepPosition, before: Bool = false) -> Double {
            CompiledTimingFunction(.steps(count: n, position: p), duration: 1).apply(x, before: before)
        }
        #expect(s(0.249, 4, .end) == 0)
        #expect(s(0.25, 4, .end) == 0.25)
        #expect(s(1.0, 4, .end) == 1)
        #expect(s(0, 4, .start) == 0.25)
        #expect(s(0, 4, .start, before: true) == 0)
        #expect(s(0, 3, .jumpBoth) == 0.25)
        #expect(s(0.5, 3, .jumpBoth) == 0.5)
        #expect(s(1, 3, .jumpBoth) == 1)
        #expect(s(0, 5, .jumpNone) == 0)
        #expect(s(0.5, 5, .jumpNone) == 0.5)
        #expect(s(0.99, 5, .jumpNone) == 1)
    }

    /// `steps(5, start)` with a delay of 1 s, a 5 s duration and a backwards fill shows 0
    /// during the delay and 0.2 at 1 s (semantics.md §17).
    @Test func stepsWithABackwardsFill() {
        let t = Build.timeline([Build.basic("zPosition", from: .number(0), to: .number(1),
                                            Timing(beginTime: 1, duration: 5, fillMode: .backwards,
                                                   timingFunction: .steps(count: 5, position: .start)))])
        #expect(t.number("zPosition", at: 0.5) == 0)
        #expect(close(t.number("zPosition", at: 1.0), 0.2, 1e-12))
    }
}

/// The solver's step counts: Newton's method converges, and the bisection it falls back
/// to is for flat curves, not for the last tiny step of a converged solve. (Testing the
/// bracket before convergence made 6% of solves on cubic(0.25, 0, 0.2, 1) bisect.)
@Suite struct BezierSolverStepTests {
    static let curves: [(Double, Double, Double, Double)] = [
        (0.25, 0, 0.2, 1), (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1),
        (0.2, 0.68, 0.18, 1.08), (0.65, 0, 0.4, 1), (1, 0, 0.35, 1), (0.5, 0, 0.5, 1.5),
    ]

    @Test(arguments: 0..<curves.count)
    func newtonConvergesWithoutFallingBackToBisection(_ i: Int) {
        let (x1, y1, x2, y2) = Self.curves[i]
        let curve = UnitBezier(x1, y1, x2, y2)
        var fallbacks = 0
        let n = 20_000
        for k in 0...n {
            let x = Double(k) / Double(n)
            let (t, steps) = curve.solveXCountingSteps(x)
            if steps > 16 { fallbacks += 1 }
            // The answer is right whatever the path: x(t) is x.
            let u = 1 - t
            let xt = 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
            #expect(abs(xt - x) < 1e-11, "cubic(\(x1), \(y1), \(x2), \(y2)) at \(x)")
        }
        #expect(fallbacks == 0, "cubic(\(x1), \(y1), \(x2), \(y2)): \(fallbacks) of \(n + 1) solves bisected")
    }
}
