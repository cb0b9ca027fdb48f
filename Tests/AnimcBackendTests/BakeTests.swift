import AnimcBake
import AnimcBase
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcTestSupport
import Testing

@Suite struct BakeTests {
    static func bake(_ path: String) -> (Timeline, BakePlan, [UInt8])? {
        guard let ir = compileExample(path) else { return nil }
        let t = Timeline(ir)
        guard case .success(let plan) = Baker.plan(t) else { return nil }
        return (t, plan, Baker.bake(t, plan: plan))
    }

    @Test(arguments: Repository.examples)
    func bakedOutputValidatesAgainstItsSchema(_ path: String) throws {
        let (_, _, bytes) = try #require(Self.bake(path))
        let doc = try JSONParser.parse(bytes)
        let schema = try JSONParser.parse(Repository.bytes("docs/schemas/animc.baked.schema.json"))
        let errors = SchemaValidator(schema: schema).validate(doc)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// Every stored number equals the runtime's value at that frame, exactly: the
    /// printer is shortest-round-trip, so parsing gives back the same doubles.
    @Test(arguments: Repository.examples)
    func bakedOutputMatchesTheRuntimeAtEveryFrame(_ path: String) throws {
        let (t, plan, bytes) = try #require(Self.bake(path))
        let doc = try JSONParser.parse(bytes)
        let layers = try #require(doc["layers"]?.arrayValue)
        #expect(doc["frameCount"] == .number(Double(plan.frameCount)))
        var state = t.makeState()
        for f in 0..<plan.frameCount {
            t.evaluate(at: plan.time(ofFrame: f), into: &state)
            for (i, layer) in layers.enumerated() {
                let matrix = layer["matrix"]?["frames"]?.arrayValue?[f] ?? layer["matrix"]?["constant"]
                #expect(matrix?.arrayValue?.compactMap(\.numberValue) == state.matrix(ofLayer: i).array, "\(path) frame \(f) layer \(i)")
                let opacity = layer["opacity"]?["frames"]?.arrayValue?[f] ?? layer["opacity"]?["constant"]
                #expect(opacity?.numberValue == state.effectiveOpacity(ofLayer: i))
                for member in layer["animated"]?.objectValue ?? [] {
                    let expected = t.value(member.key, layer: i, in: state).map(ValueJSON.encode)
                    #expect(member.value.arrayValue?[f] == expected, "\(path) \(member.key) frame \(f)")
                }
                for member in layer["constant"]?.objectValue ?? [] where f == 0 || f == plan.frameCount - 1 {
                    #expect(member.value == t.value(member.key, layer: i, in: state).map(ValueJSON.encode))
                }
            }
        }
    }

    @Test(arguments: Repository.examples)
    func bakingIsDeterministic(_ path: String) throws {
        let (_, _, a) = try #require(Self.bake(path))
        let (_, _, b) = try #require(Self.bake(path))
        #expect(a == b)
    }

    @Test func framesCoverTheWindow() {
        #expect(BakePlan(fps: 60, window: TimeWindow(start: 0, end: 3, includesEnd: false)).frameCount == 180)
        #expect(BakePlan(fps: 60, window: TimeWindow(start: 0, end: 3, includesEnd: true)).frameCount == 181)
        #expect(BakePlan(fps: 30, window: TimeWindow(start: 0, end: 0.1, includesEnd: false)).frameCount == 3)
        #expect(BakePlan(fps: 60, window: TimeWindow(start: 1, end: 1, includesEnd: false)).frameCount == 1)
    }

    @Test func anUnboundedCompositionIsRefused() {
        var ir = compileExample("examples/splash.anim")!
        ir.window = nil
        guard case .failure(.unbounded(let info, _)) = Baker.plan(Timeline(ir)) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(info.path == "transform.scale")
    }

    @Test func anAbsurdBakeIsRefusedBeforeAllocating() {
        let ir = compileExample("examples/splash.anim")!
        let window = TimeWindow(start: 0, end: 1e7, includesEnd: false)
        guard case .failure(.tooLarge(let frames, let channels, _)) = Baker.plan(Timeline(ir), window: window) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(frames == 600_000_000 && channels > 1000)
    }

    @Test func aWindowFromTheLastAnimationWhenNoneIsGiven() {
        var ir = compileExample("examples/toss.anim")!
        ir.window = nil
        guard case .success(let plan) = Baker.plan(Timeline(ir)) else { Issue.record("refused"); return }
        // The spring back ends at 0.4 s plus its settling time.
        #expect(abs(plan.window.end - (0.4 + SpringParameters(perceptualDuration: 0.5, bounce: 0.2).settlingDuration)) < 1e-9)
        #expect(plan.window.includesEnd)
    }
}
