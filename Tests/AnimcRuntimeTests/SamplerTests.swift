import AnimcIR
@testable import AnimcRuntime
import Testing

@Suite struct SamplerTests {
    /// The direct path (one keyframe animation) and the general path (several) give
    /// exactly what full evaluation gives, for increasing and decreasing times.
    @Test func samplersAgreeWithFullEvaluation() {
        let keyframes = Build.property("opacity", Timing(beginTime: 0.2, duration: 2, repeatCount: 2.5, autoreverses: true, fillMode: .both,
                                                         removedOnCompletion: false, timingFunction: .easeIn),
                                       .keyframes(Keyframes(values: [.number(0), .number(1), .number(0.25)], keyTimes: [0, 0.3, 1],
                                                            timingFunctions: [.easeInEaseOut, .cubic(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55)])))
        let extra = Build.basic("opacity", from: .number(0), to: .number(0.5), Timing(beginTime: 3, duration: 1), name: "extra", additive: true)
        for animations in [[keyframes], [keyframes, extra]] {
            let t = Build.timeline(animations, properties: [.opacity: .number(0.8)])
            var sampler = t.sampler(layer: 0, keyPath: "opacity")!
            var times = (0..<400).map { Double($0) * 0.031 - 1 }
            times += times.reversed()
            for time in times {
                #expect(sampler.value(at: time) == t.number("opacity", at: time), "t = \(time)")
            }
        }
        #expect(Build.timeline([keyframes]).sampler(layer: 0, keyPath: "transform") == nil)
    }
}
