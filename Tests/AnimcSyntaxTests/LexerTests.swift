import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

@Suite struct LexerTests {
    func kinds(_ text: String) -> [TokenKind] {
        Lexer.lex(SourceFile(name: "t", text: text)).tokens.map(\.kind)
    }

    @Test func numbersUnitsAndOperators() {
        #expect(kinds("3s 500ms -45deg 50% 1e-3") == [.number, .number, .minus, .number, .number, .number, .eof])
        #expect(kinds("0 ..< 10 ... x") == [.number, .dotDotLess, .number, .dotDotDot, .identifier, .eof])
        #expect(kinds("a.b <= >= == != && || ! ? ~") == [.identifier, .dot, .identifier, .lessEqual, .greaterEqual, .equalEqual,
                                                         .bangEqual, .andAnd, .orOr, .bang, .question, .tilde, .eof])
        #expect(kinds("let timing component composition for in if else true false")
            == [.kwLet, .kwTiming, .kwComponent, .kwComposition, .kwFor, .kwIn, .kwIf, .kwElse, .kwTrue, .kwFalse, .eof])
        #expect(kinds("#fff #0F4E6580 \"s\"") == [.color, .color, .string, .eof])
    }

    @Test func literalValues() {
        #expect(LiteralValue.number("1.5s")! == (1.5, .s))
        #expect(LiteralValue.number("2e3")! == (2000, nil))
        #expect(LiteralValue.number("45deg")! == (45, .deg))
        #expect(LiteralValue.string("\"a\\n\\u{41}\\\"\"") == "a\nA\"")
        let c = LiteralValue.color("#0F4E65")!
        #expect(abs(c.0 - 15.0 / 255) < 1e-12 && abs(c.2 - 101.0 / 255) < 1e-12 && c.3 == 1)
    }

    /// The byte matcher the lexer and the literal decoder use agrees with the spelling
    /// table itself, on every unit and on near misses.
    @Test func unitsByBytesAreUnitsBySpelling() {
        let words = NumberUnit.allCases.map(\.rawValue) + ["", "S", "m", "sec", "px", "de", "degs", "turns", "%%", "rad ", "t", "pts"]
        for word in words {
            var bytes = Array(word.utf8)
            let byBytes = bytes.withUnsafeMutableBufferPointer { NumberUnit.from(bytes: UnsafeBufferPointer($0)) }
            #expect(byBytes == NumberUnit(rawValue: word), "\(word)")
        }
        #expect(LiteralValue.number("2s")! == (2, .s))
        #expect(LiteralValue.number("50%")! == (0.5 * 100, .percent))
        #expect(LiteralValue.number("3px") == nil)
    }

    @Test func flagsRecordLineBreaksAndAttachment() {
        let tokens = Lexer.lex(SourceFile(name: "t", text: "f(1)\n g (2)")).tokens
        #expect(tokens[1].flags.contains(.attached))        // `(` right after `f`
        #expect(tokens[4].flags.contains(.newlineBefore))   // `g`
        #expect(!tokens[5].flags.contains(.attached))       // `(` after a space
    }

    /// The lexer's invariants on any input (Zig's "fuzzable properties"): ranges are in
    /// bounds, never overlap and move forward; the last token is a zero-length EOF at
    /// the end; every diagnostic range is inside the file.
    @Test func invariantsHoldOnRandomBytes() {
        var rng = SplitMix64(seed: 42)
        let alphabet: [UInt8] = Array("abc xyz 0129.e%\"\\#{}()[]<>=!&|/*-+\n\t,;:~?".utf8) + [0xC3, 0xA9, 0xFF, 0x80, 0xE2]
        for _ in 0..<3000 {
            let n = Int(rng.next() % 64)
            let bytes = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            let lexed = Lexer.lex(SourceFile(name: "r", bytes: bytes))
            var previousEnd: UInt32 = 0
            for t in lexed.tokens {
                #expect(t.range.start >= previousEnd && t.range.end <= UInt32(bytes.count))
                previousEnd = t.range.end
            }
            let last = lexed.tokens.last!
            #expect(last.kind == .eof && last.range.isEmpty && last.range.start == UInt32(bytes.count))
            for d in lexed.diagnostics { #expect(d.range.end <= UInt32(bytes.count)) }
        }
    }

    @Test func invalidUTF8IsOneDiagnosticPerRun() {
        let lexed = Lexer.lex(SourceFile(name: "t", bytes: Array("let a = 1 // ".utf8) + [0xFF, 0xFE, 0xFD] + [0x0A]))
        #expect(lexed.diagnostics.map(\.code.rawValue) == ["E0101"])
    }
}

private func == (a: (Double, NumberUnit?), b: (Double, NumberUnit?)) -> Bool { a.0 == b.0 && a.1 == b.1 }
