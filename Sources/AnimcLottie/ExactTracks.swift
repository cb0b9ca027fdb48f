import AnimcBase
import AnimcIR
import AnimcRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An animation's value as a function of its progress u ∈ [0, 1] (before the pieces
/// map time onto it): segments between key times, each easing its own way.
struct ValueCurve {
    enum Ease {
        case linear, hold
        case cubic(BezierEasing)
    }
    struct Segment {
        var u0, u1: Double
        var v0, v1: Value
        var ease: Ease
    }
    var segments: [Segment]

    /// The value at progress `u`: the segment containing it, or the ends outside them.
    func value(at u: Double) -> Value? {
        guard let first = segments.first, let last = segments.last else { return nil }
        if u <= first.u0 { return first.v0 }
        if u >= last.u1 { return last.v1 }
        return segment(containing: u)?.value(at: u) ?? first.v0
    }

    /// The last segment of positive length that starts at or before `u` and reaches
    /// it, found by bisection (segments are in key-time order): a million keyframes
    /// must not make every lookup a scan.
    func segment(containing u: Double) -> Segment? {
        var lo = 0, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segments[mid].u0 <= u { lo = mid + 1 } else { hi = mid }
        }
        var k = lo - 1
        while k >= 0 {
            let s = segments[k]
            if s.u1 > s.u0 && u <= s.u1 { return s }
            if s.u1 < u { return nil }
            k -= 1
        }
        return nil
    }

    /// The key times strictly between `a` and `b`, in either order of the two.
    func boundaries(between a: Double, _ b: Double) -> [Double] {
        let (lo, hi) = (min(a, b), max(a, b))
        var first = 0, last = segments.count
        while first < last {
            let mid = (first + last) / 2
            if segments[mid].u1 <= lo { first = mid + 1 } else { last = mid }
        }
        var out: [Double] = []
        var k = first
        while k < segments.count, segments[k].u0 < hi {
            for u in [segments[k].u0, segments[k].u1] where u > lo && u < hi { out.append(u) }
            k += 1
        }
        return out
    }

    /// Why an animation has no curve, for the diagnostic: nil when it has one.
    static func make(_ p: PropertyAnimation, timing: Timing, model: Value) -> Result<ValueCurve, Refusal> {
        func resolve(_ a: AnimatedValue) -> Value? {
            switch a {
            case .value(let v): return v
            case .model: return model
            case .modelPlus(let d): return ValueMath.add(model, d)
            case .presentation: return nil
            }
        }
        switch p.content {
        case .basic(let from, let to):
            guard let a = resolve(from), let b = resolve(to) else { return .failure(.interpolation("'from: presentation'")) }
            guard let ease = Ease(timing.timingFunction) else { return .failure(.interpolation(timingName(timing.timingFunction))) }
            return .success(ValueCurve(segments: [Segment(u0: 0, u1: 1, v0: a, v1: b, ease: ease)]))
        case .keyframes(let k):
            guard k.calculationMode == .linear || k.calculationMode == .discrete else {
                return .failure(.interpolation("calculationMode \(k.calculationMode.rawValue)"))
            }
            guard let times = k.keyTimes, !k.values.isEmpty else { return .failure(.interpolation("paced key times")) }
            let n = k.values.count
            var segments: [Segment] = []
            if k.calculationMode == .discrete {
                for i in 0..<n {
                    let u0 = i < times.count ? times[i] : 1
                    let u1 = i + 1 < times.count ? times[i + 1] : 1
                    segments.append(Segment(u0: u0, u1: max(u0, u1), v0: k.values[i], v1: k.values[i], ease: .hold))
                }
                // The last value shows from its key time to the end.
                if let last = k.values.last, let u = segments.last?.u1, u < 1 {
                    segments.append(Segment(u0: u, u1: 1, v0: last, v1: last, ease: .hold))
                }
            } else {
                guard times.count == n else { return .failure(.interpolation("key times")) }
                if n == 1 { segments.append(Segment(u0: 0, u1: 1, v0: k.values[0], v1: k.values[0], ease: .hold)) }
                for i in 0..<max(0, n - 1) {
                    let f = i < k.timingFunctions.count ? k.timingFunctions[i] : .linear
                    guard let ease = Ease(f) else { return .failure(.interpolation(timingName(f))) }
                    segments.append(Segment(u0: times[i], u1: times[i + 1], v0: k.values[i], v1: k.values[i + 1], ease: ease))
                }
            }
            if timing.timingFunction != .linear {
                // A timing function over the whole animation warps every segment; with one
                // linear segment that is the segment's easing.
                guard segments.count == 1, case .linear = segments[0].ease, segments[0].u0 == 0, segments[0].u1 == 1,
                      let ease = Ease(timing.timingFunction) else {
                    return .failure(.interpolation("a timing function over the whole keyframe animation"))
                }
                segments[0].ease = ease
            }
            return .success(ValueCurve(segments: segments))
        case .spring: return .failure(.physics("spring"))
        case .decay: return .failure(.physics("decay"))
        case .motion: return .failure(.motion)
        }
    }

    static func timingName(_ f: TimingFunction) -> String {
        switch f {
        case .steps: return "a steps(...) timing function"
        case .spring: return "a spring timing function"
        default: return "its timing function"
        }
    }

    enum Refusal: Error, Equatable {
        case physics(String)
        case motion
        case interpolation(String)
        case combination(String)

        var isPhysicsOrMotion: Bool {
            switch self {
            case .physics, .motion: return true
            default: return false
            }
        }
    }
}

