import AnimcBase
import AnimcIR

/// The shape of a path's encoded doubles: its element kinds, so that values of one
/// structure interpolate point by point and decode back to a ``Path``.
struct PathLayout: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case move, line, quad, cubic, arc(clockwise: Bool), close }
    let kinds: [Kind]

    init(_ path: Path) {
        kinds = path.elements.map { e in
            switch e {
            case .move: return .move
            case .line: return .line
            case .quad: return .quad
            case .cubic: return .cubic
            case .arc(_, _, _, _, let cw): return .arc(clockwise: cw)
            case .close: return .close
            }
        }
    }

    var width: Int {
        kinds.reduce(0) { sum, k in
            switch k {
            case .move, .line: return sum + 2
            case .quad: return sum + 4
            case .cubic: return sum + 6
            case .arc: return sum + 5
            case .close: return sum
            }
        }
    }
}

/// Strings (enumeration cases, image names) and path layouts, shared by a timeline so
/// that every value is a vector of doubles during evaluation.
struct SymbolTable: Sendable {
    var strings: [String] = []
    var index: [String: Int] = [:]
    var layouts: [PathLayout] = []

    mutating func symbol(_ s: String) -> Double {
        if let i = index[s] { return Double(i) }
        index[s] = strings.count
        strings.append(s)
        return Double(strings.count - 1)
    }

    mutating func layout(_ l: PathLayout) -> Double {
        if let i = layouts.firstIndex(of: l) { return Double(i) }
        layouts.append(l)
        return Double(layouts.count - 1)
    }

    func string(_ x: Double) -> String? {
        let i = Int(saturating: x)
        return x >= 0 && i < strings.count ? strings[i] : nil
    }

    /// Encodes a value as doubles. Lists and paths start with a header (count or layout).
    mutating func encode(_ v: Value) -> [Double] {
        switch v {
        case .number(let x): return [x]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.x, r.y, r.width, r.height]
        case .color(let c): return [c.red, c.green, c.blue, c.alpha]
        case .transform(let t): return t.matrix.array
        case .bool(let b): return [b ? 1 : 0]
        case .enumeration(let e): return [symbol(e)]
        case .image(let name): return [name.map { symbol($0) } ?? -1]
        case .numbers(let xs): return [Double(xs.count)] + xs
        case .colors(let cs): return [Double(cs.count)] + cs.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        case .path(let p):
            var out = [layout(PathLayout(p))]
            for e in p.elements {
                switch e {
                case .move(let q), .line(let q): out += [q.x, q.y]
                case .quad(let c, let q): out += [c.x, c.y, q.x, q.y]
                case .cubic(let c1, let c2, let q): out += [c1.x, c1.y, c2.x, c2.y, q.x, q.y]
                case .arc(let c, let r, let a0, let a1, _): out += [c.x, c.y, r, a0, a1]
                case .close: break
                }
            }
            return out
        }
    }

    /// The width of the value stored at `offset`: lists and paths say it in their header.
    func actualWidth(_ type: ValueType, _ buffer: [Double], _ offset: Int, _ capacity: Int) -> Int {
        switch type {
        case .numbers: return min(capacity, 1 + max(0, Int(saturating: min(buffer[offset], Double(capacity)))))
        case .colors: return min(capacity, 1 + 4 * max(0, Int(saturating: min(buffer[offset], Double(capacity)))))
        case .path:
            let i = Int(saturating: buffer[offset])
            return i >= 0 && i < layouts.count ? min(capacity, 1 + layouts[i].width) : capacity
        default: return capacity
        }
    }

    /// Decodes doubles written by ``encode(_:)`` (or interpolated from such) as `type`.
    func decode(_ type: ValueType, _ d: UnsafeBufferPointer<Double>) -> Value {
        switch type {
        case .number, .length, .angle, .time: return .number(d[0])
        case .point: return .point(Point(d[0], d[1]))
        case .size: return .size(Size(d[0], d[1]))
        case .rect: return .rect(Rect(d[0], d[1], d[2], d[3]))
        case .color: return .color(Color(red: d[0], green: d[1], blue: d[2], alpha: d[3]))
        case .transform: return .transform(Transform([.matrix(M4(Array(d[0..<16])).matrix4)]))
        case .bool: return .bool(d[0] >= 0.5)
        case .enumeration: return .enumeration(string(d[0]) ?? "")
        case .image: return .image(d[0] < 0 ? nil : string(d[0]))
        case .numbers:
            let n = min(Int(saturating: d[0]), d.count - 1)
            return .numbers(Array(d[1..<(1 + max(n, 0))]))
        case .colors:
            let n = min(Int(saturating: d[0]), (d.count - 1) / 4)
            return .colors((0..<max(n, 0)).map { i in
                Color(red: d[1 + 4 * i], green: d[2 + 4 * i], blue: d[3 + 4 * i], alpha: d[4 + 4 * i])
            })
        case .path:
            let li = Int(saturating: d[0])
            guard li >= 0 && li < layouts.count else { return .path(.empty) }
            var k = 1
            var elements: [PathElement] = []
            for kind in layouts[li].kinds {
                switch kind {
                case .move: elements.append(.move(to: Point(d[k], d[k + 1]))); k += 2
                case .line: elements.append(.line(to: Point(d[k], d[k + 1]))); k += 2
                case .quad: elements.append(.quad(control: Point(d[k], d[k + 1]), to: Point(d[k + 2], d[k + 3]))); k += 4
                case .cubic:
                    elements.append(.cubic(control1: Point(d[k], d[k + 1]), control2: Point(d[k + 2], d[k + 3]), to: Point(d[k + 4], d[k + 5])))
                    k += 6
                case .arc(let cw):
                    elements.append(.arc(center: Point(d[k], d[k + 1]), radius: d[k + 2], startAngle: d[k + 3], endAngle: d[k + 4], clockwise: cw))
                    k += 5
                case .close: elements.append(.close)
                }
            }
            return .path(Path(elements))
        }
    }
}

/// The encoded width of a value of `type` (lists and paths: of this particular value).
func encodedWidth(_ v: Value) -> Int {
    switch v {
    case .number, .bool, .enumeration, .image: return 1
    case .point, .size: return 2
    case .rect, .color: return 4
    case .transform: return 16
    case .numbers(let xs): return 1 + xs.count
    case .colors(let cs): return 1 + 4 * cs.count
    case .path(let p): return 1 + PathLayout(p).width
    }
}
