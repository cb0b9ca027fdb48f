import AnimcIR

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libm through one door, so the rest of the runtime reads the same on every platform.
@inline(__always) func msin(_ x: Double) -> Double { sin(x) }
@inline(__always) func mcos(_ x: Double) -> Double { cos(x) }
@inline(__always) func mtan(_ x: Double) -> Double { tan(x) }
@inline(__always) func mexp(_ x: Double) -> Double { exp(x) }
@inline(__always) func mlog(_ x: Double) -> Double { log(x) }
@inline(__always) func matan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func macos(_ x: Double) -> Double { acos(x) }

/// A 4×4 matrix in Core Animation's row-vector layout (`CATransform3D`): a point is
/// a row vector on the left, `a.concat(b)` applies `a` first, translation sits in
/// m41...m43, perspective in m34.
public struct M4: Equatable, Sendable {
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double,
                   Double, Double, Double, Double, Double, Double, Double, Double)

    @inline(__always)
    public init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double,
                      Double, Double, Double, Double, Double, Double, Double, Double)) {
        self.m = m
    }

    public static let identity = M4((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    public init(_ matrix: Matrix4) {
        self.init((matrix.m11, matrix.m12, matrix.m13, matrix.m14, matrix.m21, matrix.m22, matrix.m23, matrix.m24,
                   matrix.m31, matrix.m32, matrix.m33, matrix.m34, matrix.m41, matrix.m42, matrix.m43, matrix.m44))
    }

    public var matrix4: Matrix4 {
        Matrix4(m11: m.0, m12: m.1, m13: m.2, m14: m.3, m21: m.4, m22: m.5, m23: m.6, m24: m.7,
                m31: m.8, m32: m.9, m33: m.10, m34: m.11, m41: m.12, m42: m.13, m43: m.14, m44: m.15)
    }

    public static func == (a: M4, b: M4) -> Bool {
        let x = a.m, y = b.m
        return x.0 == y.0 && x.1 == y.1 && x.2 == y.2 && x.3 == y.3 && x.4 == y.4 && x.5 == y.5 && x.6 == y.6 && x.7 == y.7
            && x.8 == y.8 && x.9 == y.9 && x.10 == y.10 && x.11 == y.11 && x.12 == y.12 && x.13 == y.13 && x.14 == y.14
            && x.15 == y.15
    }

    /// Row-major entries m11...m44.
    public var array: [Double] {
        [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8, m.9, m.10, m.11, m.12, m.13, m.14, m.15]
    }

    /// Entry (row r, column c), 0-based: `m[3, 0]` is m41, the x translation.
    @inline(__always)
    public internal(set) subscript(_ r: Int, _ c: Int) -> Double {
        get {
            withUnsafeBytes(of: m) { $0.load(fromByteOffset: (r * 4 + c) * 8, as: Double.self) }
        }
        set {
            withUnsafeMutableBytes(of: &m) { $0.storeBytes(of: newValue, toByteOffset: (r * 4 + c) * 8, as: Double.self) }
        }
    }

    /// `self` then `b`: the matrix product self · b.
    @inline(__always)
    public func concat(_ b: M4) -> M4 {
        let a = m, c = b.m
        return M4((
            a.0 * c.0 + a.1 * c.4 + a.2 * c.8 + a.3 * c.12,
            a.0 * c.1 + a.1 * c.5 + a.2 * c.9 + a.3 * c.13,
            a.0 * c.2 + a.1 * c.6 + a.2 * c.10 + a.3 * c.14,
            a.0 * c.3 + a.1 * c.7 + a.2 * c.11 + a.3 * c.15,
            a.4 * c.0 + a.5 * c.4 + a.6 * c.8 + a.7 * c.12,
            a.4 * c.1 + a.5 * c.5 + a.6 * c.9 + a.7 * c.13,
            a.4 * c.2 + a.5 * c.6 + a.6 * c.10 + a.7 * c.14,
            a.4 * c.3 + a.5 * c.7 + a.6 * c.11 + a.7 * c.15,
            a.8 * c.0 + a.9 * c.4 + a.10 * c.8 + a.11 * c.12,
            a.8 * c.1 + a.9 * c.5 + a.10 * c.9 + a.11 * c.13,
            a.8 * c.2 + a.9 * c.6 + a.10 * c.10 + a.11 * c.14,
            a.8 * c.3 + a.9 * c.7 + a.10 * c.11 + a.11 * c.15,
            a.12 * c.0 + a.13 * c.4 + a.14 * c.8 + a.15 * c.12,
            a.12 * c.1 + a.13 * c.5 + a.14 * c.9 + a.15 * c.13,
            a.12 * c.2 + a.13 * c.6 + a.14 * c.10 + a.15 * c.14,
            a.12 * c.3 + a.13 * c.7 + a.14 * c.11 + a.15 * c.15))
    }

    /// Whether the matrix maps the plane to itself and keeps z apart: only the 2D
    /// affine entries (and a z scale, which flattening sets to 0) differ from the
    /// identity's, and they are finite. Products of such matrices stay such, and
    /// ``planarConcat(_:)`` computes them.
    @inline(__always)
    var isPlanar: Bool {
        m.2 == 0 && m.3 == 0 && m.6 == 0 && m.7 == 0 && m.8 == 0 && m.9 == 0 && m.11 == 0 && m.14 == 0 && m.15 == 1
            && (m.0 + m.1 + m.4 + m.5 + m.10 + m.12 + m.13).isFinite
    }

    /// ``concat(_:)`` for two planar matrices (``isPlanar``): the terms left out are
    /// exact products with 0 (the entries are finite) and 1, so the result is the full
    /// product's, up to the sign of a zero.
    @inline(__always)
    func planarConcat(_ b: M4) -> M4 {
        let a = m, c = b.m
        return M4((
            a.0 * c.0 + a.1 * c.4, a.0 * c.1 + a.1 * c.5, 0, 0,
            a.4 * c.0 + a.5 * c.4, a.4 * c.1 + a.5 * c.5, 0, 0,
            0, 0, a.10 * c.10, 0,
            a.12 * c.0 + a.13 * c.4 + c.12, a.12 * c.1 + a.13 * c.5 + c.13, 0, 1))
    }

    /// `translation(x, y, z).concat(self)`: only the last row changes. Bit for bit the
    /// full product, whose other terms are exact multiplications by 0 and 1.
    @inline(__always)
    func translatedBefore(_ x: Double, _ y: Double, _ z: Double) -> M4 {
        var r = self
        r.m.12 = x * m.0 + y * m.4 + z * m.8 + m.12
        r.m.13 = x * m.1 + y * m.5 + z * m.9 + m.13
        r.m.14 = x * m.2 + y * m.6 + z * m.10 + m.14
        r.m.15 = x * m.3 + y * m.7 + z * m.11 + m.15
        return r
    }

    /// `self.concat(translation(x, y, z))`: each row gains its w times the offset.
    @inline(__always)
    func translatedAfter(_ x: Double, _ y: Double, _ z: Double) -> M4 {
        var r = self
        r.m.0 = m.0 + m.3 * x; r.m.1 = m.1 + m.3 * y; r.m.2 = m.2 + m.3 * z
        r.m.4 = m.4 + m.7 * x; r.m.5 = m.5 + m.7 * y; r.m.6 = m.6 + m.7 * z
        r.m.8 = m.8 + m.11 * x; r.m.9 = m.9 + m.11 * y; r.m.10 = m.10 + m.11 * z
        r.m.12 = m.12 + m.15 * x; r.m.13 = m.13 + m.15 * y; r.m.14 = m.14 + m.15 * z
        return r
    }

    @inline(__always)
    public static func translation(_ x: Double, _ y: Double, _ z: Double) -> M4 {
        M4((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1))
    }

    @inline(__always)
    public static func scale(_ x: Double, _ y: Double, _ z: Double) -> M4 {
        M4((x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1))
    }

    /// `CATransform3DMakeRotation(angle, x, y, z)`: positive angles turn clockwise on
    /// screen about +z (iOS's y-down coordinates).
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> M4 {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0 else { return .identity }
        let (ux, uy, uz) = (x / len, y / len, z / len)
        let c = mcos(angle), s = msin(angle), t = 1 - c
        return M4((c + ux * ux * t, ux * uy * t + uz * s, ux * uz * t - uy * s, 0,
                   ux * uy * t - uz * s, c + uy * uy * t, uy * uz * t + ux * s, 0,
                   ux * uz * t + uy * s, uy * uz * t - ux * s, c + uz * uz * t, 0,
                   0, 0, 0, 1))
    }

    /// Maps a point (z = 0 unless given) and divides by w.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        let w = x * m.3 + y * m.7 + z * m.11 + m.15
        let px = x * m.0 + y * m.4 + z * m.8 + m.12
        let py = x * m.1 + y * m.5 + z * m.9 + m.13
        let pz = x * m.2 + y * m.6 + z * m.10 + m.14
        return (px / w, py / w, pz / w, w)
    }

    var determinant3x3: Double {
        m.0 * (m.5 * m.10 - m.6 * m.9) - m.1 * (m.4 * m.10 - m.6 * m.8) + m.2 * (m.4 * m.9 - m.5 * m.8)
    }

    /// The inverse, or nil when singular.
    func inverse() -> M4? {
        let a = array
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10]
        inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10]
        inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9]
        inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9]
        inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10]
        inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10]
        inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9]
        inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9]
        inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6]
        inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6]
        inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5]
        inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5]
        inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6]
        inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6]
        inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5]
        inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5]
        let det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12]
        guard det != 0, det.isFinite else { return nil }
        return M4(inv.map { $0 / det })
    }

    init(_ a: [Double]) {
        self.init((a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]))
    }
}