extension ValueCurve.Ease {
    init?(_ f: TimingFunction) {
        switch f {
        case .linear: self = .linear
        case .cubic(let x1, let y1, let x2, let y2): self = .cubic(BezierEasing(x1, y1, x2, y2))
        case .steps, .spring: return nil
        }
    }
}

extension ValueCurve.Segment {
    func progress(at u: Double) -> Double {
        let span = u1 - u0
        let x = span > 0 ? min(max((u - u0) / span, 0), 1) : 1
        switch ease {
        case .linear: return x
        case .hold: return 0
        case .cubic(let e): return e.progress(x)
        }
    }

    func value(at u: Double) -> Value? {
        if case .hold = ease { return u >= u1 && u1 > u0 ? v1 : v0 }
        return ValueMath.lerp(v0, v1, progress(at: u))
    }

    /// The Lottie easing of the part of this segment from ua to ub (in time order).
    func lottieEase(from ua: Double, to ub: Double) -> LottieEase? {
        let span = u1 - u0
        guard span > 0 else { return .hold }
        switch ease {
        case .hold: return .hold
        case .linear: return .linear
        case .cubic(let e):
            let (xa, xb) = ((ua - u0) / span, (ub - u0) / span)
            if xa <= 0 && xb >= 1 { return .bezier(ox: e.x1, oy: e.y1, ix: e.x2, iy: e.y2) }
            if xa >= 1 && xb <= 0 {
                // The whole segment backwards (an autoreversed pass): the mirrored curve.
                return .bezier(ox: 1 - e.x2, oy: 1 - e.y2, ix: 1 - e.x1, iy: 1 - e.y1)
            }
            guard let part = e.part(from: xa, to: xb) else { return nil }
            return .bezier(ox: part.x1, oy: part.y1, ix: part.x2, iy: part.y2)
        }
    }
}

