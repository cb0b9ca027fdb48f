import AnimcBase
import AnimcChecker
import AnimcSyntax
import AnimcTestSupport
import Testing

/// The name index's layer namespace, pinned by a fixture whose lines say where their
/// reference goes: a `mask:` name or a `layer.animation.end` resolves to the layer or
/// the aliased animation that the checker would find, searched from the layer the
/// reference is written in and outwards, the first of two layers of one name winning.
@Suite struct NameIndexTests {
    static let fixture = "Tests/AnimcCheckerTests/Fixtures/names/layer-namespace.anim"

    @Test func layerAndAnimationReferencesResolveAsWritten() throws {
        let file = SourceFile(name: Self.fixture, bytes: Repository.bytes(Self.fixture))
        let tree = parse(file)
        #expect(tree.diagnostics.isEmpty)
        let index = NameIndex.build(tree)
        let lines = LineIndex(file)
        func line(_ offset: UInt32) -> Int { lines.lineNumber(ofOffset: Int(offset)) + 1 }
        let layerKinds: Set<NameIndex.Kind> = [.layer, .animation]
        let text = String(decoding: file.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // The line (1-based) each `// #tag` is on.
        var tags: [String: Int] = [:]
        for (n, line) in text.enumerated() {
            if let r = line.range(of: "// #") { tags[String(line[r.upperBound...].prefix { $0 != " " })] = n + 1 }
        }
        var checked = 0
        for (n, text) in text.enumerated() {
            // Markers follow code on its line; the header's comment lines only describe them.
            guard let comment = text.range(of: "//"), !text[..<comment.lowerBound].allSatisfy(\.isWhitespace),
                  let marker = text.range(of: "-> ") else { continue }
            let expected = text[marker.upperBound...].trimmingCharacters(in: .whitespaces)
            let resolved = index.references.filter { line($0.range.start) == n + 1 && layerKinds.contains(index.declarations[$0.declaration].kind) }
                .map { line(index.declarations[$0.declaration].range.start) }
            if expected == "none" {
                #expect(resolved.isEmpty, "line \(n + 1) resolves to \(resolved)")
            } else {
                let tag = String(expected.dropFirst())
                #expect(tags[tag] != nil, "line \(n + 1): no line is tagged \(tag)")
                #expect(resolved == [tags[tag] ?? -1], "line \(n + 1) resolves to \(resolved), expected line \(tags[tag] ?? -1)")
            }
            checked += 1
        }
        #expect(checked == 14)
    }

    /// An instance's argument label is a reference rename follows, but not a use: a
    /// parameter the component's body never reads is still unused (W0310), however many
    /// instances pass it (the warning was lost when labels became references).
    @Test func anArgumentLabelIsNotAUse() throws {
        let file = SourceFile(name: "labels.anim", bytes: Repository.bytes("Tests/AnimcSyntaxTests/Fixtures/parse/components.anim"))
        let index = NameIndex.build(parse(file))
        let parameters = index.declarations.indices.filter { index.declarations[$0].kind == .parameter }
        let delay = try #require(parameters.first { index.declarations[$0].name == "delay" })
        #expect(index.uses(of: delay).count == 2, "both instances' labels are found")
        #expect(index.unreferenced.contains(delay))
        let at = try #require(parameters.first { index.declarations[$0].name == "at" })
        #expect(!index.unreferenced.contains(at), "the body reads 'at'")
    }

    /// Inputs are read by conditions and named by transitions; states are named only by
    /// transitions, in a namespace of their own (a state may share a constant's name).
    @Test func inputsAndStatesAreDeclaredAndReferenced() {
        let path = "Tests/AnimcCheckerTests/Fixtures/rules/E0330-bad-interaction.ok.anim"
        let file = SourceFile(name: path, bytes: Repository.bytes(path))
        let tree = parse(file)
        let index = NameIndex.build(tree)
        func uses(_ name: String, _ kind: NameIndex.Kind) -> [String] {
            guard let d = index.declarations.firstIndex(where: { $0.name == name && $0.kind == kind }) else { return ["no declaration"] }
            return index.uses(of: d).map { file.text($0) }
        }
        #expect(uses("tap", .input) == ["tap", "tap"])
        #expect(uses("locked", .input) == ["locked"])
        #expect(uses("progress", .input) == ["progress"])
        #expect(uses("closed", .state) == ["closed", "closed"])
        #expect(uses("opened", .state) == ["opened", "opened"])
        // Every name the file writes resolves: nothing is left for "did you mean".
        #expect(index.unresolvedNames.allSatisfy { ["spring", "easeInEaseOut", "rgb"].contains($0) }, "\(index.unresolvedNames)")
    }
}
