import AnimcIR
@testable import AnimcRuntime
import Foundation
import Testing

/// Whole-transform animations interpolate as Core Animation interpolates CATransform3D:
/// by decomposition. The reference here is written from the published algorithm (CSS
/// Transforms 2, "Decomposing a 3D matrix" and "Recomposing to a 3D matrix", after
/// unmatrix in Graphics Gems II), in plain arrays, independently of the runtime's
/// implementation, and compared with what the runtime evaluates at many times.
@Suite struct TransformInterpolationTests {
    typealias Matrix = [[Double]]

    // MARK: The reference

    struct Parts {
        var translation = [0.0, 0, 0], scale = [1.0, 1, 1], skew = [0.0, 0, 0]
        var perspective = [0.0, 0, 0, 1], quaternion = [0.0, 0, 0, 1]
    }

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func inverse(_ m: Matrix) -> Matrix? {
        var a = m, inv = (0..<4).map { i in (0..<4).map { j in i == j ? 1.0 : 0 } }
        for c in 0..<4 {
            guard let p = (c..<4).max(by: { abs(a[$0][c]) < abs(a[$1][c]) }), abs(a[p][c]) > 1e-300 else { return nil }
            a.swapAt(c, p); inv.swapAt(c, p)
            let d = a[c][c]
            for j in 0..<4 { a[c][j] /= d; inv[c][j] /= d }
            for r in 0..<4 where r != c {
                let f = a[r][c]
                for j in 0..<4 { a[r][j] -= f * a[c][j]; inv[r][j] -= f * inv[c][j] }
            }
        }
        return inv
    }

