import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcTestSupport
import AnimcTimeline
import Foundation
import Testing

/// What porting real Core Animation code found (issue 13): each case is a fixture in
/// Fixtures/porting with its `check` output as a golden, and the values it must give,
/// computed here by hand or by an independent formula.
@Suite struct PortingTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/porting"
    static let cases = Repository.files(in: folder, withExtension: "anim")

    static func compile(_ name: String) -> CompileResult {
        let path = folder + "/" + name + ".anim"
        return Pipeline.compile(SourceFile(name: name + ".anim", bytes: Repository.bytes(path)))
    }

    static func timeline(_ name: String) -> Timeline? {
        compile(name).composition.map(Timeline.init)
    }

    @Test(arguments: cases)
    func checkOutputMatchesGolden(_ path: String) {
        let name = String(path.split(separator: "/").last?.dropLast(5) ?? "")
        let result = Self.compile(name)
        let text = HumanRenderer().render(result.diagnostics, in: result.file)
        if let problem = Golden.check(text.isEmpty ? "no diagnostics\n" : text, against: String(path.dropLast(5)) + ".check.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// Item 1: `back` starts from what `go` shows at 1.3 s, its end: 100.
    @Test func aHandOffAtAnExactBoundaryStartsFromTheEndValue() throws {
        let t = try #require(Self.timeline("hand-off-at-an-exact-boundary"))
        func x(_ time: Double) -> Double? {
            guard case .number(let v)? = t.value("position.x", layer: "box", at: time) else { return nil }
            return v
        }
        func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }
        #expect(close(x(1.15), 50))
        #expect(x(1.3) == 100)  // the end of `go`, written 1 + 0.3: exactly its end value
        #expect(close(x(1.45), 50))  // halfway back from 100
        #expect(x(1.6) == 0)
    }

    /// Item 6: `P rotate3d(...)` is the list [P, rotation]: the rotation applies first.
    @Test func aNamedTransformBesideACallIsAList() throws {
        let result = Self.compile("named-transform-next-to-a-call")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let c = try #require(result.composition)
        let t = Timeline(c)
        let rotation = TransformFunction.rotate(x: 0, y: 1, z: 0, angle: .pi / 2)
        func transform(_ layer: String, at time: Double = 0) -> [Double]? {
            guard case .transform(let v)? = t.value("transform", layer: layer, at: time) else { return nil }
            return v.matrix.array
        }
        func close(_ a: [Double]?, _ b: [Double]) -> Bool { a.map { zip($0, b).allSatisfy { abs($0 - $1) < 1e-12 } } ?? false }
        #expect(close(transform("a"), Transform([.perspective(distance: 100), rotation]).matrix.array))
        #expect(close(transform("b"), Transform([.rotate(x: 0, y: 0, z: 1, angle: 10 * .pi / 180), .perspective(distance: 100)]).matrix.array))
        #expect(close(transform("d", at: 1), Transform([.perspective(distance: 100), rotation]).matrix.array))
    }

    /// Item 7: pasted Core Animation code is fixed in one check-and-fix cycle: applying
    /// every fix-it once gives a file without errors.
    @Test func pastedCodeIsFixedInOneCycle() throws {
        let result = Self.compile("pasted-core-animation-code")
        let swift = result.diagnostics.filter { $0.code.rawValue == "E0323" }
        #expect(swift.count >= 15)
        #expect(result.diagnostics.filter { $0.severity == .error }.allSatisfy { !$0.fixIts.isEmpty },
                "every error carries a fix-it")
        let edits = result.diagnostics.compactMap(\.fixIts.first).flatMap(\.edits)
        let fixed = applyEdits(edits, to: result.file.bytes)
        let golden = Self.folder + "/pasted-core-animation-code.fixed.anim"
        if let problem = Golden.check(String(decoding: fixed, as: UTF8.self), against: golden) { Issue.record(Comment(rawValue: problem)) }
        let again = Pipeline.compile(SourceFile(name: "fixed.anim", bytes: fixed))
        #expect(!again.hasErrors, "\(again.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        // The fixed file means what the Core Animation code meant: a turn in four
        // quarters, ending at 360°.
        let t = Timeline(try #require(again.composition))
        guard case .number(let angle)? = t.value("transform.rotation.z", layer: "spinner", at: 0.6) else { Issue.record("no angle"); return }
        #expect(abs(angle - .pi) < 1e-12)
    }

    /// Item 8: `layer dot[i]` in a loop makes dot[0] ... dot[4], each with its own timing.
    @Test func layersAreNamedByTheLoopIndex() throws {
        let result = Self.compile("layers-named-by-a-loop-index")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let c = try #require(result.composition)
        #expect(c.layers.map(\.id) == ["dots"] + (0..<5).map { "dots.dot[\($0)]" })
        let t = Timeline(c)
        for i in 0..<5 {
            // Dot i starts at 0.1·i s: at 0.3 s it is (0.3 − 0.1·i) / 0.5 of the way in.
            let expected = min(max((0.3 - 0.1 * Double(i)) / 0.5, 0), 1)
            guard case .number(let opacity)? = t.value("opacity", layer: "dots.dot[\(i)]", at: 0.3) else { Issue.record("no opacity"); continue }
            #expect(abs(opacity - expected) < 1e-12, "dot[\(i)]")
        }
    }

    /// Issue 37: `as step[c]` in a loop keys each animation by its index, so the three
    /// add up instead of replacing one another.
    @Test func animationsAreNamedByTheLoopIndex() throws {
        let result = Self.compile("animations-named-by-a-loop-index")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let c = try #require(result.composition)
        #expect(c.layers.first?.animations.map(\.name) == ["step[0]", "step[1]", "step[2]"])
        let t = Timeline(c)
        // Step i runs 0.2·i ..< 0.2·(i + 1) from 0 to 10 and holds both ways; they add.
        for (time, expected) in [(0.1, 5.0), (0.3, 15.0), (0.5, 25.0), (0.9, 30.0)] {
            guard case .number(let x)? = t.value("position.x", layer: "box", at: time) else { Issue.record("no x"); continue }
            #expect(abs(x - expected) < 1e-9, "at \(time) s: \(x)")
        }
    }

    /// Issue 37: `from: presentation` in a group reads what is below the child, as
    /// Core Animation's render tree does: 0 and 0.3 at 3.2 s, not the model values.
    @Test func presentationInsideAGroupSeesWhatIsBelow() throws {
        let t = try #require(Self.timeline("presentation-inside-a-group"))
        func opacity(_ layer: String, _ time: Double) -> Double? {
            guard case .number(let v)? = t.value("opacity", layer: layer, at: time) else { return nil }
            return v
        }
        #expect(opacity("grouped", 3.2).map { abs($0 - 0) < 1e-12 } == true)
        #expect(opacity("sibling", 3.2).map { abs($0 - 0.3) < 1e-12 } == true)
        // Halfway through each fade-in: from there halfway to 1.
        #expect(opacity("grouped", 3.65).map { abs($0 - 0.5) < 1e-9 } == true)
        #expect(opacity("sibling", 3.65).map { abs($0 - 0.65) < 1e-9 } == true)
    }

    /// Items 9 and 10: each step of the chain begins exactly where the one it names
    /// ends, on its own timeline; the fade waits for the spring to settle.
    @Test func sequencedAnimationsBeginWhereOthersEnd() throws {
        let result = Self.compile("sequencing")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let c = try #require(result.composition)
        func timing(_ layer: String, _ name: String) -> Timing? {
            c.layers.first { $0.id == layer }?.animations.first { $0.name == name }?.timing
        }
        let back = try #require(timing("card", "back"))
        let pop = try #require(timing("card", "pop"))
        let fade = try #require(timing("card", "fade"))
        let follow = try #require(timing("shadow", "follow"))
        #expect(back.beginTime == 0.6)  // 0.2 + 0.3 + 0.1, exactly as written
        #expect(pop.beginTime == 0.9)
        // The spring lasts its settling time, computed here from its closed form.
        let settling = SpringParameters(mass: 1, stiffness: 300, damping: 20).settlingDuration
        #expect(abs(pop.duration - settling) < 1e-12)
        #expect(abs(fade.beginTime - (0.9 + settling)) < 1e-12)
        // The shadow's time runs 0.5 s behind: the same instant is 0.5 s earlier there.
        #expect(abs(follow.beginTime - (fade.beginTime - 0.5)) < 1e-12)
        #expect(follow.duration == fade.duration)
        // The hand-off: `back` starts from where `go` holds, 150.
        let t = Timeline(c)
        guard case .number(let x)? = t.value("position.x", layer: "card", at: 0.6) else { Issue.record("no x"); return }
        #expect(x == 150)
    }

    /// Sequencing errors say why: an unknown name (with the qualified one when it
    /// lives in another layer), and an instant that does not exist.
    @Test func sequencingErrorsAreClear() {
        func messages(_ body: String) -> [String] {
            Pipeline.compile(SourceFile(name: "s.anim", text: "composition { size: 10 x 10 }\n" + body)).diagnostics.map(\.message)
        }
        #expect(messages("layer a { basic opacity as fade { from: 0, to: 1, duration: 1s } }\nlayer b { basic opacity { from: 0, to: 1, duration: 1s, beginTime: fade.end } }")
            .contains("no animation named 'fade' before this one"))
        #expect(messages("layer a { basic opacity as spin { from: 0, to: 1, duration: 1s, repeatCount: inf }\n basic zPosition { from: 0, to: 1, duration: 1s, beginTime: spin.end } }")
            .contains("'spin' has no finite end: it repeats forever"))
    }

    /// `added:`: nothing before the add time, not even a fill; a beginTime of 0 is the
    /// add time; a later animation under the same key replaces the earlier; animations
    /// apply in the order they were added. Values by hand from the fixture's numbers.
    @Test func animationsAddedAtATime() throws {
        let t = try #require(Self.timeline("added-at-a-time"))
        func value(_ layer: String, _ keyPath: String, _ time: Double) -> Double? {
            guard case .number(let v)? = t.value(keyPath, layer: layer, at: time) else { return nil }
            return v
        }
        func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }
        // Cycle i is added at 1.2·i s, draws 0 → 1 over 1 s from then and holds 1.
        for (time, expected) in [(0.5, 0.5), (1.1, 1), (1.2, 0), (1.7, 0.5), (2.3, 1), (3.0, 0.6), (3.9, 1)] {
            #expect(close(value("spinner", "strokeEnd", time), expected), "strokeEnd at \(time) s")
        }
        // The fade out holds 0; the fade in, added at 2 s, fills backwards with 0.5 only
        // from then (before it was added, the fade out's 0 shows), then plays 0.5 → 1.
        for (time, expected) in [(1.0, 0), (1.99, 0), (2.0, 0.5), (2.2, 0.5), (2.55, 0.75), (3.0, 1)] {
            #expect(close(value("text", "opacity", time), expected), "opacity at \(time) s")
        }
        // `over`, written first but added at 1 s, applies over `under` while it runs.
        for (time, expected) in [(0.5, 0.5), (1.5, 15), (2.5, 2.5)] {
            #expect(close(value("order", "zPosition", time), expected), "zPosition at \(time) s")
        }
        // The timeline says when each exists, and reads back the same.
        let c = try #require(Self.compile("added-at-a-time").composition)
        let cycles = c.layers[0].animations.map(\.timing)
        #expect(cycles.map(\.added) == [0, 1.2, 2.4] && cycles.map(\.replaced) == [1.2, 2.4, .infinity])
        #expect(cycles.map(\.beginTime) == [0, 1.2, 2.4])
        let loaded = try TimelineLoader.load(TimelineWriter.bytes(c))
        #expect(loaded.layers[0].animations.map(\.timing) == cycles)
    }

    /// `added:` only where Core Animation adds: a group's children come with the group.
    @Test func anAnimationInAGroupIsAddedWithIt() {
        let result = Pipeline.compile(SourceFile(name: "g.anim", text: """
            composition { size: 10 x 10 }
            layer a { group g { duration: 1s
              basic opacity { from: 0, to: 1, added: 1s } } }
            """))
        #expect(result.diagnostics.map(\.message) == ["an animation in a group is added with its group"])
    }
}

