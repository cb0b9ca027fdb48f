import AnimcIR
@testable import AnimcRuntime
import Foundation
import Testing

/// Motion along a path: arc length against an independent numerical integration, and
/// headings from the exact tangent.
@Suite struct MotionTests {
    static let W = 350.0, H = 300.0
    /// The scenario's figure eight.
    static let infinity = Path([
        .move(to: Point(W / 4, 3 * H / 4)),
        .cubic(control1: Point(0, 3 * H / 4), control2: Point(0, H / 4), to: Point(W / 4, H / 4)),
        .cubic(control1: Point(W / 2, H / 4), control2: Point(W / 2, 3 * H / 4), to: Point(3 * W / 4, 3 * H / 4)),
        .cubic(control1: Point(W, 3 * H / 4), control2: Point(W, H / 4), to: Point(3 * W / 4, H / 4)),
        .cubic(control1: Point(W / 2, H / 4), control2: Point(W / 2, 3 * H / 4), to: Point(W / 4, 3 * H / 4)),
    ])

    /// The reference: the cubic written out, its length by composite Simpson with 20,000
    /// intervals, and a dense table of (length, point) for finding the point at a length.
    struct Reference {
        var cubics: [(Point, Point, Point, Point)] = []
        var table: [(length: Double, point: Point)] = []

        init(_ path: Path) {
            var pen = Point(0, 0)
            for e in path.elements {
                switch e {
                case .move(let p): pen = p
                case .cubic(let c1, let c2, let p): cubics.append((pen, c1, c2, p)); pen = p
                default: break
                }
            }
            var length = 0.0
            var previous = Reference.point(cubics[0], 0)
            table.append((0, previous))
            for c in cubics {
                for j in 1...50_000 {
                    let p = Reference.point(c, Double(j) / 50_000)
                    length += hypot(p.x - previous.x, p.y - previous.y)
                    table.append((length, p))
                    previous = p
                }
            }
        }

        static func point(_ c: (Point, Point, Point, Point), _ t: Double) -> Point {
            let u = 1 - t
            return Point(u * u * u * c.0.x + 3 * u * u * t * c.1.x + 3 * u * t * t * c.2.x + t * t * t * c.3.x,
                         u * u * u * c.0.y + 3 * u * u * t * c.1.y + 3 * u * t * t * c.2.y + t * t * t * c.3.y)
        }

        static func simpsonLength(_ c: (Point, Point, Point, Point)) -> Double {
            func speed(_ t: Double) -> Double {
                let u = 1 - t
                let dx = 3 * u * u * (c.1.x - c.0.x) + 6 * u * t * (c.2.x - c.1.x) + 3 * t * t * (c.3.x - c.2.x)
                let dy = 3 * u * u * (c.1.y - c.0.y) + 6 * u * t * (c.2.y - c.1.y) + 3 * t * t * (c.3.y - c.2.y)
                return hypot(dx, dy)
            }
            let n = 20_000
            var sum = speed(0) + speed(1)
            for i in 1..<n { sum += (i % 2 == 1 ? 4 : 2) * speed(Double(i) / Double(n)) }
            return sum / Double(n) / 3
        }

        func point(atLength s: Double) -> Point {
            var lo = 0, hi = table.count - 1
            while lo < hi - 1 {
                let mid = (lo + hi) / 2
                if table[mid].length <= s { lo = mid } else { hi = mid }
            }
            let a = table[lo], b = table[hi]
            let f = b.length > a.length ? (s - a.length) / (b.length - a.length) : 0
            return Point(a.point.x + (b.point.x - a.point.x) * f, a.point.y + (b.point.y - a.point.y) * f)
        }
    }

    static let reference = Reference(infinity)

    @Test func segmentLengthsMatchSimpsonWithinOneMillionth() {
        let measured = MeasuredPath(Self.infinity)
        var total = 0.0
        for (i, c) in Self.reference.cubics.enumerated() {
            let expected = Reference.simpsonLength(c)
            total += expected
            #expect(close(measured.length(ofSegment: i), expected, 1e-6 * expected))
        }
        // Well inside the 1e-4 of the path length the runtime promises.
        #expect(close(measured.totalLength, total, 1e-4 * total * 1e-2))
    }

    /// At fraction f of a paced motion the layer sits at the point at arc length f·L.
    @Test func pacedMotionSitsAtTheArcLengthPoint() {
        let a = Build.property("position", Timing(duration: 4), .motion(Motion(path: Self.infinity, keyTimes: nil, calculationMode: .paced,
                                                                               rotationMode: .auto)))
        let t = Build.timeline([a], kind: .image)
        let total = Self.reference.table.last!.length
        for k in 0...20 {
            let f = Double(k) / 20
            let p = t.point("position", at: 4 * f)
            let q = Self.reference.point(atLength: f * total)
            #expect(hypot(p.x - q.x, p.y - q.y) < 1e-3, "f=\(f): \(p) vs \(q)")
        }
    }

