import AnimcIR

/// Keyframes over fixed-width vectors of doubles: numbers, points, sizes, rects,
/// colours, lists and paths (as their encoded doubles), and discrete values (symbol
/// indices): the key times, tangents and arc tables a mode needs, computed once.
/// Segments are found and values interpolated by ``KeyframeTable``, over these arrays
/// here and over a copy in the flat plan's storage.
// The keyframe stores are classes, not structs: the tree evaluator binds them out of
// enum payloads for every sample, and a struct of six arrays costs six retains and
// releases per binding where a class costs one.
final class VectorKeyframes: Sendable {
    enum Mode: Sendable { case linear, discrete, cubic, cubicPaced }

    let width: Int
    let count: Int
    /// `count` values of `width` doubles each.
    let values: [Double]
    /// One per value (count + 1 in discrete mode), non-decreasing in [0, 1].
    let keyTimes: [Double]
    /// One per segment, or empty for linear segments.
    let segmentTiming: [CompiledTimingFunction]
    let mode: Mode
    /// Kochanek–Bartels tangents (cubic modes): leaving and arriving at each key.
    let outTangents: [Double]
    let inTangents: [Double]
    /// cubicPaced: per segment, arc length at 64 even steps of the spline parameter
    /// (arcSamples + 1 numbers per segment).
    let flatArcTables: [Double]

    static let arcSamples = 64

