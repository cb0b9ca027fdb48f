import AnimcImage
import AnimcTestSupport
import Foundation
import Testing

/// The codecs against independent references: Python's zlib and Pillow made the corpus
/// (Tests/render/make_png_corpus.py); round trips check the encoders through the decoders,
/// and the decoders are checked against that corpus, so neither side grades itself.
@Suite struct CodecTests {
    static let corpus = Repository.files(in: "Tests/AnimcRenderTests/Fixtures/png", withExtension: "png")

    @Test func theCorpusCoversPngSuitesGround() {
        let names = Set(Self.corpus.map { ($0 as NSString).lastPathComponent })
        #expect(names.count >= 150)
        for required in ["t0-d01-plain-none.png", "t0-d16-adam7-mixed.png", "t2-d16-plain-paeth.png", "t3-d01-adam7-paeth.png",
                         "t4-d16-plain-average.png", "t6-d08-plain-sub.png", "trns-palette.png", "trns-grey8.png",
                         "trns-rgb8.png", "size-1x1-adam7.png", "idat-split.png", "deflate-stored.png", "pillow-P.png"] {
            #expect(names.contains(required), "\(required) is missing: run Tests/render/make_png_corpus.py")
        }
    }

    @Test(arguments: corpus)
    func decodesToPillowsPixels(_ path: String) throws {
        let image = try PNG.decode(Repository.bytes(path))
        let expected = Repository.bytes(String(path.dropLast(4)) + ".rgba")
        #expect(image.alpha == .straight)
        #expect(image.pixels.count == expected.count)
        let differing = zip(image.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differing == nil, "\(path): first difference at byte \(differing?.offset ?? -1) (pixel \((differing?.offset ?? 0) / 4))")
    }

    @Test func deflateRoundTripsAndCompresses() throws {
        var rng = SplitMix64(seed: 41)
        let text = Array(String(repeating: "animc compiles .anim files; ", count: 2000).utf8)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let runs = [UInt8](repeating: 7, count: 300_000)
        let mixed = (0..<200_000).map { i in UInt8(truncatingIfNeeded: (i / 97) &* 31 ^ (i % 13 == 0 ? Int(rng.next() & 3) : 0)) }
        for (name, data) in [("empty", []), ("one byte", [42]), ("text", text), ("noise", noise), ("runs", runs), ("mixed", mixed)] {
            let z = Deflate.zlib(data)
            #expect(try Inflate.zlib(z, maxOutput: data.count) == data, "\(name)")
            #expect(try Inflate.zlib(Deflate.zlib(data, effort: .fast), maxOutput: data.count) == data, "\(name), fast")
            if name == "text" || name == "runs" { #expect(z.count * 20 < data.count, "\(name): \(z.count) bytes") }
            // Noise is not compressible: stored blocks bound its growth.
            if name == "noise" { #expect(z.count < data.count + data.count / 100 + 64) }
        }
    }

    /// Python's zlib (through the corpus generator) is one reference; the stream written
    /// here must also decode in it, which the CI script checks. In-process, the stream's
    /// blocks must be coded, not stored, wherever coding pays.
    @Test func deflateUsesHuffmanCodedBlocks() {
        let data = Array(String(repeating: "abcabcabd", count: 500).utf8)
        let raw = Deflate.deflate(data)
        // The first block's type, bits 1-2 of the first byte: 1 fixed, 2 dynamic.
        #expect((raw[0] >> 1) & 3 != 0)
    }

    @Test func packageMergeRespectsTheLimitAndIsComplete() {
        // Fibonacci frequencies make the unlimited Huffman code as deep as there are symbols.
        var fib = [1, 1]
        while fib.count < 30 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }
        for limit in [7, 9, 15] {
            let lengths = HuffmanLengths.limited(fib, limit: limit)
            #expect(lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
            let kraft = lengths.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
            #expect(abs(kraft - 1) < 1e-12, "the code must be complete (Kraft sum \(kraft))")
        }
        // Without pressure from the limit it is a Huffman code: 1:1:2:4 gives 3, 3, 2, 1.
        #expect(HuffmanLengths.limited([1, 1, 2, 4], limit: 15) == [3, 3, 2, 1])
    }

    @Test func pngRoundTripsExactly() throws {
        var rng = SplitMix64(seed: 7)
        for (w, h) in [(1, 1), (3, 5), (64, 33), (375, 20)] {
            var image = Bitmap(width: w, height: h, alpha: .straight)
            for i in 0..<image.pixels.count { image.pixels[i] = UInt8(truncatingIfNeeded: rng.next() >> 60 &* 17) }
            let decoded = try PNG.decode(PNG.encode(image))
            #expect(decoded == image)
            // Opaque images of more than 256 colours are written as RGB (fewer: indexed or
            // RGB, whichever is smaller).
            for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = 255 }
            let opaque = PNG.encode(image)
            #expect(w * h > 256 ? opaque[25] == 2 : opaque[25] == 2 || opaque[25] == 3)
            #expect(try PNG.decode(opaque) == image)
        }
    }

