import AnimcBase
@testable import AnimcLanguageServer
import AnimcSyntax
import AnimcTestSupport
import Foundation
import Testing

/// `animc lsp`, driven as an editor drives it: in process through ``LanguageServer``
/// and over real pipes through ``LanguageServerLoop``.
@Suite struct LanguageServerTests {
    static let uri = "file:///work/pulse.anim"
    static let pulse = Repository.read("Tests/AnimcLanguageServerTests/Fixtures/lsp/pulse.anim")

    final class Client {
        let server = LanguageServer()
        var notifications: [JSONValue] = []
        var nextID = 1

        /// A client that supports what the server can send (Markdown, snippets, nested
        /// symbols, code action literals); `capabilities` replaces that.
        /// `rootUri`: the workspace's folder, for a project of several files.
        init(encodings: [String] = ["utf-16"], open text: String? = LanguageServerTests.pulse, capabilities: JSONValue? = nil,
             rootUri: String? = nil) {
            let full = obj(("general", obj(("positionEncodings", .array(encodings.map(JSONValue.string))))),
                           ("textDocument", obj(("hover", obj(("contentFormat", ["markdown", "plaintext"]))),
                                                ("completion", obj(("completionItem", obj(("snippetSupport", true))))),
                                                ("documentSymbol", obj(("hierarchicalDocumentSymbolSupport", true))),
                                                ("codeAction", obj(("codeActionLiteralSupport", obj(("codeActionKind", obj(("valueSet", ["quickfix"]))))))))))
            let r = request("initialize", obj(("capabilities", capabilities ?? full), ("rootUri", rootUri.map(JSONValue.string))))
            #expect(r["result"]?["capabilities"]?["hoverProvider"] == true)
            notify("initialized", obj())
            if let text {
                notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(LanguageServerTests.uri)), ("languageId", "anim"),
                                                                        ("version", 1), ("text", .string(text))))))
            }
        }

        @discardableResult
        func request(_ method: String, _ params: JSONValue) -> JSONValue {
            let id = nextID
            nextID += 1
            let replies = server.handle(obj(("jsonrpc", "2.0"), ("id", .number(Double(id))), ("method", .string(method)), ("params", params)))
            notifications += server.flushDiagnostics()
            return replies.first { $0["id"] == .number(Double(id)) } ?? .null
        }

        func notify(_ method: String, _ params: JSONValue) {
            _ = server.handle(obj(("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)))
            notifications += server.flushDiagnostics()
        }

        func at(_ line: Int, _ character: Int) -> JSONValue {
            obj(("textDocument", obj(("uri", .string(LanguageServerTests.uri)))),
                ("position", obj(("line", .number(Double(line))), ("character", .number(Double(character))))))
        }

        func hover(_ line: Int, _ character: Int) -> String? {
            request("textDocument/hover", at(line, character))["result"]?["contents"]?["value"]?.stringValue
        }

        var lastDiagnostics: [JSONValue] {
            notifications.last { $0["method"] == "textDocument/publishDiagnostics" }?["params"]?["diagnostics"]?.arrayValue ?? []
        }
    }

    // MARK: Lifecycle and robustness

    @Test func lifecycleFollowsTheSpec() {
        let server = LanguageServer()
        let early = server.handle(obj(("jsonrpc", "2.0"), ("id", 1), ("method", "textDocument/hover"), ("params", obj())))
        #expect(early.first?["error"]?["code"] == .number(-32002))
        let client = Client(open: nil)
        #expect(client.request("no/such/method", obj())["error"]?["code"] == .number(-32601))
        #expect(client.request("textDocument/hover", client.at(0, 0))["error"]?["code"] == .number(-32602))
        #expect(client.request("shutdown", .null)["result"] == .null)
        #expect(client.request("textDocument/hover", client.at(0, 0))["error"]?["code"] == .number(-32600))
        client.notify("exit", .null)
        #expect(client.server.exitCode == 0)
        let abrupt = Client(open: nil)
        abrupt.notify("exit", .null)
        #expect(abrupt.server.exitCode == 1)
    }

    @Test func garbageNeverKillsTheServer() {
        let client = Client()
        for junk: JSONValue in [.null, 42, "text", [1, 2], obj(("id", 9)), obj(("method", 5)),
                                obj(("id", 3), ("method", "textDocument/hover"), ("params", "nonsense")),
                                obj(("id", 4), ("method", "textDocument/hover"),
                                    ("params", obj(("textDocument", obj(("uri", .string(Self.uri)))), ("position", obj(("line", -5), ("character", 1e300))))))] {
            _ = client.server.handle(junk)
        }
        #expect(client.hover(6, 5)?.contains("beat") == true)
    }

    // MARK: Diagnostics

    @Test func diagnosticsOnOpenAndOnEveryChange() throws {
        let client = Client(open: nil)
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(Self.uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", .string(Self.pulse.replacingOccurrences(of: "position: (100, 100)\n  bounds", with: "positon: (100, 100)\n  bounds")))))))
        let first = client.lastDiagnostics
        #expect(first.count == 1)
        let d = try #require(first.first)
        #expect(d["code"] == "E0302")
        #expect(d["severity"] == 1)
        #expect(d["range"]?["start"]?["line"] == 11)
        #expect(d["message"]?.stringValue?.contains("did you mean 'position'?") == true)
        // An incremental edit: insert the missing 'i'.
        client.notify("textDocument/didChange", obj(
            ("textDocument", obj(("uri", .string(Self.uri)), ("version", 2))),
            ("contentChanges", .array([obj(("range", obj(("start", obj(("line", 11), ("character", 7))), ("end", obj(("line", 11), ("character", 7))))),
                                           ("text", "i"))]))))
        #expect(client.lastDiagnostics.isEmpty)
        #expect(client.notifications.last?["params"]?["version"] == 2)
    }

    @Test func unusedIsTaggedUnnecessary() {
        let client = Client(open: nil)
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(Self.uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", "composition { size: 10 x 10 }\nlet spare = 1\nlayer a { opacity: (1 }\n")))))
        let codes = Set(client.lastDiagnostics.compactMap { $0["code"]?.stringValue })
        #expect(codes == ["W0310", "E0203"])
        #expect(client.lastDiagnostics.first { $0["code"] == "W0310" }?["tags"] == [1])
    }

    /// A test block's expectation that does not hold is an error where it is written;
    /// fixing the expected value clears it.
    @Test func aFailingExpectationIsADiagnostic() throws {
        let client = Client(open: nil)
        let text = """
        composition { size: 10 x 10, window: 0s ..< 1s }
        layer a {
          basic opacity { from: 0, to: 1, duration: 1s }
        }
        test half {
          at: 0.5s
          a.opacity: 0.4
        }

        """
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(Self.uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", .string(text))))))
        let d = try #require(client.lastDiagnostics.first)
        #expect(client.lastDiagnostics.count == 1)
        #expect(d["code"] == "E0901")
        #expect(d["range"]?["start"]?["line"] == 6)
        #expect(d["message"]?.stringValue?.hasPrefix("test 'half': a.opacity at 0.5s is 0.5, expected 0.4") == true)
        client.notify("textDocument/didChange", obj(
            ("textDocument", obj(("uri", .string(Self.uri)), ("version", 2))),
            ("contentChanges", .array([obj(("text", .string(text.replacingOccurrences(of: "0.4", with: "0.5"))))]))))
        #expect(client.lastDiagnostics.isEmpty)
    }

    /// Typing character by character through a file with the server's check memo
    /// publishes what a server that opened the final text fresh publishes, at every
    /// step: each prefix of a line is a broken file, and the items after it move.
    @Test func typingPublishesWhatAFreshCheckDoes() {
        let text = Repository.read("Tests/AnimcDriverTests/Fixtures/incremental/dependencies.anim")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let target = lines.firstIndex { $0.contains("beginTime: card.go.end") } ?? 0
        let typed = lines[target]
        lines[target] = ""
        let client = Client(open: lines.joined(separator: "\n"))
        var mismatches: [String] = []
        var reused = 0
        for (k, ch) in typed.enumerated() {
            client.notify("textDocument/didChange", obj(
                ("textDocument", obj(("uri", .string(Self.uri)), ("version", .number(Double(k + 2))))),
                ("contentChanges", .array([obj(("range", obj(("start", obj(("line", .number(Double(target))), ("character", .number(Double(k))))),
                                                             ("end", obj(("line", .number(Double(target))), ("character", .number(Double(k))))))),
                                               ("text", .string(String(ch))))]))))
            lines[target] = String(typed.prefix(k + 1))
            let fresh = Client(open: lines.joined(separator: "\n"))
            if client.lastDiagnostics != fresh.lastDiagnostics { mismatches.append("after '\(lines[target])'") }
            reused += client.server.documents[Self.uri]?.memo.reused ?? 0
        }
        #expect(reused > typed.count)  // the other items were replayed, not lowered
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(!client.lastDiagnostics.isEmpty)  // the fixture's deliberate mistakes
    }

    // MARK: Hover

    @Test func hoverShowsTheAbsoluteInterval() throws {
        let client = Client()
        let text = try #require(client.hover(13, 4))  // `basic opacity as pulse`
        #expect(text.contains("on `card`: plays 1.3 s → ∞, repeats every 3 s, fills backwards"))
        let alias = try #require(client.hover(13, 22))  // the `pulse` name
        #expect(alias.contains("plays 1.3 s → ∞"))
    }

    @Test func hoverShowsValuesAndFacts() throws {
        let client = Client()
        #expect(client.hover(6, 5)?.contains("= `3s`") == true)
        #expect(client.hover(20, 21)?.contains("cubic(0.2, 0, 0, 1)") == true)  // `snap` where it is used
        let property = try #require(client.hover(11, 4))
        #expect(property.contains("position: a point"))
        #expect(property.contains("value: `(100, 100)`"))
    }

    /// A spring, steps or other timing shown as the source writes it: hover printed
    /// `spring(AnimcIR.SpringParameters(mass: 1.0, …))` (issue 52).
    @Test func hoverShowsTimingFunctionsAsSource() throws {
        let text = "timing bouncy = spring(mass: 1, stiffness: 100, damping: 10)\ntiming stepped = steps(4, end)\n"
            + "composition C { size: 10 x 10 }\nlayer a { basic opacity { to: 0, duration: 1s, timingFunction: bouncy } }\n"
        let client = Client(open: text)
        for (line, column, expected) in [(0, 9, "spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)"), (1, 9, "steps(4, end)"),
                                         (3, 66, "spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)")] {
            let hover = try #require(client.hover(line, column), "\(line):\(column)")
            #expect(hover.contains(expected) && !hover.contains("AnimcIR"), "\(line):\(column): \(hover)")
        }
    }

    @Test(arguments: ["utf-8", "utf-16"])
    func positionsCountInTheNegotiatedEncoding(_ encoding: String) throws {
        // "é" is 2 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
        let text = "composition { size: 10 x 10 }\nlet s = \"é😀\"; let beat = 2s\nlayer a { opacity: 1 }\n"
        let client = Client(encodings: [encoding], open: text)
        // `beat` starts after this prefix: 22 bytes, 19 UTF-16 units, 18 characters.
        let prefix = "let s = \"é😀\"; let "
        let units = encoding == "utf-8" ? prefix.utf8.count : prefix.utf16.count
        #expect(units == (encoding == "utf-8" ? 22 : 19))
        #expect(client.hover(1, units + 1)?.contains("= `2s`") == true)
        #expect(client.hover(1, units - 6) == nil)
    }

    // MARK: Completion, names, outline

    @Test func completionOffersTheLayerKindsProperties() throws {
        let client = Client()
        let shape = try #require(client.request("textDocument/completion", client.at(25, 2))["result"]?.arrayValue)
        let labels = Set(shape.compactMap { $0["label"]?.stringValue })
        #expect(labels.isSuperset(of: ["path", "strokeColor", "lineWidth", "opacity", "basic", "keyframes"]))
        let plain = try #require(client.request("textDocument/completion", client.at(11, 2))["result"]?.arrayValue)
        let plainLabels = Set(plain.compactMap { $0["label"]?.stringValue })
        #expect(plainLabels.contains("cornerRadius") && !plainLabels.contains("strokeColor"))
        let attributes = try #require(client.request("textDocument/completion", client.at(15, 4))["result"]?.arrayValue)
        let attributeLabels = Set(attributes.compactMap { $0["label"]?.stringValue })
        #expect(attributeLabels.isSuperset(of: ["from", "to", "duration", "fillMode"]))
        // After `duration:` times; after `timingFunction:` timing functions; after
        // `fillMode:` its four cases.
        let times = try #require(client.request("textDocument/completion", client.at(17, 14))["result"]?.arrayValue)
        let timeLabels = Set(times.compactMap { $0["label"]?.stringValue })
        #expect(timeLabels.contains("beat") && !timeLabels.contains("easeIn") && !timeLabels.contains("snap"))
        let timings = try #require(client.request("textDocument/completion", client.at(20, 20))["result"]?.arrayValue)
        let timingLabels = Set(timings.compactMap { $0["label"]?.stringValue })
        #expect(timingLabels.isSuperset(of: ["snap", "easeIn", "linear", "cubic"]) && !timingLabels.contains("beat"))
        let modes = try #require(client.request("textDocument/completion", client.at(19, 14))["result"]?.arrayValue)
        #expect(Set(modes.compactMap { $0["label"]?.stringValue }) == ["removed", "forwards", "backwards", "both"])
    }

    @Test func definitionReferencesAndRename() throws {
        let client = Client()
        let definition = client.request("textDocument/definition", client.at(17, 14))["result"]
        #expect(definition?["range"]?["start"]?["line"] == 6)
        let refs = try #require(client.request("textDocument/references", client.at(6, 5))["result"]?.arrayValue)
        #expect(refs.count == 2)
        var params = client.at(6, 5)
        if case .object(var m) = params { m.append(JSONMember("newName", "cycle")); params = .object(m) }
        let edits = try #require(client.request("textDocument/rename", params)["result"]?["changes"]?[Self.uri]?.arrayValue)
        #expect(edits.count == 2 && edits.allSatisfy { $0["newText"] == "cycle" })
        if case .object(var m) = params { m.removeLast(); m.append(JSONMember("newName", "for")); params = .object(m) }
        #expect(client.request("textDocument/rename", params)["error"] != nil)
    }

    @Test func outlineTokensAndFolding() throws {
        let client = Client()
        let symbols = try #require(client.request("textDocument/documentSymbol", obj(("textDocument", obj(("uri", .string(Self.uri))))))["result"]?.arrayValue)
        let names = symbols.compactMap { $0["name"]?.stringValue }
        #expect(names == ["composition Pulse", "beat", "snap", "layer card", "shape ring"])
        let card = try #require(symbols.first { $0["name"] == "layer card" })
        #expect(card["children"]?.arrayValue?.first?["name"] == "basic opacity as pulse")
        let tokens = try #require(client.request("textDocument/semanticTokens/full", obj(("textDocument", obj(("uri", .string(Self.uri))))))["result"]?["data"]?.arrayValue)
        #expect(tokens.count % 5 == 0 && tokens.count > 100)
        let folds = try #require(client.request("textDocument/foldingRange", obj(("textDocument", obj(("uri", .string(Self.uri))))))["result"]?.arrayValue)
        #expect(folds.contains { $0["startLine"] == 13 && $0["endLine"] == 20 })
    }

    /// Lines end at `\r\n` and `\r` too: a block comment across them is split per
    /// line, and positions past a line's text clamp before its line end.
    @Test func carriageReturnsEndLines() throws {
        let text = "/* one\r\ntwo\rthree */\r\ncomposition { size: 10 x 10 }\r\nlet beat = 2s\r\n"
        let client = Client(open: text)
        let tokens = try #require(client.request("textDocument/semanticTokens/full", obj(("textDocument", obj(("uri", .string(Self.uri))))))["result"]?["data"]?.arrayValue)
        // The comment: three one-line segments, on lines 0, 1 and 2.
        #expect(Array(tokens.prefix(15)) == [0, 0, 6, 3, 0, 1, 0, 3, 3, 0, 1, 0, 8, 3, 0])
        #expect(client.hover(4, 5)?.contains("= `2s`") == true)
    }

    /// The word that starts an item (a layer or animation kind, `path`, `mask`) is a
    /// keyword; the same word elsewhere is not.
    @Test func itemWordsAreKeywords() throws {
        let text = "composition { size: 10 x 10 }\nlayer card {\n  opacity: 1\n  basic opacity { from: 0; to: 1; duration: 1s }\n}\nmask layer m { }\n"
        let client = Client(open: text)
        let data = try #require(client.request("textDocument/semanticTokens/full", obj(("textDocument", obj(("uri", .string(Self.uri))))))["result"]?["data"]?.arrayValue)
        // Decoded to (line, character, type name).
        var tokens: [(Int, Int, String)] = []
        var line = 0, character = 0
        for k in stride(from: 0, to: data.count - 4, by: 5) {
            guard let dl = data[k].numberValue, let dc = data[k + 1].numberValue, let type = data[k + 3].numberValue else { continue }
            line += Int(dl)
            character = dl == 0 ? character + Int(dc) : Int(dc)
            tokens.append((line, character, SemanticTokenType.allCases[Int(type)].name))
        }
        func type(_ l: Int, _ c: Int) -> String? { tokens.first { $0.0 == l && $0.1 == c }?.2 }
        #expect(type(1, 0) == "keyword")        // layer
        #expect(type(1, 6) == "enumMember")     // card
        #expect(type(2, 2) == "property")       // opacity:
        #expect(type(3, 2) == "keyword")        // basic
        #expect(type(5, 0) == "keyword")        // mask
        #expect(type(5, 5) == nil)              // layer after mask starts nothing
    }

    // MARK: Fixes and formatting

    /// A typo's fix is offered where it is, never applied by the fix-all, which takes
    /// what `animc check --fix` takes: the fixes that keep the meaning, re-checked until
    /// none is left, as one edit.
    @Test func codeActionsFromFixIts() throws {
        let broken = "composition { size: 10 x 10 }\nlayer a {\n  opactiy: 1\n  cornerRadus: 2.0f\n"
            + "  basic opacity { from: @0, to: 1, duration: (CFTimeInterval)0.5, fillMode: kCAFillModeForwards }\n}\n"
        let client = Client(open: broken)
        let range = obj(("start", obj(("line", 2), ("character", 2))), ("end", obj(("line", 2), ("character", 4))))
        let actions = try #require(client.request("textDocument/codeAction", obj(("textDocument", obj(("uri", .string(Self.uri)))), ("range", range),
                                                                                  ("context", obj(("diagnostics", [])))))["result"]?.arrayValue)
        let quick = try #require(actions.first { $0["kind"] == "quickfix" })
        #expect(quick["title"] == "Replace with 'opacity'")
        let all = try #require(actions.first { $0["kind"] == "source.fixAll.animc" })
        let edits = try #require(all["edit"]?["changes"]?[Self.uri]?.arrayValue)
        try #require(edits.count == 1)
        let edit = edits[0]
        // The edit spans the pasted spellings only: from line 3's suffix to line 4's constant.
        #expect(edit["range"]?["start"]?["line"] == 3 && edit["range"]?["end"]?["line"] == 4)
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fixed = lines
        let start = try #require(edit["range"]?["start"]?["character"]?.numberValue), end = try #require(edit["range"]?["end"]?["character"]?.numberValue)
        let text = try #require(edit["newText"]?.stringValue)
        let joined = String(lines[3].prefix(Int(start))) + text + String(lines[4].dropFirst(Int(end)))
        fixed.replaceSubrange(3...4, with: joined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        #expect(fixed[2] == "  opactiy: 1")  // the guess is left to the person
        #expect(fixed[3] == "  cornerRadus: 2.0")
        #expect(fixed[4] == "  basic opacity { from: 0, to: 1, duration: 0.5s, fillMode: forwards }")
    }

    @Test func formattingGivesTheFormattersOutput() throws {
        let messy = "composition{size:10 x 10}\n\n\n\nlayer a{opacity:1\n    zPosition:2}\nlet _s=\"é😀\" ;let _t = 1"
        let client = Client(encodings: ["utf-16"], open: messy)
        let edits = try #require(client.request("textDocument/formatting", obj(("textDocument", obj(("uri", .string(Self.uri)))),
                                                                              ("options", obj(("tabSize", 2), ("insertSpaces", true)))))["result"]?.arrayValue)
        let applied = Self.apply(edits, to: messy)
        let expected = try SourceFormatter.format(SourceFile(name: "x", text: messy)).get()
        #expect(applied == expected)
    }

    /// Applies LSP edits (UTF-16 positions, as negotiated above) from last to first.
    /// Lines are split at each LF code unit (a CR before it stays in the line: positions
    /// within a line's text count the same).
    static func apply(_ edits: [JSONValue], to text: String) -> String {
        var units = Array(text.utf16)
        func offset(_ p: JSONValue?) -> (Int, Int) { (Int(p?["line"]?.numberValue ?? 0), Int(p?["character"]?.numberValue ?? 0)) }
        func index(_ position: (Int, Int)) -> Int {
            var line = 0, i = 0
            while line < position.0, i < units.count {
                if units[i] == 10 { line += 1 }
                i += 1
            }
            var end = i
            while end < units.count && units[end] != 10 { end += 1 }
            return min(i + position.1, end)
        }
        let sorted = edits.sorted { offset($0["range"]?["start"]) > offset($1["range"]?["start"]) }
        for e in sorted {
            let a = index(offset(e["range"]?["start"])), b = index(offset(e["range"]?["end"]))
            units.replaceSubrange(a..<max(a, b), with: Array((e["newText"]?.stringValue ?? "").utf16))
        }
        return String(decoding: units, as: UTF16.self)
    }

    // MARK: The transport

    @Test func framesOverRealPipes() throws {
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        #expect(pipe(&toServer) == 0 && pipe(&fromServer) == 0)
        nonisolated(unsafe) let loop = LanguageServerLoop(transport: StandardIOTransport(input: toServer[0], output: fromServer[1]))
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var exitCode: Int32 = -1
        let serverEnd = fromServer[1]
        Thread {
            exitCode = loop.run()
            close(serverEnd)
            done.signal()
        }.start()
        func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Foundation.write(toServer[1], $0.baseAddress, $0.count) } }
        func frame(_ json: String) -> [UInt8] { Array("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8) }
        write(Array("Content-Length: nonsense\r\n\r\n".utf8))  // a malformed header
        write(frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#))
        write(frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#))
        write(frame("{not json"))
        // Split across writes, with a header in another case.
        let open = frame(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.anim","languageId":"anim","version":1,"text":"layer a { opactiy: 1 }\n"}}}"#)
        write(Array(open[0..<10]))
        write(Array(open[10...]))
        write(Array("content-length: 58\r\n\r\n".utf8) + Array(#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#.utf8))
        write(frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(exitCode == 0)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fromServer[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains(#""id":1,"result""#))
        #expect(text.components(separatedBy: #""code":-32700"#).count == 3)  // the bad header and the bad JSON
        #expect(text.contains(#""code":"E0302""#))
        #expect(text.contains(#""id":2,"result":null"#))
        for fd in [toServer[0], toServer[1], fromServer[0]] { close(fd) }
    }

    /// The server's own clock, for a client that does not watch files (issue 52): a
    /// library changed on disk re-publishes its open importer within a few seconds,
    /// with nothing sent by the client.
    @Test func theServerNoticesALibraryChangedOnDisk() throws {
        let dir = NSTemporaryDirectory() + "animc-poll-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "let half = 0.5\n".write(toFile: dir + "/lib.anim", atomically: true, encoding: .utf8)
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        #expect(pipe(&toServer) == 0 && pipe(&fromServer) == 0)
        nonisolated(unsafe) let loop = LanguageServerLoop(transport: StandardIOTransport(input: toServer[0], output: fromServer[1]))
        let serverEnd = fromServer[1]
        Thread {
            _ = loop.run()
            close(serverEnd)
        }.start()
        nonisolated(unsafe) let received = NSMutableData()
        let lock = NSLock()
        let readEnd = fromServer[0]
        Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                lock.withLock { received.append(chunk, length: n) }
            }
        }.start()
        func text() -> String { lock.withLock { String(decoding: Data(received as Data), as: UTF8.self) } }
        func waitFor(_ needle: String, seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                if text().contains(needle) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        func send(_ json: String) { let f = Array("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8); _ = f.withUnsafeBytes { write(toServer[1], $0.baseAddress, $0.count) } }
        send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
        send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        let source = "import \\\"lib.anim\\\"\\ncomposition C { size: 10 x 10 }\\nlayer a { opacity: lib.half }\\n"
        send(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://"# + dir + #"/main.anim","languageId":"anim","version":1,"text":""# + source + #""}}}"#)
        #expect(waitFor(#""diagnostics":[]"#, seconds: 20), "\(text())")
        try "let whole = 1\n".write(toFile: dir + "/lib.anim", atomically: true, encoding: .utf8)
        #expect(waitFor(#""code":"E0327""#, seconds: 3 * LanguageServerLoop.pollInterval + 5), "\(text())")
        send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#)
        send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        #expect(waitFor(#""id":2,"result":null"#, seconds: 20))
        close(toServer[1])
        close(toServer[0])
    }

}
