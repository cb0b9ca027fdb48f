#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The closed-form damped oscillator behind CASpringAnimation, normalised so that
/// 0 is `from` and 1 is `to` (semantics.md §10). Precomputes its coefficients once;
/// `position(at:)` neither allocates nor branches on anything but the damping regime.
public struct SpringSolution: Hashable, Sendable {
    public enum Regime: Hashable, Sendable { case underdamped, critical, overdamped }

    public let regime: Regime
    let w0: Double
    let zeta: Double
    let wd: Double
    let v0: Double
    let r1: Double
    let r2: Double
    let a: Double
    let b: Double

    public init(_ p: SpringParameters) {
        w0 = (p.stiffness / p.mass).squareRoot()
        zeta = p.damping / (2 * (p.stiffness * p.mass).squareRoot())
        v0 = p.initialVelocity
        if zeta < 1 {
            regime = .underdamped
            wd = w0 * (1 - zeta * zeta).squareRoot()
            (r1, r2, a, b) = (0, 0, 0, 0)
        } else if zeta == 1 || !p.allowsOverdamping {
            // CA treats an overdamped spring as critically damped unless allowsOverdamping.
            regime = .critical
            (wd, r1, r2, a, b) = (0, 0, 0, 0, 0)
        } else {
            regime = .overdamped
            wd = 0
            let s = (zeta * zeta - 1).squareRoot()
            r1 = -w0 * (zeta - s)
            r2 = -w0 * (zeta + s)
            b = (v0 + r1) / (r2 - r1)
            a = -1 - b
        }
    }

    /// Normalised displacement at `t` seconds: 0 at the start, tending to 1.
    @inline(__always)
    public func position(at t: Double) -> Double {
        switch regime {
        case .underdamped:
            let envelope = exp(-zeta * w0 * t)
            return 1 - envelope * (cos(wd * t) + ((zeta * w0 - v0) / wd) * sin(wd * t))
        case .critical:
            return 1 - (1 + (w0 - v0) * t) * exp(-w0 * t)
        case .overdamped:
            return 1 + a * exp(r1 * t) + b * exp(r2 * t)
        }
    }

    /// The settling tolerance, as a fraction of the distance travelled. 1/1200
    /// reproduces Apple's documented settling durations for mass 1, stiffness 100
    /// (damping 5 → ≈2.85 s, damping 15 → just over 1 s); see semantics.md §17.
    public static let settlingTolerance = 1.0 / 1200

    /// CASpringAnimation's `settlingDuration`: the time after which the motion's
    /// envelope stays within ``settlingTolerance`` of the target.
    public var settlingDuration: Double { settlingTime(within: SpringSolution.settlingTolerance) }

    /// The time after which the motion's envelope stays within `eps` of the target, as
    /// a fraction of the distance.
    public func settlingTime(within eps: Double) -> Double {
        switch regime {
        case .underdamped:
            let amplitude = (1 + ((zeta * w0 - v0) / wd) * ((zeta * w0 - v0) / wd)).squareRoot()
            return max(0, log(amplitude / eps) / (zeta * w0))
        case .critical:
            return SpringSolution.firstTimeBelow(eps) { t in (1 + abs(w0 - v0) * t) * exp(-w0 * t) }
        case .overdamped:
            return SpringSolution.firstTimeBelow(eps) { t in abs(a) * exp(r1 * t) + abs(b) * exp(r2 * t) }
        }
    }

    /// The time after which a decreasing-in-the-tail envelope stays below `eps`, by
    /// doubling then bisection to 1e-9 s; infinity when it is still above after 2⁷⁴ s
    /// (a spring so weak it never settles).
    static func firstTimeBelow(_ eps: Double, _ envelope: (Double) -> Double) -> Double {
        var hi = 1.0 / 64
        var guardCount = 0
        while envelope(hi) > eps && guardCount < 80 { hi *= 2; guardCount += 1 }
        if envelope(hi) > eps { return .infinity }
        var lo = 0.0
        for _ in 0..<200 where hi - lo > 1e-9 {
            let mid = (lo + hi) / 2
            if envelope(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }
}

extension SpringParameters {
    /// iOS 17's `CASpringAnimation(perceptualDuration:bounce:)`: mass 1, stiffness
    /// (2π/duration)², damping ratio `1 - bounce` (or `1/(1 + bounce)` for negative
    /// bounce), and overdamping allowed.
    public init(perceptualDuration d: Double, bounce: Double, initialVelocity: Double = 0) {
        let k = (2 * Double.pi / d) * (2 * Double.pi / d)
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(mass: 1, stiffness: k, damping: 2 * zeta * k.squareRoot(), initialVelocity: initialVelocity,
                  allowsOverdamping: true)
    }

    public var settlingDuration: Double { SpringSolution(self).settlingDuration }
}

/// An inertial toss that slows exponentially, as UIScrollView decelerates: the
/// velocity keeps the fraction `rate` of itself each millisecond.
public enum Decay {
    /// Displacement after `t` seconds for an initial velocity of 1 unit per second:
    /// ∫₀ᵗ rate^(1000 s) ds = (rate^(1000 t) − 1) / (1000 ln rate).
    @inline(__always)
    public static func displacement(at t: Double, rate: Double) -> Double {
        let k = 1000 * log(rate)
        return (exp(k * t) - 1) / k
    }

    /// Velocity after `t` seconds, relative to the initial velocity.
    @inline(__always)
    public static func velocityFactor(at t: Double, rate: Double) -> Double {
        exp(1000 * log(rate) * t)
    }

    /// The time after which the remaining distance is below the spring's settling
    /// tolerance of the total distance, so decays and springs settle alike.
    public static func settlingDuration(rate: Double) -> Double {
        log(SpringSolution.settlingTolerance) / (1000 * log(rate))
    }
}
