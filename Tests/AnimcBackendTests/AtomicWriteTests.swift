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
}
