import AnimcBase
import AnimcChecker
import AnimcCompiler
@testable import AnimcLanguageServer
import AnimcSyntax
import AnimcTestSupport
import AnimcTimeline
import Foundation
import Testing

/// What an editor's user sees of each feature, in process (checks inline).
@Suite struct FeatureTests {
    typealias Client = LanguageServerTests.Client
    static let uri = LanguageServerTests.uri

    static func document() -> JSONValue { obj(("uri", .string(uri))) }

    static func position(_ line: Int, _ character: Int) -> JSONValue {
        obj(("line", .number(Double(line))), ("character", .number(Double(character))))
    }

    static func range(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int) -> JSONValue {
        obj(("start", position(l0, c0)), ("end", position(l1, c1)))
    }

    /// Where `needle` starts in `text` (its `occurrence`-th appearance), as a position.
    static func find(_ needle: String, in text: String, occurrence: Int = 1) -> (line: Int, character: Int)? {
        var seen = 0
        for (l, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let r = rest.range(of: needle) {
                seen += 1
                if seen == occurrence { return (l, line.utf16.distance(from: line.startIndex, to: r.lowerBound)) }
                rest = line[r.upperBound...]
            }
        }
        return nil
    }

    // MARK: Client capabilities

    static let plainClient = obj(("textDocument", obj(("hover", obj(("contentFormat", ["plaintext"]))))))

