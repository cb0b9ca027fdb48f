/// How a ``Bitmap``'s colour components relate to its alpha.
public enum AlphaMode: Sendable, Equatable {
    /// Components independent of alpha, as PNG stores them.
    case straight
    /// Components already multiplied by alpha, as compositing wants them.
    case premultiplied
}

/// An 8-bit RGBA image in sRGB, rows top to bottom, four bytes per pixel.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var alpha: AlphaMode
    /// `width * height * 4` bytes: R, G, B, A.
    public var pixels: [UInt8]

    /// A transparent image.
    public init(width: Int, height: Int, alpha: AlphaMode = .premultiplied) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.alpha = alpha
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// An image over `pixels`, which must hold `width * height * 4` bytes (else nil).
    public init?(width: Int, height: Int, alpha: AlphaMode, pixels: [UInt8]) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
              pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.alpha = alpha
        self.pixels = pixels
    }

    /// The pixel at (x, y) as R, G, B, A.
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// This image with straight alpha. Dividing rounds to nearest, so a premultiplied
    /// image converted and converted back is the same image.
    public func straightened() -> Bitmap {
        guard alpha == .premultiplied else { return self }
        var copy = self
        copy.alpha = .straight
        copy.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a < 255 {
                    for c in 0..<3 { p[i + c] = UInt8(min(255, (Int(p[i + c]) * 255 + a / 2) / a)) }
                }
                i += 4
            }
        }
        return copy
    }

    /// This image with premultiplied alpha (components rounded to nearest).
    public func premultiplied() -> Bitmap {
        var copy = self
        copy.premultiply()
        return copy
    }

    /// Premultiplies in place: a decoded image is converted without a second copy of it.
    public mutating func premultiply() {
        guard alpha == .straight else { return }
        alpha = .premultiplied
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a < 255 {
                    for c in 0..<3 { p[i + c] = UInt8((Int(p[i + c]) * a + 127) / 255) }
                }
                i += 4
            }
        }
    }

    /// This image `factor` times smaller on each side (rounded up), each pixel the mean of
    /// the `factor` × `factor` pixels it stands for (fewer at the right and bottom edges),
    /// averaged premultiplied so that transparent pixels add no colour. An image drawn at a
    /// fraction of its size keeps what shows and not the rest (issue 51: four 8192² PNGs
    /// drawn small held 1.35 GB); a box filter is the mipmap level a GPU would read.
    public func reduced(by factor: Int) -> Bitmap {
        guard factor > 1, width > 0, height > 0 else { return self }
        let source = premultiplied()
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        var out = Bitmap(width: w, height: h, alpha: .premultiplied)
        var sums = [Int](repeating: 0, count: w * 4)
        source.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                for k in 0..<sums.count { sums[k] = 0 }
                let rows = min(factor, height - y * factor)
                for sy in (y * factor)..<(y * factor + rows) {
                    let base = sy * width * 4
                    for sx in 0..<width {
                        let i = base + sx * 4, o = (sx / factor) * 4
                        sums[o] += Int(p[i]); sums[o + 1] += Int(p[i + 1]); sums[o + 2] += Int(p[i + 2]); sums[o + 3] += Int(p[i + 3])
                    }
                }
                for x in 0..<w {
                    let n = rows * min(factor, width - x * factor)
                    for c in 0..<4 { out.pixels[(y * w + x) * 4 + c] = UInt8((sums[x * 4 + c] + n / 2) / n) }
                }
            }
        }
        return out
    }
}

/// Why an image could not be decoded or encoded: a ``Kind`` a caller can act on, and a
/// message a person can.
public struct ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// Not the format asked for (no signature, no start-of-image marker).
        case notThisFormat
        /// The data ends before the image does (a file cut short).
        case truncated
        /// The data breaks the format: a wrong checksum, an invalid code, a malformed header.
        case corrupt
        /// A valid file of a kind not decoded (progressive or 12-bit JPEG, a preset dictionary).
        case unsupported
        /// Larger than the limits allow (pixels, or inflated data beyond the image's size).
        case tooLarge
        /// An encoder given what it cannot write (frames of two sizes, one frame too many).
        case misuse
    }
    public let kind: Kind
    public let message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// Bounds a decoder keeps to, whatever a file declares.
public struct DecodeLimits: Sendable {
    /// The largest `width * height` accepted.
    public var maxPixels: Int
    public init(maxPixels: Int) { self.maxPixels = maxPixels }
    /// 64 megapixels: 256 MB decoded, larger than any image an animation embeds.
    public static let standard = DecodeLimits(maxPixels: 64 << 20)
}