/// Arithmetic on values, as the runtime interpolates them: numbers, points, sizes, rects
/// and colours componentwise; plane transforms by their parts (rotation the short way).
enum ValueMath {
    static func lerp(_ a: Value, _ b: Value, _ p: Double) -> Value? {
        func l(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(l(x, y))
        case let (.point(x), .point(y)): return .point(Point(l(x.x, y.x), l(x.y, y.y)))
        case let (.size(x), .size(y)): return .size(Size(l(x.width, y.width), l(x.height, y.height)))
        case let (.rect(x), .rect(y)): return .rect(Rect(l(x.x, y.x), l(x.y, y.y), l(x.width, y.width), l(x.height, y.height)))
        case let (.color(x), .color(y)):
            return .color(Color(red: l(x.red, y.red), green: l(x.green, y.green), blue: l(x.blue, y.blue), alpha: l(x.alpha, y.alpha)))
        case let (.transform(x), .transform(y)):
            guard let dx = Affine2D(x.matrix), let dy = Affine2D(y.matrix, near: dx.rotation),
                  abs(dx.skew) < 1e-12, abs(dy.skew) < 1e-12, abs(dy.rotation - dx.rotation) <= Double.pi + 1e-12 else { return nil }
            var d = Affine2D()
            d.translateX = l(dx.translateX, dy.translateX); d.translateY = l(dx.translateY, dy.translateY)
            d.scaleX = l(dx.scaleX, dy.scaleX); d.scaleY = l(dx.scaleY, dy.scaleY)
            d.rotation = l(dx.rotation, dy.rotation)
            return .transform(Transform([.matrix(d.matrix.matrix4)]))
        case let (.path(x), .path(y)) where x.hasSameStructure(as: y):
            // Core Animation morphs paths of one structure point by point.
            func lp(_ a: Point, _ b: Point) -> Point { Point(l(a.x, b.x), l(a.y, b.y)) }
            var elements: [PathElement] = []
            for (ea, eb) in zip(x.elements, y.elements) {
                switch (ea, eb) {
                case let (.move(a), .move(b)): elements.append(.move(to: lp(a, b)))
                case let (.line(a), .line(b)): elements.append(.line(to: lp(a, b)))
                case let (.quad(c1, a), .quad(c2, b)): elements.append(.quad(control: lp(c1, c2), to: lp(a, b)))
                case let (.cubic(p1, q1, a), .cubic(p2, q2, b)):
                    elements.append(.cubic(control1: lp(p1, p2), control2: lp(q1, q2), to: lp(a, b)))
                case let (.arc(c1, r1, s1, e1, cw), .arc(c2, r2, s2, e2, _)):
                    elements.append(.arc(center: lp(c1, c2), radius: l(r1, r2), startAngle: l(s1, s2), endAngle: l(e1, e2), clockwise: cw))
                case (.close, .close): elements.append(.close)
                default: return nil
                }
            }
            return .path(Path(elements))
        default:
            return a == b ? a : nil
        }
    }

    static func add(_ a: Value, _ b: Value) -> Value? {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + y)
        case let (.point(x), .point(y)): return .point(Point(x.x + y.x, x.y + y.y))
        case let (.size(x), .size(y)): return .size(Size(x.width + y.width, x.height + y.height))
        case let (.rect(x), .rect(y)): return .rect(Rect(x.x + y.x, x.y + y.y, x.width + y.width, x.height + y.height))
        case let (.color(x), .color(y)):
            return .color(Color(red: x.red + y.red, green: x.green + y.green, blue: x.blue + y.blue, alpha: x.alpha + y.alpha))
        default: return nil
        }
    }

    /// The component of a property value that a sub-key path names (`position.x` of a
    /// point), for animations whose ends default to the model value.
    static func component(_ keyPath: String, of value: Value) -> Value? {
        switch (keyPath, value) {
        case (_, _) where !keyPath.contains("."): return value
        case ("position.x", .point(let p)), ("anchorPoint.x", .point(let p)): return .number(p.x)
        case ("position.y", .point(let p)), ("anchorPoint.y", .point(let p)): return .number(p.y)
        case ("bounds.size", .rect(let r)): return .size(Size(r.width, r.height))
        case ("bounds.size.width", .rect(let r)): return .number(r.width)
        case ("bounds.size.height", .rect(let r)): return .number(r.height)
        case ("transform.rotation", .transform(let t)), ("transform.rotation.z", .transform(let t)):
            return Affine2D(t.matrix).map { .number($0.rotation) }
        case ("transform.scale", .transform(let t)), ("transform.scale.xy", .transform(let t)):
            guard let d = Affine2D(t.matrix), abs(d.scaleX - d.scaleY) < 1e-12 else { return nil }
            return .number(d.scaleX)
        case ("transform.scale.x", .transform(let t)): return Affine2D(t.matrix).map { .number($0.scaleX) }
        case ("transform.scale.y", .transform(let t)): return Affine2D(t.matrix).map { .number($0.scaleY) }
        case ("transform.translation.x", .transform(let t)): return Affine2D(t.matrix).map { .number($0.translateX) }
        case ("transform.translation.y", .transform(let t)): return Affine2D(t.matrix).map { .number($0.translateY) }
        default: return nil
        }
    }
}

/// Builds one exact track: a channel driven by one animation, through its pieces.
struct ExactTrackBuilder {
    let timeline: Timeline
    let plan: AnimcBakePlanView
    let layer: Int
    let channel: Channel
    let animation: PropertyAnimation
    let chain: [Animation]
    let curve: ValueCurve
    /// Reads the layer's values at a time (the runtime, evaluated there).
    let valuesAt: (Double) -> LayerValues

