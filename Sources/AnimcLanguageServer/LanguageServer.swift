import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcRuntime
import AnimcSyntax
import Foundation

/// `animc lsp`: a Language Server Protocol 3.17 server.
///
/// The server is a message handler: ``handle(_:)`` takes one decoded message and returns
/// the messages to send. Where checks run is its ``Checks``: inline, when asked (the
/// tests), or in the background (``LanguageServerLoop``), where a check of a version the
/// user has typed past is cancelled and requests are answered meanwhile from what the
/// parser knows of the current text.
public final class LanguageServer {
    enum State { case uninitialized, running, shuttingDown, exited }

    /// Where a document's checks run.
    public enum Checks {
        /// On the caller's thread, when something needs one.
        case inline
        /// Elsewhere (see ``BackgroundChecks``); finished checks come back through
        /// ``accept(_:)``.
        case background(any BackgroundChecks)
    }

    final class Document {
        let uri: String
        /// The client's version number, as published with diagnostics.
        var version: Int
        /// Counts every change, whatever version numbers the client sends: what an
        /// analysis is matched to.
        var revision = 0
        var bytes: [UInt8]
        /// What the last check lends the next: unchanged top-level items are reused.
        /// Used by one check at a time (the background checker runs one at a time).
        let memo = CheckMemo()
        /// The last finished check, of this revision or an earlier one.
        var checked: Analysis?
        /// The parser's view of this revision, while its check runs.
        var parsed: Analysis?
        /// The last full semantic tokens sent, for `full/delta`.
        var tokens: (id: String, data: [Int])?

        init(uri: String, version: Int, bytes: [UInt8]) {
            self.uri = uri
            self.version = version
            self.bytes = bytes
        }

        var tooLarge: Bool { bytes.count > Pipeline.maxSourceSize }
    }

    var state = State.uninitialized
    var encoding = PositionEncoding.utf16
    var client = ClientCapabilities()
    let checks: Checks
    /// Imported files checked once per content for every document's checks (see
    /// ``ModuleCache``): a keystroke in an importer does not check its libraries again.
    let modules = ModuleCache()
    var documents: [String: Document] = [:] {
        didSet { openPaths = nil }
    }
    /// The open documents' URIs by path, made when first asked after a document opens or
    /// closes: project-wide requests look every file up in it (a scan of the documents
    /// per file took 13–17 s with 1,000 open documents and 5,000 files).
    var openPaths: [String: String]?

    /// The URI of the open document at `path`, if one is.
    func openURI(ofPath path: String) -> String? {
        if openPaths == nil {
            openPaths = Dictionary(documents.keys.map { (LanguageServer.displayName($0), $0) }, uniquingKeysWith: min)
        }
        return openPaths?[path]
    }
    /// The workspace's folders (paths), whose `.anim` files navigation across files reads.
    var workspaceRoots: [String] = [] {
        didSet { canonicalWorkspaceRoots = workspaceRoots.map(LocalPaths.canonical) }
    }
    /// Their real paths, which document roots are compared with (``projectRoot(of:)``,
    /// asked on every keystroke's check).
    private(set) var canonicalWorkspaceRoots: [String] = []
    /// Project files read from disk, by path, with the stamp they were read at (see
    /// ``projectFile(_:)``).
    var diskFiles: [String: (stamp: String, file: ProjectFile)] = [:]
    /// The declarations of files on disk `workspace/symbol` read, by path, with the stamp
    /// they were read at (``workspaceSymbols(of:)``).
    var symbolFiles: [String: (stamp: String, symbols: [WorkspaceSymbol])] = [:]
    /// The workspace's `.anim` files as last walked (``workspaceListing()``).
    var listedFiles: (paths: [String], truncated: Bool, at: Date)?
    /// Documents whose diagnostics are stale: checked (or sent to be checked) and
    /// published at the end of a batch.
    var dirty: [String] = []
    /// Documents whose background check finished: their diagnostics are due.
    var finished: [String] = []
    /// Requests this server sent the client (`workspace/applyEdit`), by id.
    var nextRequestID = 1
    /// The exit code `exit` asks for: 0 after `shutdown`, 1 otherwise.
    public private(set) var exitCode: Int32?
    /// Serves a document's preview and gives its page's address (the host's preview
    /// server), for the code lens "preview at this animation's start".
    public var previews: ((_ path: String) -> String?)?

