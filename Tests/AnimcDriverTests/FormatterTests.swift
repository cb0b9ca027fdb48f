import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcSyntax
import AnimcTimeline
import AnimcTestSupport
import Foundation
import Testing

/// `animc fmt`: canonical, idempotent, comment-preserving and meaning-preserving.
@Suite struct FormatterTests {
    /// Every `.anim` in the repository. Hostile regression inputs and the formatter's
    /// own messy inputs are kept byte for byte; everything else must stay formatted.
    static let allFiles: [String] = {
        var found: [String] = []
        for folder in ["examples", "Tests"] {
            let root = Repository.path(folder)
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".anim"), !Repository.isDirectory(folder + "/" + relative) { found.append(folder + "/" + relative) }
            }
        }
        return found.sorted()
    }()

    /// Regression inputs, the formatter's own inputs, and the public ports corpus, which
    /// is other people's text kept byte for byte.
    static func keptAsWritten(_ path: String) -> Bool {
        path.contains("/regressions/") || path.contains("/ports-public/") || (path.contains("/fmt/") && !path.hasSuffix(".formatted.anim"))
    }

    static let mustBeFormatted = allFiles.filter { !keptAsWritten($0) }
    /// Small enough to compile twice in a test (the regression inputs expand millions of items).
    static let compilable = allFiles.filter { !$0.contains("/regressions/") }

    static func format(_ text: [UInt8], name: String = "t.anim") -> Result<String, SourceFormatter.Failure> {
        SourceFormatter.format(SourceFile(name: name, bytes: text))
    }

    @Test(arguments: mustBeFormatted)
    func staysFormatted(_ path: String) {
        let bytes = Repository.bytes(path)
        guard case .success(let formatted) = Self.format(bytes) else { return }  // syntax-error fixtures
        if let problem = Golden.check(formatted, against: path) {
            Issue.record(Comment(rawValue: "\(path) is not formatted; run: animc fmt \(path)\n\(problem)"))
        }
    }

    /// The IR, the diagnostics (by code and message) and the idempotence of the result.
    @Test(arguments: compilable)
    func keepsTheMeaning(_ path: String) throws {
        let bytes = Repository.bytes(path)
        guard case .success(let once) = Self.format(bytes) else { return }
        let before = Pipeline.compile(SourceFile(name: "f.anim", bytes: bytes))
        let after = Pipeline.compile(SourceFile(name: "f.anim", text: once))
        // The IR holds source ranges, which move; its portable form does not.
        let same = before.composition.map(TimelineWriter.bytes) == after.composition.map(TimelineWriter.bytes)
        #expect(same, "\(path): the IR changed")
        #expect(before.diagnostics.map(\.code) == after.diagnostics.map(\.code), "\(path): the diagnostics changed")
        let twice = try #require(try? Self.format(Array(once.utf8)).get())
        #expect(twice == once, "\(path): formatting is not idempotent")
    }

    @Test(arguments: Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/fmt", withExtension: "anim").filter { !$0.hasSuffix(".formatted.anim") })
    func matchesGolden(_ path: String) throws {
        let formatted = try Self.format(Repository.bytes(path)).get()
        if let problem = Golden.check(formatted, against: String(path.dropLast(5)) + ".formatted.anim") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func docsSnippetsAreFormatted() throws {
        var checked = 0
        for doc in ["README.md", "docs/language.md", "docs/tutorial.md"] {
            let text = Repository.read(doc)
            var rest = text[...]
            while let open = rest.range(of: "```anim\n") {
                guard let close = rest[open.upperBound...].range(of: "```") else { break }
                let snippet = String(rest[open.upperBound..<close.lowerBound])
                if case .success(let formatted) = Self.format(Array(snippet.utf8)) {
                    #expect(formatted == snippet, "a snippet in \(doc) is not formatted:\n\(Golden.lineDiff(snippet, formatted))")
                    checked += 1
                }
                rest = rest[close.upperBound...]
            }
        }
        #expect(checked >= 20)
    }

    // MARK: The formatter's rules, one at a time

    @Test(arguments: [
        ("let a=1+2*3\n", "let a = 1 + 2 * 3\n"),
        ("let a = - 1\n", "let a = -1\n"),
        ("let a = b-1\n", "let a = b - 1\n"),
        ("let a = !( true )\n", "let a = !(true)\n"),
        ("let a = x ? 1:2\n", "let a = x ? 1 : 2\n"),
        ("layer a{opacity:1;zPosition:2}\n", "layer a { opacity: 1; zPosition: 2 }\n"),
        ("layer a {}\n", "layer a {}\n"),
        ("let r = 0s..<3s\n", "let r = 0s ..< 3s\n"),
        ("\n\n\nlet a = 1\n\n\n\nlet b = 2\n\n\n", "let a = 1\n\nlet b = 2\n"),
        ("layer a {\n\n  opacity: 1\n\n}\n", "layer a {\n  opacity: 1\n}\n"),
        ("let a = 1   \t\n", "let a = 1\n"),
        ("let a = 1", "let a = 1\n"),
        ("let a = 1\r\nlet b = 2\r\n", "let a = 1\nlet b = 2\n"),
        ("let x = [\n1,\n    2\n]\n", "let x = [\n  1,\n  2\n]\n"),
        ("let x = f([\n1\n])\n", "let x = f([\n  1\n])\n"),
        ("let a = 1 // one\nlet bb = 22 // two\n", "let a = 1   // one\nlet bb = 22 // two\n"),
        ("layer a {\n// inside\nopacity: 1\n    // before the end\n}\n", "layer a {\n  // inside\n  opacity: 1\n  // before the end\n}\n"),
        ("let a = 1 /* why */ + 2\n", "let a = 1 /* why */ + 2\n"),
        ("let a = .infinity\n", "let a = .infinity\n"),
        ("let a = b.c[0].d\n", "let a = b.c[0].d\n"),
        ("", ""),
        ("// only a comment", "// only a comment\n"),
    ])
    func rule(_ input: String, _ expected: String) throws {
        let formatted = try Self.format(Array(input.utf8)).get()
        #expect(formatted == expected)
    }

    /// Attachment is syntax: a call and a path command argument stay what they were.
    @Test func keepsSignificantAttachment() throws {
        let input = "path p {\n  move (0, 0)\n  line(10, 10)\n}\nlet b = xs[0].y\nlet c = [0]\n"
        let formatted = try Self.format(Array(input.utf8)).get()
        #expect(formatted == input)
    }

    @Test func refusesFilesWithSyntaxErrors() {
        #expect(Self.format(Array("let a = (1\n".utf8)) == .failure(.syntaxErrors(count: 1)))
    }

    // MARK: The command

    static let messy = "composition{size:10 x 10}\nlayer a{opacity:1}\n"
    static let tidy = "composition { size: 10 x 10 }\nlayer a { opacity: 1 }\n"

    @Test func rewritesInPlaceAndRecurses() {
        let fs = InMemoryFileSystem(["dir/a.anim": Array(Self.messy.utf8), "dir/sub/b.anim": Array(Self.tidy.utf8)])
        let console = CapturingConsole()
        let status = CommandLineTool(fileSystem: fs, console: console).run(["fmt", "dir"])
        #expect(status == 0)
        #expect(fs["dir/a.anim"].map { String(decoding: $0, as: UTF8.self) } == Self.tidy)
        #expect(fs["dir/sub/b.anim"].map { String(decoding: $0, as: UTF8.self) } == Self.tidy)
        #expect(console.out.isEmpty && console.err.isEmpty)
    }

    @Test func checkPrintsAUnifiedDiffAndChangesNothing() {
        let fs = InMemoryFileSystem(["a.anim": Array(Self.messy.utf8), "b.anim": Array(Self.tidy.utf8)])
        let console = CapturingConsole()
        let status = CommandLineTool(fileSystem: fs, console: console).run(["fmt", "--check", "a.anim", "b.anim"])
        #expect(status == 1)
        #expect(fs["a.anim"] == Array(Self.messy.utf8))
        #expect(console.out == """
            --- a/a.anim
            +++ b/a.anim
            @@ -1,2 +1,2 @@
            -composition{size:10 x 10}
            -layer a{opacity:1}
            +composition { size: 10 x 10 }
            +layer a { opacity: 1 }

            """)
        #expect(console.err == "animc fmt: 1 of 2 files not formatted\n")
        let clean = CommandLineTool(fileSystem: fs, console: CapturingConsole()).run(["fmt", "--check", "b.anim"])
        #expect(clean == 0)
    }

    @Test func standardInputToStandardOutput() {
        let console = CapturingConsole(input: Array(Self.messy.utf8))
        #expect(CommandLineTool(fileSystem: InMemoryFileSystem([:]), console: console).run(["fmt", "-"]) == 0)
        #expect(console.out == Self.tidy)
    }

    @Test func syntaxErrorsLeaveTheFileAlone() {
        let broken = Array("layer a { opacity: (1 }\n".utf8)
        let fs = InMemoryFileSystem(["a.anim": broken])
        let console = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: console).run(["fmt", "a.anim"]) == 1)
        #expect(fs["a.anim"] == broken)
        #expect(console.err.contains("error[E0203]"))
        #expect(console.err.contains("a.anim: not formatted: fix the syntax errors first"))
        // Piped, the buffer comes back unchanged rather than empty.
        let piped = CapturingConsole(input: broken)
        #expect(CommandLineTool(fileSystem: InMemoryFileSystem([:]), console: piped).run(["fmt", "-"]) == 1)
        #expect(Array(piped.out.utf8) == broken)
    }

    /// An editor pipes its buffer through `fmt -` and replaces the buffer with what comes
    /// back: a file that cannot be formatted comes back byte for byte, invalid UTF-8 too
    /// (a Latin-1 comment saved by another editor).
    @Test func standardInputThatCannotBeFormattedComesBackByteForByte() {
        let latin1: [UInt8] = Array("composition C { size: 10 x 10 }\n// caf".utf8) + [0xE9] + Array("\nlayer   a { opacity: 1 }\n".utf8)
        let piped = CapturingConsole(input: latin1)
        #expect(CommandLineTool(fileSystem: InMemoryFileSystem([:]), console: piped).run(["fmt", "-"]) == 1)
        #expect(piped.outBytes == latin1)
        #expect(piped.err.contains("error[E0101]"))
    }
}
