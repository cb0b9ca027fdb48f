import AnimcBase
import AnimcIR
import AnimcRuntime
import AnimcTestSupport
import AnimcTimeline
import Testing

/// Timeline documents that once broke the loader or the runtime (the `timeline` fuzz
/// target saves its findings here; some are written by hand). An app loads timelines
/// it did not compile, so each must either be refused with a message or load, compile
/// and evaluate at any time without trapping.
@Suite struct LoaderRegressionTests {
    static let cases = Repository.files(in: "Tests/AnimcBackendTests/Fixtures/loader-regressions", withExtension: "json")

    @Test func thereAreCases() { #expect(!Self.cases.isEmpty) }

    @Test(arguments: cases)
    func loadsOrRefusesAndNeverTraps(_ path: String) {
        let bytes = Repository.bytes(path)
        let finished = finishes(within: 60) {
            do throws(TimelineLoadError) {
                let composition = try TimelineLoader.load(bytes)
                #expect(IRValidation.problems(composition).isEmpty, "\(path) loaded invalid IR")
                let timeline = Timeline(composition)
                var state = timeline.makeState()
                let times: [Double] = [0, 1, -1e300, 1e300, .infinity, -.infinity, .nan]
                for t in times {
                    timeline.evaluate(at: t, into: &state)
                }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        #expect(finished, "\(path) did not load or evaluate within 60 s")
    }
}