/// CAReplicatorLayer's tint (issue 49), against values computed here by hand: copy k's
/// multiplier is instanceColor + k × offset, each channel clamped to 0...1.
@Suite struct ReplicatorTintTests {
    static func timeline() throws -> Timeline {
        let result = PortingTests.compile("replicator-tint")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        return Timeline(try #require(result.composition))
    }

    static func colour(_ t: Timeline, _ keyPath: String, _ layer: String, at time: Double) -> [Double]? {
        guard case .color(let c)? = t.value(keyPath, layer: layer, at: time) else { return nil }
        return [c.red, c.green, c.blue, c.alpha]
    }

    static func close(_ a: [Double]?, _ b: [Double]) -> Bool {
        guard let a, a.count == b.count else { return false }
        return zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 }
    }

    @Test func eachCopysColoursAreMultipliedByItsTint() throws {
        let t = try Self.timeline()
        let g = 128.0 / 255  // instanceColor's green
        // fillColor (0.8, 0.4, 0.2): copy 0 × (1, g, 1), copy 1 × (0.75, g + 0.25, 1),
        // copy 2 × (0.5, 1 (clamped from g + 0.5), 1), copy 3 × (0.25, 1, 1).
        let expected: [(String, [Double])] = [
            ("row.dot", [0.8, 0.4 * g, 0.2, 1]),
            ("row.instance[1].dot", [0.6, 0.4 * (g + 0.25), 0.2, 1]),
            ("row.instance[2].dot", [0.4, 0.4, 0.2, 1]),
            ("row.instance[3].dot", [0.2, 0.4, 0.2, 1]),
        ]
        for (layer, rgba) in expected {
            let v = Self.colour(t, "fillColor", layer, at: 0)
            #expect(Self.close(v, rgba), "\(layer): \(String(describing: v)), expected \(rgba)")
        }
    }

