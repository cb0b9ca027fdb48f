import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// A key path of one name is stored as a node alone, a dotted one with its components:
/// both must read back as what the source spells, whichever way they were stored.
@Suite struct KeyPathTests {
    static let sources = ["Tests/AnimcSyntaxTests/Fixtures/keypaths/paths.anim"] + Repository.examples

    @Test(arguments: sources)
    func keyPathsReadBackAsWritten(_ path: String) {
        let bytes = Repository.bytes(path)
        let tree = parse(SourceFile(name: path, bytes: bytes))
        func text(_ r: SourceRange) -> String { String(decoding: bytes[Int(r.start)..<Int(r.end)], as: UTF8.self) }
        var single = 0, dotted = 0

        func check(_ key: KeyPathSyntax) {
            let components = tree.components(key)
            #expect(!components.isEmpty)
            // What the source spells, read from the source alone: the range's text
            // without the blanks a dotted path may have around its dots.
            #expect(text(key.range).filter { !$0.isWhitespace } == key.dotted)
            #expect(components.map(\.name).joined(separator: ".") == key.dotted)
            #expect(tree.arena.names[Int(key.dottedID)] == key.dotted)
            for c in components {
                #expect(text(c.range) == c.name)
                #expect(tree.arena.names[Int(c.nameID)] == c.name)
            }
            #expect(components.first?.range.start == key.range.start)
            #expect(components.last?.range.end == key.range.end)
            if components.count == 1 { single += 1 } else { dotted += 1 }
        }
        func block(_ b: Block) { tree[b.items].forEach(item) }
        func item(_ i: Item) {
            switch tree[i] {
            case .property(let key, _): check(key)
            case .animation(_, let target, _, _, let body, _): target.map(check); block(body)
            case .component(_, _, let body), .composition(_, let body), .pathDecl(_, let body), .forLoop(_, let body): block(body)
            case .layer(_, _, _, _, let body): block(body)
            case .ifItem(_, let then, let otherwise): block(then); otherwise.map(block)
            default: break
            }
        }
        block(tree.root)
        #expect(single > 0, "no key path of one name in \(path)")
        if path.hasSuffix("paths.anim") {
            #expect(single == 17 && dotted == 8, "\(single) one-name and \(dotted) dotted key paths")
        }
    }

    /// Two spellings of one path are one interned name, however each was stored.
    @Test func oneNameAndDottedPathsShareTheirNames() {
        let tree = parse(SourceFile(name: "t.anim", text: "layer a {\n  opacity: 1\n  transform.scale: 2\n}\nlayer b {\n  opacity: 0\n  transform .scale: 1\n}\n"))
        var keys: [KeyPathSyntax] = []
        for layer in tree[tree.root.items] {
            guard case .layer(_, _, _, _, let body) = tree[layer] else { continue }
            for item in tree[body.items] { if case .property(let key, _) = tree[item] { keys.append(key) } }
        }
        #expect(keys.map(\.dotted) == ["opacity", "transform.scale", "opacity", "transform.scale"])
        #expect(keys[0].dottedID == keys[2].dottedID)
        #expect(keys[1].dottedID == keys[3].dottedID)
        #expect(keys[0].dottedID != keys[1].dottedID)
    }
}
