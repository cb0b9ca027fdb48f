import AnimcImage
import Testing

/// An opaque GIF's frames after the first are only what changed (issue 51: every frame
/// was whole, 59 KB for the toss where ffmpeg writes 3.5 KB). Read back by a decoder
/// written here from the GIF89a specification (LZW, the graphic control extension's
/// transparency and disposal, frames drawn over the canvas), every frame shown must be
/// the frame given, mapped to the file's colours.
@Suite struct GIFFrameTests {
    /// The frames a viewer shows, RGBA, and each frame's rectangle.
    static func decode(_ b: [UInt8]) throws -> (frames: [[UInt8]], rectangles: [(Int, Int, Int, Int)], table: [[UInt8]]) {
        func short(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        let width = short(6), height = short(8)
        var p = 13
        var table: [[UInt8]] = []
        if b[10] & 0x80 != 0 {
            let n = 1 << (Int(b[10] & 7) + 1)
            for k in 0..<n { table.append(Array(b[(p + 3 * k)..<(p + 3 * k + 3)])) }
            p += 3 * n
        }
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [[UInt8]] = [], rectangles: [(Int, Int, Int, Int)] = []
        var transparent = -1, disposal = 0
        while p < b.count {
            switch b[p] {
            case 0x21:
                if b[p + 1] == 0xF9 {
                    disposal = Int(b[p + 3] >> 2 & 7)
                    transparent = b[p + 3] & 1 != 0 ? Int(b[p + 6]) : -1
                }
                p += 2
                while b[p] != 0 { p += Int(b[p]) + 1 }
                p += 1
            case 0x2C:
                let x0 = short(p + 1), y0 = short(p + 3), w = short(p + 5), h = short(p + 7)
                #expect(b[p + 9] & 0xC0 == 0, "no local table, not interlaced")
                let minimum = Int(b[p + 10])
                p += 11
                var data: [UInt8] = []
                while b[p] != 0 { data += b[(p + 1)...(p + Int(b[p]))]; p += Int(b[p]) + 1 }
                p += 1
                let indices = lzwDecode(data, minimumCodeSize: minimum, count: w * h)
                #expect(indices.count == w * h)
                for (k, index) in indices.enumerated() where Int(index) != transparent {
                    let i = ((y0 + k / w) * width + x0 + k % w) * 4
                    canvas[i] = table[Int(index)][0]; canvas[i + 1] = table[Int(index)][1]
                    canvas[i + 2] = table[Int(index)][2]; canvas[i + 3] = 255
                }
                frames.append(canvas)
                rectangles.append((x0, y0, w, h))
                if disposal == 2 {
                    for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { for c in 0..<4 { canvas[(y * width + x) * 4 + c] = 0 } } }
                }
            case 0x3B:
                return (frames, rectangles, table)
            default:
                throw ImageError(.corrupt, "unexpected block \(b[p])")
            }
        }
        return (frames, rectangles, table)
    }

    /// Variable-width LZW codes, least significant bit first, with clear and end codes.
    static func lzwDecode(_ data: [UInt8], minimumCodeSize: Int, count: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var dictionary: [[UInt8]] = []
        func reset() { dictionary = (0..<clear).map { [UInt8($0)] } + [[], []] }
        reset()
        var size = minimumCodeSize + 1
        var bitPosition = 0
        var out: [UInt8] = []
        var previous: [UInt8]?
        while bitPosition + size <= data.count * 8, out.count < count {
            var code = 0
            for k in 0..<size where data[(bitPosition + k) / 8] >> ((bitPosition + k) % 8) & 1 != 0 { code |= 1 << k }
            bitPosition += size
            if code == clear { reset(); size = minimumCodeSize + 1; previous = nil; continue }
            if code == end { break }
            let entry: [UInt8]
            if code < dictionary.count { entry = dictionary[code] } else if let previous { entry = previous + [previous[0]] } else { break }
            out += entry
            if let previous, dictionary.count < 4096 { dictionary.append(previous + [entry[0]]) }
            previous = entry
            if dictionary.count == 1 << size, size < 12 { size += 1 }
        }
        return out
    }

