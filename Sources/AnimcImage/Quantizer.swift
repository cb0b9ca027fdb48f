/// A palette for a set of images. When they have at most `count` colours, the palette is
/// exactly those colours and every pixel keeps its own. Otherwise: median cut (Heckbert)
/// over a histogram of their colours, counted at 5 bits per channel; a box is split at the
/// weighted median of its widest channel, boxes with the most pixels and the widest range
/// first; each colour of the palette is the mean of the pixels in its box, as they are
/// (it was the mean of the 5-bit bins' centres: white came out 252).
public struct Palette: Sendable {
    /// RGB triples.
    public private(set) var colors: [(UInt8, UInt8, UInt8)]
    /// Nearest palette index per colour at 6 bits per channel, filled on demand.
    private var nearestCache: [Int16]
    /// For a palette of the images' own colours: each colour's index, so none is moved.
    fileprivate var exact: [UInt32: Int]?

    public init(colors: [(UInt8, UInt8, UInt8)]) {
        self.colors = colors
        nearestCache = [Int16](repeating: -1, count: 1 << 18)
    }

    /// Whether every colour of the images it was made for is in it as it is.
    public var isExact: Bool { exact != nil }

    /// At most `count` colours (1...256) for the opaque pixels of `images` (alpha ≥ 128
    /// in straight alpha), sampling every `step`th pixel of large images.
    public static func medianCut(_ images: [Bitmap], count: Int) -> Palette {
        var census = Census()
        for image in images { census.count(image) }
        return census.palette(count: count)
    }

    /// What a palette is chosen from, counted an image at a time: a long animation's
    /// frames are counted as they are drawn, and none need be kept.
    public struct Census: Sendable {
        private var histogram = [Int](repeating: 0, count: 1 << 15)
        // The channels' sums per bin, so a box's colour is the mean of its real pixels.
        private var sums = [Int](repeating: 0, count: 3 << 15)
        /// The colours met, in order, while there are at most 256 (a palette's most).
        private var distinct: [UInt32: Int]? = [:]
        /// Whether a large image was sampled (it may have colours not counted).
        private var sampled = false

        public init() {}

        /// Counts the opaque pixels of `image` (alpha ≥ 128 in straight alpha).
        public mutating func count(_ image: Bitmap) { count(straight: image.straightened()) }

        mutating func count(straight: Bitmap) {
            let pixels = straight.width * straight.height
            let step = max(1, pixels / 250_000)
            if pixels > 250_000 * 2 - 1 { sampled = true }
            var p = 0
            while p < pixels {
                let i = p * 4
                if straight.pixels[i + 3] >= 128 {
                    let r = straight.pixels[i], g = straight.pixels[i + 1], b = straight.pixels[i + 2]
                    let key = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
                    histogram[key] += 1
                    sums[key * 3] += Int(r); sums[key * 3 + 1] += Int(g); sums[key * 3 + 2] += Int(b)
                    if var seen = distinct {
                        let rgb = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                        if seen[rgb] == nil {
                            // Copied out and back: the table is small (at most 256 colours).
                            distinct = nil
                            if seen.count < 256 {
                                seen[rgb] = seen.count
                                distinct = seen
                            }
                        }
                    }
                }
                p += step
            }
        }

        /// At most `count` colours (1...256) for what was counted: exactly its colours
        /// when there are no more, else median cut.
        public func palette(count: Int) -> Palette {
            let target = max(1, min(count, 256))
            // Sampling (large images) may miss colours: exact only when every pixel was read.
            if let distinct, !distinct.isEmpty, distinct.count <= target, !sampled {
                var colors = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: distinct.count)
                for (rgb, index) in distinct { colors[index] = (UInt8(rgb >> 16), UInt8(rgb >> 8 & 255), UInt8(rgb & 255)) }
                var palette = Palette(colors: colors)
                palette.exact = distinct
                return palette
            }
            var entries: [(key: Int, weight: Int)] = []
            for (k, w) in histogram.enumerated() where w > 0 { entries.append((k, w)) }
            if entries.isEmpty { return Palette(colors: [(0, 0, 0)]) }
            func channel(_ key: Int, _ c: Int) -> Int { key >> (10 - 5 * c) & 31 }
            var boxes: [[(key: Int, weight: Int)]] = [entries]
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
                var total = [0, 0, 0], weight = 0
                for e in box {
                    for c in 0..<3 { total[c] += sums[e.key * 3 + c] }
                    weight += e.weight
                }
                // Rounded to the nearest level, not truncated.
                func mean(_ c: Int) -> UInt8 { UInt8(min(255, (total[c] + weight / 2) / weight)) }
                return (mean(0), mean(1), mean(2))
            }
            return Palette(colors: colors)
        }
    }

    /// The index of the palette colour nearest (r, g, b) in squared RGB distance.
    public mutating func nearest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        if let exact, let index = exact[UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)] { return index }
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
