import AnimcBase
import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// The token types the server classifies, in legend order.
enum SemanticTokenType: Int, CaseIterable {
    case keyword, number, string, comment, variable, function, property, type, `operator`, parameter, enumMember, macro

    var name: String { self == .operator ? "operator" : "\(self)" }
}

extension LanguageServer {
    // MARK: Diagnostics

    func publishDiagnostics(_ doc: Document) -> JSONValue {
        let a = doc.analysis(encoding)
        let items = a.result.diagnostics.map { lspDiagnostic($0, a, uri: doc.uri) }
        return JSONRPC.notification("textDocument/publishDiagnostics",
                                    obj(("uri", .string(doc.uri)), ("version", .number(Double(doc.version))), ("diagnostics", .array(items))))
    }

    func lspDiagnostic(_ d: Diagnostic, _ a: Analysis, uri: String) -> JSONValue {
        var message = d.message
        if let label = d.primary.message { message += ": " + label }
        if let help = d.help { message += "\nhelp: " + help }
        var related: [JSONValue] = d.secondary.map {
            obj(("location", obj(("uri", .string(uri)), ("range", a.positions.json($0.range)))), ("message", .string($0.message ?? "")))
        }
        for note in d.notes {
            if let r = note.range {
                related.append(obj(("location", obj(("uri", .string(uri)), ("range", a.positions.json(r)))), ("message", .string(note.message))))
            } else {
                message += "\nnote: " + note.message
            }
        }
        let unnecessary: Set<String> = ["W0310", "W0511"]
        return obj(
            ("range", a.positions.json(d.range)),
            ("severity", .number(d.severity == .error ? 1 : 2)),
            ("code", .string(d.code.rawValue)),
            ("source", "animc"),
            ("message", .string(message)),
            ("tags", unnecessary.contains(d.code.rawValue) ? [1] : nil),
            ("relatedInformation", related.isEmpty ? nil : .array(related)),
            ("data", d.fixIts.isEmpty ? nil : obj(("fixes", .number(Double(d.fixIts.count))))))
    }

    // MARK: Hover

    func hover(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        let at = try offset(params, a)
        guard let (text, range) = hoverText(at: UInt32(at), a) else { return .null }
        return obj(("contents", obj(("kind", "markdown"), ("value", .string(text)))), ("range", a.positions.json(range)))
    }

    func hoverText(at offset: UInt32, _ a: Analysis) -> (String, SourceRange)? {
        let tree = a.result.tree
        // A name: its declaration, kind and folded value.
        if let d = a.names.declaration(at: offset) {
            let decl = a.names.declarations[d]
            let range = a.names.references.first { $0.range.start <= offset && offset <= $0.range.end }?.range ?? decl.range
            var text = "```anim\n\(decl.kind.noun) \(decl.name)\n```"
            if let value = a.folded[decl.range.start] { text += "\n\n= `\(value)`" }
            if decl.kind == .animation || decl.kind == .layer, let item = item(at: decl.range.start, in: tree) {
                if let more = animationHover(item, a) { text += "\n\n" + more }
            }
            return (text, range)
        }
        guard let item = item(at: offset, in: tree) else { return nil }
        switch tree[item] {
        case .property(let key, _) where key.range.contains(offset) || key.range.end == offset:
            return (propertyHover(key.dotted, item, a), key.range)
        case .animation(let kind, let target, _, _, _):
            let head = target?.range.union(kind.range) ?? kind.range
            guard head.contains(offset) || head.end == offset, let text = animationHover(item, a) else { break }
            return (text, head)
        default:
            break
        }
        // A built-in timing function name.
        if let token = a.lexTokens().first(where: { $0.range.start <= offset && offset <= $0.range.end && $0.kind == .identifier }) {
            let name = a.file.text(token.range)
            if let t = LanguageFacts.timingFunction(named: name) {
                return ("```anim\ntiming \(LanguageFacts.describe(t))\n```\nCore Animation's `\(name)` curve.", token.range)
            }
        }
        return nil
    }