    static func decompose(_ input: Matrix) -> Parts? {
        var matrix = input
        guard matrix[3][3] != 0 else { return nil }
        for i in 0..<4 { for j in 0..<4 { matrix[i][j] /= input[3][3] } }
        var perspectiveMatrix = matrix
        for i in 0..<3 { perspectiveMatrix[i][3] = 0 }
        perspectiveMatrix[3][3] = 1
        guard let inversePerspective = inverse(perspectiveMatrix) else { return nil }
        var parts = Parts()
        if matrix[0][3] != 0 || matrix[1][3] != 0 || matrix[2][3] != 0 {
            let rhs = [matrix[0][3], matrix[1][3], matrix[2][3], matrix[3][3]]
            // multVecMatrix(rhs, transpose(inverse)): each component is a row of the inverse times rhs.
            parts.perspective = (0..<4).map { i in (0..<4).reduce(0) { $0 + inversePerspective[i][$1] * rhs[$1] } }
        }
        parts.translation = [matrix[3][0], matrix[3][1], matrix[3][2]]
        var row = (0..<3).map { i in [matrix[i][0], matrix[i][1], matrix[i][2]] }
        func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func normalize(_ v: [Double]) -> [Double] { let l = length(v); return v.map { $0 / l } }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] { (0..<3).map { a[$0] * sa + b[$0] * sb } }
        func cross(_ a: [Double], _ b: [Double]) -> [Double] { [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]] }
        parts.scale[0] = length(row[0]); row[0] = normalize(row[0])
        parts.skew[0] = dot(row[0], row[1]); row[1] = combine(row[1], row[0], 1, -parts.skew[0])
        parts.scale[1] = length(row[1]); row[1] = normalize(row[1]); parts.skew[0] /= parts.scale[1]
        parts.skew[1] = dot(row[0], row[2]); row[2] = combine(row[2], row[0], 1, -parts.skew[1])
        parts.skew[2] = dot(row[1], row[2]); row[2] = combine(row[2], row[1], 1, -parts.skew[2])
        parts.scale[2] = length(row[2]); row[2] = normalize(row[2]); parts.skew[1] /= parts.scale[2]; parts.skew[2] /= parts.scale[2]
        if dot(row[0], cross(row[1], row[2])) < 0 {
            for i in 0..<3 { parts.scale[i] *= -1; row[i] = row[i].map { -$0 } }
        }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        parts.quaternion = q
        return parts
    }

    /// Scale, then the shears, then rotation, then translation, then perspective, in
    /// Core Animation's row-vector order. The spec's pseudo-code multiplies in the YZ,
    /// XZ, XY shears in that order in column-vector terms, which is XY·XZ·YZ here.
    static func recompose(_ p: Parts) -> Matrix {
        let (x, y, z, w) = (p.quaternion[0], p.quaternion[1], p.quaternion[2], p.quaternion[3])
        // The column-vector rotation of the quaternion, transposed for row vectors.
        let rotation: Matrix = [[1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0],
                                [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0],
                                [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0],
                                [0, 0, 0, 1]]
        func identity() -> Matrix { (0..<4).map { i in (0..<4).map { j in i == j ? 1.0 : 0 } } }
        var scale = identity(); for i in 0..<3 { scale[i][i] = p.scale[i] }
        var xy = identity(); xy[1][0] = p.skew[0]
        var xz = identity(); xz[2][0] = p.skew[1]
        var yz = identity(); yz[2][1] = p.skew[2]
        var translation = identity(); translation[3] = [p.translation[0], p.translation[1], p.translation[2], 1]
        var perspective = identity(); for i in 0..<4 { perspective[i][3] = p.perspective[i] }
        return [xy, xz, yz, rotation, translation, perspective].reduce(scale) { multiply($0, $1) }
    }

    /// Parts lerped and the quaternion slerped, taking the short way (one end negated
    /// when the dot product is negative: see docs/semantics.md, Transforms).
    static func interpolate(_ a: Parts, _ b: Parts, _ t: Double) -> Parts {
        func lerp(_ x: [Double], _ y: [Double]) -> [Double] { zip(x, y).map { $0 + ($1 - $0) * t } }
        var r = Parts()
        r.translation = lerp(a.translation, b.translation); r.scale = lerp(a.scale, b.scale)
        r.skew = lerp(a.skew, b.skew); r.perspective = lerp(a.perspective, b.perspective)
        var qb = b.quaternion
        var product = zip(a.quaternion, qb).reduce(0) { $0 + $1.0 * $1.1 }
        if product < 0 { qb = qb.map { -$0 }; product = -product }
        product = min(product, 1)
        if product >= 1 - 1e-15 { r.quaternion = a.quaternion; return r }
        let theta = acos(product)
        let wb = sin(t * theta) / (1 - product * product).squareRoot()
        let wa = cos(t * theta) - product * wb
        r.quaternion = zip(a.quaternion, qb).map { $0 * wa + $1 * wb }
        return r
    }

    static func rows(_ m: M4) -> Matrix { (0..<4).map { i in (0..<4).map { j in m[i, j] } } }

    // MARK: Cases

    static let deg = Double.pi / 180
    /// The 3D spinner of the issue: `rotateY(b) perspective(100) rotateX(a)`.
    static func spinner(_ a: Double, _ b: Double) -> Transform {
        Transform([.rotate(x: 0, y: 1, z: 0, angle: b * deg), .perspective(distance: 100), .rotate(x: 1, y: 0, z: 0, angle: a * deg)])
    }

    static let pairs: [(String, Transform, Transform)] = [
        ("spinner, first half", spinner(0, 0), spinner(-179.9, 0)),
        ("spinner, second half", spinner(-180.1, 0), spinner(-180, -179.9)),
        ("identity to a 3D turn", .identity, Transform([.rotate(x: 1, y: 5, z: 0, angle: 100 * deg)])),
        ("translate, rotate, scale", Transform([.translate(x: 10, y: -4, z: 3), .rotate(x: 0, y: 0, z: 1, angle: -45 * deg), .scale(x: 0.25, y: 0.25, z: 1)]),
         Transform([.translate(x: -30, y: 12, z: 0), .rotate(x: 0, y: 0, z: 1, angle: 80 * deg), .scale(x: 2, y: 1.5, z: 1)])),
        ("skew and perspective", Transform([.skew(x: 20 * deg, y: 0), .perspective(distance: 500)]),
         Transform([.perspective(distance: 200), .rotate(x: 0, y: 1, z: 0, angle: 60 * deg), .skew(x: 0, y: -10 * deg)])),
        ("a mirror", Transform([.scale(x: -1, y: 1, z: 1)]), Transform([.scale(x: 1, y: 2, z: 1), .rotate(x: 0, y: 0, z: 1, angle: 30 * deg)])),
    ]

    @Test(arguments: 0..<pairs.count)
    func matchesThePublishedDecomposition(_ index: Int) throws {
        let (name, from, to) = Self.pairs[index]
        let animation = Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))
        let timeline = Build.timeline([animation])
        let a = try #require(Self.decompose(Self.rows(from.matrix)))
        let b = try #require(Self.decompose(Self.rows(to.matrix)))
        for step in 0...40 {
            let t = Double(step) / 40
            let expected = Self.recompose(Self.interpolate(a, b, t))
            guard case .transform(let got)? = timeline.value("transform", layer: 0, in: timeline.state(at: t)) else {
                Issue.record("\(name): no transform at \(t)")
                return
            }
            let m = Self.rows(got.matrix)
            for i in 0..<4 { for j in 0..<4 {
                #expect(abs(m[i][j] - expected[i][j]) < 1e-9, "\(name) at t = \(t): m\(i + 1)\(j + 1) = \(m[i][j]), expected \(expected[i][j])")
            } }
        }
    }

    /// Interpolating the functions' arguments gives other frames for the spinner: the
    /// difference the port found, and why matrices are the default.
    @Test func functionByFunctionDiffersForTheSpinner() {
        // The second half of the flip: the x turn is done and the y turn runs, behind
        // the perspective, which the decomposition cannot keep between the two turns.
        let from = Self.spinner(-180, 0), to = Self.spinner(-180, -179.9)
        let matrices = Build.timeline([Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))])
        let functions = Build.timeline([Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1),
                                                    interpolation: .functions)])
        guard case .transform(let m)? = matrices.value("transform", layer: 0, in: matrices.state(at: 0.5)),
              case .transform(let f)? = functions.value("transform", layer: 0, in: functions.state(at: 0.5)) else {
            Issue.record("no transform")
            return
        }
        let difference = zip(m.matrix.array, f.matrix.array).map { abs($0 - $1) }.max() ?? 0
        #expect(difference > 1e-3)
        // The function-wise value is the written angles, the y turn half done.
        let written = Self.spinner(-180, -89.95).matrix.array
        #expect(zip(f.matrix.array, written).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    /// A quarter turn from 180° to 270° about one axis goes forward 90°, whatever sign
    /// rounding gave the half turn's quaternion.
    @Test func aQuarterTurnAfterAHalfTurnGoesForward() {
        let axis = (1.0, 5.0, 0.0)
        let from = Transform([.rotate(x: axis.0, y: axis.1, z: axis.2, angle: .pi)])
        let to = Transform([.rotate(x: axis.0, y: axis.1, z: axis.2, angle: 1.5 * .pi)])
        let t = Build.timeline([Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))])
        guard case .transform(let got)? = t.value("transform", layer: 0, in: t.state(at: 0.5)) else { Issue.record("no transform"); return }
        let expected = Transform([.rotate(x: axis.0, y: axis.1, z: axis.2, angle: 1.25 * .pi)]).matrix.array
        #expect(zip(got.matrix.array, expected).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    /// Between two 2D transforms every frame is 2D: nothing leaks into z. (The CSS
    /// text's square roots turned rounding into z terms of 1e-9; the runtime uses one
    /// square root, Shepperd's method.)
    @Test func twoDimensionalStaysTwoDimensional() {
        let from = Transform([.translate(x: 10, y: -4, z: 0), .rotate(x: 0, y: 0, z: 1, angle: -45 * Self.deg), .scale(x: 0.25, y: 0.5, z: 1)])
        let to = Transform([.rotate(x: 0, y: 0, z: 1, angle: 170 * Self.deg), .skew(x: 10 * Self.deg, y: 0), .translate(x: 3, y: 9, z: 0)])
        let t = Build.timeline([Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))])
        for step in 0...100 {
            guard case .transform(let got)? = t.value("transform", layer: 0, in: t.state(at: Double(step) / 100)) else { continue }
            let m = got.matrix
            #expect(m[0, 2] == 0 && m[1, 2] == 0 && m[2, 0] == 0 && m[2, 1] == 0 && m[3, 2] == 0 && m[2, 2] == 1,
                    "a z term at \(Double(step) / 100)")
        }
    }

    /// A zero scale on an axis is kept, not a reason to snap: SpinKit's wave animates
    /// CATransform3DMakeScale(1, 0.4, 0) to (1, 1, 0), and at the middle the bar is
    /// scaled (1, 0.7, 0). Flat matrices rebuild exactly from their parts.
    @Test func zeroScalesInterpolate() {
        let from = Transform([.scale(x: 1, y: 0.4, z: 0)]), to = Transform([.scale(x: 1, y: 1, z: 0)])
        let t = Build.timeline([Build.basic("transform", from: .transform(from), to: .transform(to), Timing(duration: 1))])
        guard case .transform(let got)? = t.value("transform", layer: 0, in: t.state(at: 0.5)) else { Issue.record("no transform"); return }
        #expect(zip(got.matrix.array, Transform([.scale(x: 1, y: 0.7, z: 0)]).matrix.array).allSatisfy { abs($0 - $1) < 1e-12 })
        for flat in [Transform([.rotate(x: 0, y: 0, z: 1, angle: 0.3), .scale(x: 0, y: 2, z: 1)]),
                     Transform([.rotate(x: 1, y: 1, z: 0, angle: 0.7), .scale(x: 0, y: 0, z: 3)]),
                     Transform([.scale(x: 0, y: 0, z: 0), .translate(x: 4, y: 5, z: 6)])] {
            let m = flat.matrix
            guard let parts = DecomposedTransform(m) else { Issue.record("\(flat) did not decompose"); continue }
            #expect(zip(parts.matrix.array, m.array).allSatisfy { abs($0 - $1) < 1e-12 }, "\(flat)")
        }
        // Flattened after a rotation, two rows are parallel rather than zero: that has no
        // parts of this form, and the segment switches at its middle (as in CSS).
        #expect(DecomposedTransform(Transform([.scale(x: 0, y: 2, z: 1), .rotate(x: 0, y: 0, z: 1, angle: 0.3)]).matrix) == nil)
    }
}
