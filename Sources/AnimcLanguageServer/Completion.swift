import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcIR
import AnimcSyntax

/// The call of a built-in function the cursor is in, read off the tokens (a call being
/// typed does not parse yet).
struct CallContext {
    let function: String
    /// Which argument the cursor is in, from 0, and the label written for it.
    let argument: Int
    let label: String?
    /// The labels of every argument written so far.
    let labels: [String]
    /// The built-in function's signatures, or the component's (one).
    let signatures: [BuiltinSignature]

    /// The call whose parentheses enclose `offset`, searched back from it through at
    /// most a few thousand tokens, stopping at a brace (calls never span blocks).
    /// `component(module, name)` gives the signature of a component instance's call
    /// (`Dot(`, `ui.Dot(`): signature help and labels were null in every component call.
    static func find(before offset: UInt32, in tokens: [Token], _ file: SourceFile,
                     component: (String?, String) -> BuiltinSignature? = { _, _ in nil }) -> CallContext? {
        var i = tokens.partitionIndex { $0.range.start >= offset } - 1
        var depth = 0
        var commas = 0
        var labels: [String] = []
        var current: String?
        var steps = 0
        while i >= 0, steps < 4096 {
            steps += 1
            let t = tokens[i]
            switch t.kind {
            case .rParen, .rBracket: depth += 1
            case .lBracket: if depth == 0 { return nil } else { depth -= 1 }
            case .lBrace, .rBrace, .semicolon: return nil
            case .comma where depth == 0: commas += 1
            case .colon where depth == 0 && i > 0 && tokens[i - 1].kind == .identifier:
                let label = file.text(tokens[i - 1].range)
                labels.append(label)
                if commas == 0 { current = label }
            case .lParen:
                if depth > 0 { depth -= 1; break }
                guard i > 0, tokens[i - 1].kind == .identifier, t.flags.contains(.attached) else { return nil }
                let name = file.text(tokens[i - 1].range)
                let module = i > 2 && tokens[i - 2].kind == .dot && tokens[i - 3].kind == .identifier ? file.text(tokens[i - 3].range) : nil
                var signatures = module == nil ? LanguageFacts.signatures(of: name) : []
                if signatures.isEmpty, let s = component(module, name) { signatures = [s] }
                guard !signatures.isEmpty else { return nil }
                return CallContext(function: name, argument: commas, label: current, labels: labels, signatures: signatures)
            default: break
            }
            i -= 1
        }
        return nil
    }