    /// At most 256 colours: a palette, the fewest bits a pixel that index it, `tRNS` for
    /// the translucent entries only, every pixel exact; the file is smaller than RGBA.
    @Test func pngsOfFewColoursAreIndexed() throws {
        let colours: [[UInt8]] = [[255, 255, 255, 255], [0, 122, 255, 255], [52, 199, 89, 128], [0, 0, 0, 0], [17, 17, 17, 255]]
        for (count, depth) in [(2, 1), (4, 2), (5, 4)] {
            var image = Bitmap(width: 67, height: 31, alpha: .straight)
            for p in 0..<(67 * 31) {
                let c = colours[(p * 7 + p / 67) % count]
                for k in 0..<4 { image.pixels[p * 4 + k] = c[k] }
            }
            let png = PNG.encode(image)
            #expect(png[24] == UInt8(depth) && png[25] == 3, "\(count) colours: depth \(png[24]), type \(png[25])")
            #expect(try PNG.decode(png) == image)
            let translucent = colours.prefix(count).filter { $0[3] != 255 }.count
            #expect(EncoderGoldenTests().findChunk("tRNS", in: png).map { $0.count } == (translucent > 0 ? translucent : nil))
        }
        // 256 colours scattered at random: indexed at 8 bits. 256 greys as a ramp deflate
        // better filtered as true colour, and are written so. 300 colours: true colour.
        var rng = SplitMix64(seed: 3)
        let table = (0..<256).map { k in [UInt8(k), UInt8(truncatingIfNeeded: rng.next()), UInt8(truncatingIfNeeded: rng.next())] }
        var scattered = Bitmap(width: 256, height: 8, alpha: .straight)
        for p in 0..<2048 {
            let c = table[p < 256 ? p : Int(rng.next() % 256)]
            for k in 0..<3 { scattered.pixels[p * 4 + k] = c[k] }
            scattered.pixels[p * 4 + 3] = 255
        }
        let indexed = PNG.encode(scattered)
        #expect(indexed[24] == 8 && indexed[25] == 3)
        #expect(try PNG.decode(indexed) == scattered)
        var greys = Bitmap(width: 256, height: 8, alpha: .straight)
        for p in 0..<2048 { for k in 0..<3 { greys.pixels[p * 4 + k] = UInt8(p % 256) }; greys.pixels[p * 4 + 3] = 255 }
        let ramp = PNG.encode(greys)
        #expect(ramp[25] == 2 && ramp.count < 1000, "\(ramp.count) bytes, type \(ramp[25])")
        #expect(try PNG.decode(ramp) == greys)
        var wide = Bitmap(width: 300, height: 1, alpha: .straight)
        for p in 0..<300 { wide.pixels[p * 4] = UInt8(p % 256); wide.pixels[p * 4 + 1] = UInt8(p / 256); wide.pixels[p * 4 + 3] = 255 }
        #expect(PNG.encode(wide)[25] == 2)
    }

    @Test func premultipliedImagesAreWrittenStraight() throws {
        guard let image = Bitmap(width: 2, height: 1, alpha: .premultiplied, pixels: [64, 32, 0, 128, 0, 0, 0, 0]) else {
            Issue.record("a 2×1 image")
            return
        }
        let decoded = try PNG.decode(PNG.encode(image))
        #expect(decoded.pixels == [128, 64, 0, 128, 0, 0, 0, 0])
    }

