import AnimcBase
@testable import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Reusing a template animation's lowering (TemplateReuse.swift) against lowering every
/// instance afresh: on every `.anim` the repository keeps and on random edits of each,
/// the diagnostics, IR, partial IR and hover values must be the same.
@Suite struct TemplateReuseTests {
    static let corpus = Repository.checkCorpus

    /// How checking `bytes` with reuse differs from checking it without (nil when it does
    /// not), and how many lowerings were reused.
    static func compare(_ bytes: [UInt8], name: String) -> (difference: String?, reused: Int) {
        let tree = parse(SourceFile(name: name, bytes: bytes))
        let (fresh, _) = checkCounting(tree, reusingTemplates: false)
        let (reusing, counts) = checkCounting(tree, reusingTemplates: true)
        let reused = counts.templateReuses
        if fresh.diagnostics != reusing.diagnostics {
            let a = fresh.diagnostics.map { "\($0.code) \($0.range.start)-\($0.range.end) \($0.message)" }
            let b = reusing.diagnostics.map { "\($0.code) \($0.range.start)-\($0.range.end) \($0.message)" }
            return ("diagnostics differ:\n" + Golden.lineDiff(a.joined(separator: "\n"), b.joined(separator: "\n")), reused)
        }
        if fresh.composition != reusing.composition { return ("the IR differs", reused) }
        if fresh.partialComposition != reusing.partialComposition { return ("the partial IR differs", reused) }
        if fresh.foldedValues != reusing.foldedValues { return ("hover values differ", reused) }
        return (nil, reused)
    }

    /// A loop's iterations and a component's instances hand their scope and value
    /// bindings on (``ScopeRecycler``) only when nothing kept them. Every animation of
    /// the fixture keeps the bindings it read; the values, worked out by hand, are each
    /// bar's and dot's own.
    @Test func keptBindingsAreNotRecycled() throws {
        let path = "Tests/AnimcCheckerTests/Fixtures/templates/recycled.anim"
        let (difference, _) = Self.compare(Repository.bytes(path), name: path)
        #expect(difference == nil, "\(difference ?? "")")
        let result = check(parse(SourceFile(name: path, bytes: Repository.bytes(path))))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let layers = result.composition?.layers ?? []
        func opacity(_ id: String) -> [Value]? {
            guard let layer = layers.first(where: { $0.id == id }), let a = layer.animations.first,
                  case .property(let p) = a.kind, case .keyframes(let k) = p.content else { return nil }
            return k.values
        }
        for i in 0..<4 {
            let x = Double(i)
            #expect(opacity("row.bar[\(i)]") == [.number(x / 20), .number(x / 10)], "bar \(i)")
            #expect(opacity("row.dot[\(i)]") == [.number(0), .number((x + 1) / 10)], "dot \(i)")
            #expect(layers.first { $0.id == "row.dot[\(i)]" }?.modelValue(.position) == .point(Point(10 * x + 1, 0)), "dot \(i)")
        }
    }

    /// A kept animation that changes nothing carries its W0509 warning to every instance
    /// that takes it: a template whose every instance changes nothing warns once, and
    /// one where some instance changes something does not warn.
    @Test func aKeptLoweringKeepsItsNoEffectWarning() throws {
        let text = """
            composition { size: 100 x 100 }
            for i in 0 ..< 3 {
              layer flat[i] {
                basic opacity { from: 1, to: 1, duration: 1s }
              }
              layer some[i] {
                bounds: 10 x 10
                basic opacity { from: 1, to: i < 2 ? 1 : 0, duration: 1s }
              }
              layer grouped[i] {
                group g {
                  duration: 1s
                  basic opacity { from: 0.5, to: 0.5 }
                  basic zPosition { from: 0, to: 1 }
                }
              }
            }

            """
        let bytes = Array(text.utf8)
        let (difference, reused) = Self.compare(bytes, name: "effect.anim")
        #expect(difference == nil, "\(difference ?? "")")
        // The second and third `flat` and `grouped` take the first's; each `some` reads `i`.
        #expect(reused >= 4)
        let result = check(parse(SourceFile(name: "effect.anim", bytes: bytes)))
        let warnings = result.diagnostics.filter { $0.code.rawValue == "W0509" }.map(\.range.start)
        // One for the flat layers' animation, one for the group's flat child.
        let flat = try #require(text.range(of: "basic opacity { from: 1, to: 1,"))
        let child = try #require(text.range(of: "basic opacity { from: 0.5"))
        let expected = [flat, child].map { UInt32(text.utf8.distance(from: text.startIndex, to: $0.lowerBound)) + 6 }
        #expect(warnings == expected, "\(result.diagnostics.map { "\($0.code.rawValue) \($0.range.start) \($0.message)" })")
    }

