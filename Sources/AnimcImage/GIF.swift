/// GIF89a encoding of an animation: one palette chosen for all frames (``Palette``),
/// optional ordered dithering, LZW-compressed frames, looping forever.
public enum GIF {
    public struct Options: Sendable {
        /// Ordered (8 × 8 Bayer) dithering: smooth gradients at the cost of a pattern.
        public var dither = false
        public init(dither: Bool = false) { self.dither = dither }
    }

    /// Encodes `frames` (one size), frame `i` shown for `delays[i]` hundredths of a second.
    /// Pixels with alpha below 128 are transparent (GIF has no partial alpha); with any,
    /// each frame replaces the last whole (disposal "restore to background") so nothing
    /// transparent shows an earlier frame. Without any, each frame after the first is
    /// only the rectangle that changed, drawn over the last (disposal "do not dispose"),
    /// its unchanged pixels written as a transparent index that shows what is there
    /// (issue 51: every frame was whole, 59 KB for the toss where ffmpeg writes 3.5 KB).
    public static func encode(_ frames: [Bitmap], delays: [Int], options: Options = Options()) throws -> [UInt8] {
        guard delays.count == frames.count else { throw ImageError(.misuse, "a GIF needs one delay per frame") }
        var summary = Summary()
        for frame in frames { try summary.add(frame) }
        var writer = try Writer(summary, options: options)
        for (frame, delay) in zip(frames, delays) { try writer.append(frame, delay: delay) }
        return try writer.finish()
    }

    /// What the header needs of every frame (their size, whether any is transparent, the
    /// palette's census), counted as each is drawn, so that a long animation's frames
    /// need not be kept: a first pass adds them here, a second gives them to ``Writer``.
    public struct Summary: Sendable {
        var width = 0, height = 0, frames = 0
        var transparent = false
        var census = Palette.Census()

        public init() {}

        public mutating func add(_ frame: Bitmap) throws {
            if frames == 0 {
                guard frame.width > 0, frame.height > 0 else { throw ImageError(.misuse, "a GIF needs a frame with a size") }
                guard frame.width <= 65535, frame.height <= 65535 else { throw ImageError(.misuse, "a GIF is at most 65,535 pixels a side") }
                (width, height) = (frame.width, frame.height)
            } else if frame.width != width || frame.height != height {
                throw ImageError(.misuse, "the frames of a GIF must have one size")
            }
            let straight = frame.straightened()
            if !transparent { transparent = stride(from: 3, to: straight.pixels.count, by: 4).contains { straight.pixels[$0] < 128 } }
            census.count(straight: straight)
            frames += 1
        }
    }

    /// Writes a GIF a frame at a time, the frames ``Summary`` counted, in the same order.
    public struct Writer {
        private let summary: Summary
        private let options: Options
        private var palette: Palette
        private let transparentIndex: Int
        private let bits: Int
        private var out: [UInt8]
        private var indices: [UInt8]
        /// What the last frame left shown (frames drawn over it), for an opaque GIF.
        private var shown: [UInt8]
        /// The index written for "unchanged" in an opaque GIF's later frames; -1 without one.
        private let unchangedIndex: Int
        private var written = 0

        public init(_ summary: Summary, options: Options = Options()) throws {
            guard summary.frames > 0 else { throw ImageError(.misuse, "a GIF needs a frame with a size") }
            self.summary = summary
            self.options = options
            // One entry is kept for transparency: the frames' own, or, in an opaque GIF of
            // several frames, "unchanged" in the rectangles after the first.
            let spare = summary.transparent || summary.frames > 1
            palette = summary.census.palette(count: spare ? 255 : 256)
            var table = palette.colors
            transparentIndex = summary.transparent ? table.count : -1
            unchangedIndex = !summary.transparent && spare ? table.count : -1
            if spare { table.append((0, 0, 0)) }
            var bits = 1
            while (1 << bits) < table.count { bits += 1 }
            while table.count < (1 << bits) { table.append((0, 0, 0)) }
            self.bits = bits
            out = Array("GIF89a".utf8)
            GIF.appendShort(&out, summary.width)
            GIF.appendShort(&out, summary.height)
            out += [0xF0 | UInt8(bits - 1), 0, 0]
            for c in table { out += [c.0, c.1, c.2] }
            // NETSCAPE2.0: loop forever.
            out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
            indices = [UInt8](repeating: 0, count: summary.width * summary.height)
            shown = []
        }

        private static let bayer: [Int] = [0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26, 12, 44, 4, 36, 14, 46, 6, 38, 60,
                                           28, 52, 20, 62, 30, 54, 22, 3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25, 15,
                                           47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21]