    @Test func malformedFilesAreErrorsNeverTraps() throws {
        let good = PNG.encode(Bitmap(width: 8, height: 8, alpha: .straight))
        // Each failure says which it is (issue 51: typed errors), so callers can tell a
        // file cut short from one that is not a PNG.
        func kind(_ body: () throws -> Bitmap) -> ImageError.Kind? {
            do { _ = try body(); return nil } catch let error as ImageError { return error.kind } catch { return nil }
        }
        #expect(kind { try PNG.decode([]) } == .notThisFormat)
        #expect(kind { try PNG.decode(Array(good.prefix(40))) } == .truncated)
        var badCRC = good
        badCRC[29] ^= 1
        #expect(kind { try PNG.decode(badCRC) } == .corrupt)
        // Every truncation and every single-byte change either decodes or throws.
        for n in 0..<good.count { _ = try? PNG.decode(Array(good.prefix(n))) }
        for i in 0..<good.count {
            var changed = good
            changed[i] ^= 0x5A
            _ = try? PNG.decode(changed)
        }
        // A header declaring more pixels than the limit is refused before any allocation.
        var huge = good
        huge.replaceSubrange(16..<24, with: [0x7F, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF])
        let crc = CRC32.checksum(huge[12..<29])
        huge.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(kind { try PNG.decode(huge) } == .tooLarge)
        // A deflate bomb: 1 MB of zeros where 64 bytes are declared.
        #expect(throws: ImageError.self) { try Inflate.zlib(Deflate.zlib([UInt8](repeating: 0, count: 1 << 20)), maxOutput: 64) }
        do {
            _ = try Inflate.zlib(Deflate.zlib([UInt8](repeating: 0, count: 1 << 20)), maxOutput: 64)
        } catch let error as ImageError {
            #expect(error.kind == .tooLarge)
        }
        // An encoder given a frame it did not count.
        #expect(throws: ImageError.self) { try GIF.encode([good].map { _ in Bitmap(width: 2, height: 2) }, delays: []) }
        do { _ = try GIF.encode([Bitmap(width: 2, height: 2)], delays: []) } catch let error as ImageError { #expect(error.kind == .misuse) }
    }

    @Test func checksumsMatchTheirStandardVectors() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }
}

/// The encoder's output for a few corpus images, kept as goldens so that CI can check them
/// in Pillow and Chromium (Tests/render/check_encoders.py): they must decode to exactly
/// the corpus pixels they were made from. `ANIMC_UPDATE_GOLDENS=1` rewrites them.
@Suite struct EncoderGoldenTests {
    static let sources = ["t6-d08-plain-mixed", "t2-d08-plain-paeth", "t0-d08-plain-sub", "t3-d08-plain-none", "trns-palette",
                          "size-33x17-plain", "size-1x1-plain", "pillow-RGBA"]

    @Test(arguments: sources)
    func encodedFilesAreStable(_ name: String) throws {
        let source = try PNG.decode(Repository.bytes("Tests/AnimcRenderTests/Fixtures/png/\(name).png"))
        let encoded = PNG.encode(source)
        #expect(try PNG.decode(encoded) == source)
        let golden = "Tests/AnimcRenderTests/Fixtures/encoded/\(name).png"
        if Golden.updating {
            try FileManager.default.createDirectory(atPath: Repository.path("Tests/AnimcRenderTests/Fixtures/encoded"),
                                                    withIntermediateDirectories: true)
            try Data(encoded).write(to: URL(fileURLWithPath: Repository.path(golden)))
        } else {
            #expect(Repository.bytes(golden) == encoded, "\(golden) is stale: ANIMC_UPDATE_GOLDENS=1 swift test --filter EncoderGoldenTests")
        }
    }

    @Test func animatedEncodersWriteEveryFrame() throws {
        var frames: [Bitmap] = []
        for n in 0..<5 {
            var image = Bitmap(width: 16, height: 8, alpha: .straight)
            for y in 0..<8 {
                for x in 0..<16 {
                    let i = (y * 16 + x) * 4
                    image.pixels[i] = x == n * 3 ? 255 : 0
                    image.pixels[i + 2] = UInt8(y * 30)
                    image.pixels[i + 3] = x == 15 ? 0 : 255
                }
            }
            frames.append(image)
        }
        let apng = try PNG.encodeAnimated(frames, delay: (1, 30))
        // The default image is the first frame; acTL says five frames, looping forever.
        #expect(try PNG.decode(apng) == frames[0])
        let actl = try #require(findChunk("acTL", in: apng))
        #expect(Array(actl) == [0, 0, 0, 5, 0, 0, 0, 0])
        let gif = try GIF.encode(frames, delays: [3, 3, 4, 3, 3])
        #expect(Array(gif.prefix(6)) == Array("GIF89a".utf8))
        #expect(gif.filter { $0 == 0x2C }.count >= 5)
        #expect(gif.last == 0x3B)
    }

