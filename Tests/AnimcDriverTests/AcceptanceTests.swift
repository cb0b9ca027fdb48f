import AnimcBase
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcTestSupport
import AnimcTimeline
import Foundation
import Testing

/// The five scenarios of scenarios.md and the two ported indicators, end to end: each
/// example is built by the CLI to
/// timeline JSON, loaded back as an app would, and its checkable behaviours are
/// compared with values computed here independently (the cubic-Bézier formula, a
/// separately written arc length, the spring and decay closed forms, hand-derived
/// switch times), with stated tolerances.
@Suite struct AcceptanceTests {
    /// `animc build examples/NAME.anim`, then load the written timeline.
    static func built(_ name: String) -> Timeline? {
        let fs = InMemoryFileSystem(["examples/\(name).anim": Repository.bytes("examples/\(name).anim")])
        let status = CommandLineTool(fileSystem: fs, console: CapturingConsole()).run(["build", "examples/\(name).anim"])
        guard status == 0, let bytes = fs["examples/\(name).timeline.json"], let c = try? TimelineLoader.load(bytes) else { return nil }
        return Timeline(c)
    }

    // MARK: Independent references

    /// y at x of cubic-bezier(x1, y1, x2, y2), by bisection on x(t).
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        while hi - lo > 1e-15 { let m = (lo + hi) / 2; if b(x1, x2, m) < x { lo = m } else { hi = m } }
        return b(y1, y2, (lo + hi) / 2)
    }

    static func number(_ t: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Double {
        if case .number(let x)? = t.value(keyPath, layer: layer, at: time) { return x }
        return .nan
    }

    static func point(_ t: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Point {
        if case .point(let p)? = t.value(keyPath, layer: layer, at: time) { return p }
        return Point(.nan, .nan)
    }

    // MARK: 1. splash

    static let D = 3.0, d = 0.5

    /// The circle's strokeEnd follows the group's local time ((t + 0.7·D) mod D): the
    /// keyframes run 0 → 1 over D − d with the strokeEnd curve, then the model value 1.
    @Test func splashStrokeEndFollowsTheGroupsLocalTime() throws {
        let t = try #require(Self.built("splash"))
        for k in 0..<120 {
            let time = 0.013 + Double(k) * 0.05
            let local = (time + 0.7 * Self.D).truncatingRemainder(dividingBy: Self.D)
            let expected = local <= Self.D - Self.d ? Self.bezier(1, 0, 0.35, 1, local / (Self.D - Self.d)) : 1
            #expect(abs(Self.number(t, "logo.circle", "strokeEnd", time) - expected) < 1e-9, "t = \(time)")
        }
    }

    /// The mask collapses from a 2r square to a 2/3·L square during the last d of each cycle.
    @Test func splashMaskCollapsesDuringTheLastPartOfEachCycle() throws {
        let t = try #require(Self.built("splash"))
        for k in 0..<90 {
            let time = 0.007 + Double(k) * 0.1
            let local = (time + 0.7 * Self.D).truncatingRemainder(dividingBy: Self.D)
            var expected = 75.0
            if local >= Self.D - Self.d {
                expected = 75 + (2.0 / 3 * 21 - 75) * Self.bezier(0.65, 0, 0.40, 1, (local - (Self.D - Self.d)) / Self.d)
            }
            guard case .rect(let r)? = t.value("bounds", layer: "logo.logoMask", at: time) else { Issue.record("no bounds"); return }
            #expect(abs(r.width - expected) < 1e-9 && abs(r.height - expected) < 1e-9, "t = \(time)")
        }
    }

    /// Tiles farther from the centre start later by exactly 0.0006666 s per point.
    @Test func splashTilesStartLaterByTheirDistance() throws {
        let t = try #require(Self.built("splash"))
        var checked = 0
        for info in t.animations where info.ancestors.isEmpty && info.path == "ripple" {
            let layer = t.composition.layers[info.layer]
            guard case .point(let p) = layer.modelValue(.position) else { continue }
            #expect(abs(info.timing.beginTime - 0.0006666 * (p.x * p.x + p.y * p.y).squareRoot()) < 1e-12, "\(layer.id)")
            checked += 1
        }
        #expect(checked == 135)
    }

    /// Before its delay a tile shows its group's first frame, the content at the
    /// timeOffset (backwards fill): opacity about 0.625, not the model value 1.
    @Test func splashTilesShowTheirFirstFrameBeforeTheirDelay() throws {
        let t = try #require(Self.built("splash"))
        // Local time 0.35·D is fraction 0.35 of the opacity keyframes, inside the first
        // segment (0 → 1 over [0, 0.61]) with easeInEaseOut.
        let expected = Self.bezier(0.42, 0, 0.58, 1, 0.35 / 0.61)
        #expect(abs(expected - 0.625) < 0.01)
        let corner = "grid.tile[0,0]"
        let delay = 0.0006666 * (200.0 * 200 + 350 * 350).squareRoot()
        for time in [0.0, delay / 2, delay - 1e-6] {
            #expect(abs(Self.number(t, corner, "opacity", time) - expected) < 1e-9, "t = \(time)")
        }
        // And just after the delay the content continues from there, without a jump.
        #expect(abs(Self.number(t, corner, "opacity", delay + 1e-6) - expected) < 1e-4)
    }

    // MARK: 2. follow-path

    static let W = 350.0, H = 300.0
    static let cubics: [(Point, Point, Point, Point)] = [
        (Point(W / 4, 3 * H / 4), Point(0, 3 * H / 4), Point(0, H / 4), Point(W / 4, H / 4)),
        (Point(W / 4, H / 4), Point(W / 2, H / 4), Point(W / 2, 3 * H / 4), Point(3 * W / 4, 3 * H / 4)),
        (Point(3 * W / 4, 3 * H / 4), Point(W, 3 * H / 4), Point(W, H / 4), Point(3 * W / 4, H / 4)),
        (Point(3 * W / 4, H / 4), Point(W / 2, H / 4), Point(W / 2, 3 * H / 4), Point(W / 4, 3 * H / 4)),
    ]

    /// A dense polyline of the figure eight: (arc length, point, tangent angle).
    static let polyline: [(Double, Point, Double)] = {
        var out: [(Double, Point, Double)] = []
        var length = 0.0
        var previous: Point?
        for c in cubics {
            for j in 0...40_000 {
                let s = Double(j) / 40_000, u = 1 - s
                let p = Point(u * u * u * c.0.x + 3 * u * u * s * c.1.x + 3 * u * s * s * c.2.x + s * s * s * c.3.x,
                              u * u * u * c.0.y + 3 * u * u * s * c.1.y + 3 * u * s * s * c.2.y + s * s * s * c.3.y)
                let dx = 3 * u * u * (c.1.x - c.0.x) + 6 * u * s * (c.2.x - c.1.x) + 3 * s * s * (c.3.x - c.2.x)
                let dy = 3 * u * u * (c.1.y - c.0.y) + 6 * u * s * (c.2.y - c.1.y) + 3 * s * s * (c.3.y - c.2.y)
                if let q = previous { length += hypot(p.x - q.x, p.y - q.y) }
                out.append((length, p, atan2(dy, dx)))
                previous = p
            }
        }
        return out
    }()

    static func along(_ s: Double) -> (Point, Double) {
        var lo = 0, hi = polyline.count - 1
        while hi - lo > 1 { let m = (lo + hi) / 2; if polyline[m].0 <= s { lo = m } else { hi = m } }
        let a = polyline[lo], b = polyline[hi]
        let f = b.0 > a.0 ? (s - a.0) / (b.0 - a.0) : 0
        return (Point(a.1.x + (b.1.x - a.1.x) * f, a.1.y + (b.1.y - a.1.y) * f), a.2)
    }

    /// At fraction f the airplane is at the point at arc length f·L, heading along the
    /// tangent there, and it moves at constant speed.
    @Test func followPathPositionHeadingAndSpeed() throws {
        let t = try #require(Self.built("follow-path"))
        let total = Self.polyline.last!.0
        let index = try #require(t.layerIndex("airplane"))
        var previous: Point?
        for k in 0..<80 {
            let f = (Double(k) + 0.5) / 80
            let state = t.state(at: 4 * f)
            guard case .point(let p)? = t.value("position", layer: index, in: state) else { Issue.record("no position"); return }
            let (q, heading) = Self.along(f * total)
            #expect(hypot(p.x - q.x, p.y - q.y) < 1e-3, "f = \(f)")
            #expect(abs(remainder(t.motionAngle(ofLayer: index, in: state) - heading, 2 * .pi)) < 1e-3, "heading at f = \(f)")
            if let o = previous {
                // Equal times, equal distances along the path: the chord of 1/80 of the
                // path, which curvature shortens by well under a point.
                #expect(abs(hypot(p.x - o.x, p.y - o.y) - total / 80) < 1.0)
            }
            previous = p
        }
    }

    // MARK: 3. flip-card

    /// The back shows while the 3D angle is in [90°, 270°), the front otherwise, and each
    /// return to the front shows the next of five pictures: switches at 1 s, 3 s, 5 s, ...
    @Test func flipCardShowsTheRightFaceAtTheRightTime() throws {
        let t = try #require(Self.built("flip-card"))
        let front = try #require(t.layerIndex("frame.card.front")), back = try #require(t.layerIndex("frame.card.back"))
        var times: [Double] = []
        for k in 0..<10 {
            let edge = Double(2 * k + 1)
            times += [edge - 0.01, edge + 0.01]
        }
        for time in times {
            let state = t.state(at: time)
            let inFront = time.truncatingRemainder(dividingBy: 4) < 1 || time.truncatingRemainder(dividingBy: 4) >= 3
            #expect(state.effectiveOpacity(ofLayer: front) == (inFront ? 1 : 0), "front at \(time)")
            #expect(state.effectiveOpacity(ofLayer: back) == (inFront ? 0 : 1), "back at \(time)")
            if inFront {
                let picture = Int(((time + 1) / 4).rounded(.down)) % 5 + 1
                #expect(t.value("contents", layer: front, in: state) == .image("card-\(picture)"), "picture at \(time)")
            }
        }
    }

    /// The card's transform is rotation about (1, 5, 0), then perspective m34 = −1/320.
    @Test func flipCardMatrixIsRotationThenPerspective() throws {
        let t = try #require(Self.built("flip-card"))
        for time in [0.3, 1.7, 2.9, 6.1] {
            let angle = 2 * Double.pi * time.truncatingRemainder(dividingBy: 4) / 4
            let len = (1.0 + 25).squareRoot()
            let (x, y, z) = (1 / len, 5 / len, 0.0)
            let c = cos(angle), s = sin(angle), v = 1 - c
            // Rotation (row vectors, as CATransform3DMakeRotation), then perspective.
            let r: [[Double]] = [[c + x * x * v, x * y * v + z * s, x * z * v - y * s, 0],
                                 [x * y * v - z * s, c + y * y * v, y * z * v + x * s, 0],
                                 [x * z * v + y * s, y * z * v - x * s, c + z * z * v, 0],
                                 [0, 0, 0, 1]]
            var expected = r
            for i in 0..<4 { expected[i][3] = r[i][2] * (-1.0 / 320) + r[i][3] }
            guard case .transform(let tr)? = t.value("transform", layer: "frame.card", at: time),
                  case .matrix(let m)? = tr.functions.first else { Issue.record("no matrix"); return }
            let got = m.entries
            for i in 0..<16 { #expect(abs(got[i] - expected[i / 4][i % 4]) < 1e-12, "t = \(time) m\(i / 4 + 1)\(i % 4 + 1)") }
        }
    }

    // MARK: 4. scrub

    @Test func scrubTurnsTheLongWayAndScrubsAtFractions() throws {
        let t = try #require(Self.built("scrub"))
        let spin = try #require(t.animations(named: "spin").first)
        func degrees(_ s: SceneState?) -> Double {
            guard let s, case .number(let r)? = t.value("transform.rotation.z", layer: 0, in: s) else { return .nan }
            return r * 180 / .pi
        }
        #expect(abs(degrees(t.state(atFraction: 0.5, ofAnimation: spin.id, scrub: .timing)) - 187.5) < 1e-9)
        for f in [0.1, 0.25, 0.6, 0.9] {
            #expect(abs(degrees(t.state(atFraction: f, ofAnimation: spin.id, scrub: .timing)) - (15 + 345 * Self.bezier(0.42, 0, 0.58, 1, f))) < 1e-9)
            #expect(abs(degrees(t.state(atFraction: f, ofAnimation: spin.id, scrub: .linear)) - (15 + 345 * f)) < 1e-9)
        }
        // The presentation matrix turned the long way: at the middle it is upside down.
        let m = t.state(at: 1).matrix(ofLayer: 0)
        #expect(abs(m[0, 0] - cos(187.5 * .pi / 180)) < 1e-12 && abs(m[0, 1] - sin(187.5 * .pi / 180)) < 1e-12)
    }

    // MARK: 5. toss

    /// Decay then spring, against their closed forms; the end state equals the start.
    @Test func tossFollowsDecayThenSpringAndEndsWhereItStarted() throws {
        let t = try #require(Self.built("toss"))
        let center = Point(187.5, 333.5)
        let rate = 0.998
        func travelled(_ time: Double) -> Double { (pow(rate, 1000 * time) - 1) / (1000 * log(rate)) }
        for time in [0.05, 0.2, 0.35, 0.4] {
            let p = Self.point(t, "photo", "position", time)
            #expect(abs(p.x - (center.x + 1200 * travelled(time))) < 1e-9 && abs(p.y - (center.y - 800 * travelled(time))) < 1e-9)
            #expect(abs(Self.number(t, "photo", "transform.rotation.z", time) - 5 * travelled(time)) < 1e-9)
        }
        // The spring: perceptual duration 0.5 s, bounce 0.2 → ω0 = 2π/0.5, ζ = 0.8.
        let w0 = 2 * Double.pi / 0.5, zeta = 0.8, wd = w0 * (1 - zeta * zeta).squareRoot()
        func spring(_ tau: Double) -> Double { 1 - exp(-zeta * w0 * tau) * (cos(wd * tau) + zeta * w0 / wd * sin(wd * tau)) }
        let release = Point(center.x + 1200 * travelled(0.4), center.y - 800 * travelled(0.4))
        for time in [0.45, 0.6, 0.8, 1.0] {
            let x = spring(time - 0.4)
            let p = Self.point(t, "photo", "position", time)
            #expect(abs(p.x - (release.x + (center.x - release.x) * x)) < 1e-9 && abs(p.y - (release.y + (center.y - release.y) * x)) < 1e-9,
                    "t = \(time)")
            #expect(abs(Self.number(t, "photo", "transform.rotation.z", time) - 5 * travelled(0.4) * (1 - x)) < 1e-9)
        }
        // The end equals the start.
        let start = t.state(at: 0), end = t.state(at: 1.49)
        for keyPath in ["position", "bounds", "transform"] {
            #expect(t.value(keyPath, layer: 0, in: start) == t.value(keyPath, layer: 0, in: end), "\(keyPath)")
        }
    }

    // MARK: 6. ripple (NVActivityIndicatorView, staggered groups)

    /// Ring i's group starts 0.2·i s in and repeats every 1.25 s; its scale reaches 1 at
    /// 70% of the warped progress and holds, its opacity goes 1 → 0.7 → 0 on the same
    /// curve per segment. Before its group starts a ring shows its first frame.
    @Test func rippleRingsFollowTheirStaggeredGroups() throws {
        let t = try #require(Self.built("ripple"))
        let curve = (0.21, 0.53, 0.56, 0.8)
        func ease(_ x: Double) -> Double { Self.bezier(curve.0, curve.1, curve.2, curve.3, x) }
        for i in 0..<3 {
            for time in [0.05, 0.3, 0.61, 0.9, 1.2, 1.5, 2.0, 2.6] {
                let local = time - 0.2 * Double(i)
                let p = local < 0 ? 0 : (local / 1.25).truncatingRemainder(dividingBy: 1)
                let warped = ease(p)
                let scale = warped >= 0.7 ? 1 : warped / 0.7
                let opacity = p <= 0.7 ? 1 - 0.3 * ease(p / 0.7) : 0.7 * (1 - ease((p - 0.7) / 0.3))
                let id = "ring[\(i)]"
                #expect(abs(Self.number(t, id, "transform.scale", time) - scale) < 1e-9, "\(id) scale at \(time)")
                #expect(abs(Self.number(t, id, "opacity", time) - opacity) < 1e-9, "\(id) opacity at \(time)")
            }
        }
    }

    // MARK: 7. plane (SpinKit, 3D perspective)

    /// The square is a half turn about y at the middle of the first segment's curve
    /// and upside down (a half turn about y, then about z) at the end; the positive
    /// m34 of 1/120 sits after the rotation in every frame.
    @Test func planeFlipsWithItsPerspective() throws {
        let t = try #require(Self.built("plane"))
        func matrix(_ time: Double) -> [Double] {
            guard case .transform(let v)? = t.value("transform", layer: "spinner.plane", at: time),
                  case .matrix(let m)? = v.functions.first else { return [] }
            return m.entries
        }
        let m34 = 1.0 / 120
        // At 0.3 s the first segment's easeInEaseOut is at 0.5, a quarter turn about y.
        let quarter = matrix(0.3)
        let expectedQuarter: [Double] = [0, 0, -1, -m34, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
        #expect(quarter.count == 16 && zip(quarter, expectedQuarter).allSatisfy { abs($0 - $1) < 1e-12 }, "\(quarter)")
        // At 0.6 s a half turn about y: x and z reversed, perspective on the flipped z.
        let half = matrix(0.6)
        let expectedHalf: [Double] = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, -m34, 0, 0, 0, 1]
        #expect(half.count == 16 && zip(half, expectedHalf).allSatisfy { abs($0 - $1) < 1e-12 }, "\(half)")
        // At the end of a cycle, a half turn about z (a half turn about y, then x).
        let end = matrix(1.2 - 1e-9)
        let expectedEnd: [Double] = [-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, m34, 0, 0, 0, 1]
        #expect(end.count == 16 && zip(end, expectedEnd).allSatisfy { abs($0 - $1) < 1e-6 }, "\(end)")
    }
}
