import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// A number literal reads back from the tree as the double its spelling denotes,
/// bit for bit, however the tree stores it (whole numbers and short decimals in the
/// node itself, the rest beside the nodes). The reference is Swift's own correctly
/// rounded `Double(String)`.
@Suite struct NumberLiteralTests {
    /// Reads each literal of `literals` (one `let` each) back from one parse.
    static func readBack(_ literals: [String]) -> [Double?] {
        let source = literals.enumerated().map { "let v\($0.offset) = \($0.element)" }.joined(separator: "\n")
        let tree = parse(SourceFile(name: "numbers.anim", text: source))
        return tree[tree.root.items].map { item -> Double? in
            guard case .letDecl(_, _, let value) = tree[item] else { return nil }
            return tree.numberLiteral(value)?.value
        }
    }

    static func check(_ literals: [String]) {
        for (literal, value) in zip(literals, readBack(literals)) {
            let expected = Double(literal)
            #expect(value?.bitPattern == expected?.bitPattern, "\(literal) reads back as \(String(describing: value))")
        }
    }

    @Test func edgesOfTheShortForms() {
        Self.check(["0", "1", "0.5", "0.25", "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "0.000000001", "0.0000000001",
                    "0.123456789", "0.1234567891", "4294967295", "4294967296", "4294967295.5", "429496729.5", "42949672.95",
                    "4294967.295", "99999999.9", "1.000000001", "123456789.123456789", "0.30000000000000004",
                    "9007199254740993", "1e-7", "2.5e3", "1e300", "0.999999999", "0.9999999999"])
    }

    /// The unit shares the node's small field with a short decimal's power of ten.
    @Test func unitsReadBackBesideEveryForm() {
        for unit in NumberUnit.allCases {
            for digits in ["3", "0.25", "12.125", "0.000000007", "0.30000000000000004"] {
                let source = "let v = \(digits)\(unit.spelling)"
                let tree = parse(SourceFile(name: "unit.anim", text: source))
                guard let item = tree[tree.root.items].first, case .letDecl(_, _, let value) = tree[item] else {
                    Issue.record("\(source) did not parse")
                    continue
                }
                let read = tree.numberLiteral(value)
                #expect(read?.unit == unit, "\(source): \(String(describing: read))")
                #expect(read?.value.bitPattern == Double(digits)?.bitPattern, "\(source): \(String(describing: read))")
            }
        }
    }

    @Test func randomDecimals() {
        var rng = SplitMix64(seed: 0xDEC1_3A15)
        var literals: [String] = []
        for _ in 0..<4_000 {
            let places = Int(rng.next() % 12) + 1
            let whole = rng.next() % (rng.next() % 2 == 0 ? 10 : 100_000_000)
            var fraction = ""
            for _ in 0..<places { fraction += String(rng.next() % 10) }
            literals.append("\(whole).\(fraction)")
        }
        for _ in 0..<1_000 {
            // Any double, as Swift prints it shortest.
            let x = Double(bitPattern: rng.next() % 0x4200_0000_0000_0000)
            if x.isFinite && !x.description.contains("e") { literals.append(x.description) }
        }
        Self.check(literals)
    }
}
