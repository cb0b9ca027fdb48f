import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcTestSupport
import Testing

/// Every stage reports in one run (issue 10): files with mistakes for the lexer, the
/// parser, the checker's names and types and the Core Animation rules. Each fixture
/// lists in its first line the codes it must produce, and no others: a code that is
/// not listed is a cascade (a second message for one mistake) or a lost finding.
@Suite struct OnePassTests {
    static let cases = Repository.files(in: "Tests/AnimcDriverTests/Fixtures/one-pass", withExtension: "anim")

    @Test(arguments: cases)
    func everyStageReportsOnce(_ path: String) throws {
        let file = SourceFile(name: String(path.split(separator: "/").last ?? ""), bytes: Repository.bytes(path))
        let firstLine = file.text(SourceRange(start: 0, end: UInt32(file.bytes.firstIndex(of: 0x0A) ?? 0)))
        let expected = try #require(firstLine.split(separator: ":", maxSplits: 1).last.map {
            Set($0.split(separator: " ").map(String.init))
        }, "\(path) starts with '// expect: CODE ...'")
        let result = Pipeline.compile(file)
        #expect(Set(result.diagnostics.map(\.code.rawValue)) == expected)
        #expect(result.composition == nil)
        let rendered = HumanRenderer().render(result.diagnostics, in: result.file)
        if let problem = Golden.check(rendered, against: String(path.dropLast(5)) + ".diag.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }
}