    /// The streaming encoders (issue 51: an animation's frames were all kept, 1.5 GB for
    /// the splash at scale 2): a summary counted frame by frame and a writer given the
    /// same frames one at a time make the bytes the whole-array encoders make, and refuse
    /// a frame the summary did not count or a file short of one.
    @Test func streamingEncodersWriteWhatTheWholeEncodersWrite() throws {
        // Enough colours for the truecolour and median-cut paths, and few for the indexed ones.
        func frames(_ colourful: Bool) -> [Bitmap] {
            (0..<6).map { n in
                var image = Bitmap(width: 40, height: 20, alpha: .straight)
                for p in 0..<800 {
                    let x = p % 40
                    image.pixels[p * 4] = colourful ? UInt8((p * 7 + n * 13) % 256) : (x == n * 5 ? 255 : 0)
                    image.pixels[p * 4 + 1] = colourful ? UInt8((p * 3) % 256) : 40
                    image.pixels[p * 4 + 2] = UInt8(p / 40 * 10)
                    image.pixels[p * 4 + 3] = x == 39 ? 0 : 255
                }
                return image
            }
        }
        for colourful in [false, true] {
            let all = frames(colourful)
            var summary = PNG.AnimationSummary()
            for f in all { try summary.add(f) }
            var writer = try PNG.AnimationWriter(summary, delay: (1, 30))
            for f in all { try writer.append(f) }
            #expect(try writer.finish() == PNG.encodeAnimated(all, delay: (1, 30)))

            var census = GIF.Summary()
            for f in all { try census.add(f) }
            let delays = [3, 3, 4, 3, 3, 4]
            var gif = try GIF.Writer(census, options: GIF.Options(dither: colourful))
            for (f, d) in zip(all, delays) { try gif.append(f, delay: d) }
            #expect(try gif.finish() == GIF.encode(all, delays: delays, options: GIF.Options(dither: colourful)))

            // A file short of a frame, a frame of another size, one frame too many.
            var short = try PNG.AnimationWriter(summary, delay: (1, 30))
            try short.append(all[0])
            #expect(throws: ImageError.self) { try short.finish() }
            #expect(throws: ImageError.self) { try short.append(Bitmap(width: 4, height: 4, alpha: .straight)) }
            var long = try GIF.Writer(census)
            for f in all { try long.append(f, delay: 3) }
            #expect(throws: ImageError.self) { try long.append(all[0], delay: 3) }
        }
    }

    /// Frames of few colours keep them exactly: the palette is their colours (white was
    /// 252 and brand colours 3–4 levels off, the 5-bit bins' centres), dithering or not.
    @Test func aGIFOfFewColoursKeepsThemExactly() throws {
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 255, 255), (0, 122, 255), (52, 199, 89), (17, 17, 17)]
        var image = Bitmap(width: 8, height: 8, alpha: .straight)
        for p in 0..<64 {
            let c = colours[p % colours.count]
            image.pixels[p * 4] = c.0; image.pixels[p * 4 + 1] = c.1; image.pixels[p * 4 + 2] = c.2; image.pixels[p * 4 + 3] = 255
        }
        for dither in [false, true] {
            var options = GIF.Options()
            options.dither = dither
            let gif = try GIF.encode([image], delays: [3], options: options)
            // The global colour table follows the 13-byte header: 2^(n+1) entries.
            let size = 1 << (Int(gif[10] & 7) + 1)
            var table: [[UInt8]] = []
            for k in 0..<size { table.append(Array(gif[(13 + k * 3)..<(16 + k * 3)])) }
            for c in colours { #expect(table.contains([c.0, c.1, c.2]), "\(c) not in the palette (dither: \(dither))") }
        }
        var palette = Palette.medianCut([image], count: 256)
        #expect(palette.isExact)
        for c in colours {
            let i = palette.nearest(Int(c.0), Int(c.1), Int(c.2))
            let got = palette.colors[i]
            #expect([got.0, got.1, got.2] == [c.0, c.1, c.2])
        }
    }

    func findChunk(_ type: String, in png: [UInt8]) -> ArraySlice<UInt8>? {
        var p = 8
        while p + 8 <= png.count {
            let length = Int(png[p]) << 24 | Int(png[p + 1]) << 16 | Int(png[p + 2]) << 8 | Int(png[p + 3])
            if String(decoding: png[(p + 4)..<(p + 8)], as: UTF8.self) == type { return png[(p + 8)..<(p + 8 + length)] }
            p += 12 + length
        }
        return nil
    }
}

