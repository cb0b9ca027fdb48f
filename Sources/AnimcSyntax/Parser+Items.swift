import AnimcBase
import AnimcDiagnostics

extension Parser {
    /// Item = LetDecl | TimingDecl | ComponentDecl | CompositionDecl | PathDecl
    ///      | LayerDecl | Instance | Property | Animation | Keyframe | ForLoop | IfItem
    ///      | PathCommand
    mutating func parseItem(_ context: BlockContext) -> NodeRef {
        let start = tok.range.start
        var item = parseItemKind(context)
        // An item's range runs from its first token to the last one it consumed, whatever
        // its parts span.
        item.range = SourceRange(start: start, end: max(start, previousEnd))
        b.setRange(item.id, item.range)
        return item
    }

    /// An error item at `range`.
    mutating func errorItem(_ range: SourceRange) -> NodeRef { b.leaf(.errorItem, range) }

    private mutating func parseItemKind(_ context: BlockContext) -> NodeRef {
        let t = tok
        // One call site for path commands (pasted `[path moveToPoint:p]` included): each
        // call site grows this recursive function's frame in debug builds.
        if context == .path && (t.kind == .identifier || t.kind == .lBracket) { return parsePathCommand() }
        switch t.kind {
        case .kwLet: return parseLet()
        case .kwTiming: return allow(parseTimingDecl(), "a timing declaration", in: context, where: context != .path)
        case .kwComponent:
            return allow(parseComponent(), "a component declaration", in: context, where: context == .file,
                         hint: "declare components at the top level of the file")
        case .kwComposition:
            return allow(parseComposition(), "a composition", in: context, where: context == .file,
                         hint: "declare the composition at the top level of the file")
        case .kwFor: return parseFor(context)
        case .kwIf: return parseIf(context)
        case .identifier:
            if peek().kind == .string, isIdentifier(t, "import") {
                return allow(parseImport(), "an import", in: context, where: context == .file,
                             hint: "imports belong at the top level of a file")
            }
            if context == .file, let item = parseInteractionItem() { return item }
            return parseIdentifierItem(context)
        default:
            if case .animation = context, canStartExpression(t), t.kind != .lBrace {
                return parseKeyframe()
            }
            // `0.5 = 1` outside a keyframes block: parse the row, then say where it belongs.
            if t.kind == .number || t.kind == .lParen || t.kind == .minus {
                let item = parseKeyframe()
                if b.tag(item.id) == .keyframe {
                    report(SyntaxDiagnostics.misplacedItem(item.range, item: "a keyframe row", block: context.name,
                                                           hint: "keyframe rows belong inside a 'keyframes' animation"))
                }
                return item
            }
            report(SyntaxDiagnostics.expectedItem(t.range, found: describe(t), context: context.expectation))
            recover()
            return errorItem(t.range)
        }
    }

    /// Reports `item` as misplaced (once) when `allowed` is false, but keeps it in the tree.
    private mutating func allow(_ item: NodeRef, _ what: String, in context: BlockContext, where allowed: Bool,
                                hint: String? = nil) -> NodeRef {
        if !allowed {
            report(SyntaxDiagnostics.misplacedItem(item.range, item: what, block: context.name, hint: hint))
        }
        return item
    }

    /// Dispatch on an item that starts with an identifier: a property, a layer, an
    /// animation, an instance, a keyframe row or a path declaration.
    /// A misplaced item's message, made out of the recursive parse functions: in the
    /// debug build a diagnostic made in one of them took its room on the frame of every
    /// nesting level (see ``reportUnclosedBlock(opened:_:)``).
    @inline(never)
    private mutating func reportMisplaced(_ range: SourceRange, _ item: String, in context: BlockContext, hint: String?) {
        report(SyntaxDiagnostics.misplacedItem(range, item: item, block: context.name, hint: hint))
    }