    public init(checks: Checks = .inline) {
        self.checks = checks
    }

    // MARK: Dispatch

    /// Handles one message; returns what to send (responses, notifications, and
    /// requests to the client).
    public func handle(_ message: JSONValue) -> [JSONValue] {
        guard case .object = message else {
            return [JSONRPC.error(id: .null, code: JSONRPC.ErrorCode.invalidRequest, message: "a message must be a JSON object")]
        }
        let id = message["id"]
        guard let method = message["method"]?.stringValue else {
            // A response to a request of ours (applyEdit), or nonsense: requests get an error.
            if let id, message["result"] == nil && message["error"] == nil {
                return [JSONRPC.error(id: id, code: JSONRPC.ErrorCode.invalidRequest, message: "a request needs a method")]
            }
            return []
        }
        let params = message["params"] ?? .null
        if let id {
            var extra: [JSONValue] = []
            let reply = respond(id: id, method: method, params: params, extra: &extra)
            return [reply] + extra
        }
        notify(method: method, params: params)
        if method == "initialized", state == .running, client.watchedFilesRegistration {
            // Files on disk that open documents import: their changes re-check the importers.
            nextRequestID += 1
            return [obj(("jsonrpc", "2.0"), ("id", .string("animc-\(nextRequestID)")), ("method", "client/registerCapability"),
                        ("params", obj(("registrations", .array([obj(
                            ("id", "animc-watched-files"), ("method", "workspace/didChangeWatchedFiles"),
                            ("registerOptions", obj(("watchers", .array([obj(("globPattern", "**/*.anim"))])))))])))))]
        }
        return []
    }

    /// Diagnostics due: for documents that changed since the last call (checked now,
    /// or sent to the background to be checked) and for background checks that finished.
    public func flushDiagnostics() -> [JSONValue] {
        var out: [JSONValue] = []
        let uris = dirty
        dirty.removeAll()
        for uri in uris {
            guard let doc = documents[uri] else {
                out.append(JSONRPC.notification("textDocument/publishDiagnostics",
                                                obj(("uri", .string(uri)), ("diagnostics", .array([])))))
                continue
            }
            if doc.tooLarge {
                out.append(publishTooLarge(doc))
                continue
            }
            switch checks {
            case .inline: out.append(publishDiagnostics(doc, checkedAnalysis(doc)))
            case .background(let background): background.submit(job(doc))
            }
        }
        for uri in finished {
            if let doc = documents[uri], let a = doc.checked, a.revision == doc.revision { out.append(publishDiagnostics(doc, a)) }
        }
        finished.removeAll()
        return out
    }

    /// Takes a finished background check. Its diagnostics are published by the next
    /// ``flushDiagnostics()`` unless the document changed since.
    public func accept(_ analysis: Analysis) {
        guard let doc = documents[analysis.uri], analysis.revision == doc.revision else { return }
        adopt(analysis, for: doc)
    }

    /// Keeps a background check as the document's, to be published with the next
    /// ``flushDiagnostics()``.
    func adopt(_ analysis: Analysis, for doc: Document) {
        doc.checked = analysis
        doc.parsed = nil
        if !finished.contains(doc.uri) { finished.append(doc.uri) }
    }

    /// Submits the document's check now when it was left for the end of the batch (a
    /// request about it came first).
    func submitIfDirty(_ doc: Document, to background: any BackgroundChecks) {
        guard dirty.contains(doc.uri) else { return }
        dirty.removeAll { $0 == doc.uri }
        background.submit(job(doc))
    }

    func job(_ doc: Document, memo: Bool = true) -> CheckJob {
        CheckJob(uri: doc.uri, version: doc.version, revision: doc.revision, bytes: doc.bytes, encoding: encoding,
                 memo: memo ? doc.memo : nil, open: openTexts(besides: doc.uri), root: projectRoot(of: doc.uri), modules: modules)
    }

