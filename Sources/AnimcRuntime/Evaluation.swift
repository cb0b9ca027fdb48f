import AnimcBase
import AnimcIR

/// The buffers one evaluation writes, gathered so the core passes one value around.
struct EvalBuffers {
    var values: UnsafeMutableBufferPointer<Double>
    var angles: UnsafeMutableBufferPointer<Double>
    var hints: UnsafeMutableBufferPointer<Int>
    var scratch: UnsafeMutableBufferPointer<Double>
    /// Per transform slot (2 per layer): the component last written, and its raw value,
    /// so reading `transform.rotation.z` gives 187.5° rather than the decomposed −172.5°.
    var lastComponent: UnsafeMutableBufferPointer<Int>
    var lastComponentValue: UnsafeMutableBufferPointer<Double>
}

/// How a track's value lands in the value buffer, as plain data: the tree evaluator
/// makes one per write, the flat plan stores one per track.
struct TrackWrite {
    var target: TrackTarget
    var additive: Bool
    var cumulative: Bool
    /// The track's last value (`endCount` doubles), added once per completed cycle when cumulative.
    var end: UnsafePointer<Double>?
    var endCount: Int
    /// For a transform component: the plan knows the matrix is the identity when this
    /// track writes (the layer's model transform is, and no track before it writes).
    var startsFromIdentity = false
}

/// What the evaluator needs to know about the layer it writes: plain values, so that
/// passing it down the animation tree copies no references.
struct LayerRef {
    let index: Int
    /// Offset of the layer's sublayerTransform, or −1.
    let sublayerTransform: Int
}

/// The evaluation core: no allocation, no Foundation, no global state.
enum Evaluator {
    /// Applies a layer's animations, in the order they were added, on top of the values
    /// already in the buffer (the model values), at `layerTime`.
    @inline(__always)
    static func evaluateAnimations(_ layer: RuntimeLayer, layerTime: Double, _ b: EvalBuffers, linearOverride: Int?) {
        evaluateAnimations(layer.animations, layer: layer.ref, layerTime: layerTime, b, linearOverride: linearOverride)
    }

    @inline(__always)
    static func evaluateAnimations(_ animations: [RuntimeAnimation], layer: LayerRef, layerTime: Double, _ b: EvalBuffers,
                                   linearOverride: Int?) {
        for a in animations {
            evaluate(a, parentTime: layerTime, layer: layer, b, linearOverride: linearOverride)
        }
    }

    static func evaluate(_ a: RuntimeAnimation, parentTime: Double, layer: LayerRef, _ b: EvalBuffers, linearOverride: Int?) {
        let sample = a.timing.sample(parentTime)
        if sample.phase == .absent { return }
        let before = sample.phase == .fillingBackwards
        let p = linearOverride == a.id ? sample.progress : a.timingFunction.apply(sample.progress, before: before)
        switch a.body {
        case .group(let children):
            // Children see the group's basic local time, warped by its timing function.
            let groupTime = a.timing.duration * p
            for child in children {
                evaluate(child, parentTime: groupTime, layer: layer, b, linearOverride: linearOverride)
            }
        case .property(let track):
            apply(track, progress: p, sample: sample, before: before, layer: layer, b)
        }
    }

    @inline(__always)
    static func apply(_ track: RuntimeTrack, progress p: Double, sample: MediaTiming.Sample, before: Bool,
                      layer: LayerRef, _ b: EvalBuffers) {
        guard let out = b.scratch.baseAddress, let base = b.values.baseAddress else { return }
        var hint = b.hints[track.hintIndex]
        defer { b.hints[track.hintIndex] = hint }
        switch track.content {
        case .vector(let k):
            k.evaluate(p, hint: &hint, before: before, out: out)
            writeVector(track, width: k.width, cycle: sample.cycle, out: out, base: base, layer: layer, b)
        case .springVector(let s):
            s.keys.evaluate(s.spring.position(at: sample.passTime), hint: &hint, before: false, out: out)
            writeVector(track, width: s.keys.width, cycle: sample.cycle, out: out, base: base, layer: layer, b)
        case .decay(let decay):
            let d = Decay.displacement(at: sample.passTime, rate: decay.rate)
            for i in 0..<decay.from.count { out[i] = decay.from[i] + decay.velocity[i] * d }
            writeVector(track, width: decay.from.count, cycle: sample.cycle, out: out, base: base, layer: layer, b)
        case .matrix(let k):
            writeMatrix(track, k.evaluate(p, hint: &hint, before: before), cycle: sample.cycle, base: base, layer: layer, b)
        case .springMatrix(let s):
            writeMatrix(track, s.keys.evaluate(s.spring.position(at: sample.passTime), hint: &hint, before: false), cycle: sample.cycle,
                        base: base, layer: layer, b)
        case .motion(let m):
            let (point, angle) = m.evaluate(p, hint: &hint, before: before)
            out[0] = point.x
            out[1] = point.y
            writeVector(track, width: 2, cycle: sample.cycle, out: out, base: base, layer: layer, b)
            if m.rotation != .none {
                b.angles[layer.index] = track.additive ? b.angles[layer.index] + angle : angle
            }
        }
    }

