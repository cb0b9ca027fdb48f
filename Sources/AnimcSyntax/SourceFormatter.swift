import AnimcBase

/// `animc fmt`: the one canonical layout of a `.anim` file.
///
/// The formatter rewrites only the whitespace between tokens, so it cannot change what
/// a file means, and it keeps every comment. Like gofmt it keeps the author's line
/// breaks (a line break ends an item outside brackets, so they carry meaning) and
/// canonicalises the rest:
///
/// - indentation is two spaces per open `{`, `(` or `[` still open at the start of a
///   line (brackets opened on one line count once), and a line starting with a closer
///   is indented like the line that opened it;
/// - spacing within a line follows the table in ``SourceFormatter/spaceBetween(_:_:_:)``:
///   one space around binary operators, `=`, `~` and `{`, none inside brackets, after
///   unary operators, or before `,` `;` `:`;
/// - blank lines are collapsed to one, and removed after an opening and before a
///   closing bracket and at the start and end of the file;
/// - a trailing comment is one space after its code; a comment on its own line is
///   indented like the code that follows it; block comments are kept verbatim.
///
/// Whether a `(`, `[` or `.` touches the token before it is part of the syntax (`f(x)`
/// is a call, `f (x)` a path command argument), so that is always kept as written.
/// The result is checked by lexing it again: if the tokens differ in any way the
/// parser can see, formatting fails rather than return a different program.
public enum SourceFormatter {
    public enum Failure: Error, Equatable, Sendable {
        /// The file has syntax errors; formatting would have to guess.
        case syntaxErrors(count: Int)
        /// The formatted text would lex differently: a formatter bug, reported rather
        /// than written.
        case wouldChangeMeaning(at: UInt32)
    }

    /// The formatted text of `file`, or why it cannot be formatted.
    public static func format(_ file: SourceFile) -> Result<String, Failure> {
        let tree = Parser.parse(file)
        let errors = tree.diagnostics.filter { $0.severity == .error }.count
        guard errors == 0 else { return .failure(.syntaxErrors(count: errors)) }
        let lexed = Lexer.lex(file)
        var layout = Layout(file: file, tokens: lexed.tokens, comments: lexed.comments)
        let output = layout.run()
        if let offset = firstDifference(original: lexed.tokens, file: file, formatted: output) {
            return .failure(.wouldChangeMeaning(at: offset))
        }
        return .success(output)
    }

    /// Whether `prev` and `next` (on the same line) are separated by a space.
    /// `ternary` is set when `next` is the `:` of a `c ? a : b`.
    static func spaceBetween(_ prev: Token, _ next: Token, _ ternaryColon: Bool) -> Bool {
        if isSignificantlyAttached(next, after: prev) { return !next.flags.contains(.attached) }
        switch next.kind {
        case .comma, .semicolon, .rParen, .rBracket: return false
        case .colon: return ternaryColon
        default: break
        }
        switch prev.kind {
        case .lParen, .lBracket, .bang: return false
        case .minus, .plus: return prev.flags.contains(.unaryOperator) ? false : true
        case .lBrace: return next.kind != .rBrace
        default: return true
        }
    }

    /// Tokens whose attachment to the previous token the parser reads: `f(x)` is a call
    /// and `f (x)` a path command's argument, `a[0]` an index, `a.b` a member, `.name`
    /// an implicit member. After an operator or punctuation it means nothing.
    static func isSignificantlyAttached(_ t: Token, after prev: Token) -> Bool {
        switch t.kind {
        case .lParen, .lBracket, .dot: return endsOperand(prev)
        case .identifier: return prev.kind == .dot
        // A transition's `->` is a `-` and a `>` with nothing between them.
        case .greater: return prev.kind == .minus
        default: return false
        }
    }

    static func endsOperand(_ t: Token) -> Bool {
        switch t.kind {
        case .number, .string, .color, .identifier, .kwTrue, .kwFalse, .rParen, .rBracket: return true
        default: return false
        }
    }