    func propertyHover(_ name: String, _ item: Item, _ a: Analysis) -> String {
        guard let id = PropertyID(rawValue: name), let info = PropertyTable.properties.first(where: { $0.id == id }) else {
            return "`\(name)`: not a layer property"
        }
        var text = "```anim\n\(name): \(info.type)\n```\n\(info.summary).\n\ndefault: `\(IRDump.value(info.defaultValue))`"
        if let lo = info.minimum { text += ", at least \(formatNumber(lo))" }
        if let hi = info.maximum { text += ", at most \(formatNumber(hi))" }
        if let kinds = info.kinds { text += "\n\nonly on " + kinds.map(\.rawValue).sorted().joined(separator: ", ") + " layers" }
        if let c = a.result.composition ?? a.result.partialComposition {
            let values = c.layers.flatMap(\.properties).filter { $0.range == item.range }.map { IRDump.value($0.value) }
            if let first = values.first {
                text += "\n\nvalue: `\(first)`" + (Set(values).count > 1 ? " (and \(values.count - 1) more instances)" : "")
            }
        }
        return text
    }

    /// The interval on the composition's timeline where the animation (every
    /// expansion of it) is active, after its layers' and groups' timing.
    func animationHover(_ item: Item, _ a: Analysis) -> String? {
        let tree = a.result.tree
        guard case .animation(let kind, let target, _, _, _) = tree[item] else { return nil }
        let title = "```anim\n\(kind.name)\(target.map { " " + $0.dotted } ?? "")\n```"
        // While the file has errors, what could be lowered still has its timing.
        guard let c = a.result.composition ?? a.result.partialComposition else { return title }
        var lines: [String] = []
        for layer in c.layers.indices {
            guard let map = layerMap(layer, c) else { continue }
            collect(c.layers[layer].animations, map: map, range: item.range, layer: c.layers[layer].id, into: &lines)
        }
        guard !lines.isEmpty else { return title }
        let shown = lines.prefix(8)
        return title + "\n\n" + shown.joined(separator: "\n\n") + (lines.count > 8 ? "\n\n… and \(lines.count - 8) more" : "")
    }

    /// A layer's time on the composition's timeline: its own map, then each parent's.
    private func layerMap(_ index: Int, _ c: Composition) -> TimeMap? {
        var composed = TimeMap.identity
        var i: Int? = index
        var steps = 0
        while let current = i, steps < c.layers.count {
            guard let m = TimeMap(layer: c.layers[current].timing) else { return nil }
            composed = m.after(composed)
            i = c.layers[current].parent
            steps += 1
        }
        return composed
    }

    private func collect(_ animations: [Animation], map: TimeMap, range: SourceRange, layer: String, into lines: inout [String]) {
        for anim in animations {
            if anim.range == range { lines.append(describe(anim, map: map, layer: layer)) }
            if case .group(let children) = anim.kind, let inner = TimeMap(group: anim.timing), anim.timing.repeatCount == 0,
               anim.timing.repeatDuration == 0, !anim.timing.autoreverses {
                collect(children, map: map.after(inner), range: range, layer: layer, into: &lines)
            } else if case .group(let children) = anim.kind, children.contains(where: { $0.range == range }) {
                lines.append("on `\(layer)`: inside group `\(anim.name)`, whose timing repeats or curves: see the group")
            }
        }
    }

    private func describe(_ anim: Animation, map: TimeMap, layer: String) -> String {
        let span = anim.timing.activeSpan
        let start = map.apply(span.start), end = map.apply(span.end)
        func t(_ x: Double) -> String { x.isInfinite ? (x > 0 ? "∞" : "−∞") : formatNumber(x) + " s" }
        var parts = ["on `\(layer)`: plays \(t(min(start, end))) → \(t(max(start, end)))"]
        let timing = anim.timing
        if timing.repeatCount > 0 || timing.repeatDuration > 0 {
            let cycle = (timing.autoreverses ? 2 : 1) * timing.duration / abs(timing.speed) * abs(map.scale)
            parts.append("repeats every \(t(cycle))")
        }
        if timing.fillsBeforeInParent { parts.append("fills backwards (shows its first value before it starts)") }
        if timing.fillsAfterInParent(kept: !timing.removedOnCompletion) { parts.append("holds its last value after") }
        return parts.joined(separator: ", ")
    }

    // MARK: Completion

