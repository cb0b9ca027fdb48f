/// Compression to DEFLATE (RFC 1951) and zlib (RFC 1950): LZ77 matching over a 32 KiB
/// window with hash chains and one step of lazy matching (zlib's scheme), then each block
/// coded with the cheapest of its own Huffman codes, the fixed codes, or storing.
public enum Deflate {
    /// How hard the matcher looks: chain steps per position, a match length that ends
    /// the search, a length past which the search one byte on takes a quarter of the chain
    /// (`goodLength`), and one past which that search is not made (`maxLazy`). The default
    /// is zlib's level 6 (128, 128, 8, 16); without the last two, a frame of repeated
    /// tiles spent twice as long matching for 0.3% less size.
    public struct Effort: Sendable {
        public var maxChain: Int
        public var niceLength: Int
        public var goodLength: Int
        public var maxLazy: Int
        public static let standard = Effort(maxChain: 128, niceLength: 128, goodLength: 8, maxLazy: 16)
        public static let fast = Effort(maxChain: 8, niceLength: 32, goodLength: 4, maxLazy: 8)
    }

    /// `data` as a zlib stream.
    public static func zlib(_ data: [UInt8], effort: Effort = .standard) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x9C]
        out.append(contentsOf: deflate(data, effort: effort))
        let adler = Adler32.checksum(data)
        out.append(contentsOf: [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
        return out
    }

    /// `data` as a raw DEFLATE stream.
    public static func deflate(_ data: [UInt8], effort: Effort = .standard) -> [UInt8] {
        var writer = BitWriter()
        var matcher = Matcher(effort: effort)
        data.withUnsafeBufferPointer { input in
            var start = 0
            repeat {
                let (symbols, end) = matcher.tokens(input, from: start, maxSymbols: 1 << 15)
                writeBlock(symbols, input: input, from: start, to: end, last: end == input.count, &writer)
                start = end
            } while start < input.count
        }
        return writer.finish()
    }

    /// A literal (`value < 256`, `distance == 0`) or a match of `value` bytes at `distance`.
    struct Token {
        var value: UInt16
        var distance: UInt16
    }

    struct Matcher {
        let effort: Effort
        static let windowSize = 1 << 15
        static let hashBits = 15
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: windowSize)

        init(effort: Effort) { self.effort = effort }

        @inline(__always)
        static func hash(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
            let v = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
            return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
        }

        @inline(__always)
        mutating func insert(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) {
            guard i + 2 < p.count else { return }
            let h = Matcher.hash(p, i)
            previous[i & (Matcher.windowSize - 1)] = head[h]
            head[h] = Int32(i)
        }

        /// The longest match for position `i` among earlier positions in the window.
        @inline(__always)
        func longestMatch(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, atLeast: Int) -> (length: Int, distance: Int) {
            guard i + 2 < p.count else { return (0, 0) }
            let limit = min(258, p.count - i)
            var best = atLeast, bestDistance = 0
            // Nothing longer than the rest of the input can be found.
            if best >= limit { return (0, 0) }
            var candidate = Int(head[Matcher.hash(p, i)])
            // Looking for better than a good match already found: a shorter search (zlib's).
            var chain = atLeast >= effort.goodLength ? max(1, effort.maxChain >> 2) : effort.maxChain
            while candidate >= 0, chain > 0 {
                let distance = i - candidate
                if distance > Matcher.windowSize - 1 || distance <= 0 { break }
                if p[candidate + best] == p[i + best] {
                    var n = 0
                    while n < limit, p[candidate + n] == p[i + n] { n += 1 }
                    if n > best {
                        best = n
                        bestDistance = distance
                        if n >= effort.niceLength || n == limit { break }
                    }
                }
                let next = Int(previous[candidate & (Matcher.windowSize - 1)])
                if next >= candidate { break }
                candidate = next
                chain -= 1
            }
            return bestDistance == 0 ? (0, 0) : (best, bestDistance)
        }

        /// Tokens from `start` until `maxSymbols` are made or the input ends.
        mutating func tokens(_ p: UnsafeBufferPointer<UInt8>, from start: Int, maxSymbols: Int) -> ([Token], Int) {
            var tokens: [Token] = []
            tokens.reserveCapacity(min(maxSymbols, p.count - start + 1))
            var i = start
            while i < p.count, tokens.count < maxSymbols {
                let match = longestMatch(p, i, atLeast: 2)
                if match.length >= 3 {
                    // One step of lazy matching: a longer match at the next byte wins (not
                    // looked for after a match of maxLazy or more).
                    insert(p, i)
                    let next = match.length < effort.maxLazy ? longestMatch(p, i + 1, atLeast: match.length) : (length: 0, distance: 0)
                    if next.length > match.length {
                        tokens.append(Token(value: UInt16(p[i]), distance: 0))
                        i += 1
                        continue
                    }
                    tokens.append(Token(value: UInt16(match.length), distance: UInt16(match.distance)))
                    for k in 1..<match.length { insert(p, i + k) }
                    i += match.length
                } else {
                    insert(p, i)
                    tokens.append(Token(value: UInt16(p[i]), distance: 0))
                    i += 1
                }
            }
            return (tokens, i)
        }
    }

    @inline(__always)
    static func lengthCode(_ length: Int) -> Int {
        var c = 0
        while c < 28, Inflate.lengthBase[c + 1] <= length { c += 1 }
        return length == 258 ? 28 : c
    }

    @inline(__always)
    static func distanceCode(_ distance: Int) -> Int {
        var c = 0
        while c < 29, Inflate.distanceBase[c + 1] <= distance { c += 1 }
        return c
    }

    static let fixedLiteralLengths: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    static func writeBlock(_ tokens: [Token], input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, last: Bool,
                           _ w: inout BitWriter) {
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        var codes: [(literal: Int, distance: Int)] = []
        codes.reserveCapacity(tokens.count)
        for t in tokens {
            if t.distance == 0 {
                literalFrequencies[Int(t.value)] += 1
                codes.append((Int(t.value), -1))
            } else {
                let l = lengthCode(Int(t.value)), d = distanceCode(Int(t.distance))
                literalFrequencies[257 + l] += 1
                distanceFrequencies[d] += 1
                codes.append((l, d))
            }
        }
        literalFrequencies[256] = 1
        let literalLengths = HuffmanLengths.limited(literalFrequencies, limit: 15, minimumSymbols: 2)
        let distanceLengths = HuffmanLengths.limited(distanceFrequencies, limit: 15, minimumSymbols: 2)
        let header = DynamicHeader(literalLengths, distanceLengths)

        func cost(_ lit: [UInt8], _ dist: [UInt8]) -> Int {
            var bits = 0
            for (s, f) in literalFrequencies.enumerated() where f > 0 {
                bits += f * Int(lit[s]) + (s > 256 ? f * Inflate.lengthExtra[s - 257] : 0)
            }
            for (s, f) in distanceFrequencies.enumerated() where f > 0 { bits += f * (Int(dist[s]) + Inflate.distanceExtra[s]) }
            return bits
        }
        let dynamicBits = 3 + header.bits + cost(literalLengths, distanceLengths)
        let fixedBits = 3 + cost(fixedLiteralLengths, fixedDistanceLengths)
        let storedBits = 3 + 7 + 32 + 8 * (end - start)
        w.write(last ? 1 : 0, 1)
        // A stored block holds at most 65,535 bytes; longer stretches are always coded.
        if end - start <= 65535, storedBits < min(dynamicBits, fixedBits) {
            w.write(0, 2)
            w.alignToByte()
            let n = end - start
            w.write(n, 16)
            w.write(~n & 0xFFFF, 16)
            for k in start..<end { w.writeByte(input[k]) }
            return
        }
        let useFixed = fixedBits <= dynamicBits
        let lit = useFixed ? fixedLiteralLengths : literalLengths
        let dist = useFixed ? fixedDistanceLengths : distanceLengths
        if useFixed {
            w.write(1, 2)
        } else {
            w.write(2, 2)
            header.write(&w)
        }
        let litCodes = HuffmanLengths.codes(lit), distCodes = HuffmanLengths.codes(dist)
        for (t, c) in zip(tokens, codes) {
            if c.distance < 0 {
                w.write(Int(litCodes[c.literal]), Int(lit[c.literal]))
            } else {
                let s = 257 + c.literal
                w.write(Int(litCodes[s]), Int(lit[s]))
                w.write(Int(t.value) - Inflate.lengthBase[c.literal], Inflate.lengthExtra[c.literal])
                w.write(Int(distCodes[c.distance]), Int(dist[c.distance]))
                w.write(Int(t.distance) - Inflate.distanceBase[c.distance], Inflate.distanceExtra[c.distance])
            }
        }
        w.write(Int(litCodes[256]), Int(lit[256]))
    }

    /// A dynamic block's header: the code lengths, run-length coded and Huffman coded.
    struct DynamicHeader {
        var hlit: Int, hdist: Int, hclen: Int
        var runs: [(symbol: Int, extra: Int, extraBits: Int)] = []
        var codeLengthLengths: [UInt8]
        var bits: Int

        init(_ literals: [UInt8], _ distances: [UInt8]) {
            hlit = max(257, (literals.lastIndex { $0 != 0 } ?? 0) + 1)
            hdist = max(1, (distances.lastIndex { $0 != 0 } ?? 0) + 1)
            let all = Array(literals[0..<hlit]) + Array(distances[0..<hdist])
            var i = 0
            while i < all.count {
                let v = all[i]
                var run = 1
                while i + run < all.count, all[i + run] == v { run += 1 }
                if v == 0, run >= 3 {
                    let n = min(run, 138)
                    runs.append(n >= 11 ? (18, n - 11, 7) : (17, n - 3, 3))
                    i += n
                } else if v != 0, run >= 4 {
                    runs.append((Int(v), 0, 0))
                    let n = min(run - 1, 6)
                    runs.append((16, n - 3, 2))
                    i += 1 + n
                } else {
                    runs.append((Int(v), 0, 0))
                    i += 1
                }
            }
            var frequencies = [Int](repeating: 0, count: 19)
            for r in runs { frequencies[r.symbol] += 1 }
            codeLengthLengths = HuffmanLengths.limited(frequencies, limit: 7, minimumSymbols: 2)
            hclen = 4
            for (k, s) in Inflate.codeLengthOrder.enumerated() where codeLengthLengths[s] != 0 { hclen = max(hclen, k + 1) }
            var total = 5 + 5 + 4 + 3 * hclen
            for r in runs { total += Int(codeLengthLengths[r.symbol]) + r.extraBits }
            bits = total
        }

        func write(_ w: inout BitWriter) {
            w.write(hlit - 257, 5)
            w.write(hdist - 1, 5)
            w.write(hclen - 4, 4)
            for k in 0..<hclen { w.write(Int(codeLengthLengths[Inflate.codeLengthOrder[k]]), 3) }
            let codes = HuffmanLengths.codes(codeLengthLengths)
            for r in runs {
                w.write(Int(codes[r.symbol]), Int(codeLengthLengths[r.symbol]))
                w.write(r.extra, r.extraBits)
            }
        }
    }
}

