import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Every example in docs/language.md (and the other docs) and in examples/ parses clean.
@Suite struct DocumentationTests {
    static let documents = ["docs/language.md", "docs/tutorial.md", "README.md"]

    @Test func theLanguageReferenceHasManyExamples() {
        #expect(Markdown.fencedBlocks(in: "docs/language.md", language: "anim").count >= 15)
    }

    @Test(arguments: documents)
    func everyDocumentedExampleParsesClean(_ doc: String) {
        for block in Markdown.fencedBlocks(in: doc, language: "anim") {
            let tree = parse(SourceFile(name: "\(doc):\(block.firstLine)", text: block.text))
            #expect(tree.diagnostics.isEmpty, "\(doc) block at line \(block.firstLine): \(tree.diagnostics.map(\.message))")
        }
    }

    @Test(arguments: Repository.examples)
    func everyExampleParsesClean(_ path: String) {
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        #expect(tree.diagnostics.isEmpty, "\(path): \(tree.diagnostics.map(\.message))")
    }
}
