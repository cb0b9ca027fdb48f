/// A drawable piece of a path with explicit end points: what `Path` elements become
/// once the pen position, implicit lines and arc directions are resolved.
public enum PathSegment: Hashable, Sendable {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)
    /// A circular arc from `start` radians, turning `sweep` radians (positive is
    /// clockwise on screen).
    case arc(center: Point, radius: Double, start: Double, sweep: Double)

    public var startPoint: Point {
        switch self {
        case .line(let a, _), .quad(let a, _, _), .cubic(let a, _, _, _): return a
        case .arc(let c, let r, let s, _): return Point(c.x + r * cosine(s), c.y + r * sine(s))
        }
    }

    public var endPoint: Point {
        switch self {
        case .line(_, let b), .quad(_, _, let b), .cubic(_, _, _, let b): return b
        case .arc(let c, let r, let s, let w): return Point(c.x + r * cosine(s + w), c.y + r * sine(s + w))
        }
    }
}

/// A path resolved into segments, grouped by subpath.
public struct PathGeometry: Hashable, Sendable {
    /// Segments in drawing order.
    public var segments: [PathSegment]
    /// For each segment, whether it begins a new subpath (the pen jumped to its start).
    public var startsSubpath: [Bool]
    /// The first point of the path (its first `move`, or an arc's start).
    public var startPoint: Point?

    /// Resolves `path` as CGPath draws it: `line`/`quad`/`cubic` continue from the pen,
    /// `close` draws a line back to the subpath's start, and an arc drawn while the pen
    /// is elsewhere is joined to it by a straight line.
    public init(_ path: Path) {
        var segments: [PathSegment] = []
        var starts: [Bool] = []
        var pen: Point?
        var subpathStart: Point?
        var newSubpath = true
        var first: Point?
        func add(_ s: PathSegment) {
            segments.append(s)
            starts.append(newSubpath)
            newSubpath = false
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                pen = p
                subpathStart = p
                newSubpath = true
                if first == nil { first = p }
            case .line(let p):
                if let a = pen { add(.line(a, p)) } else { subpathStart = p; first = first ?? p }
                pen = p
            case .quad(let c, let p):
                if let a = pen { add(.quad(a, c, p)) } else { subpathStart = p; first = first ?? p }
                pen = p
            case .cubic(let c1, let c2, let p):
                if let a = pen { add(.cubic(a, c1, c2, p)) } else { subpathStart = p; first = first ?? p }
                pen = p
            case .arc(let center, let radius, let startAngle, let endAngle, let clockwise):
                let sweep = PathGeometry.sweep(from: startAngle, to: endAngle, clockwise: clockwise)
                let arc = PathSegment.arc(center: center, radius: radius, start: startAngle, sweep: sweep)
                let arcStart = arc.startPoint
                if let a = pen {
                    if a != arcStart { add(.line(a, arcStart)) }
                } else {
                    subpathStart = arcStart
                    newSubpath = true
                    first = first ?? arcStart
                }
                add(arc)
                pen = arc.endPoint
            case .close:
                if let a = pen, let s = subpathStart, a != s { add(.line(a, s)) }
                pen = subpathStart
                newSubpath = true
            }
        }
        self.segments = segments
        self.startsSubpath = starts
        self.startPoint = first
    }

    /// The signed angle an arc turns, as UIKit draws it in its y-down coordinates:
    /// clockwise arcs turn with increasing angle, at most one full turn.
    ///
    /// Angles a whole turn or more apart draw the whole circle in either direction, as
    /// Core Graphics draws them: NVActivityIndicatorView's rings are
    /// `addArc(..., startAngle: 0, endAngle: 2 * .pi, clockwise: false)`, full circles
    /// on screen, where reducing the difference modulo a turn would draw nothing.
    public static func sweep(from start: Double, to end: Double, clockwise: Bool) -> Double {
        let full = 2 * Double.pi
        var d = end - start
        if abs(d) >= full { return clockwise ? full : -full }
        if clockwise {
            if d < 0 { d += full * (-d / full).rounded(.up) }
            return min(d, full)
        }
        if d > 0 { d -= full * (d / full).rounded(.up) }
        return max(d, -full)
    }

    /// Keyframe vertices of a motion along this path: its start plus the end of every
    /// segment. Later `move`s jump without taking a key time.
    public var vertexCount: Int { segments.isEmpty ? 0 : segments.count + 1 }
}

#if canImport(Glibc)
import Glibc
@inline(__always) func sine(_ x: Double) -> Double { Glibc.sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { Glibc.cos(x) }
#elseif canImport(Darwin)
import Darwin
@inline(__always) func sine(_ x: Double) -> Double { Darwin.sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { Darwin.cos(x) }
#endif