    /// The track, or nil when some piece cannot be written exactly.
    func build() -> LottieTrack? {
        guard let layerTiming = LayerTimeMap(timeline.composition, layer: layer) else { return nil }
        guard var pieces = TimePieces.pieces(chain: chain, layerSlope: layerTiming.slope, layerIntercept: layerTiming.intercept,
                                             start: plan.start, end: plan.end, limit: 4 * plan.frameCount + 64) else { return nil }
        // A keyframe at the last whole frame as well as at the out point: players that
        // approximate a long easing curve (ThorVG) still meet the last frame exactly.
        let lastFrame = plan.start + Double(max(plan.frameCount - 1, 0)) / plan.fps
        let margin = 1e-9 * max(1, abs(lastFrame))
        if let i = pieces.firstIndex(where: { $0.start < lastFrame - margin && $0.end > lastFrame + margin }) {
            var before = pieces[i], after = pieces[i]
            before.end = lastFrame
            after.start = lastFrame
            pieces.replaceSubrange(i...i, with: [before, after])
        }
        var keys: [LottieKeyframe] = []
        var previous: Double?
        for piece in pieces {
            guard var pieceKeys = self.keys(for: piece, previous: &previous) else { return nil }
            guard let last = keys.last, let first = pieceKeys.first else { keys += pieceKeys; continue }
            if equal(last.value, first.value, turnsMatter: true) {
                // The value continues: one keyframe at the seam, easing as the new piece does.
                keys[keys.count - 1] = LottieKeyframe(t: last.t, value: last.value, ease: first.ease)
                keys += pieceKeys.dropFirst()
                continue
            }
            // A jump. Lottie shows the later keyframe from its time on; where the runtime
            // still shows the earlier value at the seam (an end state that shows at its
            // own instant), the piece starts a thousandth of a frame later instead.
            keys[keys.count - 1].ease = .hold
            let seam = valuesAt(piece.start).value(of: channel, previousRotation: last.value.first)
            if let v = seam, equal(v, last.value), !equal(v, first.value) {
                var shifted = piece
                shifted.start = min(piece.start + 1e-3 / plan.fps, (piece.start + piece.end) / 2)
                guard let again = self.keys(for: shifted, previous: &previous) else { return nil }
                pieceKeys = again
            }
            keys += pieceKeys
        }
        // A track holds its last value after its last keyframe: a final keyframe with
        // the value before it says nothing.
        while keys.count >= 2, equal(keys[keys.count - 1].value, keys[keys.count - 2].value, turnsMatter: true) { keys.removeLast() }
        return keys.isEmpty ? nil : LottieTrack(keyframes: keys)
    }

