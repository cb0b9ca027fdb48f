#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How overlapping contours decide what is inside.
public enum FillRule: Sendable {
    case nonZero, evenOdd
}

/// A point in device pixels.
public struct DevicePoint: Equatable, Sendable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// Exact-area coverage of polygons, by signed-area accumulation (the scheme of font
/// rasterisers: libart, FreeType's "gray" raster, font-rs). Each edge adds, to the cells
/// it crosses, the signed area it sweeps to its right within the row; a running sum
/// along the row then gives, per pixel, the integral of the winding number over the
/// pixel's square. That integral is the exact covered area wherever a pixel holds one
/// edge, or several that do not overlap; the fill rule is applied to it, as FreeType does
/// (non-zero: its magnitude clamped to 1; even-odd: folded about odd windings).
///
/// The accumulation buffer is kept between fills, and only the rows and columns a
/// fill touched are read and cleared, so a small shape on a large canvas costs its size.
public struct CoverageRaster {
    public let width: Int
    public let height: Int
    /// `(width + 2)` cells per row: an edge at the right border writes one cell past it.
    var cells: [Float]
    var minY = Int.max, maxY = Int.min, minX = Int.max, maxX = Int.min

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = [Float](repeating: 0, count: (self.width + 2) * self.height)
    }

    /// Adds the closed polygon `points` (the last point joins the first).
    public mutating func addPolygon(_ points: [DevicePoint]) {
        guard points.count >= 2 else { return }
        var previous = points[points.count - 1]
        for p in points {
            addEdge(previous, p)
            previous = p
        }
    }

    /// Adds one edge, split where it leaves the canvas horizontally: the part left of the
    /// canvas is moved onto its left border (the winding it gives the pixels to its right
    /// is unchanged) and the part right of it onto the right border.
    public mutating func addEdge(_ a: DevicePoint, _ b: DevicePoint) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, a.y != b.y else { return }
        let w = Double(width)
        var xs: [Double] = []
        for border in [0, w] where (a.x < border) != (b.x < border) {
            xs.append((border - a.x) / (b.x - a.x))
        }
        if xs.isEmpty {
            accumulate(a.x.clamped(0, w), a.y, b.x.clamped(0, w), b.y)
            return
        }
        xs.sort()
        var t0 = 0.0
        for t1 in xs + [1] {
            let y0 = a.y + (b.y - a.y) * t0, y1 = a.y + (b.y - a.y) * t1
            let x0 = a.x + (b.x - a.x) * t0, x1 = a.x + (b.x - a.x) * t1
            // The split points lie on a border exactly: clamp away rounding.
            accumulate(x0.clamped(0, w), y0, x1.clamped(0, w), y1)
            t0 = t1
        }
    }

    mutating func accumulate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let direction: Double = y0 < y1 ? 1 : -1
        let (ax, ay, bx, by) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        // An edge a trillionth of a pixel tall covers nothing, and its slope could overflow.
        guard by - ay > 1e-12 else { return }
        let lowX = min(ax, bx), highX = max(ax, bx)
        let top = max(ay, 0), bottom = min(by, Double(height))
        guard top < bottom else { return }
        let dxdy = (bx - ax) / (by - ay)
        var x = (ax + (top - ay) * dxdy).clamped(lowX, highX)
        let firstRow = Int(top.rounded(.down)), lastRow = Int(bottom.rounded(.up))
        minY = min(minY, firstRow)
        maxY = max(maxY, lastRow - 1)
        let stride = width + 2
        cells.withUnsafeMutableBufferPointer { cells in
            for row in firstRow..<lastRow {
                let rowTop = max(Double(row), top), rowBottom = min(Double(row + 1), bottom)
                let dy = rowBottom - rowTop
                if dy <= 0 { continue }
                let xNext = (x + dxdy * dy).clamped(lowX, highX)
                let d = dy * direction
                let (left, right) = x < xNext ? (x, xNext) : (xNext, x)
                let leftFloor = left.rounded(.down)
                let li = Int(leftFloor)
                let rightCeil = right.rounded(.up)
                let ri = Int(rightCeil)
                let base = row * stride
                minX = min(minX, li)
                maxX = max(maxX, ri + 1)
                if ri <= li + 1 {
                    // Within one cell: the trapezoid right of the edge, by its mid x.
                    let mid = 0.5 * (x + xNext) - leftFloor
                    cells[base + li] += Float(d - d * mid)
                    cells[base + li + 1] += Float(d * mid)
                } else {
                    // Across cells: the area right of the edge grows linearly, then
                    // quadratically at the two partial cells.
                    let s = 1 / (right - left)
                    let leftFraction = left - leftFloor
                    let a0 = 0.5 * s * (1 - leftFraction) * (1 - leftFraction)
                    let rightFraction = right - rightCeil + 1
                    let am = 0.5 * s * rightFraction * rightFraction
                    cells[base + li] += Float(d * a0)
                    if ri == li + 2 {
                        cells[base + li + 1] += Float(d * (1 - a0 - am))
                    } else {
                        let a1 = s * (1.5 - leftFraction)
                        cells[base + li + 1] += Float(d * (a1 - a0))
                        if li + 2 < ri - 1 {
                            for xi in (li + 2)..<(ri - 1) { cells[base + xi] += Float(d * s) }
                        }
                        let a2 = a1 + Double(ri - li - 3) * s
                        cells[base + ri - 1] += Float(d * (1 - a2 - am))
                    }
                    cells[base + ri] += Float(d * am)
                }
                x = xNext
            }
        }
    }

    /// The pixels the next ``sweep(_:_:)`` can hand out (none outside it): what a canvas
    /// must have room for before it is filled.
    var pending: PixelBox {
        guard minY <= maxY else { return .empty }
        let box = PixelBox(x0: max(0, minX), y0: max(0, minY), x1: min(width, maxX), y1: min(height - 1, maxY) + 1)
        return box.isEmpty ? .empty : box
    }

    /// The area the accumulated polygons cover, in pixels, per row within `rows`, handed
    /// to `body(row, firstColumn, coverage)`; then clears what it read. Rows and columns
    /// no edge reached are skipped (coverage 0 there).
    public mutating func sweep(_ rule: FillRule, _ body: (_ row: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void) {
        guard minY <= maxY else { return }
        let stride = width + 2
        let x0 = max(0, minX), x1 = min(width, maxX)
        var line = [Float](repeating: 0, count: max(x1 - x0, 0))
        cells.withUnsafeMutableBufferPointer { cells in
            line.withUnsafeMutableBufferPointer { line in
                for row in max(0, minY)...min(height - 1, maxY) {
                    let base = row * stride
                    var sum: Float = 0
                    var any = false
                    for x in x0..<x1 {
                        sum += cells[base + x]
                        cells[base + x] = 0
                        var c = abs(sum)
                        if rule == .evenOdd {
                            c = c.truncatingRemainder(dividingBy: 2)
                            if c > 1 { c = 2 - c }
                        } else if c > 1 {
                            c = 1
                        }
                        // Accumulated rounding leaves ~1e-7 where nothing is.
                        if c < 1.0 / 4096 { c = 0 } else { any = true }
                        line[x - x0] = c
                    }
                    for x in x1..<min(stride, max(x1, maxX + 1)) { cells[base + x] = 0 }
                    if any { body(row, x0, UnsafeBufferPointer(line)) }
                }
            }
        }
        minY = .max; maxY = .min; minX = .max; maxX = .min
    }
}

extension Double {
    @inline(__always)
    func clamped(_ lo: Double, _ hi: Double) -> Double { self < lo ? lo : self > hi ? hi : self }
}