    /// instanceCount 1 (the default): copy 0 alone, still tinted. It was drawn untinted
    /// (the tint was applied after making copies, and there were none to make).
    @Test func aSingleCopyIsTinted() throws {
        let result = PortingTests.compile("replicator-tint-one-copy")
        let t = Timeline(try #require(result.composition, "\(result.diagnostics.map(\.message))"))
        // (0.8, 1, 1) × (1, 0.2, 0.4)
        #expect(Self.close(Self.colour(t, "backgroundColor", "r.dot", at: 0), [0.8, 0.2, 0.4, 1]))
    }

    @Test func animatedColoursAreTintedAndDelayed() throws {
        let t = try Self.timeline()
        let g = 128.0 / 255
        // strokeColor white → blue over 1 s; copy 1 runs 0.25 s behind: at 0.5 s it is a
        // quarter of the way, (0.75, 0.75, 1), times (0.75, g + 0.25, 1).
        #expect(Self.close(Self.colour(t, "strokeColor", "row.instance[1].dot", at: 0.5), [0.5625, 0.75 * (g + 0.25), 1, 1]))
        // Copy 0 at 0.5 s: (0.5, 0.5, 1) × (1, g, 1).
        #expect(Self.close(Self.colour(t, "strokeColor", "row.dot", at: 0.5), [0.5, 0.5 * g, 1, 1]))
    }
}