    private mutating func parseIdentifierItem(_ context: BlockContext) -> NodeRef {
        let t = tok
        let word = contextualWord(t)
        let next = peek()
        let nextWord = next.kind == .identifier ? contextualWord(next) : .none
        let inAnimation: Bool
        if case .animation = context { inAnimation = true } else { inAnimation = false }

        if next.kind == .colon || (next.kind == .dot && isDottedKeyPathFollowedByColon()) {
            let item = parseProperty()
            if context == .file || context == .component {
                reportMisplaced(item.range, "a property", in: context,
                                hint: context == .file ? "properties belong inside a layer or composition block" : "put properties inside the root layer")
            } else if context == .path {
                reportMisplaced(item.range, "a property", in: context, hint: nil)
            }
            return item
        }
        if word == .mask && nextWord == .layerKind {
            return checkLayerPlacement(parseLayer(), context)
        }
        if word == .layerKind && (next.kind == .identifier || next.kind == .lBrace) {
            // `layer dot[i] {` as well as `layer dot {`
            return checkLayerPlacement(parseLayer(), context)
        }
        if word == .path && next.kind == .identifier && peek(2).kind == .lBrace {
            return parsePathDecl()
        }
        if (word == .animationKind && next.kind == .identifier) || (word == .group && (next.kind == .identifier || next.kind == .lBrace)) {
            let item = parseAnimation()
            switch context {
            case .layer, .group: break
            default:
                reportMisplaced(item.range, "an animation", in: context,
                                hint: context == .file ? "animations are attached to a layer: put this inside one" : nil)
            }
            return item
        }
        // `shap circle { ... }`: a misspelled kind. Suggest the closest and parse the
        // declaration as that kind, so its contents are still checked.
        if next.kind == .identifier && peek(2).kind == .lBrace && !inAnimation {
            let name = text(t)
            let kinds = Array(ContextualKeywords.layerKinds) + Array(ContextualKeywords.animationKinds) + [ContextualKeywords.group]
            let guess = closestMatch(to: name, in: kinds)
            report(SyntaxDiagnostics.unknownKind(t.range, name: name, suggestion: guess))
            if let g = guess {
                if ContextualKeywords.layerKinds.contains(g) {
                    let item = parseLayer(kindOverride: g)
                    return checkLayerPlacement(item, context)
                }
                return parseAnimation(kindOverride: g)
            }
            recover()
            return errorItem(t.range)
        }
        if inAnimation {
            return parseKeyframe()
        }
        if next.kind == .equal || next.kind == .lBracket {
            let item = parseInstance()
            if context != .layer && context != .file {
                report(SyntaxDiagnostics.misplacedItem(item.range, item: "a component instance", block: context.name, hint: nil))
            }
            return item
        }
        // `opacity 0.5`: a property with its colon forgotten. Say so and parse the value.
        if !next.flags.contains(.newlineBefore) && canStartExpression(next, offset: 1) && next.kind != .lBrace {
            let (key, dotted) = parseKeyPath()
            report(SyntaxDiagnostics.expectedToken(
                .empty(at: key.range.end), expected: "':'", context: "after '\(dotted)'", found: found,
                fixIt: .insert(":", at: key.range.end, "insert ':'")))
            let value = parseExpression()
            return b.node(.property, key.range.union(value.range)) {
                $0.push(key)
                $0.push(value)
            }
        }
        report(SyntaxDiagnostics.expectedItem(t.range, found: describe(t), context: context.expectation))
        recover()
        return errorItem(t.range)
    }

    private mutating func checkLayerPlacement(_ item: NodeRef, _ context: BlockContext) -> NodeRef {
        switch context {
        case .file, .layer, .component: return item
        default:
            report(SyntaxDiagnostics.misplacedItem(item.range, item: "a layer", block: context.name,
                                                   hint: "layers are declared at the top level or inside other layers"))
            return item
        }
    }

    /// Skips tokens up to the next `{` on the same construct (an `if` condition), or
    /// to a synchronisation point when there is none.
    private mutating func recoverToBrace() {
        while !atEOF && tok.kind != .lBrace && tok.kind != .rBrace {
            if tok.kind == .lParen || tok.kind == .lBracket { skipBalanced() } else { advance() }
        }
    }