    /// A workspace edit of `files` (each a document's URI and its text edits): versioned
    /// (`documentChanges`, each open document at the version the edits were made for,
    /// a file not open at no version) when the client takes them, so a client that has
    /// moved on refuses them instead of applying them to other text (a rename right
    /// after a format corrupted a file in Eglot); else plain `changes`.
    func workspaceEdit(_ files: [(uri: String, edits: [JSONValue])]) -> JSONValue {
        guard client.documentChanges else {
            return obj(("changes", .object(files.map { JSONMember($0.uri, .array($0.edits)) })))
        }
        return obj(("documentChanges", .array(files.map { file in
            obj(("textDocument", obj(("uri", .string(file.uri)), ("version", documents[file.uri].map { .number(Double($0.version)) } ?? .null))),
                ("edits", .array(file.edits)))
        })))
    }

    /// Reads what the document at `uri` imports: open documents first, then the disk,
    /// inside its project root.
    func loader(besides uri: String) -> WorkspaceLoader {
        WorkspaceLoader(open: openTexts(besides: uri), root: projectRoot(of: uri))
    }

    /// The project root of the document at `uri` (``ProjectRoot``): the innermost
    /// workspace folder that holds it, else the nearest folder above it with a project
    /// marker, else its own folder; nil for a document that is not a file.
    func projectRoot(of uri: String) -> ProjectRoot? {
        guard uri.hasPrefix("file://") else { return nil }
        let path = LanguageServer.displayName(uri)
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let folder = LocalPaths.canonical(directory.isEmpty ? "/" : directory)
        let holding = canonicalWorkspaceRoots
            .filter { ProjectRoot(path: $0, origin: .workspace).contains(folder) }
            .max { $0.count < $1.count }
        if let holding { return ProjectRoot(path: holding, origin: .workspace) }
        return ProjectRoot.find(fromFolder: folder, exists: { FileManager.default.fileExists(atPath: $0) })
    }

    /// The text of every open document but `uri`'s, by path: what the files a check
    /// imports are read from before the disk (unsaved text wins).
    func openTexts(besides uri: String) -> [String: [UInt8]] {
        var texts: [String: [UInt8]] = [:]
        for (other, doc) in documents where other != uri && !doc.tooLarge { texts[LanguageServer.displayName(other)] = doc.bytes }
        return texts
    }

    /// Files changed on disk: the open documents that import one are checked again (an
    /// open document's own text wins over the disk, so its change is not one), and a
    /// created or deleted file drops the workspace's listing. One pass over the documents
    /// for the whole batch: 10,000 changes with 200 open documents took 18 s one by one.
    /// An image beside a document is read afresh when asked.
    func filesChanged(_ changes: [JSONValue]) {
        var paths = Set<String>()
        for change in changes {
            guard let uri = change["uri"]?.stringValue else { continue }
            // FileChangeType: 1 created, 2 changed, 3 deleted.
            if change["type"]?.numberValue != 2 { listedFiles = nil }
            guard documents[uri] == nil else { continue }
            let path = LanguageServer.displayName(uri)
            paths.insert(path)
            diskFiles[path] = nil
            symbolFiles[path] = nil
        }
        markImporters(of: paths)
    }

    /// Checks again every open document whose imported files on disk changed since its
    /// check read them (their stamps differ): what a client that does not watch files
    /// (Neovim 0.7, ALE) never says.
    func refreshStaleImports() {
        for (uri, doc) in documents.sorted(by: { $0.key < $1.key }) {
            guard let a = doc.checked, a.revision == doc.revision, !a.importStamps.isEmpty else { continue }
            let stale = a.importStamps.contains { path, stamp in
                openURI(ofPath: path) == nil && (LanguageServer.stamp(path) ?? "") != stamp
            }
            if stale { markForCheck(uri, doc) }
        }
    }