    /// One piece's keyframes: from its start to its end (the last keyframe is the limit
    /// from inside the piece).
    private func keys(for piece: ProgressPiece, previous: inout Double?) -> [LottieKeyframe]? {
        let keyPath = animation.target.keyPath
        let mid = (piece.start + piece.end) / 2
        let reference = valuesAt(mid)
        func channelValue(_ v: Value?) -> [Double]? {
            var values = reference
            if let v {
                var written = v
                if animation.additive, let base = ValueMath.component(keyPath, of: timeline.composition.layers[layer].modelValue(animation.target.property)) {
                    guard let sum = ValueMath.add(base, v) else { return nil }
                    written = sum
                }
                guard values.set(keyPath, written) else { return nil }
            }
            var out = values.value(of: channel, previousRotation: previous)
            if channel.isAngle, case .number(let angle)? = v, keyPath.hasPrefix("transform.rotation"), let r = out?.first {
                // A rotation animation turns as far as its values say, whole turns
                // included, which a matrix cannot tell: continue from its own angle.
                let degrees = angle * 180 / Double.pi
                let offset = r - degrees
                out = [degrees + offset - 360 * (offset / 360).rounded()]
            }
            if channel.isAngle, let r = out?.first { previous = r }
            return out
        }
        var pieceKeys: [LottieKeyframe] = []
        switch piece.kind {
        case .absent, .constant:
            // The runtime at the piece's middle is the value throughout.
            guard let v = reference.value(of: channel, previousRotation: previous) else { return nil }
            if channel.isAngle { previous = v.first }
            pieceKeys = [LottieKeyframe(t: plan.frame(piece.start), value: v, ease: .hold),
                         LottieKeyframe(t: plan.frame(piece.end), value: v, ease: .hold)]
            if case .constant(let u) = piece.kind, let cv = curve.value(at: u) {
                guard let w = channelValue(cv), equal(w, v) else { return nil }
            }
        case .affine(let slope, let intercept):
            let ua = slope * piece.start + intercept, ub = slope * piece.end + intercept
            // Cut where the curve's segments meet.
            var cuts = [ua, ub] + curve.boundaries(between: ua, ub)
            cuts = ua <= ub ? cuts.sorted() : cuts.sorted(by: >)
            var deduped: [Double] = []
            for u in cuts where deduped.last.map({ abs($0 - u) > 1e-12 }) ?? true { deduped.append(u) }
            // Each part between cuts: its easing, halved until the part of a curve is
            // itself an easing (a part can need handles outside [0, 1] in x).
            var parts: [(u0: Double, u1: Double, ease: LottieEase, segment: ValueCurve.Segment)] = []
            func add(_ u0: Double, _ u1: Double, depth: Int) -> Bool {
                guard let s = curve.segment(containing: (u0 + u1) / 2) else { return false }
                if let e = s.lottieEase(from: u0, to: u1) { parts.append((u0, u1, e, s)); return true }
                guard depth < 6 else { return false }
                let mid = (u0 + u1) / 2
                return add(u0, mid, depth: depth + 1) && add(mid, u1, depth: depth + 1)
            }
            for (a, b) in zip(deduped, deduped.dropFirst()) {
                guard add(a, b, depth: 0) else { return nil }
            }
            for (k, part) in parts.enumerated() {
                let t = k == 0 ? piece.start : (part.u0 - intercept) / slope
                guard let v = channelValue(part.segment.value(at: part.u0)) else { return nil }
                pieceKeys.append(LottieKeyframe(t: plan.frame(t), value: v, ease: part.ease))
            }
            // The end of the piece: the limit from inside, in the segment it ends in.
            guard let lastPart = parts.last, let end = channelValue(lastPart.segment.value(at: lastPart.u1)) else { return nil }
            pieceKeys.append(LottieKeyframe(t: plan.frame(piece.end), value: end, ease: .hold))
        }
        return pieceKeys
    }

    /// Equal values; angles a whole number of turns apart are equal only when
    /// `turnsMatter` is false (they show the same, but interpolate differently after).
    private func equal(_ a: [Double], _ b: [Double], turnsMatter: Bool = false) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            abs($0 - $1) <= 1e-7 * max(1, abs($1)) || (!turnsMatter && channel.isAngle && angleClose($0, $1))
        }
    }

    private func angleClose(_ a: Double, _ b: Double) -> Bool {
        let d = (a - b).truncatingRemainder(dividingBy: 360)
        return min(abs(d), 360 - abs(d)) <= 1e-7 * max(1, abs(b))
    }
}

/// A composition time → frame view of a bake plan, over the frames exported.
struct AnimcBakePlanView {
    var start: Double
    var fps: Double
    var frameCount: Int
    /// The out point: players draw up to it (exclusive), between frames too.
    var end: Double { start + Double(frameCount) / fps }
    func frame(_ t: Double) -> Double { (t - start) * fps }
}

/// Composition time → a layer's time: the layer's and its ancestors' beginTime, speed
/// and timeOffset, which compose to one affine map. Nil when a layer has passes (its
/// time repeats or reverses): its tracks are sampled.
struct LayerTimeMap {
    var slope = 1.0
    var intercept = 0.0

    init?(_ c: Composition, layer: Int) {
        var chain: [LayerTiming] = []
        var i: Int? = layer
        var guardCount = 0
        while let k = i, k >= 0, k < c.layers.count, guardCount <= c.layers.count {
            chain.append(c.layers[k].timing)
            i = c.layers[k].parent
            guardCount += 1
        }
        guard chain.allSatisfy(\.isAffine) else { return nil }
        for t in chain.reversed() {
            // local = (parent - begin) · speed + offset
            slope *= t.speed
            intercept = (intercept - t.beginTime) * t.speed + t.timeOffset
        }
    }
}