    func completion(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        let at = UInt32(try offset(params, a))
        var items: [JSONValue] = []
        func add(_ label: String, kind: Int, detail: String? = nil, insert: String? = nil, snippet: Bool = false) {
            items.append(obj(("label", .string(label)), ("kind", .number(Double(kind))), ("detail", detail.map(JSONValue.string)),
                             ("insertText", insert.map(JSONValue.string)), ("insertTextFormat", snippet ? 2 : nil)))
        }
        let context = blockContext(at: at, in: a.result.tree)
        let lineStart = a.positions.lineStarts[a.positions.line(of: Int(at))]
        let before = String(decoding: a.file.bytes[lineStart..<Int(at)], as: UTF8.self)
        let inValue = before.contains(":") || before.contains("=")
        if inValue {
            for d in a.names.declarations where d.range.end <= at && [.constant, .timing, .path, .parameter, .loopVariable].contains(d.kind) {
                add(d.name, kind: d.kind == .timing ? 3 : 21, detail: a.folded[d.range.start] ?? d.kind.noun)
            }
            for name in LanguageFacts.timingFunctionNames {
                add(name, kind: 3, detail: LanguageFacts.timingFunction(named: name).map(LanguageFacts.describe))
            }
            return .array(items)
        }
        switch context {
        case .animation(let kind):
            for name in LanguageFacts.attributes(ofAnimationKind: kind) { add(name, kind: 10, insert: name + ": ") }
        case .layer(let kind):
            let layerKind = LayerKind(rawValue: kind) ?? .layer
            for p in PropertyTable.properties where p.applies(to: layerKind) {
                add(p.id.rawValue, kind: 10, detail: "\(p.type) — \(p.summary)", insert: p.id.rawValue + ": ")
            }
            for k in LanguageFacts.animationKinds {
                add(k, kind: 14, detail: "\(k) animation", insert: "\(k) ${1:keyPath} {\n\t$0\n}", snippet: true)
            }
            for k in LanguageFacts.layerKinds { add(k, kind: 14, detail: "sublayer", insert: "\(k) ${1:name} {\n\t$0\n}", snippet: true) }
            for d in a.names.declarations where d.kind == .component {
                add(d.name, kind: 7, detail: "component", insert: "${1:name} = \(d.name)($0)", snippet: true)
            }
        case .top:
            add("composition", kind: 14, insert: "composition ${1:Name} {\n\tsize: ${2:375} x ${3:667}\n}", snippet: true)
            for k in LanguageFacts.layerKinds { add(k, kind: 14, detail: "layer", insert: "\(k) ${1:name} {\n\t$0\n}", snippet: true) }
            add("let", kind: 14, insert: "let ${1:name} = $0", snippet: true)
            add("timing", kind: 14, insert: "timing ${1:name} = cubic(${2:0.25}, ${3:0.1}, ${4:0.25}, ${5:1})", snippet: true)
            add("component", kind: 14, insert: "component ${1:Name}(${2}) {\n\tlayer {\n\t\t$0\n\t}\n}", snippet: true)
            add("path", kind: 14, insert: "path ${1:name} {\n\tmove (${2:0}, ${3:0})\n\t$0\n}", snippet: true)
        case .composition:
            for name in ["size", "fps", "window", "backgroundColor"] { add(name, kind: 10, insert: name + ": ") }
        }
        for k in ["for", "if"] { add(k, kind: 14) }
        return .array(items)
    }

    enum BlockContext { case top, composition, layer(String), animation(String) }

    func blockContext(at offset: UInt32, in tree: SyntaxTree) -> BlockContext {
        var context = BlockContext.top
        var block = tree.root
        var depth = 0
        outer: while depth < 512 {
            depth += 1
            for item in tree[block.items] where item.range.start < offset && offset <= item.range.end {
                switch tree[item] {
                case .composition(_, let body) where body.range.start < offset:
                    return .composition
                case .layer(_, let kind, _, _, let body) where body.range.start < offset:
                    context = .layer(kind.name); block = body; continue outer
                case .animation(let kind, _, _, _, let body) where body.range.start < offset:
                    context = .animation(kind.name); block = body; continue outer
                case .forLoop(_, let body) where body.range.start < offset:
                    block = body; continue outer
                case .ifItem(_, let then, let otherwise):
                    if then.range.start < offset && offset <= then.range.end { block = then; continue outer }
                    if let o = otherwise, o.range.start < offset && offset <= o.range.end { block = o; continue outer }
                case .component(_, _, let body) where body.range.start < offset:
                    block = body; continue outer
                default:
                    break
                }
            }
            break
        }
        return context
    }