    init(width: Int, values: [Double], keyTimes explicit: [Double]?, segmentTiming: [CompiledTimingFunction],
         mode: CalculationMode, tension: [Double] = [], continuity: [Double] = [], bias: [Double] = [],
         interpolates: Bool = true) {
        self.width = width
        count = width == 0 ? 0 : values.count / width
        self.values = values
        let n = count
        switch mode {
        case .discrete: self.mode = .discrete
        case .cubic: self.mode = interpolates && n > 1 ? .cubic : .linear
        case .cubicPaced: self.mode = interpolates && n > 1 ? .cubicPaced : .linear
        case .linear, .paced: self.mode = interpolates ? .linear : .discrete
        }
        if self.mode == .cubic || self.mode == .cubicPaced {
            (outTangents, inTangents) = VectorKeyframes.tangents(values, width: width, count: n,
                                                                 tension: tension, continuity: continuity, bias: bias)
        } else {
            (outTangents, inTangents) = ([], [])
        }
        var times = explicit ?? []
        var tables: [[Double]] = []
        if self.mode == .cubicPaced {
            for i in 0..<(n - 1) {
                var table = [0.0]
                var previous = VectorKeyframes.hermitePoint(values, outTangents, inTangents, width, i, 0)
                for j in 1...VectorKeyframes.arcSamples {
                    let p = VectorKeyframes.hermitePoint(values, outTangents, inTangents, width, i, Double(j) / Double(VectorKeyframes.arcSamples))
                    var d = 0.0
                    for c in 0..<width { d += (p[c] - previous[c]) * (p[c] - previous[c]) }
                    table.append(table[j - 1] + d.squareRoot())
                    previous = p
                }
                tables.append(table)
            }
            times = VectorKeyframes.pacedTimes(tables.map { $0[VectorKeyframes.arcSamples] })
        } else if mode == .paced {
            var distances: [Double] = []
            for i in 0..<max(n - 1, 0) {
                var d = 0.0
                for c in 0..<width {
                    let delta = values[(i + 1) * width + c] - values[i * width + c]
                    d += delta * delta
                }
                distances.append(d.squareRoot())
            }
            times = VectorKeyframes.pacedTimes(distances)
        }
        // Validated IR always has the right count; a hand-made composition may not, and
        // the evaluation reads key times through raw pointers.
        if times.count != (self.mode == .discrete ? n + 1 : n) {
            times = self.mode == .discrete
                ? (0...n).map { Double($0) / Double(max(n, 1)) }
                : (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
        }
        keyTimes = times
        flatArcTables = tables.flatMap { $0 }
        self.segmentTiming = mode.isPaced ? [] : segmentTiming
    }

    /// Key times proportional to cumulative distance (CA's paced mode); equal spacing
    /// when every distance is zero.
    static func pacedTimes(_ distances: [Double]) -> [Double] {
        let total = distances.reduce(0, +)
        var times = [0.0]
        var sum = 0.0
        for (i, d) in distances.enumerated() {
            sum += d
            times.append(total > 0 ? sum / total : Double(i + 1) / Double(distances.count))
        }
        if total > 0 { times[times.count - 1] = 1 }
        return times
    }

    /// Kochanek–Bartels tangents with the end keys duplicated (v₋₁ = v₀, vₙ = vₙ₋₁), which
    /// gives 0.5625 at the middle of the first segment of [0, 1, 0] (semantics.md §17).
    static func tangents(_ v: [Double], width w: Int, count n: Int, tension: [Double], continuity: [Double],
                         bias: [Double]) -> ([Double], [Double]) {
        var out = [Double](repeating: 0, count: n * w)
        var inn = [Double](repeating: 0, count: n * w)
        for i in 0..<n {
            let t = i < tension.count ? tension[i] : 0
            let c = i < continuity.count ? continuity[i] : 0
            let b = i < bias.count ? bias[i] : 0
            let prev = max(i - 1, 0), next = min(i + 1, n - 1)
            for k in 0..<w {
                let d0 = v[i * w + k] - v[prev * w + k]
                let d1 = v[next * w + k] - v[i * w + k]
                out[i * w + k] = (1 - t) * (1 + b) * (1 + c) / 2 * d0 + (1 - t) * (1 - b) * (1 - c) / 2 * d1
                inn[i * w + k] = (1 - t) * (1 + b) * (1 - c) / 2 * d0 + (1 - t) * (1 - b) * (1 + c) / 2 * d1
            }
        }
        return (out, inn)
    }

    static func hermitePoint(_ v: [Double], _ out: [Double], _ inn: [Double], _ w: Int, _ i: Int, _ s: Double) -> [Double] {
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        return (0..<w).map { k in
            h00 * v[i * w + k] + h10 * out[i * w + k] + h01 * v[(i + 1) * w + k] + h11 * inn[(i + 1) * w + k]
        }
    }

    /// Runs `body` with a view of these keyframes, the form the evaluation works on.
    @inline(__always)
    func withTable<R>(_ body: (KeyframeTable) -> R) -> R {
        values.withUnsafeBufferPointer { v in
        keyTimes.withUnsafeBufferPointer { k in
        segmentTiming.withUnsafeBufferPointer { f in
        outTangents.withUnsafeBufferPointer { o in
        inTangents.withUnsafeBufferPointer { i in
        flatArcTables.withUnsafeBufferPointer { a in
            body(KeyframeTable(width: width, count: count, mode: mode, values: v.baseAddress, keyTimes: k.baseAddress,
                               timing: f.baseAddress, timingCount: f.count, outTangents: o.baseAddress, inTangents: i.baseAddress,
                               arcTables: a.baseAddress))
        }
        }
        }
        }
        }
        }
    }

    /// Writes the value at progress `p` (after the animation's timing function).
    @inline(__always)
    func evaluate(_ p: Double, hint: inout Int, before: Bool, out: UnsafeMutablePointer<Double>) {
        withTable { table in
            var h = hint
            table.write(table.locate(p, hint: &h, before: before), out: out)
            hint = h
        }
    }

    /// `evaluate` for width 1, returning the value instead of writing it: the
    /// single-property sampler's path, where the pointer plumbing showed up in profiles.
    @inline(__always)
    func scalar(_ p: Double, hint: inout Int, before: Bool) -> Double {
        withTable { table in
            var out = 0.0
            var h = hint
            withUnsafeMutablePointer(to: &out) { table.write(table.locate(p, hint: &h, before: before), out: $0) }
            hint = h
            return out
        }
    }

    /// The final value, for `cumulative`.
    var endValue: [Double] { count == 0 ? [] : Array(values[((count - 1) * width)...]) }
}

/// Keyframes over transforms. Each segment interpolates as decomposed matrices, as
/// Core Animation interpolates CATransform3D (the short way round); with
/// ``TransformInterpolation/functions``, lists whose functions match interpolate
/// function by function (so `rotate(15deg)` → `rotate(360deg)` turns 345°).
final class TransformKeyframes: Sendable {
    enum Segment: Sendable {
        case functions([TransformFunction], [TransformFunction])
        case decomposed(DecomposedTransform, DecomposedTransform)
        /// A matrix that cannot be decomposed switches at the midpoint (CSS's rule).
        case snap(M4, M4)
    }

