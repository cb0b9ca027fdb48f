import AnimcBase
import AnimcCompiler
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
@testable import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// `render --at A..B/FPS -o DIR/` draws, encodes and writes frames on every core (issue 51:
/// one core, most of it encoding PNG). Each frame must be the file `--at T` writes alone.
@Suite struct RenderFramesTests {
    @Test(arguments: ["examples/splash.anim", "examples/flip-card.anim", "examples/ripple.anim"])
    func framesWrittenTogetherAreTheFramesWrittenAlone(_ example: String) throws {
        let dir = try temporaryFolder("animc-frames", [:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let all = runOnDisk(["render", Repository.path(example), "--at", "0..0.5/6", "-o", dir + "/frames/"])
        #expect(all.0 == 0, "\(all.1)")
        let stem = String(example.split(separator: "/").last ?? "").replacingOccurrences(of: ".anim", with: "")
        for n in 0..<3 { // the range ends before 0.5 s
            let alone = dir + "/alone-\(n).png"
            #expect(runOnDisk(["render", Repository.path(example), "--at", String(Double(n) / 6), "-o", alone]).0 == 0)
            let together = FileManager.default.contents(atPath: dir + "/frames/\(stem)-000\(n).png")
            #expect(together != nil && together == FileManager.default.contents(atPath: alone), "frame \(n) of \(example)")
        }
    }

    /// A frame that cannot be written stops the render with that frame's error, said once.
    @Test func aFrameThatCannotBeWrittenStopsTheRender() throws {
        let dir = try temporaryFolder("animc-frames", [:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A folder where frame 3 goes: its file cannot be written.
        try FileManager.default.createDirectory(atPath: dir + "/frames/ripple-0003.png", withIntermediateDirectories: true)
        let (code, err) = runOnDisk(["render", Repository.path("examples/ripple.anim"), "--at", "0..1/30", "-o", dir + "/frames/"])
        #expect(code != 0)
        #expect(err.components(separatedBy: "ripple-0003.png").count == 2, "\(err)")
        #expect(!err.contains("wrote"), "\(err)")
    }

    @Test func threadsAreBoundedByMemory() {
        #expect(RenderCommand.workers(frames: 100, pixels: 375 * 667, cores: 8) == 8)
        #expect(RenderCommand.workers(frames: 3, pixels: 375 * 667, cores: 8) == 3)
        // A 4,096² frame holds about 670 MB a thread: one at a time within the 1 GB budget.
        #expect(RenderCommand.workers(frames: 100, pixels: 4096 * 4096, cores: 8) == 1)
    }
}

/// A picture drawn small is decoded, reduced and kept small, one file at a time (issue 51:
/// four 8192² PNGs drawn in small layers held 1.35 GB).
@Suite struct ImageReductionTests {
    @Test func aLargePictureDrawnSmallIsKeptAtTwiceTheSizeItIsDrawn() throws {
        let source = "composition C { size: 200 x 200 }\nimage p { position: (100, 100), bounds: 100 x 100, contents: image(\"big\") }\n"
        let dir = try temporaryFolder("animc-reduce", ["main.anim": source])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let side = 1600
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = 200; pixels[i + 1] = 40; pixels[i + 3] = 255 }
        let big = try #require(Bitmap(width: side, height: side, alpha: .straight, pixels: pixels))
        FileManager.default.createFile(atPath: dir + "/big.png", contents: Data(PNG.encode(big)))

        let composition = try #require(Pipeline.compile(SourceFile(name: "main.anim", text: source)).composition)
        let timeline = Timeline(composition)
        var state = timeline.makeState()
        timeline.evaluate(at: 0, into: &state)
        var demand = ImageDemand()
        demand.note(state, of: timeline, scale: 1)
        let tool = CommandLineTool(fileSystem: LocalFileSystem(), console: CapturingConsole())
        let (images, points) = tool.decodedImages(composition, besides: dir + "/main.anim", command: "render", demand: demand)
        // 100 points drawn: 200 pixels kept of 1,600, a factor of 8.
        #expect(images["big"]?.width == 200 && images["big"]?.height == 200)
        #expect(points["big"] == Size(1600, 1600))

        let (code, err) = runOnDisk(["render", dir + "/main.anim", "--at", "0", "-o", dir + "/f.png"])
        #expect(code == 0, "\(err)")
        let frame = try PNG.decode([UInt8](FileManager.default.contents(atPath: dir + "/f.png") ?? Data()))
        #expect(frame[100, 100] == (200, 40, 0, 255) && frame[51, 51] == (200, 40, 0, 255) && frame[49, 49].3 == 0)
    }
}