    /// Marks every open document that imports `uri`'s file (as its last check read it)
    /// for a new check: what it means changed with the imported file, so it is a new
    /// revision of the document (the client's version stays).
    func markImporters(of uri: String) {
        markImporters(of: [LanguageServer.displayName(uri)], besides: uri)
    }

    /// ``markImporters(of:)`` for a set of files' paths, in one pass over the documents.
    func markImporters(of paths: Set<String>, besides uri: String? = nil) {
        guard !paths.isEmpty else { return }
        for (other, doc) in documents.sorted(by: { $0.key < $1.key }) where other != uri {
            guard let a = doc.checked, a.importedPaths.contains(where: paths.contains) else { continue }
            markForCheck(other, doc)
        }
    }

    /// A new revision of `doc` (what it means changed, its text did not), to check again.
    private func markForCheck(_ uri: String, _ doc: Document) {
        doc.revision += 1
        doc.parsed = nil
        markDirty(uri)
    }

    func respond(id: JSONValue, method: String, params: JSONValue, extra: inout [JSONValue]) -> JSONValue {
        switch (state, method) {
        case (.uninitialized, "initialize"):
            return JSONRPC.response(id: id, result: initialize(params))
        case (.uninitialized, _):
            return JSONRPC.error(id: id, code: JSONRPC.ErrorCode.serverNotInitialized, message: "the server is not initialized")
        case (_, "initialize"):
            return JSONRPC.error(id: id, code: JSONRPC.ErrorCode.invalidRequest, message: "initialize was already received")
        case (_, "shutdown"):
            state = .shuttingDown
            return JSONRPC.response(id: id, result: .null)
        case (.shuttingDown, _):
            return JSONRPC.error(id: id, code: JSONRPC.ErrorCode.invalidRequest, message: "the server is shutting down")
        default:
            break
        }
        var request = Request(params: params)
        do {
            guard let result = try dispatch(method, &request) else {
                return JSONRPC.error(id: id, code: JSONRPC.ErrorCode.methodNotFound, message: "unknown method '\(method)'")
            }
            extra += request.notifications
            return JSONRPC.response(id: id, result: result)
        } catch {
            extra += request.notifications
            return JSONRPC.error(id: id, code: error.code, message: error.message)
        }
    }

