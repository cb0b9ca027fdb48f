/// Where a progress falls among keyframes: the part of keyframe evaluation that
/// depends only on the key times, the segment timing functions and the mode, so
/// that tracks sharing those (the opacity, scale and position of one group, say)
/// find their segment and solve their timing curve once.
enum KeyLocation {
    /// Nothing to write (no keyframes).
    case none
    /// Key `index`'s value, unchanged (one key, discrete, or held outside the key times).
    case key(Int)
    /// Within segment `index` at eased fraction `fraction`.
    case segment(Int, Double)
}

/// Vector keyframes as plain memory: the one place keyframe segments are found and
/// interpolated, by ``VectorKeyframes`` (over its arrays) and by the flat evaluation
/// plan (over its storage) alike, so both give the same bits.
///
/// A view, not an owner: whoever makes one keeps the memory alive while it is used.
struct KeyframeTable {
    var width: Int
    var count: Int
    var mode: VectorKeyframes.Mode
    /// `count` values of `width` doubles each.
    var values: UnsafePointer<Double>?
    /// One per value (count + 1 in discrete mode), non-decreasing.
    var keyTimes: UnsafePointer<Double>?
    /// One per segment; fewer (none) means linear segments.
    var timing: UnsafePointer<CompiledTimingFunction>?
    var timingCount: Int
    /// Cubic modes: Kochanek–Bartels tangents leaving and arriving at each key.
    var outTangents: UnsafePointer<Double>?
    var inTangents: UnsafePointer<Double>?
    /// cubicPaced: arcSamples + 1 cumulative arc lengths per segment.
    var arcTables: UnsafePointer<Double>?

    /// The segment containing progress `p`: the last key time ≤ p (a later key wins at
    /// duplicates), clamped so progress outside [0, 1] extrapolates the end segments.
    /// `hint` is where the search starts (the last answer), and only that: the result
    /// does not depend on it.
    @inline(__always)
    func segment(_ p: Double, hint: inout Int, keyTimes k: UnsafePointer<Double>) -> Int {
        let last = mode == .discrete ? count - 1 : count - 2
        if last <= 0 { return 0 }
        var i = min(max(hint, 0), last)
        if k[i] <= p {
            while i < last && k[i + 1] <= p { i += 1 }
        } else {
            while i > 0 && k[i] > p { i -= 1 }
        }
        hint = i
        return i
    }

    /// Where progress `p` (after the animation's timing function) falls.
    @inline(__always)
    func locate(_ p: Double, hint: inout Int, before: Bool) -> KeyLocation {
        guard count > 0, let k = keyTimes else { return .none }
        if count == 1 { return .key(0) }
        if mode == .discrete && p >= 1 { return .key(count - 1) }
        // Key times that stop short of 0 or 1 (pasted `keyTimes: [0, 0.7]`) hold the
        // end values outside them, as Core Animation plays them.
        if mode != .discrete {
            let first = k[0], last = k[count - 1]
            if p > last && last < 1 { return .key(count - 1) }
            if p < first && first > 0 { return .key(0) }
        }
        let i = segment(p, hint: &hint, keyTimes: k)
        if mode == .discrete { return .key(p < k[0] ? 0 : i) }
        let k0 = k[i], k1 = k[i + 1]
        var s = k1 > k0 ? (p - k0) / (k1 - k0) : (p >= k1 ? 1 : 0)
        if i < timingCount, let f = timing { s = f[i].apply(s, before: before) }
        return .segment(i, s)
    }

    /// Writes the value at `location` into `out` (`width` doubles).
    @inline(__always)
    func write(_ location: KeyLocation, out: UnsafeMutablePointer<Double>) {
        guard let v = values else { return }
        switch location {
        case .none:
            return
        case .key(let index):
            let base = index * width
            for c in 0..<width { out[c] = v[base + c] }
        case .segment(let i, let s):
            let a = i * width, b = (i + 1) * width
            switch mode {
            case .linear, .discrete:
                // (1 − s)·a + s·b is exact at both ends, so an animation ends exactly on its value.
                let r = 1 - s
                for c in 0..<width { out[c] = r * v[a + c] + s * v[b + c] }
            case .cubicPaced:
                guard let tables = arcTables else { return }
                let samples = VectorKeyframes.arcSamples
                let table = tables + i * (samples + 1)
                let target = s * table[samples]
                var j = 0
                while j < samples - 1 && table[j + 1] < target { j += 1 }
                let span = table[j + 1] - table[j]
                let f = span > 0 ? (target - table[j]) / span : 0
                hermite((Double(j) + f) / Double(samples), a, b, out)
            case .cubic:
                hermite(s, a, b, out)
            }
        }
    }

    @inline(__always)
    private func hermite(_ s: Double, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<Double>) {
        guard let v = values, let o = outTangents, let n = inTangents else { return }
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        for c in 0..<width {
            out[c] = h00 * v[a + c] + h10 * o[a + c] + h01 * v[b + c] + h11 * n[b + c]
        }
    }
}