    @Test func pacedMotionHasConstantSpeed() {
        let measured = MeasuredPath(Self.infinity)
        var previous: (Int, Double)?
        var lengths: [Double] = []
        for k in 0...100 {
            let loc = measured.location(atDistance: Double(k) / 100 * measured.totalLength)
            if let (s, t) = previous {
                // Length travelled between consecutive samples, measured independently.
                let a = measured.point(segment: s, t: t), b = measured.point(segment: loc.segment, t: loc.t)
                lengths.append(hypot(b.x - a.x, b.y - a.y))
            }
            previous = loc
        }
        let chord = lengths.reduce(0, +) / Double(lengths.count)
        // Chords of equal arcs: equal to within the curvature's chord error.
        #expect(lengths.allSatisfy { abs($0 - chord) < 0.02 * chord })
    }

    /// The heading is atan2 of the exact tangent, right in all four quadrants, and
    /// autoReverse adds half a turn.
    @Test func rotationModeInAllFourQuadrants() {
        for (dx, dy) in [(1.0, 0.0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)] {
            let path = Path([.move(to: Point(0, 0)), .line(to: Point(100 * dx, 100 * dy))])
            for (mode, offset) in [(RotationMode.auto, 0.0), (.autoReverse, Double.pi)] {
                let a = Build.property("position", Timing(duration: 1), .motion(Motion(path: path, keyTimes: nil, calculationMode: .paced, rotationMode: mode)))
                let t = Build.timeline([a])
                let angle = t.motionAngle(ofLayer: 0, in: t.state(at: 0.5))
                let expected = atan2(dy, dx) + offset
                #expect(close(remainder(angle - expected, 2 * .pi), 0, 1e-12), "(\(dx), \(dy)) \(mode)")
            }
        }
    }

    @Test func theHeadingFollowsTheCurvesTangent() {
        let measured = MeasuredPath(Self.infinity)
        for k in 1..<40 {
            let loc = measured.location(atDistance: Double(k) / 40 * measured.totalLength)
            let d = measured.tangent(segment: loc.segment, t: loc.t)
            // Central difference along the curve, independently of the derivative formula.
            let h = 1e-6
            let a = measured.point(segment: loc.segment, t: max(loc.t - h, 0)), b = measured.point(segment: loc.segment, t: min(loc.t + h, 1))
            #expect(close(remainder(atan2(d.y, d.x) - atan2(b.y - a.y, b.x - a.x), 2 * .pi), 0, 1e-5))
        }
    }

    @Test func arcsAreMeasuredExactly() {
        let arc = MeasuredPath(Path([.arc(center: Point(0, 0), radius: 10, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)]))
        #expect(close(arc.totalLength, 20 * .pi, 1e-12))
        let quarter = arc.location(atDistance: 5 * .pi)
        let p = arc.point(segment: quarter.segment, t: quarter.t)
        #expect(close(p.x, 10, 1e-9) && close(p.y, 0, 1e-9))   // a quarter turn clockwise from the top is the right
    }

    /// A whole turn between the angles is the whole circle in either direction, as Core
    /// Graphics draws NVActivityIndicatorView's rings (0 to 2π, counterclockwise).
    @Test func aWholeTurnIsTheWholeCircleEitherWay() {
        for clockwise in [true, false] {
            let ring = MeasuredPath(Path([.arc(center: Point(30, 30), radius: 30, startAngle: 0, endAngle: 2 * .pi, clockwise: clockwise)]))
            #expect(close(ring.totalLength, 60 * .pi, 1e-12), "clockwise: \(clockwise)")
            // A quarter of the way round: below the centre clockwise (y down), above it otherwise.
            let quarter = ring.location(atDistance: 15 * .pi)
            let p = ring.point(segment: quarter.segment, t: quarter.t)
            #expect(close(p.x, 30, 1e-9) && close(p.y, clockwise ? 60 : 0, 1e-9), "clockwise: \(clockwise): \(p)")
        }
        // Less than a whole turn still goes the short or long way as asked.
        #expect(close(PathGeometry.sweep(from: 0, to: .pi / 2, clockwise: false), -1.5 * .pi, 1e-12))
        #expect(close(PathGeometry.sweep(from: 0, to: -.pi / 2, clockwise: true), 1.5 * .pi, 1e-12))
    }

    @Test func linearModeGivesEachSegmentAnEqualShareOfTime() {
        let path = Path([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 100))])
        let a = Build.property("position", Timing(duration: 2), .motion(Motion(path: path, keyTimes: nil, calculationMode: .linear)))
        let t = Build.timeline([a])
        let p = t.point("position", at: 0.5), q = t.point("position", at: 1.5)
        #expect(close(p.x, 5, 1e-12) && close(p.y, 0, 1e-12))
        #expect(close(q.x, 10, 1e-12) && close(q.y, 50, 1e-12))
    }
}
