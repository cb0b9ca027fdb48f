import AnimcBase
import AnimcCompiler
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
            (text.replacingFirst("\"version\":2", with: "\"version\":3"), "version 3 is not supported"),
            (text.replacingFirst("\"duration\":2", with: "\"duration\":-2"), "duration"),
            (text.replacingFirst("\"duration\":2", with: "\"duration\":\"2\""), "layers[0].animations[0].timing.duration: expected a number"),
            (text.replacingFirst("\"keyPath\":\"transform.rotation.z\"", with: "\"keyPath\":\"transform.wobble\""), "unknown key path"),
            (text.replacingFirst("\"kind\":\"layer\"", with: "\"kind\":\"sprite\""), "layers[0].kind: unknown value 'sprite'"),
            (text.replacingFirst("\"kind\":\"layer\"", with: "\"kind\":\"layer\",\"parent\":5"), "must name an earlier layer"),
            (text.replacingFirst("\"animations\":[", with: "\"animations\":[0,"), "no shared animation comes before this reference"),
            (text.replacingFirst("\"format\"", with: "\"animations\":[7],\"format\""), "animations[0]: expected an animation, not a reference"),
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

    /// Version 1 files (every animation where it occurs, every layer field) still load,
    /// and play as the same source compiled today.
    @Test(arguments: Repository.files(in: "Tests/AnimcBackendTests/Fixtures/timeline-v1", withExtension: "json"))
    func versionOneTimelinesStillLoad(_ path: String) throws {
        let old = try TimelineLoader.load(Repository.bytes(path))
        let name = String(path.split(separator: "/").last?.split(separator: ".").first ?? "")
        let ir = try #require(compileExample("examples/\(name).anim"))
        #expect(TimelineWriter.bytes(old) == TimelineWriter.bytes(ir), "\(path) reads back as something else")
    }

    /// An animation that occurs more than once is written once, in the table, and each
    /// occurrence is its index; children go before the groups that hold them.
    @Test func repeatedAnimationsAreWrittenOnce() throws {
        let source = Repository.read("Tests/AnimcBackendTests/Fixtures/timeline-v2/shared-tiles.anim")
        let ir = try #require(Pipeline.compile(SourceFile(name: "tiles.anim", text: source)).composition)
        let json = TimelineWriter.json(ir)
        let table = try #require(json["animations"]?.arrayValue)
        // The two children (shared by all three), then the group of a and b.
        #expect(table.map { $0["name"]?.stringValue } == ["opacity", "position.x", "pulse"])
        #expect(table[2]["group"] == .array([.number(0), .number(1)]))
        let layers = try #require(json["layers"]?.arrayValue)
        // Layer 0 is `tiles`, without animations.
        #expect(layers[1]["animations"] == .array([.number(2)]) && layers[2]["animations"] == .array([.number(2)]))
        let inline = try #require(layers[3]["animations"]?.arrayValue?.first)
        #expect(inline["name"] == .string("pulse") && inline["group"] == .array([.number(0), .number(1)]))
        let loaded = try TimelineLoader.load(json.serialized())
        #expect(TimelineWriter.bytes(loaded) == TimelineWriter.bytes(ir))
        #expect(loaded.layers.map { $0.animations.map(\.name) } == ir.layers.map { $0.animations.map(\.name) })
    }

    /// A reference must point back, into the table, and the tree it stands for must stay
    /// within the nesting and size limits however the table is built.
    @Test func sharedAnimationsCannotLoopNestTooDeeplyOrExplode() throws {
        let leaf = #"{"name":"o","timing":{"beginTime":0,"duration":1,"speed":1,"timeOffset":0,"repeatCount":0,"repeatDuration":0,"autoreverses":false,"fillMode":"removed","removedOnCompletion":true,"timingFunction":"linear"},"keyPath":"opacity","additive":false,"cumulative":false,"basic":{"from":{"value":{"number":0}},"to":{"value":{"number":1}}}}"#
        func group(_ name: String, _ children: String) -> String {
            #"{"name":"\#(name)","timing":{"beginTime":0,"duration":1,"speed":1,"timeOffset":0,"repeatCount":0,"repeatDuration":0,"autoreverses":false,"fillMode":"removed","removedOnCompletion":true,"timingFunction":"linear"},"group":[\#(children)]}"#
        }
        func document(_ table: [String], _ uses: String) -> [UInt8] {
            Array(#"{"format":"animc.timeline","version":2,"composition":{"name":"C","size":[10,10],"fps":60,"window":null,"backgroundColor":null},"animations":[\#(table.joined(separator: ","))],"layers":[{"id":"a","kind":"layer","properties":{},"animations":[\#(uses)]}]}"#.utf8)
        }
        let cases: [([String], String, String)] = [
            ([leaf, group("g", "1")], "1", "animations[1].group[0]: expected an index into the shared animations before it (0 to 0)"),
            ([leaf], "2", "layers[0].animations[0]: expected an index into the shared animations before it (0 to 0)"),
            ([leaf] + (1...65).map { group("g\($0)", "\($0 - 1)") }, "65", "groups nest too deeply"),
            ([leaf] + (1...40).map { group("g\($0)", "\($0 - 1),\($0 - 1)") }, "40", "expands to more than 2000000 animations"),
        ]
        for (table, uses, expected) in cases {
            do {
                _ = try TimelineLoader.load(document(table, uses))
                Issue.record("accepted: \(expected)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description) should mention \(expected)")
            }
        }
        // Within the limits, a shared group loads as the tree it stands for.
        let ok = try TimelineLoader.load(document([leaf, group("g", "0")], "1,0"))
        #expect(ok.layers[0].animations.map(\.name) == ["g", "o"])
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
