import AnimcBase
import AnimcDiagnostics

/// The result of lexing one file.
public struct LexedSource: Sendable {
    /// Tokens in order, always ending with one zero-length ``TokenKind/eof``.
    public var tokens: [Token]
    /// Byte ranges of every comment, for suppression directives and formatters.
    public var comments: [SourceRange]
    public var diagnostics: [Diagnostic]
}

/// Turns UTF-8 bytes into tokens. Never fails: every byte ends up in a token, a
/// comment or whitespace, and every problem becomes a diagnostic. An invalid token
/// stops at the next newline or delimiter so recovery stays local.
///
/// Two ways to run it: ``lex(_:)`` makes every token of a file at once (the formatter
/// and the language server want the whole list), and the parser pulls them a batch at
/// a time (``lex(upTo:into:)``) into a window it empties behind it, so that a parse
/// never holds all of a large file's tokens.
public struct Lexer {
    // A buffer pointer rather than the array: the lexer reads every byte, and array
    // subscripts through `self` kept their bounds checks and reloads in the loops.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read: everything before it is lexed.
    private(set) var i = 0
    /// Where the first token may start (after a byte order mark): a token after it
    /// with no trivia before it is attached to the one before.
    private var origin = 0
    /// Whether the ``TokenKind/eof`` token is made: there is nothing more to lex.
    private(set) var finished = false
    private(set) var comments: [SourceRange] = []
    /// Diagnostics not yet taken (``takeDiagnostics()``).
    private(set) var diagnostics: [Diagnostic] = []
    /// Diagnostics made in all, taken or not: the bound on them counts every one.
    private var reported = 0
    private var sawNewline = false
    private var sawTrivia = false
    /// Line breaks consumed so far, and the line of the last diagnostic.
    private var line = 0
    private var lastReportedLine = -1
    /// Where ``append(_:from:error:)`` puts tokens during ``lex(upTo:into:)``.
    private var output: [Token] = []