/// Writes bits least significant first, as DEFLATE packs them.
struct BitWriter {
    var bytes: [UInt8] = []
    var buffer: UInt64 = 0
    var count = 0

    @inline(__always)
    mutating func write(_ value: Int, _ n: Int) {
        guard n > 0 else { return }
        buffer |= (UInt64(truncatingIfNeeded: value) & ((1 << UInt64(n)) - 1)) << UInt64(count)
        count += n
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func writeByte(_ b: UInt8) { write(Int(b), 8) }

    mutating func alignToByte() {
        if count > 0 { write(0, 8 - count) }
    }

    mutating func finish() -> [UInt8] {
        alignToByte()
        return bytes
    }
}

/// Huffman code lengths with a maximum length, and canonical codes from lengths.
public enum HuffmanLengths {
    /// Optimal lengths no longer than `limit` for the symbols with a nonzero frequency
    /// (package-merge). At least `minimumSymbols` symbols get a code, so the code is
    /// complete as DEFLATE decoders require (symbols with no uses are added first).
    public static func limited(_ frequencies: [Int], limit: Int, minimumSymbols: Int = 1) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        var symbols = frequencies.indices.filter { frequencies[$0] > 0 }
        var k = 0
        while symbols.count < min(minimumSymbols, frequencies.count), k < frequencies.count {
            if frequencies[k] == 0 { symbols.append(k) }
            k += 1
        }
        if symbols.isEmpty { return lengths }
        if symbols.count == 1 {
            lengths[symbols[0]] = 1
            return lengths
        }
        let weight = { (s: Int) in max(frequencies[s], 1) }
        symbols.sort { (weight($0), $0) < (weight($1), $1) }
        // Nodes: a leaf (left < 0, right = symbol) or a package of two nodes.
        var nodeWeight: [Int] = [], left: [Int] = [], right: [Int] = []
        for s in symbols {
            nodeWeight.append(weight(s)); left.append(-1); right.append(s)
        }
        let leaves = Array(0..<symbols.count)
        var list = leaves
        for _ in 1..<limit {
            var packages: [Int] = []
            var i = 0
            while i + 1 < list.count {
                nodeWeight.append(nodeWeight[list[i]] + nodeWeight[list[i + 1]])
                left.append(list[i]); right.append(list[i + 1])
                packages.append(nodeWeight.count - 1)
                i += 2
            }
            var merged: [Int] = []
            merged.reserveCapacity(leaves.count + packages.count)
            var a = 0, b = 0
            while a < leaves.count || b < packages.count {
                if b >= packages.count || (a < leaves.count && nodeWeight[leaves[a]] <= nodeWeight[packages[b]]) {
                    merged.append(leaves[a]); a += 1
                } else {
                    merged.append(packages[b]); b += 1
                }
            }
            list = merged
        }
        var stack = Array(list.prefix(2 * symbols.count - 2))
        while let n = stack.popLast() {
            if left[n] < 0 {
                lengths[right[n]] += 1
            } else {
                stack.append(left[n]); stack.append(right[n])
            }
        }
        return lengths
    }

    /// The canonical codes for `lengths`, bit-reversed for a least-significant-first writer.
    public static func codes(_ lengths: [UInt8]) -> [UInt16] {
        var counts = [Int](repeating: 0, count: 17)
        for l in lengths where l > 0 { counts[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 17)
        var code = 0
        for len in 1...16 {
            code = (code + counts[len - 1]) << 1
            next[len] = code
        }
        return lengths.map { l -> UInt16 in
            guard l > 0 else { return 0 }
            let len = Int(l)
            let c = next[len]
            next[len] += 1
            var reversed = 0
            for b in 0..<len where c & (1 << b) != 0 { reversed |= 1 << (len - 1 - b) }
            return UInt16(reversed)
        }
    }
}
