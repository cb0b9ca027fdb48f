import AnimcIR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One subpath as a polyline, in the path's own coordinates.
public struct Polyline: Equatable, Sendable {
    public var points: [Point]
    /// Ended by `close`: a stroke joins its ends instead of capping them.
    public var closed: Bool
    public init(_ points: [Point], closed: Bool) {
        self.points = points
        self.closed = closed
    }
}

/// Paths as polylines within a tolerance, and the shapes layers draw.
public enum Flattening {
    /// The most points one curve becomes, and one path: a path with coordinates near the
    /// largest doubles would otherwise ask for billions.
    static let maxPiecesPerCurve = 4096
    static let maxPointsPerPath = 1 << 20

    /// `path` as CGPath draws it (``PathGeometry``'s reading: `line`/`quad`/`cubic`
    /// continue from the pen, an arc drawn while the pen is elsewhere is joined to it by
    /// a line, `close` returns to the subpath's start), each curve replaced by a polyline
    /// no farther than `tolerance` from it.
    public static func polylines(_ path: Path, tolerance: Double) -> [Polyline] {
        let tol = tolerance.isFinite && tolerance > 0 ? tolerance : 0.1
        var result: [Polyline] = []
        var current: [Point] = []
        var pen: Point?
        var subpathStart: Point?
        var total = 0
        func finish(closed: Bool) {
            if current.count >= 1 { result.append(Polyline(current, closed: closed)) }
            current = []
        }
        func begin(at p: Point) {
            if current.isEmpty { current = [p] }
        }
        func add(_ p: Point) {
            guard total < maxPointsPerPath else { return }
            current.append(p)
            total += 1
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                pen = p
                subpathStart = p
            case .line(let p):
                if let a = pen { begin(at: a); add(p) } else { subpathStart = p }
                pen = p
            case .quad(let c, let p):
                if let a = pen {
                    begin(at: a)
                    let dd = hypot(a.x - 2 * c.x + p.x, a.y - 2 * c.y + p.y)
                    let n = pieces(dd / (4 * tol))
                    for k in 1...n {
                        let t = Double(k) / Double(n), u = 1 - t
                        add(Point(u * u * a.x + 2 * u * t * c.x + t * t * p.x, u * u * a.y + 2 * u * t * c.y + t * t * p.y))
                    }
                } else { subpathStart = p }
                pen = p
            case .cubic(let c1, let c2, let p):
                if let a = pen {
                    begin(at: a)
                    let dd = max(hypot(a.x - 2 * c1.x + c2.x, a.y - 2 * c1.y + c2.y), hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y))
                    // Uniform steps: the chord's distance is at most 3·dd/(4n²).
                    let n = pieces(3 * dd / (4 * tol))
                    for k in 1...n {
                        let t = Double(k) / Double(n), u = 1 - t
                        let b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t
                        add(Point(b0 * a.x + b1 * c1.x + b2 * c2.x + b3 * p.x, b0 * a.y + b1 * c1.y + b2 * c2.y + b3 * p.y))
                    }
                } else { subpathStart = p }
                pen = p
            case .arc(let center, let radius, let startAngle, let endAngle, let clockwise):
                let sweep = PathGeometry.sweep(from: startAngle, to: endAngle, clockwise: clockwise)
                let r = abs(radius)
                let start = Point(center.x + r * cos(startAngle), center.y + r * sin(startAngle))
                if pen == nil {
                    finish(closed: false)
                    subpathStart = start
                    current = [start]
                } else if let a = pen {
                    begin(at: a)
                    if a != start { add(start) }
                }
                let n = arcPieces(radius: r, sweep: sweep, tolerance: tol)
                for k in 1...n {
                    let angle = startAngle + sweep * Double(k) / Double(n)
                    add(Point(center.x + r * cos(angle), center.y + r * sin(angle)))
                }
                pen = Point(center.x + r * cos(startAngle + sweep), center.y + r * sin(startAngle + sweep))
            case .close:
                if !current.isEmpty {
                    finish(closed: true)
                }
                pen = subpathStart
            }
        }
        finish(closed: false)
        return result
    }

    /// Steps for a curve whose chord error with one step is `error`: it falls with the
    /// square of the steps.
    static func pieces(_ error: Double) -> Int {
        guard error.isFinite else { return 1 }
        // Clamped as a Double: the square root of 1e300 is no Int.
        return max(1, Int(min(Double(maxPiecesPerCurve), error.squareRoot().rounded(.up))))
    }

    /// Steps for an arc: each step's sagitta r(1 − cos(θ/2)) within the tolerance.
    static func arcPieces(radius: Double, sweep: Double, tolerance: Double) -> Int {
        guard sweep.isFinite else { return 1 }
        guard radius.isFinite, radius > tolerance else { return max(1, min(4, Int(abs(sweep) / (Double.pi / 2)) + 1)) }
        let step = 2 * acos(1 - tolerance / radius)
        let steps = abs(sweep) / step
        guard steps.isFinite else { return maxPiecesPerCurve }
        return max(1, Int(min(Double(maxPiecesPerCurve), steps.rounded(.up))))
    }

    /// A rectangle with circular corners of `radius` (at most half the shorter side, as
    /// Core Animation draws `cornerRadius`), clockwise on screen from the top-left.
    public static func roundedRect(_ r: Rect, radius: Double, tolerance: Double) -> [Point] {
        let x0 = min(r.x, r.x + r.width), x1 = max(r.x, r.x + r.width)
        let y0 = min(r.y, r.y + r.height), y1 = max(r.y, r.y + r.height)
        let rad = max(0, min(radius.isFinite ? radius : 0, (x1 - x0) / 2, (y1 - y0) / 2))
        if rad <= 0 { return [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)] }
        var points: [Point] = []
        let n = arcPieces(radius: rad, sweep: Double.pi / 2, tolerance: tolerance)
        let corners = [(x1 - rad, y0 + rad, -Double.pi / 2), (x1 - rad, y1 - rad, 0.0), (x0 + rad, y1 - rad, Double.pi / 2),
                       (x0 + rad, y0 + rad, Double.pi)]
        for (cx, cy, a0) in corners {
            for k in 0...n {
                let a = a0 + Double.pi / 2 * Double(k) / Double(n)
                points.append(Point(cx + rad * cos(a), cy + rad * sin(a)))
            }
        }
        return points
    }
}
