import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Every example in docs/language.md (and the other docs) and in examples/ parses clean.
@Suite struct DocumentationTests {
    /// The ```anim blocks of a Markdown file, with their starting line.
    static func blocks(in relative: String) -> [(line: Int, text: String)] {
        var result: [(Int, String)] = []
        var current: [String]?
        var start = 0
        for (i, line) in Repository.read(relative).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line.hasPrefix("```anim") {
                current = []
                start = i + 2
            } else if let lines = current, line.hasPrefix("```") {
                result.append((start, lines.joined(separator: "\n") + "\n"))
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return result
    }

    static let documents = ["docs/language.md", "docs/tutorial.md", "README.md"]

    @Test func theLanguageReferenceHasManyExamples() {
        #expect(Self.blocks(in: "docs/language.md").count >= 15)
    }

    @Test(arguments: documents)
    func everyDocumentedExampleParsesClean(_ doc: String) {
        for (line, text) in Self.blocks(in: doc) {
            let tree = parse(SourceFile(name: "\(doc):\(line)", text: text))
            #expect(tree.diagnostics.isEmpty, "\(doc) block at line \(line): \(tree.diagnostics.map(\.message))")
        }
    }

    @Test(arguments: Repository.examples)
    func everyExampleParsesClean(_ path: String) {
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        #expect(tree.diagnostics.isEmpty, "\(path): \(tree.diagnostics.map(\.message))")
    }
}
