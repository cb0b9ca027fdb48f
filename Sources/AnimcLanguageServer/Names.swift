import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcSyntax

extension LanguageServer {
    // MARK: Definition, references, highlights

    func definition(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        let at = try offset(r, a)
        let here = ProjectFile(a)
        // `tokens.fast`: the declaration in the imported file.
        if a.names.qualifiedReference(at: at) != nil {
            guard let e = exportedDeclaration(at: at, in: here) else { return .null }
            return obj(("uri", .string(e.file.uri)), ("range", e.file.positions.json(e.file.names.declarations[e.declaration].range)))
        }
        // The string of an import: the file it imports.
        if let i = a.result.tree.imports.first(where: { $0.pathRange.start <= at && at <= $0.pathRange.end }),
           let path = ImportResolution.resolve(i.path, from: a.file.name), let target = projectFile(path) {
            return obj(("uri", .string(target.uri)), ("range", target.positions.json(SourceRange.empty(at: 0))))
        }
        guard let d = a.names.declaration(at: at) else { return .null }
        return obj(("uri", .string(doc.uri)), ("range", a.positions.json(a.names.declarations[d].range)))
    }

    func references(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        let at = try offset(r, a)
        let here = ProjectFile(a)
        // A declaration other files may read: its uses across the project.
        if let e = exportedDeclaration(at: at, in: here) {
            let includeDeclaration = r["context"]?["includeDeclaration"]?.boolValue ?? true
            let declaration = e.file.names.declarations[e.declaration].range
            let listing = projectPaths()
            if listing.truncated {
                r.show("animc: the workspace holds more than \(formatNumber(Double(Self.projectFileLimit))) .anim files; these are the uses in the first \(formatNumber(Double(Self.projectFileLimit)))", type: 2)
            }
            return .array(occurrences(of: e, among: listing.paths.compactMap(projectFile)).flatMap { file, ranges in
                ranges.filter { includeDeclaration || file.path != e.file.path || $0 != declaration }
                    .map { obj(("uri", .string(file.uri)), ("range", file.positions.json($0))) }
            })
        }
        guard let d = a.names.declaration(at: at) else { return .null }
        var ranges = a.names.uses(of: d)
        if r["context"]?["includeDeclaration"]?.boolValue ?? true { ranges.insert(a.names.declarations[d].range, at: 0) }
        return .array(ranges.map { obj(("uri", .string(doc.uri)), ("range", a.positions.json($0))) })
    }

    /// The name under the cursor wherever the file names the same declaration: its
    /// declaration as Write (3), its uses as Read (2).
    func documentHighlight(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        guard let d = a.names.declaration(at: try offset(r, a)) else { return .null }
        let write = obj(("range", a.positions.json(a.names.declarations[d].range)), ("kind", 3))
        return .array([write] + a.names.uses(of: d).map { obj(("range", a.positions.json($0)), ("kind", 2)) })
    }

    // MARK: Rename

