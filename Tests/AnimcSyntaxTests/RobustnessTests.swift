import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Every truncation and thousands of seeded mutations of every fixture and example
/// parse without crashing or hanging; pathological nesting is a diagnostic.
@Suite struct RobustnessTests {
    static let sources: [String] = Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/parse", withExtension: "anim")
        + Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/errors", withExtension: "anim")
        + Repository.examples

    @Test(arguments: sources)
    func everyTruncationParses(_ path: String) {
        let bytes = Repository.bytes(path)
        let ok = finishes(within: 60) {
            for n in 0...bytes.count {
                let tree = parse(SourceFile(name: "t", bytes: Array(bytes[0..<n])))
                precondition(tree.root.range.end == UInt32(n))
            }
        }
        #expect(ok, "truncations of \(path) did not finish in time")
    }

    @Test(arguments: sources)
    func seededMutationsParse(_ path: String) {
        let bytes = Repository.bytes(path)
        let tokens = Lexer.lex(SourceFile(name: "t", bytes: bytes)).tokens.dropLast()
        let ok = finishes(within: 60) {
            var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: path.utf8.reduce(7) { $0 &* 31 &+ Int($1) }))
            let insertions: [[UInt8]] = ["{", "}", "(", ")", "[", "]", ",", ";", ":", "=", "~", "\"", "/*", "\n", "-", "..<", "x", "let", "layer a {", "0.5", "#f", "\u{FF}"].map { Array($0.utf8) }
            for _ in 0..<2000 {
                var m = bytes
                switch rng.next() % 5 {
                case 0 where !m.isEmpty:  // flip a byte
                    m[Int(rng.next() % UInt64(m.count))] = UInt8(truncatingIfNeeded: rng.next())
                case 1 where !tokens.isEmpty:  // delete a token
                    let t = tokens[tokens.startIndex + Int(rng.next() % UInt64(tokens.count))]
                    m.removeSubrange(Int(t.range.start)..<Int(t.range.end))
                case 2 where !tokens.isEmpty:  // duplicate a token
                    let t = tokens[tokens.startIndex + Int(rng.next() % UInt64(tokens.count))]
                    m.insert(contentsOf: m[Int(t.range.start)..<Int(t.range.end)], at: Int(t.range.start))
                case 3:  // insert punctuation or a keyword
                    let piece = insertions[Int(rng.next() % UInt64(insertions.count))]
                    m.insert(contentsOf: piece, at: Int(rng.next() % UInt64(m.count + 1)))
                default:  // swap two bytes
                    if m.count > 1 { m.swapAt(Int(rng.next() % UInt64(m.count)), Int(rng.next() % UInt64(m.count))) }
                }
                _ = parse(SourceFile(name: "m", bytes: m))
            }
        }
        #expect(ok, "mutations of \(path) did not finish in time")
    }

    @Test func tenThousandNestedParenthesesGiveADiagnostic() {
        let text = "let x = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + "\n"
        let codes = withinTime(30) { parse(SourceFile(name: "t", text: text)).diagnostics.map(\.code.rawValue) }
        #expect(codes == ["E0207"])
    }

    @Test func tenThousandNestedBlocksGiveADiagnostic() {
        let text = String(repeating: "layer a {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)
        let codes = withinTime(30) { parse(SourceFile(name: "t", text: text)).diagnostics.map(\.code.rawValue) }
        #expect(codes == ["E0207"])
    }

    @Test func tenThousandPrefixOperatorsAndUnclosedBrackets() {
        for t in ["let x = " + String(repeating: "-", count: 10_000) + "1\n",
                     "let x = " + String(repeating: "[", count: 10_000) + "\n",
                     String(repeating: "{", count: 10_000),
                     "let x = " + String(repeating: "a ? ", count: 5_000) + "1\n"] {
            let text = t
            let ok = finishes(within: 30) { _ = parse(SourceFile(name: "t", text: text)) }
            #expect(ok)
        }
    }

    @Test func aMillionKeyframeRowsParse() {
        var source = "layer box {\n  keyframes opacity {\n"
        for i in 0..<1_000_000 { source += "    \(Double(i) / 1_000_000) = 0.5\n" }
        source += "  }\n}\n"
        let text = source
        let items = withinTime(120) { () -> Int in
            let tree = parse(SourceFile(name: "big", text: text))
            if case .layer(_, _, _, _, let body) = tree[tree[tree.root.items][0]], case .animation(_, _, _, _, let a, _) = tree[tree[body.items][0]] {
                return a.items.count
            }
            return 0
        }
        #expect(items == 1_000_000)
    }
}