    /// The innermost item containing `offset` (blocks are searched through).
    func item(at offset: UInt32, in tree: SyntaxTree) -> Item? {
        var best: Item?
        var blocks = [tree.root]
        var visited = 0
        while let block = blocks.popLast(), visited < 1_000_000 {
            visited += 1
            for item in tree[block.items] where item.range.start <= offset && offset <= item.range.end {
                best = item
                switch tree[item] {
                case .composition(_, let b), .component(_, _, let b), .pathDecl(_, let b), .layer(_, _, _, _, let b),
                     .animation(_, _, _, _, let b), .forLoop(_, let b):
                    blocks.append(b)
                case .ifItem(_, let t, let o):
                    blocks.append(t)
                    if let o { blocks.append(o) }
                default:
                    break
                }
            }
        }
        return best
    }

    // MARK: Names

    func definition(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (doc, a) = try document(params)
        guard let d = a.names.declaration(at: UInt32(try offset(params, a))) else { return .null }
        return obj(("uri", .string(doc.uri)), ("range", a.positions.json(a.names.declarations[d].range)))
    }

    func references(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (doc, a) = try document(params)
        guard let d = a.names.declaration(at: UInt32(try offset(params, a))) else { return .null }
        var ranges = a.names.uses(of: d)
        if params["context"]?["includeDeclaration"]?.boolValue ?? true { ranges.insert(a.names.declarations[d].range, at: 0) }
        return .array(ranges.map { obj(("uri", .string(doc.uri)), ("range", a.positions.json($0))) })
    }

    func prepareRename(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        let at = UInt32(try offset(params, a))
        guard let d = a.names.declaration(at: at) else { return .null }
        let range = a.names.references.first { $0.range.start <= at && at <= $0.range.end && $0.declaration == d }?.range
            ?? a.names.declarations[d].range
        return obj(("range", a.positions.json(range)), ("placeholder", .string(a.names.declarations[d].name)))
    }