    @Test func theFixtureIsTheSameWithReuse() throws {
        let path = "Tests/AnimcCheckerTests/Fixtures/templates/reuse.anim"
        let (difference, reused) = Self.compare(Repository.bytes(path), name: path)
        #expect(difference == nil, "\(difference ?? "")")
        // Of 9 tiles, all but the first take the first's ripple and blink groups with
        // their own delay, offset and turn in the holes, and its fade; the animations
        // sequenced on others are never kept. Of the 2 × 2 dots, the second in each row.
        #expect(reused == 8 + 8 + 8 + 2)
        let result = check(parse(SourceFile(name: path, bytes: Repository.bytes(path))))
        #expect(result.composition != nil)
        // The centre tile's flat position keyframes do not make the template warn.
        #expect(!result.diagnostics.contains { $0.code.rawValue == "W0509" })
    }

    @Test func holesAreTakenPerInstance() throws {
        let path = "Tests/AnimcCheckerTests/Fixtures/templates/holes.anim"
        let (difference, reused) = Self.compare(Repository.bytes(path), name: path)
        #expect(difference == nil, "\(difference ?? "")")
        // Dots: the second, fourth and fifth take the first's group; the third's level
        // fails as a hole, and lowering it afresh still reuses its position, spin and
        // corner.
        // Bars: the borderWidth of all but the first.
        #expect(reused == 3 + 3 + 3)
        let result = check(parse(SourceFile(name: path, bytes: Repository.bytes(path))))
        let codes = result.diagnostics.map(\.code.rawValue)
        // The third dot's level is out of range (its group then fails, so the edge
        // sequenced on it finds nothing); the others' are not.
        #expect(codes.filter { $0 == "E0313" }.count == 1)
        #expect(codes.filter { $0 == "E0301" }.count == 1)
        // One bar per non-zero start pops from its first value.
        #expect(codes.filter { $0 == "W0504" }.count == 3)
        #expect(codes.contains("W0505"))
        // The fourth dot's corner begins after its group ends; the late bars' too.
        #expect(codes.filter { $0 == "W0507" }.count == 2)
        // The second dot's lift is zero, the others' not: no "no visible effect".
        #expect(!codes.contains("W0509"))
    }

    /// The fixture `templates/<name>.anim`, required to be the same with reuse as
    /// without, checked with reuse: its result and what the check counted.
    static func checkFixture(_ name: String) -> (CheckResult, CheckCounts) {
        let path = "Tests/AnimcCheckerTests/Fixtures/templates/\(name).anim"
        let bytes = Repository.bytes(path)
        let (difference, _) = compare(bytes, name: path)
        #expect(difference == nil, "\(difference ?? "")")
        return checkCounting(parse(SourceFile(name: path, bytes: bytes)))
    }

    @Test func propertyValuesAreTakenWhenTheirNamesMatch() throws {
        let (result, counts) = Self.checkFixture("properties")
        // Chips: bounds and colour by the four after the first; the opacity of the second
        // (the fourth's reports, the fifth's -0 is not 0.5); the border of the third and
        // fourth. Bars: the zPosition of the second and fourth, whose `half` is evaluated
        // by then and equal to the bar before's; their bounds read it first.
        #expect(counts.propertyReuses == 4 + 4 + 1 + 2 + 2)
        #expect(result.diagnostics.map(\.code.rawValue) == ["E0313"])
    }