    /// The answer to a request on documents; nil for a method the server does not have.
    private func dispatch(_ method: String, _ r: inout Request) throws(RequestError) -> JSONValue? {
        switch method {
        case "textDocument/hover": return try hover(&r)
        case "textDocument/completion": return try completion(&r)
        case "textDocument/signatureHelp": return try signatureHelp(&r)
        case "textDocument/definition": return try definition(&r)
        case "textDocument/references": return try references(&r)
        case "textDocument/documentHighlight": return try documentHighlight(&r)
        case "textDocument/prepareRename": return try prepareRename(&r)
        case "textDocument/rename": return try rename(&r)
        case "textDocument/documentSymbol": return try documentSymbols(&r)
        case "workspace/symbol": return try workspaceSymbols(&r)
        case "workspace/willRenameFiles": return try willRenameFiles(&r)
        case "textDocument/semanticTokens/full": return try semanticTokensFull(&r)
        case "textDocument/semanticTokens/full/delta": return try semanticTokensDelta(&r)
        case "textDocument/semanticTokens/range": return try semanticTokensRange(&r)
        case "textDocument/foldingRange": return try foldingRanges(&r)
        case "textDocument/codeAction": return try codeActions(&r)
        case "textDocument/formatting", "textDocument/rangeFormatting": return try formatting(&r)
        case "textDocument/inlayHint": return try inlayHints(&r)
        case "textDocument/documentLink": return try documentLinks(&r)
        case "textDocument/codeLens": return try codeLenses(&r)
        case "textDocument/documentColor": return try documentColors(&r)
        case "textDocument/colorPresentation": return try colorPresentations(&r)
        case "workspace/executeCommand":
            let arguments = r["arguments"]?.arrayValue ?? []
            switch r["command"]?.stringValue {
            case Self.applyEditCommand?: return try applyEdit(arguments, &r)
            case Self.previewCommand?: return try preview(arguments, &r)
            default:
                throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "unknown command '\(r["command"]?.stringValue ?? "")'")
            }
        default: return nil
        }
    }

    /// One request's parameters, and notifications its answer sends with it.
    struct Request {
        let params: JSONValue
        var notifications: [JSONValue] = []

        subscript(key: String) -> JSONValue? { params[key] }

        /// Tells the user something the answer itself cannot say.
        mutating func show(_ message: String, type: Int = 3) {
            notifications.append(JSONRPC.notification("window/showMessage", obj(("type", .number(Double(type))), ("message", .string(message)))))
        }
    }

    func notify(method: String, params: JSONValue) {
        switch method {
        case "exit":
            exitCode = state == .shuttingDown ? 0 : 1
            state = .exited
        case _ where state != .running:
            return
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.stringValue,
                  let text = item["text"]?.stringValue else { return }
            let version = item["version"]?.numberValue.map { Int(saturating: $0) } ?? 0
            let doc = Document(uri: uri, version: version, bytes: Array(text.utf8))
            if let old = documents[uri] { doc.revision = old.revision + 1 }
            documents[uri] = doc
            markDirty(uri)
            markImporters(of: uri)
            refreshStaleImports()
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.stringValue, let doc = documents[uri],
                  let changes = params["contentChanges"]?.arrayValue else { return }
            // Incremental changes give positions in the document as the change before
            // left it: one map, kept up to date edit by edit.
            var map: PositionMap?
            for change in changes {
                guard let text = change["text"]?.stringValue else { continue }
                if let rangeJSON = change["range"] {
                    var current = map.take() ?? PositionMap(bytes: doc.bytes, encoding: encoding)
                    doc.bytes = []  // the map holds the only copy while it edits in place
                    if let range = current.range(rangeJSON) {
                        current.replace(Int(range.start)..<Int(range.end), with: Array(text.utf8))
                    }
                    doc.bytes = current.bytes
                    map = current
                } else {
                    map = nil
                    doc.bytes = Array(text.utf8)
                }
            }
            doc.version = params["textDocument"]?["version"]?.numberValue.map { Int(saturating: $0) } ?? doc.version + 1
            doc.revision += 1
            doc.parsed = nil
            markDirty(uri)
            markImporters(of: uri)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue else { return }
            documents[uri] = nil
            if case .background(let background) = checks { background.cancel(uri: uri) }
            markDirty(uri)  // clears its diagnostics
            markImporters(of: uri)  // which now read it from the disk
        case "textDocument/didSave":
            // A client that does not watch files: saving is when users expect the
            // project to be read again (an importer kept a library's old errors).
            refreshStaleImports()
                case "workspace/didChangeWatchedFiles":
            filesChanged(params["changes"]?.arrayValue ?? [])
        default:
            return  // $/setTrace, $/cancelRequest (handled by the loop), and the rest
        }
    }

    func markDirty(_ uri: String) {
        if !dirty.contains(uri) { dirty.append(uri) }
    }

    // MARK: Lifecycle

    func initialize(_ params: JSONValue) -> JSONValue {
        client = ClientCapabilities(params["capabilities"] ?? .null)
        workspaceRoots = LanguageServer.workspaceRoots(params)
        listedFiles = nil
        encoding = client.positionEncodings.contains("utf-8") ? .utf8 : .utf16
        state = .running
        let legend = obj(("tokenTypes", .array(SemanticTokenType.allCases.map { .string($0.name) })),
                         ("tokenModifiers", .array(["declaration", "readonly"])))
        let capabilities = obj(
            ("positionEncoding", .string(encoding.rawValue)),
            ("textDocumentSync", obj(("openClose", true), ("change", 2), ("save", obj(("includeText", false))))),
            ("hoverProvider", true),
            ("completionProvider", obj(("triggerCharacters", [".", ":", "("]), ("resolveProvider", false))),
            ("signatureHelpProvider", obj(("triggerCharacters", ["(", ","]), ("retriggerCharacters", [":"]))),
            ("definitionProvider", true),
            ("referencesProvider", true),
            ("documentHighlightProvider", true),
            ("renameProvider", obj(("prepareProvider", true))),
            ("documentSymbolProvider", true),
            ("workspaceSymbolProvider", true),
            ("semanticTokensProvider", obj(("legend", legend), ("full", obj(("delta", true))), ("range", true))),
            ("foldingRangeProvider", true),
            ("codeActionProvider", client.codeActionLiterals ? obj(("codeActionKinds", ["quickfix", "source.fixAll", "refactor.inline", "refactor.extract"])) : true),
            ("executeCommandProvider", obj(("commands", .array([.string(Self.applyEditCommand), .string(Self.previewCommand)])))),
            ("documentFormattingProvider", true),
            ("documentRangeFormattingProvider", true),
            ("inlayHintProvider", obj(("resolveProvider", false))),
            ("documentLinkProvider", obj(("resolveProvider", false))),
            ("codeLensProvider", obj(("resolveProvider", false))),
            ("colorProvider", true),
            ("workspace", obj(("fileOperations", obj(("willRename", obj(("filters", .array([
                obj(("scheme", "file"), ("pattern", obj(("glob", "**/*.anim"), ("matches", "file")))),
                obj(("scheme", "file"), ("pattern", obj(("glob", "**/*"), ("matches", "folder")))),
            ])))))))))
        return obj(("capabilities", capabilities),
                   ("serverInfo", obj(("name", "animc"), ("version", .string(Pipeline.version)))))
    }

    // MARK: Analyses

    struct RequestError: Error {
        var code: Int
        var message: String
    }

    /// The document a request names.
    func document(_ request: Request) throws(RequestError) -> Document {
        guard let uri = request["textDocument"]?["uri"]?.stringValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing textDocument.uri")
        }
        guard let doc = documents[uri] else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "unknown document '\(uri)': open it first")
        }
        guard !doc.tooLarge else {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "the document is \(Pipeline.sourceTooLarge)")
        }
        return doc
    }

    /// The best analysis of the document's current text there is without waiting: its
    /// check when it has finished (inline, the check itself), else the parser's.
    func currentAnalysis(_ request: Request) throws(RequestError) -> (Document, Analysis) {
        let doc = try document(request)
        return (doc, currentAnalysis(doc))
    }

    /// ``currentAnalysis(_:)``, waiting up to `seconds` for a check that runs in the
    /// background: a hover on `tokens.x` or a timing needs the check, which is usually
    /// done within milliseconds; the parser's answer had nothing to say meanwhile.
    func currentAnalysis(_ request: Request, waitingAtMost seconds: Double) throws(RequestError) -> (Document, Analysis) {
        let doc = try document(request)
        if doc.checked?.revision != doc.revision, case .background(let background) = checks {
            submitIfDirty(doc, to: background)
            if let a = background.wait(uri: doc.uri, revision: doc.revision, atMost: seconds) { adopt(a, for: doc) }
        }
        return (doc, currentAnalysis(doc))
    }

    /// How long a hover waits for the check of the text it is asked about: a check of a
    /// few milliseconds is waited for; a slow one is not (a hover is answered within
    /// 200 ms whatever the check costs, `Tests/lsp/conformance.py`).
    static let hoverWait = 0.05

    func currentAnalysis(_ doc: Document) -> Analysis {
        if let a = doc.checked, a.revision == doc.revision { return a }
        if case .inline = checks { return checkedAnalysis(doc) }
        if let p = doc.parsed, p.revision == doc.revision { return p }
        let p = Analysis(parsing: doc.bytes, uri: doc.uri, version: doc.version, revision: doc.revision, encoding: encoding)
        doc.parsed = p
        return p
    }

    /// The check of the document's current text, waiting for it when it runs in the
    /// background: for answers that must be exact (fixes, renames, timing hints).
    func checkedAnalysis(_ request: Request) throws(RequestError) -> (Document, Analysis) {
        let doc = try document(request)
        return (doc, checkedAnalysis(doc))
    }

    func checkedAnalysis(_ doc: Document) -> Analysis {
        if let a = doc.checked, a.revision == doc.revision { return a }
        switch checks {
        case .inline:
            let a = Analysis.check(job(doc), until: { false }) ?? Analysis(parsing: doc.bytes, uri: doc.uri, version: doc.version,
                                                                              revision: doc.revision, encoding: encoding)
            doc.checked = a
            doc.parsed = nil
            return a
        case .background(let background):
            // Scheduled at the end of the last batch, or now if a request came first.
            submitIfDirty(doc, to: background)
            let a = background.wait(uri: doc.uri, revision: doc.revision)
                ?? Analysis.check(job(doc, memo: false), until: { false })
                ?? Analysis(parsing: doc.bytes, uri: doc.uri, version: doc.version, revision: doc.revision, encoding: encoding)
            adopt(a, for: doc)
            return a
        }
    }

    func offset(_ request: Request, _ a: Analysis) throws(RequestError) -> UInt32 {
        guard let o = a.positions.offset(request["position"]) else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing or invalid position")
        }
        return UInt32(o)
    }

    static func displayName(_ uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let path = String(uri.dropFirst(7))
        return path.removingPercentEncoding ?? path
    }
}

