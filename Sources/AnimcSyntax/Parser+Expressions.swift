import AnimcBase
import AnimcDiagnostics

extension Parser {
    /// Tokens that can begin an expression; `t` is the token `offset` places ahead.
    func canStartExpression(_ t: Token, offset: Int = 0) -> Bool {
        switch t.kind {
        case .number, .string, .color, .identifier, .kwTrue, .kwFalse, .lParen, .lBracket, .minus, .plus, .bang:
            return true
        case .dot:
            // `.pi`: an implicit member pasted from Swift.
            let next = peek(offset + 1)
            return next.kind == .identifier && next.flags.contains(.attached)
        default:
            return false
        }
    }

    /// Whether `kind` continues the expression: inside brackets always; otherwise only
    /// on the same line, so a line break ends an item.
    func continues(_ kind: TokenKind) -> Bool {
        tok.kind == kind && (bracketDepth > 0 || !tok.flags.contains(.newlineBefore))
    }

    /// Expr = Conditional
    ///
    /// `after` names what precedes the expression, for "expected a value after ..." messages.
    /// An expression that follows something on its line (`opacity:`, `=`, an operator):
    /// outside brackets it must start on that line.
    mutating func parseExpression(after: @autoclosure () -> String?) -> Expr {
        parseExpression(after: after(), requiresSameLine: true)
    }

    /// An expression that starts an item (a keyframe row's key time).
    mutating func parseExpression() -> Expr {
        parseExpression(after: nil, requiresSameLine: false)
    }

