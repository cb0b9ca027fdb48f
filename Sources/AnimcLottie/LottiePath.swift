import AnimcBase
import AnimcIR

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Core Animation path as Lottie's bezier shapes: per subpath, vertices with in and
/// out tangents relative to them (schema/values/bezier.json), and whether it is closed.
struct BezierShape: Equatable, Sendable {
    var closed = false
    var vertices: [Point] = []
    var inTangents: [Point] = []
    var outTangents: [Point] = []
}

enum LottiePath {
    /// Subpaths as CGPath draws them: lines and quads become cubics with the same
    /// points, arcs become cubics of at most a quarter turn (radial error below 0.03%
    /// of the radius), and `close` closes the subpath.
    static func shapes(_ path: Path) -> [BezierShape] {
        var shapes: [BezierShape] = []
        var current = BezierShape()
        var pen: Point?
        func finish(closed: Bool) {
            guard !current.vertices.isEmpty else { return }
            current.closed = closed
            if closed, current.vertices.count > 1, let first = current.vertices.first, let last = current.vertices.last,
               abs(first.x - last.x) < 1e-9, abs(first.y - last.y) < 1e-9 {
                // The closing point repeats the first: fold its incoming tangent into it.
                current.inTangents[0] = current.inTangents[current.inTangents.count - 1]
                current.vertices.removeLast(); current.inTangents.removeLast(); current.outTangents.removeLast()
            }
            shapes.append(current)
            current = BezierShape()
        }
        func start(_ p: Point) {
            current.vertices = [p]; current.inTangents = [.zero]; current.outTangents = [.zero]
        }
        func cubic(_ c1: Point, _ c2: Point, _ to: Point) {
            guard let from = current.vertices.last else { start(to); return }
            current.outTangents[current.outTangents.count - 1] = Point(c1.x - from.x, c1.y - from.y)
            current.vertices.append(to)
            current.inTangents.append(Point(c2.x - to.x, c2.y - to.y))
            current.outTangents.append(.zero)
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                start(p)
                pen = p
            case .line(let p):
                if pen == nil || current.vertices.isEmpty { start(p) } else { cubic(pen ?? p, p, p) }
                pen = p
            case .quad(let c, let p):
                if let a = pen, !current.vertices.isEmpty {
                    cubic(Point(a.x + 2 / 3 * (c.x - a.x), a.y + 2 / 3 * (c.y - a.y)),
                          Point(p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y)), p)
                } else { start(p) }
                pen = p
            case .cubic(let c1, let c2, let p):
                if pen != nil, !current.vertices.isEmpty { cubic(c1, c2, p) } else { start(p) }
                pen = p
            case .arc(let center, let radius, let startAngle, let endAngle, let clockwise):
                let sweep = PathGeometry.sweep(from: startAngle, to: endAngle, clockwise: clockwise)
                let s = Point(center.x + radius * cos(startAngle), center.y + radius * sin(startAngle))
                if current.vertices.isEmpty { start(s) } else { cubic(pen ?? s, s, s) }
                let pieces = max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
                guard sweep.isFinite, radius.isFinite, pieces <= 64 else { pen = s; continue }
                let step = sweep / Double(pieces)
                let k = 4.0 / 3.0 * tan(step / 4) * radius
                var angle = startAngle
                for _ in 0..<pieces {
                    let next = angle + step
                    let p0 = Point(center.x + radius * cos(angle), center.y + radius * sin(angle))
                    let p3 = Point(center.x + radius * cos(next), center.y + radius * sin(next))
                    cubic(Point(p0.x - k * sin(angle), p0.y + k * cos(angle)),
                          Point(p3.x + k * sin(next), p3.y - k * cos(next)), p3)
                    angle = next
                }
                pen = current.vertices.last
            case .close:
                if let first = current.vertices.first, let last = current.vertices.last, first != last {
                    cubic(last, first, first)
                }
                let first = current.vertices.first
                finish(closed: true)
                if let first { pen = first }
            }
        }
        finish(closed: false)
        return shapes
    }

    /// The shapes as one flat list of numbers, so that paths sample, interpolate and
    /// compare like any other channel: per subpath `closed, count`, then `v, i, o` per vertex.
    static func flatten(_ path: Path) -> [Double] {
        var out: [Double] = []
        for s in shapes(path) {
            out.append(s.closed ? 1 : 0)
            out.append(Double(s.vertices.count))
            for k in s.vertices.indices {
                out += [s.vertices[k].x, s.vertices[k].y, s.inTangents[k].x, s.inTangents[k].y, s.outTangents[k].x, s.outTangents[k].y]
            }
        }
        return out
    }

    /// The inverse of ``flatten(_:)``; stops at anything malformed.
    static func unflatten(_ values: [Double]) -> [BezierShape] {
        var shapes: [BezierShape] = []
        var i = 0
        while i + 1 < values.count {
            var s = BezierShape()
            s.closed = values[i] >= 0.5
            let count = Int(exactly: values[i + 1].rounded()) ?? 0
            i += 2
            guard count >= 0, i + count * 6 <= values.count else { break }
            for _ in 0..<count {
                s.vertices.append(Point(values[i], values[i + 1]))
                s.inTangents.append(Point(values[i + 2], values[i + 3]))
                s.outTangents.append(Point(values[i + 4], values[i + 5]))
                i += 6
            }
            shapes.append(s)
        }
        return shapes
    }
}

enum LottieGradient {
    /// Lottie's gradient colours: `offset, r, g, b` per stop, then `offset, alpha` per
    /// stop (schema/properties/gradient-colors.json). Without locations the stops are
    /// spread evenly, as CAGradientLayer spreads them.
    static func stops(colors: [Color], locations: [Double]) -> [Double] {
        var out: [Double] = []
        let n = colors.count
        func offset(_ k: Int) -> Double {
            if locations.count == n { return locations[k] }
            return n > 1 ? Double(k) / Double(n - 1) : 0
        }
        for (k, c) in colors.enumerated() { out += [offset(k), c.red, c.green, c.blue] }
        for (k, c) in colors.enumerated() { out += [offset(k), c.alpha] }
        return out
    }
}
