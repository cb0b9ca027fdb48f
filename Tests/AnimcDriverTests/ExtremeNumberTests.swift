import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcSyntax
import AnimcTestSupport
import AnimcTimeline
import Testing

/// Every number of every example, replaced in turn by extreme values: the whole
/// pipeline must answer with diagnostics or with IR that validates, compiles, samples
/// at extreme times and plans a bake, without trapping. Conversions such as
/// `Int(repeatCount)` or the frame count of a window trapped on values like these.
@Suite struct ExtremeNumberTests {
    static let extremes = ["9223372036854775807", "1e300", "-1e300", "1e-300", "0", "-0.0", "4294967296", "1e15"]

    @Test(arguments: Repository.examples)
    func everyNumberPositionSurvivesExtremeValues(_ path: String) {
        let bytes = Repository.bytes(path)
        let numbers = Lexer.lex(SourceFile(name: path, bytes: bytes)).tokens.filter { $0.kind == .number }
        // A seeded sample keeps the run short on the splash, which has hundreds of numbers.
        var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: path.utf8.count) &* 977)
        let chosen = numbers.count <= 60 ? numbers : (0..<60).map { _ in numbers[Int(rng.next() % UInt64(numbers.count))] }
        let finished = finishes(within: 300) {
            for token in chosen {
                // Keep the unit: `3s` becomes `1e300s`.
                let text = String(decoding: bytes[Int(token.range.start)..<Int(token.range.end)], as: UTF8.self)
                let unit = String(text.drop { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" })
                for extreme in Self.extremes {
                    var mutated = bytes
                    mutated.replaceSubrange(Int(token.range.start)..<Int(token.range.end), with: Array((extreme + unit).utf8))
                    Self.exercise(mutated)
                }
            }
        }
        #expect(finished, "\(path): extreme numbers did not finish within 300 s")
    }

    static func exercise(_ bytes: [UInt8]) {
        let result = Pipeline.compile(SourceFile(name: "m.anim", bytes: bytes))
        guard let composition = result.composition else { return }
        #expect(IRValidation.problems(composition).isEmpty)
        let timeline = Timeline(composition)
        var state = timeline.makeState()
        for t in [0, 1.5, 1e300, -1e300] as [Double] { timeline.evaluate(at: t, into: &state) }
        _ = Baker.plan(timeline)
        _ = Baker.plan(timeline, fps: 1000, window: TimeWindow(start: -1e300, end: 1e300, includesEnd: true))
        _ = TimelineWriter.bytes(composition).count
    }
}