    func rename(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (doc, a) = try document(params)
        guard let newName = params["newName"]?.stringValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing newName")
        }
        let bytes = Array(newName.utf8)
        guard let first = bytes.first, Lexer.isIdentStart(first), bytes.allSatisfy(Lexer.isIdentContinue),
              TokenKind.keywords[newName] == nil else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "'\(newName)' is not a valid name")
        }
        guard let d = a.names.declaration(at: UInt32(try offset(params, a))) else { return .null }
        let ranges = [a.names.declarations[d].range] + a.names.uses(of: d)
        let edits: [JSONValue] = ranges.map { obj(("range", a.positions.json($0)), ("newText", .string(newName))) }
        return obj(("changes", obj((doc.uri, .array(edits)))))
    }

    // MARK: Outline, tokens, folding

    func documentSymbols(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        var budget = 20_000
        return .array(symbols(a.result.tree.root, a, budget: &budget, depth: 0))
    }

    private func symbols(_ block: Block, _ a: Analysis, budget: inout Int, depth: Int) -> [JSONValue] {
        let tree = a.result.tree
        var out: [JSONValue] = []
        for item in tree[block.items] {
            guard budget > 0, depth < 64 else { break }
            budget -= 1
            var name: String?, kind = 0, selection = item.range, children: Block?
            switch tree[item] {
            case .composition(let n, let b): name = ["composition", n?.name].compactMap { $0 }.joined(separator: " "); kind = 2; children = b
            case .layer(_, let k, let n, _, let b):
                name = "\(k.name) \(n?.name ?? "(unnamed)")"; kind = 5; selection = n?.range ?? k.range; children = b
            case .animation(let k, let t, let alias, _, let b):
                name = [k.name, t?.dotted, alias.map { "as \($0.name)" }].compactMap { $0 }.joined(separator: " "); kind = 24
                selection = t?.range ?? k.range; children = b
            case .letDecl(let n, _, _): name = n.name; kind = 14; selection = n.range
            case .timingDecl(let n, _): name = n.name; kind = 12; selection = n.range
            case .pathDecl(let n, _): name = n.name; kind = 14; selection = n.range
            case .component(let n, _, let b): name = n.name; kind = 5; selection = n.range; children = b
            case .instance(let n, _, _): name = n.name; kind = 19; selection = n.range
            case .forLoop(_, let b):
                out += symbols(b, a, budget: &budget, depth: depth + 1)
                continue
            case .ifItem(_, let t, let o):
                out += symbols(t, a, budget: &budget, depth: depth + 1)
                if let o { out += symbols(o, a, budget: &budget, depth: depth + 1) }
                continue
            default: continue
            }
            guard let name else { continue }
            let kids = children.map { symbols($0, a, budget: &budget, depth: depth + 1) } ?? []
            out.append(obj(("name", .string(name)), ("kind", .number(Double(kind))),
                           ("range", a.positions.json(item.range)), ("selectionRange", a.positions.json(selection)),
                           ("children", kids.isEmpty ? nil : .array(kids))))
        }
        return out
    }

    func semanticTokens(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        var entries: [(start: Int, end: Int, type: SemanticTokenType, declaration: Bool)] = []
        let tokens = a.lexTokens()
        var kindAt: [UInt32: (NameIndex.Kind, Bool)] = [:]
        for d in a.names.declarations { kindAt[d.range.start] = (d.kind, true) }
        for r in a.names.references { kindAt[r.range.start] = (a.names.declarations[r.declaration].kind, false) }
        // Layer and animation kinds that start an item read as keywords.
        let itemWords = Set(LanguageFacts.layerKinds + LanguageFacts.animationKinds + ["path", "mask"])
        for (i, t) in tokens.enumerated() {
            var type: SemanticTokenType?
            var declaration = false
            switch t.kind {
            case .number: type = .number
            case .string, .color: type = .string
            case _ where t.kind.isKeyword: type = .keyword
            case .identifier:
                let next = i + 1 < tokens.count ? tokens[i + 1] : t
                if let (kind, isDecl) = kindAt[t.range.start] {
                    declaration = isDecl
                    switch kind {
                    case .constant, .loopVariable: type = .variable
                    case .parameter: type = .parameter
                    case .timing, .path: type = .function
                    case .component: type = .type
                    case .layer, .animation: type = .enumMember
                    }
                } else if next.kind == .colon {
                    type = .property
                } else if next.kind == .lParen && next.flags.contains(.attached) {
                    type = .function
                } else {
                    type = nil
                }
            default: type = nil
            }
            // Decided here, token by token: searching the entries for each item's first
            // word made a file of thousands of layers take seconds.
            if t.kind == .identifier, i == 0 || t.flags.contains(.newlineBefore) || [.lBrace, .semicolon].contains(tokens[i - 1].kind),
               itemWords.contains(a.file.text(t.range)) {
                type = .keyword
            }
            if let type { entries.append((Int(t.range.start), Int(t.range.end), type, declaration)) }
        }
        for c in a.result.tree.comments { entries.append((Int(c.start), Int(c.end), .comment, false)) }
        entries.sort { $0.start < $1.start }
        // Relative encoding; multi-line tokens (block comments) are split per line.
        var data: [JSONValue] = []
        var previousLine = 0, previousChar = 0
        for e in entries {
            var s = e.start
            while s < e.end {
                let line = a.positions.line(of: s)
                let segmentEnd = min(e.end, a.positions.lineEnd(line))
                let p = a.positions.position(of: s), q = a.positions.position(of: segmentEnd)
                if q.character > p.character {
                    let deltaLine = p.line - previousLine
                    let deltaChar = deltaLine == 0 ? p.character - previousChar : p.character
                    data += [.number(Double(deltaLine)), .number(Double(deltaChar)), .number(Double(q.character - p.character)),
                             .number(Double(e.type.rawValue)), .number(e.declaration ? 1 : 0)]
                    previousLine = p.line
                    previousChar = p.character
                }
                s = line + 1 < a.positions.lineStarts.count ? a.positions.lineStarts[line + 1] : e.end
            }
        }
        return obj(("data", .array(data)))
    }

    func foldingRanges(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        var out: [JSONValue] = []
        var open: [Token] = []
        for t in a.lexTokens() {
            switch t.kind {
            case .lBrace, .lBracket, .lParen: open.append(t)
            case .rBrace, .rBracket, .rParen:
                guard let o = open.popLast() else { continue }
                let startLine = a.positions.line(of: Int(o.range.start)), endLine = a.positions.line(of: Int(t.range.start))
                if endLine > startLine {
                    out.append(obj(("startLine", .number(Double(startLine))), ("endLine", .number(Double(endLine - 1)))))
                }
            default: break
            }
        }
        for c in a.result.tree.comments {
            let s = a.positions.line(of: Int(c.start)), e = a.positions.line(of: Int(c.end))
            if e > s { out.append(obj(("startLine", .number(Double(s))), ("endLine", .number(Double(e))), ("kind", "comment"))) }
        }
        return .array(out)
    }

    // MARK: Fixes and formatting

    func codeActions(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (doc, a) = try document(params)
        let wanted = params["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
        let range = a.positions.range(params["range"]) ?? SourceRange(start: 0, end: UInt32(clamping: a.file.bytes.count))
        var actions: [JSONValue] = []
        func edit(_ fixes: [FixIt]) -> JSONValue {
            let edits: [JSONValue] = fixes.flatMap(\.edits).map {
                obj(("range", a.positions.json($0.range)), ("newText", .string($0.replacement)))
            }
            return obj(("changes", obj((doc.uri, .array(edits)))))
        }
        if wanted == nil || wanted!.contains(where: { $0.hasPrefix("quickfix") }) {
            for d in a.result.diagnostics where d.range.start <= range.end && range.start <= d.range.end {
                for fix in d.fixIts {
                    actions.append(obj(("title", .string(fix.message.capitalizedFirst)), ("kind", "quickfix"),
                                       ("diagnostics", .array([lspDiagnostic(d, a, uri: doc.uri)])),
                                       ("isPreferred", d.fixIts.count == 1 ? true : nil), ("edit", edit([fix]))))
                }
            }
        }
        if wanted == nil || wanted!.contains(where: { $0.hasPrefix("source") }) {
            // Every diagnostic's first fix, skipping any that overlaps one already taken.
            var taken: [FixIt] = []
            var used: [SourceRange] = []
            for d in a.result.diagnostics {
                guard let fix = d.fixIts.first else { continue }
                let overlaps = fix.edits.contains { e in used.contains { $0.start < e.range.end && e.range.start < $0.end || $0 == e.range } }
                if overlaps { continue }
                taken.append(fix)
                used += fix.edits.map(\.range)
            }
            if !taken.isEmpty {
                actions.append(obj(("title", .string("Apply all \(taken.count) animc fix\(taken.count == 1 ? "" : "es")")),
                                   ("kind", "source.fixAll.animc"), ("edit", edit(taken))))
            }
        }
        return .array(actions)
    }

    func formatting(_ params: JSONValue) throws(RequestError) -> JSONValue {
        let (_, a) = try document(params)
        guard case .success(let formatted) = SourceFormatter.format(a.file) else { return .null }
        let old = String(decoding: a.file.bytes, as: UTF8.self)
        let oldLines = LineDiff.lines(old), newLines = LineDiff.lines(formatted)
        let only = a.positions.range(params["range"])
        var edits: [JSONValue] = []
        let endsWithNewline = a.file.bytes.last == 0x0A
        let hunks = LineDiff.hunks(oldLines, newLines)
        for h in hunks {
            let startLine = h.oldStart, endLine = h.oldStart + h.oldCount
            if let only {
                let a0 = a.positions.line(of: Int(only.start)), a1 = a.positions.line(of: Int(only.end))
                if endLine <= a0 && h.oldCount > 0 || startLine > a1 { continue }
            }
            // Replace whole lines, line ends included.
            let startOffset = startLine < a.positions.lineStarts.count ? a.positions.lineStarts[startLine] : a.file.bytes.count
            var endOffset = endLine < a.positions.lineStarts.count ? a.positions.lineStarts[endLine] : a.file.bytes.count
            if endLine >= oldLines.count { endOffset = a.file.bytes.count }
            var text = newLines[h.newStart..<(h.newStart + h.newCount)].map { $0 + "\n" }.joined()
            if h.newCount == 0 && endLine >= oldLines.count && !endsWithNewline { text = "" }
            edits.append(obj(("range", obj(("start", a.positions.json(startOffset)), ("end", a.positions.json(endOffset)))),
                             ("newText", .string(text))))
        }
        // A missing final newline is an edit at the very end.
        if !endsWithNewline && !a.file.bytes.isEmpty && only == nil && formatted.hasSuffix("\n") {
            let lastHunkReachesEnd = hunks.last.map { $0.oldStart + $0.oldCount >= oldLines.count } ?? false
            if !lastHunkReachesEnd {
                edits.append(obj(("range", obj(("start", a.positions.json(a.file.bytes.count)), ("end", a.positions.json(a.file.bytes.count)))),
                                 ("newText", "\n")))
            }
        }
        return .array(edits)
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
