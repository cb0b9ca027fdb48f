import AnimcSyntax
import AnimcTestSupport
import Testing

/// The grammar is written twice: in grammar/anim.ebnf (normative) and in the parser.
/// This keeps the word lists of the two in step.
@Suite struct GrammarTests {
    static let ebnf = Repository.read("grammar/anim.ebnf")

    func words(in rule: String) -> Set<String> {
        // The rule's right-hand side, up to its terminating ';', quoted words only.
        guard let start = Self.ebnf.range(of: "\n\(rule) ") ?? Self.ebnf.range(of: "\n\(rule)\n") else { return [] }
        let rest = Self.ebnf[start.upperBound...]
        let body = rest[..<(rest.firstIndex(of: ";") ?? rest.endIndex)]
        var result: Set<String> = []
        var current = ""
        var inQuote = false
        for c in body {
            if c == "\"" {
                if inQuote { result.insert(current) }
                current = ""
                inQuote.toggle()
            } else if inQuote {
                current.append(c)
            }
        }
        return result
    }

    @Test func reservedWordsMatchTheLexer() {
        #expect(words(in: "Keyword") == Set(TokenKind.keywords.keys))
    }

    @Test func layerAndAnimationKindsMatchTheParser() {
        #expect(words(in: "LayerKind") == ContextualKeywords.layerKinds)
        #expect(words(in: "AnimationKind") == ContextualKeywords.animationKinds)
    }

    @Test func inputKindsAndInterruptionModelsMatchTheIR() {
        #expect(words(in: "InputKind") == Set(["trigger", "bool", "number", "point"]))
        #expect(words(in: "Interruption") == Set(["additive", "replace", "reverse", "finish"]))
    }

    @Test func unitsMatchTheLexer() {
        #expect(words(in: "Unit") == Set(NumberUnit.allCases.map(\.spelling)))
    }
}
