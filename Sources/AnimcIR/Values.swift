/// A colour as straight (non-premultiplied) alpha components in 0...1, gamma-encoded
/// sRGB. Core Animation is assumed to interpolate these components linearly without
/// premultiplying (semantics.md §16); see docs/semantics.md.
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// What every backend draws over an image layer's bounds when its `contents` names an
    /// image with no usable file (none found, refused, or a type the backend cannot
    /// decode): UIKit's systemGray, #8E8E93, opaque. One colour everywhere, so a render,
    /// the preview and a Lottie player show the same picture of a missing asset.
    public static let missingImage = Color(red: 0x8E / 255.0, green: 0x8E / 255.0, blue: 0x93 / 255.0)
}

/// A point or any two-component vector, in points.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(0, 0)
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
}

public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public static let zero = Rect(0, 0, 0, 0)
}

/// One transform function. A ``Transform`` is a list of them, applied right to left to
/// a point as in CSS: `rotate(-45deg) scale(0.25)` scales first, then rotates.
public enum TransformFunction: Hashable, Sendable {
    case translate(x: Double, y: Double, z: Double)
    case scale(x: Double, y: Double, z: Double)
    /// A rotation by `angle` radians about the axis `(x, y, z)` (normalised when used; the
    /// zero axis is the identity, as `CATransform3DMakeRotation` makes it). Positive
    /// angles turn clockwise on screen about +z, as `CATransform3DMakeRotation` on iOS.
    case rotate(x: Double, y: Double, z: Double, angle: Double)
    /// Skew angles in radians along x and y.
    case skew(x: Double, y: Double)
    /// A perspective projection with the eye at `distance` (m34 = -1/distance);
    /// `.infinity` is the identity. A negative distance is a positive m34, which Core
    /// Animation accepts; zero is not a distance.
    case perspective(distance: Double)
    /// A full matrix in Core Animation's layout (m11, m12, ... m44).
    case matrix(Matrix4)

    /// Whether two functions interpolate parameter by parameter (same kind; rotations
    /// about the same axis). Otherwise the whole list interpolates as matrices.
    public func matchesForInterpolation(_ other: TransformFunction) -> Bool {
        switch (self, other) {
        case (.translate, .translate), (.scale, .scale), (.skew, .skew), (.perspective, .perspective):
            return true
        case let (.rotate(x1, y1, z1, _), .rotate(x2, y2, z2, _)):
            return sameDirection((x1, y1, z1), (x2, y2, z2))
        default:
            return false
        }
    }

    /// The function of the same kind that leaves points unchanged, used to pad a list
    /// interpolated against `identity` or a longer list (CSS Transforms rule).
    public var identityCounterpart: TransformFunction {
        switch self {
        case .translate: return .translate(x: 0, y: 0, z: 0)
        case .scale: return .scale(x: 1, y: 1, z: 1)
        case .rotate(let x, let y, let z, _): return .rotate(x: x, y: y, z: z, angle: 0)
        case .skew: return .skew(x: 0, y: 0)
        case .perspective: return .perspective(distance: .infinity)
        case .matrix: return .matrix(.identity)
        }
    }
}

