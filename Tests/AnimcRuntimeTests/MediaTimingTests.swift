import AnimcIR
@testable import AnimcRuntime
import Testing

/// Core Animation's timing model: the vectors of semantics.md §17 and its properties.
@Suite struct MediaTimingTests {
    func timing(_ t: Timing, topLevel: Bool = true) -> MediaTiming { MediaTiming(t, topLevel: topLevel) }

    @Test func theSemanticsVectors() {
        var t = timing(Timing(beginTime: 1, duration: 1.5))
        #expect(t.sample(0.5).phase == .absent)
        t = timing(Timing(beginTime: 1, duration: 1.5, fillMode: .backwards))
        #expect(t.sample(0.5).phase == .fillingBackwards && t.sample(0.5).progress == 0)
        t = timing(Timing(beginTime: 1, duration: 1.5))
        #expect(t.sample(1.75).phase == .active && close(t.sample(1.75).progress, 0.5, 1e-12))
        t = timing(Timing(beginTime: 1, duration: 1.5, fillMode: .forwards, removedOnCompletion: false))
        #expect(t.sample(3).phase == .fillingForwards && t.sample(3).progress == 1)

        t = timing(Timing(duration: 0.5, repeatCount: 2.5, autoreverses: true))
        #expect(close(t.sample(0.25).progress, 0.5, 1e-12))   // forward
        #expect(close(t.sample(0.75).progress, 0.5, 1e-12))   // back
        #expect(close(t.sample(1.1).progress, 0.2, 1e-12))    // forward
        #expect(close(t.sample(2.4).progress, 0.8, 1e-12))    // forward
        #expect(t.sample(2.5).phase == .active && t.sample(2.5001).phase == .absent)  // ends at 2.5 s

        t = timing(Timing(duration: 1.5, repeatDuration: 2, fillMode: .forwards, removedOnCompletion: false))
        #expect(close(t.sample(1.75).progress, 1.0 / 6, 1e-9))
        #expect(close(t.sample(5).progress, 1.0 / 3, 1e-9))   // cut mid-pass

        t = timing(Timing(duration: 3, timeOffset: 1))
        #expect(close(t.sample(0).progress, 1.0 / 3, 1e-12))
        #expect(close(t.sample(1.5).progress, 2.5 / 3, 1e-12))
        #expect(close(t.sample(2.5).progress, 0.5 / 3, 1e-12))
        #expect(t.sample(3.0001).phase == .absent)            // still ends at 3 s

        t = timing(Timing(duration: 3, speed: 2))
        #expect(close(t.sample(0.75).progress, 0.5, 1e-12))
        #expect(t.sample(1.5).phase == .active && t.sample(1.5001).phase == .absent)

        t = timing(Timing(duration: 1, speed: 0, timeOffset: 0.3))
        for tp in [-5.0, 0, 3, 1000] { #expect(close(t.sample(tp).progress, 0.3, 1e-12) && t.sample(tp).phase == .active) }

        t = timing(Timing(beginTime: 5, duration: 1, speed: -1))
        #expect(close(t.sample(4.25).progress, 0.75, 1e-12))
        #expect(t.sample(4.25).phase == .active && t.sample(5.1).phase == .absent && t.sample(3.9).phase == .absent)

        t = timing(Timing(duration: 1, repeatCount: 1.5))
        #expect(close(t.sample(1.25).progress, 0.25, 1e-12))

        // CSS `iterations: 3; direction: alternate` is repeatCount 1.5 with autoreverses.
        t = timing(Timing(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: .forwards, removedOnCompletion: false))
        #expect(t.activeDuration == 3)
        #expect(t.sample(3).progress == 1)                     // ends forward
    }

    @Test func speedTwoHalvesEveryInterval() {
        for begin in [0.0, 0.7, 2] { for d in [0.5, 1, 3] { for k in 0...40 {
            let x = Double(k) * 0.13
            let slow = timing(Timing(beginTime: begin, duration: d, repeatCount: 3, autoreverses: true)).sample(begin + x)
            let fast = timing(Timing(beginTime: begin, duration: d, speed: 2, repeatCount: 3, autoreverses: true)).sample(begin + x / 2)
            #expect(slow.phase == fast.phase && close(slow.progress, fast.progress, 1e-12))
        } } }
    }

    @Test func autoreversesMirrorsEachPass() {
        let t = timing(Timing(duration: 2, repeatCount: 2, autoreverses: true))
        for k in 1..<40 {
            let x = Double(k) * 0.05
            #expect(close(t.sample(2 + x).progress, t.sample(2 - x).progress, 1e-12))
        }
    }

    @Test func fillModesExactlyAtTheBoundaries() {
        let removed = timing(Timing(beginTime: 1, duration: 2))
        #expect(removed.sample(1).phase == .active && removed.sample(1).progress == 0)
        #expect(removed.sample(3).phase == .active && removed.sample(3).progress == 1)  // end-inclusive
        #expect(removed.sample(0.999999).phase == .absent && removed.sample(3.000001).phase == .absent)
        let both = timing(Timing(beginTime: 1, duration: 2, fillMode: .both, removedOnCompletion: false))
        #expect(both.sample(0).phase == .fillingBackwards && both.sample(0).progress == 0)
        #expect(both.sample(9).phase == .fillingForwards && both.sample(9).progress == 1)
        // Forwards fill with removedOnCompletion left true: removed (top level only).
        let kept = timing(Timing(beginTime: 1, duration: 2, fillMode: .forwards))
        #expect(kept.sample(9).phase == .absent)
        #expect(timing(Timing(beginTime: 1, duration: 2, fillMode: .forwards), topLevel: false).sample(9).phase == .fillingForwards)
    }

    @Test func repeatCountTwoAndAHalfEndsMidCycle() {
        let t = timing(Timing(duration: 1, repeatCount: 2.5, fillMode: .forwards, removedOnCompletion: false))
        #expect(close(t.sample(2.5).progress, 0.5, 1e-12))
        #expect(close(t.sample(10).progress, 0.5, 1e-12))
        #expect(t.sample(2.25).cycle == 2)
    }

    /// A frozen value with a timeOffset is the last value shown, not a jump to the start.
    @Test func timeOffsetWrapsAndTheFillIsTheLeftLimit() {
        let t = timing(Timing(duration: 3, timeOffset: 1, fillMode: .forwards, removedOnCompletion: false))
        #expect(close(t.sample(1.999).progress, 2.999 / 3, 1e-9))
        #expect(close(t.sample(2.001).progress, 0.001 / 3, 1e-9))
        #expect(close(t.sample(3).progress, 1.0 / 3, 1e-12))
        #expect(close(t.sample(7).progress, 1.0 / 3, 1e-12))
        // Negative offsets and offsets beyond the active duration wrap too.
        #expect(close(timing(Timing(duration: 3, timeOffset: -1)).sample(0.5).progress, 2.5 / 3, 1e-12))
        #expect(close(timing(Timing(duration: 3, timeOffset: 7)).sample(0.5).progress, 1.5 / 3, 1e-12))
    }

    /// Nested groups: speeds multiply (2 × 1.5 = 3), beginTimes are in the parent's time,
    /// and a child is clipped to its group's duration.
    @Test func nestedGroupsCompose() {
        let child = Build.basic("zPosition", from: .number(0), to: .number(1), Timing(duration: 3, speed: 1.5))
        let t = Build.timeline([Build.group("g", Timing(beginTime: 1, duration: 10, speed: 2), [child])])
        // At composition time 1.5: group time 1, child time 1.5 of 3.
        #expect(close(t.number("zPosition", at: 1.5), 0.5, 1e-12))
        // A child with beginTime in a group with a timing function sees the warped time.
        let warped = Build.group("w", Timing(duration: 2, timingFunction: .easeIn),
                                 [Build.basic("zPosition", from: .number(0), to: .number(2), Timing(duration: 2))])
        let tw = Build.timeline([warped])
        #expect(close(tw.number("zPosition", at: 1), 2 * UnitBezier(0.42, 0, 1, 1).solve(0.5), 1e-12))
    }

    @Test func aChildPastItsGroupsEndIsClipped() {
        let child = Build.basic("zPosition", from: .number(0), to: .number(10), Timing(duration: 10))
        let t = Build.timeline([Build.group("g", Timing(duration: 5, fillMode: .forwards, removedOnCompletion: false), [child])])
        #expect(close(t.number("zPosition", at: 4), 4, 1e-12))
        #expect(close(t.number("zPosition", at: 8), 5, 1e-12))   // frozen at the group's end: 5 of 10
    }

    /// Layer timing (CALayer adopts CAMediaTiming): the pause idiom.
    @Test func layerSpeedZeroPausesAtItsTimeOffset() {
        let a = Build.basic("zPosition", from: .number(0), to: .number(10), Timing(duration: 10))
        let c = Build.composition([Build.layer("a", animations: [a], timing: LayerTiming(speed: 0, timeOffset: 3))])
        let t = Timeline(c)
        #expect(close(t.number("zPosition", at: 0), 3, 1e-12))
        #expect(close(t.number("zPosition", at: 100), 3, 1e-12))
    }

    @Test func phasesAreReported() {
        let t = Build.timeline([Build.basic("zPosition", from: .number(0), to: .number(1),
                                            Timing(beginTime: 1, duration: 1, fillMode: .both, removedOnCompletion: false), name: "z")])
        #expect(t.phase(ofAnimation: 0, at: 0) == .fillingBackwards)
        #expect(t.phase(ofAnimation: 0, at: 1.5) == .active)
        #expect(t.phase(ofAnimation: 0, at: 3) == .fillingForwards)
    }

    /// Shimmer's left direction: speed −1, repeatCount HUGE_VALF, beginTime after the
    /// fade. It waits for its beginTime and then plays backwards forever; the progress
    /// at begin + x is 1 − frac(x / d) (d = 2: at +0.5 s, 0.75 of the way).
    @Test func aNegativeSpeedThatRepeatsForeverPlaysBackwardsFromItsBeginTime() {
        let d = 2.0, begin = 0.1
        let t = timing(Timing(beginTime: begin, duration: d, speed: -1, repeatCount: .infinity,
                              fillMode: .forwards, removedOnCompletion: false))
        #expect(t.sample(0.05).phase == .absent)
        #expect(t.sample(begin).phase == .active && t.sample(begin).progress == 0)
        for x in [0.5, 1.2, 1.999, 2.5, 7.3, 1000.25] {
            let s = t.sample(begin + x)
            let expected = 1 - (x / d - (x / d).rounded(.down))
            #expect(s.phase == .active && close(s.progress, expected, 1e-9), "at begin + \(x)")
        }
        // With a backwards fill it shows its content at timeOffset before it begins.
        let filled = timing(Timing(beginTime: 1, duration: 1, speed: -2, timeOffset: 0.25, repeatCount: .infinity, fillMode: .both))
        #expect(filled.sample(0).phase == .fillingBackwards && close(filled.sample(0).progress, 0.25, 1e-12))
        // At twice the speed backwards: 0.25 − 2·0.1 = 0.05, then 0.25 − 2·0.2 wraps to 0.85.
        #expect(close(filled.sample(1.1).progress, 0.05, 1e-9) && close(filled.sample(1.2).progress, 0.85, 1e-9))
        // Its interval, for the checker and the schedule.
        let span = Timing(beginTime: 3, duration: 1, speed: -1, repeatCount: .infinity).activeSpan
        #expect(span.start == 3 && span.end == .infinity)
    }

    /// A layer with a duration runs its time through passes, as an animation does: with
    /// duration 1, autoreverses and repeatCount 2.5 the layer's time goes 0→1, 1→0,
    /// 0→1, 1→0, 0→1 over 5 s and then holds; an animation of 0 → 10 over 1 s on it
    /// shows 10 × the layer's time.
    @Test func aLayerWithADurationReplaysItsAnimations() {
        let z = Build.basic("zPosition", from: .number(0), to: .number(10), Timing(duration: 1))
        let layer = Build.layer("a", animations: [z], timing: LayerTiming(duration: 1, repeatCount: 2.5, autoreverses: true))
        let child = Build.layer("a.b", parent: 0, animations: [z])
        let t = Timeline(Build.composition([layer, child]))
        let expected: [(Double, Double)] = [(0.25, 2.5), (0.5, 5), (1.25, 7.5), (1.75, 2.5), (2.25, 2.5), (4.5, 5), (6, 10), (-1, 0)]
        for (time, value) in expected {
            for id in ["a", "a.b"] {
                guard case .number(let x)? = t.value("zPosition", layer: id, at: time) else { Issue.record("no value"); continue }
                #expect(abs(x - value) < 1e-9, "\(id) at \(time) s: \(x), expected \(value)")
            }
        }
        // Its time is no single map of the composition's: the schedule and the
        // conversions that need one say so rather than guess.
        #expect(t.settledTime(0, fromLayerTime: 1) == 5)
        #expect(t.rootTime(0, fromLayerTime: 0.5) == nil)
        let forever = Timeline(Build.composition([Build.layer("a", animations: [z], timing: LayerTiming(duration: 1, repeatCount: .infinity))]))
        #expect(forever.naturalEnd.end == nil)
    }
}
