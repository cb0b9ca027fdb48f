import AnimcBase
import AnimcDiagnostics

/// Parses a file into a ``SyntaxTree``. Never fails and never traps: broken input
/// yields error nodes plus diagnostics.
public func parse(_ file: SourceFile) -> SyntaxTree {
    Parser.parse(file)
}

/// The recursive-descent parser. One parse function per grammar rule, with the rule
/// from `grammar/anim.ebnf` as a comment above it.
///
/// Error handling follows Go's parser: report, then skip to a synchronisation point
/// (a line break at the current bracket depth, `;`, or the closing brace of the
/// block). At most one syntax error is reported per line, so one mistake yields one
/// message instead of a cascade.
public struct Parser {
    /// Nesting beyond this (blocks, brackets and operators together) is reported and skipped.
    public static let maxDepth = 256

    let file: SourceFile
    var tokens: [Token]
    var pos = 0
    var diagnostics: [Diagnostic]
    var depth = 0
    var reportedDepth = false
    /// Open `(` and `[` around the current expression: inside them line breaks do
    /// not end the expression.
    var bracketDepth = 0
    /// Lines (0-based) that already carry an error; a second one there is a cascade.
    var errorLines: Set<Int> = []
    lazy var lineIndex = LineIndex(file)
    /// Where the nodes go.
    var b: SyntaxBuilder

    public static func parse(_ file: SourceFile) -> SyntaxTree {
        let lexed = Lexer.lex(file)
        var parser = Parser(file: file, tokens: lexed.tokens, diagnostics: [])
        // One error per line holds for the lexer too: `1x 1x 1x ...` is one mistake
        // repeated, and thousands of messages for one line are noise (and were slow to
        // render).
        for d in lexed.diagnostics where parser.errorLines.insert(parser.lineIndex.lineNumber(ofOffset: Int(d.range.start))).inserted {
            parser.record(d)
        }
        let lexicalCount = parser.diagnostics.count
        let root = parser.parseFile()
        var all = parser.diagnostics
        if lexed.tokens.count == 1 && lexicalCount == 0 {
            all.append(SyntaxDiagnostics.emptyFile(SourceRange(0, 0)))
        }
        all.sort(by: Diagnostic.ordered)
        let arena = parser.b.finish()
        return SyntaxTree(file: file, arena: arena, root: Block.make(arena, root.id), comments: lexed.comments, diagnostics: all)
    }

    init(file: SourceFile, tokens: [Token], diagnostics: [Diagnostic]) {
        self.file = file
        self.tokens = tokens
        self.diagnostics = diagnostics
        self.b = SyntaxBuilder(expectedBytes: file.bytes.count)
    }

    // MARK: Tokens

    @inline(__always)
    var tok: Token { tokens[pos] }

    @inline(__always)
    func peek(_ n: Int = 1) -> Token { tokens[min(pos + n, tokens.count - 1)] }

    @inline(__always)
    var atEOF: Bool { tok.kind == .eof }

    @discardableResult
    mutating func advance() -> Token {
        let t = tokens[pos]
        if pos < tokens.count - 1 { pos += 1 }
        return t
    }

    func text(_ t: Token) -> String { file.text(t.range) }

    /// The identifier `t` spells, interned.
    mutating func name(_ t: Token) -> NameRef { NameRef(name: b.names.intern(file.bytes, t.range), range: t.range) }

    /// `spelling` as an identifier at `range` (a corrected kind, a placeholder name).
    mutating func name(_ spelling: String, _ range: SourceRange) -> NameRef { NameRef(name: b.names.intern(spelling), range: range) }

    /// The text of an interned name, for messages.
    func spelling(_ name: NameRef) -> String { b.names.string(name.name) }

    @inline(__always)
    func isIdentifier(_ t: Token, _ word: StaticString) -> Bool {
        guard t.kind == .identifier, t.range.length == word.utf8CodeUnitCount else { return false }
        let p = word.utf8Start
        let start = Int(t.range.start)
        for k in 0..<t.range.length where file.bytes[start + k] != p[k] { return false }
        return true
    }