    /// The signature that fits the arguments written, and the parameter the cursor is on.
    func active() -> (signature: Int, parameter: Int?) {
        let all = signatures
        var chosen = 0
        if let i = all.firstIndex(where: { s in !labels.isEmpty && labels.allSatisfy { l in s.parameters.contains { $0.name == l } } }) {
            chosen = i
        } else if let i = all.firstIndex(where: { $0.parameters.count > argument || $0.variadic }) {
            chosen = i
        }
        guard chosen < all.count else { return (0, nil) }
        let s = all[chosen]
        if let label, let p = s.parameters.firstIndex(where: { $0.name == label }) { return (chosen, p) }
        if argument < s.parameters.count { return (chosen, argument) }
        return (chosen, s.variadic ? s.parameters.count : nil)
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for a predicate false then true.
    func partitionIndex(where belongs: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}

extension LanguageServer {
    // MARK: Signature help

    func signatureHelp(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        let at = try offset(r, a)
        guard let call = CallContext.find(before: at, in: a.lexTokens(), a.file, component: componentSignature(a)) else { return .null }
        let (active, parameter) = call.active()
        let signatures: [JSONValue] = call.signatures.map { s in
            obj(("label", .string(s.label)),
                ("documentation", client.markdownSignatures ? obj(("kind", "markdown"), ("value", .string(s.summary))) : .string(Self.plainText(s.summary))),
                ("parameters", .array(s.parameterLabels.map { obj(("label", .string($0))) })))
        }
        return obj(("signatures", .array(signatures)), ("activeSignature", .number(Double(active))),
                   ("activeParameter", parameter.map { .number(Double($0)) }))
    }

    /// The signature of component `name` (of the file imported as `module`, or this
    /// file's), from its declaration's syntax.
    func componentSignature(_ a: Analysis) -> (String?, String) -> BuiltinSignature? {
        { module, name in
            var file = ProjectFile(a)
            if let module {
                guard let m = a.names.declarations.indices.first(where: { a.names.declarations[$0].kind == .module && a.names.declarations[$0].name == module }),
                      let path = file.importedPath(of: m), let imported = self.projectFile(path) else { return nil }
                file = imported
            }
            let tree = file.tree
            for item in tree[tree.root.items] {
                guard case .component(let id, let params, _) = tree[item], id.name == name else { continue }
                let parameters = tree[params].map { p in
                    (name: p.name.name, type: p.type?.name ?? "any", defaultValue: p.defaultValue.map { tree.file.text($0.range) })
                }
                return BuiltinSignature.component(name, parameters: parameters,
                                                  summary: "component \(name)" + (module.map { " (\($0), \(file.path))" } ?? ""))
            }
            return nil
        }
    }

    // MARK: Completion

    /// One completion item; snippets only for clients that take them.
    struct CompletionItems {
        var items: [JSONValue] = []
        var seen: Set<String> = []
        let snippets: Bool
        /// Put before every insertion (a space after a colon typed without one).
        var prefix = ""

        mutating func add(_ label: String, kind: Int, detail: String? = nil, insert: String? = nil, snippet: String? = nil,
                          filter: String? = nil, edits: [JSONValue]? = nil) {
            guard seen.insert(label).inserted else { return }
            let text: String?
            var format: JSONValue?
            if let snippet, snippets {
                text = prefix + snippet
                format = 2
            } else if let insert {
                text = prefix + insert
            } else {
                text = prefix.isEmpty ? nil : prefix + label
            }
            items.append(obj(("label", .string(label)), ("kind", .number(Double(kind))), ("detail", detail.map(JSONValue.string)),
                             ("insertText", text.map(JSONValue.string)), ("insertTextFormat", format),
                             ("filterText", filter.map(JSONValue.string)), ("additionalTextEdits", edits.map(JSONValue.array))))
        }
    }

    enum CompletionKind {
        static let function = 3, field = 5, variable = 6, `class` = 7, property = 10, value = 12, keyword = 14, snippet = 15
        static let color = 16, enumMember = 20, constant = 21
    }

    /// In a transition (`on tap from closed -> opened with ...`): the inputs after `on`,
    /// the states after `from`, a comma or `->`, the interruption models after the
    /// timing's comma. Nil elsewhere. `i` is the token before the word being typed.
    func transitionCompletion(_ before: Int, at: UInt32, _ tokens: [Token], _ a: Analysis) -> [(String, Int, String)]? {
        // The end of the file is a token of its own, and the word being typed is not one
        // the line has yet.
        var i = before
        while i >= 0 && tokens[i].kind == .eof { i -= 1 }
        if i >= 0, tokens[i].kind == .identifier, tokens[i].range.end == at { i -= 1 }
        guard i >= 0 else { return nil }
        // The line's first token, which must be `on` at the start of a line.
        var first = i
        while first > 0 && !tokens[first].flags.contains(.newlineBefore) { first -= 1 }
        guard tokens[first].kind == .identifier, a.file.text(tokens[first].range) == "on" else { return nil }
        let words = tokens[first...i].map { a.file.text($0.range) }
        let previous = tokens[i]
        let names = a.names.declarations
        func of(_ kind: NameIndex.Kind) -> [(String, Int, String)] {
            var seen = Set<String>()
            return names.filter { $0.kind == kind && seen.insert($0.name).inserted }.map { ($0.name, CompletionKind.value, kind.noun) }
        }
        if i == first || (words.last == "if" && !words.contains("from")) { return of(.input) }
        if words.last == "with" {
            return of(.timing) + ["easeInEaseOut", "easeIn", "easeOut", "linear", "default"].map { ($0, CompletionKind.value, "timing function") }
        }
        if words.contains("with") {
            guard previous.kind == .comma else { return nil }
            return Interaction.Interruption.allCases.map { ($0.rawValue, CompletionKind.keyword, "interruption model") }
        }
        if words.last == "from" || previous.kind == .comma || previous.kind == .greater { return of(.state) }
        return nil
    }

    func completion(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        let at = try offset(r, a)
        var out = CompletionItems(snippets: client.snippets)
        let tokens = a.lexTokens()
        // Nothing inside comments and strings.
        if inCommentOrString(at, a, tokens) { return .array([]) }
        // The word being typed, and the token before it.
        var i = tokens.partitionIndex { $0.range.end > at } - 1
        if i >= 0, tokens[i].kind == .identifier, tokens[i].range.end == at { i -= 1 }
        let previous: Token? = i >= 0 ? tokens[i] : nil
        let tree = a.result.tree
        if previous?.kind == .colon, i > 0, at > 0, a.file.bytes[Int(at) - 1] == 0x3A { out.prefix = " " }
        if let names = transitionCompletion(i, at: at, tokens, a) {
            for (name, kind, detail) in names { out.add(name, kind: kind, detail: detail) }
            return .array(out.items)
        }
        if previous?.kind == .dot {
            // `timingFunction: tokens.`: the timing functions only (every token was offered).
            let timingOnly = i > 2 && tokens[i - 2].kind == .colon && tokens[i - 3].kind == .identifier
                && a.file.text(tokens[i - 3].range) == "timingFunction"
            if i > 0, tokens[i - 1].kind == .identifier, moduleCompletion(a.file.text(tokens[i - 1].range), a, timingOnly: timingOnly, into: &out) {
                return .array(out.items)
            }
            keyPathCompletion(i, tokens, a, into: &out)
            return .array(out.items)
        }
        if let call = CallContext.find(before: at, in: tokens, a.file, component: componentSignature(a)), previous?.kind == .lParen || previous?.kind == .comma || previous?.kind == .colon {
            if previous?.kind != .colon, call.label == nil {
                let (s, _) = call.active()
                if s < call.signatures.count {
                    for p in call.signatures[s].parameters where !call.labels.contains(p.name) {
                        out.add(p.name + ":", kind: CompletionKind.field, detail: p.type, insert: p.name + ": ")
                    }
                }
            }
            valueCompletion(.other, at: at, a, into: &out)
            return .array(out.items)
        }
        if previous?.kind == .colon, i > 0, tokens[i - 1].kind == .identifier {
            let key = keyPath(endingAt: i - 1, tokens, a.file)
            if let kind = enclosingAnimationKind(at: at, in: tree), LanguageFacts.attributes(ofAnimationKind: kind).contains(key) {
                var expectation = LanguageFacts.expectation(ofAttribute: key)
                if expectation == .propertyValue { expectation = .other }
                valueCompletion(expectation, at: at, a, into: &out, target: animationTarget(at: at, tree))
            } else if let info = PropertyTable.properties.first(where: { $0.id.rawValue == key }) {
                valueCompletion(Self.expectation(of: info.type), at: at, a, into: &out, target: info.type)
            } else {
                valueCompletion(.other, at: at, a, into: &out)
            }
            return .array(out.items)
        }
        if let previous, [.equal, .plus, .minus, .star, .slash, .lBracket, .question, .less, .greater, .equalEqual,
                          .bangEqual, .lessEqual, .greaterEqual, .andAnd, .orOr, .bang, .kwIn, .dotDotLess, .dotDotDot].contains(previous.kind) {
            valueCompletion(.other, at: at, a, into: &out)
            return .array(out.items)
        }
        itemCompletion(at: at, a, into: &out)
        return .array(out.items)
    }

    /// After `tokens.`, where `tokens` names an import: what the imported file declares,
    /// each with its value when the document's check folded it. False when `name` names
    /// no import.
    private func moduleCompletion(_ name: String, _ a: Analysis, timingOnly: Bool = false, into out: inout CompletionItems) -> Bool {
        guard let module = a.names.declarations.firstIndex(where: { $0.kind == .module && $0.name == name }) else { return false }
        let here = ProjectFile(a)
        guard let path = here.importedPath(of: module), let target = projectFile(path) else { return true }
        let folded = a.imported.first { $0.file.name == path }?.foldedValues
        let topLevel = Set(target.tree[target.tree.root.items].map(\.range.start))
        for d in target.names.declarations where topLevel.contains(d.extent.start) && (!timingOnly || d.kind == .timing) {
            let kind: Int
            switch d.kind {
            case .constant, .path: kind = CompletionKind.constant
            case .timing: kind = CompletionKind.function
            case .component: kind = CompletionKind.class
            default: continue
            }
            let value = folded?[d.range.start].map { " = \($0)" } ?? ""
            out.add(d.name, kind: kind, detail: d.kind.noun + value)
        }
        return true
    }

    private func inCommentOrString(_ at: UInt32, _ a: Analysis, _ tokens: [Token]) -> Bool {
        for c in a.result.tree.comments {
            let isLine = Int(c.start) + 1 < a.file.bytes.count && a.file.bytes[Int(c.start) + 1] == 0x2F
            if c.start < at && (at < c.end || isLine && at == c.end) { return true }
        }
        let i = tokens.partitionIndex { $0.range.end >= at }
        if i < tokens.count, tokens[i].kind == .string, tokens[i].range.start < at,
           at < tokens[i].range.end || a.file.bytes[Int(tokens[i].range.end) - 1] != 0x22 || tokens[i].range.end - tokens[i].range.start == 1 {
            return true
        }
        return false
    }

    /// `transform.rotation` as written, ending at token `i`.
    private func keyPath(endingAt i: Int, _ tokens: [Token], _ file: SourceFile) -> String {
        var parts = [file.text(tokens[i].range)]
        var j = i
        while j >= 2, tokens[j - 1].kind == .dot, tokens[j - 2].kind == .identifier {
            parts.insert(file.text(tokens[j - 2].range), at: 0)
            j -= 2
        }
        return parts.joined(separator: ".")
    }

    /// After `transform.`: the key paths that continue it.
    private func keyPathCompletion(_ dot: Int, _ tokens: [Token], _ a: Analysis, into out: inout CompletionItems) {
        guard dot > 0, tokens[dot - 1].kind == .identifier else { return }
        let prefix = keyPath(endingAt: dot - 1, tokens, a.file) + "."
        for path in PropertyTable.keyPaths.map(\.keyPath) where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            let next = rest.split(separator: ".").first.map(String.init) ?? String(rest)
            out.add(next, kind: CompletionKind.property, detail: rest.contains(".") ? nil : path)
        }
    }

    private func animationTarget(at offset: UInt32, _ tree: SyntaxTree) -> ValueType? {
        guard let item = items(at: offset, in: tree).last(where: { tree.tag($0) == .animation }),
              case .animation(_, let target?, _, _, _, _) = tree[item] else { return nil }
        return PropertyTable.keyPath(target.dotted)?.type
    }

    static func expectation(of type: ValueType) -> LanguageFacts.Expectation {
        switch type {
        case .time: return .time
        case .bool: return .bool
        case .number, .length, .angle: return .number
        case .path: return .path
        case .enumeration(let e): return .enumeration(e.cases)
        default: return .other
        }
    }

    /// Values that fit where one of `expectation` is written: the file's names first,
    /// then the language's.
    /// What the project's libraries (files of declarations only, inside this file's
    /// project root) declare at their top level (of `kinds`), written qualified
    /// (`tokens.fast`) and matched by its own name: the file's import is used when it has
    /// one, else added with the item (an import after the others, named by the file's
    /// stem). Not a file that imports this one (a cycle), nor one whose stem is not a name
    /// or is taken here.
    private func importable(_ kinds: [NameIndex.Kind], _ a: Analysis, into out: inout CompletionItems) {
        guard a.uri.hasPrefix("file://") else { return }
        let here = ProjectFile(a)
        var imported: [String: String] = [:]
        for (d, declaration) in a.names.declarations.enumerated() where declaration.kind == .module {
            if let path = here.importedPath(of: d) { imported[path] = declaration.name }
        }
        let taken = Set(a.names.declarations.map(\.name))
        guard let root = projectRoot(of: a.uri) else { return }
        let listing = projectPaths()
        var offered = 0
        for path in listing.paths where path != here.path && path.hasPrefix("/") && root.contains(LocalPaths.canonical(path)) {
            guard offered < Self.importableLimit, let file = projectFile(path) else { continue }
            let isLibrary = !file.tree[file.tree.root.items].contains {
                switch file.tree.tag($0) {
                case .composition, .layer, .instance, .forLoop, .ifItem: return true
                default: return false
                }
            }
            guard isLibrary else { continue }
            // A file importing this one would make a cycle.
            if file.tree.imports.contains(where: { ImportResolution.resolve($0.path, from: path) == here.path }) { continue }
            let module: String
            var edits: [JSONValue]?
            if let name = imported[path] {
                module = name
            } else {
                let stem = ImportPaths.stem(path)
                guard ImportPaths.isName(stem), !taken.contains(stem) else { continue }
                module = stem
                // After the last import, else at the top.
                let at = a.result.tree.imports.last.map { line(after: $0.item.range.end, a.file.bytes) } ?? 0
                let written = Self.relativePath(to: path, fromFolderOf: here.path)
                edits = [obj(("range", a.positions.json(.empty(at: at))), ("newText", .string("import \"\(written)\"\n")))]
            }
            let topLevel = Set(file.tree[file.tree.root.items].map(\.range.start))
            for d in file.names.declarations where topLevel.contains(d.extent.start) && kinds.contains(d.kind) {
                let kind = d.kind == .timing ? CompletionKind.function : CompletionKind.constant
                let detail = d.kind.noun + " in " + ImportResolution.normalize(Self.relativePath(to: path, fromFolderOf: here.path))
                    + (edits == nil ? "" : " (adds its import)")
                out.add(module + "." + d.name, kind: kind, detail: detail, filter: d.name, edits: edits)
                offered += 1
            }
        }
    }

    /// The most declarations of other files one completion offers.
    static let importableLimit = 200

    /// Where the line after `offset` starts.
    private func line(after offset: UInt32, _ bytes: [UInt8]) -> UInt32 {
        var k = Int(offset)
        while k < bytes.count, bytes[k] != 0x0A { k += 1 }
        return UInt32(min(k + 1, bytes.count))
    }

    private func valueCompletion(_ expectation: LanguageFacts.Expectation, at: UInt32, _ a: Analysis,
                                 into out: inout CompletionItems, target: ValueType? = nil) {
        /// The file's declarations of `kinds` visible before the cursor whose value is of
        /// `type` ("a time"), or of any type when the check has not said.
        func declared(_ kinds: [NameIndex.Kind], type: String? = nil) {
            for d in a.names.declarations where d.range.end <= at && kinds.contains(d.kind) {
                let value = a.folded[d.range.start]
                if let type, let actual = a.folded.typeName(at: d.range.start), actual != type { continue }
                out.add(d.name, kind: d.kind == .timing ? CompletionKind.function : CompletionKind.constant, detail: value ?? d.kind.noun)
            }
        }
        func timings() {
            declared([.timing, .constant, .parameter], type: "a timing function")
            for name in LanguageFacts.timingFunctionNames {
                out.add(name, kind: CompletionKind.function, detail: LanguageFacts.timingFunction(named: name).map(LanguageFacts.describe))
            }
            for f in ["cubic", "steps", "spring"] { functionCompletion(f, into: &out) }
        }
        defer {
            switch expectation {
            case .timing, .timings: importable([.timing], a, into: &out)
            case .path: importable([.path, .constant], a, into: &out)
            case .time, .number, .propertyValue, .other: importable([.constant, .timing, .path], a, into: &out)
            case .bool, .enumeration: break
            }
        }
        switch expectation {
        case .time:
            // A check's folded values say which constants are times; before it, all fit.
            declared([.constant, .parameter, .loopVariable], type: "a time")
            out.add("0.3s", kind: CompletionKind.value, detail: "a time")
        case .timing:
            timings()
        case .timings:
            out.add("[…]", kind: CompletionKind.value, detail: "one timing function per interval", insert: "[",
                    snippet: "[${1:easeInEaseOut}]")
            timings()
        case .bool:
            out.add("true", kind: CompletionKind.keyword)
            out.add("false", kind: CompletionKind.keyword)
            declared([.constant, .parameter], type: "a boolean")
        case .enumeration(let cases):
            for c in cases { out.add(c, kind: CompletionKind.enumMember) }
        case .number:
            declared([.constant, .parameter, .loopVariable], type: "a number")
            out.add("inf", kind: CompletionKind.constant, detail: "infinity")
            out.add("pi", kind: CompletionKind.constant, detail: "π")
        case .path:
            declared([.path, .constant, .parameter], type: "a path")
            for f in ["circle", "rect", "roundedRect", "ellipse", "arc"] { functionCompletion(f, into: &out) }
        case .propertyValue, .other:
            declared([.constant, .timing, .path, .parameter, .loopVariable])
            if target == .color || target == .colors || target == nil {
                for name in LanguageFacts.colorNames {
                    out.add(name, kind: CompletionKind.color, detail: LanguageFacts.color(named: name).map(colorDescription))
                }
            }
            if target == nil || target == .transform {
                for f in LanguageFacts.functionNames { functionCompletion(f, into: &out) }
            } else {
                for f in ["rgb", "rgba", "hsb", "hsba", "withAlpha", "min", "max", "clamp", "lerp"] { functionCompletion(f, into: &out) }
            }
            if target == nil { for name in LanguageFacts.timingFunctionNames { out.add(name, kind: CompletionKind.function) } }
        }
    }

    private func functionCompletion(_ name: String, into out: inout CompletionItems) {
        guard let s = LanguageFacts.signatures(of: name).first else { return }
        let placeholders = s.parameters.prefix(s.required).enumerated().map { "${\($0.offset + 1):\($0.element.name)}" }
        out.add(name, kind: CompletionKind.function, detail: s.label, insert: name + "(", snippet: name + "(" + placeholders.joined(separator: ", ") + ")")
    }

    /// At the start of an item: what the block around the cursor takes.
    private func itemCompletion(at: UInt32, _ a: Analysis, into out: inout CompletionItems) {
        switch blockContext(at: at, in: a.result.tree) {
        case .animation(let kind):
            for name in LanguageFacts.attributes(ofAnimationKind: kind) { out.add(name, kind: CompletionKind.property, insert: name + ": ") }
            if kind == "group" { animationKinds(into: &out) }
        case .layer(let kind):
            let layerKind = LayerKind(rawValue: kind) ?? .layer
            for p in PropertyTable.properties where p.applies(to: layerKind) {
                out.add(p.id.rawValue, kind: CompletionKind.property, detail: "\(p.type) — \(p.summary)", insert: p.id.rawValue + ": ")
            }
            animationKinds(into: &out)
            for k in LanguageFacts.layerKinds {
                out.add(k, kind: CompletionKind.keyword, detail: "sublayer", insert: k + " ", snippet: "\(k) ${1:name} {\n\t$0\n}")
            }
            for d in a.names.declarations where d.kind == .component {
                out.add(d.name, kind: CompletionKind.class, detail: "component", insert: "name = \(d.name)(",
                        snippet: "${1:name} = \(d.name)($0)")
            }
            // The components of the imported files, qualified.
            let here = ProjectFile(a)
            for (m, module) in a.names.declarations.enumerated() where module.kind == .module {
                guard let path = here.importedPath(of: m), let target = projectFile(path) else { continue }
                for d in target.names.declarations where d.kind == .component && target.names.exported(d.name, in: target.tree) != nil {
                    let qualified = module.name + "." + d.name
                    out.add(qualified, kind: CompletionKind.class, detail: "component in \(path.split(separator: "/").last ?? "")",
                            insert: "name = \(qualified)(", snippet: "${1:name} = \(qualified)($0)")
                }
            }
        case .top:
            out.add("composition", kind: CompletionKind.keyword, insert: "composition ",
                    snippet: "composition ${1:Name} {\n\tsize: ${2:375} x ${3:667}\n}")
            for k in LanguageFacts.layerKinds {
                out.add(k, kind: CompletionKind.keyword, detail: "layer", insert: k + " ", snippet: "\(k) ${1:name} {\n\t$0\n}")
            }
            out.add("let", kind: CompletionKind.keyword, insert: "let ", snippet: "let ${1:name} = $0")
            out.add("timing", kind: CompletionKind.keyword, insert: "timing ", snippet: "timing ${1:name} = cubic(${2:0.25}, ${3:0.1}, ${4:0.25}, ${5:1})")
            out.add("component", kind: CompletionKind.keyword, insert: "component ", snippet: "component ${1:Name}(${2}) {\n\tlayer {\n\t\t$0\n\t}\n}")
            out.add("path", kind: CompletionKind.keyword, insert: "path ", snippet: "path ${1:name} {\n\tmove (${2:0}, ${3:0})\n\t$0\n}")
            out.add("import", kind: CompletionKind.keyword, insert: "import \"", snippet: "import \"${1:motion/tokens.anim}\"")
            out.add("input", kind: CompletionKind.keyword, insert: "input ", snippet: "input ${1:tap}: ${2:trigger}")
            out.add("state", kind: CompletionKind.keyword, insert: "state ", snippet: "state ${1:name} {\n\t$0\n}")
            out.add("on", kind: CompletionKind.keyword, detail: "transition", insert: "on ", snippet: "on ${1:input} from ${2:state} -> ${3:state} with ${4:0.3s easeOut}")
        case .composition:
            for name in ["size", "fps", "window", "backgroundColor"] { out.add(name, kind: CompletionKind.property, insert: name + ": ") }
        }
        for k in ["for", "if"] { out.add(k, kind: CompletionKind.keyword) }
    }

    private func animationKinds(into out: inout CompletionItems) {
        for k in LanguageFacts.animationKinds {
            out.add(k, kind: CompletionKind.keyword, detail: "\(k) animation", insert: k + " ",
                    snippet: k == "group" ? "group ${1:name} {\n\t$0\n}" : "\(k) ${1:keyPath} {\n\t$0\n}")
        }
    }

    enum BlockContext { case top, composition, layer(String), animation(String) }

    func blockContext(at offset: UInt32, in tree: SyntaxTree) -> BlockContext {
        var context = BlockContext.top
        for item in items(at: offset, in: tree) {
            switch tree[item] {
            case .composition(_, let body) where body.range.start < offset:
                return .composition
            case .layer(_, let kind, _, _, let body) where body.range.start < offset:
                context = .layer(kind.name)
            case .animation(let kind, _, _, _, let body, _) where body.range.start < offset:
                context = .animation(kind.name)
            default:
                break
            }
        }
        return context
    }
}