/// Everything known about one revision of a document: its check, or while that runs,
/// what the parser knows (``checked`` false: names, outline and syntax, no values).
public struct Analysis: Sendable {
    let uri: String
    let version: Int
    let revision: Int
    let file: SourceFile
    let result: CompileResult
    /// The files the check read besides the document (its imports, direct or not): a
    /// change to one of them is a change to what the document means.
    /// (Its own imports count even when they failed: a missing file may appear.)
    var importedPaths: [String] {
        imported.map(\.file.name) + result.tree.imports.compactMap { ImportResolution.resolve($0.path, from: file.name) }
    }
    /// The check of each file it imports (for hover on `tokens.fast`).
    var imported: [CompileResult] = []
    /// What each imported file on disk was when the check read it (its stamp; "" when
    /// there was none): a file that changed since makes the check stale, for clients
    /// that do not watch files (``LanguageServer/refreshStaleImports()``).
    var importStamps: [String: String] = [:]
    let names: NameIndex
    let positions: PositionMap
    let folded: FoldedValues
    /// Whether the checker ran (else only the parser).
    let checked: Bool

    private init(uri: String, version: Int, revision: Int, result: CompileResult, encoding: PositionEncoding, checked: Bool) {
        self.uri = uri
        self.version = version
        self.revision = revision
        file = result.file
        self.result = result
        names = result.names ?? NameIndex.build(result.tree)
        positions = PositionMap(bytes: result.file.bytes, encoding: encoding)
        folded = result.foldedValues
        self.checked = checked
    }

