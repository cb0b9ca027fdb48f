/// A 3D matrix split into interpolable parts (the CSS Transforms "unmatrix"
/// decomposition, in Core Animation's row-vector layout): the matrix is
/// `scale · skew · rotation · translation · perspective`.
struct DecomposedTransform: Equatable {
    var translation: (Double, Double, Double) = (0, 0, 0)
    var scale: (Double, Double, Double) = (1, 1, 1)
    /// xy, xz, yz shear factors.
    var skew: (Double, Double, Double) = (0, 0, 0)
    var perspective: (Double, Double, Double, Double) = (0, 0, 0, 1)
    /// A unit quaternion (x, y, z, w) of the rotation, w ≥ 0.
    var quaternion: (Double, Double, Double, Double) = (0, 0, 0, 1)

    static func == (a: DecomposedTransform, b: DecomposedTransform) -> Bool {
        a.translation == b.translation && a.scale == b.scale && a.skew == b.skew && a.perspective == b.perspective
            && a.quaternion == b.quaternion
    }

    /// Decomposes `matrix`; nil when it is singular (it cannot be interpolated as parts).
    init?(_ matrix: M4) {
        var mm = matrix
        let w = mm[3, 3]
        guard w != 0, w.isFinite else { return nil }
        for r in 0..<4 { for c in 0..<4 { mm[r, c] /= w } }
        // The affine part: the matrix with its perspective column cleared.
        var affine = mm
        affine[0, 3] = 0; affine[1, 3] = 0; affine[2, 3] = 0; affine[3, 3] = 1
        if mm[0, 3] != 0 || mm[1, 3] != 0 || mm[2, 3] != 0 {
            // Solving for the perspective needs the affine part inverted.
            guard affine.determinant3x3 != 0, let inv = affine.inverse() else { return nil }
            let col = (mm[0, 3], mm[1, 3], mm[2, 3], mm[3, 3])
            perspective = (
                inv[0, 0] * col.0 + inv[0, 1] * col.1 + inv[0, 2] * col.2 + inv[0, 3] * col.3,
                inv[1, 0] * col.0 + inv[1, 1] * col.1 + inv[1, 2] * col.2 + inv[1, 3] * col.3,
                inv[2, 0] * col.0 + inv[2, 1] * col.1 + inv[2, 2] * col.2 + inv[2, 3] * col.3,
                inv[3, 0] * col.0 + inv[3, 1] * col.1 + inv[3, 2] * col.2 + inv[3, 3] * col.3)
        }
        translation = (mm[3, 0], mm[3, 1], mm[3, 2])
        var r0 = (mm[0, 0], mm[0, 1], mm[0, 2])
        var r1 = (mm[1, 0], mm[1, 1], mm[1, 2])
        var r2 = (mm[2, 0], mm[2, 1], mm[2, 2])
        // A zero scale on an axis (`CATransform3DMakeScale(1, 0.4, 0)`, which SpinKit's
        // wave animates) leaves a zero row. The CSS text gives up on such a matrix (and
        // browsers snap halfway); Core Animation animates it. Keep the scale 0 and
        // complete the rotation from the other rows, so the matrix rebuilds exactly.
        // Only a row that is zero as written counts: one that vanishes when made
        // orthogonal to the others (a nonzero row parallel to another) has no parts of
        // this form, and the matrix does not decompose.
        let tiny = 1e-12
        let flat0 = length(r0) < tiny, flat1 = length(r1) < tiny, flat2 = length(r2) < tiny
        var sx = 0.0, sy = 0.0, sz = 0.0, kxy = 0.0, kxz = 0.0, kyz = 0.0
        if !flat0 { sx = length(r0); r0 = scaled(r0, 1 / sx) }
        if !flat1 {
            if !flat0 { kxy = dot(r0, r1); r1 = combine(r1, r0, 1, -kxy) }
            sy = length(r1)
            guard sy >= tiny * max(1, abs(kxy)) else { return nil }
            r1 = scaled(r1, 1 / sy)
            kxy /= sy
        }
        if !flat2 {
            if !flat0 { kxz = dot(r0, r2); r2 = combine(r2, r0, 1, -kxz) }
            if !flat1 { kyz = dot(r1, r2); r2 = combine(r2, r1, 1, -kyz) }
            sz = length(r2)
            guard sz >= tiny * max(1, abs(kxz), abs(kyz)) else { return nil }
            r2 = scaled(r2, 1 / sz)
            kxz /= sz
            kyz /= sz
        }
        if flat0 || flat1 || flat2 { (r0, r1, r2) = DecomposedTransform.completed(r0, r1, r2, flat0, flat1, flat2) }
        // A flipped coordinate system: negate the scales and the rows.
        if dot(r0, cross(r1, r2)) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            r0 = scaled(r0, -1); r1 = scaled(r1, -1); r2 = scaled(r2, -1)
        }
        scale = (sx, sy, sz)
        skew = (kxy, kxz, kyz)
        // Rows are the row-vector rotation; the quaternion is of its column-vector
        // transpose, the usual convention. The CSS text takes each component's square
        // root separately, which turns rounding of 1e-17 into components of 1e-9 (a 2D
        // rotation leaked into z). Shepperd's method is the same rotation without that:
        // one square root, of the largest of the four, and the rest from differences.
        let (m00, m01, m02) = (r0.0, r1.0, r2.0)
        let (m10, m11, m12) = (r0.1, r1.1, r2.1)
        let (m20, m21, m22) = (r0.2, r1.2, r2.2)
        let trace = m00 + m11 + m22
        var q: (Double, Double, Double, Double)
        if trace >= m00 && trace >= m11 && trace >= m22 {
            let s = 2 * (1 + trace).squareRoot()
            q = ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4)
        } else if m00 >= m11 && m00 >= m22 {
            let s = 2 * (1 + m00 - m11 - m22).squareRoot()
            q = (s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
        } else if m11 >= m22 {
            let s = 2 * (1 + m11 - m00 - m22).squareRoot()
            q = ((m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s)
        } else {
            let s = 2 * (1 + m22 - m00 - m11).squareRoot()
            q = ((m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s)
        }
        // w ≥ 0, as the CSS decomposition gives (q and −q are the same rotation).
        if q.3 < 0 { q = (-q.0, -q.1, -q.2, -q.3) }
        quaternion = q
        let (qx, qy, qz, qw) = q
        guard [sx, sy, sz, kxy, kxz, kyz, qx, qy, qz, qw].allSatisfy(\.isFinite) else { return nil }
    }

    init() {}

    /// Fills the rows that were zero with unit vectors that make the three an
    /// orthonormal, right-handed basis with the rows that were not.
    static func completed(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ c: (Double, Double, Double),
                          _ flatA: Bool, _ flatB: Bool, _ flatC: Bool)
        -> ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double)) {
        var (r0, r1, r2) = (a, b, c)
        switch (flatA, flatB, flatC) {
        case (true, false, false): r0 = cross(r1, r2)
        case (false, true, false): r1 = cross(r2, r0)
        case (false, false, true): r2 = cross(r0, r1)
        case (false, true, true):
            r1 = perpendicular(r0); r2 = cross(r0, r1)
        case (true, false, true):
            r2 = perpendicular(r1); r0 = cross(r1, r2)
        case (true, true, false):
            r0 = perpendicular(r2); r1 = cross(r2, r0)
        case (true, true, true):
            (r0, r1, r2) = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
        case (false, false, false):
            break
        }
        return (r0, r1, r2)
    }

    /// A unit vector perpendicular to the unit vector `u`: the coordinate axis least
    /// aligned with it, made orthogonal.
    private static func perpendicular(_ u: (Double, Double, Double)) -> (Double, Double, Double) {
        let axis: (Double, Double, Double) = abs(u.0) <= abs(u.1) && abs(u.0) <= abs(u.2) ? (1, 0, 0)
            : abs(u.1) <= abs(u.2) ? (0, 1, 0) : (0, 0, 1)
        let v = combine(axis, u, 1, -dot(axis, u))
        return scaled(v, 1 / length(v))
    }

    /// Rebuilds the matrix: scale, then skew, then rotation, then translation, then perspective.
    var matrix: M4 {
        let (x, y, z, w) = quaternion
        // Column-vector rotation from the quaternion, transposed into rows.
        let c00 = 1 - 2 * (y * y + z * z), c01 = 2 * (x * y - z * w), c02 = 2 * (x * z + y * w)
        let c10 = 2 * (x * y + z * w), c11 = 1 - 2 * (x * x + z * z), c12 = 2 * (y * z - x * w)
        let c20 = 2 * (x * z - y * w), c21 = 2 * (y * z + x * w), c22 = 1 - 2 * (x * x + y * y)
        let r0 = (c00, c10, c20), r1 = (c01, c11, c21), r2 = (c02, c12, c22)
        // Skewed rows: (r0), (kxy·r0 + r1), (kxz·r0 + kyz·r1 + r2), then scaled.
        let k0 = r0
        let k1 = combine(r1, r0, 1, skew.0)
        let k2 = combine(combine(r2, r0, 1, skew.1), r1, 1, skew.2)
        let s0 = scaled(k0, scale.0), s1 = scaled(k1, scale.1), s2 = scaled(k2, scale.2)
        let affine = M4((s0.0, s0.1, s0.2, 0, s1.0, s1.1, s1.2, 0, s2.0, s2.1, s2.2, 0,
                         translation.0, translation.1, translation.2, 1))
        if perspective == (0, 0, 0, 1) { return affine }
        let p = M4((1, 0, 0, perspective.0, 0, 1, 0, perspective.1, 0, 0, 1, perspective.2, 0, 0, 0, perspective.3))
        return affine.concat(p)
    }

    /// Interpolates parts linearly and the rotation by spherical interpolation
    /// (CSS Transforms 2), which turns the short way round, as Core Animation does.
    static func interpolate(_ a: DecomposedTransform, _ b: DecomposedTransform, _ t: Double) -> DecomposedTransform {
        var r = DecomposedTransform()
        r.translation = lerp3(a.translation, b.translation, t)
        r.scale = lerp3(a.scale, b.scale, t)
        r.skew = lerp3(a.skew, b.skew, t)
        r.perspective = (a.perspective.0 + (b.perspective.0 - a.perspective.0) * t,
                         a.perspective.1 + (b.perspective.1 - a.perspective.1) * t,
                         a.perspective.2 + (b.perspective.2 - a.perspective.2) * t,
                         a.perspective.3 + (b.perspective.3 - a.perspective.3) * t)
        r.quaternion = slerp(a.quaternion, b.quaternion, t)
        return r
    }

    /// Spherical interpolation of unit quaternions, the short way: q and −q are the
    /// same rotation, and when the two ends point into opposite hemispheres (a
    /// negative dot product) one is negated. CSS's text omits this step; without it a
    /// turn from 180° to 270° about one axis went 270° backwards, because the
    /// decomposition's w ≥ 0 leaves the sign of a half turn to rounding.
    static func slerp(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double), _ t: Double)
        -> (Double, Double, Double, Double) {
        var b = b
        var product = a.0 * b.0 + a.1 * b.1 + a.2 * b.2 + a.3 * b.3
        if product < 0 {
            b = (-b.0, -b.1, -b.2, -b.3)
            product = -product
        }
        product = min(max(product, -1), 1)
        if abs(product) >= 1 - 1e-15 { return a }
        let theta = macos(product)
        let w = msin(t * theta) / (1 - product * product).squareRoot()
        let ca = mcos(t * theta) - product * w
        return (a.0 * ca + b.0 * w, a.1 * ca + b.1 * w, a.2 * ca + b.2 * w, a.3 * ca + b.3 * w)
    }

    // MARK: Euler angles, for the rotation key paths

    /// Rotation angles about x, then y, then z (applied in that order to a point).
    var eulerXYZ: (Double, Double, Double) {
        let r = matrixOfRotation
        // Row-vector R = Rx·Ry·Rz; r13 = -sin(y)·... solved below.
        let sy = -r[0, 2]
        let y = asinClamped(sy)
        if abs(sy) < 1 - 1e-12 {
            return (matan2(r[1, 2], r[2, 2]), y, matan2(r[0, 1], r[0, 0]))
        }
        // Gimbal lock: put everything in x.
        return (matan2(-r[2, 1], r[1, 1]), y, 0)
    }

    mutating func setEulerXYZ(_ x: Double, _ y: Double, _ z: Double) {
        let m = M4.rotation(x, 1, 0, 0).concat(M4.rotation(y, 0, 1, 0)).concat(M4.rotation(z, 0, 0, 1))
        if let d = DecomposedTransform(m) { quaternion = d.quaternion }
    }

    private var matrixOfRotation: M4 {
        var d = DecomposedTransform()
        d.quaternion = quaternion
        return d.matrix
    }
}

private func asinClamped(_ x: Double) -> Double { matan2(min(max(x, -1), 1), (1 - min(x * x, 1)).squareRoot()) }

@inline(__always) private func length(_ v: (Double, Double, Double)) -> Double { (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot() }
@inline(__always) private func dot(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }
@inline(__always) private func scaled(_ v: (Double, Double, Double), _ s: Double) -> (Double, Double, Double) { (v.0 * s, v.1 * s, v.2 * s) }
@inline(__always) private func combine(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ sa: Double, _ sb: Double)
    -> (Double, Double, Double) { (a.0 * sa + b.0 * sb, a.1 * sa + b.1 * sb, a.2 * sa + b.2 * sb) }
@inline(__always) private func cross(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
    (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
}
@inline(__always) private func lerp3(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
}
