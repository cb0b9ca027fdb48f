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
    /// The tokens lexed and not yet let go of. The lexer adds a batch at a time, and
    /// the parser empties the window behind it at item starts (``compactTokens()``).
    /// `pos` indexes the window: a position the parser keeps across an item, where a
    /// compaction may come, is a ``position`` instead (`base` counts the tokens let go).
    var tokens: [Token] = []
    var pos = 0
    var base = 0
    var depth = 0
    /// Open `(` and `[` around the current expression: inside them line breaks do
    /// not end the expression.
    var bracketDepth = 0
    /// Where the nodes go.
    var b: SyntaxBuilder
    /// The lexer and what reporting needs.
    let session: ParseSession

    /// How far ahead ``peek(_:)`` may look without lexing: the window always holds
    /// this many tokens past the current one, or the file's end.
    static let lookahead = 2

    public static func parse(_ file: SourceFile) -> SyntaxTree { parse(file, window: .standard) }

    /// `parse(file)` with the token window's sizes given: the tree and diagnostics are
    /// the same for any (tests compare the smallest with the whole file at once).
    @_spi(Testing)
    public static func parse(_ file: SourceFile, window: TokenWindow) -> SyntaxTree {
        file.bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(file: file, lexer: Lexer(bytes: buffer), window: window)
            parser.fillLookahead()
            // An empty file has no tokens and no lexical errors: only its end.
            let empty = parser.tok.kind == .eof && parser.session.diagnostics.isEmpty
            let root = parser.parseFile()
            var all = parser.session.diagnostics
            if empty {
                all.append(SyntaxDiagnostics.emptyFile(SourceRange(0, 0)))
            }
            all.sort(by: Diagnostic.ordered)
            let arena = parser.b.finish()
            return SyntaxTree(file: file, arena: arena, root: Block.make(arena, root.id), comments: parser.session.lexer.comments,
                              diagnostics: all)
        }
    }

    init(file: SourceFile, lexer: Lexer, window: TokenWindow) {
        self.file = file
        self.session = ParseSession(file: file, lexer: lexer, window: window)
        self.b = SyntaxBuilder(expectedBytes: file.bytes.count)
        tokens.reserveCapacity(min(window.batch + window.compactionThreshold, file.bytes.count / 3 + 8))
    }

    // MARK: Tokens

    @inline(__always)
    var tok: Token { tokens[pos] }

    /// The current token's place among all the file's tokens, which compaction does not
    /// move. (A mutating getter: the debug build copies the parser into a temporary for
    /// a non-mutating one, in every frame of the recursion that asks.)
    var position: Int { mutating get { base + pos } }

    /// The token `n` (at most ``lookahead``) after the current one, or the end of the file.
    @inline(__always)
    func peek(_ n: Int = 1) -> Token { tokens[min(pos + n, tokens.count - 1)] }

    /// The window's token `index`, lexed if need be; the end of the file past it. Only
    /// tokens behind the current one that compaction kept can be asked for.
    mutating func token(at index: Int) -> Token {
        while index >= tokens.count && !session.lexer.finished { lexMore() }
        return tokens[min(index, tokens.count - 1)]
    }

    @inline(__always)
    var atEOF: Bool { tok.kind == .eof }

    @discardableResult @inline(__always)
    mutating func advance() -> Token {
        let t = tok
        if t.kind != .eof {
            pos += 1
            if pos + Parser.lookahead >= tokens.count { fillLookahead() }
        }
        return t
    }

    @inline(never)
    mutating func fillLookahead() {
        while pos + Parser.lookahead >= tokens.count && !session.lexer.finished { lexMore() }
    }

    /// Lexes the next batch. The lexer's diagnostics are taken as they come, each
    /// claiming its line before any error of the parser's there can (see ``report(_:)``):
    /// `1x 1x 1x ...` is one mistake repeated, and thousands of messages for one line
    /// are noise (and were slow to render).
    @inline(never)
    mutating func lexMore() {
        session.lexer.lex(upTo: session.window.batch, into: &tokens)
        guard !session.lexer.diagnostics.isEmpty else { return }
        for d in session.lexer.takeDiagnostics() {
            // Pasted C syntax is recovered exactly: every one is reported, and the line
            // stays open for a real error.
            if d.code == SyntaxDiagnostics.pastedCSyntaxDescriptor.code || session.errorLines.insert(session.line(of: d)).inserted {
                record(d)
            }
        }
    }

    /// Lets go of the tokens read, at an item's start: nothing before the previous two
    /// is asked for again. (The one place the parser goes back further, a transform
    /// list giving back the names after its last call, goes back over names only,
    /// and no item starts among them.)
    @inline(__always)
    mutating func compactTokens() {
        if pos >= session.window.compactionThreshold { discardTokens(before: pos - 2) }
    }

    @inline(never)
    mutating func discardTokens(before index: Int) {
        let n = min(index, tokens.count)
        guard n > 0 else { return }
        tokens.removeFirst(n)
        pos -= n
        base += n
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
            // `test name { ... }`: parsed as a layer's block; the checker reads it as a test
            // at a file's top level and refuses it elsewhere.
            if isIdentifier(t, "test") { return .layerKind }
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
        case 10: return isIdentifier(t, "replicator") ? .layerKind : .none
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
        guard session.errorLines.insert(lexedLine(at: d.range.start)).inserted else { return }
        record(d)
    }

    /// Appends a diagnostic unless the file already has ``SyntaxDiagnostics/recordedLimit``
    /// of them; the first one past the limit becomes E0213, the rest are dropped, so a
    /// file with an error on each of millions of lines stays cheap.
    mutating func record(_ d: Diagnostic) {
        if session.diagnostics.count < SyntaxDiagnostics.recordedLimit {
            session.diagnostics.append(d)
        } else if session.diagnostics.count == SyntaxDiagnostics.recordedLimit {
            session.diagnostics.append(SyntaxDiagnostics.tooManyDiagnostics(d.range, stage: "syntax"))
        }
    }

    /// True when the current token sits on a line that already has an error; used to
    /// avoid reporting a separator error right after a broken item.
    var onErrorLine: Bool {
        mutating get {
            // The line first: lexing it may claim it for a lexical error, and
            // `session.errorLines.contains(lexedLine(...))` would read the set before that.
            let line = lexedLine(at: tok.range.start)
            return session.errorLines.contains(line)
        }
    }

    /// The line (0-based) of `offset`, lexed to its end first, so that a lexical error
    /// there has claimed its line before the parser asks whether the line has one: the
    /// lexer's message says more.
    mutating func lexedLine(at offset: UInt32) -> Int {
        let line = session.lineIndex.lineNumber(ofOffset: Int(offset))
        let next = line + 1 < session.lineIndex.lineCount ? session.lineIndex.lineStarts[line + 1] : Int.max
        while !session.lexer.finished && session.lexer.i < next { lexMore() }
        return line
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
            if !session.reportedDepth {
                session.reportedDepth = true
                let d = SyntaxDiagnostics.nestingTooDeep(tok.range, limit: Parser.maxDepth)
                session.errorLines.insert(lexedLine(at: d.range.start))
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
            compactTokens()
            let before = position
            if tok.kind == .semicolon || tok.kind == .comma { advance(); continue }
            if tok.kind == .rBrace || tok.kind == .rParen || tok.kind == .rBracket {
                report(SyntaxDiagnostics.unexpectedClosing(tok.range, tok.kind))
                advance()
                continue
            }
            b.addToList(parseItem(.file))
            expectSeparator(closing: .eof)
            if position == before { advance() }  // progress guard
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
    /// How many tokens come before a `{` later on the current line, when one does
    /// (within a few tokens, and not past a `}` or another block's start).
    private mutating func braceLaterOnThisLine() -> Int? {
        for k in 1..<16 {
            let t = token(at: pos + k)
            if t.flags.contains(.newlineBefore) || t.kind == .eof || t.kind == .rBrace { return nil }
            if t.kind == .lBrace { return k }
        }
        return nil
    }

    mutating func parseBlock(_ context: BlockContext, what: @autoclosure () -> String) -> NodeRef {
        let open = tok
        let mark = b.listMark
        if tok.kind != .lBrace, !tok.flags.contains(.newlineBefore), let skip = braceLaterOnThisLine() {
            // Something unexpected before the `{` on the same line (`as fade[ {`): report
            // it and read the block as written, so its body's own findings are reported.
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'{'", context: "to open \(what())", found: found, fixIt: nil))
            for _ in 0..<skip { advance() }
        }
        guard tok.kind == .lBrace else {
            // A forgotten `{`: report it once, then read what follows as the block's body
            // up to its `}` (or the end), so the body's lines are not reported as
            // misplaced one by one.
            let at = previousEnd
            reportMissingOpeningBrace(what(), at: at)
            guard enter() else { return block(since: mark, .empty(at: at), closed: false) }
            defer { leave() }
            while !atEOF && tok.kind != .rBrace {
                let before = position
                if tok.kind == .semicolon || tok.kind == .comma || tok.kind == .rParen || tok.kind == .rBracket { advance(); continue }
                b.addToList(parseItem(context))
                expectSeparator(closing: .rBrace)
                if position == before { advance() }
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
            compactTokens()
            let before = position
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
            if position == before { advance() }  // progress guard
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
            let next = peek()
            return next.kind == .colon || next.kind == .lBrace || next.kind == .identifier
        default: return false
        }
    }
}

/// How the parser takes its tokens: `batch` at a time from the lexer, and letting go
/// of those behind it once it holds `compactionThreshold`.
@_spi(Testing)
public struct TokenWindow: Sendable {
    public var batch: Int
    public var compactionThreshold: Int
    public init(batch: Int, compactionThreshold: Int) {
        self.batch = max(batch, 1)
        self.compactionThreshold = max(compactionThreshold, 1)
    }

    /// A window of tens of kilobytes, where a file's every token cost three bytes per
    /// byte of source, at the parse's peak.
    public static let standard = TokenWindow(batch: 512, compactionThreshold: 4096)
}

/// The parser's state that only lexing batches and reporting touch, in a box: the
/// parser is a struct, and a debug build copies it into a temporary for every call of
/// a non-mutating method, many of them in each of the frames that recurse once per
/// nesting level (``Parser/maxDepth`` of them on the caller's stack).
final class ParseSession {
    @exclusivity(unchecked) var lexer: Lexer
    @exclusivity(unchecked) var diagnostics: [Diagnostic] = []
    /// Lines (0-based) that already carry an error; a second one there is a cascade.
    @exclusivity(unchecked) var errorLines: Set<Int> = []
    var reportedDepth = false
    let file: SourceFile
    lazy var lineIndex = LineIndex(file)
    let window: TokenWindow

    init(file: SourceFile, lexer: Lexer, window: TokenWindow) {
        self.file = file
        self.lexer = lexer
        self.window = window
    }

    func line(of d: Diagnostic) -> Int { lineIndex.lineNumber(ofOffset: Int(d.range.start)) }
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
    /// `state name { ... }`: key paths of layers and their values.
    case state

    var name: String {
        switch self {
        case .file: return "the top level of a file"
        case .composition: return "a composition"
        case .layer: return "a layer"
        case .component: return "a component body"
        case .animation(let kind): return "a '\(kind)' animation"
        case .group: return "an animation group"
        case .path: return "a path"
        case .state: return "a state"
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
        case .state: return "a layer's property such as 'card.opacity: 1'"
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
    /// `replicator` is CAReplicatorLayer: a plain layer whose sublayers the checker
    /// copies (see the checker's `Replicator.swift`).
    public static let layerKinds: Set<String> = ["layer", "shape", "image", "gradient", "transformLayer", "replicator"]
    public static let replicator = "replicator"
    /// The name of a path command that is a pasted statement (`[path moveToPoint:p]`,
    /// `path.move(to: p)`); not an identifier, so no command is spelled so.
    public static let pastedPathStatement = "<pasted>"
    public static let animationKinds: Set<String> = ["basic", "keyframes", "motion", "spring", "decay"]
    public static let group = "group"
    public static let mask = "mask"
    public static let path = "path"
    public static let alias = "as"
    public static let along = "along"
    public static let sizeOperator = "x"
    /// `test name { at: 1s, layer.property: value }`, at a file's top level.
    public static let test = "test"
}