    /// What the parser alone knows of `bytes`.
    init(parsing bytes: [UInt8], uri: String, version: Int, revision: Int, encoding: PositionEncoding) {
        let file = SourceFile(name: LanguageServer.displayName(uri), bytes: bytes)
        self.init(uri: uri, version: version, revision: revision, result: Pipeline.syntax(file), encoding: encoding, checked: false)
    }

    /// Checks a job's text, with the files it imports; nil once `isCancelled` says so.
    static func check(_ job: CheckJob, until isCancelled: @escaping () -> Bool) -> Analysis? {
        let file = SourceFile(name: LanguageServer.displayName(job.uri), bytes: job.bytes)
        guard let project = Pipeline.compile(file, loader: WorkspaceLoader(open: job.open, root: job.root), memo: job.memo,
                                              cache: job.modules, until: isCancelled)
        else { return nil }
        var main = project.main
        // A `test` block's expectations that do not hold are shown where they are written,
        // as `animc test` reports them (snapshots need pixels and are left to it).
        if let composition = main.composition, !main.tests.isEmpty {
            let failures = ExpectationCheck.run(main.tests, on: Timeline(composition), composition: composition, interaction: main.interaction)
                .filter { !$0.passed }.map(\.diagnostic)
            main.diagnostics = (main.diagnostics + failures).sorted(by: Diagnostic.ordered)
        }
        var a = Analysis(uri: job.uri, version: job.version, revision: job.revision, result: main, encoding: job.encoding,
                         checked: true)
        a.imported = project.imported
        for path in a.importedPaths where job.open[path] == nil { a.importStamps[path] = LanguageServer.stamp(path) ?? "" }
        return a
    }

