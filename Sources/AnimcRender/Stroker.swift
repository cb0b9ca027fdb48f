import AnimcIR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a shape layer's stroke properties say.
public struct StrokeStyle: Sendable {
    public enum Cap: Sendable { case butt, round, square }
    public enum Join: Sendable { case miter, round, bevel }
    public var width: Double
    public var cap: Cap = .butt
    public var join: Join = .miter
    public var miterLimit: Double = 10
    public var dashPattern: [Double] = []
    public var dashPhase: Double = 0
    /// `strokeStart` and `strokeEnd`: fractions of the whole path's length.
    public var start: Double = 0
    public var end: Double = 1
    public init(width: Double) { self.width = width }
}

/// Turns polylines into the outline of their stroke: closed polygons whose non-zero fill
/// is the stroke. Each open polyline becomes one polygon (one side, the end cap, the other
/// side back, the start cap); a closed one, two loops of opposite orientation. On the
/// inside of a turn the two offset lines meet at their intersection when both segments
/// reach it, so that overlaps (which exact-area coverage would count twice at the edge)
/// stay off the outline; only where a segment is shorter than that does the outline pass
/// through the vertex instead, as Core Graphics' stroker does.
public struct Stroker {
    let style: StrokeStyle
    let half: Double
    let tolerance: Double

    public init(_ style: StrokeStyle, tolerance: Double) {
        self.style = style
        half = style.width / 2
        self.tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
    }

    public func outline(_ polylines: [Polyline]) -> [[Point]] {
        guard half > 0, half.isFinite else { return [] }
        var out: [[Point]] = []
        for piece in Stroker.dashedAndTrimmed(polylines, style) {
            var points: [Point] = []
            for p in piece.points where points.last.map({ hypot($0.x - p.x, $0.y - p.y) > 1e-9 }) ?? true { points.append(p) }
            var closed = piece.closed
            if closed, points.count > 1, let f = points.first, let l = points.last, hypot(f.x - l.x, f.y - l.y) <= 1e-9 {
                points.removeLast()
            }
            if points.count < 3 { closed = false }
            if points.count == 1 {
                out.append(contentsOf: dot(points[0]))
            } else if closed {
                out.append(side(points, closed: true))
                out.append(side(points.reversed(), closed: true))
            } else {
                var polygon = side(points, closed: false)
                polygon += cap(at: points[points.count - 1], from: points[points.count - 2])
                polygon += side(points.reversed(), closed: false)
                polygon += cap(at: points[0], from: points[1])
                out.append(polygon)
            }
        }
        return out
    }

    /// A zero-length subpath: Core Graphics draws a round cap as a dot and a square cap
    /// as a square along x; a butt cap draws nothing.
    func dot(_ p: Point) -> [[Point]] {
        switch style.cap {
        case .butt: return []
        case .square: return [[Point(p.x - half, p.y - half), Point(p.x + half, p.y - half), Point(p.x + half, p.y + half), Point(p.x - half, p.y + half)]]
        case .round: return [arc(center: p, from: 0, sweep: 2 * Double.pi, includeFirst: true)]
        }
    }

    static func normal(_ a: Point, _ b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y
        let l = hypot(dx, dy)
        return Point(-dy / l, dx / l)
    }

    /// The offset line on the left of `points` (the normal (−dy, dx)), with joins.
    func side(_ points: [Point], closed: Bool) -> [Point] {
        let n = points.count
        var out: [Point] = []
        let segments = closed ? n : n - 1
        func at(_ i: Int) -> Point { points[(i % n + n) % n] }
        if !closed {
            let nm = Stroker.normal(points[0], points[1])
            out.append(Point(points[0].x + nm.x * half, points[0].y + nm.y * half))
        }
        for i in (closed ? 0 : 1)..<(closed ? n : n - 1) {
            join(prev: at(i - 1), vertex: at(i), next: at(i + 1), into: &out)
        }
        _ = segments
        if !closed {
            let nm = Stroker.normal(points[n - 2], points[n - 1])
            out.append(Point(points[n - 1].x + nm.x * half, points[n - 1].y + nm.y * half))
        }
        return out
    }

    func join(prev: Point, vertex v: Point, next: Point, into out: inout [Point]) {
        let l0 = hypot(v.x - prev.x, v.y - prev.y), l1 = hypot(next.x - v.x, next.y - v.y)
        let d0 = Point((v.x - prev.x) / l0, (v.y - prev.y) / l0), d1 = Point((next.x - v.x) / l1, (next.y - v.y) / l1)
        let n0 = Point(-d0.y, d0.x), n1 = Point(-d1.y, d1.x)
        let a0 = Point(v.x + n0.x * half, v.y + n0.y * half), a1 = Point(v.x + n1.x * half, v.y + n1.y * half)
        let cross = d0.x * d1.y - d0.y * d1.x, dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12, dot > 0 {
            out.append(a0)
            return
        }
        // The offset lines meet k back from a0 along d0 (and k forward from a1 along d1).
        let k = half * abs(cross) / (1 + dot)
        if cross > 0 {
            // The left side is inside the turn.
            if k <= l0, k <= l1, dot > -1 + 1e-12 {
                out.append(Point(a0.x - d0.x * k, a0.y - d0.y * k))
            } else {
                out += [a0, v, a1]
            }
            return
        }
        switch style.join {
        case .bevel:
            out += [a0, a1]
        case .round:
            let start = atan2(n0.y, n0.x)
            var sweep = atan2(n1.y, n1.x) - start
            // Turning right on the left side: the join goes the short way, clockwise.
            while sweep > 0 { sweep -= 2 * Double.pi }
            while sweep <= -2 * Double.pi { sweep += 2 * Double.pi }
            if abs(cross) < 1e-12 { sweep = -Double.pi }
            out += arc(center: v, from: start, sweep: sweep, includeFirst: true)
        case .miter:
            // Core Graphics' limit: the miter's length over the width, 1/sin(φ/2), where φ
            // is the angle between the segments at the vertex; cos φ = −dot (d0 points
            // into the vertex), so sin(φ/2) = sqrt((1 − cos φ)/2) = sqrt((1 + dot)/2).
            // (It read (1 − dot): a sharp V, dot near −1, was never bevelled.)
            let sinHalf = ((1 + dot) / 2).squareRoot()
            if sinHalf > 0, 1 / sinHalf <= style.miterLimit, dot > -1 + 1e-12 {
                out.append(Point(a0.x + d0.x * k, a0.y + d0.y * k))
            } else {
                out += [a0, a1]
            }
        }
    }