    /// The offset of the first token of `formatted` that differs from `original` in
    /// kind, text, line break before it, or meaningful attachment; nil when none does.
    static func firstDifference(original: [Token], file: SourceFile, formatted: String) -> UInt32? {
        let newFile = SourceFile(name: file.name, text: formatted)
        let again = Lexer.lex(newFile).tokens
        guard again.count == original.count else {
            return original.last?.range.start ?? 0
        }
        for (i, (a, b)) in zip(original, again).enumerated() {
            let prev = i > 0 ? original[i - 1] : nil
            if a.kind != b.kind || file.bytes[Int(a.range.start)..<Int(a.range.end)] != newFile.bytes[Int(b.range.start)..<Int(b.range.end)]
                || (i > 0 && a.kind != .eof && a.flags.contains(.newlineBefore) != b.flags.contains(.newlineBefore)) {
                return a.range.start
            }
            if let prev, isSignificantlyAttached(a, after: prev), a.flags.contains(.attached) != b.flags.contains(.attached) {
                return a.range.start
            }
        }
        return nil
    }
}

extension Token.Flags {
    /// Set by the formatter on a `-`, `+` or `!` used as a prefix operator.
    static let unaryOperator = Token.Flags(rawValue: 0x80)
}

/// One formatting run: walks the tokens and the gaps between them.
private struct Layout {
    let file: SourceFile
    var tokens: [Token]
    let comments: [SourceRange]
    var out: [UInt8] = []
    /// Open brackets: the kind, and the indentation of the line that opened it.
    var open: [(kind: TokenKind, lineIndent: Int)] = []
    /// The indentation of the line being written.
    var lineIndent = 0
    /// How many `?` await their `:`, per bracket depth.
    var pendingQuestions: [Int] = [0]
    /// Where in `out` the code of a line ends and its trailing `//` comment follows,
    /// for aligning the comments of consecutive lines.
    var trailingComments: [Int] = []

    init(file: SourceFile, tokens: [Token], comments: [SourceRange]) {
        self.file = file
        self.tokens = tokens
        self.comments = comments
        markUnaryOperators()
    }

    mutating func markUnaryOperators() {
        for i in tokens.indices where [.minus, .plus, .bang].contains(tokens[i].kind) {
            let endsOperand = i > 0 && !tokens[i].flags.contains(.newlineBefore) && SourceFormatter.endsOperand(tokens[i - 1])
            if !endsOperand || tokens[i].kind == .bang { tokens[i].flags.insert(.unaryOperator) }
        }
    }

    mutating func run() -> String {
        var commentIndex = 0
        var previousEnd = 0
        for (i, token) in tokens.enumerated() {
            // The gap before this token: comments and line breaks.
            var pieces: [Gap] = []
            var cursor = previousEnd
            let gapEnd = Int(token.range.start)
            while commentIndex < comments.count, Int(comments[commentIndex].start) < gapEnd {
                let c = comments[commentIndex]
                pieces.append(.newlines(countNewlines(cursor, Int(c.start))))
                pieces.append(.comment(c))
                cursor = Int(c.end)
                commentIndex += 1
            }
            pieces.append(.newlines(countNewlines(cursor, gapEnd)))
            writeGap(pieces, before: token, index: i)
            if token.kind != .eof { write(token) }
            previousEnd = Int(token.range.end)
        }
        // Exactly one line end at the end of the file, none at the start.
        while let last = out.last, last == 0x0A || last == 0x20 { out.removeLast() }
        if !out.isEmpty { out.append(0x0A) }
        return String(decoding: alignTrailingComments(), as: UTF8.self)
    }

