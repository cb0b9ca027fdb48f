import AnimcIR
@testable import AnimcRuntime
import Foundation
import Testing

@Suite struct InterpolationTests {
    func keyframes(_ values: [Value], mode: CalculationMode = .linear, keyTimes: [Double]? = nil, tension: [Double] = [],
                   continuity: [Double] = [], bias: [Double] = [], timing: [TimingFunction] = [], duration: Double = 1) -> Timeline {
        Build.timeline([Build.property("zPosition", Timing(duration: duration),
                                       .keyframes(Keyframes(values: values, keyTimes: keyTimes, timingFunctions: timing,
                                                            calculationMode: mode, tension: tension, continuity: continuity, bias: bias)))])
    }

    @Test func linearKeyframesWithSegmentTimingFunctions() {
        let t = keyframes([.number(0), .number(10), .number(0)], keyTimes: [0, 0.25, 1], timing: [.easeIn, .linear])
        #expect(close(t.number("zPosition", at: 0.125), 10 * UnitBezier(0.42, 0, 1, 1).solve(0.5), 1e-12))
        #expect(close(t.number("zPosition", at: 0.625), 5, 1e-12))
    }

    /// Kochanek–Bartels on [0, 1, 0], first segment, s = 0.5 (semantics.md §17):
    /// duplicated ends 0.5625; tension 1 → 0.5; bias [0, 1, 0] → 0.4375; continuity [0, 1, 0] → 0.6875.
    @Test func cubicModeMatchesTheVectors() {
        let v: [Value] = [.number(0), .number(1), .number(0)]
        #expect(close(keyframes(v, mode: .cubic).number("zPosition", at: 0.25), 0.5625, 1e-12))
        #expect(close(keyframes(v, mode: .cubic, tension: [1, 1, 1]).number("zPosition", at: 0.25), 0.5, 1e-12))
        #expect(close(keyframes(v, mode: .cubic, bias: [0, 1, 0]).number("zPosition", at: 0.25), 0.4375, 1e-12))
        #expect(close(keyframes(v, mode: .cubic, continuity: [0, 1, 0]).number("zPosition", at: 0.25), 0.6875, 1e-12))
    }

    @Test func cubicModeOnPoints() {
        let a = Build.property("position", Timing(duration: 4), .keyframes(Keyframes(
            values: [.point(Point(0, 0)), .point(Point(10, 10)), .point(Point(20, 0))], keyTimes: [0, 0.5, 1], calculationMode: .cubic)))
        let p = Build.timeline([a]).point("position", at: 1)
        #expect(close(p.x, 4.375, 1e-12) && close(p.y, 5.625, 1e-12))
    }