    /// The contextual keyword an identifier token spells, read from its bytes so that
    /// dispatching an item costs no string allocation or hashing.
    @inline(__always)
    func contextualWord(_ t: Token) -> ContextualWord {
        guard t.kind == .identifier else { return .none }
        switch t.range.length {
        case 1: return isIdentifier(t, "x") ? .sizeOperator : .none
        case 2: return isIdentifier(t, "as") ? .alias : .none
        case 4:
            if isIdentifier(t, "mask") { return .mask }
            if isIdentifier(t, "path") { return .path }
            return .none
        case 5:
            if isIdentifier(t, "layer") || isIdentifier(t, "shape") || isIdentifier(t, "image") { return .layerKind }
            if isIdentifier(t, "basic") || isIdentifier(t, "decay") { return .animationKind }
            if isIdentifier(t, "group") { return .group }
            if isIdentifier(t, "along") { return .along }
            return .none
        case 6: return isIdentifier(t, "motion") || isIdentifier(t, "spring") ? .animationKind : .none
        case 8: return isIdentifier(t, "gradient") ? .layerKind : .none
        case 9: return isIdentifier(t, "keyframes") ? .animationKind : .none
        case 14: return isIdentifier(t, "transformLayer") ? .layerKind : .none
        default: return .none
        }
    }

    /// The end of the previous token: where "expected X" goes when the current token
    /// is already on the next line (Zig's placement rule).
    @inline(__always)
    var previousEnd: UInt32 { pos > 0 ? tokens[pos - 1].range.end : 0 }

    /// The range an "expected X, found Y" error points at.
    var errorRange: SourceRange {
        if tok.flags.contains(.newlineBefore) || atEOF { return .empty(at: previousEnd) }
        return tok.range
    }

    /// How the current token is named in "found ..." messages.
    /// "a line break" when the current token starts a new line: the thing expected
    /// on this line is missing.
    var found: String {
        tok.flags.contains(.newlineBefore) && !atEOF ? "a line break" : describe(tok)
    }

    func describe(_ t: Token) -> String {
        switch t.kind {
        case .eof: return "end of file"
        case .identifier: return "'\(text(t))'"
        case .number: return "'\(text(t))'"
        case .string: return "a string"
        case .color: return "'\(text(t))'"
        case .invalid: return "an invalid character"
        default: return t.kind.isKeyword ? "keyword '\(t.kind.spelling)'" : "'\(t.kind.spelling)'"
        }
    }

    // MARK: Reporting

    mutating func report(_ d: Diagnostic) {
        let line = lineIndex.lineNumber(ofOffset: Int(d.range.start))
        guard !errorLines.contains(line) else { return }
        errorLines.insert(line)
        record(d)
    }

    /// Appends a diagnostic unless the file already has ``SyntaxDiagnostics/recordedLimit``
    /// of them; the first one past the limit becomes E0213, the rest are dropped, so a
    /// file with an error on each of millions of lines stays cheap.
    mutating func record(_ d: Diagnostic) {
        if diagnostics.count < SyntaxDiagnostics.recordedLimit {
            diagnostics.append(d)
        } else if diagnostics.count == SyntaxDiagnostics.recordedLimit {
            diagnostics.append(SyntaxDiagnostics.tooManyDiagnostics(d.range, stage: "syntax"))
        }
    }

    /// True when the current token sits on a line that already has an error; used to
    /// avoid reporting a separator error right after a broken item.
    var onErrorLine: Bool {
        mutating get { errorLines.contains(lineIndex.lineNumber(ofOffset: Int(tok.range.start))) }
    }

    // MARK: Recovery

    /// Skips to a synchronisation point: a token that starts a new line at bracket
    /// depth 0, a `;` or `,` at depth 0, or the `}` that closes the enclosing block
    /// (not consumed). Always terminates: every iteration consumes a token or stops.
    mutating func recover() {
        var nesting = 0
        var first = true
        while !atEOF {
            let t = tok
            if nesting == 0 && !first {
                if t.flags.contains(.newlineBefore) { return }
            }
            switch t.kind {
            case .lBrace, .lParen, .lBracket:
                nesting += 1
            case .rBrace, .rParen, .rBracket:
                if nesting == 0 { return }
                nesting -= 1
            case .semicolon, .comma:
                if nesting == 0 { advance(); return }
            default: break
            }
            advance()
            first = false
        }
    }