    /// A square moving over a background, a second square blinking: few colours.
    static func frames(colourful: Bool) -> [Bitmap] {
        (0..<8).map { n in
            var image = Bitmap(width: 48, height: 32, alpha: .straight)
            for y in 0..<32 {
                for x in 0..<48 {
                    let i = (y * 48 + x) * 4
                    let inSquare = x >= 4 + n * 3 && x < 12 + n * 3 && y >= 10 && y < 18
                    let blink = n % 3 == 0 && x >= 40 && y < 6
                    var c: (UInt8, UInt8, UInt8) = inSquare ? (0, 122, 255) : blink ? (255, 59, 48) : (250, 250, 250)
                    // Many colours: a ramp under everything, the same every frame.
                    if colourful && !inSquare && !blink { c = (UInt8(x * 5), UInt8(y * 7), 128) }
                    image.pixels[i] = c.0; image.pixels[i + 1] = c.1; image.pixels[i + 2] = c.2; image.pixels[i + 3] = 255
                }
            }
            return image
        }
    }

    @Test func anOpaqueGIFsLaterFramesAreWhatChangedAndShowTheFramesExactly() throws {
        let given = Self.frames(colourful: false)
        let gif = try GIF.encode(given, delays: [Int](repeating: 4, count: given.count))
        let (shown, rectangles, _) = try Self.decode(gif)
        #expect(shown.count == given.count)
        for (k, frame) in given.enumerated() where k < shown.count {
            #expect(shown[k] == frame.pixels, "frame \(k) shows other pixels")
        }
        // The first frame whole; the second only where the square moved and the blink went
        // (x 4..<15 and 40..<48, so 4..<48; y 0..<18).
        #expect(rectangles[0] == (0, 0, 48, 32))
        #expect(rectangles[1] == (4, 0, 44, 18))
        // Frame 2: the square moved 7..<15 → 10..<18, nothing else: 7..<18 by 10..<18.
        #expect(rectangles[2] == (7, 10, 11, 8))
    }

    @Test func aQuantisedGIFShowsEachFrameInTheFilesColours() throws {
        let given = Self.frames(colourful: true)
        let gif = try GIF.encode(given, delays: [Int](repeating: 4, count: given.count))
        let (shown, rectangles, table) = try Self.decode(gif)
        #expect(shown.count == given.count)
        // Without dithering each pixel is one of the file's colours near its own, and a
        // pixel that did not change from the last frame shows what that frame showed.
        for k in 1..<min(shown.count, given.count) {
            for p in 0..<(48 * 32) {
                let same = given[k].pixels[(p * 4)..<(p * 4 + 3)] == given[k - 1].pixels[(p * 4)..<(p * 4 + 3)]
                if same { #expect(shown[k][(p * 4)..<(p * 4 + 4)] == shown[k - 1][(p * 4)..<(p * 4 + 4)], "frame \(k) pixel \(p)") }
                let colour = Array(shown[k][(p * 4)..<(p * 4 + 3)])
                #expect(table.contains(colour))
                let error = zip(colour, given[k].pixels[(p * 4)..<(p * 4 + 3)]).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(error <= 24, "frame \(k) pixel \(p) is \(error) off")
            }
        }
        #expect(rectangles.dropFirst().allSatisfy { $0.2 < 48 || $0.3 < 32 }, "\(rectangles)")
    }

    /// Frames with transparent pixels are still whole, each cleared before the next.
    @Test func aGIFWithTransparencyWritesWholeFrames() throws {
        var given = Self.frames(colourful: false)
        for k in given.indices { given[k].pixels[3] = 0 }
        let gif = try GIF.encode(given, delays: [Int](repeating: 4, count: given.count))
        let (shown, rectangles, _) = try Self.decode(gif)
        #expect(rectangles.allSatisfy { $0 == (0, 0, 48, 32) })
        for (k, frame) in given.enumerated() where k < shown.count {
            var want = frame.pixels
            want[0] = 0; want[1] = 0; want[2] = 0
            #expect(shown[k] == want, "frame \(k)")
        }
    }
}