    /// Paced key times come from distances: Apple's [310, 60, 120, 60, 310] example and
    /// the SVG animate-elem-53 distances 40, 80, 24.14.
    @Test func pacedKeyTimes() {
        let apple = VectorKeyframes(width: 1, values: [310, 60, 120, 60, 310], keyTimes: nil, segmentTiming: [], mode: .paced)
        for (a, b) in zip(apple.keyTimes, [0, 0.403226, 0.5, 0.596774, 1]) { #expect(close(a, b, 1e-6)) }
        let svg = VectorKeyframes(width: 1, values: [0, 40, 120, 144.14], keyTimes: nil, segmentTiming: [], mode: .paced)
        for (a, b) in zip(svg.keyTimes, [0, 0.277508, 0.832524, 1]) { #expect(close(a, b, 1e-6)) }
        // Constant speed: equal times cover equal distances.
        let t = keyframes([.number(310), .number(60), .number(120), .number(60), .number(310)], mode: .paced)
        #expect(close(t.number("zPosition", at: 0.5), 120, 1e-9))
    }

    @Test func discreteHoldsEachValueUntilTheNextKeyTime() {
        let t = keyframes([.number(1), .number(2), .number(3)], mode: .discrete, keyTimes: [0, 0.2, 0.5, 1])
        #expect(t.number("zPosition", at: 0.1) == 1)
        #expect(t.number("zPosition", at: 0.2) == 2)
        #expect(t.number("zPosition", at: 0.49) == 2)
        #expect(t.number("zPosition", at: 0.7) == 3)
        #expect(t.number("zPosition", at: 1) == 3)
    }

    /// Colours interpolate straight (non-premultiplied) components: the semantics.md
    /// vector (1,0,0,0) → (0,0,1,1) at 0.5 is (0.5, 0, 0.5, 0.5).
    @Test func coloursInterpolateWithoutPremultiplying() {
        let a = Build.basic("backgroundColor", from: .color(Color(red: 1, green: 0, blue: 0, alpha: 0)),
                            to: .color(Color(red: 0, green: 0, blue: 1, alpha: 1)), Timing(duration: 1))
        let t = Build.timeline([a])
        #expect(t.value("backgroundColor", layer: 0, in: t.state(at: 0.5)) == .color(Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5)))
    }

    /// identity → rotZ(350°): as matrices the turn is −10°, so −5° at 0.5. A whole
    /// transform is a matrix to Core Animation however it was written, so the list
    /// rotate(0deg) → rotate(350deg) also turns −5°; with `interpolation: functions`
    /// it turns the written way, +175°, as transform.rotation.z does.
    @Test func transformsMatricesTakeTheShortWayListsTheWrittenWay() {
        let r350 = M4.rotation(350 * .pi / 180, 0, 0, 1).matrix4
        let matrixAnimation = Build.basic("transform", from: .transform(.identity), to: .transform(Transform([.matrix(r350)])), Timing(duration: 1))
        let m = Build.timeline([matrixAnimation]).state(at: 0.5)
        let expected = M4.rotation(-5 * .pi / 180, 0, 0, 1).array
        let tm = Build.timeline([matrixAnimation])
        guard case .transform(let got)? = tm.value("transform", layer: 0, in: m) else { Issue.record("no transform"); return }
        for (a, b) in zip(got.matrix.array, expected) { #expect(close(a, b, 1e-12)) }

        let from = Transform([.rotate(x: 0, y: 0, z: 1, angle: 0)])
        let to = Transform([.rotate(x: 0, y: 0, z: 1, angle: 350 * .pi / 180)])
        let listAnimation = Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))
        let tl = Build.timeline([listAnimation])
        guard case .transform(let gotList)? = tl.value("transform", layer: 0, in: tl.state(at: 0.5)) else { Issue.record("no transform"); return }
        for (a, b) in zip(gotList.matrix.array, expected) { #expect(close(a, b, 1e-12)) }

        let functionwise = Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1),
                                       interpolation: .functions)
        let tf = Build.timeline([functionwise])
        guard case .transform(let gotFunctions)? = tf.value("transform", layer: 0, in: tf.state(at: 0.5)) else { Issue.record("no transform"); return }
        for (a, b) in zip(gotFunctions.matrix.array, M4.rotation(175 * .pi / 180, 0, 0, 1).array) { #expect(close(a, b, 1e-12)) }

        let scalar = Build.basic("transform.rotation.z", from: .number(0), to: .number(350 * .pi / 180), Timing(duration: 1))
        #expect(close(Build.timeline([scalar]).number("transform.rotation.z", at: 0.5), 175 * .pi / 180, 1e-12))
    }

    /// The scrub scenario: 15° → 360° over 2 s with easeInEaseOut is 187.5° at the middle.
    @Test func theScrubRotationGoesTheLongWay() {
        let a = Build.basic("transform.rotation.z", from: .number(15 * .pi / 180), to: .number(2 * .pi),
                            Timing(duration: 2, timingFunction: .easeInEaseOut), name: "spin")
        let t = Build.timeline([a], properties: [.transform: .transform(Transform([.rotate(x: 0, y: 0, z: 1, angle: 2 * .pi)]))])
        #expect(close(t.number("transform.rotation.z", at: 1) * 180 / .pi, 187.5, 1e-9))
        let m = t.state(at: 1).matrix(ofLayer: 0)
        let rotated = M4.rotation(187.5 * .pi / 180, 0, 0, 1)
        #expect(close(m[0, 0], rotated[0, 0], 1e-12) && close(m[0, 1], rotated[0, 1], 1e-12))
        // At a fraction, with and without scrubbing linearly.
        let eased = t.state(atFraction: 0.25, ofAnimation: 0, scrub: .timing)!
        let linear = t.state(atFraction: 0.25, ofAnimation: 0, scrub: .linear)!
        let ease = UnitBezier(0.42, 0, 0.58, 1).solve(0.25)
        #expect(close(t.value("transform.rotation.z", layer: 0, in: eased)!.number * 180 / .pi, 15 + 345 * ease, 1e-9))
        #expect(close(t.value("transform.rotation.z", layer: 0, in: linear)!.number * 180 / .pi, 15 + 345 * 0.25, 1e-9))
    }

    /// Several animations on one property apply in order: non-additive replaces, additive adds.
    @Test func animationsComposeInTheOrderTheyWereAdded() {
        let base = Build.basic("zPosition", from: .number(10), to: .number(20), Timing(duration: 1), name: "base")
        let wobble = Build.basic("zPosition", from: .number(0), to: .number(4), Timing(duration: 1), name: "wobble", additive: true)
        let override = Build.basic("zPosition", from: .number(100), to: .number(100), Timing(beginTime: 0.75, duration: 1), name: "override")
        let t = Build.timeline([base, wobble, override], properties: [.zPosition: .number(-1)])
        #expect(close(t.number("zPosition", at: 0.5), 15 + 2, 1e-12))
        #expect(t.number("zPosition", at: 0.8) == 100)
        #expect(t.number("zPosition", at: 1.7) == 100)
        #expect(t.number("zPosition", at: 1.9) == -1)   // all removed: the model value
    }

    /// Key times that stop short of 1 (NVActivityIndicatorView's `keyTimes = [0, 0.7]`)
    /// reach the last value at 0.7 and hold it; short of 0, the first value holds.
    @Test func keyTimesShortOfTheEndsHoldTheEndValues() {
        let late = Build.property("zPosition", Timing(duration: 1),
                                  .keyframes(Keyframes(values: [.number(0), .number(10)], keyTimes: [0, 0.7])))
        let t = Build.timeline([late])
        #expect(close(t.number("zPosition", at: 0.35), 5, 1e-12))
        #expect(t.number("zPosition", at: 0.7) == 10)
        #expect(t.number("zPosition", at: 0.85) == 10)
        #expect(t.number("zPosition", at: 1) == 10)
        let early = Build.property("zPosition", Timing(duration: 1),
                                   .keyframes(Keyframes(values: [.number(0), .number(10)], keyTimes: [0.2, 1])))
        let e = Build.timeline([early])
        #expect(e.number("zPosition", at: 0.1) == 0)
        #expect(close(e.number("zPosition", at: 0.6), 5, 1e-12))
        // Full key times still extrapolate an overshooting curve past the last value.
        let overshoot = Build.property("zPosition", Timing(duration: 1, timingFunction: .cubic(x1: 0.5, y1: 0, x2: 0.5, y2: 1.5)),
                                       .keyframes(Keyframes(values: [.number(0), .number(10)], keyTimes: [0, 1])))
        #expect(Build.timeline([overshoot]).number("zPosition", at: 0.8) > 10)
    }

    /// Cumulative: each cycle starts from the previous cycle's end.
    @Test func cumulativeAccumulatesTheEndValuePerCycle() {
        let a = Build.basic("zPosition", from: .number(0), to: .number(10), Timing(duration: 1, repeatCount: 3), cumulative: true)
        let t = Build.timeline([a])
        #expect(close(t.number("zPosition", at: 0.5), 5, 1e-12))
        #expect(close(t.number("zPosition", at: 1.5), 15, 1e-12))
        #expect(close(t.number("zPosition", at: 2.5), 25, 1e-12))
    }

    /// A missing end is the model value, and `presentation` is what the property shows
    /// when the animation begins.
    @Test func modelAndPresentationEnds() {
        let toss = Build.property("zPosition", Timing(duration: 0.4), .decay(from: .model, velocity: .number(100), deceleration: 0.998))
        let back = Build.property("zPosition", Timing(beginTime: 0.4, duration: 1), .basic(from: .presentation, to: .model), name: "back")
        let t = Build.timeline([toss, back], properties: [.zPosition: .number(7)])
        let release = 7 + 100 * Decay.displacement(at: 0.4, rate: 0.998)
        #expect(close(t.number("zPosition", at: 0.4), release, 1e-12))
        #expect(close(t.number("zPosition", at: 0.9), release + (7 - release) * 0.5, 1e-12))
        // 1.4 − 0.4 is 0.9999999999999999 in binary; 1.4 is still the end the source
        // wrote, so the value is exactly the end value.
        #expect(t.number("zPosition", at: 1.4) == 7)
        #expect(t.number("zPosition", at: 1.5) == 7)
        let exact = Build.timeline([Build.basic("zPosition", from: .number(0.1), to: .number(0.7), Timing(beginTime: 0.5, duration: 1))])
        #expect(exact.number("zPosition", at: 1.5) == 0.7)
    }

    @Test func pathsOfEqualStructureMorph() {
        let a = Path([.move(to: Point(0, 0)), .line(to: Point(10, 0))])
        let b = Path([.move(to: Point(0, 10)), .line(to: Point(30, 10))])
        let t = Build.timeline([Build.basic("path", from: .path(a), to: .path(b), Timing(duration: 1))], kind: .shape)
        #expect(t.value("path", layer: 0, in: t.state(at: 0.5)) == .path(Path([.move(to: Point(0, 5)), .line(to: Point(20, 5))])))
    }
}

extension Value {
    var number: Double { if case .number(let x) = self { return x } else { return .nan } }
}
