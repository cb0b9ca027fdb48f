import AnimcBase
import AnimcDiagnostics

extension Parser {
    /// Tokens that can begin an expression; `t` is the token `offset` places ahead.
    @inline(__always)
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
    @inline(__always)
    func continues(_ kind: TokenKind) -> Bool {
        tok.kind == kind && (bracketDepth > 0 || !tok.flags.contains(.newlineBefore))
    }

    /// Expr = Conditional
    ///
    /// `after` names what precedes the expression, for "expected a value after ..." messages.
    /// An expression that follows something on its line (`opacity:`, `=`, an operator):
    /// outside brackets it must start on that line.
    mutating func parseExpression(after: @autoclosure () -> String?) -> NodeRef {
        parseExpression(after: after(), requiresSameLine: true)
    }

    /// An expression that starts an item (a keyframe row's key time).
    mutating func parseExpression() -> NodeRef {
        parseExpression(after: nil, requiresSameLine: false)
    }

    /// An error expression at `range`: missing or unparsable, already diagnosed.
    mutating func errorExpr(_ range: SourceRange) -> NodeRef { b.leaf(.errorExpr, range) }

    private mutating func parseExpression(after: @autoclosure () -> String?, requiresSameLine: Bool) -> NodeRef {
        if !canStartExpression(tok) || (tok.flags.contains(.newlineBefore) && bracketDepth == 0 && requiresSameLine) {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: after()))
            return errorExpr(.empty(at: previousEnd))
        }
        guard depth < Parser.maxDepth else {
            _ = enter()
            skipExpression()
            return errorExpr(.empty(at: previousEnd))
        }
        if isLoneAtom { return parsePrimary() }
        depth += 1
        defer { leave() }
        let value = parseConditional()
        if contextualWord(tok) == .alias, !tok.flags.contains(.newlineBefore) || bracketDepth > 0, let count = pastedSwiftCastCount() {
            // `[0, 0.5, 1] as [NSNumber]`, `x as CGFloat`: reported, removed by its
            // fix-it, and the value read as written before it.
            let start = tok.range.start
            for _ in 0..<count { advance() }
            let cast = SourceRange(start: start, end: previousEnd)
            record(SyntaxDiagnostics.swiftCast(cast, removed: SourceRange(start: value.range.end, end: previousEnd),
                                               written: file.text(cast)))
        }
        return value
    }

    /// Swift's `UIColor(named: "Brand")!.cgColor`, `view?.center`: the `!` or `?` before
    /// a member is reported and skipped, the value read as itself. Out of line: the
    /// postfix loop is on the recursion of nested expressions, and each call site's
    /// temporaries grow its frame in debug builds.
    @inline(never)
    private mutating func skippedSwiftUnwrap() -> Bool {
        guard tok.kind == .bang || tok.kind == .question, tok.flags.contains(.attached),
              peek().kind == .dot, peek().flags.contains(.attached), peek(2).kind == .identifier else { return false }
        let mark = advance()
        record(SyntaxDiagnostics.swiftUnwrap(mark.range, written: file.text(mark.range)))
        return true
    }

    /// At `as`: the number of tokens of a pasted Swift cast (`as`, `as!` or `as?`, then a
    /// capitalised type name, dotted, or one in brackets as in `[NSNumber]`), or nil.
    private mutating func pastedSwiftCastCount() -> Int? {
        var k = 1
        let mark = token(at: pos + k)
        if (mark.kind == .bang || mark.kind == .question) && mark.flags.contains(.attached) { k += 1 }
        let bracketed = token(at: pos + k).kind == .lBracket
        if bracketed { k += 1 }
        func typeName(_ t: Token) -> Bool {
            guard t.kind == .identifier, let first = file.bytes[Int(t.range.start)...].first else { return false }
            return first >= 0x41 && first <= 0x5A
        }
        guard typeName(token(at: pos + k)) else { return nil }
        k += 1
        while token(at: pos + k).kind == .dot, token(at: pos + k + 1).kind == .identifier { k += 2 }
        if bracketed {
            if token(at: pos + k).kind == .colon, typeName(token(at: pos + k + 1)) { k += 2 }
            guard token(at: pos + k).kind == .rBracket else { return nil }
            k += 1
        }
        return k
    }

    /// Whether the current token is a number or a name that nothing after it can
    /// continue: most values are (`0.5`, `easeIn`, each element of `(x, y)`). Such an
    /// expression is its primary alone, so it skips the descent through every level
    /// (conditional, range, the binary loop, unary, postfix), which was most of the
    /// parser's work on ordinary values. The tree is the same either way.
    @inline(__always)
    private var isLoneAtom: Bool {
        switch tok.kind {
        case .number, .identifier: break
        default: return false
        }
        let next = peek()
        switch next.kind {
        // None of these continues an expression: each level stops at them, and the
        // conditional's `:` is read by the conditional, after its branch.
        case .comma, .rParen, .rBracket, .rBrace, .tilde, .equal, .colon, .semicolon, .eof: return true
        // Outside brackets a line break ends the expression: every continuation
        // (operators, `?`, `..<`, transform lists) must be on the same line, and `[`
        // and `.` must be attached.
        default: return next.flags.contains(.newlineBefore) && bracketDepth == 0
        }
    }

    /// After the nesting limit was reached inside a chain (already reported): skips the
    /// rest of the expression and stands for all of it with an error node, so nothing
    /// later reports the truncated chain again.
    private mutating func skipRestOfChain(from start: UInt32) -> NodeRef {
        skipExpression()
        return errorExpr(SourceRange(start: start, end: max(start, previousEnd)))
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

    /// A node with two or three children as its fields.
    private mutating func node(_ tag: NodeTag, _ range: SourceRange, bits: UInt8 = 0, _ a: NodeRef, _ b2: NodeRef,
                               _ c: NodeRef? = nil) -> NodeRef {
        b.node(tag, range, bits: bits) {
            $0.push(a)
            $0.push(b2)
            if let c { $0.push(c) }
        }
    }

    /// Conditional = Range [ "?" Expr ":" Expr ]
    private mutating func parseConditional() -> NodeRef {
        let condition = parseRange()
        guard continues(.question) else { return condition }
        if peek().flags.contains(.attached), peek().kind == .question || peek().kind == .colon {
            return parseFallback(condition)
        }
        advance()
        let then = parseExpression(after: "'?'")
        guard continues(.colon) || tok.kind == .colon else {
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "':'", context: "in a conditional expression",
                                                   found: found))
            let missing = errorExpr(.empty(at: previousEnd))
            return node(.conditional, condition.range.union(then.range), condition, then, missing)
        }
        advance()
        let otherwise = parseExpression(after: "':'")
        return node(.conditional, condition.range.union(otherwise.range), condition, then, otherwise)
    }

    /// `a ?? b` (Swift) or `a ?: b` (GNU C, in Objective-C): a value with a fallback,
    /// which `.anim` has no use for since nothing is optional. Pasted code writes it to
    /// read the presentation layer (`(layer.presentationLayer ?: layer).opacity`,
    /// `layer.presentation()?.opacity ?? layer.opacity`): that is kept, as the left side
    /// in parentheses spanning both, for the checker to report as `presentation`.
    private mutating func parseFallback(_ value: NodeRef) -> NodeRef {
        advance()
        let second = advance()
        let written = second.kind == .colon ? "?:" : "??"
        let fallback = parseExpression(after: "'\(written)'")
        let range = value.range.union(fallback.range)
        let end = min(Int(value.range.end), file.bytes.count)
        if Int(value.range.start) < end,
           String(decoding: file.bytes[Int(value.range.start)..<end], as: UTF8.self).contains("presentation") {
            return b.leaf(.paren, range, data: value.id)
        }
        report(SyntaxDiagnostics.fallbackOperator(range, written: written))
        return errorExpr(range)
    }

    /// Range = Or [ ( "..<" | "..." ) Or ]
    private mutating func parseRange() -> NodeRef {
        let lower = parseBinary(0)
        guard continues(.dotDotLess) || continues(.dotDotDot) else { return lower }
        let op = advance()
        let upper = parseBinaryOperand(after: "'\(op.kind.spelling)'", level: 0)
        return node(.range, lower.range.union(upper.range), bits: op.kind == .dotDotDot ? 1 : 0, lower, upper)
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
    @inline(__always)
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
    private mutating func parseBinary(_ minLevel: Int) -> NodeRef {
        guard minLevel < Parser.levelCount else { return parseUnary() }
        var lhs = parseUnary()
        // Where the first comparison and the first `x` of the chain are, once seen.
        var firstComparison: SourceRange?
        var firstSize: SourceRange?
        var entered = 0
        defer { for _ in 0..<entered { leave() } }
        while let (level, op) = nextBinaryOperator(minLevel) {
            guard enter() else { return skipRestOfChain(from: lhs.range.start) }
            entered += 1
            let opToken = advance()
            let rhs = parseBinaryOperand(after: "'\(op.rawValue)'", level: level + 1)
            if level == Parser.comparisonLevel || level == Parser.sizeLevel {
                // Comparisons and `x` do not associate: `a < b < c` is an error.
                let first = level == Parser.comparisonLevel ? firstComparison : firstSize
                if let first, chainedAt(lhs, level) {
                    if level == Parser.comparisonLevel {
                        report(SyntaxDiagnostics.chainedComparison(opToken.range, first: first))
                    } else {
                        report(SyntaxDiagnostics.unexpectedAfterValue(opToken.range, found: "a second 'x'"))
                    }
                }
                if level == Parser.comparisonLevel {
                    firstComparison = firstComparison ?? opToken.range
                } else {
                    firstSize = firstSize ?? opToken.range
                }
            }
            lhs = node(.binary, lhs.range.union(rhs.range), bits: op.code, lhs, rhs)
        }
        return lhs
    }

    /// Whether `lhs` is already a comparison (or size) at `level`, so another one chains.
    @inline(__always)
    private func chainedAt(_ lhs: NodeRef, _ level: Int) -> Bool {
        guard b.tag(lhs.id) == .binary else { return false }
        switch BinaryOperator(code: b.bits(lhs.id)) {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual: return level == Parser.comparisonLevel
        case .size: return level == Parser.sizeLevel
        default: return false
        }
    }

    /// The next binary operator at `minLevel` or above, with its level.
    @inline(__always)
    private func nextBinaryOperator(_ minLevel: Int) -> (Int, BinaryOperator)? {
        guard let (level, op) = binaryOperator(), level >= minLevel else { return nil }
        return (level, op)
    }

    private mutating func parseBinaryOperand(after: @autoclosure () -> String, level: Int) -> NodeRef {
        if !canStartExpression(tok) || (tok.flags.contains(.newlineBefore) && bracketDepth == 0) {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: after()))
            return errorExpr(.empty(at: previousEnd))
        }
        return parseBinary(level)
    }

    /// Unary = ( "-" | "+" | "!" ) Unary | Postfix
    private mutating func parseUnary() -> NodeRef {
        guard tok.kind == .minus || tok.kind == .plus || tok.kind == .bang else { return parsePostfix() }
        let opToken = advance()
        let op: UnaryOperator = opToken.kind == .minus ? .negate : opToken.kind == .plus ? .plus : .not
        guard enter() else {
            // A long run of prefix operators: consume it without recursing.
            while tok.kind == .minus || tok.kind == .plus || tok.kind == .bang { advance() }
            _ = parsePostfix()
            return errorExpr(SourceRange(start: opToken.range.start, end: previousEnd))
        }
        defer { leave() }
        if !canStartExpression(tok) || tok.flags.contains(.newlineBefore) && bracketDepth == 0 {
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: "'\(opToken.kind.spelling)'"))
            return errorExpr(opToken.range)
        }
        let operand = parseUnary()
        return b.leaf(.unary, opToken.range.union(operand.range), bits: op.code, data: operand.id)
    }

    /// Postfix = Primary { "[" ExprList "]" | "." identifier } { Call | identifier }
    ///
    /// Calls and names written side by side on one line form a transform sequence when
    /// at least one is a call: `rotate(-45deg) scale(0.25)`, `P rotate3d(axis, 90deg)`.
    private mutating func parsePostfix() -> NodeRef {
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
                let indices = b.listMark
                parseExpressionList(closing: .rBracket, opened: open.range, what: "the index")
                expr = b.node(.index, SourceRange(start: expr.range.start, end: previousEnd)) {
                    $0.push(expr)
                    $0.pushList(since: indices)
                }
            } else if skippedSwiftUnwrap() {
                continue
            } else if tok.kind == .dot && tok.flags.contains(.attached) && peek().kind == .identifier {
                advance()
                let nameToken = advance()
                let member = name(nameToken)
                // Swift's `layer.presentation()`, `presentation()?` and `presentation()!`:
                // read as the member, which the checker reports as `presentation`.
                if tok.kind == .lParen, tok.flags.contains(.attached), peek().kind == .rParen,
                   member.name == b.names.intern("presentation") {
                    advance()
                    advance()
                    if (tok.kind == .question || tok.kind == .bang) && tok.flags.contains(.attached) { advance() }
                }
                // `module.Name(args)`: a call of what an imported file declares.
                if tok.kind == .lParen, tok.flags.contains(.attached), b.tag(expr.id) == .identifier {
                    let module = NameRef(name: b.data(expr.id), range: expr.range)
                    let open = advance()
                    let arguments = b.listMark
                    parseArguments(opened: open.range, callee: spelling(module) + "." + spelling(member))
                    expr = b.node(.qualifiedCall, SourceRange(start: expr.range.start, end: previousEnd)) {
                        $0.push(module)
                        $0.push(member)
                        $0.pushList(since: arguments)
                    }
                    continue
                }
                expr = b.node(.member, SourceRange(start: expr.range.start, end: previousEnd)) {
                    $0.push(expr)
                    $0.push(member)
                }
            } else {
                break
            }
        }
        // A transform list: calls and named transforms side by side on one line,
        // `rotate(-45deg) scale(0.25)` or `P rotate3d(axis, 90deg)`. At least one must be
        // a call, so two names side by side (`a b`, a missing separator) are not a list.
        switch b.tag(expr.id) {
        case .call, .identifier: break
        default: return expr
        }
        let sequence = b.listMark
        b.addToList(expr)
        var hasCall = b.tag(expr.id) == .call
        var afterLastCall = pos
        // A call's arguments may hold a path's block, where the token window is
        // compacted: the position to go back to is taken after it, and the names that
        // follow hold no block.
        var baseAtLastCall = base
        var lastCall = hasCall ? 0 : -1
        var last = expr
        while continuesTransformList() {
            let element = parsePrimary()
            b.addToList(element)
            last = element
            if b.tag(element.id) == .call {
                hasCall = true
                afterLastCall = pos
                baseAtLastCall = base
                lastCall = b.listCount(since: sequence) - 1
            }
        }
        // Names after the last call may be the next item's words: give them back.
        assert(base == baseAtLastCall, "a transform list went back past a compaction of the token window")
        if !hasCall {
            b.truncateList(since: sequence, to: 0)
            pos = afterLastCall
            return expr
        }
        var count = b.listCount(since: sequence)
        if pos != afterLastCall, lastCall >= 0 {
            let trailingNames = count - 1 - lastCall
            if trailingNames > 0, !trailingNamesAreTransforms() {
                count -= trailingNames
                b.truncateList(since: sequence, to: count)
                pos = afterLastCall
                last = NodeRef(id: b.listElement(count - 1, since: sequence), range: b.range(b.listElement(count - 1, since: sequence)))
            }
        }
        if count == 1 {
            b.truncateList(since: sequence, to: 0)
            return expr
        }
        return b.node(.sequence, expr.range.union(last.range)) {
            $0.pushList(since: sequence)
        }
    }

    /// Whether the current token continues a transform list: on the same line, a name
    /// that is not the size operator `x`, a contextual word or a label (`c1:` in a path
    /// command), or a call.
    @inline(__always)
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
    private func trailingNamesAreTransforms() -> Bool {
        tok.kind == .eof || tok.flags.contains(.newlineBefore) || tok.kind == .tilde || tok.kind == .comma
            || tok.kind == .rParen || tok.kind == .rBracket || tok.kind == .rBrace || tok.kind == .semicolon
    }

    /// `.init(name: .easeOut)`: Swift's initialiser of the type the context wants, a call
    /// named `init` for the checker to port (it has no .anim meaning itself). Out of line:
    /// every call site in `parsePrimary` grows the frame each nested bracket pushes, and
    /// this one overflowed the stack at the deepest nesting the parser allows (debug).
    @inline(never)
    private mutating func parseSwiftInit(from start: UInt32, _ member: NameRef) -> NodeRef {
        let open = advance()
        let arguments = b.listMark
        parseArguments(opened: open.range, callee: spelling(member))
        return b.node(.call, SourceRange(start: start, end: previousEnd)) {
            $0.push(member)
            $0.pushList(since: arguments)
        }
    }

    /// Primary = number | string | color | "true" | "false" | identifier [ "(" Arguments ")" ]
    ///         | "(" Expr { "," Expr } [ "," ] ")" | "[" [ ExprList ] "]" | "path" Block
    private mutating func parsePrimary() -> NodeRef {
        let t = tok
        switch t.kind {
        case .number:
            advance()
            let lower = Int(t.range.start), upper = min(Int(t.range.end), file.bytes.count)
            guard !t.flags.contains(.hasError), lower <= upper,
                  let (value, unit) = file.bytes.withUnsafeBufferPointer({ LiteralValue.number(UnsafeBufferPointer(rebasing: $0[lower..<upper])) }) else {
                return errorExpr(t.range)
            }
            return b.number(value, unit, t.range)
        case .string:
            advance()
            return b.string(LiteralValue.string(file.text(t.range)[...]), t.range)
        case .color:
            advance()
            guard let (r, g, bl, a) = LiteralValue.color(file.text(t.range)[...]) else { return errorExpr(t.range) }
            return b.color(r, g, bl, a, t.range)
        case .kwTrue, .kwFalse:
            advance()
            return b.leaf(.boolean, t.range, bits: t.kind == .kwTrue ? 1 : 0)
        case .identifier:
            if peek().kind == .lBrace && contextualWord(t) == .path {
                advance()
                let body = parseBlock(.path, what: "the path")
                return b.leaf(.pathLiteral, SourceRange(start: t.range.start, end: previousEnd), data: body.id)
            }
            let callee = name(t)
            advance()
            if tok.kind == .lParen && (!tok.flags.contains(.newlineBefore) || bracketDepth > 0) {
                let open = advance()
                let arguments = b.listMark
                parseArguments(opened: open.range, callee: spelling(callee))
                return b.node(.call, SourceRange(start: t.range.start, end: previousEnd)) {
                    $0.push(callee)
                    $0.pushList(since: arguments)
                }
            }
            return b.leaf(.identifier, t.range, data: callee.name)
        case .lParen:
            if let castEnd = pastedCastEnd() {
                // `(CGFloat)M_PI`: reported, removed by its fix-it, and parsed as its operand.
                let typeText = file.text(SourceRange(start: peek().range.start, end: token(at: pos + castEnd - 1).range.start))
                for _ in 0..<castEnd { advance() }
                let cast = SourceRange(start: t.range.start, end: previousEnd)
                record(SyntaxDiagnostics.cCast(cast, removed: SourceRange(start: t.range.start, end: tok.range.start),
                                               type: String(typeText.reversed().drop { $0 == " " }.reversed())))
                return parseUnary()
            }
            let mark = b.listMark
            let (parsed, range) = parseBracketed(closing: .rParen, what: "the parenthesis")
            guard parsed else { return errorExpr(range) }
            let count = b.listCount(since: mark)
            if count == 0 {
                report(SyntaxDiagnostics.expectedExpression(range, found: "'()'", after: nil))
                return errorExpr(range)
            }
            if count == 1 && !trailingComma {
                let inner = b.listElement(0, since: mark)
                b.truncateList(since: mark, to: 0)
                return b.leaf(.paren, range, data: inner)
            }
            return b.node(.tuple, range) {
                $0.pushList(since: mark)
            }
        case .lBracket where startsMessageSend():
            return parseMessageSend()
        case .lBracket:
            let mark = b.listMark
            let (parsed, range) = parseBracketed(closing: .rBracket, what: "the list")
            guard parsed else { return errorExpr(range) }
            return b.node(.list, range) {
                $0.pushList(since: mark)
            }
        case .dot where peek().kind == .identifier && peek().flags.contains(.attached):
            // `.pi`, `.forwards`: Swift's implicit member, kept for the checker's fix-it.
            advance()
            let nameToken = advance()
            let member = name(nameToken)
            if isIdentifier(nameToken, "init"), tok.kind == .lParen, tok.flags.contains(.attached) {
                return parseSwiftInit(from: t.range.start, member)
            }
            return b.node(.implicitMember, t.range.union(nameToken.range)) { $0.push(member) }
        default:
            report(SyntaxDiagnostics.expectedExpression(errorRange, found: found, after: nil))
            return errorExpr(.empty(at: previousEnd))
        }
    }

    /// At `[`: whether an Objective-C message send starts here, `[receiver selector]`
    /// or `[receiver piece: value ...]`, where the receiver is a name, a dotted name or
    /// a message send. Two names side by side are never a `.anim` list, so nothing
    /// that parses today is read differently.
    private mutating func startsMessageSend() -> Bool {
        var k = 1
        let first = token(at: pos + k)
        if first.kind == .lBracket || first.kind == .lParen {
            // A nested send or a parenthesized receiver (`[(layer.presentationLayer ?: layer)
            // opacity]`).
            guard let past = pastBalanced(from: k) else { return false }
            k = past
        } else if first.kind == .identifier {
            k += 1
            // `[layer.presentationLayer opacity]`, `[delays[i] floatValue]`: names, members
            // and subscripts.
            while k < 256 {
                if token(at: pos + k).kind == .dot, token(at: pos + k + 1).kind == .identifier {
                    k += 2
                } else if token(at: pos + k).kind == .lBracket, token(at: pos + k).flags.contains(.attached) {
                    guard let past = pastBalanced(from: k) else { return false }
                    k = past
                } else {
                    break
                }
            }
        } else {
            return false
        }
        let selector = token(at: pos + k)
        guard selector.kind == .identifier, !selector.flags.contains(.newlineBefore) else { return false }
        let after = token(at: pos + k + 1).kind
        return after == .colon || after == .rBracket
    }

    /// The offset just past the bracket or parenthesis that closes the one at `pos + k`,
    /// looking at most 256 tokens ahead; nil when it is not closed before a brace or the end.
    private mutating func pastBalanced(from start: Int) -> Int? {
        let (open, close) = token(at: pos + start).kind == .lBracket ? (TokenKind.lBracket, TokenKind.rBracket) : (.lParen, .rParen)
        var depth = 0, k = start
        while k < 256 {
            let t = token(at: pos + k)
            if t.kind == open { depth += 1 } else if t.kind == close { depth -= 1 }
            else if t.kind == .eof || t.kind == .lBrace || t.kind == .rBrace { return nil }
            k += 1
            if depth == 0 { return k }
        }
        return nil
    }

    /// MessageSend = "[" Receiver ( selector | { [ piece ] ":" Expr } [ "," Expr ... ] ) "]"
    private mutating func parseMessageSend() -> NodeRef {
        let open = advance()
        guard enter() else {
            pos -= 1
            skipBalanced()
            return errorExpr(SourceRange(start: open.range.start, end: previousEnd))
        }
        defer { leave() }
        bracketDepth += 1
        let receiver = parsePostfix()
        let arguments = b.listMark
        guard tok.kind == .identifier else {
            bracketDepth -= 1
            closeBracket(.rBracket, opened: open.range, what: "the message")
            return errorExpr(SourceRange(start: open.range.start, end: previousEnd))
        }
        let selector = name(tok)
        if peek().kind == .rBracket {
            advance()
        } else {
            while !atEOF && tok.kind != .rBracket && tok.kind != .rBrace {
                let before = position
                var label: NameRef?
                if tok.kind == .identifier && peek().kind == .colon {
                    label = name(advance())
                    advance()
                } else if tok.kind == .colon || tok.kind == .comma {
                    // `initWithControlPoints:0.4 :0 :0.2 :1`, `arrayWithObjects:a, b, nil`
                    advance()
                } else {
                    break
                }
                let value = parseExpression()
                if let label {
                    b.addToList(b.node(.argument, label.range.union(value.range)) {
                        $0.push(label)
                        $0.push(value)
                    })
                } else {
                    b.addToList(value)
                }
                if position == before { break }
            }
        }
        bracketDepth -= 1
        closeBracket(.rBracket, opened: open.range, what: "the message")
        let range = SourceRange(start: open.range.start, end: previousEnd)
        return b.node(.message, range) {
            $0.push(selector)
            $0.push(receiver)
            $0.pushList(since: arguments)
        }
    }

    /// C's type names that pasted casts use: `(CGFloat)M_PI`, `(id)path.CGPath`.
    static let cTypeNames: Set<String> = [
        "CGFloat", "float", "double", "int", "long", "short", "unsigned", "NSInteger", "NSUInteger", "CFTimeInterval",
        "NSTimeInterval", "id", "CGPathRef", "CGColorRef", "CGImageRef", "Float", "Double", "Int", "int32_t", "int64_t",
        "uint32_t", "BOOL", "NSNumber", "NSValue", "UIColor", "CGColor", "CGPath",
        // `((CALayer *)layer.presentationLayer).opacity`: presentationLayer is an `id`.
        "CALayer", "CAShapeLayer", "CAGradientLayer", "CATransformLayer", "CAReplicatorLayer", "CATextLayer",
    ]

    /// At `(`: the number of tokens of a pasted C cast, its parentheses included, when
    /// one starts here: `(` [`__bridge`] type [`*`] `)` followed on the same line by an
    /// operand. A parenthesised type name is never a `.anim` value, so nothing that
    /// parses today is read differently.
    private mutating func pastedCastEnd() -> Int? {
        var k = 1
        if token(at: pos + k).kind == .identifier, file.text(token(at: pos + k).range) == "__bridge" { k += 1 }
        let type = token(at: pos + k)
        guard type.kind == .identifier, Parser.cTypeNames.contains(file.text(type.range)) else { return nil }
        k += 1
        if token(at: pos + k).kind == .star { k += 1 }
        guard token(at: pos + k).kind == .rParen else { return nil }
        k += 1
        let operand = token(at: pos + k)
        guard !operand.flags.contains(.newlineBefore), canStartExpression(operand, offset: k) else { return nil }
        return k
    }

    /// Reads `( ... )` or `[ ... ]` from its opening bracket: its elements go on the list
    /// stack. Returns false (the brackets skipped, nothing added) when nesting is too
    /// deep, and the range the brackets span.
    private mutating func parseBracketed(closing: TokenKind, what: String) -> (parsed: Bool, range: SourceRange) {
        let open = advance()
        guard enter() else {
            pos -= 1
            skipBalanced()
            return (false, SourceRange(start: open.range.start, end: previousEnd))
        }
        defer { leave() }
        parseExpressionList(closing: closing, opened: open.range, what: what)
        return (true, SourceRange(start: open.range.start, end: previousEnd))
    }

    /// Whether the list just parsed ended with `,` before its closing bracket; `(a,)`
    /// is a one-element tuple as in Python, not a parenthesis.
    private var trailingComma: Bool {
        mutating get { pos >= 2 && token(at: pos - 2).kind == .comma }
    }

    /// ExprList = [ Expr { "," Expr } [ "," ] ] closing
    ///
    /// The elements go on the list stack; the caller makes them a list field.
    mutating func parseExpressionList(closing: TokenKind, opened: SourceRange, what: String) {
        bracketDepth += 1
        defer { bracketDepth -= 1 }
        var count = 0
        while tok.kind != closing {
            let before = position
            if atEOF || tok.kind == .rBrace || tok.kind == .rParen || tok.kind == .rBracket || tok.kind == .lBrace {
                break
            }
            let e = count == 0 ? parseExpression() : parseExpression(after: "','")
            b.addToList(e)
            count += 1
            if tok.kind == .comma { advance(); continue }
            if tok.kind != closing {
                if canStartExpression(tok) && !onErrorLine {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "','", context: "between elements of \(what)",
                                                           found: found, fixIt: .insert(",", at: previousEnd, "insert ','")))
                    continue
                }
                break
            }
            if position == before { advance() }
        }
        closeBracket(closing, opened: opened, what: what)
    }

    /// Arguments = [ Argument { "," Argument } [ "," ] ] ")"
    /// Argument  = [ identifier ":" ] Expr
    ///
    /// The arguments go on the list stack; one without a label is its value's node.
    mutating func parseArguments(opened: SourceRange, callee: String) {
        bracketDepth += 1
        defer { bracketDepth -= 1 }
        while tok.kind != .rParen {
            let before = position
            if atEOF || tok.kind == .rBrace || tok.kind == .rBracket || tok.kind == .lBrace { break }
            var label: NameRef?
            // `in:` is a label in Swift (`addEllipse(in: r)`); `in` followed by a colon is
            // nothing else in `.anim`.
            if (tok.kind == .identifier || tok.kind == .kwIn) && peek().kind == .colon {
                let t = advance()
                advance()
                label = name(t)
            }
            if let label {
                let labelText = spelling(label)
                let value = parseExpression(after: "'\(labelText):'")
                let node = b.node(.argument, label.range.union(value.range)) {
                    $0.push(label)
                    $0.push(value)
                }
                b.addToList(node)
            } else {
                b.addToList(parseExpression())
            }
            if tok.kind == .comma { advance(); continue }
            if tok.kind != .rParen {
                if canStartExpression(tok) && !onErrorLine {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "','", context: "between arguments of '\(callee)'",
                                                           found: found, fixIt: .insert(",", at: previousEnd, "insert ','")))
                    continue
                }
                break
            }
            if position == before { advance() }
        }
        closeBracket(.rParen, opened: opened, what: "the arguments of '\(callee)'")
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