    let keyTimes: [Double]
    let segmentTiming: [CompiledTimingFunction]
    let matrices: [M4]
    let segments: [Segment]
    let discrete: Bool

    init(_ transforms: [Transform], keyTimes explicit: [Double]?, segmentTiming: [CompiledTimingFunction], mode: CalculationMode,
         interpolation: TransformInterpolation) {
        matrices = transforms.map(\.matrix)
        discrete = mode == .discrete
        let n = transforms.count
        var segments: [Segment] = []
        for i in 0..<max(n - 1, 0) {
            let a = transforms[i], b = transforms[i + 1]
            if interpolation == .functions && a.interpolatesComponentwise(with: b) {
                let (pa, pb) = TransformKeyframes.padded(a.functions, b.functions)
                segments.append(.functions(pa, pb))
            } else if let da = DecomposedTransform(matrices[i]), let db = DecomposedTransform(matrices[i + 1]) {
                segments.append(.decomposed(da, db))
            } else {
                segments.append(.snap(matrices[i], matrices[i + 1]))
            }
        }
        self.segments = segments
        if let explicit, !mode.isPaced {
            keyTimes = explicit
        } else {
            keyTimes = discrete ? (0...n).map { Double($0) / Double(max(n, 1)) } : (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
        }
        self.segmentTiming = mode.isPaced ? [] : segmentTiming
    }

    /// Pads the shorter list (only the identity, an empty list, is ever shorter) with
    /// identity functions of the other list's kinds.
    static func padded(_ a: [TransformFunction], _ b: [TransformFunction]) -> ([TransformFunction], [TransformFunction]) {
        if a.isEmpty { return (b.map(\.identityCounterpart), b) }
        if b.isEmpty { return (a, a.map(\.identityCounterpart)) }
        return (a, b)
    }

    @inline(__always)
    func evaluate(_ p: Double, hint: inout Int, before: Bool) -> M4 {
        let n = matrices.count
        if n == 0 { return .identity }
        if n == 1 { return matrices[0] }
        if discrete {
            if p >= 1 { return matrices[n - 1] }
            var i = min(max(hint, 0), n - 1)
            while i < n - 1 && keyTimes[i + 1] <= p { i += 1 }
            while i > 0 && keyTimes[i] > p { i -= 1 }
            hint = i
            return matrices[i]
        }
        // Key times short of 0 or 1 hold the end values (see VectorKeyframes.heldIndex).
        if p > keyTimes[n - 1] && keyTimes[n - 1] < 1 { return matrices[n - 1] }
        if p < keyTimes[0] && keyTimes[0] > 0 { return matrices[0] }
        var i = min(max(hint, 0), n - 2)
        while i < n - 2 && keyTimes[i + 1] <= p { i += 1 }
        while i > 0 && keyTimes[i] > p { i -= 1 }
        hint = i
        let k0 = keyTimes[i], k1 = keyTimes[i + 1]
        var s = k1 > k0 ? (p - k0) / (k1 - k0) : (p >= k1 ? 1 : 0)
        if i < segmentTiming.count { s = segmentTiming[i].apply(s, before: before) }
        return TransformKeyframes.interpolate(segments[i], s)
    }

    static func interpolate(_ segment: Segment, _ s: Double) -> M4 {
        switch segment {
        case .functions(let a, let b):
            var result = M4.identity
            var k = a.count - 1
            while k >= 0 {
                result = result.concat(interpolateFunction(a[k], b[k], s).matrix)
                k -= 1
            }
            return result
        case .decomposed(let a, let b):
            return DecomposedTransform.interpolate(a, b, s).matrix
        case .snap(let a, let b):
            return s < 0.5 ? a : b
        }
    }

    static func interpolateFunction(_ a: TransformFunction, _ b: TransformFunction, _ s: Double) -> TransformFunction {
        @inline(__always) func l(_ x: Double, _ y: Double) -> Double { (1 - s) * x + s * y }
        switch (a, b) {
        case let (.translate(x1, y1, z1), .translate(x2, y2, z2)): return .translate(x: l(x1, x2), y: l(y1, y2), z: l(z1, z2))
        case let (.scale(x1, y1, z1), .scale(x2, y2, z2)): return .scale(x: l(x1, x2), y: l(y1, y2), z: l(z1, z2))
        case let (.rotate(x, y, z, a1), .rotate(_, _, _, a2)): return .rotate(x: x, y: y, z: z, angle: l(a1, a2))
        case let (.skew(x1, y1), .skew(x2, y2)): return .skew(x: l(x1, x2), y: l(y1, y2))
        case let (.perspective(d1), .perspective(d2)):
            // Interpolate 1/d so that perspective(inf), the identity, blends smoothly.
            let inv = l(d1.isFinite ? 1 / d1 : 0, d2.isFinite ? 1 / d2 : 0)
            return .perspective(distance: inv != 0 ? 1 / inv : .infinity)
        default:
            return s < 0.5 ? a : b
        }
    }
}

/// Motion along a path: a point and, with `rotationMode`, a heading.
final class MotionTrack: Sendable {
    let path: MeasuredPath
    let paced: Bool
    /// One per vertex (the start, then each segment's end).
    let keyTimes: [Double]
    let segmentTiming: [CompiledTimingFunction]
    let rotation: RotationMode