    func cap(at end: Point, from before: Point) -> [Point] {
        let l = hypot(end.x - before.x, end.y - before.y)
        let d = Point((end.x - before.x) / l, (end.y - before.y) / l)
        let n = Point(-d.y, d.x)
        switch style.cap {
        case .butt:
            return []
        case .square:
            return [Point(end.x + (n.x + d.x) * half, end.y + (n.y + d.y) * half),
                    Point(end.x + (-n.x + d.x) * half, end.y + (-n.y + d.y) * half)]
        case .round:
            let start = atan2(n.y, n.x)
            var points = arc(center: end, from: start, sweep: -Double.pi, includeFirst: false)
            points.removeLast()
            return points
        }
    }

    func arc(center: Point, from start: Double, sweep: Double, includeFirst: Bool) -> [Point] {
        let steps = Flattening.arcPieces(radius: half, sweep: sweep, tolerance: tolerance)
        var points: [Point] = []
        for k in (includeFirst ? 0 : 1)...steps {
            let a = start + sweep * Double(k) / Double(steps)
            points.append(Point(center.x + half * cos(a), center.y + half * sin(a)))
        }
        return points
    }

    /// The pieces of the path the stroke draws: the dash pattern laid along each subpath
    /// from its start (offset by the phase, as Core Graphics restarts it per subpath),
    /// then only what lies between `strokeStart` and `strokeEnd` of the whole path's
    /// length, so a dash stays where it is while the ends animate.
    static func dashedAndTrimmed(_ polylines: [Polyline], _ style: StrokeStyle) -> [Polyline] {
        let start = min(max(style.start.isFinite ? style.start : 0, 0), 1)
        let end = min(max(style.end.isFinite ? style.end : 1, 0), 1)
        guard start < end else { return [] }
        let pattern = style.dashPattern.map { $0.isFinite ? max($0, 0) : 0 }
        let period = pattern.count % 2 == 1 ? pattern.reduce(0, +) * 2 : pattern.reduce(0, +)
        let dashes = period > 0 ? (pattern.count % 2 == 1 ? pattern + pattern : pattern) : []
        if start == 0, end == 1, dashes.isEmpty { return polylines }
        // Lengths along the whole path.
        var lengths: [[Double]] = []
        var total = 0.0
        for p in polylines {
            var acc = [total]
            let pts = p.closed && p.points.count > 1 ? p.points + [p.points[0]] : p.points
            for i in 1..<max(pts.count, 1) {
                total += hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y)
                acc.append(total)
            }
            lengths.append(acc)
        }
        let from = start * total, to = end * total
        var out: [Polyline] = []
        for (index, p) in polylines.enumerated() {
            let pts = p.closed && p.points.count > 1 ? p.points + [p.points[0]] : p.points
            let acc = lengths[index]
            guard let first = acc.first, let last = acc.last else { continue }
            // The stretches [a, b] of this subpath to draw, in whole-path distances.
            var stretches: [(Double, Double)] = []
            if dashes.isEmpty {
                stretches = [(first, last)]
            } else {
                var phase = style.dashPhase.isFinite ? style.dashPhase.truncatingRemainder(dividingBy: period) : 0
                if phase < 0 { phase += period }
                var position = first - phase
                var k = 0
                // A pattern finer than the path's length allows is drawn solid, bounded.
                var count = 0
                while position < last, count < 100_000 {
                    let length = dashes[k % dashes.count]
                    if k % 2 == 0 {
                        let a = max(position, first), b = min(position + length, last)
                        if b > a || (length == 0 && position >= first) { stretches.append((a, max(a, b))) }
                    }
                    position += length
                    k += 1
                    count += 1
                }
                if count >= 100_000 { stretches = [(first, last)] }
            }
            for (a0, b0) in stretches {
                let a = max(a0, from), b = min(b0, to)
                guard b > a || (a0 == b0 && a0 >= from && a0 <= to) else { continue }
                let whole = p.closed && a <= first && b >= last && dashes.isEmpty
                if whole { out.append(p); continue }
                out.append(Polyline(slice(pts, acc, a, b), closed: false))
            }
        }
        return out
    }

    static func slice(_ pts: [Point], _ acc: [Double], _ a: Double, _ b: Double) -> [Point] {
        func point(at s: Double) -> Point {
            var i = 1
            while i < acc.count - 1, acc[i] < s { i += 1 }
            let seg = acc[i] - acc[i - 1]
            let t = seg > 0 ? (s - acc[i - 1]) / seg : 0
            return Point(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * t, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * t)
        }
        guard pts.count > 1 else { return pts }
        var out = [point(at: a)]
        for i in 1..<(pts.count - 1) where acc[i] > a && acc[i] < b { out.append(pts[i]) }
        out.append(point(at: b))
        return out
    }
}
