import AnimcBase
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcTestSupport
import AnimcTimeline
import Testing

func compileExample(_ path: String) -> Composition? {
    Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path))).composition
}

@Suite struct TimelineTests {
    /// Timeline JSON → runtime equals IR → runtime, bit for bit, at 1,000 times per example.
    @Test(arguments: Repository.examples)
    func roundTripSamplesBitForBit(_ path: String) throws {
        let ir = try #require(compileExample(path))
        let loaded = try TimelineLoader.load(TimelineWriter.bytes(ir))
        let a = Timeline(ir), b = Timeline(loaded)
        var sa = a.makeState(), sb = b.makeState()
        let end = (ir.window?.end ?? 5) + 0.5
        for k in 0..<1000 {
            let t = -0.5 + (end + 0.5) * Double(k) / 999
            a.evaluate(at: t, into: &sa)
            b.evaluate(at: t, into: &sb)
            #expect(sa.rawValues == sb.rawValues, "\(path) values differ at t = \(t)")
            #expect(sa.rawMatrices == sb.rawMatrices, "\(path) matrices differ at t = \(t)")
            #expect(sa.rawOpacities == sb.rawOpacities, "\(path) opacities differ at t = \(t)")
            if sa.rawValues != sb.rawValues { return }
        }
    }

    /// Writing the loaded IR again gives the same bytes: nothing is lost or reordered.
    @Test(arguments: Repository.examples)
    func writeLoadWriteIsStable(_ path: String) throws {
        let ir = try #require(compileExample(path))
        let first = TimelineWriter.bytes(ir)
        #expect(TimelineWriter.bytes(try TimelineLoader.load(first)) == first)
    }

    @Test(arguments: Repository.examples)
    func timelineOutputValidatesAgainstItsSchema(_ path: String) throws {
        let ir = try #require(compileExample(path))
        let schema = try JSONParser.parse(Repository.bytes("docs/schemas/animc.timeline.schema.json"))
        let errors = SchemaValidator(schema: schema).validate(TimelineWriter.json(ir))
        #expect(errors.isEmpty, "\(errors)")
    }

    /// Malformed or hostile timelines are refused with the path of the problem; none traps.
    @Test func theLoaderRefusesBrokenFilesWithAPath() throws {
        let good = try #require(compileExample("examples/scrub.anim"))
        let text = TimelineWriter.json(good).serializedString(style: .compact)
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            ("{}", "format"),
            (text.replacingFirst("\"version\":1", with: "\"version\":2"), "version 2 is not supported"),
            (text.replacingFirst("\"duration\":2", with: "\"duration\":-2"), "duration"),
            (text.replacingFirst("\"duration\":2", with: "\"duration\":\"2\""), "layers[0].animations[0].timing.duration: expected a number"),
            (text.replacingFirst("\"keyPath\":\"transform.rotation.z\"", with: "\"keyPath\":\"transform.wobble\""), "unknown key path"),
            (text.replacingFirst("\"kind\":\"layer\"", with: "\"kind\":\"sprite\""), "layers[0].kind: unknown value 'sprite'"),
            (text.replacingFirst("\"parent\":null", with: "\"parent\":5"), "must name an earlier layer"),
            (text.replacingFirst("\"fillMode\":\"removed\"", with: "\"fillMode\":\"sideways\""), "unknown value 'sideways'"),
        ]
        for (input, expected) in cases {
            do {
                _ = try TimelineLoader.load(Array(input.utf8))
                Issue.record("accepted: \(expected)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description) should mention \(expected)")
            }
        }
    }

    @Test func keyframeInvariantsAreValidatedBeforeTheRuntimeSeesThem() throws {
        let ir = try #require(compileExample("examples/splash.anim"))
        var text = TimelineWriter.json(ir).serializedString(style: .compact)
        text = text.replacingFirst("\"keyTimes\":[0,0.45,0.887,1]", with: "\"keyTimes\":[0,0.45,1]")
        #expect(throws: TimelineLoadError.self) { _ = try TimelineLoader.load(Array(text.utf8)) }
    }

    @Test func randomBytesNeverTrapTheLoader() {
        var rng = SplitMix64(seed: 7)
        let base = Array(TimelineWriter.json(compileExample("examples/toss.anim")!).serializedString(style: .compact).utf8)
        for _ in 0..<500 {
            var m = base
            for _ in 0..<3 { m[Int(rng.next() % UInt64(m.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            if let c = try? TimelineLoader.load(m) { _ = Timeline(c).state(at: 0.5) }
        }
    }
}

extension String {
    func replacingFirst(_ a: String, with b: String) -> String {
        guard let r = range(of: a) else { return self }
        return replacingCharacters(in: r, with: b)
    }
}
