/// Decompression of DEFLATE (RFC 1951) and zlib (RFC 1950) streams.
public enum Inflate {
    /// Decodes a zlib stream, checking its header and Adler-32.
    /// - Parameter maxOutput: more output than this is an error (a PNG knows its size,
    ///   so a stream that would expand past it is refused before it is held).
    public static func zlib(_ data: [UInt8], maxOutput: Int) throws -> [UInt8] {
        guard data.count >= 6 else { throw ImageError(.truncated, "the zlib stream is truncated") }
        let cmf = data[0], flg = data[1]
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else { throw ImageError(.corrupt, "the zlib stream does not use deflate") }
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else { throw ImageError(.corrupt, "the zlib header's check bits are wrong") }
        guard flg & 0x20 == 0 else { throw ImageError(.unsupported, "the zlib stream needs a preset dictionary") }
        var reader = BitReader(data, start: 2)
        let out = try raw(&reader, maxOutput: maxOutput)
        let end = reader.alignedBytePosition
        guard end + 4 <= data.count else { throw ImageError(.truncated, "the zlib stream ends before its checksum") }
        let stored = UInt32(data[end]) << 24 | UInt32(data[end + 1]) << 16 | UInt32(data[end + 2]) << 8 | UInt32(data[end + 3])
        guard stored == Adler32.checksum(out) else { throw ImageError(.corrupt, "the zlib stream's Adler-32 checksum is wrong") }
        return out
    }

    /// Decodes a raw DEFLATE stream.
    public static func deflate(_ data: [UInt8], maxOutput: Int) throws -> [UInt8] {
        var reader = BitReader(data, start: 0)
        return try raw(&reader, maxOutput: maxOutput)
    }

    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
                                    195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                      2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order code-length code lengths are sent in.
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let fixedLiterals: HuffmanDecoder = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        // The fixed codes are complete by construction.
        return (try? HuffmanDecoder(lengths)) ?? HuffmanDecoder.empty
    }()
    /// 32 codes of 5 bits; 30 and 31 are never valid (checked when decoding).
    static let fixedDistances: HuffmanDecoder = (try? HuffmanDecoder([UInt8](repeating: 5, count: 32))) ?? HuffmanDecoder.empty

    static func raw(_ reader: inout BitReader, maxOutput: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(maxOutput, 1 << 24))
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let len = try reader.bits(16), nlen = try reader.bits(16)
                guard len == ~nlen & 0xFFFF else { throw ImageError(.corrupt, "a stored deflate block's length check is wrong") }
                guard out.count + len <= maxOutput else { throw ImageError(.tooLarge, "the deflate stream holds more than expected") }
                try reader.copyBytes(len, into: &out)
            case 1:
                try codes(&reader, Inflate.fixedLiterals, Inflate.fixedDistances, &out, maxOutput)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try codes(&reader, literals, distances, &out, maxOutput)
            default:
                throw ImageError(.corrupt, "a deflate block has the reserved type 3")
            }
        }
        return out
    }

    static func dynamicTables(_ reader: inout BitReader) throws -> (HuffmanDecoder, HuffmanDecoder) {
        let hlit = try reader.bits(5) + 257, hdist = try reader.bits(5) + 1, hclen = try reader.bits(4) + 4
        guard hlit <= 286, hdist <= 30 else { throw ImageError(.corrupt, "a deflate block declares too many codes") }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<hclen { codeLengthLengths[codeLengthOrder[i]] = UInt8(try reader.bits(3)) }
        let codeLengths = try HuffmanDecoder(codeLengthLengths)
        var lengths = [UInt8]()
        lengths.reserveCapacity(hlit + hdist)
        while lengths.count < hlit + hdist {
            let symbol = try codeLengths.decode(&reader)
            switch symbol {
            case 0..<16:
                lengths.append(UInt8(symbol))
            case 16:
                guard let previous = lengths.last else { throw ImageError(.corrupt, "a deflate block repeats a code length before the first") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + (try reader.bits(2))))
            case 17:
                lengths.append(contentsOf: repeatElement(0, count: 3 + (try reader.bits(3))))
            default:
                lengths.append(contentsOf: repeatElement(0, count: 11 + (try reader.bits(7))))
            }
        }
        guard lengths.count == hlit + hdist else { throw ImageError(.corrupt, "a deflate block's code lengths overrun") }
        guard lengths[256] != 0 else { throw ImageError(.corrupt, "a deflate block has no end-of-block code") }
        return (try HuffmanDecoder(Array(lengths[0..<hlit])), try HuffmanDecoder(Array(lengths[hlit...]), allowsIncomplete: true))
    }

    static func codes(_ reader: inout BitReader, _ literals: HuffmanDecoder, _ distances: HuffmanDecoder,
                      _ out: inout [UInt8], _ maxOutput: Int) throws {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard out.count < maxOutput else { throw ImageError(.tooLarge, "the deflate stream holds more than expected") }
                out.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let l = symbol - 257
                guard l < 29 else { throw ImageError(.corrupt, "a deflate block uses an invalid length code") }
                let length = lengthBase[l] + (try reader.bits(lengthExtra[l]))
                let d = try distances.decode(&reader)
                guard d < 30 else { throw ImageError(.corrupt, "a deflate block uses an invalid distance code") }
                let distance = distanceBase[d] + (try reader.bits(distanceExtra[d]))
                guard distance <= out.count else { throw ImageError(.corrupt, "a deflate block refers before the start of the data") }
                guard out.count + length <= maxOutput else { throw ImageError(.tooLarge, "the deflate stream holds more than expected") }
                let start = out.count - distance
                // Byte by byte: a copy may overlap what it writes (distance < length).
                for k in 0..<length { out.append(out[start + k]) }
            }
        }
    }
}