    /// Skips a balanced bracketed group starting at the current opening token, iteratively.
    mutating func skipBalanced() {
        var nesting = 0
        repeat {
            switch tok.kind {
            case .lBrace, .lParen, .lBracket: nesting += 1
            case .rBrace, .rParen, .rBracket: nesting -= 1
            default: break
            }
            advance()
        } while nesting > 0 && !atEOF
    }

    /// Enters one nesting level. Returns false (after reporting once) when the limit
    /// is reached; the caller must then skip its construct without recursing.
    mutating func enter() -> Bool {
        if depth >= Parser.maxDepth {
            if !reportedDepth {
                reportedDepth = true
                let d = SyntaxDiagnostics.nestingTooDeep(tok.range, limit: Parser.maxDepth)
                errorLines.insert(lineIndex.lineNumber(ofOffset: Int(d.range.start)))
                record(d)
            }
            return false
        }
        depth += 1
        return true
    }

    mutating func leave() { depth -= 1 }

    // MARK: File and blocks

    /// File = { Item Separator } EOF
    mutating func parseFile() -> NodeRef {
        let mark = b.listMark
        while !atEOF {
            let before = pos
            if tok.kind == .semicolon || tok.kind == .comma { advance(); continue }
            if tok.kind == .rBrace || tok.kind == .rParen || tok.kind == .rBracket {
                report(SyntaxDiagnostics.unexpectedClosing(tok.range, tok.kind))
                advance()
                continue
            }
            b.addToList(parseItem(.file))
            expectSeparator(closing: .eof)
            if pos == before { advance() }  // progress guard
        }
        let end = UInt32(clamping: file.bytes.count)
        return block(since: mark, SourceRange(start: 0, end: end), closed: true)
    }

    /// A block node of the items added to the list since `mark`.
    mutating func block(since mark: Int, _ range: SourceRange, closed: Bool) -> NodeRef {
        return b.node(.block, range, bits: closed ? 1 : 0) {
            $0.pushList(since: mark)
        }
    }

    /// Block = "{" { Item Separator } "}"
    ///
    /// `what` names the block in messages ("the body of layer 'logo'").
    mutating func parseBlock(_ context: BlockContext, what: @autoclosure () -> String) -> NodeRef {
        let open = tok
        let mark = b.listMark
        guard tok.kind == .lBrace else {
            // A forgotten `{`: report it once, then read what follows as the block's body
            // up to its `}` (or the end), so the body's lines are not reported as
            // misplaced one by one.
            let at = previousEnd
            reportMissingOpeningBrace(what(), at: at)
            guard enter() else { return block(since: mark, .empty(at: at), closed: false) }
            defer { leave() }
            while !atEOF && tok.kind != .rBrace {
                let before = pos
                if tok.kind == .semicolon || tok.kind == .comma || tok.kind == .rParen || tok.kind == .rBracket { advance(); continue }
                b.addToList(parseItem(context))
                expectSeparator(closing: .rBrace)
                if pos == before { advance() }
            }
            if tok.kind == .rBrace { advance() }
            return block(since: mark, SourceRange(start: at, end: previousEnd), closed: false)
        }
        guard enter() else {
            skipBalanced()
            return block(since: mark, SourceRange(start: open.range.start, end: previousEnd), closed: true)
        }
        defer { leave() }
        advance()
        let savedBrackets = bracketDepth
        bracketDepth = 0
        defer { bracketDepth = savedBrackets }
        while true {
            let before = pos
            if tok.kind == .semicolon || tok.kind == .comma { advance(); continue }
            if tok.kind == .rBrace {
                let close = advance()
                return block(since: mark, open.range.union(close.range), closed: true)
            }
            if atEOF || tok.kind == .rParen || tok.kind == .rBracket {
                if atEOF || !onErrorLine { reportUnclosedBlock(opened: open.range, what()) }
                if !atEOF { advance(); continue }
                return block(since: mark, SourceRange(start: open.range.start, end: previousEnd), closed: false)
            }
            b.addToList(parseItem(context))
            expectSeparator(closing: .rBrace)
            if pos == before { advance() }  // progress guard
        }
    }