    @Test func layersAreTakenWholeWithTheirHoles() throws {
        let (result, counts) = Self.checkFixture("layers")
        // Tiles: eight of nine. Dots: the second and fourth (the third's hole reports).
        // Chips: the second and the fourth. Bars: the second and third. Holders: the
        // second's mask layer only. Markers and blinks: none.
        #expect(counts.layerReuses == 8 + 2 + 2 + 2 + 1)
        // Each taken tile takes its ripple group with it; the second blink, whose layer
        // is not kept, takes the first's two animations with its level in their holes.
        #expect(counts.templateReuses == 8 + 2)
        #expect(result.diagnostics.map(\.code.rawValue) == ["E0313", "W0508"])
        // The holes are each instance's own: the tiles' positions and begin times differ.
        let composition = try #require(result.partialComposition)
        let tiles = composition.layers.filter { $0.id.hasPrefix("grid.tile") }
        #expect(tiles.count == 9)
        #expect(Set(tiles.map { "\($0.properties.first { $0.property == .position }?.value ?? .number(0))" }).count == 9)
        #expect(Set(tiles.map(\.timing.beginTime)).count == 3)
    }

    /// A group that reads another animation's lowering (`lead.end`) is never kept, even
    /// when its children's own lowerings, recorded inside it, are: each child used to
    /// clear what the group had read before it.
    @Test func aGroupThatReadsAnotherAnimationIsNotKept() throws {
        let (result, _) = Self.checkFixture("sequenced")
        let composition = try #require(result.composition)
        let groups = composition.layers.flatMap { layer in
            layer.animations.compactMap { $0.name == "g" ? (layer.id, $0.timing.beginTime) : nil }
        }
        #expect(groups.map(\.0) == ["row.t[0]", "row.t[1]"])
        #expect(groups.map(\.1) == [1, 2])
    }

    /// A reused lowering counts the evaluations its lowering made, so the expansion limit
    /// is met at the same expression with reuse as without: checked at every limit from
    /// 1 to past what each template fixture needs.
    @Test func theEvaluationLimitIsMetAtTheSamePlace() {
        for name in ["reuse", "holes", "properties", "layers", "sequenced"] {
            let path = "Tests/AnimcCheckerTests/Fixtures/templates/\(name).anim"
            let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
            var limit = 1
            var reachedEnd = false
            while !reachedEnd {
                let (fresh, _) = checkCounting(tree, reusingTemplates: false, evaluationLimit: limit)
                let (reusing, _) = checkCounting(tree, reusingTemplates: true, evaluationLimit: limit)
                #expect(fresh.diagnostics == reusing.diagnostics, "\(name) at limit \(limit): \(fresh.diagnostics.map { "\($0.code) \($0.range.start) \($0.message)" }) vs \(reusing.diagnostics.map { "\($0.code) \($0.range.start) \($0.message)" })")
                #expect(fresh.composition == reusing.composition, "\(name) at limit \(limit)")
                if fresh.diagnostics != reusing.diagnostics || fresh.composition != reusing.composition { break }
                reachedEnd = !fresh.diagnostics.contains { $0.code.rawValue == "E0311" }
                limit += 1
            }
        }
    }

    /// Generated components whose animations take values from their parameters in holes
    /// and around them, instantiated with values chosen to collide and to break rules
    /// (equal, -0 and 0, out of range, a half turn, past the group's end).
    @Test func generatedTemplatesAreTheSameWithReuse() {
        var rng = SplitMix64(seed: 14)
        var reused = 0
        for round in 0..<60 {
            let text = Self.generatedTemplate(&rng)
            let (difference, count) = Self.compare(Array(text.utf8), name: "generated-\(round).anim")
            reused += count
            #expect(difference == nil, "round \(round): \(difference ?? "")\n\(text)")
            if difference != nil { break }
        }
        #expect(reused > 200)
    }