    /// Index of a transform slot in the per-slot component memory.
    @inline(__always)
    static func transformSlotIndex(_ layer: LayerRef, offset: Int) -> Int {
        layer.index * 2 + (layer.sublayerTransform == offset ? 1 : 0)
    }

    @inline(__always)
    static func writeVector(_ track: RuntimeTrack, width: Int, cycle: Double, out: UnsafeMutablePointer<Double>,
                            base: UnsafeMutablePointer<Double>, layer: LayerRef, _ b: EvalBuffers) {
        track.endValue.withUnsafeBufferPointer { end in
            let write = TrackWrite(target: track.target, additive: track.additive, cumulative: track.cumulative,
                                   end: end.baseAddress, endCount: end.count)
            writeVector(write, width: width, cycle: cycle, out: out, base: base, layer: layer, b)
        }
    }

    /// Lands a vector value (`width` doubles at `out`) in the buffer as `w` says.
    @inline(__always)
    static func writeVector(_ w: TrackWrite, width: Int, cycle: Double, out: UnsafeMutablePointer<Double>,
                            base: UnsafeMutablePointer<Double>, layer: LayerRef, _ b: EvalBuffers) {
        if w.cumulative && cycle > 0, let end = w.end {
            for i in 0..<min(width, w.endCount) { out[i] += cycle * end[i] }
        }
        switch w.target {
        case .vector(let slot), .motion(let slot):
            let dst = base + slot.offset
            let n = min(width, slot.width)
            if w.additive {
                for i in 0..<n { dst[i] += out[i] }
            } else {
                for i in 0..<n { dst[i] = out[i] }
            }
        case .matrixComponent(let offset, let component):
            let current = w.startsFromIdentity ? M4.identity : M4.load(base + offset)
            let identity = w.startsFromIdentity || current.isIdentity
            let updated = TransformComponents.write(component, value: out, width: width, additive: w.additive, to: current,
                                                    isIdentity: identity)
            updated.store(base + offset)
            let slotIndex = transformSlotIndex(layer, offset: offset)
            let ordinal = TransformComponents.ordinal(component)
            if width == 1 {
                let previous = b.lastComponent[slotIndex] == ordinal ? b.lastComponentValue[slotIndex]
                    : TransformComponents.readFirst(component, from: current, isIdentity: identity)
                b.lastComponentValue[slotIndex] = w.additive ? previous + out[0] : out[0]
                b.lastComponent[slotIndex] = ordinal
            } else {
                b.lastComponent[slotIndex] = -1
            }
        case .matrix:
            break
        }
    }

    @inline(__always)
    static func writeMatrix(_ track: RuntimeTrack, _ m: M4, cycle: Double, base: UnsafeMutablePointer<Double>,
                            layer: LayerRef, _ b: EvalBuffers) {
        guard case .matrix(let offset) = track.target else { return }
        var value = m
        if track.cumulative && cycle > 0 { value = value.concat(M4(track.endValue).power(Int(saturating: min(cycle, 1e6)))) }
        if track.additive {
            // The additive transform applies before (inside) the current one (semantics.md §9).
            value.concat(M4.load(base + offset)).store(base + offset)
        } else {
            value.store(base + offset)
        }
        b.lastComponent[transformSlotIndex(layer, offset: offset)] = -1
    }
}

extension M4 {
    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<Double>) -> M4 {
        M4((p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]))
    }

    @inline(__always)
    func store(_ p: UnsafeMutablePointer<Double>) {
        p[0] = m.0; p[1] = m.1; p[2] = m.2; p[3] = m.3; p[4] = m.4; p[5] = m.5; p[6] = m.6; p[7] = m.7
        p[8] = m.8; p[9] = m.9; p[10] = m.10; p[11] = m.11; p[12] = m.12; p[13] = m.13; p[14] = m.14; p[15] = m.15
    }

    /// `self` concatenated with itself `n` times, by squaring.
    func power(_ n: Int) -> M4 {
        var result = M4.identity
        var base = self
        var k = n
        while k > 0 {
            if k & 1 == 1 { result = result.concat(base) }
            base = base.concat(base)
            k >>= 1
        }
        return result
    }

    var isIdentity: Bool {
        m.0 == 1 && m.1 == 0 && m.2 == 0 && m.3 == 0 && m.4 == 0 && m.5 == 1 && m.6 == 0 && m.7 == 0
            && m.8 == 0 && m.9 == 0 && m.10 == 1 && m.11 == 0 && m.12 == 0 && m.13 == 0 && m.14 == 0 && m.15 == 1
    }
}