    /// The tokens, lexed again on demand: only highlighting, folding and hover need
    /// them, and a keystroke's re-check should not pay for them.
    func lexTokens() -> [Token] { Lexer.lex(file).tokens }
}

/// A document's text to check, and where its result belongs.
public struct CheckJob: @unchecked Sendable {
    public let uri: String
    let version: Int
    let revision: Int
    let bytes: [UInt8]
    let encoding: PositionEncoding
    /// The document's memo; used by one check at a time.
    let memo: CheckMemo?
    /// The other open documents' text, by path (see ``WorkspaceLoader``).
    var open: [String: [UInt8]] = [:]
    /// The document's project root (``WorkspaceLoader/root``).
    var root: ProjectRoot?
    /// The server's checks of imported files (shared by every job).
    var modules: ModuleCache?

    /// Checks the text; nil once `isCancelled` says so.
    public func run(until isCancelled: @escaping () -> Bool) -> Analysis? { Analysis.check(self, until: isCancelled) }
}

/// Where checks run away from the server's thread (see ``LanguageServerLoop``).
public protocol BackgroundChecks: AnyObject {
    /// Checks `job` soon, replacing any job of the same document not yet started and
    /// cancelling one that is running; its result comes back through
    /// ``LanguageServer/accept(_:)``.
    func submit(_ job: CheckJob)
    /// Stops checking a document (it was closed).
    func cancel(uri: String)
    /// Waits for the check of `revision` of the document submitted last, and takes it
    /// (it is then not passed to ``LanguageServer/accept(_:)``); nil when none is due.
    func wait(uri: String, revision: Int) -> Analysis?
    /// ``wait(uri:revision:)`` for at most `seconds`: nil when the check is not done by
    /// then (it goes on, and comes back through ``LanguageServer/accept(_:)``).
    func wait(uri: String, revision: Int, atMost seconds: Double) -> Analysis?
}

/// What the client said it supports at `initialize`; what it did not say it supports
/// is not sent (snippets, Markdown, nested symbols, code action literals).
struct ClientCapabilities {
    var positionEncodings: [String] = []
    var snippets = false
    var markdownHover = false
    var markdownSignatures = false
    var hierarchicalSymbols = false
    var codeActionLiterals = false
    var applyEdit = false
    var showDocument = false
    /// Whether the client watches files for the server when asked (`client/registerCapability`).
    var watchedFilesRegistration = false
    /// Whether the client takes versioned edits (`workspace.workspaceEdit.documentChanges`).
    var documentChanges = false

    init() {}

    init(_ c: JSONValue) {
        let text = c["textDocument"]
        positionEncodings = c["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        snippets = text?["completion"]?["completionItem"]?["snippetSupport"]?.boolValue ?? false
        markdownHover = text?["hover"]?["contentFormat"]?.arrayValue?.contains { $0.stringValue == "markdown" } ?? false
        markdownSignatures = text?["signatureHelp"]?["signatureInformation"]?["documentationFormat"]?.arrayValue?
            .contains { $0.stringValue == "markdown" } ?? false
        hierarchicalSymbols = text?["documentSymbol"]?["hierarchicalDocumentSymbolSupport"]?.boolValue ?? false
        codeActionLiterals = text?["codeAction"]?["codeActionLiteralSupport"] != nil
        applyEdit = c["workspace"]?["applyEdit"]?.boolValue ?? false
        showDocument = c["window"]?["showDocument"]?["support"]?.boolValue ?? false
        watchedFilesRegistration = c["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue ?? false
        documentChanges = c["workspace"]?["workspaceEdit"]?["documentChanges"]?.boolValue ?? false
    }
}