    /// What a client did not declare is not sent: snippets, Markdown, nested symbols,
    /// code action literals (it gets commands instead).
    @Test func onlyWhatTheClientDeclaredIsSent() throws {
        let client = Client(capabilities: Self.plainClient)
        let completion = try #require(client.request("textDocument/completion", client.at(25, 2))["result"]?.arrayValue)
        #expect(!completion.isEmpty && completion.allSatisfy { $0["insertTextFormat"] == nil })
        #expect(!completion.contains { $0["insertText"]?.stringValue?.contains("${") == true })
        let hover = try #require(client.request("textDocument/hover", client.at(6, 5))["result"]?["contents"])
        #expect(hover["kind"] == "plaintext")
        #expect(hover["value"]?.stringValue?.contains("`") == false)
        let symbols = try #require(client.request("textDocument/documentSymbol", obj(("textDocument", Self.document())))["result"]?.arrayValue)
        #expect(symbols.allSatisfy { $0["location"] != nil && $0["children"] == nil })
        #expect(symbols.contains { $0["name"] == "basic opacity as pulse" && $0["containerName"] == "layer card" })
        let broken = Client(open: "composition { size: 10 x 10 }\nlayer a {\n  opactiy: 1\n}\n", capabilities: Self.plainClient)
        let actions = try #require(broken.request("textDocument/codeAction", obj(("textDocument", Self.document()), ("range", Self.range(2, 2, 2, 4)),
                                                                                 ("context", obj(("diagnostics", [])))))["result"]?.arrayValue)
        let command = try #require(actions.first)
        #expect(command["command"] == "animc.applyEdit" && command["kind"] == nil)
        let run = broken.server.handle(obj(("jsonrpc", "2.0"), ("id", 99), ("method", "workspace/executeCommand"),
                                           ("params", obj(("command", "animc.applyEdit"), ("arguments", command["arguments"] ?? .null)))))
        #expect(run.contains { $0["method"] == "workspace/applyEdit" && $0["params"]?["edit"]?["changes"] != nil })
        #expect(run.contains { $0["id"] == 99 && $0["result"] == .null })
    }

    // MARK: States

    /// Hover on an input or a state says what it is and which transitions it takes part in.
    @Test func hoverOnInputsAndStatesSaysWhatTheyDo() throws {
        let text = Repository.read("Tests/AnimcCheckerTests/Fixtures/rules/E0330-bad-interaction.ok.anim")
        let client = Client(open: text)
        func hover(_ needle: String, skip: Int) throws -> String {
            let at = try #require(Self.find(needle, in: text))
            return try #require(client.request("textDocument/hover", client.at(at.line, at.character + skip))["result"]?["contents"]?["value"]?.stringValue)
        }
        let state = try hover("state opened", skip: 7)
        #expect(state.contains("state opened") && state.contains("card.position") && state.contains("(100, 50)"), "\(state)")
        #expect(state.contains("closed → opened") && state.contains("opened → closed over 0.4 s"), "\(state)")
        let initial = try hover("-> closed", skip: 4)
        #expect(initial.contains("the initial state"), "\(initial)")
        let input = try hover("input progress", skip: 7)
        #expect(input.contains("a number in 0 ... 1") && input.contains("0 at first"), "\(input)")
    }

    /// In a transition, completion offers the inputs after `on`, the states after
    /// `from` and `->`, timing functions after `with` and the models after its comma.
    @Test func completionInATransitionOffersInputsStatesAndModels() throws {
        let base = Repository.read("Tests/AnimcCheckerTests/Fixtures/rules/E0330-bad-interaction.ok.anim")
        func labels(_ partial: String) throws -> [String] {
            let text = base + partial
            let client = Client(open: text)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let items = try #require(client.request("textDocument/completion", client.at(lines.count - 1, lines.last?.utf16.count ?? 0))["result"]?.arrayValue)
            return items.compactMap { $0["label"]?.stringValue }
        }
        #expect(Set(try labels("on ")) == ["tap", "locked", "progress"])
        #expect(Set(try labels("on tap from ")) == ["closed", "opened"])
        #expect(Set(try labels("on tap from closed -> ")) == ["closed", "opened"])
        #expect(try labels("on tap from closed -> opened with ").contains("snappy"))
        #expect(Set(try labels("on tap from closed -> opened with snappy, ")) == ["additive", "replace", "reverse", "finish"])
        #expect(try labels("").contains("state"))
    }

    // MARK: Rename

    static func rename(_ client: Client, at position: (line: Int, character: Int), to name: String) -> JSONValue {
        client.request("textDocument/rename", obj(("textDocument", Self.document()), ("position", Self.position(position.line, position.character)),
                                                 ("newName", .string(name))))
    }

    /// Names that would change what the file means are refused with a reason.
    @Test(arguments: [("r", "inf"), ("D", "d"), ("D", "linear"), ("d", "D"), ("r", "red"), ("r", "cubic"), ("r", "D")])
    func renameRefusesWhatChangesMeaning(_ from: String, _ to: String) throws {
        let text = Repository.read("Tests/AnimcLanguageServerTests/Fixtures/lsp/rename.anim")
        let client = Client(open: text)
        let found = [("let \(from) ", 4), ("timing \(from) ", 7), ("component \(from)(", 10)].lazy
            .compactMap { pattern, skip in Self.find(pattern, in: text).map { ($0.line, $0.character + skip) } }.first
        let at = try #require(found)
        let answer = Self.rename(client, at: at, to: to)
        let message = try #require(answer["error"]?["message"]?.stringValue, "renaming \(from) to \(to) was allowed")
        #expect(message.contains(to))
    }

    /// `mask: logoMask` written above the layer it names is found, by hover, definition
    /// and rename.
    @Test func forwardMaskReferencesAreFound() throws {
        let text = Repository.read("examples/splash.anim")
        let client = Client(open: text)
        let use = try #require(Self.find("mask: logoMask", in: text))
        let at = client.at(use.line, use.character + 7)
        let definition = try #require(client.request("textDocument/definition", at)["result"]?["range"]?["start"]?["line"]?.numberValue)
        let declaration = try #require(Self.find("layer logoMask", in: text) ?? Self.find("logoMask {", in: text))
        #expect(Int(definition) == declaration.line)
        let edits = try #require(Self.rename(client, at: (use.line, use.character + 7), to: "badgeMask")["result"]?["changes"]?[Self.uri]?.arrayValue)
        let renamed = LanguageServerTests.apply(edits, to: text)
        #expect(!renamed.contains("logoMask") && renamed.contains("mask: badgeMask"))
        #expect(!Pipeline.compile(SourceFile(name: "splash.anim", text: renamed)).hasErrors)
    }

    /// Every declared name of every example and checker fixture, renamed to a fresh
    /// name: the rename is accepted and the compiled timeline is the same.
    @Test func renamingEveryNameKeepsEveryTimeline() throws {
        var files = Repository.files(in: "examples", withExtension: "anim")
        files += Repository.files(in: "Tests/AnimcCheckerTests/Fixtures/templates", withExtension: "anim")
        files += ["Tests/AnimcLanguageServerTests/Fixtures/lsp/rename.anim"]
        // Inputs and states: renamed in their transitions and conditions too.
        files += Repository.files(in: "Tests/AnimcBackendTests/Fixtures/interaction", withExtension: "anim")
        var renamed = 0
        for path in files {
            let text = Repository.read(path)
            let original = Pipeline.compile(SourceFile(name: "x.anim", text: text))
            guard let composition = original.composition else { continue }
            let expected = String(decoding: TimelineWriter.json(composition).serialized(style: .compact), as: UTF8.self)
            /// What the states say, by name and index (ranges move with a rename).
            func interaction(_ r: CompileResult) -> String? {
                r.interaction.map { i in
                    "\(i.inputs.map { "\($0.name):\($0.kind)" }) \(i.states.map { "\($0.name)=\($0.values.map(\.value))" }) "
                        + "\(i.transitions.map { "\($0.input) \($0.from)->\($0.to) \(String(describing: $0.condition))" })"
                }
            }
            let expectedInteraction = interaction(original)
            let client = Client(open: text)
            let names = NameIndex.build(parse(SourceFile(name: "x.anim", text: text))).declarations
            for (k, d) in names.enumerated() where k < 60 {
                let position = PositionMap(bytes: Array(text.utf8), encoding: .utf16).position(of: Int(d.range.start))
                let answer = Self.rename(client, at: (position.line, position.character), to: "fresh\(k)Name")
                guard let edits = answer["result"]?["changes"]?[Self.uri]?.arrayValue else {
                    Issue.record("\(path): renaming \(d.name) was refused: \(answer["error"]?["message"]?.stringValue ?? "")")
                    continue
                }
                let after = Pipeline.compile(SourceFile(name: "x.anim", text: LanguageServerTests.apply(edits, to: text)))
                // Layer and animation names are part of the timeline: the new name stands for the old.
                let written = after.composition.map {
                    String(decoding: TimelineWriter.json($0).serialized(style: .compact), as: UTF8.self)
                        .replacingOccurrences(of: "fresh\(k)Name", with: d.name)
                }
                #expect(written == expected, "\(path): renaming \(d.name) changed the timeline")
                #expect(interaction(after)?.replacingOccurrences(of: "fresh\(k)Name", with: d.name) == expectedInteraction,
                        "\(path): renaming \(d.name) changed the states")
                renamed += 1
            }
        }
        #expect(renamed > 100)
    }

    // MARK: Formatting

    /// Formatting a range edits only inside it, on LF and CRLF files alike, and the
    /// lines it covers come out as `animc fmt` writes them.
    @Test(arguments: ["\n", "\r\n"])
    func rangeFormattingStaysInTheRange(_ newline: String) throws {
        let messy = ["composition{size:10 x 10}", "layer a{opacity:1", "    zPosition:2", "  cornerRadius :3", "  borderWidth:   4", "}", "let   _k=1"]
            .joined(separator: newline) + newline
        let client = Client(open: messy)
        let edits = try #require(client.request("textDocument/rangeFormatting", obj(("textDocument", Self.document()), ("range", Self.range(3, 0, 4, 0)),
                                                                                    ("options", obj(("tabSize", 2), ("insertSpaces", true)))))["result"]?.arrayValue)
        #expect(!edits.isEmpty)
        for e in edits {
            let start = e["range"]?["start"]?["line"]?.numberValue ?? -1, end = e["range"]?["end"]?["line"]?.numberValue ?? -1
            #expect(start >= 3 && end <= 4, "\(e)")
        }
        let applied = LanguageServerTests.apply(edits, to: messy)
        let lines = applied.components(separatedBy: newline)
        #expect(lines[3] == "  cornerRadius: 3")
        #expect(lines[4] == "  borderWidth:   4" && lines[2] == "    zPosition:2")
        #expect(applied.components(separatedBy: "\r\n").count == messy.components(separatedBy: "\r\n").count)
    }

    @Test func formattingAFileWithSyntaxErrorsSaysWhy() throws {
        let client = Client(open: "composition { size: 10 x 10 }\nlayer a { opacity: }\n")
        let answer = client.request("textDocument/formatting", obj(("textDocument", Self.document()), ("options", obj(("tabSize", 2), ("insertSpaces", true)))))
        #expect(answer["error"]?["message"]?.stringValue?.contains("syntax error") == true)
    }

    // MARK: Signature help, hover, completion

    @Test func signatureHelpFollowsTheArguments() throws {
        let text = "composition { size: 10 x 10 }\nlet p = arc(center: (0, 0), radius: 4, from: 0deg, to: \ntiming t = cubic(0.2, \nlet s = spring(bounce: 0.2, \n"
        let client = Client(open: text)
        func help(_ line: Int, _ character: Int) -> JSONValue? {
            client.request("textDocument/signatureHelp", client.at(line, character))["result"]
        }
        let arc = try #require(help(1, 55))
        #expect(arc["signatures"]?.arrayValue?.first?["label"]?.stringValue?.hasPrefix("arc(center:") == true)
        #expect(arc["activeParameter"] == 3)
        let cubic = try #require(help(2, 22))
        #expect(cubic["signatures"]?.arrayValue?.first?["label"] == "cubic(x1: number, y1: number, x2: number, y2: number)")
        #expect(cubic["activeParameter"] == 1)
        let spring = try #require(help(3, 28))
        #expect(spring["activeSignature"] == 1)  // the perceptual form, by its labels
        #expect(help(0, 3) == .null)
    }

    @Test func hoverExplainsTheLanguagesOwnWords() throws {
        let text = Repository.read("Tests/AnimcLanguageServerTests/Fixtures/lsp/words.anim")
        let client = Client(open: text)
        func hover(_ needle: String, _ offset: Int = 0) throws -> String {
            let at = try #require(Self.find(needle, in: text), "\(needle)")
            return try #require(client.hover(at.line, at.character + offset), "no hover on \(needle)")
        }
        #expect(try hover("cubic(").contains("cubic(x1: number"))
        #expect(try hover("radius:").contains("radius: number"))
        #expect(try hover("orange").contains("rgb(255, 128, 0)"))
        #expect(try hover("300ms").contains("0.3 s"))
        #expect(try hover("90deg").contains("1.5708"))
        #expect(try hover("backwards").contains("fillMode"))
        #expect(try hover("easeOut").contains("cubic(0, 0, 0.58, 1)"))
        #expect(try hover("easeOut").contains("0.3 s"))  // the animation's duration
        #expect(try hover("duration").contains("value: `0.3s`"))
        #expect(try hover("#ff8800").contains("#ff8800"))
    }

    @Test func nothingIsCompletedInsideCommentsAndStrings() throws {
        let text = "composition { size: 10 x 10 }\n// a comment: \nlet s = image(\"lo\")\n"
        let client = Client(open: text)
        #expect(client.request("textDocument/completion", client.at(1, 14))["result"] == [])
        #expect(client.request("textDocument/completion", client.at(2, 17))["result"] == [])
    }

    // MARK: Highlights, links, symbols

    @Test func highlightsLinksAndWorkspaceSymbols() throws {
        let client = Client()
        let highlights = try #require(client.request("textDocument/documentHighlight", client.at(6, 5))["result"]?.arrayValue)
        #expect(highlights.count == 2 && highlights.first?["kind"] == 3 && highlights.last?["kind"] == 2)
        let symbols = try #require(client.request("workspace/symbol", obj(("query", "snp")))["result"]?.arrayValue)
        #expect(symbols.map { $0["name"] } == ["snap"])
        // A document beside an image links `image("logo")` to it.
        let dir = NSTemporaryDirectory() + "animc-links-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/assets", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/assets/logo.png", contents: Data([0x89, 0x50]))
        let uri = "file://" + dir + "/a.anim"
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", "composition { size: 10 x 10 }\nlayer a { contents: image(\"logo\") }\n")))))
        let links = try #require(client.request("textDocument/documentLink", obj(("textDocument", obj(("uri", .string(uri))))))["result"]?.arrayValue)
        #expect(links.count == 1 && links.first?["target"]?.stringValue?.hasSuffix("/assets/logo.png") == true)
    }

    // MARK: Timing

    /// Inlay hints place each animation on the composition's timeline and fold
    /// constants at their uses; the code lens offers the preview at its start.
    @Test func inlayHintsAndCodeLensShowTheTimeline() throws {
        let client = Client()
        let hints = try #require(client.request("textDocument/inlayHint", obj(("textDocument", Self.document()), ("range", Self.range(0, 0, 30, 0))))["result"]?.arrayValue)
        let labels = hints.compactMap { $0["label"]?.stringValue }
        #expect(labels.contains("⟨1.3 s → ∞⟩ ↻ 3 s"))
        #expect(labels.contains("= 3s"))  // `duration: beat`
        let lenses = try #require(client.request("textDocument/codeLens", obj(("textDocument", Self.document())))["result"]?.arrayValue)
        #expect(lenses.first?["command"]?["title"] == "▶ preview at 1.3 s")
        #expect(lenses.first?["command"]?["arguments"] == [.string(Self.uri), 1.3])
    }

    // MARK: Tokens and folding

    @Test func semanticTokensComeAsDeltasAndRanges() throws {
        let client = Client()
        let full = try #require(client.request("textDocument/semanticTokens/full", obj(("textDocument", Self.document())))["result"])
        let id = try #require(full["resultId"]?.stringValue)
        let data = try #require(full["data"]?.arrayValue)
        client.notify("textDocument/didChange", obj(("textDocument", obj(("uri", .string(Self.uri)), ("version", 2))),
                                                   ("contentChanges", [obj(("range", Self.range(6, 11, 6, 13)), ("text", "4s"))])))
        let delta = try #require(client.request("textDocument/semanticTokens/full/delta", obj(("textDocument", Self.document()), ("previousResultId", .string(id))))["result"])
        let edits = try #require(delta["edits"]?.arrayValue)
        #expect(edits.count <= 1)
        let inserted = edits.first?["data"]?.arrayValue?.count ?? 0
        #expect(inserted < data.count / 4)
        let range = try #require(client.request("textDocument/semanticTokens/range", obj(("textDocument", Self.document()), ("range", Self.range(9, 0, 10, 0))))["result"]?["data"]?.arrayValue)
        #expect(!range.isEmpty && range.count < data.count / 4)
    }

    @Test func foldingRangesHideSomething() throws {
        let text = "composition { size: 10 x 10 }\nlayer a {\n  opacity: 1 }\nlayer b {\n  opacity: 1\n  zPosition: 1\n}\n"
        let client = Client(open: text)
        let folds = try #require(client.request("textDocument/foldingRange", obj(("textDocument", Self.document())))["result"]?.arrayValue)
        #expect(folds.allSatisfy { ($0["endLine"]?.numberValue ?? 0) > ($0["startLine"]?.numberValue ?? 0) })
        #expect(folds.contains { $0["startLine"] == 3 && $0["endLine"] == 5 })
    }

    // MARK: Limits

    /// A document past `check`'s and `fmt`'s 8 MiB limit is refused with the same reason.
    @Test func aDocumentPastTheLimitIsRefusedWithOneMessage() throws {
        let text = "composition { size: 10 x 10 }\n" + String(repeating: "// padding padding padding\n", count: (8 << 20) / 27 + 10)
        let client = Client(open: text)
        let published = try #require(client.lastDiagnostics.first?["message"]?.stringValue)
        #expect(published.contains(Pipeline.sourceTooLarge))
        #expect(client.request("textDocument/hover", client.at(0, 1))["error"]?["message"]?.stringValue?.contains("8 MiB") == true)
    }
}