extension TransformFunction {
    /// The function's matrix in Core Animation's layout.
    var matrix: M4 {
        switch self {
        case .translate(let x, let y, let z): return .translation(x, y, z)
        case .scale(let x, let y, let z): return .scale(x, y, z)
        case .rotate(let x, let y, let z, let a): return .rotation(a, x, y, z)
        case .skew(let ax, let ay):
            // CSS skew: x' = x + tan(ax)·y, y' = tan(ay)·x + y.
            return M4((1, mtan(ay), 0, 0, mtan(ax), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        case .perspective(let d):
            guard d.isFinite, d != 0 else { return .identity }
            return M4((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1))
        case .matrix(let m): return M4(m)
        }
    }
}

extension Transform {
    /// The list's matrix. Functions apply right to left to a point, as in CSS, so the
    /// rightmost comes first in Core Animation's concatenation order.
    public var matrix: M4 {
        var result = M4.identity
        for f in functions.reversed() { result = result.concat(f.matrix) }
        return result
    }
}

// Rounding without a call into libm: Swift's baseline x86-64 target has no rounding
// instruction, so `rounded(_:)` is a library call, and media timing rounds several
// times per animation per frame. Each helper gives `rounded(_:)`'s bits for every
// input (signed zeros included; `RoundingTests` checks them): below 2^52 the
// truncation through Int64 is exact, and beyond it (or for NaN) the library decides.

/// `x.rounded(.down)`.
@inline(__always)
func roundedDown(_ x: Double) -> Double {
    guard abs(x) < 0x1p52 else { return x.rounded(.down) }
    let t = Double(Int64(x))
    if t == x { return x }
    return t > x ? t - 1 : t
}

/// `x.rounded(.up)`.
@inline(__always)
func roundedUp(_ x: Double) -> Double {
    guard abs(x) < 0x1p52 else { return x.rounded(.up) }
    let t = Double(Int64(x))
    if t == x { return x }
    if t < x { return t + 1 }
    return t == 0 ? -0.0 : t
}

/// `x.rounded()`: to nearest, ties away from zero.
@inline(__always)
func roundedToNearest(_ x: Double) -> Double {
    guard abs(x) < 0x1p52 else { return x.rounded() }
    let t = Double(Int64(x))
    if t == x { return x }
    let fraction = x - t
    if fraction >= 0.5 { return t + 1 }
    if fraction <= -0.5 { return t - 1 }
    return t == 0 ? (x < 0 ? -0.0 : 0.0) : t
}