    private mutating func isDottedKeyPathFollowedByColon() -> Bool {
        var k = pos
        while true {
            guard token(at: k).kind == .identifier else { return false }
            let next = token(at: k + 1)
            if next.kind == .colon { return true }
            guard next.kind == .dot else { return false }
            k += 2
        }
    }

    /// KeyPath = identifier { "." identifier }
    ///
    /// Returns the node and the path as one name (`transform.rotation.z`), which is
    /// interned with the node: the checker looks key paths up by that name.
    mutating func parseKeyPath() -> (NodeRef, String) {
        let first = name(tok)
        advance()
        // Most key paths are one name (`position`, `opacity`): a node of its own, with
        // no fields to say what the node already does.
        guard tok.kind == .dot && peek().kind == .identifier && !tok.flags.contains(.newlineBefore) else {
            return (b.leaf(.keyPath, first.range, bits: SyntaxArena.singleNameKeyPath, data: first.name), spelling(first))
        }
        let fields = b.fieldStart
        b.push(0)  // the dotted name, once known
        b.push(1)  // the component count
        b.push(first)
        var last = first
        var count: UInt32 = 1
        var dotted = spelling(first)
        while tok.kind == .dot && peek().kind == .identifier && !tok.flags.contains(.newlineBefore) {
            advance()
            last = name(tok)
            b.push(last)
            count += 1
            dotted += "." + spelling(last)
            advance()
        }
        let range = first.range.union(last.range)
        b.setField(fields, b.names.intern(dotted))
        b.setField(fields + 1, count)
        return (b.node(.keyPath, range, fields: fields), dotted)
    }

    /// Name = identifier — reports `expected a name after <after>` when missing.
    private mutating func parseName(after: String) -> NameRef? {
        if tok.kind == .identifier {
            let t = advance()
            return name(t)
        }
        report(SyntaxDiagnostics.expectedName(errorRange, after: after, found: found))
        if tok.kind.isKeyword && !tok.flags.contains(.newlineBefore) { advance() }
        return nil
    }

    private mutating func expect(_ kind: TokenKind, _ context: String) -> Bool {
        if tok.kind == kind { advance(); return true }
        let fix: FixIt? = kind.spelling.isEmpty ? nil : .insert(kind.spelling, at: previousEnd, "insert \(kind.displayName)")
        report(SyntaxDiagnostics.expectedToken(errorRange, expected: kind.displayName, context: context, found: found,
                                               fixIt: fix))
        return false
    }

    // MARK: Declarations

