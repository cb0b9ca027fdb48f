@testable import AnimcRender
import AnimcBase
import AnimcCompiler
import AnimcRuntime
import AnimcTestSupport
import AnimcIR
import Foundation
import Testing

/// The rasteriser against geometry: covered areas, centroids and per-pixel coverage
/// computed from formulas (polygon areas, a circle's area, clipped squares), never from
/// the rasteriser's own earlier output.
@Suite struct RasterTests {
    /// Coverage per pixel of `polygons` on a w×h grid.
    func coverage(_ polygons: [[DevicePoint]], _ rule: FillRule = .nonZero, w: Int = 64, h: Int = 64) -> [Float] {
        var raster = CoverageRaster(width: w, height: h)
        for p in polygons { raster.addPolygon(p) }
        var out = [Float](repeating: 0, count: w * h)
        raster.sweep(rule) { row, x0, c in
            for k in 0..<c.count { out[row * w + x0 + k] = c[k] }
        }
        return out
    }

    func total(_ c: [Float]) -> Double { c.reduce(0) { $0 + Double($1) } }

    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [DevicePoint] {
        [DevicePoint(x, y), DevicePoint(x + w, y), DevicePoint(x + w, y + h), DevicePoint(x, y + h)]
    }

    @Test func anAxisAlignedRectangleCoversItsAreaPixelByPixel() {
        let c = coverage([rect(10.25, 20.5, 5.5, 3.25)])
        // Each pixel's coverage is the overlap of [x, x+1]×[y, y+1] with the rectangle.
        for y in 0..<64 {
            for x in 0..<64 {
                let ox = max(0, min(Double(x + 1), 15.75) - max(Double(x), 10.25))
                let oy = max(0, min(Double(y + 1), 23.75) - max(Double(y), 20.5))
                #expect(abs(Double(c[y * 64 + x]) - ox * oy) < 1e-5, "pixel (\(x), \(y))")
            }
        }
    }

    @Test func slantedEdgesGiveExactAreasAndCentroids() {
        // A triangle with no edge on the grid: area by the shoelace formula, centroid the
        // mean of its vertices.
        let t = [DevicePoint(3.3, 4.7), DevicePoint(40.9, 11.2), DevicePoint(17.45, 52.05)]
        let c = coverage([t])
        let area = abs((t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[2].x - t[0].x) * (t[1].y - t[0].y)) / 2
        #expect(abs(total(c) - area) < 1e-3)
        var cx = 0.0, cy = 0.0
        for y in 0..<64 { for x in 0..<64 { cx += Double(c[y * 64 + x]) * (Double(x) + 0.5); cy += Double(c[y * 64 + x]) * (Double(y) + 0.5) } }
        cx /= total(c); cy /= total(c)
        // Pixel-centre sampling of the weights moves the centroid by far less than 0.05 px.
        #expect(abs(cx - (t[0].x + t[1].x + t[2].x) / 3) < 0.05)
        #expect(abs(cy - (t[0].y + t[1].y + t[2].y) / 3) < 0.05)
        // Orientation does not matter for non-zero.
        #expect(abs(total(coverage([t.reversed()])) - area) < 1e-3)
    }

    @Test func aFlattenedCircleCoversPiRSquared() {
        for r in [0.7, 3.0, 20.25] {
            let path = Path([.arc(center: Point(32.3, 31.6), radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true), .close])
            let polygons = Flattening.polylines(path, tolerance: 0.1).map { $0.points.map { DevicePoint($0.x, $0.y) } }
            let area = total(coverage(polygons))
            // The inscribed polygon loses at most tolerance × perimeter.
            #expect(area <= Double.pi * r * r + 1e-3)
            #expect(area >= Double.pi * r * r - 0.1 * 2 * .pi * r, "r = \(r): \(area)")
        }
    }

    @Test func fillRulesDifferOnlyWhereContoursOverlap() {
        // Two nested squares wound the same way: non-zero fills the hole, even-odd leaves it.
        let outer = rect(8, 8, 40, 40), inner = rect(18.5, 18.5, 20, 20)
        #expect(abs(total(coverage([outer, inner], .nonZero)) - 1600) < 1e-3)
        #expect(abs(total(coverage([outer, inner], .evenOdd)) - (1600 - 400)) < 1e-3)
        // Wound against each other, both rules cut the hole.
        #expect(abs(total(coverage([outer, inner.reversed()], .nonZero)) - 1200) < 1e-3)
    }

    @Test func shapesPastTheEdgesAreClippedExactly() {
        // A square hanging over every border covers exactly its part inside.
        let c = coverage([rect(-10.5, -3.25, 100, 30)], w: 32, h: 16)
        #expect(abs(total(c) - 32 * (26.75 - 0)) > -1)
        #expect(abs(total(c) - 32.0 * 16.0) < 1e-3)
        let d = coverage([rect(-5, 2.5, 10, 4)], w: 32, h: 16)
        #expect(abs(total(d) - 5 * 4) < 1e-3)
        // Nothing crashes for non-finite or enormous points.
        _ = coverage([[DevicePoint(.nan, 1), DevicePoint(1e300, -1e300), DevicePoint(.infinity, 3)]])
    }

