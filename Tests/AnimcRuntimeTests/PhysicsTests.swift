import AnimcIR
@testable import AnimcRuntime
import Foundation
import Testing

/// Springs and decay against semantics.md §17 and against numerical integration of
/// their differential equations (RK4), written here independently.
@Suite struct PhysicsTests {
    /// m x'' = −k (x − 1) − c x', x(0) = 0, x'(0) = v0, integrated with RK4.
    static func integrateSpring(m: Double, k: Double, c: Double, v0: Double, until t: Double) -> Double {
        var x = 0.0, v = v0
        let h = 1e-5
        var time = 0.0
        func a(_ x: Double, _ v: Double) -> Double { (-k * (x - 1) - c * v) / m }
        while time < t - 1e-12 {
            let step = min(h, t - time)
            let k1x = v, k1v = a(x, v)
            let k2x = v + step / 2 * k1v, k2v = a(x + step / 2 * k1x, v + step / 2 * k1v)
            let k3x = v + step / 2 * k2v, k3v = a(x + step / 2 * k2x, v + step / 2 * k2v)
            let k4x = v + step * k3v, k4v = a(x + step * k3x, v + step * k3v)
            x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            time += step
        }
        return x
    }

    @Test func theDefaultSpringMatchesTheVectors() {
        let s = SpringSolution(SpringParameters())
        for (t, x) in [(0.05, 0.104405), (0.1, 0.340300), (0.2, 0.849426), (0.3, 1.124355), (0.5, 1.074591), (1.0, 1.002170)] {
            #expect(close(s.position(at: t), x, 1e-6), "x(\(t))")
        }
        let fast = SpringSolution(SpringParameters(initialVelocity: 5))
        for (t, x) in [(0.05, 0.293078), (0.1, 0.607053), (0.3, 1.190976)] { #expect(close(fast.position(at: t), x, 1e-6)) }
        let critical = SpringSolution(SpringParameters(damping: 20))
        for (t, x) in [(0.1, 0.264241), (0.2, 0.593994), (0.5, 0.959572)] { #expect(close(critical.position(at: t), x, 1e-6)) }
        // Overdamped without allowsOverdamping behaves as critically damped.
        let clamped = SpringSolution(SpringParameters(damping: 40))
        #expect(close(clamped.position(at: 0.2), 0.593994, 1e-6))
        let over = SpringSolution(SpringParameters(damping: 40, allowsOverdamping: true))
        for (t, x) in [(0.1, 0.177737), (0.2, 0.369640), (0.5, 0.717829)] { #expect(close(over.position(at: t), x, 1e-6)) }
    }

    @Test func theFirstPeakOfTheDefaultSpring() {
        let s = SpringSolution(SpringParameters())
        #expect(close(s.position(at: 0.362760), 1.163034, 1e-6))
        #expect(s.position(at: 0.36) < s.position(at: 0.362760) && s.position(at: 0.366) < s.position(at: 0.362760))
    }

    @Test func closedFormsMatchIntegration() {
        for (m, k, c, v0) in [(1.0, 100.0, 10.0, 0.0), (2.0, 300.0, 5.0, 3.0), (1.0, 100.0, 20.0, -2.0), (1.0, 157.9137, 17.5929, 0.0)] {
            let s = SpringSolution(SpringParameters(mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: true))
            for t in [0.05, 0.2, 0.6, 1.3] {
                #expect(close(s.position(at: t), Self.integrateSpring(m: m, k: k, c: c, v0: v0, until: t), 1e-7), "m\(m) k\(k) c\(c) t\(t)")
            }
        }
        let over = SpringSolution(SpringParameters(damping: 40, allowsOverdamping: true))
        #expect(close(over.position(at: 0.5), Self.integrateSpring(m: 1, k: 100, c: 40, v0: 0, until: 0.5), 1e-7))
    }

    /// Apple documents ≈2.85 s for damping 5 and "just over 1 s" for damping 15.
    @Test func settlingDurationsMatchHypothesisH1() {
        #expect(close(SpringParameters(damping: 5).settlingDuration, 2.8489, 1e-4))
        #expect(close(SpringParameters(damping: 10).settlingDuration, 1.4468, 1e-4))
        #expect(close(SpringParameters(damping: 15).settlingDuration, 1.0005, 1e-4))
    }

    @Test func perceptualDurationAndBounceConvertAsSwiftUIDoes() {
        let p = SpringParameters(perceptualDuration: 0.5, bounce: 0.3)
        #expect(close(p.mass, 1, 1e-12) && close(p.stiffness, 157.9137, 1e-4) && close(p.damping, 17.5929, 1e-4))
        #expect(close(SpringParameters(perceptualDuration: 0.5, bounce: 0).damping, 25.1327, 1e-4))
        #expect(close(SpringParameters(perceptualDuration: 0.5, bounce: -0.3).damping, 35.9039, 1e-4))
    }

    /// v' = 1000 ln(r) v: the decay's position against Euler-free integration of its
    /// velocity (trapezoids on the exact exponential would be circular, so integrate the ODE).
    @Test func decayMatchesIntegration() {
        let rate = 0.998
        var x = 0.0, v = 1.0
        let steps = 400_000
        let h = 0.4 / Double(steps)
        let k = 1000 * log(rate)
        for _ in 0..<steps {
            // RK4 on v' = k v, x' = v.
            let k1v = k * v, k1x = v
            let k2v = k * (v + h / 2 * k1v), k2x = v + h / 2 * k1v
            let k3v = k * (v + h / 2 * k2v), k3x = v + h / 2 * k2v
            let k4v = k * (v + h * k3v), k4x = v + h * k3v
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        }
        #expect(close(Decay.displacement(at: 0.4, rate: rate), x, 1e-9))
        #expect(close(Decay.velocityFactor(at: 0.4, rate: rate), v, 1e-9))
        // The total distance of a 1 pt/s toss at 0.998 is 1 / (−1000 ln 0.998) ≈ 0.4995 s·pt/s.
        #expect(close(Decay.displacement(at: 100, rate: rate), -1 / k, 1e-9))
    }

    @Test func aSpringAnimationRunsFromFromToToOverItsSettlingTime() {
        let p = SpringParameters()
        let a = Build.property("zPosition", Timing(duration: p.settlingDuration),
                               .spring(from: .value(.number(10)), to: .value(.number(20)), parameters: p))
        let t = Build.timeline([a])
        let s = SpringSolution(p)
        for time in [0.05, 0.3, 1.0] {
            #expect(close(t.number("zPosition", at: time), 10 + 10 * s.position(at: time), 1e-9))
        }
    }
}
