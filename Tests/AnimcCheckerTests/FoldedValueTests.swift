import AnimcBase
@testable import AnimcChecker
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Hover keeps a declaration's first value and calls it "varies" without writing any
/// text when a second value surely prints differently (`SemaValue.printsDifferently`).
/// That shortcut must never call two values different that print alike: checked here
/// against `sourceText` itself on values chosen to print alike (zeros, rounded angles,
/// sizes, strings holding separators) and on random ones.
@Suite struct FoldedValueTests {
    static let numbers: [Double] = [0, -0.0, 1, -1, 5, 5.5, 0.1, 0.1 + 0.2, 1e14, 1e15, 1e16, 123456789012345680,
                                    .pi, .pi.nextUp, 1e-300, .infinity, -.infinity, .nan, 2.5e-8]

    static func values(_ rng: inout SplitMix64) -> SemaValue {
        func number() -> SemaValue {
            let dims: [Dimension] = [.none, .time, .angle]
            var x = numbers[Int(rng.next() % UInt64(numbers.count))]
            if rng.next() % 3 == 0 { x = Double(Int64(bitPattern: rng.next()) % 2_000) / 8 }
            return .number(x, dims[Int(rng.next() % 3)])
        }
        switch rng.next() % 5 {
        case 0, 1: return number()
        case 2: return .tuple((0..<(2 + Int(rng.next() % 2))).map { _ in number() }, isSize: rng.next() % 2 == 0)
        case 3: return .string(["a", "a\", \"b", "b", ""][Int(rng.next() % 4)])
        default: return .tuple([.string(["a\", \"b", "a", "b"][Int(rng.next() % 3)]), number()], isSize: rng.next() % 2 == 0)
        }
    }

    @Test func neverCallsAlikeValuesDifferent() {
        var rng = SplitMix64(seed: 909)
        var decided = 0
        for _ in 0..<200_000 {
            let a = Self.values(&rng), b = Self.values(&rng)
            guard a.printsDifferently(from: b) else { continue }
            decided += 1
            #expect(a.sourceText != b.sourceText, "\(a) and \(b) print alike: \(a.sourceText ?? "nil")")
        }
        // Pairs of same-dimension numbers and number tuples are decided (about a twentieth
        // of these), or the test compares nothing.
        #expect(decided > 5_000)
    }

    /// The result keeps values and writes their text when asked: what hover reads, by
    /// the start of a declaration's name, must be what the check folded.
    @Test func hoverTextsAreWrittenWhenAsked() throws {
        let path = "Tests/AnimcDriverTests/Fixtures/incremental/folded.anim"
        let file = SourceFile(name: path, bytes: Repository.bytes(path))
        let folded = check(parse(file)).foldedValues
        let source = String(decoding: file.bytes, as: UTF8.self)
        func text(_ declaration: String) throws -> String? {
            let found = try #require(source.range(of: declaration))
            return folded[UInt32(source.utf8.distance(from: source.startIndex, to: found.lowerBound))]
        }
        #expect(try text("base = 10") == "10")
        // `at` takes several points across the file, `size` one value twice and the
        // default once; `delay` several times.
        #expect(try text("at: Point") == "varies")
        #expect(try text("delay: Time") == "varies")
        #expect(try text("size: Number") == "varies")
        // Every key reads the text the whole table gives, and nothing else is there.
        #expect(folded.count == folded.texts.count)
        for (offset, value) in folded.texts { #expect(folded[offset] == value) }
        #expect(folded[UInt32(file.bytes.count + 1)] == nil)
        #expect(FoldedValues()[0] == nil && FoldedValues().texts.isEmpty)
        // Equal by text, however each value was kept.
        #expect(check(parse(file)).foldedValues == folded)
        #expect(folded != FoldedValues())
    }

    @Test func alikeValuesAreLeftToTheTexts() {
        #expect(!SemaValue.number(0, .none).printsDifferently(from: .number(-0.0, .none)))
        #expect(!SemaValue.number(1, .angle).printsDifferently(from: .number(1.0.nextUp, .angle)))
        #expect(!SemaValue.tuple([.number(1, .none), .number(2, .none), .number(3, .none)], isSize: true)
            .printsDifferently(from: .tuple([.number(1, .none), .number(2, .none), .number(3, .none)], isSize: false)))
        #expect(SemaValue.tuple([.number(1, .none), .number(2, .none)], isSize: true)
            .printsDifferently(from: .tuple([.number(1, .none), .number(2, .none)], isSize: false)))
    }
}