    public static func lex(_ file: SourceFile) -> LexedSource {
        file.bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer)
            // Ordinary sources have a token per three to four bytes; reserving for one per
            // three spares the copy a growing array makes.
            var tokens: [Token] = []
            tokens.reserveCapacity(buffer.count / 3 + 8)
            lexer.lex(upTo: Int.max, into: &tokens)
            return LexedSource(tokens: tokens, comments: lexer.comments, diagnostics: lexer.diagnostics)
        }
    }

    /// A lexer over `bytes`, which must stay valid while it runs.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is harmless; skip it rather than report it.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        origin = i
    }

    /// Appends up to `count` more tokens to `tokens`: fewer only when the file ends,
    /// its ``TokenKind/eof`` token then being the last.
    mutating func lex(upTo count: Int, into tokens: inout [Token]) {
        guard !finished else { return }
        // Lexed into the lexer's own list, which `tokens` lends for the while, so that
        // the dozens of places that append need no parameter.
        swap(&output, &tokens)
        defer { swap(&output, &tokens) }
        var n = 0
        while n < count {
            skipTrivia()
            guard i < bytes.count else {
                append(.eof, from: bytes.count, error: false)
                output[output.count - 1].range = .empty(at: UInt32(clamping: bytes.count))
                finished = true
                return
            }
            lexToken()
            n += 1
        }
    }

    /// The diagnostics made since the last call, in the order made.
    mutating func takeDiagnostics() -> [Diagnostic] {
        defer { diagnostics.removeAll(keepingCapacity: true) }
        return diagnostics
    }

    private mutating func append(_ kind: TokenKind, from start: Int, error: Bool) {
        var flags: Token.Flags = []
        if sawNewline { flags.insert(.newlineBefore) }
        if !sawTrivia && start > origin { flags.insert(.attached) }
        if error { flags.insert(.hasError) }
        output.append(Token(kind: kind, range: SourceRange(start, i), flags: flags))
        sawNewline = false
        sawTrivia = false
    }

    /// Keeps the lexer's own list bounded: one diagnostic per line, as the parser
    /// keeps, and no more than the parser records in all, so a file of a million stray
    /// characters never builds a million diagnostics.
    private mutating func report(_ d: Diagnostic) {
        guard line != lastReportedLine, reported <= SyntaxDiagnostics.recordedLimit else { return }
        lastReportedLine = line
        reported += 1
        diagnostics.append(d)
    }

    /// Reports pasted C syntax that the lexer steps over (`1.0f`, `@0.5`): every one,
    /// not one per line, since each is recovered exactly and a pasted line has several;
    /// the line stays open for a real error's report.
    private mutating func reportPasted(_ d: Diagnostic) {
        guard reported <= SyntaxDiagnostics.recordedLimit else { return }
        reported += 1
        diagnostics.append(d)
    }

    private func peek(_ offset: Int = 0) -> UInt8 {
        let k = i + offset
        return k < bytes.count ? bytes[k] : 0
    }

    // MARK: Trivia

    @inline(__always)
    private mutating func skipTrivia() {
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09, 0x0C:
                i += 1; sawTrivia = true
            case 0x0A, 0x0D:
                if b == 0x0A || peek(1) != 0x0A { line += 1 }
                i += 1; sawTrivia = true; sawNewline = true
            case 0x2F where peek(1) == 0x2F:
                let start = i
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D {
                    if bytes[i] >= 0x80 { skipNonASCII(inComment: true) } else { i += 1 }
                }
                comments.append(SourceRange(start, i))
                sawTrivia = true
            case 0x2F where peek(1) == 0x2A:
                blockComment()
                sawTrivia = true
            default:
                return
            }
        }
    }

    /// `/* ... */`, nesting like Swift's so commenting out a block that holds a
    /// comment works.
    private mutating func blockComment() {
        let start = i
        i += 2
        var depth = 1
        while i < bytes.count {
            if bytes[i] == 0x2A, peek(1) == 0x2F {
                i += 2; depth -= 1
                if depth == 0 { comments.append(SourceRange(start, i)); return }
            } else if bytes[i] == 0x2F, peek(1) == 0x2A {
                i += 2; depth += 1
            } else if bytes[i] == 0x0A || bytes[i] == 0x0D {
                if bytes[i] == 0x0A || peek(1) != 0x0A { line += 1 }
                i += 1; sawNewline = true
            } else if bytes[i] >= 0x80 {
                skipNonASCII(inComment: true)
            } else {
                i += 1
            }
        }
        comments.append(SourceRange(start, i))
        report(SyntaxDiagnostics.unterminatedComment(SourceRange(start, start + 2), end: UInt32(clamping: i)))
    }

    /// Consumes one UTF-8 scalar (or one invalid byte, reported). Returns the scalar.
    @discardableResult
    private mutating func skipNonASCII(inComment: Bool) -> Unicode.Scalar? {
        let (scalar, length) = decodeUTF8(at: i)
        if scalar == nil {
            // Group a run of invalid bytes into one diagnostic.
            let start = i
            i += 1
            while i < bytes.count, bytes[i] >= 0x80, decodeUTF8(at: i).0 == nil { i += 1 }
            report(SyntaxDiagnostics.invalidUTF8(SourceRange(start, i)))
            return nil
        }
        i += length
        return scalar
    }

    private func decodeUTF8(at k: Int) -> (Unicode.Scalar?, Int) {
        let b0 = bytes[k]
        let length: Int
        var value: UInt32
        switch b0 {
        case 0x00..<0x80: return (Unicode.Scalar(b0), 1)
        case 0xC2...0xDF: length = 2; value = UInt32(b0 & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(b0 & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(b0 & 0x07)
        default: return (nil, 1)
        }
        guard k + length <= bytes.count else { return (nil, 1) }
        for n in 1..<length {
            let b = bytes[k + n]
            guard b & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(b & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }

    // MARK: Tokens

    /// Whether `b` can start a name (ASCII letters and `_`).
    public static func isIdentStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F
    }
    /// `f` or `F`, C's float suffix (`1.0f`).
    static func isFloatSuffix(_ b: UInt8) -> Bool { b == 0x66 || b == 0x46 }
    /// Whether `b` can continue a name (also digits).
    public static func isIdentContinue(_ b: UInt8) -> Bool { isIdentStart(b) || isDigit(b) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isHex(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46)
    }

    @inline(__always)
    private mutating func lexToken() {
        let start = i
        let b = bytes[i]
        if Lexer.isIdentStart(b) {
            i += 1
            while i < bytes.count, Lexer.isIdentContinue(bytes[i]) { i += 1 }
            append(keyword(start, i) ?? .identifier, from: start, error: false)
            return
        }
        if Lexer.isDigit(b) { number(); return }
        switch b {
        case 0x22: string(); return
        case 0x23: color(); return
        case 0x7B: single(.lBrace)
        case 0x7D: single(.rBrace)
        case 0x28: single(.lParen)
        case 0x29: single(.rParen)
        case 0x5B: single(.lBracket)
        case 0x5D: single(.rBracket)
        case 0x2C: single(.comma)
        case 0x3A: single(.colon)
        case 0x3B: single(.semicolon)
        case 0x7E: single(.tilde)
        case 0x2B: single(.plus)
        case 0x2D: single(.minus)
        case 0x2A: single(.star)
        case 0x2F: single(.slash)
        case 0x3F: single(.question)
        case 0x3D: peek(1) == 0x3D ? double(.equalEqual) : single(.equal)
        case 0x3C: peek(1) == 0x3D ? double(.lessEqual) : single(.less)
        case 0x3E: peek(1) == 0x3D ? double(.greaterEqual) : single(.greater)
        case 0x21: peek(1) == 0x3D ? double(.bangEqual) : single(.bang)
        case 0x26 where peek(1) == 0x26: double(.andAnd)
        case 0x7C where peek(1) == 0x7C: double(.orOr)
        case 0x2E:
            if peek(1) == 0x2E && peek(2) == 0x3C {
                i += 3; append(.dotDotLess, from: start, error: false)
            } else if peek(1) == 0x2E && peek(2) == 0x2E {
                i += 3; append(.dotDotDot, from: start, error: false)
            } else if peek(1) == 0x2E {
                i += 2
                report(SyntaxDiagnostics.halfOpenRangeOperator(SourceRange(start, i)))
                append(.dotDotLess, from: start, error: true)
            } else if Lexer.isDigit(peek(1)) {
                // `.5`: lex the digits as a number so the value survives, and say how to write it.
                i += 1
                while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
                // Right after a name or a bracket, `t.1` is Swift's tuple element: `t[1]`
                // (a `0` inserted there would make the name `t0`, and `--fix` would never
                // finish).
                let after = start > 0 ? bytes[start - 1] : 0
                let element = Lexer.isIdentContinue(after) || after == 0x29 || after == 0x5D
                report(element ? SyntaxDiagnostics.tupleElement(SourceRange(start, i), digits: text(start + 1, i))
                               : SyntaxDiagnostics.leadingDotNumber(SourceRange(start, i), digits: text(start + 1, i)))
                if i < bytes.count, Lexer.isFloatSuffix(bytes[i]), !Lexer.isIdentContinue(peek(1)) {
                    i += 1
                    reportPasted(SyntaxDiagnostics.floatSuffix(SourceRange(i - 1, i), written: text(i - 1, i)))
                }
                append(.number, from: start, error: true)
            } else {
                single(.dot)
            }
        case 0x40 where startsObjectiveCLiteral(after: i):
            // `@0.5`, `@"forwards"`, `@[...]`, `@(x)`, `@YES`: the value is what follows.
            i += 1
            reportPasted(SyntaxDiagnostics.objectiveCLiteral(SourceRange(start, i), boxedOperand: boxedOperandEnd(after: start)))
            sawTrivia = true
            lexToken()
        default:
            invalidCharacter()
        }
    }

    /// `@(0.f)`, `@(M_PI)`: where the `)` of a boxed expression is when what it boxes is
    /// one number or one (dotted) name, whose parentheses the fix removes with the `@`
    /// (`(0)` would get no unit, and `(0)rad` does not parse). Nil when the parentheses
    /// hold anything else, which they keep. Looks at most 64 bytes ahead.
    private func boxedOperandEnd(after at: Int) -> Int? {
        guard at + 1 < bytes.count, bytes[at + 1] == 0x28 else { return nil }
        var k = at + 2
        while k < bytes.count, bytes[k] == 0x20 { k += 1 }
        let first = k
        while k < bytes.count, k - at < 64, Lexer.isIdentContinue(bytes[k]) || bytes[k] == 0x2E { k += 1 }
        guard k > first, bytes[first] != 0x2E else { return nil }
        while k < bytes.count, bytes[k] == 0x20 { k += 1 }
        return k < bytes.count && bytes[k] == 0x29 ? k : nil
    }

    /// Whether the `@` at `at` starts an Objective-C literal.
    private func startsObjectiveCLiteral(after at: Int) -> Bool {
        let next = at + 1 < bytes.count ? bytes[at + 1] : 0
        if Lexer.isDigit(next) || next == 0x22 || next == 0x28 || next == 0x5B || next == 0x2D || next == 0x2E { return true }
        for word in ["YES", "NO"] where at + 1 + word.utf8.count <= bytes.count {
            let end = at + 1 + word.utf8.count
            if Array(bytes[(at + 1)..<end]) == Array(word.utf8), !(end < bytes.count && Lexer.isIdentContinue(bytes[end])) { return true }
        }
        return false
    }

    private mutating func single(_ kind: TokenKind) {
        let start = i
        i += 1
        append(kind, from: start, error: false)
    }

    private mutating func double(_ kind: TokenKind) {
        let start = i
        i += 2
        append(kind, from: start, error: false)
    }

    private func text(_ lo: Int, _ hi: Int) -> String {
        String(decoding: bytes[lo..<min(hi, bytes.count)], as: UTF8.self)
    }

    private func keyword(_ lo: Int, _ hi: Int) -> TokenKind? {
        let n = hi - lo
        guard n >= 2, n <= 11 else { return nil }
        switch bytes[lo] {
        case 0x6C: return matches(lo, hi, "let") ? .kwLet : nil
        case 0x74:
            if matches(lo, hi, "timing") { return .kwTiming }
            return matches(lo, hi, "true") ? .kwTrue : nil
        case 0x63:
            if matches(lo, hi, "component") { return .kwComponent }
            return matches(lo, hi, "composition") ? .kwComposition : nil
        case 0x66:
            if matches(lo, hi, "for") { return .kwFor }
            return matches(lo, hi, "false") ? .kwFalse : nil
        case 0x69:
            if matches(lo, hi, "in") { return .kwIn }
            return matches(lo, hi, "if") ? .kwIf : nil
        case 0x65: return matches(lo, hi, "else") ? .kwElse : nil
        default: return nil
        }
    }

    private func matches(_ lo: Int, _ hi: Int, _ word: StaticString) -> Bool {
        guard hi - lo == word.utf8CodeUnitCount else { return false }
        let p = word.utf8Start
        for k in 0..<(hi - lo) where bytes[lo + k] != p[k] { return false }
        return true
    }

    /// number = digits ["." digits] [("e"|"E") ["+"|"-"] digits] [unit]
    private mutating func number() {
        let start = i
        if bytes[i] == 0x30, peek(1) == 0x78 || peek(1) == 0x58, Lexer.isHexDigit(peek(2)) {
            hexNumber()
            return
        }
        var malformed = false
        while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
        if peek() == 0x2E, peek(1) != 0x2E {
            if Lexer.isDigit(peek(1)) {
                i += 1
                while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
            } else if Lexer.isFloatSuffix(peek(1)) && !Lexer.isIdentContinue(peek(2)) {
                // `12.f`, C's float: the value is 12.
                i += 2
                reportPasted(SyntaxDiagnostics.floatSuffix(SourceRange(i - 2, i), written: text(i - 2, i)))
                append(.number, from: start, error: false)
                return
            } else if !Lexer.isIdentStart(peek(1)) {
                // `1.` with nothing after: keep the dot in the token and suggest `1.0`.
                i += 1
                report(SyntaxDiagnostics.missingFractionDigits(SourceRange(start, i)))
                malformed = true
            }
        }
        // Whether the digits end with an exponent (a bare `e` may start a unit instead).
        var hasExponent = false
        if peek() == 0x65 || peek() == 0x45 {
            let expStart = i
            var k = i + 1
            if k < bytes.count, bytes[k] == 0x2B || bytes[k] == 0x2D { k += 1 }
            if k < bytes.count, Lexer.isDigit(bytes[k]) {
                hasExponent = true
                i = k
                while i < bytes.count, Lexer.isDigit(bytes[i]) { i += 1 }
            } else if k > i + 1 || !(k < bytes.count && Lexer.isIdentContinue(bytes[k])) {
                // `1e`, `1e+`: an exponent marker with no digits.
                i = k
                report(SyntaxDiagnostics.missingExponentDigits(SourceRange(start, i), marker: SourceRange(expStart, i)))
                malformed = true
            }
        }
        let digitsEnd = i
        // Only a long literal or one with an exponent can overflow; checking just those
        // keeps ordinary numbers free of string conversions.
        if !malformed && (digitsEnd - start > 300 || hasExponent) {
            let value = Double(text(start, digitsEnd)) ?? .infinity
            if !value.isFinite {
                report(SyntaxDiagnostics.numberOutOfRange(SourceRange(start, digitsEnd)))
                malformed = true
            }
        }
        // A unit follows the digits with no space: `3s`, `45deg`, `50%`.
        if peek() == 0x25 {
            i += 1
        } else if Lexer.isIdentStart(peek()) {
            let unitStart = i
            while i < bytes.count, Lexer.isIdentStart(bytes[i]) { i += 1 }
            if i == unitStart + 1, Lexer.isFloatSuffix(bytes[unitStart]), !(i < bytes.count && Lexer.isDigit(bytes[i])) {
                // `1.0f`: C's float suffix, which the number's decoder skips too.
                reportPasted(SyntaxDiagnostics.floatSuffix(SourceRange(unitStart, i), written: text(unitStart, i)))
            } else if NumberUnit.from(bytes: UnsafeBufferPointer(rebasing: bytes[unitStart..<i])) == nil {
                let unit = text(unitStart, i)
                let continues = i < bytes.count && Lexer.isDigit(bytes[i])
                report(SyntaxDiagnostics.unknownUnit(SourceRange(unitStart, i), unit: unit,
                                                                 looksLikeSize: unit == "x" && continues))
                malformed = true
            }
            // Digits glued to the unit (`375x667`, `3s5`) belong to this broken token; a
            // range operator after a unit (`0s..<3s`) does not.
            let glued = i
            while i < bytes.count, Lexer.isIdentContinue(bytes[i]) || (bytes[i] == 0x2E && peek(1) != 0x2E) { i += 1 }
            if i > glued && !malformed {
                report(SyntaxDiagnostics.malformedNumber(SourceRange(start, i), text: text(start, i)))
                malformed = true
            }
        } else if Lexer.isDigit(peek()) == false, peek() == 0x2E, Lexer.isDigit(peek(1)) {
            // `1.2.3`
            while i < bytes.count, Lexer.isDigit(bytes[i]) || bytes[i] == 0x2E { i += 1 }
            report(SyntaxDiagnostics.malformedNumber(SourceRange(start, i), text: text(start, i)))
            malformed = true
        }
        append(.number, from: start, error: malformed)
    }

    /// `0xFF8000`, C's and Swift's hexadecimal integer (pasted colour helpers take them):
    /// a number token reported with its decimal spelling. More than 13 digits (past
    /// 2⁵²) are malformed rather than rounded.
    private mutating func hexNumber() {
        let start = i
        i += 2
        while i < bytes.count, Lexer.isHexDigit(bytes[i]) { i += 1 }
        let digits = i - start - 2
        var malformed = digits > 13
        if i < bytes.count, Lexer.isIdentContinue(bytes[i]) {
            while i < bytes.count, Lexer.isIdentContinue(bytes[i]) { i += 1 }
            malformed = true
        }
        if malformed {
            report(SyntaxDiagnostics.malformedNumber(SourceRange(start, i), text: text(start, i)))
        } else if let (value, _) = LiteralValue.number(UnsafeBufferPointer(rebasing: bytes[start..<i])) {
            reportPasted(SyntaxDiagnostics.hexLiteral(SourceRange(start, i), written: text(start, i), decimal: formatInteger(value)))
        }
        append(.number, from: start, error: malformed)
    }

    private func formatInteger(_ x: Double) -> String { String(UInt64(x)) }

    static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }

    /// string = '"' { char | escape } '"' ; no line breaks inside.
    private mutating func string() {
        let start = i
        i += 1
        var bad = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 { i += 1; append(.string, from: start, error: bad); return }
            if b == 0x0A || b == 0x0D { break }
            if b == 0x5C {
                let escStart = i
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case 0x6E, 0x74, 0x72, 0x30, 0x22, 0x5C:
                    i += 1
                case 0x75 where peek(1) == 0x7B:
                    i += 2
                    let digitsStart = i
                    while i < bytes.count, Lexer.isHex(bytes[i]) { i += 1 }
                    let digits = text(digitsStart, i)
                    let closed = peek() == 0x7D
                    if closed { i += 1 }
                    if !closed || digits.isEmpty || digits.count > 8 || UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init) == nil {
                        report(SyntaxDiagnostics.invalidEscape(SourceRange(escStart, i), text: text(escStart, i)))
                        bad = true
                    }
                default:
                    if bytes[i] >= 0x80 { skipNonASCII(inComment: false) } else if bytes[i] != 0x0A && bytes[i] != 0x0D { i += 1 }
                    report(SyntaxDiagnostics.invalidEscape(SourceRange(escStart, i), text: text(escStart, i)))
                    bad = true
                }
                continue
            }
            if b >= 0x80 {
                if skipNonASCII(inComment: false) == nil { bad = true }
                continue
            }
            i += 1
        }
        report(SyntaxDiagnostics.unterminatedString(SourceRange(start, start + 1), end: UInt32(clamping: i)))
        append(.string, from: start, error: true)
    }

    /// color = "#" hex{3|4|6|8}
    private mutating func color() {
        let start = i
        // Swift's `#colorLiteral(red:green:blue:alpha:)`: the `#` goes, and the call that
        // is left is ported as UIColor's initialiser is.
        let literal = Array("colorLiteral".utf8)
        if start + 1 + literal.count < bytes.count, Array(bytes[(start + 1)..<(start + 1 + literal.count)]) == literal,
           !Lexer.isIdentContinue(bytes[start + 1 + literal.count]) {
            i += 1
            reportPasted(SyntaxDiagnostics.colorLiteral(SourceRange(start, start + 1)))
            sawTrivia = true
            lexToken()
            return
        }
        i += 1
        while i < bytes.count, Lexer.isIdentContinue(bytes[i]) { i += 1 }
        let digits = bytes[(start + 1)..<i]
        let valid = [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(Lexer.isHex)
        if !valid {
            report(SyntaxDiagnostics.invalidColor(SourceRange(start, i), text: text(start, i)))
        }
        append(.color, from: start, error: !valid)
    }

    /// `'tile'` or `“tile”`: a string in the wrong quotes. One diagnostic whose fix-it
    /// replaces both quotes, and a string token so parsing goes on normally.
    private mutating func wrongQuotes(open: [UInt8], close: [UInt8]) -> Bool {
        let start = i
        var k = i + open.count
        while k + close.count <= bytes.count, bytes[k] != 0x0A, bytes[k] != 0x0D {
            if Array(bytes[k..<(k + close.count)]) == close {
                i = k + close.count
                report(SyntaxDiagnostics.wrongQuotes(SourceRange(start, i), openLength: open.count, closeLength: close.count))
                append(.string, from: start, error: true)
                return true
            }
            k += 1
        }
        return false
    }

    private mutating func invalidCharacter() {
        let start = i
        if bytes[i] == 0x27, wrongQuotes(open: [0x27], close: [0x27]) { return }
        if bytes[i] == 0xE2, peek(1) == 0x80, peek(2) == 0x9C, wrongQuotes(open: [0xE2, 0x80, 0x9C], close: [0xE2, 0x80, 0x9D]) { return }
        if bytes[i] < 0x80 {
            let scalar = Unicode.Scalar(bytes[i])
            i += 1
            report(SyntaxDiagnostics.unexpectedCharacter(SourceRange(start, i), scalar))
        } else if let scalar = skipNonASCII(inComment: false) {
            report(SyntaxDiagnostics.unexpectedCharacter(SourceRange(start, i), scalar))
        }
        append(.invalid, from: start, error: true)
    }
}

