import AnimcBase
import AnimcCompiler
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
import AnimcTestSupport
import Testing

/// A picture drawn at a fraction of its size is kept at about that size (issue 51: four
/// 8192² PNGs drawn small held 1.35 GB): how much smaller, and what it looks like then.
@Suite struct ImageDemandTests {
    func demand(_ source: String, scale: Double = 1, at times: [Double] = [0]) throws -> ImageDemand {
        let result = Pipeline.compile(SourceFile(name: "demand.anim", text: source))
        let composition = try #require(result.composition, "\(result.diagnostics)")
        let timeline = Timeline(composition)
        var state = timeline.makeState()
        var demand = ImageDemand()
        for t in times {
            timeline.evaluate(at: t, into: &state)
            demand.note(state, of: timeline, scale: scale)
        }
        return demand
    }

    static let header = "composition C { size: 400 x 400, window: 0s ..< 2s }\n"

    /// A 1000-pixel image in 100 points keeps at least twice the pixels it covers: 200,
    /// so a fifth of its pixels each way; a transform, the render's scale, a gravity that
    /// draws it at its own size, and the largest of several frames all count.
    @Test func anImageKeepsTwiceThePixelsItCovers() throws {
        let plain = try demand(Self.header + "image p { position: (200, 200), bounds: 100 x 100, contents: image(\"x\") }\n")
        #expect(plain.reduction(for: "x", width: 1000, height: 1000) == 5)
        #expect(plain.reduction(for: "x", width: 1000, height: 400) == 2)   // its height is what limits it
        #expect(plain.reduction(for: "x", width: 150, height: 150) == 1)
        #expect(plain.reduction(for: "other", width: 1000, height: 1000) == 1)
        let scaled = try demand(Self.header + "image p { position: (200, 200), bounds: 100 x 100, transform: scale(2), contents: image(\"x\") }\n")
        #expect(scaled.reduction(for: "x", width: 1000, height: 1000) == 2)
        let rendered = try demand(Self.header + "image p { position: (200, 200), bounds: 100 x 100, contents: image(\"x\") }\n", scale: 3)
        #expect(rendered.reduction(for: "x", width: 1000, height: 1000) == 1)
        let natural = try demand(Self.header + "image p { position: (200, 200), bounds: 100 x 100, contentsGravity: center, contents: image(\"x\") }\n")
        #expect(natural.reduction(for: "x", width: 1000, height: 1000) == 1)
        // Aspect fill of a wide image: its height fills 100 points, so 2 × 100 of its 500 rows.
        let fill = try demand(Self.header + "image p { position: (200, 200), bounds: 100 x 100, contentsGravity: resizeAspectFill, contents: image(\"x\") }\n")
        #expect(fill.reduction(for: "x", width: 2000, height: 500) == 2)
        // Growing to four times its size by the end: the largest frame decides.
        let grows = """
            image p {
              position: (200, 200)
              bounds: 100 x 100
              contents: image("x")
              basic transform.scale { from: 1, to: 4, duration: 1s, fillMode: forwards }
            }
            """
        #expect(try demand(Self.header + grows, at: [0]).reduction(for: "x", width: 1000, height: 1000) == 5)
        #expect(try demand(Self.header + grows, at: [0, 0.5, 0.99]).reduction(for: "x", width: 1000, height: 1000) == 1)
    }

    /// Each pixel of a reduced image is the premultiplied mean of the block it stands for,
    /// the last row and column of blocks cut short by the image's edge.
    @Test func aReducedImageIsTheMeanOfEachBlock() throws {
        // 5 × 3, straight alpha: an opaque red column, then transparent pixels whose colour
        // must add nothing, then half-transparent blue.
        var pixels: [UInt8] = []
        for _ in 0..<3 {
            pixels += [255, 0, 0, 255] + [0, 255, 0, 0] + [0, 255, 0, 0] + [0, 0, 255, 128] + [0, 0, 255, 128]
        }
        let image = try #require(Bitmap(width: 5, height: 3, alpha: .straight, pixels: pixels))
        let small = image.reduced(by: 2)
        #expect(small.width == 3 && small.height == 2 && small.alpha == .premultiplied)
        // Block (0, 0): red, transparent; red, transparent → red at half alpha, premultiplied.
        #expect(small[0, 0] == (128, 0, 0, 128))
        // Block (1, 0): transparent, blue/2; twice → (0, 0, 64, 64) premultiplied.
        #expect(small[1, 0] == (0, 0, 64, 64))
        // Block (2, 0): one column (x = 4), two rows of blue/2.
        #expect(small[2, 0] == (0, 0, 128, 128))
        // Block (2, 1): one pixel (4, 2).
        #expect(small[2, 1] == (0, 0, 128, 128))
        #expect(image.reduced(by: 1) == image)
    }

    /// A reduced image draws where the whole one does, at the size in points it had.
    @Test func aReducedImageDrawsWhereTheWholeOneDoes() throws {
        let source = Self.header + "image p { position: (200, 200), bounds: 100 x 100, contentsGravity: center, contents: image(\"x\") }\n"
        let composition = try #require(Pipeline.compile(SourceFile(name: "d.anim", text: source)).composition)
        // 200 × 200 pixels drawn at their own size (200 points) through a factor of 4.
        let whole = Bitmap(width: 200, height: 200, alpha: .straight, pixels: [UInt8](repeating: 255, count: 200 * 200 * 4))!
        var options = RenderOptions()
        options.images = ["x": whole.reduced(by: 4)]
        options.imagePointSizes = ["x": Size(200, 200)]
        let frame = SceneRenderer(timeline: Timeline(composition), options: options).render(at: 0)
        #expect(frame[101, 101].3 == 255 && frame[298, 298].3 == 255)
        #expect(frame[99, 200].3 == 0 && frame[300, 200].3 == 0)
    }
}
