/// PNG decoding and encoding (ISO/IEC 15948).
public enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with PNG's signature.
    public static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.count >= 8 && Array(bytes[0..<8]) == signature }

    /// The image's header fields.
    public struct Header: Sendable, Equatable {
        public var width: Int, height: Int
        public var bitDepth: Int, colorType: Int, interlaced: Bool

        var channels: Int {
            switch colorType {
            case 0, 3: return 1
            case 2: return 3
            case 4: return 2
            default: return 4
            }
        }
        /// Bytes from one pixel to the same component of the next (at least 1), which the
        /// filters use as their left neighbour.
        var filterStride: Int { max(1, channels * bitDepth / 8) }
        func rowBytes(_ width: Int) -> Int { (width * channels * bitDepth + 7) / 8 }
    }

    /// Decodes a PNG into straight-alpha RGBA8. Sixteen-bit samples keep their high byte
    /// (as libpng's `strip_16` and browsers do); low bit depths scale to 0–255;
    /// `tRNS` makes its colour (or palette entries) transparent. Gamma and colour-profile
    /// chunks are read as sRGB, which is what Pillow gives too.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .standard) throws -> Bitmap {
        guard isPNG(bytes) else { throw ImageError(.notThisFormat, "not a PNG file (its signature is missing)") }
        var position = 8
        var header: Header?
        var palette: [UInt8] = []
        var transparency: [UInt8]?
        var data: [UInt8] = []
        var sawIDAT = false, endedIDAT = false
        while true {
            guard position + 12 <= bytes.count else { throw ImageError(.truncated, "the PNG file is truncated (no IEND chunk)") }
            let length = Int(read32(bytes, position))
            guard length <= Int(Int32.max), position + 12 + length <= bytes.count else {
                throw ImageError(.truncated, "a PNG chunk runs past the end of the file")
            }
            let type = Array(bytes[(position + 4)..<(position + 8)])
            let body = (position + 8)..<(position + 8 + length)
            let stored = read32(bytes, position + 8 + length)
            guard CRC32.checksum(bytes[(position + 4)..<(position + 8 + length)]) == stored else {
                throw ImageError(.corrupt, "the PNG chunk '\(chunkName(type))' has a wrong CRC")
            }
            position += 12 + length
            let name = chunkName(type)
            if header == nil, name != "IHDR" { throw ImageError(.corrupt, "the PNG does not begin with IHDR") }
            if sawIDAT, name != "IDAT" { endedIDAT = true }
            switch name {
            case "IHDR":
                guard header == nil, length == 13 else { throw ImageError(.corrupt, "the PNG's IHDR chunk is malformed") }
                header = try readHeader(bytes, body.lowerBound, limits: limits)
            case "PLTE":
                guard length % 3 == 0, length > 0, length <= 768 else { throw ImageError(.corrupt, "the PNG's palette has a wrong length") }
                palette = Array(bytes[body])
            case "tRNS":
                transparency = Array(bytes[body])
            case "IDAT":
                guard header != nil else { throw ImageError(.corrupt, "the PNG has image data before its header") }
                guard !endedIDAT else { throw ImageError(.corrupt, "the PNG's image data is not contiguous") }
                sawIDAT = true
                data.append(contentsOf: bytes[body])
            case "IEND":
                guard let header else { throw ImageError(.corrupt, "the PNG has no IHDR chunk") }
                guard sawIDAT else { throw ImageError(.corrupt, "the PNG has no image data") }
                return try decodeImage(header, data: data, palette: palette, transparency: transparency)
            default:
                // Bit 5 of the first letter: lower case is ancillary, safe to skip.
                guard type[0] & 0x20 != 0 else { throw ImageError(.corrupt, "the PNG has an unknown critical chunk '\(name)'") }
            }
        }
    }

    static func chunkName(_ type: [UInt8]) -> String {
        String(decoding: type.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    @inline(__always)
    static func read32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func readHeader(_ b: [UInt8], _ i: Int, limits: DecodeLimits) throws -> Header {
        let width = Int(read32(b, i)), height = Int(read32(b, i + 4))
        let depth = Int(b[i + 8]), type = Int(b[i + 9])
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageError(.corrupt, "the PNG's size \(width)×\(height) is not a size")
        }
        guard width.multipliedReportingOverflow(by: height).overflow == false, width * height <= limits.maxPixels else {
            throw ImageError(.tooLarge, "the PNG is \(width)×\(height), over the limit of \(limits.maxPixels) pixels")
        }
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowed[type], depths.contains(depth) else {
            throw ImageError(.corrupt, "the PNG's colour type \(type) with bit depth \(depth) is not a PNG format")
        }
        guard b[i + 10] == 0 else { throw ImageError(.corrupt, "the PNG uses an unknown compression method") }
        guard b[i + 11] == 0 else { throw ImageError(.corrupt, "the PNG uses an unknown filter method") }
        guard b[i + 12] <= 1 else { throw ImageError(.corrupt, "the PNG uses an unknown interlace method") }
        return Header(width: width, height: height, bitDepth: depth, colorType: type, interlaced: b[i + 12] == 1)
    }

    /// Adam7's passes: the first column and row, and the steps between them.
    static let passes: [(x: Int, y: Int, dx: Int, dy: Int)] = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                                                               (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    static func decodeImage(_ h: Header, data: [UInt8], palette: [UInt8], transparency: [UInt8]?) throws -> Bitmap {
        if h.colorType == 3, palette.isEmpty { throw ImageError(.corrupt, "the PNG is indexed but has no palette") }
        let images: [(x: Int, y: Int, dx: Int, dy: Int, w: Int, h: Int)] = h.interlaced
            ? passes.map { p in (p.x, p.y, p.dx, p.dy, (h.width - p.x + p.dx - 1) / p.dx, (h.height - p.y + p.dy - 1) / p.dy) }
                .filter { $0.w > 0 && $0.h > 0 }
            : [(0, 0, 1, 1, h.width, h.height)]
        var expected = 0
        for i in images {
            let (size, overflow) = (h.rowBytes(i.w) + 1).multipliedReportingOverflow(by: i.h)
            guard !overflow else { throw ImageError(.tooLarge, "the PNG is too large") }
            expected += size
        }
        let raw = try Inflate.zlib(data, maxOutput: expected)
        guard raw.count == expected else { throw ImageError(.truncated, "the PNG's image data is shorter than its size needs") }
        var out = [UInt8](repeating: 0, count: h.width * h.height * 4)
        let converter = try SampleConverter(h, palette: palette, transparency: transparency)
        var offset = 0
        for pass in images {
            let rowBytes = h.rowBytes(pass.w)
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var row = [UInt8](repeating: 0, count: rowBytes)
            for y in 0..<pass.h {
                let filter = raw[offset]
                for k in 0..<rowBytes { row[k] = raw[offset + 1 + k] }
                offset += 1 + rowBytes
                try unfilter(filter, &row, previous, stride: h.filterStride)
                converter.convert(row, width: pass.w) { x, r, g, b, a in
                    let i = ((pass.y + y * pass.dy) * h.width + pass.x + x * pass.dx) * 4
                    out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a
                }
                swap(&row, &previous)
            }
        }
        return Bitmap(width: h.width, height: h.height, alpha: .straight, pixels: out) ?? Bitmap(width: 0, height: 0)
    }

    static func unfilter(_ filter: UInt8, _ row: inout [UInt8], _ previous: [UInt8], stride: Int) throws {
        let n = row.count
        switch filter {
        case 0: break
        case 1: if n > stride { for i in stride..<n { row[i] = row[i] &+ row[i - stride] } }
        case 2: for i in 0..<n { row[i] = row[i] &+ previous[i] }
        case 3:
            for i in 0..<n {
                let left = i >= stride ? Int(row[i - stride]) : 0
                row[i] = row[i] &+ UInt8((left + Int(previous[i])) / 2)
            }
        case 4:
            for i in 0..<n {
                let a = i >= stride ? Int(row[i - stride]) : 0
                let c = i >= stride ? Int(previous[i - stride]) : 0
                row[i] = row[i] &+ UInt8(paeth(a, Int(previous[i]), c))
            }
        default:
            throw ImageError(.corrupt, "the PNG uses the unknown row filter \(filter)")
        }
    }

    @inline(__always)
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// Turns a row of samples into RGBA8 pixels.
    struct SampleConverter {
        let header: Header
        var palette: [(UInt8, UInt8, UInt8, UInt8)] = []
        /// The transparent colour's samples at full depth (grey, or R, G, B).
        var key: [Int]?

        init(_ h: Header, palette: [UInt8], transparency: [UInt8]?) throws {
            header = h
            if h.colorType == 3 {
                for k in 0..<(palette.count / 3) {
                    let a = transparency.flatMap { k < $0.count ? $0[k] : nil } ?? 255
                    self.palette.append((palette[k * 3], palette[k * 3 + 1], palette[k * 3 + 2], a))
                }
            } else if let t = transparency {
                // tRNS on a type with alpha, or of the wrong length, is ignored (as libpng warns and does).
                if h.colorType == 0, t.count >= 2 { key = [Int(t[0]) << 8 | Int(t[1])] }
                if h.colorType == 2, t.count >= 6 {
                    key = [Int(t[0]) << 8 | Int(t[1]), Int(t[2]) << 8 | Int(t[3]), Int(t[4]) << 8 | Int(t[5])]
                }
            }
        }

        @inline(__always)
        func convert(_ row: [UInt8], width: Int, _ put: (Int, UInt8, UInt8, UInt8, UInt8) -> Void) {
            let depth = header.bitDepth
            @inline(__always) func sample(_ index: Int) -> Int {
                switch depth {
                case 16: return Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
                case 8: return Int(row[index])
                default:
                    let bit = index * depth
                    return Int(row[bit >> 3]) >> (8 - depth - (bit & 7)) & ((1 << depth) - 1)
                }
            }
            @inline(__always) func eight(_ v: Int) -> UInt8 {
                switch depth {
                case 16: return UInt8(v >> 8)
                case 8: return UInt8(v)
                default: return UInt8(v * 255 / ((1 << depth) - 1))
                }
            }
            let c = header.channels
            for x in 0..<width {
                switch header.colorType {
                case 0:
                    let v = sample(x)
                    let g = eight(v)
                    put(x, g, g, g, key.map { $0[0] == v ? 0 : 255 } ?? 255)
                case 2:
                    let r = sample(x * c), g = sample(x * c + 1), b = sample(x * c + 2)
                    let transparent = key.map { $0[0] == r && $0[1] == g && $0[2] == b } ?? false
                    put(x, eight(r), eight(g), eight(b), transparent ? 0 : 255)
                case 3:
                    let i = sample(x)
                    // An index past the palette is black and opaque (libpng's choice).
                    let p = i < palette.count ? palette[i] : (0, 0, 0, 255)
                    put(x, p.0, p.1, p.2, p.3)
                case 4:
                    let g = eight(sample(x * 2))
                    put(x, g, g, g, eight(sample(x * 2 + 1)))
                default:
                    put(x, eight(sample(x * 4)), eight(sample(x * 4 + 1)), eight(sample(x * 4 + 2)), eight(sample(x * 4 + 3)))
                }
            }
        }
    }

    /// Encodes `image` as an 8-bit PNG: RGB when every pixel is opaque, else RGBA
    /// (straight alpha, converted from premultiplied if need be). Each row takes the
    /// filter whose output has the smallest sum of absolute values (libpng's heuristic);
    /// the data is deflated with dynamic Huffman codes.
    ///
    /// An image of at most 256 colours (most frames of flat shapes) is written indexed
    /// instead: a palette (`PLTE`, with `tRNS` for the entries that are not opaque) and
    /// 1, 2, 4 or 8 bits a pixel, unfiltered as the PNG specification advises for
    /// palette images. Every pixel keeps its exact colour.
    public static func encode(_ image: Bitmap, effort: Deflate.Effort = .standard) -> [UInt8] {
        let straight = image.straightened()
        var out = signature
        if let palette = Palette([straight]) {
            writeChunk(&out, "IHDR", palette.header(width: straight.width, height: straight.height))
            palette.writeChunks(&out)
            writeChunk(&out, "IDAT", Deflate.zlib(palette.indexed(straight, x: 0, y: 0, width: straight.width, height: straight.height),
                                                  effort: effort))
            writeChunk(&out, "IEND", [])
            // Up to 16 colours, indices of 4 bits or fewer win on any real frame; past that
            // a smooth ramp (a gradient's 200 greys) can deflate better filtered as true
            // colour, and a tiny image may not pay for its palette: the smaller is kept.
            if palette.colours.count <= 16 && straight.width * straight.height >= 1024 { return out }
            let truecolour = encodeTruecolour(straight, effort: effort)
            return truecolour.count < out.count ? truecolour : out
        }
        return encodeTruecolour(straight, effort: effort)
    }

    private static func encodeTruecolour(_ straight: Bitmap, effort: Deflate.Effort) -> [UInt8] {
        var out = signature
        let opaque = isOpaque(straight)
        writeChunk(&out, "IHDR", header(width: straight.width, height: straight.height, opaque: opaque))
        writeChunk(&out, "IDAT", Deflate.zlib(filtered(straight, x: 0, y: 0, width: straight.width, height: straight.height,
                                                       channels: opaque ? 3 : 4), effort: effort))
        writeChunk(&out, "IEND", [])
        return out
    }

    /// The colours of images that have at most 256 between them, as a PNG palette:
    /// entries that are not opaque first, so `tRNS` lists only those.
    struct Palette {
        let colours: [UInt32]
        let index: [UInt32: UInt8]
        let translucent: Int
        let depth: Int

        init?(_ images: [Bitmap]) {
            var seen: Set<UInt32>? = []
            for image in images { seen = Palette.adding(image, to: seen) }
            guard let seen else { return nil }
            self.init(colours: seen)
        }

        /// `seen` with the colours of `image`, or nil once there are more than 256.
        static func adding(_ image: Bitmap, to seen: Set<UInt32>?) -> Set<UInt32>? {
            guard var seen else { return nil }
            let p = image.pixels
            var i = 0
            while i + 3 < p.count {
                if seen.insert(Palette.key(p, i)).inserted, seen.count > 256 { return nil }
                i += 4
            }
            return seen
        }

        /// The palette of exactly these colours (at most 256).
        init(colours seen: Set<UInt32>) {
            let sorted = seen.sorted { a, b in
                let (ta, tb) = (a & 0xFF != 0xFF, b & 0xFF != 0xFF)
                return ta != tb ? ta : a < b
            }
            colours = sorted
            var index: [UInt32: UInt8] = [:]
            for (k, c) in sorted.enumerated() { index[c] = UInt8(k) }
            self.index = index
            translucent = sorted.filter { $0 & 0xFF != 0xFF }.count
            depth = sorted.count <= 2 ? 1 : sorted.count <= 4 ? 2 : sorted.count <= 16 ? 4 : 8
        }

        /// The pixel at byte `i` as one number, RGBA from the high byte down.
        @inline(__always)
        static func key(_ p: [UInt8], _ i: Int) -> UInt32 {
            UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3])
        }

        func header(width: Int, height: Int) -> [UInt8] { PNG.header(width: width, height: height, depth: depth, colourType: 3) }

        func writeChunks(_ out: inout [UInt8]) {
            writeChunk(&out, "PLTE", colours.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF)] })
            if translucent > 0 { writeChunk(&out, "tRNS", colours.prefix(translucent).map { UInt8($0 & 0xFF) }) }
        }

        /// A rectangle of `image` as unfiltered rows of packed indices (filter byte 0).
        func indexed(_ image: Bitmap, x x0: Int, y y0: Int, width: Int, height: Int) -> [UInt8] {
            let perByte = 8 / depth
            let rowBytes = (width + perByte - 1) / perByte
            var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
            let p = image.pixels
            for y in 0..<height {
                let start = y * (rowBytes + 1) + 1
                let base = ((y0 + y) * image.width + x0) * 4
                for x in 0..<width {
                    let i = base + x * 4
                    let k = index[Palette.key(p, i)] ?? 0
                    let shift = 8 - depth * (x % perByte + 1)
                    raw[start + x / perByte] |= k << shift
                }
            }
            return raw
        }
    }

    /// Frames as an animated PNG (APNG), looping forever, each shown for `delay` seconds
    /// (a fraction with a denominator of at most 65,535). The first frame is the default
    /// image (what a viewer without APNG shows); each later frame stores only the rectangle
    /// that changed, drawn over the previous frame (`APNG_BLEND_OP_SOURCE`), so an
    /// animation whose corner moves costs that corner. All frames must have one size.
    /// Frames with at most 256 colours between them share one palette and are written
    /// indexed, as ``encode(_:effort:)`` writes a still.
    public static func encodeAnimated(_ frames: [Bitmap], delay: (numerator: Int, denominator: Int),
                                      effort: Deflate.Effort = .standard) throws -> [UInt8] {
        var summary = AnimationSummary()
        for frame in frames { try summary.add(frame) }
        var writer = try AnimationWriter(summary, delay: delay, effort: effort)
        for frame in frames { try writer.append(frame) }
        return try writer.finish()
    }

    /// What an animated PNG's header needs of every frame (their size and count, whether
    /// all are opaque, their colours while there are at most 256), counted as each is
    /// drawn: a first pass adds the frames here, a second gives them to
    /// ``AnimationWriter``, and no frame is kept (a long animation's frames took
    /// gigabytes).
    public struct AnimationSummary: Sendable {
        var width = 0, height = 0, frames = 0
        var opaque = true
        /// Every colour met (RGBA, straight), until there are more than 256.
        var colours: Set<UInt32>? = []

        public init() {}

        public mutating func add(_ frame: Bitmap) throws {
            if frames == 0 {
                guard frame.width > 0, frame.height > 0 else { throw ImageError(.misuse, "an animated PNG needs a size") }
                (width, height) = (frame.width, frame.height)
            } else if frame.width != width || frame.height != height {
                throw ImageError(.misuse, "the frames of an animated PNG must have one size")
            }
            let straight = frame.straightened()
            if opaque { opaque = PNG.isOpaque(straight) }
            if colours != nil { colours = Palette.adding(straight, to: colours) }
            frames += 1
        }
    }

    /// Writes an animated PNG a frame at a time, the frames ``AnimationSummary`` counted,
    /// in the same order; it keeps only the previous frame (for the rectangle that changed).
    public struct AnimationWriter {
        private let summary: AnimationSummary
        private let palette: Palette?
        private let channels: Int
        private let effort: Deflate.Effort
        private let delay: (UInt16, UInt16)
        private var out: [UInt8]
        private var previous: Bitmap?
        private var sequence: UInt32 = 0
        private var written = 0

        public init(_ summary: AnimationSummary, delay: (numerator: Int, denominator: Int), effort: Deflate.Effort = .standard) throws {
            guard summary.frames > 0 else { throw ImageError(.misuse, "an animated PNG needs at least one frame") }
            self.summary = summary
            self.effort = effort
            // One palette for every frame when they have at most 256 colours between them.
            palette = summary.colours.map(Palette.init(colours:))
            channels = summary.opaque ? 3 : 4
            self.delay = (UInt16(clamping: delay.numerator), UInt16(clamping: max(delay.denominator, 1)))
            out = PNG.signature
            if let palette {
                PNG.writeChunk(&out, "IHDR", palette.header(width: summary.width, height: summary.height))
            } else {
                PNG.writeChunk(&out, "IHDR", PNG.header(width: summary.width, height: summary.height, opaque: summary.opaque))
            }
            var actl = [UInt8]()
            PNG.append32(&actl, UInt32(summary.frames))
            PNG.append32(&actl, 0)
            PNG.writeChunk(&out, "acTL", actl)
            palette?.writeChunks(&out)
        }

        /// The next frame: whole for the first, else the rectangle that changed since the
        /// one before.
        public mutating func append(_ image: Bitmap) throws {
            guard written < summary.frames, image.width == summary.width, image.height == summary.height else {
                throw ImageError(.misuse, "an animated PNG's frames must be the ones its summary counted")
            }
            let frame = image.straightened()
            var box = (x: 0, y: 0, w: frame.width, h: frame.height)
            if let previous { box = PNG.changedRectangle(previous, frame) }
            var fctl = [UInt8]()
            PNG.append32(&fctl, sequence); sequence += 1
            PNG.append32(&fctl, UInt32(box.w)); PNG.append32(&fctl, UInt32(box.h))
            PNG.append32(&fctl, UInt32(box.x)); PNG.append32(&fctl, UInt32(box.y))
            fctl += [UInt8(delay.0 >> 8), UInt8(delay.0 & 0xFF), UInt8(delay.1 >> 8), UInt8(delay.1 & 0xFF), 0, 0]
            PNG.writeChunk(&out, "fcTL", fctl)
            let rows = palette?.indexed(frame, x: box.x, y: box.y, width: box.w, height: box.h)
                ?? PNG.filtered(frame, x: box.x, y: box.y, width: box.w, height: box.h, channels: channels)
            let data = Deflate.zlib(rows, effort: effort)
            if written == 0 {
                PNG.writeChunk(&out, "IDAT", data)
            } else {
                var fdat = [UInt8]()
                PNG.append32(&fdat, sequence); sequence += 1
                PNG.writeChunk(&out, "fdAT", fdat + data)
            }
            previous = frame
            written += 1
        }

        /// The file, once every frame counted has been appended.
        public func finish() throws -> [UInt8] {
            guard written == summary.frames else {
                throw ImageError(.misuse, "an animated PNG's summary counted \(summary.frames) frames; \(written) were written")
            }
            var file = out
            PNG.writeChunk(&file, "IEND", [])
            return file
        }
    }

    /// The smallest rectangle holding every pixel that differs (at least one pixel).
    static func changedRectangle(_ a: Bitmap, _ b: Bitmap) -> (x: Int, y: Int, w: Int, h: Int) {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<b.height {
            let row = y * b.width * 4
            for x in 0..<b.width {
                let i = row + x * 4
                if a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2]
                    || a.pixels[i + 3] != b.pixels[i + 3] {
                    x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                }
            }
        }
        if x1 < 0 { return (0, 0, 1, 1) }
        return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    static func isOpaque(_ image: Bitmap) -> Bool {
        var i = 3
        while i < image.pixels.count {
            if image.pixels[i] != 255 { return false }
            i += 4
        }
        return true
    }

    static func header(width: Int, height: Int, opaque: Bool) -> [UInt8] {
        header(width: width, height: height, depth: 8, colourType: opaque ? 2 : 6)
    }

    /// IHDR's body: the size, the bit depth and colour type; deflate, filters 0–4, no interlace.
    static func header(width: Int, height: Int, depth: Int, colourType: UInt8) -> [UInt8] {
        var ihdr = [UInt8]()
        append32(&ihdr, UInt32(width))
        append32(&ihdr, UInt32(height))
        return ihdr + [UInt8(depth), colourType, 0, 0, 0]
    }

    /// A rectangle of `image` as filtered scanlines, ready to deflate.
    static func filtered(_ image: Bitmap, x x0: Int, y y0: Int, width: Int, height: Int, channels: Int) -> [UInt8] {
        let rowBytes = width * channels
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var row = [UInt8](repeating: 0, count: rowBytes)
        var candidate = [UInt8](repeating: 0, count: rowBytes)
        var best = [UInt8](repeating: 0, count: rowBytes)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in y0..<(y0 + height) {
                let base = (y * image.width + x0) * 4
                row.withUnsafeMutableBufferPointer { r in
                    if channels == 4 {
                        for i in 0..<rowBytes { r[i] = pixels[base + i] }
                    } else {
                        for x in 0..<width {
                            for k in 0..<channels { r[x * channels + k] = pixels[base + x * 4 + k] }
                        }
                    }
                }
                // Each of the five filters, kept if its sum of absolute differences is the
                // smallest (libpng's heuristic); the first of equals wins.
                var bestFilter: UInt8 = 0
                var bestScore = Int.max
                for filter in UInt8(0)...4 {
                    let score = row.withUnsafeBufferPointer { r in
                        previous.withUnsafeBufferPointer { p in
                            candidate.withUnsafeMutableBufferPointer { c in filterRow(filter, r, p, stride: channels, into: c) }
                        }
                    }
                    if score < bestScore {
                        bestScore = score
                        bestFilter = filter
                        swap(&best, &candidate)
                    }
                }
                let start = (y - y0) * (rowBytes + 1)
                raw[start] = bestFilter
                raw.withUnsafeMutableBufferPointer { out in
                    best.withUnsafeBufferPointer { b in
                        for i in 0..<rowBytes { out[start + 1 + i] = b[i] }
                    }
                }
                swap(&previous, &row)
            }
        }
        return raw
    }

    /// `row` filtered by `filter` against `previous` into `out`; returns the filtered
    /// bytes' sum of absolute values (as signed bytes). One loop per filter, so the choice
    /// is not made per byte (a frame sequence spent a third of its time here).
    static func filterRow(_ filter: UInt8, _ row: UnsafeBufferPointer<UInt8>, _ previous: UnsafeBufferPointer<UInt8>, stride: Int,
                          into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = row.count
        let head = min(stride, n)
        var score = 0
        @inline(__always) func put(_ i: Int, _ v: UInt8) {
            out[i] = v
            score += v < 128 ? Int(v) : 256 - Int(v)
        }
        switch filter {
        case 0:
            for i in 0..<n { put(i, row[i]) }
        case 1:
            for i in 0..<head { put(i, row[i]) }
            for i in head..<max(head, n) { put(i, row[i] &- row[i - stride]) }
        case 2:
            for i in 0..<n { put(i, row[i] &- previous[i]) }
        case 3:
            for i in 0..<head { put(i, row[i] &- previous[i] / 2) }
            for i in head..<max(head, n) { put(i, row[i] &- UInt8(truncatingIfNeeded: (Int(row[i - stride]) + Int(previous[i])) / 2)) }
        default:
            // Paeth with a = c = 0 is b.
            for i in 0..<head { put(i, row[i] &- previous[i]) }
            for i in head..<max(head, n) {
                put(i, row[i] &- UInt8(truncatingIfNeeded: paeth(Int(row[i - stride]), Int(previous[i]), Int(previous[i - stride]))))
            }
        }
        return score
    }

    static func append32(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func writeChunk(_ out: inout [UInt8], _ type: String, _ body: [UInt8]) {
        append32(&out, UInt32(body.count))
        let typeBytes = Array(type.utf8)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(body)
        out += typeBytes
        out += body
        append32(&out, crc.value)
    }
}
