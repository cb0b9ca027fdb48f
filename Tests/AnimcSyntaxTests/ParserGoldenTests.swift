import AnimcBase
import AnimcDiagnostics
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Valid fixtures: one per construct, each with its tree dump as a golden, and no
/// diagnostics at all.
@Suite struct ParserGoldenTests {
    static let fixtures = Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/parse", withExtension: "anim")

    @Test func thereIsAFixturePerConstruct() {
        #expect(Self.fixtures.count >= 15)
    }

    @Test(arguments: fixtures)
    func parsesCleanAndMatchesGolden(_ path: String) {
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        #expect(tree.diagnostics.isEmpty, "\(path): \(tree.diagnostics.map(\.message))")
        let golden = path.replacingOccurrences(of: ".anim", with: ".ast.txt")
        if let problem = Golden.check(SyntaxDump.dump(tree), against: golden) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test func everyGoldenHasAFixture() {
        let goldens = Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/parse", withExtension: "txt")
        for g in goldens {
            let source = g.replacingOccurrences(of: ".ast.txt", with: ".anim")
            #expect(Self.fixtures.contains(source), "orphaned golden \(g)")
        }
    }
}

extension String {
    func replacingOccurrences(of a: String, with b: String) -> String {
        guard let r = range(of: a, options: .backwards) else { return self }
        return replacingCharacters(in: r, with: b)
    }
}
