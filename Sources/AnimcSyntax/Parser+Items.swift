import AnimcBase
import AnimcDiagnostics

extension Parser {
    /// Item = LetDecl | TimingDecl | ComponentDecl | CompositionDecl | PathDecl
    ///      | LayerDecl | Instance | Property | Animation | Keyframe | ForLoop | IfItem
    ///      | PathCommand
    mutating func parseItem(_ context: BlockContext) -> Item {
        let start = tok.range.start
        let item = parseItemKind(context)
        return Item(kind: item.kind, range: SourceRange(start: start, end: max(start, previousEnd)))
    }

    private mutating func parseItemKind(_ context: BlockContext) -> Item {
        let t = tok
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
            if context == .path { return parsePathCommand() }
            return parseIdentifierItem(context)
        default:
            if case .animation = context, canStartExpression(t), t.kind != .lBrace {
                return parseKeyframe()
            }
            // `0.5 = 1` outside a keyframes block: parse the row, then say where it belongs.
            if t.kind == .number || t.kind == .lParen || t.kind == .minus {
                let item = parseKeyframe()
                if case .keyframe = item.kind {
                    report(SyntaxDiagnostics.misplacedItem(item.range, item: "a keyframe row", block: context.name,
                                                           hint: "keyframe rows belong inside a 'keyframes' animation"))
                }
                return item
            }
            report(SyntaxDiagnostics.expectedItem(t.range, found: describe(t), context: context.expectation))
            recover()
            return Item(kind: .error, range: t.range)
        }
    }

    /// Reports `item` as misplaced (once) when `allowed` is false, but keeps it in the tree.
    private mutating func allow(_ item: Item, _ what: String, in context: BlockContext, where allowed: Bool,
                                hint: String? = nil) -> Item {
        if !allowed {
            report(SyntaxDiagnostics.misplacedItem(item.range, item: what, block: context.name, hint: hint))
        }
        return item
    }

    /// Dispatch on an item that starts with an identifier: a property, a layer, an
    /// animation, an instance, a keyframe row or a path declaration.
    private mutating func parseIdentifierItem(_ context: BlockContext) -> Item {
        let t = tok
        let word = contextualWord(t)
        let next = peek()
        let nextWord = next.kind == .identifier ? contextualWord(next) : .none
        let inAnimation: Bool
        if case .animation = context { inAnimation = true } else { inAnimation = false }

        if next.kind == .colon || (next.kind == .dot && isDottedKeyPathFollowedByColon()) {
            let item = parseProperty()
            if context == .file || context == .component {
                report(SyntaxDiagnostics.misplacedItem(
                    item.range, item: "a property", block: context.name,
                    hint: context == .file ? "properties belong inside a layer or composition block" : "put properties inside the root layer"))
            } else if context == .path {
                report(SyntaxDiagnostics.misplacedItem(item.range, item: "a property", block: context.name, hint: nil))
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
                report(SyntaxDiagnostics.misplacedItem(
                    item.range, item: "an animation", block: context.name,
                    hint: context == .file ? "animations are attached to a layer: put this inside one" : nil))
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
            return Item(kind: .error, range: t.range)
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
            let key = parseKeyPath()
            report(SyntaxDiagnostics.expectedToken(
                .empty(at: key.range.end), expected: "':'", context: "after '\(key.dotted)'", found: found,
                fixIt: .insert(":", at: key.range.end, "insert ':'")))
            let value = parseExpression()
            return Item(kind: .property(key: key, value: value), range: key.range.union(value.range))
        }
        report(SyntaxDiagnostics.expectedItem(t.range, found: describe(t), context: context.expectation))
        recover()
        return Item(kind: .error, range: t.range)
    }

    private mutating func checkLayerPlacement(_ item: Item, _ context: BlockContext) -> Item {
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

    private func isDottedKeyPathFollowedByColon() -> Bool {
        var k = pos
        while true {
            guard tokens[k].kind == .identifier else { return false }
            let next = tokens[min(k + 1, tokens.count - 1)]
            if next.kind == .colon { return true }
            guard next.kind == .dot else { return false }
            k += 2
            if k >= tokens.count { return false }
        }
    }

    /// KeyPath = identifier { "." identifier }
    mutating func parseKeyPath() -> KeyPathSyntax {
        var components = [Identifier(text(tok), tok.range)]
        advance()
        while tok.kind == .dot && peek().kind == .identifier && !tok.flags.contains(.newlineBefore) {
            advance()
            components.append(Identifier(text(tok), tok.range))
            advance()
        }
        let range = components[0].range.union(components[components.count - 1].range)
        return KeyPathSyntax(components: components, range: range)
    }

    /// Name = identifier — reports `expected a name after <after>` when missing.
    private mutating func parseName(after: String) -> Identifier? {
        if tok.kind == .identifier {
            let t = advance()
            return Identifier(text(t), t.range)
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
    mutating func parseLet() -> Item {
        let start = advance().range.start
        guard let name = parseName(after: "'let'") else {
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        var type: Identifier?
        if tok.kind == .colon {
            advance()
            type = parseName(after: "':' in a 'let'")
        }
        guard expect(.equal, "after the name in 'let \(name.name)'") else {
            recover()
            return Item(kind: .letDecl(name: name, type: type, value: Expr(.error, .empty(at: previousEnd))),
                        range: SourceRange(start: start, end: previousEnd))
        }
        let value = parseExpression(after: "'='")
        return Item(kind: .letDecl(name: name, type: type, value: value), range: SourceRange(start: start, end: previousEnd))
    }

    /// TimingDecl = "timing" identifier "=" Expr
    mutating func parseTimingDecl() -> Item {
        let start = advance().range.start
        guard let name = parseName(after: "'timing'") else {
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        guard expect(.equal, "after the name in 'timing \(name.name)'") else {
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        let value = parseExpression(after: "'='")
        return Item(kind: .timingDecl(name: name, value: value), range: SourceRange(start: start, end: previousEnd))
    }

    /// ComponentDecl = "component" identifier "(" [ Param { "," Param } [ "," ] ] ")" Block
    /// Param = identifier ":" TypeName [ "=" Expr ]
    mutating func parseComponent() -> Item {
        let start = advance().range.start
        let name = parseName(after: "'component'") ?? Identifier("<missing>", .empty(at: previousEnd))
        var params: [Parameter] = []
        if tok.kind == .lParen {
            let open = advance()
            bracketDepth += 1
            while tok.kind != .rParen && !atEOF && tok.kind != .lBrace {
                let before = pos
                let pStart = tok.range.start
                guard let pName = parseName(after: "'(' or ','") else { recover(); break }
                var type: Identifier?
                if tok.kind == .colon {
                    advance()
                    type = parseName(after: "':'")
                } else {
                    report(SyntaxDiagnostics.expectedToken(errorRange, expected: "':'",
                                                           context: "and a type after parameter '\(pName.name)'",
                                                           found: found))
                }
                var defaultValue: Expr?
                if tok.kind == .equal {
                    advance()
                    defaultValue = parseExpression(after: "'='")
                }
                params.append(Parameter(name: pName, type: type, defaultValue: defaultValue,
                                        range: SourceRange(start: pStart, end: previousEnd)))
                if tok.kind == .comma { advance() } else if tok.kind != .rParen { break }
                if pos == before { advance() }
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
            report(SyntaxDiagnostics.expectedToken(errorRange, expected: "'('", context: "to start the parameters of component '\(name.name)'",
                                                   found: found, fixIt: .insert("()", at: previousEnd, "add an empty parameter list")))
        }
        let body = parseBlock(.component, what: "component '\(name.name)'")
        return Item(kind: .component(name: name, params: params, body: body), range: SourceRange(start: start, end: previousEnd))
    }

    /// CompositionDecl = "composition" [ identifier ] Block
    mutating func parseComposition() -> Item {
        let start = advance().range.start
        var name: Identifier?
        if tok.kind == .identifier {
            let t = advance()
            name = Identifier(text(t), t.range)
        }
        let body = parseBlock(.composition, what: "the composition")
        return Item(kind: .composition(name: name, body: body), range: SourceRange(start: start, end: previousEnd))
    }

    /// PathDecl = "path" identifier Block
    mutating func parsePathDecl() -> Item {
        let start = advance().range.start
        let nameToken = advance()
        let name = Identifier(text(nameToken), nameToken.range)
        let body = parseBlock(.path, what: "path '\(name.name)'")
        return Item(kind: .pathDecl(name: name, body: body), range: SourceRange(start: start, end: previousEnd))
    }

    /// LayerDecl = [ "mask" ] LayerKind [ identifier [ "[" ExprList "]" ] ] Block
    /// LayerKind = "layer" | "shape" | "image" | "gradient" | "transformLayer"
    mutating func parseLayer(kindOverride: String? = nil) -> Item {
        let start = tok.range.start
        var mask: SourceRange?
        if (contextualWord(tok) == .mask) { mask = advance().range }
        let kindToken = advance()
        let kind = Identifier(kindOverride ?? text(kindToken), kindToken.range)
        var name: Identifier?
        var indices: [Expr] = []
        if tok.kind == .identifier {
            let t = advance()
            name = Identifier(text(t), t.range)
            // `layer dot[i] { ... }` in a loop: the layer is named dot[0], dot[1], ...
            if tok.kind == .lBracket && tok.flags.contains(.attached) {
                let open = advance()
                indices = parseExpressionList(closing: .rBracket, opened: open.range, what: "the layer's index")
            }
        }
        let body = parseBlock(.layer, what: "the body of " + (name.map { "\(kind.name) '\($0.name)'" } ?? "the \(kind.name)"))
        return Item(kind: .layer(mask: mask, kind: kind, name: name, indices: indices, body: body),
                    range: SourceRange(start: start, end: previousEnd))
    }

    /// Instance = identifier [ "[" Expr { "," Expr } "]" ] "=" Expr
    mutating func parseInstance() -> Item {
        let start = tok.range.start
        let nameToken = advance()
        let name = Identifier(text(nameToken), nameToken.range)
        var indices: [Expr] = []
        if tok.kind == .lBracket {
            let open = advance()
            indices = parseExpressionList(closing: .rBracket, opened: open.range, what: "the instance index")
        }
        guard expect(.equal, "after instance '\(name.name)'") else {
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        let value = parseExpression(after: "'='")
        return Item(kind: .instance(name: name, indices: indices, value: value), range: SourceRange(start: start, end: previousEnd))
    }

    /// Property = KeyPath ":" Expr
    mutating func parseProperty() -> Item {
        let key = parseKeyPath()
        advance()  // ':' (checked by the caller)
        let value = parseExpression(after: "'\(key.dotted):'")
        return Item(kind: .property(key: key, value: value), range: key.range.union(SourceRange(start: key.range.start, end: previousEnd)))
    }

    /// Animation = AnimationKind KeyPath [ "as" identifier ] [ "along" Expr ] Block
    ///           | "group" [ identifier ] Block
    /// AnimationKind = "basic" | "keyframes" | "motion" | "spring" | "decay"
    mutating func parseAnimation(kindOverride: String? = nil) -> Item {
        let start = tok.range.start
        let kindToken = advance()
        let kind = Identifier(kindOverride ?? text(kindToken), kindToken.range)
        var target: KeyPathSyntax?
        var alias: Identifier?
        var along: Expr?
        if kind.name == ContextualKeywords.group {
            if tok.kind == .identifier {
                let t = advance()
                alias = Identifier(text(t), t.range)
            }
            let body = parseBlock(.group, what: "group \(alias.map { "'\($0.name)'" } ?? "")".trimmedTrailingSpace)
            return Item(kind: .animation(kind: kind, target: nil, alias: alias, along: nil, body: body),
                        range: SourceRange(start: start, end: previousEnd))
        }
        target = parseKeyPath()
        if (contextualWord(tok) == .alias) && !tok.flags.contains(.newlineBefore) {
            advance()
            alias = parseName(after: "'as'")
        }
        if (contextualWord(tok) == .along) && !tok.flags.contains(.newlineBefore) {
            advance()
            along = parseExpression(after: "'along'")
        }
        let body = parseBlock(.animation(kind: kind.name), what: "\(kind.name) '\(alias?.name ?? target?.dotted ?? kind.name)'")
        return Item(kind: .animation(kind: kind, target: target, alias: alias, along: along, body: body),
                    range: SourceRange(start: start, end: previousEnd))
    }

    /// Keyframe = Expr "=" Expr [ "~" Expr ]
    mutating func parseKeyframe() -> Item {
        let start = tok.range.start
        let time = parseExpression()
        if case .error = time.kind {
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        guard tok.kind == .equal else {
            report(SyntaxDiagnostics.expectedToken(
                errorRange, expected: "'='", context: "after the key time of a keyframe row", found: found,
                fixIt: tok.flags.contains(.newlineBefore) ? nil : .insert(" =", at: previousEnd, "insert '='")))
            recover()
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        advance()
        let value = parseExpression(after: "'='")
        var timing: Expr?
        if tok.kind == .tilde && !tok.flags.contains(.newlineBefore) {
            advance()
            timing = parseExpression(after: "'~'")
        }
        return Item(kind: .keyframe(time: time, value: value, timing: timing), range: SourceRange(start: start, end: previousEnd))
    }

    /// ForLoop = "for" Binding { "," Binding } Block
    /// Binding = identifier "in" Expr
    mutating func parseFor(_ context: BlockContext) -> Item {
        let start = advance().range.start
        var bindings: [LoopBinding] = []
        repeat {
            if tok.kind == .comma { advance() }
            let bStart = tok.range.start
            guard let name = parseName(after: bindings.isEmpty ? "'for'" : "','") else { recover(); break }
            guard expect(.kwIn, "after the loop variable '\(name.name)'") else { recover(); break }
            let sequence = parseExpression(after: "'in'")
            bindings.append(LoopBinding(name: name, sequence: sequence, range: SourceRange(start: bStart, end: previousEnd)))
        } while tok.kind == .comma
        guard !bindings.isEmpty || tok.kind == .lBrace else {
            return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
        }
        let body = parseBlock(context, what: "the 'for' loop")
        return Item(kind: .forLoop(bindings: bindings, body: body), range: SourceRange(start: start, end: previousEnd))
    }

    /// IfItem = "if" Expr Block [ "else" ( IfItem | Block ) ]
    ///
    /// An `if` nests one level through its block. An `else if` has no block of its own
    /// around it, so it takes one level itself: a long chain is nested in the tree and
    /// must stay within ``Parser/maxDepth`` too.
    mutating func parseIf(_ context: BlockContext) -> Item {
        let start = advance().range.start
        let condition = parseExpression(after: "'if'")
        let then = parseBlock(context, what: "the 'if' block")
        var otherwise: Block?
        if tok.kind == .kwElse {
            advance()
            if tok.kind == .kwIf {
                guard enter() else {
                    // Skip the rest of the chain: every `else if { }` and `else { }`.
                    while tok.kind == .kwIf || tok.kind == .kwElse || tok.kind == .lBrace {
                        if tok.kind == .lBrace { skipBalanced() } else { advance(); if tok.kind != .lBrace { recoverToBrace() } }
                    }
                    return Item(kind: .error, range: SourceRange(start: start, end: previousEnd))
                }
                defer { leave() }
                let nested = parseIf(context)
                otherwise = Block(items: [nested], range: nested.range, closed: true)
            } else {
                otherwise = parseBlock(context, what: "the 'else' block")
            }
        }
        return Item(kind: .ifItem(condition: condition, then: then, otherwise: otherwise), range: SourceRange(start: start, end: previousEnd))
    }

    /// PathCommand = identifier ( "(" [ Arguments ] ")" | [ Expr ] { identifier ":" Expr [ "," ] } )
    mutating func parsePathCommand() -> Item {
        let nameToken = advance()
        let name = Identifier(text(nameToken), nameToken.range)
        var arguments: [Argument] = []
        if tok.kind == .lParen && tok.flags.contains(.attached) {
            let open = advance()
            arguments = parseArguments(opened: open.range, callee: name.name)
        } else {
            func atEnd(_ p: Parser) -> Bool {
                let t = p.tok
                return t.kind == .eof || t.kind == .rBrace || t.kind == .semicolon || t.flags.contains(.newlineBefore)
            }
            if !atEnd(self) && !(tok.kind == .identifier && peek().kind == .colon) {
                let value = parseExpression()
                arguments.append(Argument(label: nil, value: value, range: value.range))
            }
            while !atEnd(self) {
                if tok.kind == .comma { advance(); continue }
                guard tok.kind == .identifier && peek().kind == .colon else { break }
                let labelToken = advance()
                advance()
                let source = file
                let value = parseExpression(after: "'\(source.text(labelToken.range)):'")
                arguments.append(Argument(label: Identifier(text(labelToken), labelToken.range), value: value,
                                          range: labelToken.range.union(value.range)))
            }
        }
        return Item(kind: .pathCommand(name: name, arguments: arguments), range: SourceRange(start: name.range.start, end: previousEnd))
    }
}

extension String {
    var trimmedTrailingSpace: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