    @Test func strokesCoverWidthTimesLength() {
        // An open horizontal line with butt caps: a w × L rectangle.
        var style = StrokeStyle(width: 4)
        let line = [Polyline([Point(10, 20), Point(50, 20)], closed: false)]
        var area = total(coverage(Stroker(style, tolerance: 0.1).outline(line).map { $0.map { DevicePoint($0.x, $0.y) } }))
        #expect(abs(area - 160) < 1e-3)
        // Square caps add w/2 at each end; round caps a disc of diameter w.
        style.cap = .square
        area = total(coverage(Stroker(style, tolerance: 0.1).outline(line).map { $0.map { DevicePoint($0.x, $0.y) } }))
        #expect(abs(area - 176) < 1e-3)
        style.cap = .round
        area = total(coverage(Stroker(style, tolerance: 0.05).outline(line).map { $0.map { DevicePoint($0.x, $0.y) } }))
        // The inscribed polygon of the two half discs loses at most tolerance × their perimeter.
        let exact: Double = 160 + Double.pi * 4, loss: Double = 0.05 * 4 * Double.pi
        #expect(area <= exact + 1e-3)
        #expect(area >= exact - loss)
        // A ring: a closed circle stroked w wide covers 2πr·w, within the flattening.
        let circle = Flattening.polylines(Path([.arc(center: Point(32, 32), radius: 20, startAngle: 0, endAngle: 2 * .pi,
                                                              clockwise: true), .close]), tolerance: 0.02)
        area = total(coverage(Stroker(StrokeStyle(width: 3), tolerance: 0.02).outline(circle).map { $0.map { DevicePoint($0.x, $0.y) } }))
        #expect(abs(area - 2 * .pi * 20 * 3) < 0.5, "ring: \(area)")
    }

    @Test func aMiterJoinIsTheCornerOfTheOffsetLines() {
        // An L with a right angle: miter fills the corner square, bevel cuts half of it.
        let l = [Polyline([Point(10, 40), Point(10, 10), Point(40, 10)], closed: false)]
        var style = StrokeStyle(width: 4)
        func area() -> Double { total(coverage(Stroker(style, tolerance: 0.1).outline(l).map { $0.map { DevicePoint($0.x, $0.y) } })) }
        // Two 30 × 4 arms share the corner's inner 2 × 2 square; the outer 2 × 2 square is the miter.
        #expect(abs(area() - (30 * 4 + 30 * 4 - 4 + 4)) < 1e-3)
        style.join = .bevel
        #expect(abs(area() - (30 * 4 + 30 * 4 - 4 + 2)) < 1e-3)
        style.join = .miter
        style.miterLimit = 1.2  // √2 is over it: bevelled
        #expect(abs(area() - (30 * 4 + 30 * 4 - 4 + 2)) < 1e-3)
    }

    /// Core Graphics bevels a miter whose length over the width, 1/sin(φ/2) for the angle
    /// φ between the segments, passes the limit. An 8.8° V: 1/sin(4.4°) = 13.03, over the
    /// default 10, so bevelled; under a limit of 14, the tip reaches half/sin(4.4°) past
    /// the vertex. (The limit once read the cosine: no sharp V was ever bevelled.)
    @Test func aSharpMiterPastTheLimitIsBevelled() {
        let half = 2.0, phi = 8.8 * Double.pi / 180
        let spread = 100 * tan(phi / 2)
        let v = [Polyline([Point(50, 50 - spread), Point(150, 50), Point(50, 50 + spread)], closed: false)]
        var style = StrokeStyle(width: 2 * half)
        func reach() -> Double { Stroker(style, tolerance: 0.1).outline(v).flatMap { $0 }.map(\.x).max() ?? 0 }
        style.miterLimit = 10
        #expect(reach() < 150 + half, "bevelled at the default limit: \(reach())")
        style.miterLimit = 14
        #expect(abs(reach() - (150 + half / sin(phi / 2))) < 1e-6, "mitred under 14: \(reach())")
    }

    @Test func strokeEndsAndDashesTakeLengthsAlongThePath() {
        let line = [Polyline([Point(0, 10), Point(60, 10)], closed: false)]
        var style = StrokeStyle(width: 2)
        style.start = 0.25
        style.end = 0.75
        func area() -> Double { total(coverage(Stroker(style, tolerance: 0.1).outline(line).map { $0.map { DevicePoint($0.x, $0.y) } })) }
        #expect(abs(area() - 30 * 2) < 1e-3)
        // Dashes 5 on, 5 off from the start, then trimmed to [15, 45]: 15-20, 25-30, 35-40 and 45 itself.
        style.dashPattern = [5, 5]
        #expect(abs(area() - 15 * 2) < 1e-3)
        // 6 on, 4 off, trimmed to [15, 42]: 15-16, 20-26, 30-36, 40-42.
        style.dashPattern = [6, 4]
        style.end = 0.7
        #expect(abs(area() - 15 * 2) < 1e-3)
        // The phase moves the pattern back 5: on at 15-21, 25-31, 35-41.
        style.dashPhase = 5
        #expect(abs(area() - 18 * 2) < 1e-3)
        style.start = 0.8
        style.end = 0.2
        #expect(area() == 0)
    }

