import AnimcBase
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// A fresh temporary folder holding `files` (name → text).
func temporaryFolder(_ prefix: String, _ files: [String: String]) throws -> String {
    let dir = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
    return dir
}

/// `animc ARGUMENTS` on the real file system: the exit code and standard error.
func runOnDisk(_ arguments: [String]) -> (Int32, String) {
    let console = CapturingConsole()
    let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(arguments)
    return (code, console.err)
}

func fileText(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

/// What a command must refuse on a real file system (issue 50), each case a file tree
/// made in a temporary directory: no output onto an input, none through a symbolic link
/// animc did not make, no import path with a NUL or another control character. Each
/// refusal leaves every file as it was.
@Suite struct HostileFileSystemTests {
    static let source = Repository.read("Tests/AnimcDriverTests/Fixtures/hostile/box.anim")

    /// A fresh directory holding `box.anim`.
    func project() throws -> String { try temporaryFolder("animc-hostile", ["box.anim": Self.source]) }
    func run(_ arguments: [String]) -> (Int32, String) { runOnDisk(arguments) }
    func contents(_ path: String) -> String? { fileText(path) }

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

    /// Snapshot files that collide: `a.anim`'s snapshot "b-c" and `a-b.anim`'s test `c`
    /// are both `a-b-c.png`; two tests of one file may name one snapshot. The second is
    /// a failure that writes nothing; the first keeps its golden.
    @Test func snapshotNamesThatCollideAreRefused() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let body = "composition Box { size: 20 x 20 }\nlayer box { position: (10, 10), bounds: 10 x 10, backgroundColor: #ff0000 }\n"
        try (body + "test one { at: 0s, snapshot: \"b-c\" }\n").write(toFile: dir + "/a.anim", atomically: true, encoding: .utf8)
        try (body + "test c { at: 0s, snapshot: true }\n").write(toFile: dir + "/a-b.anim", atomically: true, encoding: .utf8)
        try (body + "test p { at: 0s, snapshot: \"same\" }\ntest q { at: 0s, snapshot: \"same.actual\" }\n")
            .write(toFile: dir + "/twice.anim", atomically: true, encoding: .utf8)
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(["test", dir, "--update"])
        #expect(code == 1)
        let all = console.out + console.err
        #expect(all.contains("a-b-c.png (or its .actual or .diff) is also test"), "\(all)")
        #expect(all.contains("is also test 'p' of \(dir)/twice.anim's"), "\(all)")
        // The first of each pair was recorded and is not overwritten by the second.
        #expect(FileManager.default.fileExists(atPath: dir + "/__snapshots__/a-b-c.png"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/__snapshots__/twice-same.actual.png"))
    }

    /// A source whose name is not UTF-8 was skipped by `check DIR`, which then said "no
    /// problems" about a folder holding an error.
    @Test func aSourceNamedOutsideUTF8IsSaidNotSkipped() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = Array((dir + "/bad").utf8) + [0xFF] + Array(".anim".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let (code, err) = run(["check", dir])
        #expect(code == 2, "\(err)")
        #expect(err.contains("bad\\xFF.anim: the file's name is not UTF-8"), "\(err)")
    }

    /// `test` recorded a clamped 4,096² golden of a frame `render` refuses.
    @Test func aSnapshotOfAFrameTooLargeToDrawIsRefused() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "composition Big { size: 5000 x 10 }\nlayer box { position: (10, 5), bounds: 10 x 10 }\ntest look { at: 0s, snapshot: true }\n"
            .write(toFile: dir + "/big.anim", atomically: true, encoding: .utf8)
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(["test", dir + "/big.anim", "--update"])
        #expect(code == 1)
        #expect((console.out + console.err).contains("at most 4,096 a side"), "\(console.out)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/__snapshots__/big-look.png"))
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

/// `check --fix` and `fmt` rewrite a source in place: never over an edit saved
/// meanwhile, never a read-only file, never splitting hard links, keeping mode and
/// owner (issue 50). Each refusal has its code and leaves the file as it was.
@Suite struct SourceRewriteTests {
    static let fixable = Repository.read("Tests/AnimcDriverTests/Fixtures/hostile/fixable.anim")
    static let unformatted = "composition C {size: 10 x 10}\n"

    func folder() throws -> String { try temporaryFolder("animc-rewrite", ["fix.anim": Self.fixable, "fmt.anim": Self.unformatted]) }
    func run(_ arguments: [String]) -> (Int32, String) { runOnDisk(arguments) }
    func contents(_ path: String) -> String? { fileText(path) }
    func mode(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int }

    @Test func aRewriteKeepsTheModeAndFixes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        chmod(dir + "/fix.anim", 0o640)
        chmod(dir + "/fmt.anim", 0o604)
        #expect(run(["check", "--fix", dir + "/fix.anim"]).0 == 0)
        #expect(contents(dir + "/fix.anim")?.contains("position: (10, 10)") == true)
        #expect(mode(dir + "/fix.anim") == 0o640)
        #expect(run(["fmt", dir + "/fmt.anim"]).0 == 0)
        #expect(contents(dir + "/fmt.anim") != Self.unformatted)
        #expect(mode(dir + "/fmt.anim") == 0o604)
    }

    /// A read-only source was rewritten by root without a word.
    @Test func aReadOnlySourceIsLeftAsItWas() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (command, file, original) in [(["check", "--fix"], "fix.anim", Self.fixable), (["fmt"], "fmt.anim", Self.unformatted)] {
            chmod(dir + "/" + file, 0o444)
            let (code, err) = run(command + [dir + "/" + file])
            #expect(code == 2, "\(err)")
            #expect(err.contains("error[E1003]") && err.contains("read-only"), "\(err)")
            #expect(contents(dir + "/" + file) == original)
        }
    }

    /// A hard-linked source was split: the other name kept the old text.
    @Test func aHardLinkedSourceIsLeftAsItWas() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(link(dir + "/fix.anim", dir + "/other-name.anim") == 0)
        let (code, err) = run(["check", "--fix", dir + "/fix.anim"])
        #expect(code == 2 && err.contains("error[E1004]"), "\(err)")
        #expect(contents(dir + "/fix.anim") == Self.fixable && contents(dir + "/other-name.anim") == Self.fixable)
    }

    /// An edit saved while animc worked was overwritten. The file is compared with what
    /// was read before the new file is made and again just before it takes the name.
    @Test func aSourceChangedSinceItWasReadIsNotOverwritten() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/fix.anim"
        let saved = Self.fixable + "// saved from the editor\n"
        try saved.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: FileSystemError.self) {
            try LocalFileSystem().rewriteSource(path, from: Array(Self.fixable.utf8), to: Array("fixed".utf8))
        }
        do {
            try LocalFileSystem().rewriteSource(path, from: Array(Self.fixable.utf8), to: Array("fixed".utf8))
        } catch {
            #expect(error.code == "E1002")
        }
        #expect(contents(path) == saved)
    }

    /// As root (CI), a rewritten file kept root as its owner instead of the user's.
    @Test func aRewriteKeepsTheOwner() throws {
        guard geteuid() == 0 else { return }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(chown(dir + "/fix.anim", 4321, 4322) == 0)
        chmod(dir + "/fix.anim", 0o4644)
        #expect(run(["check", "--fix", dir + "/fix.anim"]).0 == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/fix.anim")
        #expect(attributes[.ownerAccountID] as? Int == 4321 && attributes[.groupOwnerAccountID] as? Int == 4322)
        #expect(mode(dir + "/fix.anim") == 0o4644)
        #expect(contents(dir + "/fix.anim")?.contains("position: (10, 10)") == true)
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