extension FeatureTests {
    /// Colour swatches and the picker (issue 52): every colour written with literals has
    /// a swatch with its exact components, a name a declaration takes has none, and a
    /// picked colour is offered as `rgb`/`rgba` and hex, which read back as the colour.
    @Test func coloursHaveSwatchesAndAPicker() throws {
        let text = Repository.read("Tests/AnimcLanguageServerTests/Fixtures/lsp/colors.anim")
        let client = Client(open: text)
        let colours = try #require(client.request("textDocument/documentColor", obj(("textDocument", Self.document())))["result"]?.arrayValue)
        func written(_ c: JSONValue) -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let l = c["range"]?["start"]?["line"]?.numberValue, let s = c["range"]?["start"]?["character"]?.numberValue,
                  let e = c["range"]?["end"]?["character"]?.numberValue else { return "?" }
            let line = Array(lines[Int(l)].utf16)
            return String(decoding: line[Int(s)..<Int(e)], as: UTF16.self)
        }
        func components(_ c: JSONValue) -> [Double] { ["red", "green", "blue", "alpha"].compactMap { c["color"]?[$0]?.numberValue } }
        #expect(colours.map(written) == ["#6200ee", "rgba(255, 128, 0, 0.5)", "hsb(0.5, 1, 1)", "rgb(red: 10, green: 20, blue: 30)",
                                         "white", "orange", "#FFF8"])
        let expected: [[Double]] = [[0x62 / 255.0, 0, 0xee / 255.0, 1], [1, 128 / 255.0, 0, 0.5], [0, 1, 1, 1], [10 / 255.0, 20 / 255.0, 30 / 255.0, 1],
                                    [1, 1, 1, 1], [1, 0.5, 0, 1], [1, 1, 1, 0x88 / 255.0]]
        for (c, e) in zip(colours, expected) {
            let got = components(c)
            #expect(got.count == 4 && zip(got, e).allSatisfy { abs($0 - $1) < 1e-12 }, "\(written(c)): \(got) != \(e)")
        }
        // The picker: the colour written back both ways.
        let presented = try #require(client.request("textDocument/colorPresentation", obj(
            ("textDocument", Self.document()), ("color", obj(("red", 1), ("green", 0.5), ("blue", 0), ("alpha", 0.25))),
            ("range", Self.range(2, 13, 2, 35))))["result"]?.arrayValue)
        #expect(presented.compactMap { $0["label"]?.stringValue } == ["rgba(255, 128, 0, 0.25)", "#ff800040"])
        #expect(presented.first?["textEdit"]?["range"] == Self.range(2, 13, 2, 35))
        let opaque = try #require(client.request("textDocument/colorPresentation", obj(
            ("textDocument", Self.document()), ("color", obj(("red", 0.2), ("green", 0.4), ("blue", 0.6), ("alpha", 1))),
            ("range", Self.range(1, 12, 1, 19))))["result"]?.arrayValue)
        #expect(opaque.compactMap { $0["label"]?.stringValue } == ["rgb(51, 102, 153)", "#336699"])
        // Each spelling is read back by the language as the colour picked, to a level.
        let back = Pipeline.compile(SourceFile(name: "t.anim", text: "let c = #ff800040\nlet d = rgba(255, 128, 0, 0.25)\ncomposition { size: 1 x 1 }\nlayer a { backgroundColor: c, borderColor: d }\n"))
        #expect(!back.hasErrors)
    }
}