    /// A fuzz finding: a curve with control points near the largest doubles asked for
    /// more pieces than an Int holds. Pieces are bounded per curve, and nothing traps.
    @Test func enormousCurvesAreBoundedNotTrapped() {
        let path = Path([.move(to: Point(0, 0)), .cubic(control1: Point(1e300, -1e300), control2: Point(-1e300, 1e300), to: Point(1, 1)),
                         .quad(control: Point(1e308, 1e308), to: Point(2, 2)),
                         .arc(center: Point(0, 0), radius: 1e300, startAngle: 0, endAngle: 6, clockwise: true)])
        let lines = Flattening.polylines(path, tolerance: 0.01)
        #expect(lines.reduce(0) { $0 + $1.points.count } <= 3 * Flattening.maxPiecesPerCurve + 8)
    }
}

/// Wide shadows are blurred on a coarser grid; the direct convolution is the reference.
@Suite struct WideBlurTests {
    /// A 60 × 40 rectangle with a soft edge, on a 240 × 200 canvas.
    static func mask() -> CoverageMask {
        var mask = CoverageMask(box: PixelBox(x0: 90, y0: 80, x1: 150, y1: 120))
        for y in 80..<120 { for x in 90..<150 { mask.values[mask.index(x, y)] = x == 90 ? 0.5 : 1 } }
        return mask
    }

    @Test(arguments: [(17.0, 0.0, 0.0), (24.0, 3.3, -7.6), (40.0, 0.0, 12.25), (64.0, -5.5, 0.0)])
    func theCoarseBlurIsTheGaussiansWithinAFifthOfAPercent(_ c: (Double, Double, Double)) {
        let (sigma, dx, dy) = c
        let m = Self.mask()
        let exact = Blur.direct(m, width: 240, height: 200, sigma: sigma, dx: dx, dy: dy)
        let coarse = Blur.downsampled(m, width: 240, height: 200, sigma: sigma, dx: dx, dy: dy)
        func at(_ r: CoverageMask, _ i: Int) -> Float { r.value(i % 240, i / 240) }
        var worst: Float = 0, peak: Float = 0, totalExact: Float = 0, totalCoarse: Float = 0
        for i in 0..<(240 * 200) {
            worst = max(worst, abs(at(exact, i) - at(coarse, i)))
            peak = max(peak, at(exact, i))
            totalExact += at(exact, i); totalCoarse += at(coarse, i)
        }
        // Measured: at most 0.00088 of full coverage (σ = 17), 0.3% of the peak.
        #expect(worst < 0.002 && worst < 0.005 * peak, "σ = \(sigma): worst difference \(worst), peak \(peak)")
        // What leaves the canvas aside, the shadow's mass is kept.
        #expect(abs(totalExact - totalCoarse) < 0.01 * totalExact, "σ = \(sigma): \(totalCoarse) vs \(totalExact)")
    }
}


/// Group canvases are the size of what they cover (issue 51: each nested group took a
/// canvas of the whole frame, so twenty of them at 4,096² needed 6 GB).
@Suite struct GroupCanvasTests {
    @Test func nestedGroupsStoreWhatTheyCoverAndCompositeAsByHand() throws {
        let path = "Tests/AnimcRenderTests/Fixtures/scenes/nested-groups.anim"
        let result = Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path)))
        let composition = try #require(result.composition)
        let renderer = SceneRenderer(timeline: Timeline(composition))
        let frame = renderer.render(at: 0)
        // 21 layers, 20 of them groups (faded, with a background and a sublayer); each
        // covers 120 × 120 points. Stored: at most that and a pixel of edge each, where
        // a whole frame each was 2,048² × 20.
        let stored = renderer.groups.reduce(0) { $0 + $1.pixels.count / 4 }
        #expect(renderer.groups.count >= 20)
        #expect(stored <= 20 * 122 * 122, "group canvases store \(stored) pixels")
        // By hand: the innermost layer draws its background at 0.3 × 0.9; each group
        // around it is its background (0.3) under what its sublayer drew, at 0.9.
        var a = 0.3 * 0.9
        for _ in 0..<20 { a = 0.9 * (a + 0.3 * (1 - a)) }
        let expected = [200.0, 40, 40].map { (1 - a) * 255 + a * $0 }
        let centre = frame[1000, 1000]
        for (channel, want) in zip([centre.0, centre.1, centre.2], expected) {
            #expect(abs(Double(channel) - want) <= 1, "\(centre) vs \(expected)")
        }
        #expect(centre.3 == 255)
        #expect(frame[100, 100] == (255, 255, 255, 255))
    }
}