    init(_ m: Motion, duration: Double) {
        path = MeasuredPath(m.path)
        paced = m.calculationMode.isPaced
        let vertices = path.segmentCount + 1
        if let k = m.keyTimes, k.count == vertices, !paced {
            keyTimes = k
        } else {
            keyTimes = (0..<vertices).map { Double($0) / Double(max(vertices - 1, 1)) }
        }
        segmentTiming = paced ? [] : m.timingFunctions.map { CompiledTimingFunction($0, duration: duration) }
        rotation = m.rotationMode
    }

    /// Position at progress `p`, and the heading in radians (atan2 of the exact tangent,
    /// plus π for `autoReverse`).
    @inline(__always)
    func evaluate(_ p: Double, hint: inout Int, before: Bool) -> (Point, Double) {
        guard path.segmentCount > 0 else { return (Point(0, 0), 0) }
        let segment: Int
        let t: Double
        if paced {
            (segment, t) = path.location(atDistance: min(max(p, 0), 1) * path.totalLength)
        } else {
            let last = path.segmentCount - 1
            var i = min(max(hint, 0), last)
            while i < last && keyTimes[i + 1] <= p { i += 1 }
            while i > 0 && keyTimes[i] > p { i -= 1 }
            hint = i
            let k0 = keyTimes[i], k1 = keyTimes[i + 1]
            var s = k1 > k0 ? (p - k0) / (k1 - k0) : (p >= k1 ? 1 : 0)
            if i < segmentTiming.count { s = segmentTiming[i].apply(s, before: before) }
            segment = i
            t = min(max(s, 0), 1)
        }
        let point = path.point(segment: segment, t: t)
        guard rotation != .none else { return (point, 0) }
        let d = path.tangent(segment: segment, t: t)
        var angle = matan2(d.y, d.x)
        if rotation == .autoReverse { angle += .pi }
        return (point, angle)
    }
}
