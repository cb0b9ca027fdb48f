import AnimcImage

/// Frames side by side, each with its time written under it in a small bitmap font.
public enum Filmstrip {
    /// 3 × 5 glyphs, one row of three bits per line, top to bottom.
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        ".": [0, 0, 0, 0, 2], "s": [3, 4, 2, 1, 6], "-": [0, 0, 7, 0, 0],
    ]

    /// `frames` (one size) in a row with `gap` pixels between them, over `background`, and
    /// under each its label in glyphs `pixel` device pixels per font pixel.
    public static func compose(_ frames: [Bitmap], labels: [String], gap: Int, pixel: Int,
                               background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> Bitmap {
        guard let first = frames.first else { return Bitmap(width: 0, height: 0) }
        let w = first.width, h = first.height
        let labelHeight = pixel * 9
        let width = frames.count * w + (frames.count + 1) * gap
        let height = h + 2 * gap + labelHeight
        var out = Bitmap(width: width, height: height, alpha: .premultiplied)
        for i in stride(from: 0, to: out.pixels.count, by: 4) {
            out.pixels[i] = background.0; out.pixels[i + 1] = background.1; out.pixels[i + 2] = background.2; out.pixels[i + 3] = 255
        }
        for (n, frame) in frames.enumerated() {
            let ox = gap + n * (w + gap), oy = gap
            // Frames are premultiplied: over the opaque background, src + dst·(1 − a).
            for y in 0..<min(h, frame.height) {
                for x in 0..<min(w, frame.width) {
                    let s = (y * frame.width + x) * 4, d = ((oy + y) * width + ox + x) * 4
                    let keep = 255 - Int(frame.pixels[s + 3])
                    for c in 0..<3 { out.pixels[d + c] = UInt8(min(255, Int(frame.pixels[s + c]) + (Int(out.pixels[d + c]) * keep + 127) / 255)) }
                }
            }
            let label = n < labels.count ? labels[n] : ""
            let textWidth = label.count * 4 * pixel - pixel
            var cx = ox + max(0, (w - textWidth) / 2)
            let cy = oy + h + 2 * pixel
            for ch in label {
                if let rows = glyphs[ch] {
                    for (ry, bits) in rows.enumerated() {
                        for rx in 0..<3 where bits & (4 >> rx) != 0 {
                            for py in 0..<pixel {
                                for px in 0..<pixel {
                                    let x = cx + rx * pixel + px, y = cy + ry * pixel + py
                                    guard x < width, y < height else { continue }
                                    let d = (y * width + x) * 4
                                    out.pixels[d] = 40; out.pixels[d + 1] = 40; out.pixels[d + 2] = 40
                                }
                            }
                        }
                    }
                }
                cx += 4 * pixel
            }
        }
        return out
    }
}