/// Baseline JPEGs that libjpeg wrote and decoded (through Pillow; Tests/render/make_jpeg_corpus.py):
/// animc's decoder gives libjpeg's pixels.
@Suite struct JPEGTests {
    static let corpus = Repository.files(in: "Tests/AnimcRenderTests/Fixtures/jpeg", withExtension: "jpg")

    @Test func theCorpusCoversTheBaselineGround() {
        let names = Set(Self.corpus.map { ($0 as NSString).lastPathComponent })
        for required in ["ycc444-q90.jpg", "ycc422-q90.jpg", "ycc420-q90.jpg", "grey-q75.jpg", "ycc420-restart-blocks.jpg",
                         "ycc420-restart-rows.jpg", "ycc420-optimized.jpg", "odd-37x23-420.jpg", "odd-1x1-444.jpg"] {
            #expect(names.contains(required), "\(required) is missing: run Tests/render/make_jpeg_corpus.py")
        }
    }

    @Test(arguments: corpus)
    /// The bar is ±2 per channel; the decoder does libjpeg's arithmetic (its integer IDCT,
    /// fancy upsampling and colour conversion), and matches it exactly on the whole corpus.
    func decodesAsLibjpegDoes(_ path: String) throws {
        let image = try JPEG.decode(Repository.bytes(path))
        let expected = Repository.bytes(String(path.dropLast(4)) + ".rgba")
        #expect(image.pixels.count == expected.count)
        var worst = 0, at = -1
        for (i, (a, b)) in zip(image.pixels, expected).enumerated() where abs(Int(a) - Int(b)) > worst {
            worst = abs(Int(a) - Int(b))
            at = i
        }
        #expect(worst <= 0, "\(path): off by \(worst) at pixel \(at / 4), channel \(at % 4)")
    }

    /// A JPEG cut off part way was drawn half grey without a word, where a truncated
    /// PNG is refused (issue 51): it is refused too, saying so.
    @Test func aTruncatedJPEGIsRefused() throws {
        for name in ["ycc420-q90", "grey-q75", "q100-444"] {
            let good = Repository.bytes("Tests/AnimcRenderTests/Fixtures/jpeg/\(name).jpg")
            #expect(throws: Never.self) { try JPEG.decode(good) }
            let cut = Array(good.prefix(good.count * 2 / 3))
            #expect(throws: ImageError(.truncated, "the JPEG is truncated: its data ends before the image does"), "\(name)") { try JPEG.decode(cut) }
        }
    }

    @Test func malformedFilesAreErrorsNeverTraps() throws {
        let good = Repository.bytes("Tests/AnimcRenderTests/Fixtures/jpeg/ycc420-restart-blocks.jpg")
        #expect(throws: ImageError.self) { try JPEG.decode([]) }
        do { _ = try JPEG.decode([0x89, 0x50]) } catch let error as ImageError { #expect(error.kind == .notThisFormat) }
        #expect(throws: ImageError.self) { try JPEG.decode([0xFF, 0xD8, 0xFF, 0xD9]) }
        for n in stride(from: 0, to: good.count, by: 7) { _ = try? JPEG.decode(Array(good.prefix(n))) }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<300 {
            var changed = good
            changed[Int(rng.next() % UInt64(good.count))] = UInt8(truncatingIfNeeded: rng.next())
            _ = try? JPEG.decode(changed)
        }
        // Past findings of the jpeg fuzz target (Fixtures/jpeg-regressions): a scan cut
        // short in a 20,544 × 48 image once decoded a megapixel of padding.
        for path in Repository.files(in: "Tests/AnimcRenderTests/Fixtures/jpeg-regressions", withExtension: "jpg") {
            let bytes = Repository.bytes(path)
            #expect(finishes(within: 10) { _ = try? JPEG.decode(bytes) }, "\(path) hangs")
        }
        // A progressive file is refused by name, not misread.
        var progressive = good
        if let sof = (0..<(good.count - 1)).first(where: { good[$0] == 0xFF && good[$0 + 1] == 0xC0 }) {
            progressive[sof + 1] = 0xC2
            #expect(throws: ImageError(.unsupported, "progressive JPEGs are not decoded yet (baseline only)")) { try JPEG.decode(progressive) }
        }
    }
}
