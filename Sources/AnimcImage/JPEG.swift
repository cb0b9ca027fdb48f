#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Baseline (and extended sequential, 8-bit, Huffman) JPEG decoding: greyscale or YCbCr
/// (JFIF) with any sampling factors up to 4, interleaved or not, with restart markers.
/// Chroma is upsampled as libjpeg's "fancy" (triangular) upsampling does and colours are
/// converted with libjpeg's fixed-point constants, so the pixels come within a step or
/// two of libjpeg's (what Pillow and browsers use). Progressive, lossless, arithmetic-
/// coded, 12-bit and CMYK files are refused with an error that says so.
public enum JPEG {
    /// Whether `bytes` start with JPEG's start-of-image marker.
    public static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF }

    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .standard) throws -> Bitmap {
        var decoder = Decoder(bytes, limits: limits)
        return try decoder.run()
    }

    /// Zigzag position → natural (row-major) position in an 8 × 8 block.
    static let zigzag: [Int] = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,
                                7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
                                39, 46, 53, 60, 61, 54, 47, 55, 62, 63]

    struct EndOfScan: Error {}

    struct Huffman {
        var maxCode = [Int](repeating: -1, count: 18)
        var valuePointer = [Int](repeating: 0, count: 17)
        var minCode = [Int](repeating: 0, count: 17)
        var values: [UInt8] = []

        init() {}

        init(counts: [Int], values: [UInt8]) throws {
            guard counts.reduce(0, +) == values.count, values.count <= 256 else { throw ImageError(.corrupt, "a JPEG Huffman table is malformed") }
            self.values = values
            var code = 0, k = 0
            for length in 1...16 {
                valuePointer[length] = k
                minCode[length] = code
                code += counts[length - 1]
                k += counts[length - 1]
                maxCode[length] = counts[length - 1] > 0 ? code - 1 : -1
                guard code <= 1 << length else { throw ImageError(.corrupt, "a JPEG Huffman table is over-subscribed") }
                code <<= 1
            }
            maxCode[17] = Int.max
        }
    }

    struct Component {
        var id: Int, h: Int, v: Int, quantTable: Int
        var dcTable = 0, acTable = 0
        var predictor = 0
        /// Blocks per line and per column, padded to whole MCUs.
        var blocksWide = 0, blocksHigh = 0
        /// Samples, `blocksWide * 8` per row.
        var samples: [UInt8] = []
    }

    /// Entropy-coded bits, most significant first, with `FF 00` unstuffed; a marker ends
    /// the data (zeros are read past it, as libjpeg does for a truncated scan).
    struct BitReader {
        let data: [UInt8]
        var position: Int
        var buffer: UInt64 = 0
        var count = 0
        var hitMarker = false
        /// How many of the buffered bits are zeros fed past the end of the data.
        var padding = 0

        /// Whether everything the scan holds has been read: what is left is padding.
        var exhausted: Bool { (hitMarker || position >= data.count) && count <= padding }

        mutating func fill() {
            while count <= 56 {
                var byte: UInt8 = 0
                if hitMarker || position >= data.count { padding += 8 }
                if !hitMarker, position < data.count {
                    byte = data[position]
                    if byte == 0xFF {
                        let next = position + 1 < data.count ? data[position + 1] : 0xD9
                        if next == 0x00 {
                            position += 2
                        } else {
                            hitMarker = true
                            padding += 8
                            byte = 0
                        }
                    } else {
                        position += 1
                    }
                }
                buffer |= UInt64(byte) << UInt64(56 - count)
                count += 8
            }
        }

        @inline(__always)
        mutating func bit() -> Int {
            if count == 0 { fill() }
            let b = Int(buffer >> 63)
            buffer <<= 1
            count -= 1
            padding = min(padding, count)
            return b
        }

        @inline(__always)
        mutating func bits(_ n: Int) -> Int {
            guard n > 0 else { return 0 }
            if count < n { fill() }
            let v = Int(buffer >> UInt64(64 - n))
            buffer <<= UInt64(n)
            count -= n
            padding = min(padding, count)
            return v
        }

        /// Drops the bits left in the current byte and steps over a restart marker.
        mutating func restart() throws {
            buffer = 0
            count = 0
            padding = 0
            hitMarker = false
            // Skip to the marker (fill bytes included).
            while position + 1 < data.count, !(data[position] == 0xFF && data[position + 1] != 0x00 && data[position + 1] != 0xFF) {
                position += 1
            }
            guard position + 1 < data.count, (0xD0...0xD7).contains(data[position + 1]) else {
                throw ImageError(.corrupt, "a JPEG scan is missing a restart marker")
            }
            position += 2
        }

        /// The position of the marker that ends the scan.
        mutating func endOfScan() -> Int {
            var p = position
            while p + 1 < data.count, !(data[p] == 0xFF && data[p + 1] != 0x00 && !(0xD0...0xD7).contains(data[p + 1])) { p += 1 }
            return p
        }
    }

    struct Decoder {
        let bytes: [UInt8]
        let limits: DecodeLimits
        var quant = [[Int]](repeating: [Int](repeating: 1, count: 64), count: 4)
        var dcTables = [Huffman](repeating: Huffman(), count: 4)
        var acTables = [Huffman](repeating: Huffman(), count: 4)
        var components: [Component] = []
        var width = 0, height = 0
        var maxH = 1, maxV = 1
        var mcusWide = 0, mcusHigh = 0
        var restartInterval = 0
        var sawFrame = false, sawScan = false
        var adobeTransform: Int?

        init(_ bytes: [UInt8], limits: DecodeLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        func u16(_ p: Int) -> Int { Int(bytes[p]) << 8 | Int(bytes[p + 1]) }

        /// A scan ran out of data before its last blocks.
        var truncatedScan = false

        mutating func run() throws -> Bitmap {
            guard JPEG.isJPEG(bytes) else { throw ImageError(.notThisFormat, "not a JPEG file (no start-of-image marker)") }
            var p = 2
            while true {
                // Markers may be preceded by fill bytes 0xFF.
                guard p < bytes.count else { break }
                guard bytes[p] == 0xFF else { throw ImageError(.corrupt, "the JPEG has data where a marker belongs (byte \(p))") }
                while p < bytes.count, bytes[p] == 0xFF { p += 1 }
                guard p < bytes.count else { break }
                let marker = bytes[p]
                p += 1
                if marker == 0xD9 { break }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
                guard p + 2 <= bytes.count else { throw ImageError(.truncated, "the JPEG is truncated") }
                let length = u16(p)
                guard length >= 2, p + length <= bytes.count else { throw ImageError(.truncated, "a JPEG segment runs past the end of the file") }
                let body = (p + 2)..<(p + length)
                switch marker {
                case 0xDB: try readQuantization(body)
                case 0xC4: try readHuffman(body)
                case 0xC0, 0xC1: try readFrame(body)
                case 0xC2, 0xC6, 0xCA, 0xCE: throw ImageError(.unsupported, "progressive JPEGs are not decoded yet (baseline only)")
                case 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF: throw ImageError(.unsupported, "lossless, hierarchical and arithmetic-coded JPEGs are not decoded")
                case 0xDD:
                    guard length == 4 else { throw ImageError(.corrupt, "the JPEG's restart interval segment is malformed") }
                    restartInterval = u16(p + 2)
                case 0xEE:
                    // Adobe APP14: its transform flag says whether three components are YCbCr.
                    if length >= 14, Array(bytes[(p + 2)..<(p + 7)]) == Array("Adobe".utf8) { adobeTransform = Int(bytes[p + 13]) }
                case 0xDA:
                    p = try readScan(body)
                    continue
                default:
                    break  // APPn, COM and others carry nothing the pixels need.
                }
                p += length
            }
            guard sawFrame, sawScan else { throw ImageError(.corrupt, "the JPEG has no image data") }
            // As a truncated PNG is: drawn half grey without a word, a cut-off download
            // looked like a design (issue 51). One decision for every command.
            guard !truncatedScan else { throw ImageError(.truncated, "the JPEG is truncated: its data ends before the image does") }
            return output()
        }

        mutating func readQuantization(_ body: Range<Int>) throws {
            var p = body.lowerBound
            while p < body.upperBound {
                let precision = Int(bytes[p] >> 4), id = Int(bytes[p] & 15)
                guard id < 4, precision <= 1, p + 1 + 64 * (precision + 1) <= body.upperBound else {
                    throw ImageError(.corrupt, "a JPEG quantisation table is malformed")
                }
                p += 1
                for k in 0..<64 {
                    quant[id][k] = precision == 0 ? Int(bytes[p]) : u16(p)
                    p += precision + 1
                }
            }
        }

        mutating func readHuffman(_ body: Range<Int>) throws {
            var p = body.lowerBound
            while p < body.upperBound {
                guard p + 17 <= body.upperBound else { throw ImageError(.truncated, "a JPEG Huffman table is truncated") }
                let kind = Int(bytes[p] >> 4), id = Int(bytes[p] & 15)
                guard kind <= 1, id < 4 else { throw ImageError(.corrupt, "a JPEG Huffman table has a wrong class or number") }
                let counts = (0..<16).map { Int(bytes[p + 1 + $0]) }
                let total = counts.reduce(0, +)
                guard p + 17 + total <= body.upperBound else { throw ImageError(.truncated, "a JPEG Huffman table is truncated") }
                let table = try Huffman(counts: counts, values: Array(bytes[(p + 17)..<(p + 17 + total)]))
                if kind == 0 { dcTables[id] = table } else { acTables[id] = table }
                p += 17 + total
            }
        }

        mutating func readFrame(_ body: Range<Int>) throws {
            guard !sawFrame else { throw ImageError(.corrupt, "the JPEG has two frames") }
            let p = body.lowerBound
            guard body.count >= 6 else { throw ImageError(.truncated, "the JPEG's frame header is truncated") }
            guard bytes[p] == 8 else { throw ImageError(.unsupported, "the JPEG has \(bytes[p])-bit samples; only 8-bit JPEGs are decoded") }
            height = u16(p + 1)
            width = u16(p + 3)
            let count = Int(bytes[p + 5])
            guard width > 0, height > 0 else { throw ImageError(.unsupported, "the JPEG's size is zero (a DNL marker is not supported)") }
            guard width * height <= limits.maxPixels else {
                throw ImageError(.tooLarge, "the JPEG is \(width)×\(height), over the limit of \(limits.maxPixels) pixels")
            }
            guard count == 1 || count == 3 else {
                throw ImageError(.unsupported, "the JPEG has \(count) components; greyscale and YCbCr (1 or 3) are decoded")
            }
            guard body.count >= 6 + 3 * count else { throw ImageError(.truncated, "the JPEG's frame header is truncated") }
            for k in 0..<count {
                let q = p + 6 + 3 * k
                let h = Int(bytes[q + 1] >> 4), v = Int(bytes[q + 1] & 15), t = Int(bytes[q + 2])
                guard (1...4).contains(h), (1...4).contains(v), t < 4 else { throw ImageError(.corrupt, "a JPEG component's sampling or table is invalid") }
                components.append(Component(id: Int(bytes[q]), h: h, v: v, quantTable: t))
            }
            maxH = components.map(\.h).max() ?? 1
            maxV = components.map(\.v).max() ?? 1
            mcusWide = (width + 8 * maxH - 1) / (8 * maxH)
            mcusHigh = (height + 8 * maxV - 1) / (8 * maxV)
            for k in components.indices {
                components[k].blocksWide = mcusWide * components[k].h
                components[k].blocksHigh = mcusHigh * components[k].v
                components[k].samples = [UInt8](repeating: 128, count: components[k].blocksWide * components[k].blocksHigh * 64)
            }
            sawFrame = true
        }

        /// Decodes one scan; returns the position of the marker after its data.
        mutating func readScan(_ body: Range<Int>) throws -> Int {
            guard sawFrame else { throw ImageError(.corrupt, "the JPEG has a scan before its frame header") }
            let p = body.lowerBound
            let count = Int(bytes[p])
            guard count >= 1, count <= 4, body.count >= 1 + 2 * count + 3 else { throw ImageError(.corrupt, "a JPEG scan header is malformed") }
            var selected: [Int] = []
            for k in 0..<count {
                let id = Int(bytes[p + 1 + 2 * k]), tables = bytes[p + 2 + 2 * k]
                guard let index = components.firstIndex(where: { $0.id == id }) else { throw ImageError(.corrupt, "a JPEG scan names an unknown component") }
                components[index].dcTable = Int(tables >> 4) & 3
                components[index].acTable = Int(tables & 15) & 3
                components[index].predictor = 0
                selected.append(index)
            }
            for index in selected {
                guard !dcTables[components[index].dcTable].values.isEmpty, !acTables[components[index].acTable].values.isEmpty else {
                    throw ImageError(.corrupt, "a JPEG scan uses a Huffman table that is not defined")
                }
            }
            var reader = BitReader(data: bytes, position: body.upperBound)
            defer { sawScan = true }
            var block = [Int](repeating: 0, count: 64)
            var mcu = 0
            func restartIfDue() throws {
                mcu += 1
                if restartInterval > 0, mcu % restartInterval == 0 {
                    try reader.restart()
                    for index in selected { components[index].predictor = 0 }
                }
            }
            do {
            if selected.count == 1 {
                // Not interleaved: the component's own blocks in raster order, over its
                // own size rather than whole MCUs.
                let index = selected[0]
                // The sampling factors alone: a copy of the component kept alive here would
                // share its samples, and every block stored would copy the whole plane.
                let (ch, cv) = (components[index].h, components[index].v)
                let wide = (((width * ch + maxH - 1) / maxH) + 7) / 8, high = (((height * cv + maxV - 1) / maxV) + 7) / 8
                for by in 0..<high {
                    for bx in 0..<wide {
                        try decodeBlock(index, &reader, &block)
                        store(block, index, bx, by)
                        if by * wide + bx + 1 < wide * high { try restartIfDue() }
                    }
                }
            } else {
                for my in 0..<mcusHigh {
                    for mx in 0..<mcusWide {
                        for index in selected {
                            // Not `let c = components[index]`: that copy shared the samples,
                            // so each block stored copied the plane (a 3000² photo took 86 s).
                            let (ch, cv) = (components[index].h, components[index].v)
                            for v in 0..<cv {
                                for h in 0..<ch {
                                    try decodeBlock(index, &reader, &block)
                                    store(block, index, mx * ch + h, my * cv + v)
                                }
                            }
                        }
                        if my * mcusWide + mx + 1 < mcusWide * mcusHigh { try restartIfDue() }
                    }
                }
            }
            } catch is EndOfScan {
                truncatedScan = true
            }
            return reader.endOfScan()
        }

        @inline(__always)
        func decode(_ table: Huffman, _ reader: inout BitReader) throws -> Int {
            var code = reader.bit()
            var length = 1
            while code > table.maxCode[length] {
                code = code << 1 | reader.bit()
                length += 1
                guard length <= 16 else { throw ImageError(.corrupt, "a JPEG scan has a code its Huffman table lacks") }
            }
            let i = table.valuePointer[length] + code - table.minCode[length]
            guard i >= 0, i < table.values.count else { throw ImageError(.corrupt, "a JPEG scan has a code its Huffman table lacks") }
            return Int(table.values[i])
        }

        @inline(__always)
        static func extend(_ v: Int, _ t: Int) -> Int { v < 1 << (t - 1) ? v - (1 << t) + 1 : v }

        mutating func decodeBlock(_ index: Int, _ reader: inout BitReader, _ block: inout [Int]) throws {
            // A truncated scan ends here: the blocks it lacks stay mid-grey, as libjpeg
            // leaves them, and a file cannot make work beyond what it holds.
            if reader.exhausted { throw EndOfScan() }
            for k in 0..<64 { block[k] = 0 }
            let q = quant[components[index].quantTable]
            let t = try decode(dcTables[components[index].dcTable], &reader)
            guard t <= 11 else { throw ImageError(.corrupt, "a JPEG scan has an invalid DC difference") }
            let diff = t == 0 ? 0 : Decoder.extend(reader.bits(t), t)
            components[index].predictor += diff
            block[0] = components[index].predictor * q[0]
            let ac = acTables[components[index].acTable]
            var k = 1
            while k < 64 {
                let rs = try decode(ac, &reader)
                let r = rs >> 4, s = rs & 15
                if s == 0 {
                    if r == 15 { k += 16; continue }
                    break
                }
                k += r
                guard k < 64 else { throw ImageError(.corrupt, "a JPEG scan runs past the end of a block") }
                block[JPEG.zigzag[k]] = Decoder.extend(reader.bits(s), s) * q[k]
                k += 1
            }
        }

        /// The block's inverse DCT, level-shifted and clamped, into the component's plane.
        /// The integer IDCT libjpeg uses by default (`JDCT_ISLOW`: Loeffler, Ligtenberg and
        /// Moschytz, 13 fractional bits, 2 more kept between the passes), so the samples are
        /// libjpeg's, not merely close to them.
        mutating func store(_ block: [Int], _ index: Int, _ bx: Int, _ by: Int) {
            guard bx < components[index].blocksWide, by < components[index].blocksHigh else { return }
            var ws = [Int](repeating: 0, count: 64)
            let constBits = 13, pass1Bits = 2
            func descale(_ x: Int, _ n: Int) -> Int { (x + (1 << (n - 1))) >> n }
            // One 8-point IDCT over in(0...7), handing out the eight results.
            func idct(_ i: (Int) -> Int, _ put: (Int, Int) -> Void) {
                var z2 = i(2), z3 = i(6)
                var z1 = (z2 + z3) * 4433
                var tmp2 = z1 + z3 * -15137
                var tmp3 = z1 + z2 * 6270
                z2 = i(0); z3 = i(4)
                var tmp0 = (z2 + z3) << constBits
                var tmp1 = (z2 - z3) << constBits
                let tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2
                tmp0 = i(7); tmp1 = i(5); tmp2 = i(3); tmp3 = i(1)
                z1 = tmp0 + tmp3
                z2 = tmp1 + tmp2
                z3 = tmp0 + tmp2
                var z4 = tmp1 + tmp3
                let z5 = (z3 + z4) * 9633
                tmp0 *= 2446; tmp1 *= 16819; tmp2 *= 25172; tmp3 *= 12299
                z1 *= -7373; z2 *= -20995; z3 *= -16069; z4 *= -3196
                z3 += z5; z4 += z5
                tmp0 += z1 + z3; tmp1 += z2 + z4; tmp2 += z2 + z3; tmp3 += z1 + z4
                put(0, tmp10 + tmp3); put(7, tmp10 - tmp3)
                put(1, tmp11 + tmp2); put(6, tmp11 - tmp2)
                put(2, tmp12 + tmp1); put(5, tmp12 - tmp1)
                put(3, tmp13 + tmp0); put(4, tmp13 - tmp0)
            }
            for x in 0..<8 {
                if (1..<8).allSatisfy({ block[$0 * 8 + x] == 0 }) {
                    let dc = block[x] << pass1Bits
                    for y in 0..<8 { ws[y * 8 + x] = dc }
                    continue
                }
                idct({ block[$0 * 8 + x] }) { y, v in ws[y * 8 + x] = descale(v, constBits - pass1Bits) }
            }
            let stride = components[index].blocksWide * 8
            let base = by * 8 * stride + bx * 8
            components[index].samples.withUnsafeMutableBufferPointer { out in
                for y in 0..<8 {
                    idct({ ws[y * 8 + $0] }) { x, v in
                        let value = descale(v, constBits + pass1Bits + 3) + 128
                        out[base + y * stride + x] = UInt8(min(max(value, 0), 255))
                    }
                }
            }
        }

        /// Component `index` at full resolution, row `y`: upsampled as libjpeg does by
        /// default (triangular filters for 2:1, replication otherwise).
        func upsampled(_ index: Int) -> [UInt8] {
            let c = components[index]
            let stride = c.blocksWide * 8
            let fx = maxH / c.h, fy = maxV / c.v
            let srcW = (width * c.h + maxH - 1) / maxH, srcH = (height * c.v + maxV - 1) / maxV
            var out = [UInt8](repeating: 0, count: width * height)
            func at(_ x: Int, _ y: Int) -> Int { Int(c.samples[min(max(y, 0), srcH - 1) * stride + min(max(x, 0), srcW - 1)]) }
            if fx == 1, fy == 1 {
                for y in 0..<height { for x in 0..<width { out[y * width + x] = UInt8(at(x, y)) } }
            } else if fx == 2, fy == 2 || fy == 1 {
                for y in 0..<height {
                    let sy = y / fy
                    // h2v2: each output row mixes its input row (3/4) with the nearer neighbour row (1/4).
                    let ny = fy == 2 ? (y % 2 == 0 ? sy - 1 : sy + 1) : sy
                    for x in 0..<width {
                        let sx = x / 2
                        let nx = x % 2 == 0 ? sx - 1 : sx + 1
                        if fy == 2 {
                            let this = 3 * at(sx, sy) + at(sx, ny), other = 3 * at(nx, sy) + at(nx, ny)
                            // libjpeg's rounding: +8 on even columns, +7 on odd ones.
                            out[y * width + x] = UInt8((this * 3 + other + (x % 2 == 0 ? 8 : 7)) >> 4)
                        } else {
                            out[y * width + x] = UInt8((3 * at(sx, sy) + at(nx, sy) + (x % 2 == 0 ? 1 : 2)) >> 2)
                        }
                    }
                }
            } else if fx == 1, fy == 2 {
                for y in 0..<height {
                    let sy = y / 2, ny = y % 2 == 0 ? sy - 1 : sy + 1
                    for x in 0..<width { out[y * width + x] = UInt8((3 * at(x, sy) + at(x, ny) + (y % 2 == 0 ? 1 : 2)) >> 2) }
                }
            } else {
                for y in 0..<height { for x in 0..<width { out[y * width + x] = UInt8(at(x * c.h / maxH, y * c.v / maxV)) } }
            }
            return out
        }

        func output() -> Bitmap {
            var image = Bitmap(width: width, height: height, alpha: .straight)
            if components.count == 1 {
                let grey = upsampled(0)
                for i in 0..<(width * height) {
                    image.pixels[i * 4] = grey[i]; image.pixels[i * 4 + 1] = grey[i]; image.pixels[i * 4 + 2] = grey[i]
                    image.pixels[i * 4 + 3] = 255
                }
                return image
            }
            let y = upsampled(0), cb = upsampled(1), cr = upsampled(2)
            // An Adobe marker with transform 0 says the three components are RGB.
            let rgb = adobeTransform == 0
            // libjpeg's fixed point (jdcolor.c): 16 fractional bits, rounded.
            func fix(_ x: Double) -> Int { Int((x * 65536).rounded()) }
            let crR = fix(1.40200), cbB = fix(1.77200), crG = fix(0.71414), cbG = fix(0.34414), half = 1 << 15
            for i in 0..<(width * height) {
                let o = i * 4
                if rgb {
                    image.pixels[o] = y[i]; image.pixels[o + 1] = cb[i]; image.pixels[o + 2] = cr[i]
                } else {
                    let l = Int(y[i]), b = Int(cb[i]) - 128, r = Int(cr[i]) - 128
                    image.pixels[o] = UInt8(min(max(l + ((crR * r + half) >> 16), 0), 255))
                    image.pixels[o + 1] = UInt8(min(max(l + ((-cbG * b - crG * r + half) >> 16), 0), 255))
                    image.pixels[o + 2] = UInt8(min(max(l + ((cbB * b + half) >> 16), 0), 255))
                }
                image.pixels[o + 3] = 255
            }
            return image
        }
    }
}