    static func generatedTemplate(_ rng: inout SplitMix64) -> String {
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        let levels = ["0", "0.5", "1", "1.5", "-0", "0.25"]
        let times = ["0s", "0.5s", "1s", "2.5s", "-0.5s", "3s"]
        let angles = ["0deg", "-0deg", "90deg", "180deg", "270deg"]
        let points = ["(0, 0)", "(0, 4)", "(-0, 0)", "(3, 3)", "(1e300, 0)"]
        // Sites: a hole (bare parameter), an expression of it, or a literal.
        func level() -> String { pick(["l", "l", "l * 1", "0.5", "clamp(l, 0, 1)"]) }
        func time() -> String { pick(["d", "d", "d + 0s", "0.2s"]) }
        func point() -> String { pick(["p", "p", "p * 2", "(1, 1)"]) }
        func angle() -> String { pick(["a", "a", "a + 0deg", "45deg"]) }
        var leaves: [String] = []
        for k in 0..<Int(1 + rng.next() % 4) {
            switch rng.next() % 5 {
            case 0:
                leaves.append("keyframes opacity as o\(k) {\n  0 = \(level())\n  0.5 = \(level()) ~ T\n  1 = \(level())\n}")
            case 1:
                leaves.append("keyframes position as p\(k) {\n  additive: true\n  0 = (0, 0)\n  0.5 = \(point())\n  1 = (0, 0)\n}")
            case 2:
                leaves.append("basic transform.rotation.z as r\(k) {\n  beginTime: \(time())\n  duration: 0.5s\n  from: \(angle())\n  to: \(angle())\n}")
            case 3:
                leaves.append("basic transform as t\(k) {\n  from: identity\n  to: rotate(\(angle()))\n}")
            default:
                leaves.append("basic cornerRadius as c\(k) {\n  beginTime: \(time())\n  duration: 1s\n  from: \(level())\n  to: 2\n}")
            }
        }
        let body: String
        if rng.next() % 3 == 0 {
            body = leaves.map { $0.replacingOccurrences(of: "\n}", with: "\n  duration: 1s\n}") }.joined(separator: "\n")
        } else {
            let attributes = pick(["duration: 2s", "duration: 2s\nbeginTime: d", "duration: 1s\nbeginTime: d\nrepeatCount: 2",
                                   "beginTime: d"])
            body = "group g {\n\(attributes)\n\(leaves.joined(separator: "\n"))\n}"
        }
        var text = "composition { size: 200 x 200\n window: 0s ..< 4s }\ntiming T = cubic(0.25, 0, 0.2, 1)\n"
        // Layer properties: values of the parameters in expressions, kept per value.
        let properties = "    bounds: 4 x 4\n    opacity: \(level())\n    position: \(point())\n"
        text += "component C(l: Number, d: Time, p: Point, a: Angle) {\n  layer {\n\(properties)\(body)\n  }\n}\n"
        text += "layer row {\n"
        for i in 0..<Int(2 + rng.next() % 6) {
            text += "  c[\(i)] = C(l: \(pick(levels)), d: \(pick(times)), p: \(pick(points)), a: \(pick(angles)))\n"
        }
        text += "}\n"
        if rng.next() % 2 == 0 {
            text += "for i in 0 ..< 4 {\n  layer bar[i] {\n    keyframes opacity {\n      duration: 1s\n      0 = 0\n      0.5 = i * 0.5\n      1 = i\n    }\n  }\n}\n"
        }
        return text
    }

    @Test func everyFileAndEditIsTheSameWithReuse() {
        var rng = SplitMix64(seed: 2_611)
        var reused = 0
        for path in Self.corpus {
            var text = Repository.bytes(path)
            for step in 0..<4 {
                let (difference, count) = Self.compare(text, name: path)
                reused += count
                #expect(difference == nil, "\(path), edit \(step): \(difference ?? "")")
                if difference != nil { break }
                text = SourceEdits.random(text, &rng)
            }
        }
        // Reuse must actually happen across the corpus, or this test compares nothing.
        #expect(reused > 100)
    }
}
