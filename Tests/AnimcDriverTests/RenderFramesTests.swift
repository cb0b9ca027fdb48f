import AnimcBase
@testable import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// `render --at A..B/FPS -o DIR/` draws, encodes and writes frames on every core (issue 51:
/// one core, most of it encoding PNG). Each frame must be the file `--at T` writes alone.
@Suite struct RenderFramesTests {
    func run(_ arguments: [String]) -> (code: Int32, err: String) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(arguments)
        return (code, console.err)
    }

    func temporary() throws -> String {
        let dir = NSTemporaryDirectory() + "animc-frames-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(arguments: ["examples/splash.anim", "examples/flip-card.anim", "examples/ripple.anim"])
    func framesWrittenTogetherAreTheFramesWrittenAlone(_ example: String) throws {
        let dir = try temporary()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let all = run(["render", Repository.path(example), "--at", "0..0.5/6", "-o", dir + "/frames/"])
        #expect(all.code == 0, "\(all.err)")
        let stem = String(example.split(separator: "/").last ?? "").replacingOccurrences(of: ".anim", with: "")
        for n in 0..<3 { // the range ends before 0.5 s
            let alone = dir + "/alone-\(n).png"
            #expect(run(["render", Repository.path(example), "--at", String(Double(n) / 6), "-o", alone]).code == 0)
            let together = FileManager.default.contents(atPath: dir + "/frames/\(stem)-000\(n).png")
            #expect(together != nil && together == FileManager.default.contents(atPath: alone), "frame \(n) of \(example)")
        }
    }

    /// A frame that cannot be written stops the render with that frame's error, said once.
    @Test func aFrameThatCannotBeWrittenStopsTheRender() throws {
        let dir = try temporary()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A folder where frame 3 goes: its file cannot be written.
        try FileManager.default.createDirectory(atPath: dir + "/frames/ripple-0003.png", withIntermediateDirectories: true)
        let result = run(["render", Repository.path("examples/ripple.anim"), "--at", "0..1/30", "-o", dir + "/frames/"])
        #expect(result.code != 0)
        #expect(result.err.components(separatedBy: "ripple-0003.png").count == 2, "\(result.err)")
        #expect(!result.err.contains("wrote"), "\(result.err)")
    }

    @Test func threadsAreBoundedByMemory() {
        #expect(RenderCommand.workers(frames: 100, pixels: 375 * 667, cores: 8) == 8)
        #expect(RenderCommand.workers(frames: 3, pixels: 375 * 667, cores: 8) == 3)
        // A 4,096² frame holds about 670 MB a thread: one at a time within the 1 GB budget.
        #expect(RenderCommand.workers(frames: 100, pixels: 4096 * 4096, cores: 8) == 1)
    }
}
