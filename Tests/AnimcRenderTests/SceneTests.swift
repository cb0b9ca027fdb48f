import AnimcBase
import AnimcCompiler
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
import AnimcTestSupport
import Foundation
import Testing

/// Whole scenes (Tests/AnimcRenderTests/Fixtures/scenes) against what geometry says they
/// cover: areas of rounded rectangles, annuli and projected quads, centroids, and colours
/// composited by hand. Each expectation is computed here from the scene's numbers.
@Suite struct SceneTests {
    func render(_ name: String, scale: Double = 1, at t: Double = 0, images: [String: Bitmap] = [:]) throws -> Bitmap {
        let path = "Tests/AnimcRenderTests/Fixtures/scenes/\(name).anim"
        let result = Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path)))
        let composition = try #require(result.composition, "\(name) compiles")
        var options = RenderOptions(scale: scale)
        options.images = images
        return SceneRenderer(timeline: Timeline(composition), options: options).render(at: t)
    }

    /// Σ alpha, in pixels.
    func coverage(_ b: Bitmap) -> Double {
        stride(from: 3, to: b.pixels.count, by: 4).reduce(0.0) { $0 + Double(b.pixels[$1]) / 255 }
    }

    func centroid(_ b: Bitmap) -> (Double, Double) {
        var sx = 0.0, sy = 0.0, total = 0.0
        for y in 0..<b.height {
            for x in 0..<b.width {
                let a = Double(b[x, y].3) / 255
                sx += a * (Double(x) + 0.5); sy += a * (Double(y) + 0.5); total += a
            }
        }
        return (sx / total, sy / total)
    }

    @Test func aRingsEdgePixelsHaveTheAnnulussArea() throws {
        let image = try render("ring")
        let r0 = 1.37 * 29, r1 = 1.37 * 31
        var worst = 0.0
        for y in 0..<120 {
            for x in 0..<120 {
                let d = hypot(Double(x) + 0.5 - 60, Double(y) + 0.5 - 60)
                guard d > r0 - 1.5, d < r1 + 1.5 else { continue }
                // The pixel's area inside the annulus, by 32 × 32 samples (error < 1/32 on one edge).
                var inside = 0
                for j in 0..<32 {
                    for i in 0..<32 {
                        let dx = Double(x) + (Double(i) + 0.5) / 32 - 60, dy = Double(y) + (Double(j) + 0.5) / 32 - 60
                        let q = dx * dx + dy * dy
                        if q >= r0 * r0, q <= r1 * r1 { inside += 1 }
                    }
                }
                worst = max(worst, abs(Double(image[x, y].0) / 255 - Double(inside) / 1024))
            }
        }
        // Headless Chromium's SVG stroke of the same ring is off by up to 0.27 (docs/render.md).
        #expect(worst < 0.05, "the largest per-pixel error is \(worst)")
    }

    @Test func aTurnedRectangleKeepsItsAreaAndCentre() throws {
        let image = try render("rotated-rect")
        #expect(abs(coverage(image) - 30.5 * 17.25 * 0.6) < 0.005 * 30.5 * 17.25)
        let (cx, cy) = centroid(image)
        #expect(abs(cx - 47.3) < 0.02 && abs(cy - 38.9) < 0.02, "centroid (\(cx), \(cy))")
        // At twice the scale: four times the pixels, the same centre in points.
        let double = try render("rotated-rect", scale: 2)
        #expect(double.width == 200 && double.height == 160)
        #expect(abs(coverage(double) - 4 * 30.5 * 17.25 * 0.6) < 0.005 * 4 * 30.5 * 17.25)
        let (dx, dy) = centroid(double)
        #expect(abs(dx / 2 - 47.3) < 0.02 && abs(dy / 2 - 38.9) < 0.02)
    }

    @Test func opacityIsAppliedToTheGroupAsAWhole() throws {
        let image = try render("group-opacity")
        func rgb(_ x: Int, _ y: Int) -> [Int] { let p = image[x, y]; return [Int(p.0), Int(p.1), Int(p.2)] }
        // Over white at half strength: 255 · 0.5 + 255 · 0.5 and 0 · 0.5 + 255 · 0.5.
        #expect(rgb(12, 20) == [128, 128, 255])  // a alone
        #expect(rgb(25, 20) == [255, 128, 128])  // b over a: b alone, not b over half of a
        #expect(rgb(38, 20) == [255, 128, 128])  // b alone
        #expect(rgb(55, 5) == [255, 255, 255])
    }

    /// Black at 0.5 × 0.5 over white is 255 · 0.75; the plain layer at 0.5 is 255 · 0.5.
    /// (A faded layer with one sublayer and nothing of its own once drew it opaque.)
    @Test func aSublayerCarriesItsAncestorsOpacity() throws {
        let image = try render("inherited-opacity")
        func grey(_ x: Int, _ y: Int) -> Int { Int(image[x, y].0) }
        #expect(abs(grey(10, 10) - 191) <= 1)
        #expect(abs(grey(30, 10) - 128) <= 1)
        #expect(grey(2, 2) == 255)
    }

    /// A replicator's tint, drawn: each dot's fill (0.8, 0.4, 0.2) times copy k's
    /// multiplier (1 − k/4, 128/255 + k/4 clamped, 1), rounded to 8 bits by hand.
    @Test func aReplicatorsCopiesAreDrawnTinted() throws {
        let image = try render("replicator-tint")
        let g = 128.0 / 255
        for k in 0..<4 {
            let m = (1 - 0.25 * Double(k), min(g + 0.25 * Double(k), 1), 1.0)
            let expected = [0.8 * m.0, 0.4 * m.1, 0.2 * m.2].map { Int(($0 * 255).rounded()) }
            let p = image[25 + 50 * k, 20]
            let drawn = [Int(p.0), Int(p.1), Int(p.2)]
            #expect(zip(drawn, expected).allSatisfy { abs($0 - $1) <= 1 }, "copy \(k): \(drawn), expected \(expected)")
        }
    }

    @Test func masksToBoundsClipsToTheRoundedBounds() throws {
        let image = try render("clip-rounded")
        let area = 60.0 * 40 - (4 - Double.pi) * 100
        // The corners' inscribed polygons lose at most the tolerance (0.01 px) times their
        // length, 2π · 10; rounding to 8 bits moves each edge pixel by at most 1/510.
        #expect(coverage(image) <= area + 0.3)
        #expect(coverage(image) >= area - 0.01 * 2 * Double.pi * 10 - 0.3, "\(coverage(image)) vs \(area)")
        #expect(image[10, 5].3 == 0)  // the cut corner
        #expect(image[40, 30].3 == 255)
    }

    /// The shape's path and the gradient are each clipped to the rounded bounds: the
    /// coverage of each half is the rounded rectangle's area (it was 80 · 60 and 60 · 40).
    @Test func masksToBoundsClipsTheLayersOwnContents() throws {
        let image = try render("clip-own-contents")
        let area = 60.0 * 40 - (4 - Double.pi) * 100
        func half(_ x0: Int) -> Double {
            var total = 0.0
            for y in 0..<image.height { for x in x0..<(x0 + 80) { total += Double(image[x, y].3) / 255 } }
            return total
        }
        for (name, x0) in [("shape", 0), ("gradient", 80)] {
            #expect(abs(half(x0) - area) <= 0.01 * 2 * Double.pi * 10 + 0.3, "\(name): \(half(x0)) vs \(area)")
        }
        #expect(image[10, 10].3 == 0)  // outside the shape's bounds, inside its path
        #expect(image[91, 11].3 == 0)  // the gradient's cut corner
    }

    /// Siblings are drawn sorted by zPosition, ties in declaration order (they were
    /// drawn in declaration order whatever their zPosition).
    @Test func zPositionOrdersSiblings() throws {
        let image = try render("z-order")
        func rgb(_ x: Int, _ y: Int) -> [Int] { let p = image[x, y]; return [Int(p.0), Int(p.1), Int(p.2)] }
        #expect(rgb(25, 20) == [255, 0, 0])   // red (z 1) over blue where they overlap
        #expect(rgb(35, 20) == [0, 0, 255])   // blue alone
        #expect(rgb(47, 35) == [255, 255, 0]) // yellow after green, both z 2
        #expect(rgb(42, 35) == [0, 255, 0])
    }

    @Test func aMaskShowsWhereItsStrokeDraws() throws {
        let image = try render("ring-mask")
        let area = Double.pi * (35 * 35 - 25 * 25)
        #expect(abs(coverage(image) - area) < 0.005 * area, "\(coverage(image)) vs \(area)")
        #expect(image[50, 50].3 == 0)  // the disc's centre is outside the mask's stroke
        #expect(image[50, 20].0 == 255 && image[50, 20].3 == 255)
    }

    @Test func bordersAreDrawnInsideTheBounds() throws {
        let image = try render("border")
        // The inner edges cross pixels at their middles: 112 pixels, each rounded by 1/510.
        #expect(abs(coverage(image) - (40 * 30 - (40 - 7) * (30 - 7))) < 112.0 / 510)
        #expect(image[9, 9].3 == 0 && image[10, 10].3 == 255 && image[30, 25].3 == 0)
    }

    @Test func evenOddLeavesTheInnerSquareEmpty() throws {
        let image = try render("even-odd")
        #expect(abs(coverage(image) - (2500 - 400)) < 0.05)
        #expect(image[25, 25].3 == 0 && image[10, 10].3 == 255)
    }

    @Test func anAxialGradientInterpolatesAlongItsAxis() throws {
        let image = try render("gradient")
        for y in [0, 13, 50, 77, 99] {
            let t = (Double(y) + 0.5) / 100
            let p = image[20, y]
            #expect(abs(Double(p.0) - 255 * (1 - t)) <= 1 && p.1 == 0 && abs(Double(p.2) - 255 * t) <= 1, "row \(y): \(p)")
        }
    }

    @Test func aLayerInPerspectiveCoversItsProjectedQuad() throws {
        let image = try render("perspective")
        // Corners (±20, ±20) turned by 50° about y, then m34 = −1/150: x' = x cos θ / w,
        // y' = y / w with w = 1 + x sin θ / 150 (the sign of the turn mirrors the quad,
        // which keeps its area).
        let theta = 50 * Double.pi / 180
        let corners = [(-20.0, -20.0), (20.0, -20.0), (20.0, 20.0), (-20.0, 20.0)].map { (x, y) -> (Double, Double) in
            let w = 1 + x * sin(theta) / 150
            return (x * cos(theta) / w + 50, y / w + 50)
        }
        var area = 0.0
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            area += a.0 * b.1 - b.0 * a.1
        }
        area = abs(area) / 2
        #expect(abs(coverage(image) - area) < 0.002 * area, "\(coverage(image)) vs \(area)")
    }

    @Test func aShadowIsTheLayersAlphaBlurredByAGaussian() throws {
        let image = try render("shadow")
        // Below the square, down the middle, the shadow's edge at y = 110: a pixel centred
        // at y shows Φ((110 − y)/σ) of black over white, σ = shadowRadius = 3.
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        for row in [100, 106, 109, 110, 112, 116] {
            let expected = 255 * (1 - phi((110 - (Double(row) + 0.5)) / 3))
            #expect(abs(Double(image[50, row].0) - expected) <= 6, "row \(row): \(image[50, row].0) vs \(expected)")
        }
        // The square itself is drawn over its shadow; far from both is the background.
        #expect(image[50, 40].0 == 255 && image[5, 130].0 == 255)
    }

    @Test func imagesAreStretchedOrCentredAndFilteredBilinearly() throws {
        let quads = try PNG.decode(Repository.bytes("Tests/AnimcRenderTests/Fixtures/scenes/assets/quads.png"))
        let image = try render("image", images: ["quads": quads]).straightened()
        func px(_ x: Int, _ y: Int) -> [Int] { let p = image[x, y]; return [Int(p.0), Int(p.1), Int(p.2), Int(p.3)] }
        // Stretched: each quadrant's outer corner is its pixel's colour exactly.
        #expect(px(5, 5) == [255, 0, 0, 255] && px(44, 5) == [0, 255, 0, 255] && px(5, 44) == [0, 0, 255, 255])
        #expect(px(44, 44) == [255, 255, 255, 128])
        // The middle pixel (centre 25.5, 25.5) is the premultiplied mean of the four, a
        // little past the middle: weights 0.5 ± 0.025 each way (computed by hand).
        let w0 = 0.475 * 0.475, w1 = 0.525 * 0.475, w3 = 0.525 * 0.525
        let a = 255 * (w0 + 2 * w1) + 128 * w3
        let r = (255 * w0 + 128 * w3) / a * 255
        #expect(abs(Double(px(25, 25)[3]) - a) <= 1 && abs(Double(px(25, 25)[0]) - r) <= 2, "\(px(25, 25)) vs r \(r), a \(a)")
        // Natural size, centred: two points square around (75, 25).
        #expect(px(74, 24) == [255, 0, 0, 255] && px(75, 25) == [255, 255, 255, 128])
        #expect(px(73, 24)[3] == 0 && px(76, 26)[3] == 0)
    }

    @Test func radialAndConicGradientsFollowTheirGeometry() throws {
        let image = try render("gradients")
        func check(_ x: Int, _ y: Int, _ t: Double) {
            let p = image[x, y]
            #expect(abs(Double(p.0) - 255 * (1 - t)) <= 1 && abs(Double(p.2) - 255 * t) <= 1, "(\(x), \(y)): \(p), t \(t)")
        }
        // Radial: t is the distance from the centre over 50 (startPoint to endPoint, per axis).
        for (x, y) in [(75, 50), (50, 60), (20, 30), (95, 95)] {
            check(x, y, min(1, hypot(Double(x) + 0.5 - 50, Double(y) + 0.5 - 50) / 50))
        }
        // Conic: t is the angle clockwise from +x (y down) over a turn, around (150, 50).
        for (x, y) in [(170, 50), (150, 75), (125, 60), (160, 20)] {
            var a = atan2(Double(y) + 0.5 - 50, Double(x) + 0.5 - 150)
            if a < 0 { a += 2 * Double.pi }
            check(x, y, a / (2 * Double.pi))
        }
    }

    @Test func strokeEndDrawsThatShareOfThePathsLength() throws {
        let image = try render("stroke-end")
        // (21² − 19²) · (π/2) / 2, less what the flattening's chords may lose (0.01 px
        // times the sector's outline, about 70 px).
        let area = (21.0 * 21 - 19 * 19) * Double.pi / 4
        #expect(abs(coverage(image) - area) < 0.01 * 70 + 0.2, "\(coverage(image)) vs \(area)")
    }
}