/// Reads a DEFLATE stream's bits, least significant first.
struct BitReader {
    let data: [UInt8]
    var position: Int
    var buffer: UInt64 = 0
    var count = 0

    init(_ data: [UInt8], start: Int) {
        self.data = data
        position = start
    }

    @inline(__always)
    mutating func refill() {
        while count <= 56, position < data.count {
            buffer |= UInt64(data[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// The next `n` (≤ 16) bits, without consuming them; missing bits past the end read as 0.
    @inline(__always)
    mutating func peek(_ n: Int) -> Int {
        if count < n { refill() }
        return Int(buffer & ((1 << UInt64(n)) - 1))
    }

    @inline(__always)
    mutating func consume(_ n: Int) throws {
        guard n <= count else { throw ImageError(.truncated, "the deflate stream is truncated") }
        buffer >>= UInt64(n)
        count -= n
    }

    @inline(__always)
    mutating func bits(_ n: Int) throws -> Int {
        if n == 0 { return 0 }
        let v = peek(n)
        try consume(n)
        return v
    }

    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// The index of the first byte not yet consumed, once aligned.
    var alignedBytePosition: Int { position - count / 8 }

    mutating func copyBytes(_ n: Int, into out: inout [UInt8]) throws {
        var left = n
        while left > 0, count >= 8 {
            out.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
            left -= 1
        }
        guard position + left <= data.count else { throw ImageError(.truncated, "a stored deflate block is truncated") }
        out.append(contentsOf: data[position..<(position + left)])
        position += left
    }
}

/// A canonical Huffman code as a lookup table: the next `maxLength` bits (reversed, as
/// DEFLATE sends codes) index the symbol and its length directly.
struct HuffmanDecoder: Sendable {
    /// Per index: `symbol << 4 | length`, or 0 where no code starts.
    let table: [UInt32]
    let maxLength: Int

    static let empty = HuffmanDecoder(table: [0, 0], maxLength: 1)

    private init(table: [UInt32], maxLength: Int) {
        self.table = table
        self.maxLength = maxLength
    }

    /// - Parameter allowsIncomplete: zlib accepts a distance code that does not fill
    ///   the code space (one distance code, or none, is common); nothing else may.
    init(_ lengths: [UInt8], allowsIncomplete: Bool = false) throws {
        var counts = [Int](repeating: 0, count: 16)
        for l in lengths { counts[Int(l)] += 1 }
        counts[0] = 0
        var left = 1
        for len in 1...15 {
            left = left * 2 - counts[len]
            guard left >= 0 else { throw ImageError(.corrupt, "a deflate Huffman code is over-subscribed") }
        }
        let maxLength = max(1, (1...15).last { counts[$0] > 0 } ?? 1)
        let used = counts.reduce(0, +)
        guard left == 0 || allowsIncomplete || used == 1 else { throw ImageError(.corrupt, "a deflate Huffman code is incomplete") }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for len in 1...15 {
            code = (code + counts[len - 1]) << 1
            next[len] = code
        }
        var table = [UInt32](repeating: 0, count: 1 << maxLength)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let len = Int(l)
            let c = next[len]
            next[len] += 1
            var reversed = 0
            for b in 0..<len where c & (1 << b) != 0 { reversed |= 1 << (len - 1 - b) }
            var i = reversed
            while i < table.count {
                table[i] = UInt32(symbol) << 4 | UInt32(len)
                i += 1 << len
            }
        }
        self.table = table
        self.maxLength = maxLength
    }

    @inline(__always)
    func decode(_ reader: inout BitReader) throws -> Int {
        let entry = table[reader.peek(maxLength)]
        guard entry != 0 else { throw ImageError(.corrupt, "a deflate stream uses a code its table lacks") }
        try reader.consume(Int(entry & 15))
        return Int(entry >> 4)
    }
}
