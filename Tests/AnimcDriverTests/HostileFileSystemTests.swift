import AnimcBase
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// What a command must refuse on a real file system (issue 50), each case a file tree
/// made in a temporary directory: no output onto an input, none through a symbolic link
/// animc did not make, no import path with a NUL or another control character. Each
/// refusal leaves every file as it was.
@Suite struct HostileFileSystemTests {
    static let source = Repository.read("Tests/AnimcDriverTests/Fixtures/hostile/box.anim")

    /// A fresh directory holding `box.anim`.
    func project() throws -> String {
        let dir = NSTemporaryDirectory() + "animc-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Self.source.write(toFile: dir + "/box.anim", atomically: true, encoding: .utf8)
        return dir
    }

    func run(_ arguments: [String]) -> (Int32, String) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(arguments)
        return (code, console.err)
    }

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// `render F -o F` (and `--gif F`, `--apng F`) replaced the source with an image.
    @Test(arguments: [["--at", "0", "-o"], ["--gif"], ["--apng"], ["--filmstrip", "2", "-o"]])
    func renderRefusesToWriteOntoItsInput(_ flags: [String]) throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/box.anim"
        let (code, err) = run(["render", input] + flags + [input])
        #expect(code == 2, "\(err)")
        #expect(err.contains("it is an input of this render"), "\(err)")
        #expect(contents(input) == Self.source)
    }

    /// An output animc makes is never written through a link planted where it goes: the
    /// link's target, outside the project, keeps its contents.
    @Test func outputsAreNotWrittenThroughAPlantedLink() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/outside.txt"
        try "not a picture".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/frame.png", withDestinationPath: victim)
        let (renderCode, renderErr) = run(["render", dir + "/box.anim", "--at", "0", "-o", dir + "/frame.png"])
        #expect(renderCode == 2 && renderErr.contains("symbolic link"), "\(renderErr)")
        try FileManager.default.createSymbolicLink(atPath: dir + "/box.timeline.json", withDestinationPath: victim)
        let (buildCode, buildErr) = run(["build", dir + "/box.anim"])
        #expect(buildCode != 0 && buildErr.contains("symbolic link"), "\(buildErr)")
        // A failing snapshot's .actual.png, with the golden recorded first.
        #expect(run(["test", dir, "--update"]).0 == 0)
        try (Self.source.replacingOccurrences(of: "#ff0000", with: "#0000ff")).write(toFile: dir + "/box.anim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/__snapshots__/box-look.actual.png", withDestinationPath: victim)
        let (testCode, testErr) = run(["test", dir])
        #expect(testCode == 1, "\(testErr)")
        #expect(testErr.contains("symbolic link"), "\(testErr)")
        #expect(contents(victim) == "not a picture")
    }

    /// `import "/etc/passwd\u{0}.anim"` passed the .anim check and then read /etc/passwd.
    @Test func anImportPathWithAControlCharacterIsRefused() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for path in ["/etc/passwd\\u{0}.anim", "lib\\u{1b}[31m.anim", "a\\nb.anim"] {
            try "import \"\(path)\" as pw\ncomposition C { size: 10 x 10 }\n".write(toFile: dir + "/nul.anim", atomically: true, encoding: .utf8)
            let (code, err) = run(["check", dir + "/nul.anim"])
            #expect(code == 1, "\(path): \(err)")
            #expect(err.contains("E0324") && err.contains("control character"), "\(path): \(err)")
            #expect(!err.contains("root:"), "\(path): the file was read")
        }
    }
}

/// Imports are keyed by the file they name, not by their spelling.
@Suite struct ImportIdentityTests {
    /// A file importing itself through two links to its own folder (`d -> .`, `e -> .`)
    /// made a tree that doubled at every level (killed at 30 s, 2.2 GB): now the cycle
    /// and the second spelling of the same file are reported at once.
    @Test func aSelfImportThroughLinksIsOneFile() throws {
        let dir = NSTemporaryDirectory() + "animc-self-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/d", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: dir + "/e", withDestinationPath: ".")
        try "import \"d/self.anim\" as a\nimport \"e/self.anim\" as b\ncomposition C { size: 10 x 10 }\n"
            .write(toFile: dir + "/self.anim", atomically: true, encoding: .utf8)
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(["check", dir + "/self.anim"])
        #expect(code == 1)
        #expect(console.err.contains("E0325"), "\(console.err)")
        #expect(console.err.contains("imported twice"), "\(console.err)")
    }
}
