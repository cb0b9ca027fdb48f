@_spi(Testing) import AnimcSyntax
import AnimcBase
import AnimcTestSupport
import Testing

/// The parser pulls tokens from the lexer a batch at a time and lets go of those it
/// has read (``TokenWindow``). The tree and the diagnostics must not depend on the
/// window's sizes: each file is parsed with the whole file's tokens at once (the
/// reference), and with windows down to one token lexed at a time and compaction at
/// every item, where every look behind, look ahead and backtrack crosses a batch.
@Suite struct TokenWindowTests {
    static let windows = [
        TokenWindow(batch: 1, compactionThreshold: 1),
        TokenWindow(batch: 2, compactionThreshold: 3),
        TokenWindow(batch: 7, compactionThreshold: 16),
        TokenWindow.standard,
    ]
    static let whole = TokenWindow(batch: Int.max / 4, compactionThreshold: Int.max / 4)

    static let sources = ["Tests/AnimcSyntaxTests/Fixtures/window/lookback.anim"]
        + Repository.filesRecursively(in: "Tests/AnimcSyntaxTests/Fixtures", withExtension: "anim")
        + Repository.examples

    /// The first difference between two parses of `file`, or nil.
    static func difference(_ file: SourceFile, _ window: TokenWindow) -> String? {
        let reference = Parser.parse(file, window: whole)
        let tree = Parser.parse(file, window: window)
        if tree.diagnostics != reference.diagnostics {
            return "diagnostics differ: \(tree.diagnostics.map { "\($0.code)@\($0.range)" }) "
                + "against \(reference.diagnostics.map { "\($0.code)@\($0.range)" })"
        }
        if tree.comments != reference.comments { return "comments differ" }
        let (a, b) = (SyntaxDump.dump(tree), SyntaxDump.dump(reference))
        return a == b ? nil : Golden.lineDiff(b, a)
    }

    @Test(arguments: sources)
    func everyWindowParsesAsTheWholeFile(_ path: String) {
        let file = SourceFile(name: path, bytes: Repository.bytes(path))
        for window in Self.windows {
            let difference = Self.difference(file, window)
            #expect(difference == nil, "batch \(window.batch), compaction at \(window.compactionThreshold): \(difference ?? "")")
        }
    }

    /// Broken files take the error paths, where the parser reads back and ahead most:
    /// the fixtures, edited as a person types, many times each.
    @Test func editedFilesParseAsTheWholeFile() {
        var rng = SplitMix64(seed: 0x70CE_2026)
        var checked = 0
        for path in Self.sources {
            var bytes = Repository.bytes(path)
            for _ in 0..<12 {
                bytes = SourceEdits.random(bytes, &rng)
                let file = SourceFile(name: path, bytes: bytes)
                let window = Self.windows[Int(rng.next() % UInt64(Self.windows.count - 1))]
                let difference = Self.difference(file, window)
                #expect(difference == nil, "\(path), edited, batch \(window.batch): \(difference ?? "")")
                checked += 1
            }
        }
        #expect(checked >= 12 * Self.sources.count)
    }

    /// The window's point: a file of many items is parsed holding a few thousand
    /// tokens, not all of them. Read through the window that the smallest sizes give,
    /// where a parser that kept every token would still be right, but not bounded.
    @Test func aLargeFileParsesTheSameInAWindow() {
        var source = "composition C { size: 10 x 10 }\n"
        for i in 0..<3_000 {
            source += "layer l\(i) { transform: rotate(\(i)deg) scale(2) P; position: (\(i), 1,) }\n"
        }
        let file = SourceFile(name: "large.anim", text: source)
        #expect(Self.difference(file, TokenWindow.standard) == nil)
        #expect(Self.difference(file, TokenWindow(batch: 5, compactionThreshold: 8)) == nil)
    }
}