extension FeatureTests {
    /// An import's path links to the file it imports (issue 52); a path to no file, or
    /// out of the project, links nowhere.
    @Test func importPathsAreLinks() throws {
        let client = Client()
        let dir = NSTemporaryDirectory() + "animc-import-links-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/motion", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/.animc-root", contents: Data())
        FileManager.default.createFile(atPath: dir + "/motion/tokens.anim", contents: Data("let fast = 0.2s\n".utf8))
        let uri = "file://" + dir + "/a.anim"
        let text = "import \"motion/tokens.anim\"\nimport \"missing.anim\" as gone\nimport \"../../etc/x.anim\" as out\ncomposition { size: 10 x 10 }\n"
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", .string(text))))))
        let links = try #require(client.request("textDocument/documentLink", obj(("textDocument", obj(("uri", .string(uri))))))["result"]?.arrayValue)
        #expect(links.count == 1)
        #expect(links.first?["target"]?.stringValue == "file://" + dir + "/motion/tokens.anim")
        #expect(links.first?["range"] == Self.range(0, 7, 0, 27))
    }
}

extension FeatureTests {
    /// `text` with an LSP workspace edit's edits of `uri` applied (plain `changes`).
    static func applying(_ edit: JSONValue?, to text: String, uri: String) -> String {
        guard case .object(let members)? = edit?["changes"], let edits = members.first(where: { $0.key == uri })?.value.arrayValue else { return text }
        var text = text
        func index(_ p: JSONValue?) -> String.Index {
            let line = Int(p?["line"]?.numberValue ?? 0), character = Int(p?["character"]?.numberValue ?? 0)
            var i = text.startIndex
            for _ in 0..<line { i = text[i...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex }
            return text.utf16.index(i, offsetBy: character)
        }
        let sorted = edits.sorted {
            let a = ($0["range"]?["start"]?["line"]?.numberValue ?? 0, $0["range"]?["start"]?["character"]?.numberValue ?? 0)
            let b = ($1["range"]?["start"]?["line"]?.numberValue ?? 0, $1["range"]?["start"]?["character"]?.numberValue ?? 0)
            return a > b
        }
        for e in sorted { text.replaceSubrange(index(e["range"]?["start"])..<index(e["range"]?["end"]), with: e["newText"]?.stringValue ?? "") }
        return text
    }

    static func actions(_ client: Client, _ range: JSONValue, only: String) -> [JSONValue] {
        client.request("textDocument/codeAction", obj(("textDocument", document()), ("range", range),
                                                      ("context", obj(("diagnostics", .array([])), ("only", .array([.string(only)]))))))["result"]?.arrayValue ?? []
    }

    /// Inline a constant, extract an expression into one (issue 52): the file each makes
    /// means the same animation, and what would not (a loop variable taken out of its
    /// loop) is not offered.
    @Test func refactoringsKeepTheAnimation() throws {
        let text = "let d = 1.5s\nlet offset = 10 + 5\ncomposition { size: 100 x 100 }\n"
            + "layer a { position: (offset * 2, 30 * 2), basic opacity { from: 0, to: 1, duration: d } }\n"
            + "for i in 0 ..< 3 { layer b[i] { position: (i * 10, 0) } }\n"
        let client = Client(open: text)
        let before = try #require(Pipeline.compile(SourceFile(name: "a.anim", text: text)).composition)
        func same(_ edited: String) -> Bool {
            guard let after = Pipeline.compile(SourceFile(name: "a.anim", text: edited)).composition else { return false }
            return LanguageServer.withoutRanges(after) == LanguageServer.withoutRanges(before)
        }
        // Inline `offset` from its declaration: parenthesised where it is used.
        let inlineOffset = try #require(Self.actions(client, Self.range(1, 5, 1, 5), only: "refactor.inline").first)
        #expect(inlineOffset["title"] == "Inline constant 'offset'")
        let inlined = Self.applying(inlineOffset["edit"], to: text, uri: Self.uri)
        #expect(inlined.hasPrefix("let d = 1.5s\ncomposition { size: 100 x 100 }\nlayer a { position: ((10 + 5) * 2, 30 * 2)"), "\(inlined)")
        #expect(same(inlined))
        // Inline `d` from a use: one term, no parentheses.
        let useOfD = try #require(Self.find("duration: d", in: text))
        let inlineD = try #require(Self.actions(client, Self.range(useOfD.line, useOfD.character + 10, useOfD.line, useOfD.character + 10),
                                                only: "refactor.inline").first)
        let noD = Self.applying(inlineD["edit"], to: text, uri: Self.uri)
        #expect(noD.contains("duration: 1.5s") && !noD.contains("let d"))
        #expect(same(noD))
        // Extract `30 * 2`.
        let product = try #require(Self.find("30 * 2", in: text))
        let extract = try #require(Self.actions(client, Self.range(product.line, product.character, product.line, product.character + 6),
                                                only: "refactor.extract").first)
        let extracted = Self.applying(extract["edit"], to: text, uri: Self.uri)
        #expect(extracted.contains("let value = 30 * 2\nlayer a { position: (offset * 2, value)"), "\(extracted)")
        #expect(same(extracted))
        // `i * 10` names the loop's variable: taken out of the loop it names nothing.
        let loop = try #require(Self.find("i * 10", in: text))
        #expect(Self.actions(client, Self.range(loop.line, loop.character, loop.line, loop.character + 6), only: "refactor.extract").isEmpty)
    }
}