        /// The next frame, shown for `delay` hundredths of a second.
        public mutating func append(_ image: Bitmap, delay: Int) throws {
            guard written < summary.frames, image.width == summary.width, image.height == summary.height else {
                throw ImageError(.misuse, "a GIF's frames must be the ones its summary counted")
            }
            let frame = image.straightened()
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let p = y * frame.width + x, i = p * 4
                    if frame.pixels[i + 3] < 128 {
                        indices[p] = UInt8(transparentIndex)
                        continue
                    }
                    var r = Int(frame.pixels[i]), g = Int(frame.pixels[i + 1]), b = Int(frame.pixels[i + 2])
                    if options.dither && !palette.isExact {
                        // ±16: about the spacing of a 256-colour palette's neighbours.
                        let offset = (Self.bayer[(y & 7) * 8 + (x & 7)] - 32) / 2
                        r = min(255, max(0, r + offset)); g = min(255, max(0, g + offset)); b = min(255, max(0, b + offset))
                    }
                    indices[p] = UInt8(palette.nearest(r, g, b))
                }
            }
            let delay = min(max(delay, 0), 65535)
            let w = frame.width
            // The rectangle to write: the whole frame, or in an opaque GIF after its first
            // frame the box of what changed (one pixel when nothing did), its unchanged
            // pixels "unchanged".
            var box = (x0: 0, y0: 0, x1: w, y1: frame.height)
            let overLast = unchangedIndex >= 0 && !shown.isEmpty
            let transparency = overLast ? unchangedIndex : summary.transparent ? transparentIndex : -1
            if overLast {
                var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
                for y in 0..<frame.height {
                    for x in 0..<w where indices[y * w + x] != shown[y * w + x] {
                        x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                    }
                }
                box = x1 < 0 ? (0, 0, 1, 1) : (x0, y0, x1 + 1, y1 + 1)
            }
            var rectangle = [UInt8]()
            rectangle.reserveCapacity((box.x1 - box.x0) * (box.y1 - box.y0))
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 {
                    let p = y * w + x
                    rectangle.append(overLast && indices[p] == shown[p] ? UInt8(unchangedIndex) : indices[p])
                }
            }
            // Outside the box nothing changed, so what is shown now is this frame's indices.
            if unchangedIndex >= 0 { shown = indices }
            // Disposal 2 (restore to background) for frames with transparent pixels, else
            // 1 (do not dispose); the transparency flag when an index means transparent.
            let disposal: UInt8 = summary.transparent ? 2 : 1
            let flags: UInt8 = disposal << 2 | (transparency >= 0 ? 1 : 0)
            out += [0x21, 0xF9, 0x04, flags, UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(max(transparency, 0)), 0]
            out.append(0x2C)
            GIF.appendShort(&out, box.x0); GIF.appendShort(&out, box.y0)
            GIF.appendShort(&out, box.x1 - box.x0); GIF.appendShort(&out, box.y1 - box.y0)
            out.append(0)
            let minimumCodeSize = max(2, bits)
            out.append(UInt8(minimumCodeSize))
            let data = GIF.lzw(rectangle, minimumCodeSize: minimumCodeSize)
            var k = 0
            while k < data.count {
                let n = min(255, data.count - k)
                out.append(UInt8(n))
                out += data[k..<(k + n)]
                k += n
            }
            out.append(0)
            written += 1
        }

        /// The file, once every frame counted has been appended.
        public func finish() throws -> [UInt8] {
            guard written == summary.frames else { throw ImageError(.misuse, "a GIF's summary counted \(summary.frames) frames; \(written) were written") }
            return out + [0x3B]
        }
    }

    static func appendShort(_ out: inout [UInt8], _ v: Int) {
        out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }

    /// GIF's variable-width LZW: codes grow from `minimumCodeSize + 1` bits to 12, and the
    /// table starts again (a clear code) when it is full.
    static func lzw(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var out: [UInt8] = []
        var buffer = 0, count = 0
        var width = minimumCodeSize + 1
        func emit(_ code: Int) {
            buffer |= code << count
            count += width
            while count >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }
        // Open addressing: key (prefix << 8 | byte) + 1, value the code.
        let size = 1 << 14
        var keys = [Int32](repeating: 0, count: size)
        var values = [Int16](repeating: 0, count: size)
        var next = end + 1
        emit(clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(end)
            if count > 0 { out.append(UInt8(buffer & 0xFF)) }
            return out
        }
        for k in indices.dropFirst() {
            let key = Int32(prefix << 8 | Int(k)) + 1
            var slot = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 18) & (size - 1)
            var found = -1
            while keys[slot] != 0 {
                if keys[slot] == key { found = Int(values[slot]); break }
                slot = (slot + 1) & (size - 1)
            }
            if found >= 0 {
                prefix = found
                continue
            }
            emit(prefix)
            if next < 4096 {
                keys[slot] = key
                values[slot] = Int16(next)
                // The decoder widens codes when its table reaches the next power of two.
                if next == 1 << width, width < 12 { width += 1 }
                next += 1
            } else {
                emit(clear)
                for i in 0..<size { keys[i] = 0 }
                next = end + 1
                width = minimumCodeSize + 1
            }
            prefix = Int(k)
        }
        emit(prefix)
        emit(end)
        if count > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }
}
