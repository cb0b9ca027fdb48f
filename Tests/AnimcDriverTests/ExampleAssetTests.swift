import AnimcBase
import AnimcDriver
import AnimcImage
import AnimcTestSupport
import Foundation
import Testing

/// The pictures the examples name are in the repository, made by animc from drawings of
/// their own (issue 51: a newcomer's first render of the splash was a white square on
/// blue, and the flip card rendered blank). examples/assets/README.md has the command.
@Suite struct ExampleAssetTests {
    static let drawings = Repository.files(in: "examples/assets/drawings", withExtension: "anim")
        .filter { !$0.hasSuffix("/card.anim") }  // a library of the card faces, not a picture

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(arguments)
        return (code, console.out, console.err)
    }

    /// Each shipped PNG is what its drawing renders today, to 1/255 a channel (a drawing or
    /// renderer change must remake it: `ANIMC_UPDATE_GOLDENS=1` does).
    @Test(arguments: drawings)
    func eachPictureIsWhatItsDrawingRenders(_ drawing: String) throws {
        let name = String(drawing.split(separator: "/").last ?? "").replacingOccurrences(of: ".anim", with: "")
        let dir = try temporaryFolder("animc-assets", [:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = dir + "/" + name + ".png"
        let result = run(["render", Repository.path(drawing), "--at", "0", "-o", made])
        #expect(result.code == 0 && result.err.isEmpty, "\(result.err)")
        let bytes = [UInt8](FileManager.default.contents(atPath: made) ?? Data())
        let shipped = "examples/assets/" + name + ".png"
        if Golden.updating {
            try Data(bytes).write(to: URL(fileURLWithPath: Repository.path(shipped)))
            return
        }
        let now = try PNG.decode(bytes), kept = try PNG.decode(Repository.bytes(shipped))
        #expect(now.width == kept.width && now.height == kept.height, "\(shipped) is \(kept.width)×\(kept.height); the drawing is \(now.width)×\(now.height)")
        guard now.width == kept.width, now.height == kept.height else { return }
        let a = now.straightened().pixels, b = kept.straightened().pixels
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(shipped) differs from \(drawing)'s render by \(worst)/255; remake it (examples/assets/README.md)")
    }

    /// Every image an example names has its file: rendering it warns of none.
    @Test(arguments: Repository.examples)
    func everyExampleFindsItsPictures(_ example: String) throws {
        let dir = try temporaryFolder("animc-assets", [:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = run(["render", Repository.path(example), "--at", "0", "-o", dir + "/frame.png"])
        #expect(result.code == 0, "\(result.err)")
        #expect(!result.err.contains("image"), "\(example): \(result.err)")
    }

    /// A drawing is a picture: one frame, nothing moving, so `--at 0` is all of it.
    @Test(arguments: drawings)
    func drawingsDoNotAnimate(_ drawing: String) {
        let result = run(["eval", Repository.path(drawing), "--at", "0"])
        #expect(result.code == 0 && result.out == "t = 0 s\n", "\(result.out)\(result.err)")
    }
}
