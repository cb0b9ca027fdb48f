import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax
import Foundation

/// `animc lsp`: a Language Server Protocol 3.17 server.
///
/// The server is a pure message handler: ``handle(_:)`` takes one decoded message and
/// returns the messages to send. ``LanguageServerLoop`` connects it to a byte stream;
/// tests drive it directly. Documents are compiled lazily, once per version, so a
/// burst of changes costs one compile when something is next asked.
public final class LanguageServer {
    enum State { case uninitialized, running, shuttingDown, exited }

    final class Document {
        let uri: String
        var version: Int
        var bytes: [UInt8]
        private var cached: Analysis?
        /// What the last check can lend the next: unchanged top-level items are reused.
        let memo = CheckMemo()

        init(uri: String, version: Int, bytes: [UInt8]) {
            self.uri = uri
            self.version = version
            self.bytes = bytes
        }

        func analysis(_ encoding: PositionEncoding) -> Analysis {
            if let cached, cached.version == version, cached.positions.encoding == encoding { return cached }
            let a = Analysis(uri: uri, version: version, bytes: bytes, encoding: encoding, memo: memo)
            cached = a
            return a
        }

        func invalidate() { cached = nil }
    }

    /// Everything known about one version of a document.
    struct Analysis {
        let version: Int
        let file: SourceFile
        let result: CompileResult
        let names: NameIndex
        let positions: PositionMap
        let folded: FoldedValues

        init(uri: String, version: Int, bytes: [UInt8], encoding: PositionEncoding, memo: CheckMemo) {
            self.version = version
            file = SourceFile(name: LanguageServer.displayName(uri), bytes: bytes)
            result = Pipeline.compile(file, memo: memo)
            names = result.names ?? NameIndex.build(result.tree)
            positions = PositionMap(bytes: bytes, encoding: encoding)
            folded = result.foldedValues
        }

        /// The tokens, lexed again on demand: only highlighting, folding and hover need
        /// them, and a keystroke's re-check should not pay for them.
        func lexTokens() -> [Token] { Lexer.lex(file).tokens }
    }

    var state = State.uninitialized
    var encoding = PositionEncoding.utf16
    var documents: [String: Document] = [:]
    /// Documents whose diagnostics are stale: published at the end of a batch.
    var dirty: [String] = []
    /// The exit code `exit` asks for: 0 after `shutdown`, 1 otherwise.
    public private(set) var exitCode: Int32?

    public init() {}

    // MARK: Dispatch

    /// Handles one message; returns what to send (responses and notifications).
    public func handle(_ message: JSONValue) -> [JSONValue] {
        guard case .object = message else {
            return [JSONRPC.error(id: .null, code: JSONRPC.ErrorCode.invalidRequest, message: "a message must be a JSON object")]
        }
        let id = message["id"]
        guard let method = message["method"]?.stringValue else {
            // A response to something we never ask, or nonsense: requests get an error.
            if let id, message["result"] == nil && message["error"] == nil {
                return [JSONRPC.error(id: id, code: JSONRPC.ErrorCode.invalidRequest, message: "a request needs a method")]
            }
            return []
        }
        let params = message["params"] ?? .null
        if let id {
            return [respond(id: id, method: method, params: params)]
        }
        notify(method: method, params: params)
        return []
    }

    /// Diagnostics for documents that changed since the last call.
    public func flushDiagnostics() -> [JSONValue] {
        let uris = dirty
        dirty.removeAll()
        var out: [JSONValue] = []
        for uri in uris {
            if let doc = documents[uri] {
                out.append(publishDiagnostics(doc))
            } else {
                out.append(JSONRPC.notification("textDocument/publishDiagnostics",
                                                obj(("uri", .string(uri)), ("diagnostics", .array([])))))
            }
        }
        return out
    }

    func respond(id: JSONValue, method: String, params: JSONValue) -> JSONValue {
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
        let features: [String: (JSONValue) throws(RequestError) -> JSONValue] = [
            "textDocument/hover": hover,
            "textDocument/completion": completion,
            "textDocument/definition": definition,
            "textDocument/references": references,
            "textDocument/prepareRename": prepareRename,
            "textDocument/rename": rename,
            "textDocument/documentSymbol": documentSymbols,
            "textDocument/semanticTokens/full": semanticTokens,
            "textDocument/foldingRange": foldingRanges,
            "textDocument/codeAction": codeActions,
            "textDocument/formatting": formatting,
            "textDocument/rangeFormatting": formatting,
        ]
        guard let feature = features[method] else {
            return JSONRPC.error(id: id, code: JSONRPC.ErrorCode.methodNotFound, message: "unknown method '\(method)'")
        }
        do {
            return JSONRPC.response(id: id, result: try feature(params))
        } catch {
            return JSONRPC.error(id: id, code: error.code, message: error.message)
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
            documents[uri] = Document(uri: uri, version: version, bytes: Array(text.utf8))
            markDirty(uri)
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
            doc.invalidate()
            markDirty(uri)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.stringValue else { return }
            documents[uri] = nil
            markDirty(uri)  // clears its diagnostics
        default:
            return  // didSave, $/setTrace, $/cancelRequest (handled by the loop), and the rest
        }
    }

    func markDirty(_ uri: String) {
        if !dirty.contains(uri) { dirty.append(uri) }
    }

    // MARK: Lifecycle

    func initialize(_ params: JSONValue) -> JSONValue {
        let offered = params["capabilities"]?["general"]?["positionEncodings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        encoding = offered.contains("utf-8") ? .utf8 : .utf16
        state = .running
        let legend = obj(("tokenTypes", .array(SemanticTokenType.allCases.map { .string($0.name) })),
                         ("tokenModifiers", .array(["declaration", "readonly"])))
        let capabilities = obj(
            ("positionEncoding", .string(encoding.rawValue)),
            ("textDocumentSync", obj(("openClose", true), ("change", 2), ("save", obj(("includeText", false))))),
            ("hoverProvider", true),
            ("completionProvider", obj(("triggerCharacters", [".", ":", " "]), ("resolveProvider", false))),
            ("definitionProvider", true),
            ("referencesProvider", true),
            ("renameProvider", obj(("prepareProvider", true))),
            ("documentSymbolProvider", true),
            ("semanticTokensProvider", obj(("legend", legend), ("full", true))),
            ("foldingRangeProvider", true),
            ("codeActionProvider", obj(("codeActionKinds", ["quickfix", "source.fixAll"]))),
            ("documentFormattingProvider", true),
            ("documentRangeFormattingProvider", true))
        return obj(("capabilities", capabilities),
                   ("serverInfo", obj(("name", "animc"), ("version", .string(Pipeline.version)))))
    }

    // MARK: Requests on documents

    struct RequestError: Error {
        var code: Int
        var message: String
    }

    func document(_ params: JSONValue) throws(RequestError) -> (Document, Analysis) {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing textDocument.uri")
        }
        guard let doc = documents[uri] else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "unknown document '\(uri)': open it first")
        }
        return (doc, doc.analysis(encoding))
    }

    func offset(_ params: JSONValue, _ a: Analysis) throws(RequestError) -> Int {
        guard let o = a.positions.offset(params["position"]) else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing or invalid position")
        }
        return o
    }

    static func displayName(_ uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let path = String(uri.dropFirst(7))
        return path.removingPercentEncoding ?? path
    }
}
