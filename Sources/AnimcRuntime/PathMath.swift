import AnimcIR

/// Gauss–Legendre nodes and weights on [-1, 1], 8 points: exact for polynomials of
/// degree 15, so a subinterval of a cubic's speed integral is accurate to ~1e-12.
private let glNodes: [Double] = [-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
                                 0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363]
private let glWeights: [Double] = [0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
                                   0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763]

extension PathSegment {
    /// The point at curve parameter t ∈ [0, 1] (for arcs, the fraction of the sweep).
    func point(at t: Double) -> Point {
        switch self {
        case .line(let a, let b):
            return Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
        case .quad(let a, let c, let b):
            let u = 1 - t
            return Point(u * u * a.x + 2 * u * t * c.x + t * t * b.x, u * u * a.y + 2 * u * t * c.y + t * t * b.y)
        case .cubic(let a, let c1, let c2, let b):
            let u = 1 - t
            let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
            return Point(w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
        case .arc(let c, let r, let start, let sweep):
            let angle = start + sweep * t
            return Point(c.x + r * mcos(angle), c.y + r * msin(angle))
        }
    }

    /// The derivative with respect to t.
    func derivative(at t: Double) -> Point {
        switch self {
        case .line(let a, let b):
            return Point(b.x - a.x, b.y - a.y)
        case .quad(let a, let c, let b):
            let u = 1 - t
            return Point(2 * u * (c.x - a.x) + 2 * t * (b.x - c.x), 2 * u * (c.y - a.y) + 2 * t * (b.y - c.y))
        case .cubic(let a, let c1, let c2, let b):
            let u = 1 - t
            return Point(3 * u * u * (c1.x - a.x) + 6 * u * t * (c2.x - c1.x) + 3 * t * t * (b.x - c2.x),
                         3 * u * u * (c1.y - a.y) + 6 * u * t * (c2.y - c1.y) + 3 * t * t * (b.y - c2.y))
        case .arc(_, let r, let start, let sweep):
            let angle = start + sweep * t
            return Point(-r * msin(angle) * sweep, r * mcos(angle) * sweep)
        }
    }

    @inline(__always)
    func speed(at t: Double) -> Double {
        let d = derivative(at: t)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    /// Arc length from parameter a to b by Gauss–Legendre quadrature.
    func length(from a: Double, to b: Double) -> Double {
        switch self {
        case .line(let p, let q):
            return ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() * (b - a)
        case .arc(_, let r, _, let sweep):
            return abs(r * sweep) * (b - a)
        default:
            let half = (b - a) / 2, mid = (a + b) / 2
            var sum = 0.0
            for i in 0..<8 { sum += glWeights[i] * speed(at: mid + half * glNodes[i]) }
            return sum * half
        }
    }
}

/// A path measured by arc length, for motion at constant speed and for tangents.
///
/// Each curved segment is split into 32 parameter intervals whose lengths come from
/// 8-point Gauss–Legendre quadrature; finding the parameter at a distance does a
/// binary search over those, then Newton's method on the exact integral. Lengths are
/// accurate to about 1e-10 of the path length, far inside the 1e-4 required.
public struct MeasuredPath: Hashable, Sendable {
    public let segments: [PathSegment]
    /// Cumulative length at the start of each segment, plus the total at the end.
    let segmentStarts: [Double]
    /// Per segment: cumulative lengths at parameters j/32, j = 0...32 (lines and arcs: empty).
    let tables: [[Double]]
    public let startsSubpath: [Bool]
    static let intervals = 32

    public init(_ path: Path) {
        let geometry = PathGeometry(path)
        segments = geometry.segments
        startsSubpath = geometry.startsSubpath
        var starts: [Double] = [0]
        var tables: [[Double]] = []
        for s in segments {
            switch s {
            case .line, .arc:
                tables.append([])
                starts.append(starts[starts.count - 1] + s.length(from: 0, to: 1))
            default:
                var table = [0.0]
                for j in 0..<MeasuredPath.intervals {
                    let a = Double(j) / Double(MeasuredPath.intervals), b = Double(j + 1) / Double(MeasuredPath.intervals)
                    table.append(table[j] + s.length(from: a, to: b))
                }
                tables.append(table)
                starts.append(starts[starts.count - 1] + table[MeasuredPath.intervals])
            }
        }
        segmentStarts = starts
        self.tables = tables
    }

    public var totalLength: Double { segmentStarts[segmentStarts.count - 1] }
    public var segmentCount: Int { segments.count }

    public func length(ofSegment i: Int) -> Double { segmentStarts[i + 1] - segmentStarts[i] }

    /// The segment and curve parameter at arc length `distance` from the start.
    public func location(atDistance distance: Double) -> (segment: Int, t: Double) {
        guard !segments.isEmpty else { return (0, 0) }
        let d = min(max(distance, 0), totalLength)
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segmentStarts[mid] <= d { lo = mid } else { hi = mid - 1 }
        }
        // Skip zero-length segments at the boundary.
        var i = lo
        while i < segments.count - 1 && length(ofSegment: i) == 0 { i += 1 }
        return (i, parameter(inSegment: i, atLength: d - segmentStarts[i]))
    }

    /// The curve parameter at arc length `s` into segment `i`.
    public func parameter(inSegment i: Int, atLength s: Double) -> Double {
        let total = length(ofSegment: i)
        guard total > 0 else { return 0 }
        let table = tables[i]
        if table.isEmpty { return min(max(s / total, 0), 1) }
        let target = min(max(s, 0), total)
        var lo = 0, hi = MeasuredPath.intervals - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if table[mid] <= target { lo = mid } else { hi = mid - 1 }
        }
        let a = Double(lo) / Double(MeasuredPath.intervals), b = Double(lo + 1) / Double(MeasuredPath.intervals)
        let span = table[lo + 1] - table[lo]
        var t = span > 0 ? a + (b - a) * (target - table[lo]) / span : a
        let segment = segments[i]
        for _ in 0..<8 {
            let err = table[lo] + segment.length(from: a, to: t) - target
            if abs(err) < 1e-12 * max(1, total) { break }
            let v = segment.speed(at: t)
            guard v > 1e-12 else { break }
            t = min(max(t - err / v, a), b)
        }
        return t
    }

    public func point(segment i: Int, t: Double) -> Point { segments[i].point(at: t) }

    /// The direction of travel at a location. Where the derivative vanishes (a control
    /// point on an end point) the direction is taken from a nearby point on the same
    /// segment, so the heading stays continuous.
    public func tangent(segment i: Int, t: Double) -> Point {
        let s = segments[i]
        let d = s.derivative(at: t)
        if (d.x * d.x + d.y * d.y) > 1e-18 { return d }
        let h = 1e-6
        let a = s.point(at: max(t - h, 0)), b = s.point(at: min(t + h, 1))
        return Point(b.x - a.x, b.y - a.y)
    }
}
