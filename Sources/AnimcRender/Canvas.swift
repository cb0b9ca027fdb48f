import AnimcImage

/// A colour with premultiplied components, as compositing uses them.
public struct Premultiplied: Equatable, Sendable {
    public var r: Float, g: Float, b: Float, a: Float
    public init(r: Float, g: Float, b: Float, a: Float) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public static let clear = Premultiplied(r: 0, g: 0, b: 0, a: 0)
    func scaled(_ k: Float) -> Premultiplied { Premultiplied(r: r * k, g: g * k, b: b * k, a: a * k) }
}

/// A rectangle of pixels: columns `x0..<x1`, rows `y0..<y1`.
struct PixelBox: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    static let empty = PixelBox(x0: .max, y0: .max, x1: .min, y1: .min)
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    mutating func include(row: Int, from: Int, to: Int) {
        x0 = min(x0, from); x1 = max(x1, to); y0 = min(y0, row); y1 = max(y1, row + 1)
    }
    mutating func formUnion(_ o: PixelBox) {
        if o.isEmpty { return }
        x0 = min(x0, o.x0); y0 = min(y0, o.y0); x1 = max(x1, o.x1); y1 = max(y1, o.y1)
    }
}

/// A coverage mask over the canvas (1 = fully inside), for clips and masks.
struct CoverageMask {
    var values: [Float]
    /// Outside this box every value is 0.
    var box: PixelBox
}

/// Premultiplied RGBA in 32-bit floats, composited source-over in sRGB (as Core
/// Animation and browsers blend), rounded to 8 bits once, at the end. `dirty` bounds
/// what has been drawn, so groups composite and clear only that.
struct Canvas {
    let width: Int, height: Int
    var pixels: [Float]
    var dirty = PixelBox.empty

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height * 4)
    }

    mutating func clear() {
        guard !dirty.isEmpty else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in dirty.y0..<dirty.y1 {
                let base = (y * width + dirty.x0) * 4
                for i in base..<(base + (dirty.x1 - dirty.x0) * 4) { p[i] = 0 }
            }
        }
        dirty = .empty
    }

    mutating func fillAll(_ c: Premultiplied) {
        for i in 0..<(width * height) {
            pixels[i * 4] = c.r; pixels[i * 4 + 1] = c.g; pixels[i * 4 + 2] = c.b; pixels[i * 4 + 3] = c.a
        }
        dirty = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
    }

    /// Paints `paint` through the coverage the raster accumulated (then cleared), times `clip`.
    mutating func fill(_ raster: inout CoverageRaster, _ rule: FillRule, clip: CoverageMask?, paint: (Int, Int) -> Premultiplied) {
        let w = width
        var box = dirty
        pixels.withUnsafeMutableBufferPointer { p in
            raster.sweep(rule) { row, x0, coverage in
                var first = Int.max, last = Int.min
                for k in 0..<coverage.count {
                    var c = coverage[k]
                    if c == 0 { continue }
                    let x = x0 + k
                    if let clip {
                        c *= clip.values[row * w + x]
                        if c == 0 { continue }
                    }
                    let s = paint(x, row)
                    let sa = s.a * c
                    if sa == 0, s.r == 0, s.g == 0, s.b == 0 { continue }
                    let i = (row * w + x) * 4
                    let keep = 1 - sa
                    p[i] = s.r * c + p[i] * keep
                    p[i + 1] = s.g * c + p[i + 1] * keep
                    p[i + 2] = s.b * c + p[i + 2] * keep
                    p[i + 3] = sa + p[i + 3] * keep
                    first = min(first, x); last = max(last, x)
                }
                if first <= last { box.include(row: row, from: first, to: last + 1) }
            }
        }
        dirty = box
    }

    /// Draws `group` over this canvas with `opacity`, times `mask` (a mask layer's alpha),
    /// times `clip`; then clears the group.
    mutating func composite(_ group: inout Canvas, opacity: Float, mask: CoverageMask?, clip: CoverageMask?) {
        var box = group.dirty
        if let mask {
            box = PixelBox(x0: max(box.x0, mask.box.x0), y0: max(box.y0, mask.box.y0), x1: min(box.x1, mask.box.x1),
                           y1: min(box.y1, mask.box.y1))
        }
        if !box.isEmpty {
            let w = width
            pixels.withUnsafeMutableBufferPointer { p in
                group.pixels.withUnsafeBufferPointer { g in
                    for y in box.y0..<box.y1 {
                        for x in box.x0..<box.x1 {
                            let j = y * w + x
                            var k = opacity
                            if let mask { k *= mask.values[j] }
                            if let clip { k *= clip.values[j] }
                            let i = j * 4
                            let sa = g[i + 3] * k
                            if sa == 0, g[i] == 0, g[i + 1] == 0, g[i + 2] == 0 { continue }
                            let keep = 1 - sa
                            p[i] = g[i] * k + p[i] * keep
                            p[i + 1] = g[i + 1] * k + p[i + 1] * keep
                            p[i + 2] = g[i + 2] * k + p[i + 2] * keep
                            p[i + 3] = sa + p[i + 3] * keep
                        }
                    }
                }
            }
            dirty.formUnion(box)
        }
        group.clear()
    }

    /// Paints `color` through `mask` (times `clip`), source-over.
    mutating func paint(_ mask: CoverageMask, color: Premultiplied, clip: CoverageMask?) {
        let box = mask.box
        guard !box.isEmpty else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { p in
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 {
                    let j = y * w + x
                    var k = mask.values[j]
                    if let clip { k *= clip.values[j] }
                    if k <= 0 { continue }
                    let i = j * 4, sa = color.a * k, keep = 1 - sa
                    p[i] = color.r * k + p[i] * keep
                    p[i + 1] = color.g * k + p[i + 1] * keep
                    p[i + 2] = color.b * k + p[i + 2] * keep
                    p[i + 3] = sa + p[i + 3] * keep
                }
            }
        }
        dirty.formUnion(box)
    }

    /// The alpha channel as a coverage mask.
    func alphaMask() -> CoverageMask {
        var values = [Float](repeating: 0, count: width * height)
        if !dirty.isEmpty {
            for y in dirty.y0..<dirty.y1 {
                for x in dirty.x0..<dirty.x1 { values[y * width + x] = pixels[(y * width + x) * 4 + 3] }
            }
        }
        return CoverageMask(values: values, box: dirty)
    }

    /// Rounded once to 8 bits, premultiplied.
    func bitmap() -> Bitmap {
        var out = Bitmap(width: width, height: height, alpha: .premultiplied)
        out.pixels.withUnsafeMutableBufferPointer { o in
            pixels.withUnsafeBufferPointer { p in
                for i in 0..<p.count {
                    let v = p[i] * 255 + 0.5
                    // `!(v > 0)` also takes NaN, which no conversion may see.
                    o[i] = !(v > 0) ? 0 : v >= 255 ? 255 : UInt8(v)
                }
            }
        }
        return out
    }
}
