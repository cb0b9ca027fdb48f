import AnimcBase
@testable import AnimcChecker
import AnimcDiagnostics
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
