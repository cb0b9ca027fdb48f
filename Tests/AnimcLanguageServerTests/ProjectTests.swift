import AnimcBase
import AnimcCompiler
@testable import AnimcLanguageServer
import AnimcTestSupport
import AnimcTimeline
import Foundation
import Testing

/// The language server over a project of several files on disk (a copy of
/// Fixtures/project): navigation, rename and diagnostics across files.
@Suite struct ProjectTests {
    /// A copy of the fixture project in a fresh temporary folder, and a server whose
    /// workspace it is.
    final class Workspace {
        let root: String
        let client: LanguageServerTests.Client

        /// `watching`: the client watches files for the server (it keeps its listing of
        /// the workspace until told of a created or deleted file).
        /// `documentChanges`: it takes versioned workspace edits.
        init(watching: Bool = false, documentChanges: Bool = false) throws {
            let root = NSTemporaryDirectory() + "animc-project-\(UUID().uuidString)"
            let fixture = "Tests/AnimcLanguageServerTests/Fixtures/project"
            for path in Repository.filesRecursively(in: fixture, withExtension: "anim") {
                let target = root + path.dropFirst(fixture.count)
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(Repository.bytes(path)).write(to: URL(fileURLWithPath: target))
            }
            self.root = root
            var workspace: [JSONMember] = []
            if watching { workspace.append(JSONMember("didChangeWatchedFiles", obj(("dynamicRegistration", true)))) }
            if documentChanges { workspace.append(JSONMember("workspaceEdit", obj(("documentChanges", true)))) }
            let capabilities = workspace.isEmpty ? nil : obj(("workspace", .object(workspace)))
            client = LanguageServerTests.Client(open: nil, capabilities: capabilities, rootUri: LanguageServer.uri(forPath: root))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func uri(_ relative: String) -> String { LanguageServer.uri(forPath: ImportResolution.normalize(root + "/" + relative)) }
        func text(_ relative: String) -> String { (try? String(contentsOfFile: root + "/" + relative, encoding: .utf8)) ?? "" }
        var notifications: [JSONValue] {
            get { client.notifications }
            set { client.notifications = newValue }
        }

        @discardableResult
        func request(_ method: String, _ params: JSONValue) -> JSONValue { client.request(method, params) }
        func notify(_ method: String, _ params: JSONValue) { client.notify(method, params) }

        func open(_ relative: String, text: String? = nil) {
            notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(uri(relative))), ("languageId", "anim"), ("version", 1),
                                                                   ("text", .string(text ?? self.text(relative)))))))
        }

        func change(_ relative: String, to text: String, version: Int) {
            notify("textDocument/didChange", obj(("textDocument", obj(("uri", .string(uri(relative))), ("version", .number(Double(version))))),
                                                 ("contentChanges", .array([obj(("text", .string(text)))]))))
        }

        /// The position of the `n`th occurrence of `needle` in the file, plus `shift` characters.
        func at(_ relative: String, _ needle: String, shift: Int = 0, occurrence: Int = 1, source: String? = nil) -> JSONValue {
            let text = source ?? self.text(relative)
            var from = text.startIndex
            var found = text.startIndex
            for _ in 0..<occurrence {
                guard let r = text.range(of: needle, range: from..<text.endIndex) else { break }
                found = r.lowerBound
                from = r.upperBound
            }
            let before = text[..<(text.index(found, offsetBy: shift, limitedBy: text.endIndex) ?? text.endIndex)]
            let line = before.filter { $0 == "\n" }.count
            let column = before.split(separator: "\n", omittingEmptySubsequences: false).last.map { $0.utf16.count } ?? 0
            return obj(("textDocument", obj(("uri", .string(uri(relative))))),
                       ("position", obj(("line", .number(Double(line))), ("character", .number(Double(column))))))
        }

        /// The completion items where `needle` (plus `shift`) is, in the file opened with
        /// `old` replaced by `new`.
        func completion(in relative: String, replacing old: String, with new: String, at needle: String, shift: Int) -> [JSONValue] {
            let text = self.text(relative).replacingOccurrences(of: old, with: new)
            open(relative, text: text)
            let completion = request("textDocument/completion", at(relative, needle, shift: shift, source: text))["result"]
            return completion?["items"]?.arrayValue ?? completion?.arrayValue ?? []
        }

        /// The diagnostics last published for a document, by code.
        func published(_ relative: String) -> [String]? {
            let last = notifications.last { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.stringValue == uri(relative) }
            return last?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
        }
    }

    @Test func anImportedFileIsCheckedWithTheImporter() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        #expect(w.published("screens/login.anim") == [])
    }

    /// The workspace folder is the project root (issue 50): an import that leaves it,
    /// by `..` or by a link, is E0329 and is not read; a document that is not a file
    /// (`untitled:`) imports nothing (it read imports from the server's working folder).
    @Test func importsStayInsideTheWorkspace() throws {
        let w = try Workspace()
        let outside = NSTemporaryDirectory() + "animc-outside-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try "let fast = 0.1s\n".write(toFile: outside + "/tokens.anim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: w.root + "/screens/linked.anim", withDestinationPath: outside + "/tokens.anim")
        for spelling in [outside + "/tokens.anim", "linked.anim"] {
            w.open("screens/probe.anim", text: "import \"\(spelling)\" as t\ncomposition C { size: 10 x 10 }\n")
            #expect(w.published("screens/probe.anim") == ["E0329"], "\(spelling)")
        }
        w.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", "untitled:Untitled-1"), ("languageId", "anim"), ("version", 1),
                                                                 ("text", "import \"motion/tokens.anim\" as t\ncomposition C { size: 10 x 10 }\n")))))
        let last = w.notifications.last { $0["params"]?["uri"]?.stringValue == "untitled:Untitled-1" }
        let messages = last?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages.count == 1 && messages[0].contains("not a file"), "\(messages)")
    }

    @Test func definitionGoesToTheImportedFile() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        let def = w.request("textDocument/definition", w.at("screens/login.anim", "tokens.fast", shift: 7))["result"]
        #expect(def?["uri"]?.stringValue == w.uri("motion/tokens.anim"))
        #expect(def?["range"]?["start"]?["line"] == 2)
        let component = w.request("textDocument/definition", w.at("screens/login.anim", "ui.Dot", shift: 4))["result"]
        #expect(component?["uri"]?.stringValue == w.uri("motion/ui.anim"))
        let file = w.request("textDocument/definition", w.at("screens/login.anim", "\"../motion/ui.anim\"", shift: 3))["result"]
        #expect(file?["uri"]?.stringValue == w.uri("motion/ui.anim"))
    }

    @Test func referencesAndRenameReachEveryFile() throws {
        let w = try Workspace()
        w.open("motion/tokens.anim")
        // From the declaration: its file, the component library and both screens (one not open).
        let refs = try #require(w.request("textDocument/references", w.at("motion/tokens.anim", "let fast", shift: 4))["result"]?.arrayValue)
        let files = Set(refs.compactMap { $0["uri"]?.stringValue })
        #expect(files == [w.uri("motion/tokens.anim"), w.uri("motion/ui.anim"), w.uri("screens/login.anim"), w.uri("screens/home.anim")])
        // From a qualified use in another file: one edit over every document.
        w.open("screens/login.anim")
        var params = w.at("screens/login.anim", "tokens.fast", shift: 7)
        if case .object(var m) = params { m.append(JSONMember("newName", "quick")); params = .object(m) }
        let changes = try #require(w.request("textDocument/rename", params)["result"]?["changes"]?.objectValue)
        #expect(Set(changes.map(\.key)) == files)
        for change in changes {
            #expect(change.value.arrayValue?.allSatisfy { $0["newText"] == "quick" } == true)
        }
        // A name the declaring file already has would change what its uses mean.
        if case .object(var m) = params { m.removeLast(); m.append(JSONMember("newName", "slow")); params = .object(m) }
        #expect(w.request("textDocument/rename", params)["error"] != nil)
    }

    @Test func editingAnImportedFileRepublishesItsImporters() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        w.open("screens/home.anim")
        let tokens = w.text("motion/tokens.anim")
        w.open("motion/tokens.anim")
        w.notifications.removeAll()
        // The unsaved text of the open tokens file wins over the disk.
        w.change("motion/tokens.anim", to: tokens.replacingOccurrences(of: "let fast", with: "let quick"), version: 2)
        #expect(w.published("screens/login.anim")?.contains("E0327") == true)
        #expect(w.published("screens/home.anim")?.contains("E0327") == true)
        w.change("motion/tokens.anim", to: tokens, version: 3)
        #expect(w.published("screens/login.anim") == [])
        // Closed again, the disk's text counts; a change on disk arrives as a watched file.
        w.notify("textDocument/didClose", obj(("textDocument", obj(("uri", .string(w.uri("motion/tokens.anim")))))))
        try Data(tokens.replacingOccurrences(of: "let slow", with: "let slower").utf8)
            .write(to: URL(fileURLWithPath: w.root + "/motion/tokens.anim"))
        w.notifications.removeAll()
        w.notify("workspace/didChangeWatchedFiles", obj(("changes", .array([obj(("uri", .string(w.uri("motion/tokens.anim"))), ("type", 2))]))))
        #expect(w.published("screens/home.anim")?.contains("E0327") == true)
    }

    /// `prepareRename` on `tokens.fast` in an importer answered an error although the
    /// rename works there: clients that ask first (Neovim 0.10, VS Code) could not
    /// rename from importers (issue 52).
    @Test func prepareRenameWorksFromAnImporter() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        let prepared = w.request("textDocument/prepareRename", w.at("screens/login.anim", "tokens.fast", shift: 8))["result"]
        #expect(prepared?["placeholder"] == "fast", "\(String(describing: prepared))")
        let start = prepared?["range"]?["start"]?["character"]?.numberValue
        let position = w.at("screens/login.anim", "tokens.fast", shift: 7)["position"]
        #expect(start == position?["character"]?.numberValue && prepared?["range"]?["start"]?["line"] == position?["line"])
    }

    /// A client that declared `documentChanges` got plain `changes`, so a rename right
    /// after a format was applied to other text (Eglot corrupted a file). Each open
    /// document's edits now carry the version they were made for (issue 52).
    @Test func editsAreVersionedForClientsThatTakeThem() throws {
        let w = try Workspace(documentChanges: true)
        w.open("screens/login.anim")
        w.change("screens/login.anim", to: w.text("screens/login.anim") + "\n", version: 7)
        var params = w.at("screens/login.anim", "tokens.fast", shift: 7)
        if case .object(var m) = params { m.append(JSONMember("newName", "quick")); params = .object(m) }
        let edit = try #require(w.request("textDocument/rename", params)["result"])
        #expect(edit["changes"] == nil)
        let documents = try #require(edit["documentChanges"]?.arrayValue)
        #expect(documents.count == 4)
        for document in documents {
            let uri = document["textDocument"]?["uri"]?.stringValue
            let version = document["textDocument"]?["version"]
            #expect(version == (uri == w.uri("screens/login.anim") ? .number(7) : .null), "\(String(describing: uri)): \(String(describing: version))")
            #expect(document["edits"]?.arrayValue?.isEmpty == false)
        }
    }

    /// A client that does not watch files (Neovim 0.7, ALE) kept an importer's stale
    /// diagnostics after the library changed on disk, even after saving the importer
    /// (issue 52). Saving or opening a document, and the server's own clock, compare
    /// each check's imported files with what it read.
    @Test func aClientThatDoesNotWatchStillSeesLibraryChanges() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        #expect(w.published("screens/login.anim") == [])
        let tokens = w.text("motion/tokens.anim")
        try tokens.replacingOccurrences(of: "let fast", with: "let quick").write(toFile: w.root + "/motion/tokens.anim", atomically: true, encoding: .utf8)
        w.notifications.removeAll()
        w.notify("textDocument/didSave", obj(("textDocument", obj(("uri", .string(w.uri("screens/login.anim")))))))
        #expect(w.published("screens/login.anim")?.contains("E0327") == true)
        // The clock's way, with nothing saved: the file put back is seen.
        try tokens.write(toFile: w.root + "/motion/tokens.anim", atomically: true, encoding: .utf8)
        w.notifications.removeAll()
        w.client.server.refreshStaleImports()
        w.notifications += w.client.server.flushDiagnostics()
        #expect(w.published("screens/login.anim") == [])
        // Nothing changed: nothing is checked again.
        w.notifications.removeAll()
        w.client.server.refreshStaleImports()
        #expect(w.client.server.flushDiagnostics().isEmpty)
    }

    /// Renaming a parameter of a component another file instantiates edited only the
    /// component's file, leaving the importer's label naming nothing (E0307, issue 52):
    /// refused until labels across files are renamed. A component nobody imports
    /// renames as before.
    @Test func renamingAParameterOtherFilesLabelIsRefused() throws {
        let w = try Workspace()
        w.open("motion/ui.anim")
        var params = w.at("motion/ui.anim", "delay: Time")
        if case .object(var m) = params { m.append(JSONMember("newName", "wait")); params = .object(m) }
        let reply = w.request("textDocument/rename", params)
        #expect(reply["error"]?["message"]?.stringValue?.contains("login.anim") == true, "\(reply)")
        // Without the importer, it renames in the one file.
        try FileManager.default.removeItem(atPath: w.root + "/screens/login.anim")
        let renamed = w.request("textDocument/rename", params)["result"]?["changes"]?.objectValue
        #expect(renamed?.count == 1 && renamed?.first?.value.arrayValue?.count == 2, "\(String(describing: renamed))")
    }

    /// Signature help was null inside every component call, local or imported, and
    /// completion there offered no parameter labels (issue 52).
    @Test func componentCallsHaveSignaturesAndLabels() throws {
        let w = try Workspace()
        let text = w.text("screens/login.anim").replacingOccurrences(of: "ui.Dot(at: (50, 50), delay: tokens.fast)", with: "ui.Dot(at: (50, 50), )")
        w.open("screens/login.anim", text: text)
        let help = w.request("textDocument/signatureHelp", w.at("screens/login.anim", "(50, 50), )", shift: 10, source: text))["result"]
        let label = help?["signatures"]?.arrayValue?.first?["label"]?.stringValue
        #expect(label == "Dot(at: Point, delay: Time = 0s)", "\(String(describing: help))")
        #expect(help?["activeParameter"] == .number(1))
        let items = w.request("textDocument/completion", w.at("screens/login.anim", "(50, 50), )", shift: 10, source: text))["result"]
        let labels = (items?["items"]?.arrayValue ?? items?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        #expect(labels.contains("delay:") && !labels.contains("at:"), "\(labels.prefix(20))")
        // A component of the file itself.
        w.open("motion/ui.anim", text: w.text("motion/ui.anim") + "\nlet probe = Dot(\n")
        let local = w.request("textDocument/signatureHelp", w.at("motion/ui.anim", "Dot(\n", shift: 4, source: w.text("motion/ui.anim") + "\nlet probe = Dot(\n"))["result"]
        #expect(local?["signatures"]?.arrayValue?.first?["label"]?.stringValue == "Dot(at: Point, delay: Time = 0s)", "\(String(describing: local))")
    }

    /// A client that watches files: the workspace is walked once, not on every request
    /// (0.45 s each in a repository of 30,000 other files), and a created file joins
    /// when the watcher says so. A whole batch of changes marks each importer once.
    @Test func theWorkspaceListingIsKeptWhileTheClientWatches() throws {
        let w = try Workspace(watching: true)
        w.open("motion/tokens.anim")
        func files() throws -> Set<String> {
            let refs = try #require(w.request("textDocument/references", w.at("motion/tokens.anim", "let fast", shift: 4))["result"]?.arrayValue)
            return Set(refs.compactMap { $0["uri"]?.stringValue })
        }
        #expect(try files().count == 4)
        try "import \"../motion/tokens.anim\"\nlet again = tokens.fast\n".write(toFile: w.root + "/screens/extra.anim", atomically: true, encoding: .utf8)
        #expect(try files().count == 4, "the listing was walked again")
        var changes: [JSONValue] = (0..<2_000).map { obj(("uri", .string(w.uri("generated/f\($0).anim"))), ("type", 2)) }
        changes.insert(obj(("uri", .string(w.uri("screens/extra.anim"))), ("type", 1)), at: 1_000)
        w.notify("workspace/didChangeWatchedFiles", obj(("changes", .array(changes))))
        #expect(try files().contains(w.uri("screens/extra.anim")))
        // A change to the tokens on disk, inside a batch, re-checks their open importer.
        w.open("screens/home.anim")
        w.notify("textDocument/didClose", obj(("textDocument", obj(("uri", .string(w.uri("motion/tokens.anim")))))))
        try w.text("motion/tokens.anim").replacingOccurrences(of: "let slow", with: "let slower")
            .write(toFile: w.root + "/motion/tokens.anim", atomically: true, encoding: .utf8)
        w.notifications.removeAll()
        changes[1_000] = obj(("uri", .string(w.uri("motion/tokens.anim"))), ("type", 2))
        w.notify("workspace/didChangeWatchedFiles", obj(("changes", .array(changes))))
        #expect(w.published("screens/home.anim")?.contains("E0327") == true)
    }

    /// A rename stopped silently at the files the server reads (6,000 importers: 1,001
    /// left with E0327). Past the limit it is refused, whole or not at all.
    @Test func aRenameThatCouldNotBeWholeIsRefused() throws {
        let w = try Workspace()
        let folder = w.root + "/generated"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for k in 0...LanguageServer.projectFileLimit {
            FileManager.default.createFile(atPath: folder + "/f\(k).anim", contents: Data("let x\(k) = 1\n".utf8))
        }
        w.open("screens/login.anim")
        var params = w.at("screens/login.anim", "tokens.fast", shift: 7)
        if case .object(var m) = params { m.append(JSONMember("newName", "quick")); params = .object(m) }
        let reply = w.request("textDocument/rename", params)
        #expect(reply["result"] == nil || reply["result"] == .null)
        #expect(reply["error"]?["message"]?.stringValue?.contains("could not be whole") == true, "\(reply)")
    }

    @Test func hoverOnAQualifiedNameShowsTheValueAndWhere() throws {
        let w = try Workspace()
        w.open("screens/login.anim")
        let hover = w.request("textDocument/hover", w.at("screens/login.anim", "tokens.fast", shift: 8))["result"]?["contents"]?["value"]?.stringValue
        #expect(hover?.contains("tokens.fast") == true)
        #expect(hover?.contains("0.2s") == true)
        #expect(hover?.contains("motion/tokens.anim, line 3") == true)
    }

    /// A client that watches files when asked is asked, once initialized, to watch the
    /// project's `.anim` files: their changes on disk re-check the open importers.
    @Test func theServerAsksToBeToldOfChangedFiles() {
        let server = LanguageServer()
        _ = server.handle(obj(("jsonrpc", "2.0"), ("id", 1), ("method", "initialize"), ("params", obj(("capabilities", obj(
            ("workspace", obj(("didChangeWatchedFiles", obj(("dynamicRegistration", true)))))))))))
        let sent = server.handle(obj(("jsonrpc", "2.0"), ("method", "initialized"), ("params", obj())))
        let registration = sent.first { $0["method"] == "client/registerCapability" }?["params"]?["registrations"]?.arrayValue?.first
        #expect(registration?["method"] == "workspace/didChangeWatchedFiles")
        let watchers = registration?["registerOptions"]?["watchers"]?.arrayValue ?? []
        #expect(watchers.first?["globPattern"] == "**/*.anim")
        // Its answer is taken quietly.
        let answered = server.handle(obj(("jsonrpc", "2.0"), ("id", sent.first?["id"] ?? .null), ("result", .null)))
        #expect(answered.isEmpty)
        // A client that does not watch files is not asked.
        let other = LanguageServer()
        _ = other.handle(obj(("jsonrpc", "2.0"), ("id", 1), ("method", "initialize"), ("params", obj(("capabilities", obj())))))
        #expect(other.handle(obj(("jsonrpc", "2.0"), ("method", "initialized"), ("params", obj()))).isEmpty)
    }

    /// After `tokens.`, what the imported file declares.
    @Test func completionAfterAnImportsNameOffersItsDeclarations() throws {
        let w = try Workspace()
        let items = w.completion(in: "screens/login.anim", replacing: "duration: tokens.slow", with: "duration: tokens.", at: "tokens.\n", shift: 7)
        let labels = Set(items.compactMap { $0["label"]?.stringValue })
        #expect(labels == ["fast", "slow", "ease"], "\(labels)")
        #expect(items.first { $0["label"] == "fast" }?["detail"]?.stringValue == "constant = 0.2s")
        // After `timingFunction:`, the timing functions only (issue 52: every token was offered).
        let timings = w.completion(in: "screens/login.anim", replacing: "duration: tokens.slow",
                                   with: "duration: tokens.slow, timingFunction: tokens.", at: "timingFunction: tokens.\n", shift: 23)
        #expect(Set(timings.compactMap { $0["label"]?.stringValue }) == ["ease"], "\(timings.compactMap { $0["label"]?.stringValue })")
    }

    /// In a layer's body, the imported files' components are offered qualified.
    @Test func completionInALayerOffersImportedComponents() throws {
        let w = try Workspace()
        let items = w.completion(in: "screens/login.anim", replacing: "  bounds: 80 x 20\n", with: "  bounds: 80 x 20\n  \n",
                                 at: "80 x 20\n  \n", shift: 10)
        #expect(items.contains { $0["label"] == "ui.Dot" }, "\(items.compactMap { $0["label"]?.stringValue })")
    }

    /// The outline lists the imports first, as written.
    @Test func theOutlineShowsTheImports() throws {
        let w = try Workspace()
        w.open("screens/home.anim")
        let symbols = w.request("textDocument/documentSymbol", obj(("textDocument", obj(("uri", .string(w.uri("screens/home.anim")))))))
        let names = (symbols["result"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(names.first == "import \"../motion/tokens.anim\" as t", "\(names)")
    }

    @Test func workspaceSymbolsCoverTheProject() throws {
        let w = try Workspace()
        let symbols = w.request("workspace/symbol", obj(("query", "Dot")))["result"]?.arrayValue ?? []
        #expect(symbols.contains { $0["name"] == "Dot" && $0["location"]?["uri"]?.stringValue == w.uri("motion/ui.anim") })
    }
}

/// Moving files (issue 52: `workspace/willRenameFiles`): every import keeps naming the
/// same file, and the project means what it meant.
@Suite struct MovingFilesTests {
    typealias Client = LanguageServerTests.Client

    /// A fresh project folder (marked with `.animc-root`) holding `files`, by path within it.
    static func project(_ name: String, _ files: [String: String]) -> String {
        let dir = NSTemporaryDirectory() + "animc-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        write(dir + "/.animc-root", "")
        for (path, text) in files { write(dir + "/" + path, text) }
        return dir
    }

    static func write(_ path: String, _ text: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// Applies an LSP workspace edit's plain `changes` to the files on disk.
    static func apply(_ edit: JSONValue) {
        guard case .object(let members)? = edit["changes"] else { return }
        for member in members {
            let path = LanguageServer.displayName(member.key)
            guard var text = try? String(contentsOfFile: path, encoding: .utf8), let edits = member.value.arrayValue else { continue }
            func offset(_ p: JSONValue?) -> String.Index {
                let line = Int(p?["line"]?.numberValue ?? 0), character = Int(p?["character"]?.numberValue ?? 0)
                var index = text.startIndex
                for _ in 0..<line { index = text[index...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex }
                return text.utf16.index(index, offsetBy: character)
            }
            for e in edits.reversed() {
                let range = offset(e["range"]?["start"])..<offset(e["range"]?["end"])
                text.replaceSubrange(range, with: e["newText"]?.stringValue ?? "")
            }
            write(path, text)
        }
    }

    static func timeline(_ path: String, root: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let loader = WorkspaceLoader(open: [:], root: ProjectRoot(path: LocalPaths.canonical(root), origin: .marker(".animc-root")))
        let project = Pipeline.compile(SourceFile(name: path, bytes: Array(data)), loader: loader)
        guard !project.hasErrors, var c = project.main.composition else { return nil }
        c.name = "same"
        return TimelineWriter.bytes(c)
    }

    @Test func movingAFileKeepsEveryImport() throws {
        let dir = Self.project("moves", [
            "motion/tokens.anim": "let fast = 0.2s\nlet size = 12\n",
            "motion/kit.anim": "import \"tokens.anim\" as t\ncomponent Dot(at: Point) {\n  layer { position: at, bounds: t.size x t.size }\n}\n",
            "app.anim": "import \"motion/tokens.anim\"\nimport \"motion/kit.anim\"\ncomposition { size: 100 x 100 }\n"
                + "d = kit.Dot(at: (10, 10))\nlayer a { basic opacity { from: 0, to: 1, duration: tokens.fast } }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try #require(Self.timeline(dir + "/app.anim", root: dir))
        let client = Client(open: nil, rootUri: "file://" + dir)

        // A file renamed into another folder: its importers name the new path, and the
        // one that read it as `tokens` keeps that name.
        let renamed = client.request("workspace/willRenameFiles", obj(("files", .array([obj(
            ("oldUri", .string("file://" + dir + "/motion/tokens.anim")), ("newUri", .string("file://" + dir + "/design/tokens2.anim")))]))))
        let edit = try #require(renamed["result"])
        var texts: Set<String> = []
        if case .object(let members)? = edit["changes"] {
            for member in members {
                for e in member.value.arrayValue ?? [] { if let t = e["newText"]?.stringValue { texts.insert(t) } }
            }
        }
        #expect(texts == ["\"design/tokens2.anim\" as tokens", "\"../design/tokens2.anim\""])
        Self.apply(edit)
        try FileManager.default.createDirectory(atPath: dir + "/design", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: dir + "/motion/tokens.anim", toPath: dir + "/design/tokens2.anim")
        #expect(Self.timeline(dir + "/app.anim", root: dir) == before)

        // A folder moved: the importer names the files in it by their new paths; the
        // files inside, which import each other by relative paths, need no edit... and a
        // file moved into a subfolder writes its own imports from there.
        let folder = client.request("workspace/willRenameFiles", obj(("files", .array([
            obj(("oldUri", .string("file://" + dir + "/motion")), ("newUri", .string("file://" + dir + "/ui"))),
            obj(("oldUri", .string("file://" + dir + "/app.anim")), ("newUri", .string("file://" + dir + "/screens/app.anim"))),
        ]))))
        let edit2 = try #require(folder["result"])
        Self.apply(edit2)
        try FileManager.default.moveItem(atPath: dir + "/motion", toPath: dir + "/ui")
        try FileManager.default.createDirectory(atPath: dir + "/screens", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: dir + "/app.anim", toPath: dir + "/screens/app.anim")
        let moved = try String(contentsOfFile: dir + "/screens/app.anim", encoding: .utf8)
        #expect(moved.hasPrefix("import \"../design/tokens2.anim\" as tokens\nimport \"../ui/kit.anim\"\n"), "\(moved)")
        #expect(Self.timeline(dir + "/screens/app.anim", root: dir) == before)
    }
}

/// Completion of another file's declarations (issue 52: auto-import).
@Suite struct AutoImportTests {
    typealias Client = LanguageServerTests.Client

    /// A token of the project's library is offered where a value goes, qualified, with
    /// its import added when the file has none (and used when it has one); the file then
    /// checks clean. A file that is not a library, or lies outside the project, is not offered.
    @Test func completionOffersTheProjectsTokensWithTheirImport() throws {
        let dir = MovingFilesTests.project("auto-import", [
            "motion/tokens.anim": "let fast = 0.2s\ntiming ease = cubic(0.2, 0, 0, 1)\n",
            "other.anim": "let slow = 2s\ncomposition { size: 10 x 10 }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let client = Client(open: nil, rootUri: "file://" + dir)
        let uri = "file://" + dir + "/app.anim"
        let text = "composition { size: 100 x 100 }\nlayer a { basic opacity { from: 0, to: 1, duration: f } }\n"
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(uri)), ("languageId", "anim"), ("version", 1),
                                                                      ("text", .string(text))))))
        let column = try #require(text.split(separator: "\n")[1].range(of: "duration: f")).upperBound.utf16Offset(in: text.split(separator: "\n")[1])
        let result = client.request("textDocument/completion", obj(("textDocument", obj(("uri", .string(uri)))),
                                                                   ("position", obj(("line", 1), ("character", .number(Double(column)))))))["result"]
        let items = result?["items"]?.arrayValue ?? result?.arrayValue ?? []
        let fast = try #require(items.first { $0["label"] == "tokens.fast" })
        #expect(fast["filterText"] == "fast")
        let edit = try #require(fast["additionalTextEdits"]?.arrayValue?.first)
        #expect(edit["newText"] == "import \"motion/tokens.anim\"\n")
        #expect(edit["range"]?["start"] == obj(("line", 0), ("character", 0)))
        #expect(!items.contains { $0["label"] == "other.slow" }, "a file with a composition is not a library")
        // Taken: the import and the qualified name make a file that checks clean.
        let completed = "import \"motion/tokens.anim\"\n" + text.replacingOccurrences(of: "duration: f", with: "duration: tokens.fast")
        let loader = WorkspaceLoader(open: [:], root: ProjectRoot(path: LocalPaths.canonical(dir), origin: .marker(".animc-root")))
        let checked = Pipeline.compile(SourceFile(name: dir + "/app.anim", text: completed), loader: loader)
        #expect(!checked.hasErrors, "\(checked.main.diagnostics.map(\.message))")

        // With the import already there (as `t`), its name is used and nothing is added.
        let imported = "import \"motion/tokens.anim\" as t\n" + text
        client.notify("textDocument/didChange", obj(("textDocument", obj(("uri", .string(uri)), ("version", 2))),
                                                   ("contentChanges", .array([obj(("text", .string(imported)))]))))
        let again = client.request("textDocument/completion", obj(("textDocument", obj(("uri", .string(uri)))),
                                                                  ("position", obj(("line", 2), ("character", .number(Double(column)))))))["result"]
        let items2 = again?["items"]?.arrayValue ?? again?.arrayValue ?? []
        let qualified = try #require(items2.first { $0["label"] == "t.fast" })
        #expect(qualified["additionalTextEdits"] == nil || qualified["additionalTextEdits"] == .null)
        #expect(!items2.contains { $0["label"] == "tokens.fast" })
    }
}
