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

/// How a paint meets what is under it: the one place a pixel is blended, so a new mode
/// (Core Animation's compositing filters) has one place to go. Only source-over today,
/// the mode every layer, group and shadow is drawn with.
enum Blend {
    case sourceOver

    /// Blends `paint`, scaled by `k` (coverage, opacity, mask and clip together), into the
    /// premultiplied pixel at `i`.
    @inline(__always)
    func apply(_ paint: Premultiplied, times k: Float, into p: UnsafeMutableBufferPointer<Float>, at i: Int) {
        switch self {
        case .sourceOver:
            let keep = 1 - paint.a * k
            p[i] = paint.r * k + p[i] * keep
            p[i + 1] = paint.g * k + p[i + 1] * keep
            p[i + 2] = paint.b * k + p[i + 2] * keep
            p[i + 3] = paint.a * k + p[i + 3] * keep
        }
    }
}

/// A rectangle of pixels: columns `x0..<x1`, rows `y0..<y1`.
struct PixelBox: Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    static let empty = PixelBox(x0: .max, y0: .max, x1: .min, y1: .min)
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    var width: Int { isEmpty ? 0 : x1 - x0 }
    var area: Int { isEmpty ? 0 : (x1 - x0) * (y1 - y0) }
    mutating func include(row: Int, from: Int, to: Int) {
        x0 = min(x0, from); x1 = max(x1, to); y0 = min(y0, row); y1 = max(y1, row + 1)
    }
    mutating func formUnion(_ o: PixelBox) {
        if o.isEmpty { return }
        if isEmpty { self = o; return }
        x0 = min(x0, o.x0); y0 = min(y0, o.y0); x1 = max(x1, o.x1); y1 = max(y1, o.y1)
    }
    func intersection(_ o: PixelBox) -> PixelBox {
        let r = PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }
    func contains(_ o: PixelBox) -> Bool { o.isEmpty || (!isEmpty && x0 <= o.x0 && y0 <= o.y0 && o.x1 <= x1 && o.y1 <= y1) }
}

/// A coverage mask (1 = fully inside), for clips, masks and shadows. Its values are
/// stored for `box` only, row after row; outside it every value is 0. (Masks the size of
/// the frame made every clip and group cost the whole frame: issue 51.)
struct CoverageMask {
    var values: [Float]
    var box: PixelBox

    /// All zero over `box`.
    init(box: PixelBox) {
        self.box = box.isEmpty ? .empty : box
        values = [Float](repeating: 0, count: self.box.area)
    }

    /// `box` of a grid `gridWidth` values wide (row-major from (0, 0)).
    init(grid: [Float], gridWidth: Int, box: PixelBox) {
        self.init(box: box)
        guard !self.box.isEmpty else { return }
        for y in self.box.y0..<self.box.y1 {
            for x in self.box.x0..<self.box.x1 { values[index(x, y)] = grid[y * gridWidth + x] }
        }
    }

    /// The value at pixel (x, y): 0 outside ``box``.
    @inline(__always)
    func value(_ x: Int, _ y: Int) -> Float {
        guard x >= box.x0, x < box.x1, y >= box.y0, y < box.y1 else { return 0 }
        return values[index(x, y)]
    }

    /// Where (x, y)'s value is stored; (x, y) must lie in ``box``.
    @inline(__always)
    func index(_ x: Int, _ y: Int) -> Int { (y - box.y0) * (box.x1 - box.x0) + x - box.x0 }
}

/// Premultiplied RGBA in 32-bit floats, composited source-over in sRGB (as Core
/// Animation and browsers blend), rounded to 8 bits once, at the end. `dirty` bounds
/// what has been drawn, so groups composite and clear only that.
///
/// A canvas stores only its `window` of the frame (`width` × `height` pixels), grown to
/// take what is drawn: a group's canvas is the size of what the group covers, not of
/// the frame (twenty nested groups at 4,096² took 6 GB, each a whole frame). Drawing
/// outside the frame is clipped by the raster before it gets here.
struct Canvas {
    let width: Int, height: Int
    /// The pixels stored: `window.width` a row, from (`window.x0`, `window.y0`).
    private(set) var window: PixelBox
    var pixels: [Float]
    var dirty = PixelBox.empty

