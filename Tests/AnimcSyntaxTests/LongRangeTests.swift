import AnimcBase
import AnimcSyntax
import Testing

/// Ranges of 65,535 bytes and more must come out exactly, whether the node was made
/// long or widened later (an item's range is set once the parser has read it): what a
/// node that kept its range's length in fewer bits than its start would have to keep
/// true (one was measured; see `SyntaxNode`).
@Suite struct LongRangeTests {
    /// A layer whose body is `lines` properties, then a short layer after it, then a
    /// string literal of `stringBytes` bytes.
    static func source(lines: Int, stringBytes: Int) -> String {
        var s = "layer big {\n"
        for i in 0..<lines { s += "  opacity: 0.\(i % 10)\n" }
        s += "}\nlayer small { opacity: 1 }\nlet text = \"" + String(repeating: "x", count: stringBytes) + "\"\n"
        return s
    }

    static func offset(of needle: String, in text: String, from: Int = 0) -> UInt32? {
        let bytes = Array(text.utf8), n = Array(needle.utf8)
        guard n.count <= bytes.count else { return nil }
        for i in from...(bytes.count - n.count) where Array(bytes[i..<(i + n.count)]) == n { return UInt32(i) }
        return nil
    }

    @Test(arguments: [(3_000, 70_000), (5_000, 65_535), (4_096, 65_534), (10, 10)])
    func longRangesComeOutExactly(lines: Int, stringBytes: Int) throws {
        let text = Self.source(lines: lines, stringBytes: stringBytes)
        let tree = parse(SourceFile(name: "long.anim", text: text))
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics.map(\.message))")
        let items = Array(tree[tree.root.items])
        try #require(items.count == 3)
        let smallStart = try #require(Self.offset(of: "layer small", in: text))
        let letStart = try #require(Self.offset(of: "let text", in: text))
        // The big layer: from `layer` to its closing brace, inclusive.
        #expect(items[0].range == SourceRange(start: 0, end: smallStart - 1))
        guard case .layer(_, _, _, _, let body) = tree[items[0]] else { Issue.record("not a layer"); return }
        let open = try #require(Self.offset(of: "{", in: text))
        #expect(body.range == SourceRange(start: open, end: smallStart - 1))
        #expect(tree[body.items].count == lines)
        #expect(items[1].range.start == smallStart)
        // The string literal: its quotes included.
        guard case .letDecl(_, _, let value) = tree[items[2]] else { Issue.record("not a let"); return }
        let quote = try #require(Self.offset(of: "\"", in: text, from: Int(letStart)))
        #expect(value.range == SourceRange(start: quote, end: quote + UInt32(stringBytes) + 2))
        #expect(items[2].range == SourceRange(start: letStart, end: quote + UInt32(stringBytes) + 2))
        #expect(tree.root.range.end == UInt32(text.utf8.count))
    }
}
