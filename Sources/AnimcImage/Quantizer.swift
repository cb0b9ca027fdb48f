/// A palette for a set of images: median cut (Heckbert) over a histogram of their colours,
/// with colours counted at 5 bits per channel. A box is split at the weighted median of
/// its widest channel, boxes with the most pixels and the widest range first; each colour
/// of the palette is its box's pixel-weighted mean.
public struct Palette: Sendable {
    /// RGB triples.
    public private(set) var colors: [(UInt8, UInt8, UInt8)]
    /// Nearest palette index per colour at 6 bits per channel, filled on demand.
    private var nearestCache: [Int16]

    public init(colors: [(UInt8, UInt8, UInt8)]) {
        self.colors = colors
        nearestCache = [Int16](repeating: -1, count: 1 << 18)
    }

    /// At most `count` colours (1...256) for the opaque pixels of `images` (alpha ≥ 128
    /// in straight alpha), sampling every `step`th pixel of large images.
    public static func medianCut(_ images: [Bitmap], count: Int) -> Palette {
        var histogram = [Int](repeating: 0, count: 1 << 15)
        for image in images {
            let straight = image.straightened()
            let pixels = straight.width * straight.height
            let step = max(1, pixels / 250_000)
            var p = 0
            while p < pixels {
                let i = p * 4
                if straight.pixels[i + 3] >= 128 {
                    let key = Int(straight.pixels[i] >> 3) << 10 | Int(straight.pixels[i + 1] >> 3) << 5 | Int(straight.pixels[i + 2] >> 3)
                    histogram[key] += 1
                }
                p += step
            }
        }
        var entries: [(key: Int, weight: Int)] = []
        for (k, w) in histogram.enumerated() where w > 0 { entries.append((k, w)) }
        if entries.isEmpty { return Palette(colors: [(0, 0, 0)]) }
        func channel(_ key: Int, _ c: Int) -> Int { key >> (10 - 5 * c) & 31 }
        var boxes: [[(key: Int, weight: Int)]] = [entries]
        let target = max(1, min(count, 256))
        while boxes.count < target {
            // The box to split: most pixels times its widest range.
            var best = -1, bestScore = 0, bestChannel = 0
            for (b, box) in boxes.enumerated() where box.count > 1 {
                var lo = [31, 31, 31], hi = [0, 0, 0], weight = 0
                for e in box {
                    for c in 0..<3 { lo[c] = min(lo[c], channel(e.key, c)); hi[c] = max(hi[c], channel(e.key, c)) }
                    weight += e.weight
                }
                let ranges = (0..<3).map { hi[$0] - lo[$0] }
                let widest = ranges.indices.max { ranges[$0] < ranges[$1] } ?? 0
                let score = ranges[widest] * weight
                if score > bestScore { bestScore = score; best = b; bestChannel = widest }
            }
            if best < 0 { break }
            var box = boxes[best]
            box.sort { channel($0.key, bestChannel) < channel($1.key, bestChannel) }
            let total = box.reduce(0) { $0 + $1.weight }
            var running = 0, cut = 1
            for (k, e) in box.enumerated() {
                running += e.weight
                if running * 2 >= total { cut = max(1, min(box.count - 1, k + 1)); break }
            }
            boxes[best] = Array(box[..<cut])
            boxes.append(Array(box[cut...]))
        }
        let colors = boxes.map { box -> (UInt8, UInt8, UInt8) in
            var sums = [0, 0, 0], weight = 0
            for e in box {
                for c in 0..<3 { sums[c] += (channel(e.key, c) * 8 + 4) * e.weight }
                weight += e.weight
            }
            return (UInt8(min(255, sums[0] / weight)), UInt8(min(255, sums[1] / weight)), UInt8(min(255, sums[2] / weight)))
        }
        return Palette(colors: colors)
    }

    /// The index of the palette colour nearest (r, g, b) in squared RGB distance.
    public mutating func nearest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        let key = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
        let cached = nearestCache[key]
        if cached >= 0 { return Int(cached) }
        var best = 0, bestDistance = Int.max
        let cr = (r >> 2) * 4 + 2, cg = (g >> 2) * 4 + 2, cb = (b >> 2) * 4 + 2
        for (i, c) in colors.enumerated() {
            let dr = Int(c.0) - cr, dg = Int(c.1) - cg, db = Int(c.2) - cb
            let d = dr * dr + dg * dg + db * db
            if d < bestDistance { bestDistance = d; best = i }
        }
        nearestCache[key] = Int16(best)
        return best
    }
}
