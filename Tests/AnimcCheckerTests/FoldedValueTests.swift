import AnimcBase
@testable import AnimcChecker
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Hover shows what each declaration folded to, or "varies" for one that took several
/// values in a loop or component.
@Suite struct FoldedValueTests {
    /// What hover reads, by the start of a declaration's name, is what the check folded.
    @Test func hoverTextsAreWrittenWhenAsked() throws {
        let path = "Tests/AnimcDriverTests/Fixtures/incremental/folded.anim"
        let file = SourceFile(name: path, bytes: Repository.bytes(path))
        let folded = check(parse(file)).foldedValues
        let source = String(decoding: file.bytes, as: UTF8.self)
        func text(_ declaration: String) throws -> String? {
            let found = try #require(source.range(of: declaration))
            return folded[UInt32(source.utf8.distance(from: source.startIndex, to: found.lowerBound))]
        }
        #expect(try text("base = 10") == "10")
        // `at` takes several points across the file, `size` one value twice and the
        // default once; `delay` several times.
        #expect(try text("at: Point") == "varies")
        #expect(try text("delay: Time") == "varies")
        #expect(try text("size: Number") == "varies")
        // Every key reads the text the whole table gives, and nothing else is there.
        #expect(folded.count == folded.texts.count)
        for (offset, value) in folded.texts { #expect(folded[offset] == value) }
        #expect(folded[UInt32(file.bytes.count + 1)] == nil)
        #expect(FoldedValues()[0] == nil && FoldedValues().texts.isEmpty)
        // Equal by text, however each value was kept.
        #expect(check(parse(file)).foldedValues == folded)
        #expect(folded != FoldedValues())
    }
}