    func prepareRename(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        let at = try offset(r, a)
        // `tokens.fast` in an importer: the name another file declares, renamed there
        // and in every importer (clients that ask first could not rename from here).
        if let q = a.names.qualifiedReference(at: at), let e = exportedDeclaration(at: at, in: ProjectFile(a)) {
            return obj(("range", a.positions.json(q.range)), ("placeholder", .string(e.name)))
        }
        guard let d = a.names.declaration(at: at) else {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "there is no name here that this file declares")
        }
        let range = a.names.references.first { $0.range.start <= at && at <= $0.range.end && $0.declaration == d }?.range
            ?? a.names.declarations[d].range
        return obj(("range", a.positions.json(range)), ("placeholder", .string(a.names.declarations[d].name)))
    }

    /// Renames a declaration and every use of it, or refuses, saying why, when the new
    /// name would change what any name in the file refers to: a clash with a name in
    /// scope, a built-in it would hide (`inf`, `linear`, a colour), or anything the
    /// check of the renamed file finds that the check of the file did not.
    func rename(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try checkedAnalysis(r)
        guard let newName = r["newName"]?.stringValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing newName")
        }
        let bytes = Array(newName.utf8)
        guard let first = bytes.first, Lexer.isIdentStart(first), bytes.allSatisfy(Lexer.isIdentContinue),
              TokenKind.keywords[newName] == nil else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "'\(newName)' is not a valid name")
        }
        let at = try offset(r, a)
        let here = ProjectFile(a)
        if let e = exportedDeclaration(at: at, in: here) {
            return try renameAcrossFiles(e, to: newName)
        }
        guard let d = a.names.declaration(at: at) else {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "there is no name here that this file declares")
        }
        let ranges = ([a.names.declarations[d].range] + a.names.uses(of: d)).sorted { $0.start < $1.start }
        if let refusal = Self.renameRefusal(a, declaration: d, to: newName, ranges: ranges,
                                            loader: loader(besides: a.uri)) {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: refusal)
        }
        if let refusal = labelsElsewhere(of: d, in: here) {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: refusal)
        }
        let edits: [JSONValue] = ranges.map { obj(("range", a.positions.json($0)), ("newText", .string(newName))) }
        return workspaceEdit([(doc.uri, edits)])
    }

    /// Why renaming `d`, a parameter of a component other files instantiate, would be
    /// partial, or nil: their argument labels (`ui.Button(color: red)`) are not renamed
    /// yet, and renaming only the component's file left them naming no parameter (E0307).
    /// Whole or refused (issue 52).
    func labelsElsewhere(of d: Int, in file: ProjectFile) -> String? {
        let declaration = file.names.declarations[d]
        guard declaration.kind == .parameter,
              let c = file.names.declarations.indices.first(where: {
                  file.names.declarations[$0].kind == .component && file.names.declarations[$0].extent.start <= declaration.range.start
                      && declaration.range.end <= file.names.declarations[$0].extent.end
              }),
              file.names.exported(file.names.declarations[c].name, in: file.tree) == c else { return nil }
        let component = ExportedDeclaration(file: file, declaration: c)
        let listing = projectPaths()
        let users = occurrences(of: component, among: listing.paths.compactMap(projectFile)).dropFirst()
        guard !users.isEmpty || listing.truncated else { return nil }
        let names = users.prefix(3).map { $0.file.path.split(separator: "/").last.map(String.init) ?? $0.file.path }.joined(separator: ", ")
        return "'\(declaration.name)' is a parameter of '\(component.name)', which \(users.count == 1 ? "another file uses" : "\(users.count) other files use") (\(names)\(users.count > 3 ? ", …" : "")); their argument labels are not renamed yet, so the rename is refused rather than left half done"
    }

    /// Renames a declaration other files may read, in its file and wherever a file of
    /// the project reads it qualified (`tokens.fast`): one edit over every document.
    /// Refused as in one file when the new name would change what a name of the
    /// declaring file refers to; a qualified name cannot clash in the files that read it.
    private func renameAcrossFiles(_ e: ExportedDeclaration, to newName: String) throws(RequestError) -> JSONValue {
        // All or nothing: a rename that reached only the files under the limit left the
        // rest naming what no longer exists (6,000 importers: 1,001 files with E0327).
        let listing = projectPaths()
        if listing.truncated {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "'\(e.name)' may be read by more files than the \(formatNumber(Double(Self.projectFileLimit))) .anim files the server reads at most, so a rename could not be whole; rename it with a project-wide search and replace, or open a smaller workspace folder")
        }
        let all = occurrences(of: e, among: listing.paths.compactMap(projectFile))
        let own = e.file.analysis.map { doc in documents[doc.uri].map(checkedAnalysis) ?? doc }
            ?? Analysis.check(CheckJob(uri: e.file.uri, version: 0, revision: 0, bytes: e.file.tree.file.bytes, encoding: encoding,
                                       memo: nil, open: openTexts(besides: e.file.uri), root: projectRoot(of: e.file.uri),
                                       modules: modules), until: { false })
        if let own, let refusal = Self.renameRefusal(own, declaration: e.declaration, to: newName, ranges: all[0].ranges,
                                                     loader: loader(besides: e.file.uri)) {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: refusal)
        }
        return workspaceEdit(all.map { file, ranges in
            (file.uri, ranges.map { obj(("range", file.positions.json($0)), ("newText", .string(newName))) })
        })
    }

    /// Why renaming declaration `d` (written at `ranges`) to `newName` would change the
    /// file's meaning, or nil when it would not.
    static func renameRefusal(_ a: Analysis, declaration d: Int, to newName: String, ranges: [SourceRange],
                              loader: WorkspaceLoader) -> String? {
        let old = a.names.declarations[d]
        guard newName != old.name else { return nil }
        let index = LineIndex(a.file)
        func place(_ offset: UInt32) -> String { "line \(index.location(of: offset).line)" }
        if LanguageFacts.isBuiltinName(newName) {
            return "'\(newName)' is a built-in name: as the \(old.kind.noun)'s name it would hide the built-in wherever both are visible"
        }
        // The renamed text, and where each old offset moved.
        let delta = Int(newName.utf8.count) - Int(old.name.utf8.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(a.file.bytes.count + delta * ranges.count)
        var last = 0
        for range in ranges {
            bytes += a.file.bytes[last..<Int(range.start)]
            bytes += Array(newName.utf8)
            last = Int(range.end)
        }
        bytes += a.file.bytes[last...]
        func moved(_ offset: UInt32) -> UInt32 {
            let before = ranges.partitionIndex { $0.start >= offset }
            return UInt32(Int(offset) + before * delta)
        }
        let renamed = SourceFile(name: a.file.name, bytes: bytes)
        let after = Pipeline.compile(renamed, loader: loader).main
        let names = after.names ?? NameIndex.build(after.tree)
        // Every reference must resolve to the same declaration, and no other name may
        // start resolving (a use of a built-in `newName` would now find the declaration).
        var resolution: [UInt32: UInt32] = [:]
        for ref in names.references where ref.declaration < names.declarations.count {
            resolution[ref.range.start] = names.declarations[ref.declaration].range.start
        }
        for ref in a.names.references {
            let declared = a.names.declarations[ref.declaration]
            guard resolution[moved(ref.range.start)] == moved(declared.range.start) else {
                let now = resolution[moved(ref.range.start)].map { " (it would name what is declared at \(place(renamedOffsetBack($0, ranges, delta))))" } ?? ""
                return "renaming '\(old.name)' to '\(newName)' would change what '\(a.file.text(ref.range))' at \(place(ref.range.start)) refers to\(now)"
            }
        }
        if names.references.count != a.names.references.count {
            let known = Set(a.names.references.map { moved($0.range.start) })
            if let extra = names.references.first(where: { !known.contains($0.range.start) }) {
                return "'\(newName)' at \(place(renamedOffsetBack(extra.range.start, ranges, delta))) would refer to the renamed \(old.kind.noun)"
            }
            return "renaming '\(old.name)' to '\(newName)' would change what names refer to"
        }
        // A clash the index does not see (two declarations of one name, a component
        // called like a function): any error the check reports now that it did not. (A
        // new warning is no change of meaning: `_unused` renamed to `used` is now
        // reported unused.)
        func key(_ d: Diagnostic, _ move: (UInt32) -> UInt32) -> String { "\(d.code.rawValue)@\(move(d.range.start))" }
        let before = Set(a.result.diagnostics.map { key($0, moved) })
        if let new = after.diagnostics.first(where: { $0.severity == .error && !before.contains(key($0, { $0 })) }) {
            return "renaming '\(old.name)' to '\(newName)' would make this file report \(new.code.rawValue) at \(place(renamedOffsetBack(new.range.start, ranges, delta))): \(new.message)"
        }
        return nil
    }

    /// An offset in the renamed text, back in the original (for messages).
    private static func renamedOffsetBack(_ offset: UInt32, _ ranges: [SourceRange], _ delta: Int) -> UInt32 {
        var shift = 0
        for range in ranges where Int(range.start) + shift < Int(offset) { shift += delta }
        return UInt32(max(0, Int(offset) - shift))
    }

    // MARK: Symbols

    func documentSymbols(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        var budget = Self.symbolLimit
        var symbols = symbols(a.result.tree.root, a, budget: &budget, depth: 0)
        if budget <= 0 {
            r.show("The outline of \(LanguageServer.displayName(doc.uri)) shows its first \(Self.symbolLimit) symbols only.", type: 2)
        }
        if !client.hierarchicalSymbols { symbols = flatten(symbols, uri: doc.uri, container: nil) }
        return .array(symbols)
    }

    static let symbolLimit = 50_000

    /// Nested symbols as `SymbolInformation` for clients without hierarchical support.
    private func flatten(_ symbols: [JSONValue], uri: String, container: String?) -> [JSONValue] {
        symbols.flatMap { s -> [JSONValue] in
            let name = s["name"]?.stringValue ?? ""
            let me = obj(("name", .string(name)), ("kind", s["kind"]), ("location", obj(("uri", .string(uri)), ("range", s["range"]))),
                         ("containerName", container.map(JSONValue.string)))
            return [me] + flatten(s["children"]?.arrayValue ?? [], uri: uri, container: name)
        }
    }

    enum SymbolKind {
        static let module = 2, namespace = 3, `class` = 5, enumMember = 22, constant = 14, function = 12, object = 19, event = 24
    }

    private func symbols(_ block: Block, _ a: Analysis, budget: inout Int, depth: Int) -> [JSONValue] {
        let tree = a.result.tree
        var out: [JSONValue] = []
        for item in tree[block.items] {
            guard depth < 64 else { break }
            guard budget > 0 else { budget = 0; break }
            var name: String?, kind = 0, selection = item.range, children: Block?
            switch tree[item] {
            case .composition(let n, let b): name = ["composition", n?.name].compactMap { $0 }.joined(separator: " "); kind = SymbolKind.module; children = b
            case .layer(_, let k, let n, _, let b):
                name = "\(k.name) \(n?.name ?? "(unnamed)")"; kind = SymbolKind.class; selection = n?.range ?? k.range; children = b
            case .animation(let k, let t, let alias, _, let b, _):
                name = [k.name, t?.dotted, alias.map { "as \($0.name)" }].compactMap { $0 }.joined(separator: " "); kind = SymbolKind.event
                selection = t?.range ?? k.range; children = b
            case .letDecl(let n, _, _): name = n.name; kind = SymbolKind.constant; selection = n.range
            case .timingDecl(let n, _): name = n.name; kind = SymbolKind.function; selection = n.range
            case .pathDecl(let n, _): name = n.name; kind = SymbolKind.constant; selection = n.range
            case .component(let n, _, let b): name = n.name; kind = SymbolKind.class; selection = n.range; children = b
            case .instance(let n, _, _): name = n.name; kind = SymbolKind.object; selection = n.range
            case .importDecl(let path, let alias):
                guard case .string(let text) = tree[path] else { continue }
                name = "import \"\(text)\"" + (alias.map { " as \($0.name)" } ?? ""); kind = SymbolKind.namespace; selection = path.range
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
            budget -= 1
            let kids = children.map { symbols($0, a, budget: &budget, depth: depth + 1) } ?? []
            out.append(obj(("name", .string(name)), ("kind", .number(Double(kind))),
                           ("range", a.positions.json(item.range)), ("selectionRange", a.positions.json(selection)),
                           ("children", kids.isEmpty ? nil : .array(kids))))
        }
        return out
    }

    /// Declarations across the project (the open documents and the `.anim` files under the
    /// workspace folders) whose names contain the query's characters in order (as
    /// editors' fuzzy pickers match), case-insensitively.
    func workspaceSymbols(_ r: inout Request) throws(RequestError) -> JSONValue {
        let query = Array((r["query"]?.stringValue ?? "").lowercased())
        func matches(_ name: String) -> Bool {
            var q = query.startIndex
            for c in name.lowercased() where q < query.endIndex && c == query[q] { q += 1 }
            return q == query.endIndex
        }
        // The open documents and the project's files on disk; the best matches first (the
        // name itself, then names it starts, then the rest), open documents first among
        // equals, file and declaration order within a rank. Only the best are kept as
        // the files are read, and a file on disk leaves its declarations behind, not its
        // tree: an empty query over 31 MB of files built every match (1.43 GB).
        let open = Set(documents.keys)
        let text = String(query)
        let limit = 1000
        var kept: [(rank: Int, order: Int, symbol: WorkspaceSymbol)] = []
        var order = 0
        func keepBest() {
            kept.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
            kept.removeLast(max(0, kept.count - limit))
        }
        for path in projectPaths().paths {
            for symbol in workspaceSymbols(of: path) where matches(symbol.name) {
                let name = symbol.name.lowercased()
                let rank = (name == text ? 0 : name.hasPrefix(text) ? 2 : 4) + (open.contains(symbol.uri) ? 0 : 1)
                kept.append((rank, order, symbol))
                order += 1
                if kept.count >= 2 * limit { keepBest() }
            }
        }
        keepBest()
        return .array(kept.map { k in
            obj(("name", .string(k.symbol.name)), ("kind", .number(Double(k.symbol.kind))), ("containerName", .string(k.symbol.container)),
                ("location", obj(("uri", .string(k.symbol.uri)), ("range", k.symbol.range))))
        })
    }

    /// The declarations `workspace/symbol` offers in the file at `path`: an open
    /// document's from its analysis, a file on disk's from the cache while its stamp
    /// holds (parsed once, without keeping its tree).
    func workspaceSymbols(of path: String) -> [WorkspaceSymbol] {
        if openURI(ofPath: path) != nil || diskFiles[path] != nil {
            return projectFile(path).map(Self.symbols) ?? []
        }
        let stamp = LanguageServer.stamp(path)
        if let stamp, let cached = symbolFiles[path], cached.stamp == stamp { return cached.symbols }
        guard case .success(let file) = WorkspaceLoader(open: [:], root: projectRoot(of: LanguageServer.uri(forPath: path))).load(path)
        else { return [] }
        let tree = parse(file)
        let symbols = Self.symbols(ProjectFile(path: path, uri: LanguageServer.uri(forPath: path), tree: tree, names: NameIndex.build(tree),
                                               positions: PositionMap(bytes: file.bytes, encoding: encoding), analysis: nil))
        if let stamp { symbolFiles[path] = (stamp, symbols) }
        return symbols
    }

    static func symbols(_ file: ProjectFile) -> [WorkspaceSymbol] {
        file.names.declarations.compactMap { d in
            guard d.kind != .loopVariable && d.kind != .parameter && d.kind != .module else { return nil }
            let kind: Int
            switch d.kind {
            case .layer, .component: kind = SymbolKind.class
            case .animation: kind = SymbolKind.event
            case .timing: kind = SymbolKind.function
            default: kind = SymbolKind.constant
            }
            return WorkspaceSymbol(name: d.name, kind: kind, container: d.kind.noun, uri: file.uri, range: file.positions.json(d.range))
        }
    }
}

/// A declaration as `workspace/symbol` answers it.
struct WorkspaceSymbol {
    let name: String
    let kind: Int
    let container: String
    let uri: String
    let range: JSONValue
}
