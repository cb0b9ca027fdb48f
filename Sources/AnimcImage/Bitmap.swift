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
        guard alpha == .straight else { return self }
        var copy = self
        copy.alpha = .premultiplied
        copy.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a < 255 {
                    for c in 0..<3 { p[i + c] = UInt8((Int(p[i + c]) * a + 127) / 255) }
                }
                i += 4
            }
        }
        return copy
    }
}

/// Why an image could not be decoded or encoded.
public struct ImageError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
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
