import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

@Suite struct AtomicWriteTests {
    func temporaryDirectory() -> String {
        let dir = NSTemporaryDirectory() + "animc-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aSuccessfulWriteLeavesOnlyTheFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fs = LocalFileSystem()
        try fs.writeFileAtomically(dir + "/out.json", Array("first".utf8))
        try fs.writeFileAtomically(dir + "/out.json", Array("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.json"])
        #expect(try fs.readFile(dir + "/out.json") == Array("second".utf8))
    }

    /// The rename fails (the destination is a directory): the error is reported and the
    /// temporary file is removed.
    @Test func aFailedRenameLeavesNoTemporaryFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/taken", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/taken/inside", withIntermediateDirectories: true)
        #expect(throws: FileSystemError.self) { try LocalFileSystem().writeFileAtomically(dir + "/taken", Array("x".utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["taken"])
    }

    @Test func aMissingDirectoryIsAnError() {
        #expect(throws: FileSystemError.self) {
            try LocalFileSystem().writeFileAtomically("/nonexistent-\(UUID().uuidString)/out.json", [1, 2, 3])
        }
    }

    /// A build whose write fails mid-way keeps the previous good output.
    @Test func aFailedBuildKeepsThePreviousOutput() {
        let fs = InMemoryFileSystem(["a/scrub.anim": Repository.bytes("examples/scrub.anim")])
        let console = CapturingConsole()
        let tool = CommandLineTool(fileSystem: fs, console: console)
        #expect(tool.run(["build", "a/scrub.anim"]) == 0)
        let good = fs["a/scrub.timeline.json"]
        #expect(good != nil)
        fs.failWrites = true
        #expect(tool.run(["build", "a/scrub.anim", "--fps", "30"]) == 2)
        #expect(fs["a/scrub.timeline.json"] == good)
        #expect(console.err.contains("no space left on device"))
    }

    @Test func twoBuildsGiveIdenticalBytes() {
        let fs = InMemoryFileSystem(["s.anim": Repository.bytes("examples/splash.anim")])
        let tool = CommandLineTool(fileSystem: fs, console: CapturingConsole())
        #expect(tool.run(["build", "s.anim", "--target", "baked", "-o", "one.json"]) == 0)
        #expect(tool.run(["build", "s.anim", "--target", "baked", "-o", "two.json"]) == 0)
        #expect(fs["one.json"] != nil && fs["one.json"] == fs["two.json"])
        #expect(tool.run(["build", "s.anim", "-o", "t1.json"]) == 0)
        #expect(tool.run(["build", "s.anim", "-o", "t2.json"]) == 0)
        #expect(fs["t1.json"] == fs["t2.json"])
    }

    /// Writing to a device writes through it: the node stays a device (as root, the
    /// rename used to replace /dev/null with a regular file).
    @Test func aDeviceIsWrittenThroughNotReplaced() throws {
        try LocalFileSystem().writeFileAtomically("/dev/null", Array("discarded".utf8))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/real.json"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: "real.json")
        try LocalFileSystem().writeFileAtomically(dir + "/link.json", Array("new".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.json") == "real.json")
        #expect(try String(contentsOfFile: dir + "/real.json", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.json", "real.json"])
    }

    @Test func theReplacedFilesPermissionsAreKept() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.json"
        try LocalFileSystem().writeFileAtomically(path, Array("first".utf8))
        chmod(path, 0o640)
        try LocalFileSystem().writeFileAtomically(path, Array("second".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }

    /// A FIFO as input is refused at once instead of blocking for a writer.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/pipe.anim", 0o600) == 0)
        let message = withinTime(10) { () -> String in
            do throws(FileSystemError) { _ = try LocalFileSystem().readFile(dir + "/pipe.anim"); return "read" } catch { return error.reason }
        }
        #expect(message == "is not a regular file (a FIFO, device or socket)")
        // A folder walk lists only regular files, so the FIFO is not even tried.
        #expect(try LocalFileSystem().filesRecursively(under: dir).isEmpty)
    }

    /// A link to an ancestor does not make the walk loop or repeat files.
    @Test func aDirectoryWalkVisitsEachDirectoryOnce() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a/b/one.anim"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/b/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/again", withDestinationPath: "b")
        let files = withinTime(10) { try? LocalFileSystem().filesRecursively(under: dir) }
        #expect(files??.count == 1)
    }

    /// Links that lead out of the directory given are not followed: a link to `/` made
    /// `check DIR` walk the whole file system. Links that stay inside are.
    @Test func aDirectoryWalkNeverLeavesTheDirectory() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outside = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/in/one.anim"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: outside + "/two.anim"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/root", withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(atPath: dir + "/away", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: dir + "/file.anim", withDestinationPath: outside + "/two.anim")
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias.anim", withDestinationPath: "in/one.anim")
        let files = withinTime(10) { try? LocalFileSystem().filesRecursively(under: dir) }
        let listed = files ?? nil
        #expect(listed == [dir + "/alias.anim", dir + "/in/one.anim"])
    }

    /// Interrupting builds at random moments, with SIGINT, SIGTERM and SIGKILL, never
    /// leaves a temporary file beside the output, and the output is always whole.
    @Test func interruptedBuildsLeaveNoTemporaryFiles() throws {
        let binary = Repository.path(".build/debug/animc")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("skipped: build animc first (swift build) to test interrupted builds")
            return
        }
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func start() throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["build", Repository.path("examples/splash.anim"), "--target", "baked",
                                 "--window", "0..9", "-o", dir + "/out.json"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        // Time one whole build, then interrupt the others late, when the output is
        // being written, as often as early.
        let clock = ContinuousClock()
        let began = clock.now
        let first = try start()
        first.waitUntilExit()
        let whole = Double((clock.now - began).components.attoseconds) / 1e18 + Double((clock.now - began).components.seconds)
        var rng = SplitMix64(seed: 9)
        for round in 0..<24 {
            let process = try start()
            let fraction = 0.5 + Double(rng.next() % 1000) / 1000 * 0.6
            usleep(UInt32(max(0, whole * fraction) * 1e6))
            kill(process.processIdentifier, [SIGINT, SIGTERM, SIGKILL][round % 3])
            process.waitUntilExit()
            let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            #expect(names.allSatisfy { $0 == "out.json" }, "round \(round): \(names)")
            if names.contains("out.json") {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.json"))
                #expect(bytes.last == 0x0A, "a partial output after round \(round)")
            }
        }
    }
}
