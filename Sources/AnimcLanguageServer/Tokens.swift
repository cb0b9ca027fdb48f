import AnimcBase
import AnimcChecker
import AnimcSyntax

/// The token types the server classifies, in legend order.
enum SemanticTokenType: Int, CaseIterable {
    case keyword, number, string, comment, variable, function, property, type, `operator`, parameter, enumMember, macro, namespace

    var name: String { self == .operator ? "operator" : "\(self)" }
}

extension LanguageServer {
    // MARK: Semantic tokens

    func semanticTokensFull(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        let data = semanticTokenData(a, in: nil)
        let id = nextResultID()
        doc.tokens = (id, data)
        return obj(("resultId", .string(id)), ("data", .array(data.map { .number(Double($0)) })))
    }

    /// The edit from the tokens last sent to the current ones: one splice around what
    /// changed, so a keystroke in a large file sends a few numbers, not megabytes.
    func semanticTokensDelta(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        let data = semanticTokenData(a, in: nil)
        let id = nextResultID()
        defer { doc.tokens = (id, data) }
        guard let previous = doc.tokens, previous.id == r["previousResultId"]?.stringValue else {
            return obj(("resultId", .string(id)), ("data", .array(data.map { .number(Double($0)) })))
        }
        let old = previous.data
        let (prefix, suffix) = commonEnds(old, data)
        let deleted = old.count - prefix - suffix
        let inserted = data[prefix..<(data.count - suffix)]
        let edits: [JSONValue] = deleted == 0 && inserted.isEmpty ? [] : [
            obj(("start", .number(Double(prefix))), ("deleteCount", .number(Double(deleted))),
                ("data", .array(inserted.map { .number(Double($0)) }))),
        ]
        return obj(("resultId", .string(id)), ("edits", .array(edits)))
    }

    func semanticTokensRange(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        guard let range = a.positions.range(r["range"]) else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing or invalid range")
        }
        return obj(("data", .array(semanticTokenData(a, in: range).map { .number(Double($0)) })))
    }

    private func nextResultID() -> String {
        nextRequestID += 1
        return String(nextRequestID)
    }

    /// The tokens of the document (or those overlapping `range`) in the protocol's
    /// relative encoding.
    func semanticTokenData(_ a: Analysis, in range: SourceRange?) -> [Int] {
        var entries: [(start: Int, end: Int, type: SemanticTokenType, declaration: Bool)] = []
        let tokens = a.lexTokens()
        var kindAt: [UInt32: (NameIndex.Kind, Bool)] = [:]
        for d in a.names.declarations { kindAt[d.range.start] = (d.kind, true) }
        for r in a.names.references { kindAt[r.range.start] = (a.names.declarations[r.declaration].kind, false) }
        // Layer and animation kinds that start an item read as keywords.
        let itemWords = Set(LanguageFacts.layerKinds + LanguageFacts.animationKinds + ["path", "mask", "import", "input", "state", "on"])
        let first = range.map { r in tokens.partitionIndex { $0.range.end >= r.start } } ?? 0
        for i in first..<tokens.count {
            let t = tokens[i]
            if let range, t.range.start > range.end { break }
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
                    case .module: type = .namespace
                    case .input: type = .variable
                    case .state: type = .enumMember
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
        for c in a.result.tree.comments where range.map({ c.end >= $0.start && c.start <= $0.end }) ?? true {
            entries.append((Int(c.start), Int(c.end), .comment, false))
        }
        entries.sort { $0.start < $1.start }
        // Relative encoding; multi-line tokens (block comments) are split per line.
        var data: [Int] = []
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
                    data += [deltaLine, deltaChar, q.character - p.character, e.type.rawValue, e.declaration ? 1 : 0]
                    previousLine = p.line
                    previousChar = p.character
                }
                s = line + 1 < a.positions.lineStarts.count ? a.positions.lineStarts[line + 1] : e.end
            }
        }
        return data
    }

    // MARK: Folding

    /// Brackets and block comments that span lines. A range folds the lines after its
    /// first up to the line before its closing bracket, so one whose contents sit on a
    /// single line (`{ a }` across two lines) is left out: it would hide nothing.
    func foldingRanges(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        var out: [JSONValue] = []
        var open: [Token] = []
        for t in a.lexTokens() {
            switch t.kind {
            case .lBrace, .lBracket, .lParen: open.append(t)
            case .rBrace, .rBracket, .rParen:
                guard let o = open.popLast() else { continue }
                let startLine = a.positions.line(of: Int(o.range.start)), endLine = a.positions.line(of: Int(t.range.start))
                if endLine - 1 > startLine {
                    out.append(obj(("startLine", .number(Double(startLine))), ("endLine", .number(Double(endLine - 1)))))
                }
            default: break
            }
        }
        for c in a.result.tree.comments {
            let s = a.positions.line(of: Int(c.start)), e = a.positions.line(of: Int(max(c.start, c.end - 1)))
            if e > s { out.append(obj(("startLine", .number(Double(s))), ("endLine", .number(Double(e))), ("kind", "comment"))) }
        }
        return .array(out)
    }
}
