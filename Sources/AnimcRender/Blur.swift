#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shadows: a coverage mask blurred by a Gaussian and moved, in one separable pass per axis.
enum Blur {
    /// `mask` blurred with standard deviation `sigma` pixels and moved by (dx, dy) pixels.
    /// The Gaussian is sampled at the shifted offsets and normalised, so a fractional
    /// offset moves the shadow exactly; a sigma under 0.3 px is a plain (linear) shift.
    /// Core Animation's `shadowRadius` is the Gaussian's standard deviation (a CSS blur
    /// of twice it, as the preview page draws it).
    static func gaussian(_ mask: CoverageMask, width: Int, height: Int, sigma: Double, dx: Double, dy: Double) -> CoverageMask {
        guard !mask.box.isEmpty, sigma.isFinite, dx.isFinite, dy.isFinite else { return CoverageMask(values: [], box: .empty) }
        let s = min(max(sigma, 0), 256)
        let horizontal = kernel(sigma: s, shift: dx)
        let vertical = kernel(sigma: s, shift: dy)
        // The box the result can reach: the mask's box widened by the kernels' reach.
        let box = PixelBox(x0: max(0, mask.box.x0 + horizontal.first), y0: max(0, mask.box.y0 + vertical.first),
                           x1: min(width, mask.box.x1 + horizontal.first + horizontal.weights.count - 1),
                           y1: min(height, mask.box.y1 + vertical.first + vertical.weights.count - 1))
        guard !box.isEmpty else { return CoverageMask(values: [], box: .empty) }
        var middle = [Float](repeating: 0, count: width * height)
        for y in mask.box.y0..<mask.box.y1 {
            for x in box.x0..<box.x1 {
                var sum: Float = 0
                for (k, w) in horizontal.weights.enumerated() {
                    let sx = x - horizontal.first - k
                    if sx >= mask.box.x0, sx < mask.box.x1 { sum += w * mask.values[y * width + sx] }
                }
                middle[y * width + x] = sum
            }
        }
        var out = [Float](repeating: 0, count: width * height)
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                var sum: Float = 0
                for (k, w) in vertical.weights.enumerated() {
                    let sy = y - vertical.first - k
                    if sy >= mask.box.y0, sy < mask.box.y1 { sum += w * middle[sy * width + x] }
                }
                out[y * width + x] = min(sum, 1)
            }
        }
        return CoverageMask(values: out, box: box)
    }

    /// Weights w[k] for source offsets `first + k` (result[x] = Σ w[k] · source[x − first − k]).
    static func kernel(sigma: Double, shift: Double) -> (first: Int, weights: [Float]) {
        let d = min(max(shift, -1e6), 1e6)
        if sigma < 0.3 {
            let f = d.rounded(.down), t = d - f
            return (Int(f), [Float(1 - t), Float(t)])
        }
        let reach = Int((3 * sigma).rounded(.up))
        let first = Int(d.rounded(.down)) - reach
        var weights: [Float] = []
        var total = 0.0
        for k in 0...(2 * reach + 1) {
            let u = Double(first + k) - d
            let w = exp(-u * u / (2 * sigma * sigma))
            weights.append(Float(w))
            total += w
        }
        return (first, weights.map { $0 / Float(total) })
    }
}
