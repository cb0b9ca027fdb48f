import AnimcBase
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// Command lines run in-process over an in-memory copy of the examples and inputs;
/// stdout, stderr, the exit status and the files written are the golden.
@Suite struct CLIGoldenTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/cli"
    static let cases = Repository.files(in: folder, withExtension: "cmd")

    static func fileSystem() -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        for path in Repository.exampleFiles { fs[path] = Repository.bytes(path) }
        for path in Repository.files(in: "Tests/AnimcDriverTests/Fixtures/inputs", withExtension: "anim")
            + Repository.files(in: "Tests/AnimcDriverTests/Fixtures/inputs", withExtension: "txt") {
            fs["inputs/" + (path.split(separator: "/").last.map(String.init) ?? path)] = Repository.bytes(path)
        }
        fs["notes/readme.txt"] = Repository.bytes("Tests/AnimcDriverTests/Fixtures/notes/readme.txt")
        // Projects of several files that import each other, under projects/.
        let projects = "Tests/AnimcDriverTests/Fixtures/projects"
        for path in Repository.filesRecursively(in: projects, withExtension: "anim")
            + Repository.filesRecursively(in: projects, withExtension: "txt") {
            fs["projects" + path.dropFirst(projects.count)] = Repository.bytes(path)
        }
        return fs
    }

    static func run(_ arguments: [String]) -> String {
        let fs = fileSystem()
        let before = Set(fs.allPaths)
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: fs, console: console).run(arguments)
        var out = "$ animc \(arguments.joined(separator: " "))\nexit: \(code)\n--- stdout\n\(console.out)--- stderr\n\(console.err)--- files written\n"
        for path in fs.allPaths where !before.contains(path) {
            out += "\(path) (\(fs[path]?.count ?? 0) bytes)\n"
        }
        return out
    }

    @Test(arguments: cases)
    func matchesGolden(_ path: String) {
        let line = Repository.read(path).trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = line.isEmpty ? [] : line.split(separator: " ").map(String.init)
        let output = Self.run(arguments)
        if let problem = Golden.check(output, against: String(path.dropLast(4)) + ".txt") { Issue.record(Comment(rawValue: problem)) }
    }

    @Test func everyCommandHasHelpAndEveryOptionIsInIt() {
        for command in ["check", "lint", "parse", "build", "eval", "explain", "render"] {
            let out = Self.run([command, "--help"])
            #expect(out.contains("exit: 0") && out.contains("USAGE: animc \(command)"), "\(command) --help")
        }
        let build = Self.run(["build", "--help"])
        for option in ["--target", "--output", "--fps", "--window", "--format", "--werror", "--color"] { #expect(build.contains(option)) }
        let eval = Self.run(["eval", "--help"])
        for option in ["--at", "--fraction", "--animation", "--scrub", "--layer", "--property", "--format"] { #expect(eval.contains(option)) }
        let render = Self.run(["render", "--help"])
        for option in ["--at", "--output", "--scale", "--background", "--layer", "--apng", "--gif", "--filmstrip", "--window", "--fps",
                       "--dither", "--color"] { #expect(render.contains(option), "render --help lacks \(option)") }
        let check = Self.run(["check", "--help"])
        for option in ["--format", "--werror", "--color", "--fix", "--dry-run"] { #expect(check.contains(option)) }
    }

    /// Two inputs that would write one output are refused before anything is written.
    @Test func twoInputsForOneOutputAreRefused() {
        let fs = InMemoryFileSystem(["a/x.anim": Repository.bytes("examples/scrub.anim"),
                                     "b/x.anim": Repository.bytes("examples/scrub.anim")])
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: fs, console: console).run(["build", "a/x.anim", "b/x.anim", "-o", "out/"])
        #expect(code == 2)
        #expect(console.err.contains("'a/x.anim' and 'b/x.anim' would both be written to 'out/x.timeline.json'"))
        #expect(fs.allPaths == ["a/x.anim", "b/x.anim"])
    }

    @Test func goldensHaveCommands() {
        for g in Repository.files(in: Self.folder, withExtension: "txt") {
            #expect(Self.cases.contains(String(g.dropLast(4)) + ".cmd"), "orphaned golden \(g)")
        }
    }

    /// NO_COLOR turns colour off in auto mode even on a terminal; CLICOLOR_FORCE turns it on.
    @Test func colourFollowsTheEnvironment() {
        func stderr(_ env: [String: String], terminal: Bool) -> String {
            let console = CapturingConsole(environment: env)
            console.stderrIsTerminal = terminal
            _ = CommandLineTool(fileSystem: Self.fileSystem(), console: console).run(["check", "inputs/broken.anim"])
            return console.err
        }
        #expect(stderr([:], terminal: true).contains("\u{1B}["))
        #expect(!stderr(["NO_COLOR": "1"], terminal: true).contains("\u{1B}["))
        #expect(!stderr(["TERM": "dumb"], terminal: true).contains("\u{1B}["))
        #expect(!stderr([:], terminal: false).contains("\u{1B}["))
        #expect(stderr(["CLICOLOR_FORCE": "1"], terminal: false).contains("\u{1B}["))
    }
}

/// `animc test` on the real examples: their test blocks pass, snapshots included
/// (examples/__snapshots__), as CI runs them.
@Suite struct ExampleTestBlockTests {
    @Test func theExamplesTestsPass() throws {
        let console = CapturingConsole()
        let tool = CommandLineTool(fileSystem: LocalFileSystem(), console: console)
        let code = tool.run(["test", Repository.path("examples")])
        #expect(code == 0, "\(console.err)")
        #expect(console.err.contains("6 tests: 6 passed, 0 failed"), "\(console.err)")
    }

    /// Reports for CI carry names they did not choose: a newline in a file's name does
    /// not start a second GitHub workflow command, and U+FFFE does not make the JUnit
    /// XML invalid (issue 50).
    @Test func reportsEscapeWhatTheyQuote() throws {
        let fs = InMemoryFileSystem()
        let failing = Array("""
        composition A { size: 20 x 20 }
        layer box { position: (10, 10), bounds: 10 x 10, opacity: 0.5 }
        test half { at: 0s, box.opacity: 1 }
        """.utf8)
        fs["t/a\n::error file=x::injected.anim"] = failing
        fs["t/b\u{FFFE}.anim"] = failing
        let github = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: github).run(["test", "t", "--format", "github"]) == 1)
        let lines = github.out.split(separator: "\n")
        #expect(lines.count == 2, "\(github.out)")
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=t/") }, "\(github.out)")
        #expect(github.out.contains("%0A%3A%3Aerror file=x%3A%3Ainjected.anim"), "\(github.out)")
        let junit = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: junit).run(["test", "t", "--format", "junit"]) == 1)
        #expect(!junit.out.unicodeScalars.contains { $0.value == 0xFFFE }, "\(junit.out)")
        #expect(junit.out.contains("t/b?.anim"), "\(junit.out)")
    }

    /// A snapshot that no longer matches fails, and leaves the frame drawn and the diff
    /// beside the golden.
    @Test func aChangedFrameFailsItsSnapshot() throws {
        let fs = InMemoryFileSystem()
        fs["t/a.anim"] = Array("""
        composition A { size: 20 x 20, backgroundColor: white }
        layer box { position: (10, 10), bounds: 10 x 10, backgroundColor: red }
        test look { at: 0s, snapshot: true }
        """.utf8)
        let console = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: console).run(["test", "t", "--update"]) == 0)
        #expect(fs["t/__snapshots__/a-look.png"] != nil)
        fs["t/a.anim"] = Array(String(decoding: fs["t/a.anim"] ?? [], as: UTF8.self).replacingOccurrences(of: "red", with: "blue").utf8)
        let again = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: again).run(["test", "t"]) == 1)
        #expect(again.err.contains("100 pixels (25%) differ by more than 2/255"), "\(again.err)")
        #expect(fs["t/__snapshots__/a-look.actual.png"] != nil && fs["t/__snapshots__/a-look.diff.png"] != nil)
    }
}