    /// Trailing `//` comments on consecutive lines of the same indentation start in one
    /// column, one space after the longest code among them (as gofmt aligns them).
    func alignTrailingComments() -> [UInt8] {
        guard !trailingComments.isEmpty else { return out }
        struct Line { var start: Int; var codeEnd: Int; var width: Int; var indent: Int; var number: Int }
        // Line numbers and starts of the comment-bearing lines.
        var lines: [Line] = []
        var lineStart = 0, lineNumber = 0, scan = 0
        for offset in trailingComments {
            while scan < offset {
                if out[scan] == 0x0A { lineNumber += 1; lineStart = scan + 1 }
                scan += 1
            }
            var indent = 0
            while out[lineStart + indent] == 0x20 { indent += 1 }
            let width = out[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            lines.append(Line(start: lineStart, codeEnd: offset, width: width, indent: indent, number: lineNumber))
        }
        var padding = [Int: Int]()  // codeEnd -> extra spaces
        var i = 0
        while i < lines.count {
            var j = i
            while j + 1 < lines.count && lines[j + 1].number == lines[j].number + 1 && lines[j + 1].indent == lines[i].indent { j += 1 }
            let column = lines[i...j].map(\.width).max() ?? 0
            for line in lines[i...j] where line.width < column { padding[line.codeEnd] = column - line.width }
            i = j + 1
        }
        guard !padding.isEmpty else { return out }
        var result: [UInt8] = []
        result.reserveCapacity(out.count + padding.values.reduce(0, +))
        var from = 0
        for end in padding.keys.sorted() {
            result.append(contentsOf: out[from..<end])
            result.append(contentsOf: repeatElement(0x20, count: padding[end] ?? 0))
            from = end
        }
        result.append(contentsOf: out[from...])
        return result
    }

    enum Gap {
        case newlines(Int)
        case comment(SourceRange)
    }

    func countNewlines(_ from: Int, _ to: Int) -> Int {
        var n = 0
        for b in file.bytes[from..<max(from, to)] where b == 0x0A { n += 1 }
        return n
    }

    /// The indentation for a line whose first token is `first`.
    func indent(forLineStartingWith first: Token?) -> Int {
        var level = open.last.map { $0.lineIndent + 1 } ?? 0
        if let first, [.rBrace, .rParen, .rBracket].contains(first.kind), let opener = open.last {
            level = opener.lineIndent
        }
        return level
    }

    mutating func writeGap(_ pieces: [Gap], before token: Token, index: Int) {
        let prev = index > 0 ? tokens[index - 1] : nil
        let afterOpener = prev.map { [.lBrace, .lParen, .lBracket].contains($0.kind) } ?? false
        let beforeCloser = [.rBrace, .rParen, .rBracket, .eof].contains(token.kind)
        var onFreshLine = out.isEmpty
        var pendingBlank = false
        var wroteComment = false
        for piece in pieces {
            switch piece {
            case .newlines(let n):
                guard n > 0 else { continue }
                if !onFreshLine { newline() }
                onFreshLine = true
                // One blank line survives, except at the start of the file or a block.
                if n > 1 && !out.isEmpty && !(afterOpener && !wroteComment) { pendingBlank = true }
            case .comment(let c):
                if onFreshLine {
                    if pendingBlank { newline() }
                    pendingBlank = false
                    // Indented like the code that follows it.
                    writeIndent(indent(forLineStartingWith: nextTokenOnItsLine(token)))
                } else {
                    if file.bytes[Int(c.start) + 1] == UInt8(ascii: "/") { trailingComments.append(out.count) }
                    out.append(0x20)
                }
                out.append(contentsOf: file.bytes[Int(c.start)..<Int(c.end)])
                onFreshLine = false
                wroteComment = true
            }
        }
        if token.kind == .eof { return }
        if onFreshLine {
            // No blank line just before a closing bracket.
            if pendingBlank && !beforeCloser { newline() }
            beginLine(with: token)
        } else if let prev {
            if wroteComment || SourceFormatter.spaceBetween(prev, token, isTernaryColon(token)) { out.append(0x20) }
        }
    }

    /// For an own-line comment: the token it is indented for. A comment just before a
    /// closing bracket belongs inside the block, so it is indented as the block's body.
    func nextTokenOnItsLine(_ token: Token) -> Token? {
        [.rBrace, .rParen, .rBracket, .eof].contains(token.kind) ? nil : token
    }

    mutating func newline() {
        while let last = out.last, last == 0x20 { out.removeLast() }
        out.append(0x0A)
    }

    mutating func writeIndent(_ level: Int) {
        out.append(contentsOf: repeatElement(0x20, count: level * 2))
    }

    mutating func beginLine(with token: Token) {
        lineIndent = indent(forLineStartingWith: token)
        writeIndent(lineIndent)
    }

    func isTernaryColon(_ token: Token) -> Bool {
        token.kind == .colon && (pendingQuestions.last ?? 0) > 0
    }

    mutating func write(_ token: Token) {
        switch token.kind {
        case .question:
            pendingQuestions[pendingQuestions.count - 1] += 1
        case .colon where (pendingQuestions.last ?? 0) > 0:
            pendingQuestions[pendingQuestions.count - 1] -= 1
        case .lBrace, .lParen, .lBracket:
            // Several brackets opened on one line indent their contents once.
            open.append((token.kind, lineIndent))
            pendingQuestions.append(0)
        case .rBrace, .rParen, .rBracket:
            if !open.isEmpty { open.removeLast() }
            if pendingQuestions.count > 1 { pendingQuestions.removeLast() }
        default:
            break
        }
        out.append(contentsOf: file.bytes[Int(token.range.start)..<Int(token.range.end)])
    }
}