/// The key paths that address part of a transform (`transform.rotation.z`,
/// `transform.scale`, ...). They read and write through the decomposition: the
/// current matrix is split into translation, rotation (as x, y, z angles applied in
/// that order), scale, skew and perspective; the part is replaced (or added to, when
/// additive) and the matrix rebuilt. With an identity or purely 2D transform this is
/// exactly the angle, scale or offset itself.
enum TransformComponents {
    @inline(__always)
    static func ordinal(_ c: KeyPathComponent) -> Int {
        switch c {
        case .rotationX: return 0
        case .rotationY: return 1
        case .rotationZ: return 2
        case .scale: return 3
        case .scaleX: return 4
        case .scaleY: return 5
        case .scaleZ: return 6
        case .translation: return 7
        case .translationX: return 8
        case .translationY: return 9
        case .translationZ: return 10
        case .scaleXY: return 11
        default: return 12
        }
    }

    static func read(_ c: KeyPathComponent, from m: M4) -> [Double] {
        let d = DecomposedTransform(m) ?? DecomposedTransform()
        switch c {
        case .rotationX: return [d.eulerXYZ.0]
        case .rotationY: return [d.eulerXYZ.1]
        case .rotationZ: return [d.eulerXYZ.2]
        case .scale: return [(d.scale.0 + d.scale.1 + d.scale.2) / 3]
        case .scaleX: return [d.scale.0]
        case .scaleY: return [d.scale.1]
        case .scaleZ: return [d.scale.2]
        case .scaleXY: return [(d.scale.0 + d.scale.1) / 2]
        case .translation: return [d.translation.0, d.translation.1]
        case .translationX: return [d.translation.0]
        case .translationY: return [d.translation.1]
        case .translationZ: return [d.translation.2]
        default: return [0]
        }
    }

    /// The first number of `read`, without allocating. The identity's parts are known
    /// (scales 1, the rest 0), which spares the decomposition for the common case of an
    /// untransformed layer; `DecompositionTests` checks they equal the decomposition's.
    @inline(__always)
    static func readFirst(_ c: KeyPathComponent, from m: M4, isIdentity: Bool? = nil) -> Double {
        if isIdentity ?? m.isIdentity {
            switch c {
            case .scale, .scaleX, .scaleY, .scaleZ, .scaleXY: return 1
            default: return 0
            }
        }
        return read(c, from: m)[0]
    }

    @inline(__always)
    static func write(_ c: KeyPathComponent, value v: UnsafeMutablePointer<Double>, width: Int, additive: Bool, to m: M4,
                      isIdentity: Bool? = nil) -> M4 {
        let identity = isIdentity ?? m.isIdentity
        if identity {
            // Fast paths for the identity, written as its decomposition would rebuild it
            // (the zeros off the diagonal are 0·scale, so a negative scale gives −0 there
            // too): a plain z rotation, a scale, a translation.
            switch c {
            case .rotationZ:
                return .rotation(v[0], 0, 0, 1)
            case .scale, .scaleX, .scaleY, .scaleZ, .scaleXY:
                let s = additive ? 1 + v[0] : v[0]
                let x = c == .scale || c == .scaleX || c == .scaleXY ? s : 1
                let y = c == .scale || c == .scaleY || c == .scaleXY ? s : 1
                let z = c == .scale || c == .scaleZ ? s : 1
                return M4((x, 0 * x, 0 * x, 0, 0 * y, y, 0 * y, 0, 0 * z, 0 * z, z, 0, 0, 0, 0, 1))
            default:
                break
            }
        }
        // The identity decomposes to the default parts (checked in DecompositionTests).
        var d = identity ? DecomposedTransform() : DecomposedTransform(m) ?? DecomposedTransform()
        @inline(__always) func set(_ x: inout Double, _ value: Double) { x = additive ? x + value : value }
        switch c {
        case .rotationX, .rotationY, .rotationZ:
            var (x, y, z) = d.eulerXYZ
            if c == .rotationX { set(&x, v[0]) } else if c == .rotationY { set(&y, v[0]) } else { set(&z, v[0]) }
            d.setEulerXYZ(x, y, z)
        case .scale: set(&d.scale.0, v[0]); set(&d.scale.1, v[0]); set(&d.scale.2, v[0])
        case .scaleX: set(&d.scale.0, v[0])
        case .scaleY: set(&d.scale.1, v[0])
        case .scaleZ: set(&d.scale.2, v[0])
        case .scaleXY: set(&d.scale.0, v[0]); set(&d.scale.1, v[0])
        case .translation:
            set(&d.translation.0, v[0])
            if width > 1 { set(&d.translation.1, v[1]) }
        case .translationX: set(&d.translation.0, v[0])
        case .translationY: set(&d.translation.1, v[0])
        case .translationZ: set(&d.translation.2, v[0])
        default: break
        }
        return d.matrix
    }
}