// MARK: - Literal values

/// Decoders shared by the parser and tools: the lexer has already validated the
/// token, so these only fail on tokens it flagged.
public enum LiteralValue {
    /// The magnitude and unit of a number token's bytes, e.g. `1.5s` → (1.5, .s).
    ///
    /// Most literals have at most 15 significant digits and a small exponent; those are
    /// converted exactly with Clinger's fast path (an integer mantissa times or divided
    /// by an exact power of ten rounds once, correctly). The rest go through `strtod`.
    public static func number(_ bytes: ArraySlice<UInt8>) -> (Double, NumberUnit?)? {
        bytes.withUnsafeBufferPointer { number($0) }
    }

    /// ``number(_:)-(ArraySlice<UInt8>)`` over the token's bytes in place: the parser
    /// decodes every number literal, and slicing the file's array retained it and
    /// checked each index.
    public static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> (Double, NumberUnit?)? {
        var i = bytes.startIndex
        if bytes.count > 2, bytes[i] == 0x30, bytes[i + 1] == 0x78 || bytes[i + 1] == 0x58 {
            // `0xFF8000` (the lexer took at most 13 hex digits: exact in a Double).
            var value: UInt64 = 0
            for b in bytes[(i + 2)...] {
                guard Lexer.isHexDigit(b), value < (1 << 52) else { return nil }
                value = value * 16 + UInt64(b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x61 + 10)
            }
            return (Double(value), nil)
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var exactPath = true
        while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30) } else { exactPath = false }
            if mantissa > 0 { digits += 1 }
            i += 1
        }
        if i < bytes.endIndex, bytes[i] == 0x2E, i + 1 < bytes.endIndex, bytes[i + 1] >= 0x30, bytes[i + 1] <= 0x39 {
            i += 1
            while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] - 0x30); scale += 1 } else { exactPath = false }
                if mantissa > 0 { digits += 1 }
                i += 1
            }
        }
        if i < bytes.endIndex, bytes[i] == 0x65 || bytes[i] == 0x45 {
            // Exponents are rare: let strtod handle them.
            exactPath = false
            var k = i + 1
            if k < bytes.endIndex, bytes[k] == 0x2B || bytes[k] == 0x2D { k += 1 }
            while k < bytes.endIndex, bytes[k] >= 0x30, bytes[k] <= 0x39 { k += 1 }
            i = k
        }
        let unit: NumberUnit?
        if i == bytes.endIndex || bytes.endIndex - i == 1 && Lexer.isFloatSuffix(bytes[i])
            || bytes.endIndex - i == 2 && bytes[i] == 0x2E && Lexer.isFloatSuffix(bytes[i + 1]) {
            // No unit, or C's float suffix, which the lexer reported (`1.0f`, `12.f`).
            unit = nil
        } else {
            guard let u = NumberUnit.from(bytes: UnsafeBufferPointer(rebasing: bytes[i...])) else { return nil }
            unit = u
        }
        if exactPath && mantissa < (1 << 53) && scale <= 22 {
            return (Double(mantissa) / powersOfTen[scale], unit)
        }
        return number(Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[bytes.startIndex..<i]), as: UTF8.self))).map { ($0.0, unit) }
    }

    private static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// The magnitude and unit of a number's text, e.g. `1.5s` → (1.5, .s).
    public static func number(_ text: Substring) -> (Double, NumberUnit?)? {
        var digitsEnd = text.startIndex
        let scalars = text.unicodeScalars
        var idx = scalars.startIndex
        var sawExponent = false
        while idx < scalars.endIndex {
            let c = scalars[idx]
            if c.properties.numericType != nil && c.isASCII || c == "." {
                idx = scalars.index(after: idx)
            } else if (c == "e" || c == "E") && !sawExponent {
                let next = scalars.index(after: idx)
                if next < scalars.endIndex, scalars[next].isASCII,
                   scalars[next].properties.numericType != nil || scalars[next] == "+" || scalars[next] == "-" {
                    sawExponent = true
                    idx = scalars.index(after: next)
                } else {
                    break
                }
            } else {
                break
            }
        }
        digitsEnd = idx
        var digits = String(text[text.startIndex..<digitsEnd])
        if digits.hasPrefix(".") { digits = "0" + digits }
        if digits.hasSuffix(".") { digits += "0" }
        guard let value = Double(digits), value.isFinite else { return nil }
        let unitText = String(text[digitsEnd...])
        if unitText.isEmpty || unitText == "f" || unitText == "F" { return (value, nil) }
        guard let unit = NumberUnit.from(spelling: unitText) else { return nil }
        return (value, unit)
    }

    /// The contents of a string token with escapes resolved.
    public static func string(_ text: Substring) -> String {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\"" { scalars.removeFirst() }
        if scalars.last == "\"" && !scalars.isEmpty { scalars.removeLast() }
        var out = String.UnicodeScalarView()
        var k = 0
        while k < scalars.count {
            let c = scalars[k]
            guard c == "\\", k + 1 < scalars.count else { out.append(c); k += 1; continue }
            let e = scalars[k + 1]
            k += 2
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "\"": out.append("\"")
            case "\\": out.append("\\")
            case "u":
                guard k < scalars.count, scalars[k] == "{" else { continue }
                var hex = ""
                k += 1
                while k < scalars.count, scalars[k] != "}" { hex.unicodeScalars.append(scalars[k]); k += 1 }
                k += 1
                if let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) { out.append(s) }
            default: break
            }
        }
        return String(out)
    }

    /// RGBA components in 0...1 of a colour token (`#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`).
    public static func color(_ text: Substring) -> (Double, Double, Double, Double)? {
        let hex = Array(text.utf8.dropFirst())
        func nibble(_ b: UInt8) -> Int? {
            switch b {
            case 0x30...0x39: return Int(b - 0x30)
            case 0x61...0x66: return Int(b - 0x61 + 10)
            case 0x41...0x46: return Int(b - 0x41 + 10)
            default: return nil
            }
        }
        let n = hex.compactMap(nibble)
        guard n.count == hex.count else { return nil }
        switch n.count {
        case 3, 4:
            let c = n.map { Double($0 * 17) / 255 }
            return (c[0], c[1], c[2], n.count == 4 ? c[3] : 1)
        case 6, 8:
            var c: [Double] = []
            for k in stride(from: 0, to: n.count, by: 2) { c.append(Double(n[k] * 16 + n[k + 1]) / 255) }
            return (c[0], c[1], c[2], n.count == 8 ? c[3] : 1)
        default:
            return nil
        }
    }
}