    /// LetDecl = "let" identifier [ ":" TypeName ] "=" Expr
    mutating func parseLet() -> NodeRef {
        let start = advance().range.start
        guard let name = parseName(after: "'let'") else {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        var type: NameRef?
        if tok.kind == .colon {
            advance()
            if tok.kind == .lBracket && peek().kind == .identifier && peek(2).kind == .rBracket {
                // Swift's array type (`let times: [CFTimeInterval] = ...`), kept whole as
                // one name so the checker can give the .anim type.
                let open = advance(), element = advance(), close = advance()
                type = self.name("[" + file.text(element.range) + "]", open.range.union(close.range))
            } else {
                type = parseName(after: "':' in a 'let'")
            }
        }
        let value: NodeRef
        if expect(.equal, "after the name in 'let \(spelling(name))'") {
            value = parseExpression(after: "'='")
        } else {
            recover()
            value = errorExpr(.empty(at: previousEnd))
        }
        return b.node(.letDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(type)
            $0.push(value)
        }
    }

    /// ImportDecl = "import" string [ "as" identifier ]
    mutating func parseImport() -> NodeRef {
        let start = advance().range.start
        let pathToken = advance()
        let path = b.string(LiteralValue.string(file.text(pathToken.range)[...]), pathToken.range)
        var alias: NameRef?
        if contextualWord(tok) == .alias && !tok.flags.contains(.newlineBefore) {
            advance()
            alias = parseName(after: "'as'")
        }
        return b.node(.importDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(path)
            $0.push(alias)
        }
    }

    // MARK: States and transitions

    /// `input`, `state` or `on` at the top level, each recognised by what follows the
    /// word (`input name:`, `state name {`, `on name`), so the words stay ordinary names
    /// elsewhere; nil when the tokens are something else.
    @inline(never)
    private mutating func parseInteractionItem() -> NodeRef? {
        let t = tok, next = peek()
        guard next.kind == .identifier, !next.flags.contains(.newlineBefore) else { return nil }
        if isIdentifier(t, "input") && peek(2).kind == .colon { return parseInput() }
        if isIdentifier(t, "state") && peek(2).kind == .lBrace { return parseState() }
        if isIdentifier(t, "on") { return parseTransition() }
        return nil
    }

    /// InputDecl = "input" identifier ":" identifier [ "in" Expr ] [ "=" Expr ]
    private mutating func parseInput() -> NodeRef {
        let start = advance().range.start
        let name = self.name(advance())
        advance()  // ':' (checked by the caller)
        guard let type = parseName(after: "':' in 'input \(spelling(name)):'") else {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        var range: NodeRef?
        if tok.kind == .kwIn && !tok.flags.contains(.newlineBefore) {
            advance()
            range = parseExpression(after: "'in'")
        }
        var defaultValue: NodeRef?
        if tok.kind == .equal && !tok.flags.contains(.newlineBefore) {
            advance()
            defaultValue = parseExpression(after: "'='")
        }
        return b.node(.inputDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(type)
            $0.push(range)
            $0.push(defaultValue)
        }
    }

    /// StateDecl = "state" identifier Block
    private mutating func parseState() -> NodeRef {
        let start = advance().range.start
        let name = self.name(advance())
        let shown = "state '\(spelling(name))'"
        let body = parseBlock(.state, what: shown)
        return b.node(.stateDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(body)
        }
    }

    /// Transition = "on" identifier [ "if" Expr ] "from" identifier { "," identifier } "->" identifier
    ///              [ "with" [ Expr ] Expr [ "," identifier ] ]
    private mutating func parseTransition() -> NodeRef {
        let start = advance().range.start
        let input = self.name(advance())
        let shown = "'on \(spelling(input))'"
        var condition: NodeRef?
        if tok.kind == .kwIf && !tok.flags.contains(.newlineBefore) {
            advance()
            condition = parseExpression(after: "'if'")
        }
        let sources = b.listMark
        if isIdentifier(tok, "from") && !tok.flags.contains(.newlineBefore) {
            advance()
            while let state = parseName(after: "'from' or ','") {
                let node = b.leaf(.identifier, state.range, data: state.name)
                b.addToList(node)
                guard tok.kind == .comma && !tok.flags.contains(.newlineBefore) else { break }
                advance()
            }
        } else {
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'from'", context: "and the states \(shown) leaves",
                                                   found: found, fixIt: nil))
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        // `->` is two tokens with nothing between them.
        guard tok.kind == .minus, peek().kind == .greater, peek().range.start == tok.range.end else {
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'->'", context: "and the state \(shown) goes to",
                                                   found: found, fixIt: nil))
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        advance()
        advance()
        guard let target = parseName(after: "'->'") else {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        // `with 0.3s easeOut`, `with snappy` or `with 0.3s`: a duration and a timing
        // function, either one alone.
        var duration: NodeRef?, timing: NodeRef?
        var interruption: NameRef?
        if isIdentifier(tok, "with") && !tok.flags.contains(.newlineBefore) {
            advance()
            let first = parseExpression(after: "'with'")
            if canStartExpression(tok) && !tok.flags.contains(.newlineBefore) {
                duration = first
                timing = parseExpression(after: "the duration")
            } else {
                timing = first
            }
            // `, reverse`: how the transition meets one still running.
            if tok.kind == .comma && !tok.flags.contains(.newlineBefore) {
                advance()
                interruption = parseName(after: "',' (additive, replace, reverse or finish)")
            }
        }
        return b.node(.transition, SourceRange(start: start, end: previousEnd)) {
            $0.push(input)
            $0.push(condition)
            $0.push(target)
            $0.push(duration)
            $0.push(timing)
            $0.push(interruption)
            $0.pushList(since: sources)
        }
    }

    /// TimingDecl = "timing" identifier "=" Expr
    mutating func parseTimingDecl() -> NodeRef {
        let start = advance().range.start
        guard let name = parseName(after: "'timing'") else {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        guard expect(.equal, "after the name in 'timing \(spelling(name))'") else {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        let value = parseExpression(after: "'='")
        return b.node(.timingDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(value)
        }
    }

    /// ComponentDecl = "component" identifier "(" [ Param { "," Param } [ "," ] ] ")" Block
    /// Param = identifier ":" TypeName [ "=" Expr ]
    mutating func parseComponent() -> NodeRef {
        let start = advance().range.start
        let name = parseName(after: "'component'") ?? self.name("<missing>", .empty(at: previousEnd))
        let params = b.listMark
        if tok.kind == .lParen {
            let open = advance()
            bracketDepth += 1
            while tok.kind != .rParen && !atEOF && tok.kind != .lBrace {
                let before = position
                let pStart = tok.range.start
                guard let pName = parseName(after: "'(' or ','") else { recover(); break }
                var type: NameRef?
                if tok.kind == .colon {
                    advance()
                    type = parseName(after: "':'")
                } else {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "':'",
                                                           context: "and a type after parameter '\(spelling(pName))'",
                                                           found: found))
                }
                var defaultValue: NodeRef?
                if tok.kind == .equal {
                    advance()
                    defaultValue = parseExpression(after: "'='")
                }
                let node = b.node(.parameter, SourceRange(start: pStart, end: previousEnd)) {
                    $0.push(pName)
                    $0.push(type)
                    $0.push(defaultValue)
                }
                b.addToList(node)
                if tok.kind == .comma { advance() } else if tok.kind != .rParen { break }
                if position == before { advance() }
            }
            bracketDepth -= 1
            if tok.kind == .rParen {
                advance()
            } else {
                report(SyntaxDiagnostics.unclosedDelimiter(at: errorRange, closing: .rParen, opened: open.range,
                                                           what: "the parameter list", found: describe(tok),
                                                           insertAt: previousEnd))
                while tok.kind != .lBrace && tok.kind != .rParen && !atEOF && !tok.flags.contains(.newlineBefore) { advance() }
                if tok.kind == .rParen { advance() }
            }
        } else {
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'('", context: "to start the parameters of component '\(spelling(name))'",
                                                   found: found, fixIt: .insert("()", at: previousEnd, "add an empty parameter list")))
        }
        let shown = spelling(name)
        let body = parseBlock(.component, what: "component '\(shown)'")
        return b.node(.component, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(body)
            $0.pushList(since: params)
        }
    }

    /// CompositionDecl = "composition" [ identifier ] Block
    mutating func parseComposition() -> NodeRef {
        let start = advance().range.start
        var name: NameRef?
        if tok.kind == .identifier {
            let t = advance()
            name = self.name(t)
        }
        let body = parseBlock(.composition, what: "the composition")
        return b.node(.composition, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(body)
        }
    }

    /// PathDecl = "path" identifier Block
    mutating func parsePathDecl() -> NodeRef {
        let start = advance().range.start
        let nameToken = advance()
        let name = self.name(nameToken)
        let shown = spelling(name)
        let body = parseBlock(.path, what: "path '\(shown)'")
        return b.node(.pathDecl, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(body)
        }
    }

    /// LayerDecl = [ "mask" ] LayerKind [ identifier [ "[" ExprList "]" ] ] Block
    /// LayerKind = "layer" | "shape" | "image" | "gradient" | "transformLayer" | "replicator"
    mutating func parseLayer(kindOverride: String? = nil) -> NodeRef {
        let start = tok.range.start
        var mask: SourceRange?
        if (contextualWord(tok) == .mask) { mask = advance().range }
        let kindToken = advance()
        let kind = kindOverride.map { self.name($0, kindToken.range) } ?? self.name(kindToken)
        var name: NameRef?
        let indices = b.listMark
        if tok.kind == .identifier {
            let t = advance()
            name = self.name(t)
            // `layer dot[i] { ... }` in a loop: the layer is named dot[0], dot[1], ...
            if tok.kind == .lBracket && tok.flags.contains(.attached) {
                let open = advance()
                parseExpressionList(closing: .rBracket, opened: open.range, what: "the layer's index")
            }
        }
        let kindName = spelling(kind)
        let nameText = name.map { spelling($0) }
        let body = parseBlock(.layer, what: "the body of " + (nameText.map { "\(kindName) '\($0)'" } ?? "the \(kindName)"))
        b.layerDeclarations.count += 1
        if mask != nil { b.layerDeclarations.anyMask = true }
        return b.node(.layer, SourceRange(start: start, end: previousEnd), bits: mask == nil ? 0 : 1) {
            $0.push(kind)
            $0.push(name)
            $0.push(body)
            $0.push(mask?.start ?? 0)
            $0.push(mask?.end ?? 0)
            $0.pushList(since: indices)
        }
    }

    /// Instance = identifier [ "[" Expr { "," Expr } "]" ] "=" Expr
    mutating func parseInstance() -> NodeRef {
        let start = tok.range.start
        let nameToken = advance()
        let name = self.name(nameToken)
        let indices = b.listMark
        if tok.kind == .lBracket {
            let open = advance()
            parseExpressionList(closing: .rBracket, opened: open.range, what: "the instance index")
        }
        guard expect(.equal, "after instance '\(spelling(name))'") else {
            b.truncateList(since: indices, to: 0)
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        let value = parseExpression(after: "'='")
        return b.node(.instance, SourceRange(start: start, end: previousEnd)) {
            $0.push(name)
            $0.push(value)
            $0.pushList(since: indices)
        }
    }

    /// Property = KeyPath ":" Expr
    mutating func parseProperty() -> NodeRef {
        let (key, dotted) = parseKeyPath()
        advance()  // ':' (checked by the caller)
        let value = parseExpression(after: "'\(dotted):'")
        return b.node(.property, key.range.union(SourceRange(start: key.range.start, end: previousEnd))) {
            $0.push(key)
            $0.push(value)
        }
    }

    /// Animation = AnimationKind KeyPath [ "as" identifier ] [ "along" Expr ] Block, where
    /// `motion` may leave out its key path (`position`)
    ///           | "group" [ identifier ] Block
    /// AnimationKind = "basic" | "keyframes" | "motion" | "spring" | "decay"
    mutating func parseAnimation(kindOverride: String? = nil) -> NodeRef {
        let start = tok.range.start
        let kindToken = advance()
        let kind = kindOverride.map { self.name($0, kindToken.range) } ?? self.name(kindToken)
        let kindName = spelling(kind)
        var target: (NodeRef, String)?
        var alias: NameRef?
        var along: NodeRef?
        let body: NodeRef
        let indices = b.listMark
        /// `as fade[c]`, `group g[i]`: named per iteration of a loop, as layers are.
        func parseIndices() {
            if tok.kind == .lBracket && tok.flags.contains(.attached) {
                let open = advance()
                parseExpressionList(closing: .rBracket, opened: open.range, what: "the animation's index")
            }
        }
        if kindName == ContextualKeywords.group {
            if tok.kind == .identifier {
                let t = advance()
                alias = self.name(t)
                parseIndices()
            }
            let aliasText = alias.map { "'\(spelling($0))'" } ?? ""
            body = parseBlock(.group, what: "group \(aliasText)".trimmedTrailingSpace)
        } else {
            let word = contextualWord(tok)
            if word == .alias || word == .along || tok.kind == .lBrace {
                if kindName == "motion" {
                    // A motion along a path moves `position` unless it says otherwise, as
                    // nearly every CAKeyframeAnimation with a path does.
                    let implied = name("position", .empty(at: tok.range.start))
                    target = (b.leaf(.keyPath, implied.range, bits: SyntaxArena.singleNameKeyPath, data: implied.name), "position")
                } else {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "the key path it animates", context: "after '\(kindName)'",
                                                           found: found))
                }
            } else {
                target = parseKeyPath()
            }
            if (contextualWord(tok) == .alias) && !tok.flags.contains(.newlineBefore) {
                advance()
                alias = parseName(after: "'as'")
                if alias != nil { parseIndices() }
            }
            if (contextualWord(tok) == .along) && !tok.flags.contains(.newlineBefore) {
                advance()
                along = parseExpression(after: "'along'")
            }
            let shown = alias.map { spelling($0) } ?? target?.1 ?? kindName
            body = parseBlock(.animation(kind: kindName), what: "\(kindName) '\(shown)'")
        }
        return b.node(.animation, SourceRange(start: start, end: previousEnd)) {
            $0.push(kind)
            $0.push(target?.0)
            $0.push(alias)
            $0.push(along)
            $0.push(body)
            $0.pushList(since: indices)
        }
    }

    /// Keyframe = Expr "=" Expr [ "~" Expr ]
    mutating func parseKeyframe() -> NodeRef {
        let start = tok.range.start
        let time = parseExpression()
        if b.tag(time.id) == .errorExpr {
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        guard tok.kind == .equal else {
            report(SyntaxDiagnostics.expectedToken(
                errorRange, expected: "'='", context: "after the key time of a keyframe row", found: found,
                fixIt: tok.flags.contains(.newlineBefore) ? nil : .insert(" =", at: previousEnd, "insert '='")))
            recover()
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        advance()
        let value = parseExpression(after: "'='")
        var timing: NodeRef?
        if tok.kind == .tilde && !tok.flags.contains(.newlineBefore) {
            advance()
            timing = parseExpression(after: "'~'")
        }
        return b.node(.keyframe, SourceRange(start: start, end: previousEnd)) {
            $0.push(time)
            $0.push(value)
            $0.push(timing)
        }
    }

    /// ForLoop = "for" Binding { "," Binding } Block
    /// Binding = identifier "in" Expr
    mutating func parseFor(_ context: BlockContext) -> NodeRef {
        let start = advance().range.start
        let bindings = b.listMark
        repeat {
            if tok.kind == .comma { advance() }
            let bStart = tok.range.start
            let first = b.listCount(since: bindings) == 0
            guard let name = parseName(after: first ? "'for'" : "','") else { recover(); break }
            guard expect(.kwIn, "after the loop variable '\(spelling(name))'") else { recover(); break }
            let sequence = parseExpression(after: "'in'")
            let node = b.node(.loopBinding, SourceRange(start: bStart, end: previousEnd)) {
                $0.push(name)
                $0.push(sequence)
            }
            b.addToList(node)
        } while tok.kind == .comma
        guard b.listCount(since: bindings) > 0 || tok.kind == .lBrace else {
            return errorItem(SourceRange(start: start, end: previousEnd))
        }
        let body = parseBlock(context, what: "the 'for' loop")
        return b.node(.forLoop, SourceRange(start: start, end: previousEnd)) {
            $0.push(body)
            $0.pushList(since: bindings)
        }
    }

    /// IfItem = "if" Expr Block [ "else" ( IfItem | Block ) ]
    ///
    /// An `if` nests one level through its block. An `else if` has no block of its own
    /// around it, so it takes one level itself: a long chain is nested in the tree and
    /// must stay within ``Parser/maxDepth`` too.
    mutating func parseIf(_ context: BlockContext) -> NodeRef {
        let start = advance().range.start
        let condition = parseExpression(after: "'if'")
        let then = parseBlock(context, what: "the 'if' block")
        var otherwise: NodeRef?
        if tok.kind == .kwElse {
            advance()
            if tok.kind == .kwIf {
                guard enter() else {
                    // Skip the rest of the chain: every `else if { }` and `else { }`.
                    while tok.kind == .kwIf || tok.kind == .kwElse || tok.kind == .lBrace {
                        if tok.kind == .lBrace { skipBalanced() } else { advance(); if tok.kind != .lBrace { recoverToBrace() } }
                    }
                    return errorItem(SourceRange(start: start, end: previousEnd))
                }
                defer { leave() }
                let nested = parseIf(context)
                let mark = b.listMark
                b.addToList(nested)
                otherwise = block(since: mark, nested.range, closed: true)
            } else {
                otherwise = parseBlock(context, what: "the 'else' block")
            }
        }
        return b.node(.ifItem, SourceRange(start: start, end: previousEnd)) {
            $0.push(condition)
            $0.push(then)
            $0.push(otherwise)
        }
    }

    /// At an identifier in a path block: whether a Swift method call starts here
    /// (`path.move(to: p)`, `path.close()`), which `.anim`'s commands never are.
    private var startsSwiftPathCall: Bool {
        peek().kind == .dot && peek(2).kind == .identifier && peek(3).kind == .lParen && peek(3).flags.contains(.attached)
    }

    /// A line of pasted path building, `[path moveToPoint:p]` or `path.move(to: p)`:
    /// the whole statement as one expression, kept as a path command named
    /// ``ContextualKeywords/pastedPathStatement`` so the checker can give the `.anim`
    /// command it stands for.
    mutating func parsePastedPathStatement() -> NodeRef {
        let start = tok.range.start
        let statement = parseExpression()
        let range = SourceRange(start: start, end: previousEnd)
        let name = self.name(ContextualKeywords.pastedPathStatement, SourceRange(start: start, end: start))
        let arguments = b.listMark
        b.addToList(statement)
        return b.node(.pathCommand, range) {
            $0.push(name)
            $0.pushList(since: arguments)
        }
    }

    /// PathCommand = identifier ( "(" [ Arguments ] ")" | [ Expr ] { identifier ":" Expr [ "," ] } )
    mutating func parsePathCommand() -> NodeRef {
        if tok.kind == .lBracket || startsSwiftPathCall { return parsePastedPathStatement() }
        let nameToken = advance()
        let name = self.name(nameToken)
        let arguments = b.listMark
        if tok.kind == .lParen && tok.flags.contains(.attached) {
            let open = advance()
            parseArguments(opened: open.range, callee: spelling(name))
        } else {
            func atEnd(_ p: Parser) -> Bool {
                let t = p.tok
                return t.kind == .eof || t.kind == .rBrace || t.kind == .semicolon || t.flags.contains(.newlineBefore)
            }
            if !atEnd(self) && !(tok.kind == .identifier && peek().kind == .colon) {
                // An argument without a label is its value.
                b.addToList(parseExpression())
            }
            while !atEnd(self) {
                if tok.kind == .comma { advance(); continue }
                guard tok.kind == .identifier && peek().kind == .colon else { break }
                let labelToken = advance()
                advance()
                let source = file
                let value = parseExpression(after: "'\(source.text(labelToken.range)):'")
                let label = self.name(labelToken)
                let node = b.node(.argument, labelToken.range.union(value.range)) {
                    $0.push(label)
                    $0.push(value)
                }
                b.addToList(node)
            }
        }
        return b.node(.pathCommand, SourceRange(start: name.range.start, end: previousEnd)) {
            $0.push(name)
            $0.pushList(since: arguments)
        }
    }
}

extension String {
    var trimmedTrailingSpace: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