    /// A canvas storing the whole frame (the root).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        window = width > 0 && height > 0 ? PixelBox(x0: 0, y0: 0, x1: width, y1: height) : .empty
        pixels = [Float](repeating: 0, count: window.area * 4)
    }

    /// A canvas storing nothing yet, for a group: it grows to what is drawn into it.
    static func group(width: Int, height: Int) -> Canvas { Canvas(frameWidth: width, frameHeight: height) }

    private init(frameWidth: Int, frameHeight: Int) {
        width = frameWidth
        height = frameHeight
        window = .empty
        pixels = []
    }

    /// Where pixel (x, y)'s red is stored; (x, y) must lie in ``window``.
    @inline(__always)
    func offset(_ x: Int, _ y: Int) -> Int { Canvas.offset(in: window, x, y) }

    @inline(__always)
    static func offset(in window: PixelBox, _ x: Int, _ y: Int) -> Int { ((y - window.y0) * (window.x1 - window.x0) + x - window.x0) * 4 }

    /// Grows the window to take `box` (within the frame), keeping what is drawn.
    mutating func reserve(_ box: PixelBox) {
        let frame = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        let wanted = box.intersection(frame)
        guard !window.contains(wanted) else { return }
        var grown = window
        grown.formUnion(wanted)
        var next = [Float](repeating: 0, count: grown.area * 4)
        if !dirty.isEmpty {
            for y in dirty.y0..<dirty.y1 {
                let from = offset(dirty.x0, y), to = Canvas.offset(in: grown, dirty.x0, y)
                for k in 0..<(dirty.width * 4) { next[to + k] = pixels[from + k] }
            }
        }
        pixels = next
        window = grown
    }

    mutating func clear() {
        guard !dirty.isEmpty else { return }
        let window = self.window, drawn = dirty
        pixels.withUnsafeMutableBufferPointer { p in
            for y in drawn.y0..<drawn.y1 {
                let base = Canvas.offset(in: window, drawn.x0, y)
                for i in base..<(base + drawn.width * 4) { p[i] = 0 }
            }
        }
        dirty = .empty
    }

    mutating func fillAll(_ c: Premultiplied) {
        reserve(PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        for i in 0..<(pixels.count / 4) {
            pixels[i * 4] = c.r; pixels[i * 4 + 1] = c.g; pixels[i * 4 + 2] = c.b; pixels[i * 4 + 3] = c.a
        }
        dirty = window
    }

    /// Paints `paint` through the coverage the raster accumulated (then cleared), times `clip`.
    mutating func fill(_ raster: inout CoverageRaster, _ rule: FillRule, clip: CoverageMask?, paint: (Int, Int) -> Premultiplied) {
        var reach = raster.pending
        if let clip { reach = reach.intersection(clip.box) }
        reserve(reach)
        var box = dirty
        let window = self.window
        pixels.withUnsafeMutableBufferPointer { p in
            raster.sweep(rule) { row, x0, coverage in
                var first = Int.max, last = Int.min
                for k in 0..<coverage.count {
                    var c = coverage[k]
                    if c == 0 { continue }
                    let x = x0 + k
                    if let clip {
                        c *= clip.value(x, row)
                        if c == 0 { continue }
                    }
                    let s = paint(x, row)
                    let sa = s.a * c
                    if sa == 0, s.r == 0, s.g == 0, s.b == 0 { continue }
                    Blend.sourceOver.apply(s, times: c, into: p, at: Canvas.offset(in: window, x, row))
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
        if let mask { box = box.intersection(mask.box) }
        if let clip { box = box.intersection(clip.box) }
        if !box.isEmpty {
            reserve(box)
            let window = self.window, groupWindow = group.window
            pixels.withUnsafeMutableBufferPointer { p in
                group.pixels.withUnsafeBufferPointer { g in
                    for y in box.y0..<box.y1 {
                        for x in box.x0..<box.x1 {
                            var k = opacity
                            if let mask { k *= mask.value(x, y) }
                            if let clip { k *= clip.value(x, y) }
                            let i = Canvas.offset(in: window, x, y), gi = Canvas.offset(in: groupWindow, x, y)
                            let paint = Premultiplied(r: g[gi], g: g[gi + 1], b: g[gi + 2], a: g[gi + 3])
                            if paint.a * k == 0, paint.r == 0, paint.g == 0, paint.b == 0 { continue }
                            Blend.sourceOver.apply(paint, times: k, into: p, at: i)
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
        var box = mask.box
        if let clip { box = box.intersection(clip.box) }
        guard !box.isEmpty else { return }
        reserve(box)
        let window = self.window
        pixels.withUnsafeMutableBufferPointer { p in
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 {
                    var k = mask.value(x, y)
                    if let clip { k *= clip.value(x, y) }
                    if k <= 0 { continue }
                    Blend.sourceOver.apply(color, times: k, into: p, at: Canvas.offset(in: window, x, y))
                }
            }
        }
        dirty.formUnion(box)
    }

    /// The alpha channel as a coverage mask, over what is drawn.
    func alphaMask() -> CoverageMask {
        var mask = CoverageMask(box: dirty)
        if !dirty.isEmpty {
            for y in dirty.y0..<dirty.y1 {
                for x in dirty.x0..<dirty.x1 { mask.values[mask.index(x, y)] = pixels[offset(x, y) + 3] }
            }
        }
        return mask
    }

    /// The whole frame, rounded once to 8 bits, premultiplied (transparent outside the window).
    func bitmap() -> Bitmap {
        var out = Bitmap(width: width, height: height, alpha: .premultiplied)
        guard !window.isEmpty else { return out }
        out.pixels.withUnsafeMutableBufferPointer { o in
            pixels.withUnsafeBufferPointer { p in
                for y in window.y0..<window.y1 {
                    let from = offset(window.x0, y), to = (y * width + window.x0) * 4
                    for k in 0..<(window.width * 4) {
                        // Clamped first (NaN, which no conversion may see, becomes 0), so
                        // the conversion is a plain truncation.
                        var v = p[from + k] * 255 + 0.5
                        v = v > 0 ? (v < 255 ? v : 255) : 0
                        o[to + k] = UInt8(truncatingIfNeeded: Int32(v))
                    }
                }
            }
        }
        return out
    }
}