private func sameDirection(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Bool {
    let la = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
    let lb = (b.0 * b.0 + b.1 * b.1 + b.2 * b.2).squareRoot()
    guard la > 0, lb > 0 else { return la == lb }
    let dot = (a.0 * b.0 + a.1 * b.1 + a.2 * b.2) / (la * lb)
    return dot > 1 - 1e-12
}

/// A 3D transform as a list of functions. The empty list is the identity.
public struct Transform: Hashable, Sendable {
    public var functions: [TransformFunction]
    public init(_ functions: [TransformFunction]) { self.functions = functions }
    public static let identity = Transform([])

    /// Whether interpolating to `other` goes function by function, as CSS Transforms
    /// does: lists of equal length whose functions match pairwise, where the identity
    /// (an empty list) matches any list. Otherwise the two interpolate as matrices,
    /// which is what Core Animation does for `transform` and what takes the short way
    /// round. Matrix functions never interpolate component-wise.
    public func interpolatesComponentwise(with other: Transform) -> Bool {
        if functions.isEmpty || other.functions.isEmpty {
            return !(functions + other.functions).contains { if case .matrix = $0 { return true } else { return false } }
        }
        guard functions.count == other.functions.count else { return false }
        return zip(functions, other.functions).allSatisfy { $0.matchesForInterpolation($1) }
    }

    /// How far the rotations written in `self` and `other` differ, in radians, when
    /// both turn about one axis (or one of them does not turn): the turn an animation
    /// from `self` to `other` was written to make. Nil when the rotations are about
    /// different axes. For the checker's "takes the short way" warning.
    public func writtenTurn(to other: Transform) -> Double? {
        guard let a = writtenRotation, let b = other.writtenRotation else { return nil }
        if a.angle == 0 || b.angle == 0 || sameDirection(a.axis, b.axis) { return b.angle - a.angle }
        if sameDirection(a.axis, (-b.axis.0, -b.axis.1, -b.axis.2)) { return -b.angle - a.angle }
        return nil
    }

    /// The rotations of the list summed about their common axis, or nil when they turn
    /// about different axes.
    private var writtenRotation: (axis: (Double, Double, Double), angle: Double)? {
        var axis: (Double, Double, Double)?
        var angle = 0.0
        for case .rotate(let x, let y, let z, let a) in functions where a != 0 {
            if let current = axis {
                if sameDirection(current, (x, y, z)) { angle += a }
                else if sameDirection(current, (-x, -y, -z)) { angle -= a }
                else { return nil }
            } else {
                axis = (x, y, z)
                angle = a
            }
        }
        return (axis ?? (0, 0, 1), angle)
    }
}

/// A 4×4 matrix in Core Animation's row-vector layout: a point is a row vector
/// multiplied on the left, translation sits in m41...m43 and perspective in m34.
public struct Matrix4: Hashable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// From 16 values in row order (m11, m12, ..., m44).
    public init(_ v: [Double]) {
        precondition(v.count == 16, "a matrix has 16 entries")
        self.init(m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
                  m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
    }

    public var entries: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public static let identity = Matrix4(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                         m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
}

/// One element of a path, in the layer's coordinate space (points, y down).
public enum PathElement: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quad(control: Point, to: Point)
    case cubic(control1: Point, control2: Point, to: Point)
    /// A circular arc as `CGPath.addArc(center:radius:startAngle:endAngle:clockwise:)`
    /// draws it on iOS: angles in radians from +x, `clockwise` on screen (angles
    /// increasing). If the path has a current point, a line joins it to the arc's start.
    case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool)
    case close
}

/// A path: subpaths of lines, curves and arcs.
public struct Path: Hashable, Sendable {
    public var elements: [PathElement]
    public init(_ elements: [PathElement]) { self.elements = elements }
    public static let empty = Path([])

    /// Two paths morph into each other only if they have the same elements in the same
    /// order (and arcs turn the same way); then points interpolate pairwise.
    public func hasSameStructure(as other: Path) -> Bool {
        guard elements.count == other.elements.count else { return false }
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case (.move, .move), (.line, .line), (.quad, .quad), (.cubic, .cubic), (.close, .close): continue
            case let (.arc(_, _, _, _, c1), .arc(_, _, _, _, c2)) where c1 == c2: continue
            default: return false
            }
        }
        return true
    }
}

/// A typed value of a property or an animation keyframe.
public enum Value: Hashable, Sendable {
    /// Numbers, lengths (points), angles (radians) and times (seconds).
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case transform(Transform)
    case path(Path)
    case bool(Bool)
    /// An image asset reference (`image("name")`); the compiler never reads pixels.
    /// `nil` is "no contents".
    case image(String?)
    /// A case of an enumerated property, such as `round` for `lineCap`.
    case enumeration(String)
    case numbers([Double])
    case colors([Color])

    /// Whether every number of a scalar, point, size, rect, colour or list is finite.
    /// Transforms and paths are built by functions that check their own arguments (a
    /// perspective at infinity is the identity, not a mistake).
    public var isFinite: Bool {
        func ok(_ c: Color) -> Bool { c.red.isFinite && c.green.isFinite && c.blue.isFinite && c.alpha.isFinite }
        switch self {
        case .number(let x): return x.isFinite
        case .point(let p): return p.x.isFinite && p.y.isFinite
        case .size(let s): return s.width.isFinite && s.height.isFinite
        case .rect(let r): return r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite
        case .color(let c): return ok(c)
        case .numbers(let xs): return xs.allSatisfy(\.isFinite)
        case .colors(let cs): return cs.allSatisfy(ok)
        case .transform, .path, .bool, .image, .enumeration: return true
        }
    }
}
