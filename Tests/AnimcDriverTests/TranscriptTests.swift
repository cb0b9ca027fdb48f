import AnimcBase
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// The terminal sessions shown in README.md and docs/tutorial.md: every
/// `$ swift run animc ...` line is run in-process over an in-memory copy of the
/// repository's files, and what the document shows under it must be what it prints.
/// A line `...` ends the comparison early (the document shows only the start).
@Suite struct TranscriptTests {
    struct Session: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var arguments: [String]
        var expected: [String]
        var testDescription: String { "\(document):\(line) animc \(arguments.joined(separator: " "))" }
    }

    static let documents = ["README.md", "docs/tutorial.md"]

    /// Splits a command line on spaces, keeping double-quoted arguments whole.
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for c in line {
            if c == "\"" { quoted.toggle(); continue }
            if c == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static var sessions: [Session] {
        var result: [Session] = []
        let prefix = "$ swift run animc "
        for document in documents {
            for block in Markdown.fencedBlocks(in: document, language: "sh") {
                var current: Session?
                for (j, line) in block.lines.enumerated() {
                    if line.hasPrefix("$ ") {
                        if let s = current { result.append(s) }
                        current = line.hasPrefix(prefix)
                            ? Session(document: document, line: block.firstLine + j,
                                      arguments: words(line.dropFirst(prefix.count)), expected: [])
                            : nil
                    } else {
                        current?.expected.append(line)
                    }
                }
                if let s = current { result.append(s) }
            }
        }
        return result
    }

    static func fileSystem() -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        for path in Repository.exampleFiles { fs[path] = Repository.bytes(path) }
        // The examples' snapshots, which `animc test examples/` compares with.
        for path in Repository.files(in: "examples/__snapshots__", withExtension: "png") { fs[path] = Repository.bytes(path) }
        // The pictures the examples name, so a render shows them as a reader's would.
        for path in Repository.files(in: "examples/assets", withExtension: "png") { fs[path] = Repository.bytes(path) }
        for folder in ["Tests/AnimcDriverTests/Fixtures/inputs", "Tests/AnimcDriverTests/Fixtures/pastes"] {
            for path in Repository.files(in: folder, withExtension: "anim") { fs[path] = Repository.bytes(path) }
        }
        return fs
    }

    @Test func theDocumentsShowSessions() {
        #expect(Self.sessions.filter { $0.document == "README.md" }.count >= 5)
        #expect(Self.sessions.filter { $0.document == "docs/tutorial.md" }.count >= 5)
    }

    @Test(arguments: sessions)
    func printsWhatTheDocumentShows(_ session: Session) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: Self.fileSystem(), console: console).run(session.arguments)
        #expect(code != 2, "usage or I/O error: \(console.err)")
        var expected = session.expected
        if let cut = expected.firstIndex(of: "...") { expected = Array(expected[..<cut]) }
        let shown = expected.joined(separator: "\n")
        guard !shown.isEmpty else { return }
        // Diagnostics go to stderr and summaries to stdout; a terminal shows both.
        let printed = [console.err + console.out, console.out + console.err]
        #expect(printed.contains { $0.hasPrefix(shown) }, "\(session.testDescription) printed:\n\(console.err + console.out)")
    }
}