    // The messages of `parseBlock`, in functions of their own: in the debug build a
    // function's frame holds every temporary it ever makes, and a diagnostic made in
    // `parseBlock` put kilobytes on the frame of every nesting level (the parser recurses
    // through `parseBlock` once a level, up to ``maxDepth`` levels on the caller's stack).

    @inline(never)
    mutating func reportMissingOpeningBrace(_ what: String, at: UInt32) {
        report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'{'", context: "to open \(what)", found: found,
                                               fixIt: .insert(" {", at: at, "insert '{'")))
    }

    @inline(never)
    mutating func reportUnclosedBlock(opened: SourceRange, _ what: String) {
        // At the end of the file the brace goes on a line of its own.
        let endsWithNewline = file.bytes.last == 0x0A || file.bytes.last == 0x0D
        report(SyntaxDiagnostics.unclosedDelimiter(
            at: errorRange, closing: .rBrace, opened: opened, what: what, found: describe(tok),
            insertAt: atEOF ? UInt32(clamping: file.bytes.count) : tok.range.start,
            insertText: atEOF ? (endsWithNewline ? "}\n" : "\n}") : nil))
    }

    /// Separator = line break | ";" | "," — or the closing brace of the block.
    mutating func expectSeparator(closing: TokenKind) {
        let t = tok
        if t.kind == closing || t.kind == .eof || t.kind == .semicolon || t.kind == .comma
            || t.flags.contains(.newlineBefore) || t.kind == .rBrace {
            return
        }
        if onErrorLine { recover(); return }
        if canStartItem(t) {
            report(SyntaxDiagnostics.missingSeparator(t.range, found: describe(t), previousEnd: previousEnd))
            return
        }
        report(SyntaxDiagnostics.unexpectedAfterValue(t.range, found: describe(t)))
        recover()
    }

    /// Tokens that plausibly begin a new item on the same line (two items glued together).
    func canStartItem(_ t: Token) -> Bool {
        switch t.kind {
        case .kwLet, .kwTiming, .kwComponent, .kwComposition, .kwFor, .kwIf: return true
        case .identifier:
            let next = tokens[min(pos + 1, tokens.count - 1)]
            return next.kind == .colon || next.kind == .lBrace || next.kind == .identifier
        default: return false
        }
    }
}

/// Which block an item sits in; it decides which items are allowed.
enum BlockContext: Equatable {
    case file
    case composition
    case layer
    case component
    /// A property animation (`basic`, `keyframes`, ...); `kind` is its keyword.
    case animation(kind: String)
    case group
    case path

    var name: String {
        switch self {
        case .file: return "the top level of a file"
        case .composition: return "a composition"
        case .layer: return "a layer"
        case .component: return "a component body"
        case .animation(let kind): return "a '\(kind)' animation"
        case .group: return "an animation group"
        case .path: return "a path"
        }
    }

    /// What may start an item here, for "expected ..." messages.
    var expectation: String {
        switch self {
        case .file: return "a declaration or layer"
        case .composition: return "a composition attribute such as 'fps: 60'"
        case .layer: return "a property, sublayer or animation"
        case .component: return "a layer, 'let' or 'path'"
        case .animation(let kind): return kind == "keyframes" ? "an attribute or a keyframe row" : "an attribute"
        case .group: return "an attribute or animation"
        case .path: return "a path command such as 'line (10, 20)'"
        }
    }
}

/// What a contextual word does where it appears (see ``ContextualKeywords``).
enum ContextualWord: Equatable {
    case none, layerKind, animationKind, group, mask, path, alias, along, sizeOperator
}

/// The contextual words that introduce layers and animations. They are ordinary
/// identifiers elsewhere (`image("tile")` is a call), so they are not reserved.
public enum ContextualKeywords {
    public static let layerKinds: Set<String> = ["layer", "shape", "image", "gradient", "transformLayer"]
    public static let animationKinds: Set<String> = ["basic", "keyframes", "motion", "spring", "decay"]
    public static let group = "group"
    public static let mask = "mask"
    public static let path = "path"
    public static let alias = "as"
    public static let along = "along"
    public static let sizeOperator = "x"
}