    private mutating func parseExpression(after: @autoclosure () -> String?, requiresSameLine: Bool) -> Expr {
        if !canStartExpression(tok) || (tok.flags.contains(.newlineBefore) && bracketDepth == 0 && requiresSameLine) {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: after()))
            return Expr(.error, .empty(at: previousEnd))
        }
        guard enter() else {
            skipExpression()
            return Expr(.error, .empty(at: previousEnd))
        }
        defer { leave() }
        return parseConditional()
    }

    /// After the nesting limit was reached inside a chain (already reported): skips the
    /// rest of the expression and stands for all of it with an error node, so nothing
    /// later reports the truncated chain again.
    private mutating func skipRestOfChain(from start: UInt32) -> Expr {
        skipExpression()
        return Expr(.error, SourceRange(start: start, end: max(start, previousEnd)))
    }

    /// Skips an expression that is too deeply nested, iteratively.
    private mutating func skipExpression() {
        while !atEOF {
            switch tok.kind {
            case .lParen, .lBracket: skipBalanced()
            // A `{` belongs to the item (the block of an `if`), not to the expression.
            case .lBrace, .rParen, .rBracket, .rBrace, .semicolon, .comma: return
            default:
                if tok.flags.contains(.newlineBefore) && bracketDepth == 0 { return }
                advance()
            }
        }
    }

    /// Conditional = Range [ "?" Expr ":" Expr ]
    private mutating func parseConditional() -> Expr {
        let condition = parseRange()
        guard continues(.question) else { return condition }
        advance()
        let then = parseExpression(after: "'?'")
        guard continues(.colon) || tok.kind == .colon else {
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "':'", context: "in a conditional expression",
                                                   found: found))
            return Expr(.conditional(condition, then, Expr(.error, .empty(at: previousEnd))), condition.range.union(then.range))
        }
        advance()
        let otherwise = parseExpression(after: "':'")
        return Expr(.conditional(condition, then, otherwise), condition.range.union(otherwise.range))
    }

    /// Range = Or [ ( "..<" | "..." ) Or ]
    private mutating func parseRange() -> Expr {
        let lower = parseBinary(0)
        guard continues(.dotDotLess) || continues(.dotDotDot) else { return lower }
        let op = advance()
        let upper = parseBinaryOperand(after: "'\(op.kind.spelling)'", level: 0)
        return Expr(.range(lower, upper, inclusive: op.kind == .dotDotDot), lower.range.union(upper.range))
    }

    /// Binary operators by precedence level, lowest first. Comparisons and `x` do not
    /// associate; the rest are left-associative.
    ///
    /// Or         = And { "||" And }
    /// And        = Comparison { "&&" Comparison }
    /// Comparison = Size [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) Size ]
    /// Size       = Additive [ "x" Additive ]
    /// Additive   = Multiplicative { ( "+" | "-" ) Multiplicative }
    /// Multiplicative = Unary { ( "*" | "/" ) Unary }
    private static let levelCount = 6
    private static let sizeLevel = 3
    private static let comparisonLevel = 2

    /// The binary operator at the current token and its precedence level, if the token
    /// is one that continues the expression here.
    private func binaryOperator() -> (Int, BinaryOperator)? {
        let result: (Int, BinaryOperator)
        switch tok.kind {
        case .orOr: result = (0, .or)
        case .andAnd: result = (1, .and)
        case .equalEqual: result = (2, .equal)
        case .bangEqual: result = (2, .notEqual)
        case .less: result = (2, .less)
        case .lessEqual: result = (2, .lessEqual)
        case .greater: result = (2, .greater)
        case .greaterEqual: result = (2, .greaterEqual)
        case .plus: result = (4, .add)
        case .minus: result = (4, .subtract)
        case .star: result = (5, .multiply)
        case .slash: result = (5, .divide)
        case .identifier:
            guard tok.range.length == 1, file.bytes[Int(tok.range.start)] == 0x78,
                  !tok.flags.contains(.newlineBefore) || bracketDepth > 0,
                  peek().kind != .colon, canStartExpression(peek(), offset: 1) else { return nil }
            return (Parser.sizeLevel, .size)
        default:
            return nil
        }
        return continues(tok.kind) ? result : nil
    }

    /// Precedence climbing over the levels above: one loop per operand instead of one
    /// call per level, which is most of the parser's work on ordinary values.
    ///
    /// Each operator of a chain nests the expression before it one level deeper
    /// (`1 + 1 + 1` is `(1 + 1) + 1`), so a chain counts against ``Parser/maxDepth``
    /// like brackets do: every later stage walks the tree recursively, and a 30,000-term
    /// sum must be a diagnostic, not a stack overflow there.
    private mutating func parseBinary(_ minLevel: Int) -> Expr {
        guard minLevel < Parser.levelCount else { return parseUnary() }
        var lhs = parseUnary()
        var chained: [Int: SourceRange] = [:]
        var entered = 0
        defer { for _ in 0..<entered { leave() } }
        while let (level, op) = nextBinaryOperator(minLevel) {
            guard enter() else { return skipRestOfChain(from: lhs.range.start) }
            entered += 1
            let opToken = advance()
            let rhs = parseBinaryOperand(after: "'\(op.rawValue)'", level: level + 1)
            if level == Parser.comparisonLevel || level == Parser.sizeLevel {
                // Comparisons and `x` do not associate: `a < b < c` is an error.
                if let first = chained[level], chainedAt(lhs, level) {
                    if level == Parser.comparisonLevel {
                        report(SyntaxDiagnostics.chainedComparison(opToken.range, first: first))
                    } else {
                        report(SyntaxDiagnostics.unexpectedAfterValue(opToken.range, found: "a second 'x'"))
                    }
                }
                chained[level] = chained[level] ?? opToken.range
            }
            lhs = Expr(.binary(op, lhs, rhs), lhs.range.union(rhs.range))
        }
        return lhs
    }

    /// Whether `lhs` is already a comparison (or size) at `level`, so another one chains.
    private func chainedAt(_ lhs: Expr, _ level: Int) -> Bool {
        guard case .binary(let op, _, _) = lhs.kind else { return false }
        switch op {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual: return level == Parser.comparisonLevel
        case .size: return level == Parser.sizeLevel
        default: return false
        }
    }

    /// The next binary operator at `minLevel` or above, with its level.
    private func nextBinaryOperator(_ minLevel: Int) -> (Int, BinaryOperator)? {
        guard let (level, op) = binaryOperator(), level >= minLevel else { return nil }
        return (level, op)
    }

    private mutating func parseBinaryOperand(after: @autoclosure () -> String, level: Int) -> Expr {
        if !canStartExpression(tok) || (tok.flags.contains(.newlineBefore) && bracketDepth == 0) {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: after()))
            return Expr(.error, .empty(at: previousEnd))
        }
        return parseBinary(level)
    }

    /// Unary = ( "-" | "+" | "!" ) Unary | Postfix
    private mutating func parseUnary() -> Expr {
        guard tok.kind == .minus || tok.kind == .plus || tok.kind == .bang else { return parsePostfix() }
        let opToken = advance()
        let op: UnaryOperator = opToken.kind == .minus ? .negate : opToken.kind == .plus ? .plus : .not
        guard enter() else {
            // A long run of prefix operators: consume it without recursing.
            while tok.kind == .minus || tok.kind == .plus || tok.kind == .bang { advance() }
            _ = parsePostfix()
            return Expr(.error, SourceRange(start: opToken.range.start, end: previousEnd))
        }
        defer { leave() }
        if !canStartExpression(tok) || tok.flags.contains(.newlineBefore) && bracketDepth == 0 {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: "'\(opToken.kind.spelling)'"))
            return Expr(.error, opToken.range)
        }
        let operand = parseUnary()
        return Expr(.unary(op, operand), opToken.range.union(operand.range))
    }

    /// Postfix = Primary { "[" ExprList "]" | "." identifier } { Call | identifier }
    ///
    /// Calls and names written side by side on one line form a transform sequence when
    /// at least one is a call: `rotate(-45deg) scale(0.25)`, `P rotate3d(axis, 90deg)`.
    private mutating func parsePostfix() -> Expr {
        var expr = parsePrimary()
        // Like operator chains, `a.b.c` and `a[0][0]` nest one level per link.
        var entered = 0
        defer { for _ in 0..<entered { leave() } }
        while true {
            let continues = (tok.kind == .lBracket && tok.flags.contains(.attached))
                || (tok.kind == .dot && tok.flags.contains(.attached) && peek().kind == .identifier)
            if continues {
                guard enter() else { return skipRestOfChain(from: expr.range.start) }
                entered += 1
            }
            if tok.kind == .lBracket && tok.flags.contains(.attached) {
                let open = advance()
                let indices = parseExpressionList(closing: .rBracket, opened: open.range, what: "the index")
                expr = Expr(.index(expr, indices), SourceRange(start: expr.range.start, end: previousEnd))
            } else if tok.kind == .dot && tok.flags.contains(.attached) && peek().kind == .identifier {
                advance()
                let nameToken = advance()
                expr = Expr(.member(expr, Identifier(text(nameToken), nameToken.range)),
                            expr.range.union(nameToken.range))
            } else {
                break
            }
        }
        // A transform list: calls and named transforms side by side on one line,
        // `rotate(-45deg) scale(0.25)` or `P rotate3d(axis, 90deg)`. At least one must be
        // a call, so two names side by side (`a b`, a missing separator) are not a list.
        switch expr.kind {
        case .call, .identifier: break
        default: return expr
        }
        var sequence = [expr]
        var hasCall: Bool
        if case .call = expr.kind { hasCall = true } else { hasCall = false }
        var afterLastCall = pos
        while continuesTransformList() {
            let element = parsePrimary()
            sequence.append(element)
            if case .call = element.kind { hasCall = true; afterLastCall = pos }
        }
        // Names after the last call may be the next item's words: give them back.
        if !hasCall { pos = afterLastCall; return expr }
        if pos != afterLastCall, let last = sequence.lastIndex(where: { if case .call = $0.kind { return true } else { return false } }) {
            let trailingNames = sequence.count - 1 - last
            if trailingNames > 0, !trailingNamesAreTransforms(sequence.suffix(trailingNames)) {
                sequence.removeLast(trailingNames)
                pos = afterLastCall
            }
        }
        if sequence.count == 1 { return expr }
        return Expr(.sequence(sequence), sequence[0].range.union(sequence[sequence.count - 1].range))
    }

    /// Whether the current token continues a transform list: on the same line, a name
    /// that is not the size operator `x`, a contextual word or a label (`c1:` in a path
    /// command), or a call.
    private func continuesTransformList() -> Bool {
        guard tok.kind == .identifier, !tok.flags.contains(.newlineBefore) else { return false }
        switch contextualWord(tok) {
        case .sizeOperator, .alias, .along: return false
        default: break
        }
        let next = peek()
        if next.kind == .lParen && next.flags.contains(.attached) { return true }
        return next.kind != .colon && next.kind != .lBrace && next.kind != .equal && next.kind != .lBracket && next.kind != .dot
    }

    /// Names that follow the last call of a list belong to it only when something
    /// after them could not start an item: at the end of the line or before `~`, `,` or
    /// a closing bracket.
    private func trailingNamesAreTransforms(_ names: ArraySlice<Expr>) -> Bool {
        tok.kind == .eof || tok.flags.contains(.newlineBefore) || tok.kind == .tilde || tok.kind == .comma
            || tok.kind == .rParen || tok.kind == .rBracket || tok.kind == .rBrace || tok.kind == .semicolon
    }

    /// Primary = number | string | color | "true" | "false" | identifier [ "(" Arguments ")" ]
    ///         | "(" Expr { "," Expr } [ "," ] ")" | "[" [ ExprList ] "]" | "path" Block
    private mutating func parsePrimary() -> Expr {
        let t = tok
        switch t.kind {
        case .number:
            advance()
            guard !t.flags.contains(.hasError), let (value, unit) = LiteralValue.number(file.bytes[Int(t.range.start)..<Int(t.range.end)]) else {
                return Expr(.error, t.range)
            }
            return Expr(.number(value, unit), t.range)
        case .string:
            advance()
            return Expr(.string(LiteralValue.string(file.text(t.range)[...])), t.range)
        case .color:
            advance()
            guard let (r, g, b, a) = LiteralValue.color(file.text(t.range)[...]) else { return Expr(.error, t.range) }
            return Expr(.color(red: r, green: g, blue: b, alpha: a), t.range)
        case .kwTrue, .kwFalse:
            advance()
            return Expr(.bool(t.kind == .kwTrue), t.range)
        case .identifier:
            let name = text(t)
            if peek().kind == .lBrace && contextualWord(t) == .path {
                advance()
                let body = parseBlock(.path, what: "the path")
                return Expr(.pathLiteral(body), SourceRange(start: t.range.start, end: previousEnd))
            }
            advance()
            if tok.kind == .lParen && (!tok.flags.contains(.newlineBefore) || bracketDepth > 0) {
                let open = advance()
                let arguments = parseArguments(opened: open.range, callee: name)
                return Expr(.call(callee: Identifier(name, t.range), arguments: arguments),
                            SourceRange(start: t.range.start, end: previousEnd))
            }
            return Expr(.identifier(name), t.range)
        case .lParen:
            let (elements, range) = parseBracketed(closing: .rParen, what: "the parenthesis")
            guard let elements else { return Expr(.error, range) }
            if elements.isEmpty {
                report(SyntaxDiagnostics.expectedExpression(range, found: "'()'", after: nil))
                return Expr(.error, range)
            }
            if elements.count == 1 && !trailingComma { return Expr(.paren(elements[0]), range) }
            return Expr(.tuple(elements), range)
        case .lBracket:
            let (elements, range) = parseBracketed(closing: .rBracket, what: "the list")
            return Expr(elements.map { .list($0) } ?? .error, range)
        case .dot where peek().kind == .identifier && peek().flags.contains(.attached):
            // `.pi`, `.forwards`: Swift's implicit member, kept for the checker's fix-it.
            advance()
            let name = advance()
            return Expr(.implicitMember(Identifier(text(name), name.range)), t.range.union(name.range))
        default:
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: nil))
            return Expr(.error, .empty(at: previousEnd))
        }
    }

    /// Reads `( ... )` or `[ ... ]` from its opening bracket: the elements and the range
    /// they span, or nil elements (the brackets skipped) when nesting is too deep.
    private mutating func parseBracketed(closing: TokenKind, what: String) -> (elements: [Expr]?, range: SourceRange) {
        let open = advance()
        guard enter() else {
            pos -= 1
            skipBalanced()
            return (nil, SourceRange(start: open.range.start, end: previousEnd))
        }
        defer { leave() }
        let elements = parseExpressionList(closing: closing, opened: open.range, what: what)
        return (elements, SourceRange(start: open.range.start, end: previousEnd))
    }

    /// Whether the list just parsed ended with `,` before its closing bracket; `(a,)`
    /// is a one-element tuple as in Python, not a parenthesis.
    private var trailingComma: Bool {
        pos >= 2 && tokens[pos - 2].kind == .comma
    }

    /// ExprList = [ Expr { "," Expr } [ "," ] ] closing
    mutating func parseExpressionList(closing: TokenKind, opened: SourceRange, what: String) -> [Expr] {
        bracketDepth += 1
        defer { bracketDepth -= 1 }
        var elements: [Expr] = []
        // Lists and argument lists are short; one allocation instead of growing 1, 2, 4.
        if tok.kind != closing { elements.reserveCapacity(4) }
        while tok.kind != closing {
            let before = pos
            if atEOF || tok.kind == .rBrace || tok.kind == .rParen || tok.kind == .rBracket || tok.kind == .lBrace {
                break
            }
            let e = elements.isEmpty ? parseExpression() : parseExpression(after: "','")
            elements.append(e)
            if tok.kind == .comma { advance(); continue }
            if tok.kind != closing {
                if canStartExpression(tok) && !onErrorLine {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "','", context: "between elements of \(what)",
                                                           found: found, fixIt: .insert(",", at: previousEnd, "insert ','")))
                    continue
                }
                break
            }
            if pos == before { advance() }
        }
        closeBracket(closing, opened: opened, what: what)
        return elements
    }

    /// Arguments = [ Argument { "," Argument } [ "," ] ] ")"
    /// Argument  = [ identifier ":" ] Expr
    mutating func parseArguments(opened: SourceRange, callee: String) -> [Argument] {
        bracketDepth += 1
        defer { bracketDepth -= 1 }
        var arguments: [Argument] = []
        if tok.kind != .rParen { arguments.reserveCapacity(4) }
        while tok.kind != .rParen {
            let before = pos
            if atEOF || tok.kind == .rBrace || tok.kind == .rBracket || tok.kind == .lBrace { break }
            var label: Identifier?
            if tok.kind == .identifier && peek().kind == .colon {
                let t = advance()
                advance()
                label = Identifier(text(t), t.range)
            }
            let value = label.map { l in parseExpression(after: "'\(l.name):'") } ?? parseExpression()
            arguments.append(Argument(label: label, value: value,
                                      range: (label?.range ?? value.range).union(value.range)))
            if tok.kind == .comma { advance(); continue }
            if tok.kind != .rParen {
                if canStartExpression(tok) && !onErrorLine {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "','", context: "between arguments of '\(callee)'",
                                                           found: found, fixIt: .insert(",", at: previousEnd, "insert ','")))
                    continue
                }
                break
            }
            if pos == before { advance() }
        }
        closeBracket(.rParen, opened: opened, what: "the arguments of '\(callee)'")
        return arguments
    }

    private mutating func closeBracket(_ closing: TokenKind, opened: SourceRange, what: @autoclosure () -> String) {
        if tok.kind == closing { advance(); return }
        report(SyntaxDiagnostics.unclosedDelimiter(at: errorRange, closing: closing, opened: opened, what: what(),
                                                   found: describe(tok), insertAt: previousEnd))
        // Skip the rest of a broken line inside the brackets so the outer item can resync.
        while !atEOF && tok.kind != closing && tok.kind != .rBrace && !tok.flags.contains(.newlineBefore) {
            if tok.kind == .lParen || tok.kind == .lBracket || tok.kind == .lBrace { skipBalanced() } else { advance() }
        }
        if tok.kind == closing && !tok.flags.contains(.newlineBefore) { advance() }
    }
}
