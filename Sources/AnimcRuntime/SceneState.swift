import AnimcIR

/// Every layer's values at one time, plus each layer's composed matrix and effective
/// opacity. Made by ``Timeline/makeState()`` and filled by
/// ``Timeline/evaluate(at:into:)``; reusing one state across samples allocates nothing.
public struct SceneState: Sendable {
    /// The composition time this state was evaluated at.
    public internal(set) var time: Double = .nan
    var values: [Double]
    var layerTimes: [Double]
    /// Heading added by motion animations with a rotation mode, per layer.
    var angles: [Double]
    var hasAngle: [Bool]
    /// 16 doubles per layer: layer coordinates → composition coordinates.
    var world: [Double]
    /// 16 doubles per layer: what a sublayer's local matrix is multiplied by.
    var basis: [Double]
    var opacity: [Double]
    var inherited: [Double]
    var hints: [Int]
    var scratch: [Double]
    var lastComponent: [Int]
    var lastComponentValue: [Double]
    var initialized = false

    init(valueCount: Int, layerCount: Int, hintCount: Int, scratch: Int) {
        values = [Double](repeating: 0, count: valueCount)
        layerTimes = [Double](repeating: 0, count: layerCount)
        angles = [Double](repeating: 0, count: layerCount)
        hasAngle = [Bool](repeating: false, count: layerCount)
        world = [Double](repeating: 0, count: layerCount * 16)
        basis = [Double](repeating: 0, count: layerCount * 16)
        opacity = [Double](repeating: 0, count: layerCount)
        inherited = [Double](repeating: 0, count: layerCount)
        hints = [Int](repeating: 0, count: hintCount + 1)
        self.scratch = [Double](repeating: 0, count: scratch)
        lastComponent = [Int](repeating: -1, count: layerCount * 2)
        lastComponentValue = [Double](repeating: 0, count: layerCount * 2)
    }

    /// Runs `body` with the evaluation buffers of this state.
    mutating func withBuffers<R>(_ body: (EvalBuffers) -> R) -> R {
        values.withUnsafeMutableBufferPointer { v in
        angles.withUnsafeMutableBufferPointer { a in
        hints.withUnsafeMutableBufferPointer { h in
        scratch.withUnsafeMutableBufferPointer { s in
        lastComponent.withUnsafeMutableBufferPointer { lc in
        lastComponentValue.withUnsafeMutableBufferPointer { lv in
            body(EvalBuffers(values: v, angles: a, hints: h, scratch: s, lastComponent: lc, lastComponentValue: lv))
        }
        }
        }
        }
        }
        }
    }

    /// The composed matrix of layer `i`: from its own coordinates (its bounds) to the
    /// composition's, in Core Animation's row-vector layout.
    public func matrix(ofLayer i: Int) -> M4 {
        M4(Array(world[(i * 16)..<(i * 16 + 16)]))
    }

    /// Opacity multiplied down the tree; 0 when the layer or an ancestor is hidden, or
    /// when the layer is not double-sided and faces away.
    public func effectiveOpacity(ofLayer i: Int) -> Double { opacity[i] }

    /// The layer's own time (after its and its ancestors' beginTime, speed, timeOffset).
    public func localTime(ofLayer i: Int) -> Double { layerTimes[i] }
}

extension Timeline {
    /// Evaluates the whole scene at composition time `t` into `state`, without
    /// allocating. Sampling increasing times (frame after frame) is the fast path:
    /// keyframe lookups resume from where the previous sample left them. Every time is
    /// accepted: NaN is read as 0 and ±∞ as the largest finite times.
    public func evaluate(at t: Double, into state: inout SceneState) {
        evaluate(at: t, into: &state, linearOverride: nil)
    }

    func evaluate(at time: Double, into state: inout SceneState, linearOverride: Int?) {
        // Any Double is a valid time: NaN counts as 0 and infinities as the largest
        // finite times, so an app passing garbage gets a frame, never a trap.
        let t = time.isNaN ? 0 : min(max(time, -Double.greatestFiniteMagnitude), Double.greatestFiniteMagnitude)
        state.time = t
        let firstTime = !state.initialized
        state.initialized = true
        var times = state.layerTimes
        state.layerTimes = []  // borrowed below without copying
        state.withBuffers { b in
            times.withUnsafeMutableBufferPointer { times in
            model.withUnsafeBufferPointer { modelBuffer in
            layers.withUnsafeBufferPointer { layers in
                guard let dst = b.values.baseAddress, let src = modelBuffer.baseAddress else { return }
                for i in layers.indices {
                    let parentTime = layers[i].parent.map { times[$0] } ?? t
                    let lt = layers[i].timing
                    times[i] = (parentTime - lt.beginTime) * lt.speed + lt.timeOffset
                    // Values nothing animates keep their model values between samples.
                    if firstTime {
                        let range = layers[i].range
                        (dst + range.lowerBound).update(from: src + range.lowerBound, count: range.count)
                    } else if layers[i].animations.isEmpty {
                        continue
                    } else {
                        for r in layers[i].written {
                            (dst + r.lowerBound).update(from: src + r.lowerBound, count: r.count)
                        }
                    }
                    b.angles[i] = 0
                    b.lastComponent[i * 2] = -1
                    b.lastComponent[i * 2 + 1] = -1
                    Evaluator.evaluateAnimations(layers[i].animations, layer: layers[i].ref, layerTime: times[i], b,
                                                 linearOverride: linearOverride)
                }
            }
            }
            }
        }
        state.layerTimes = times
        computeGeometry(&state)
    }

    /// Composes each layer's matrix as Core Animation does (row vectors, parents last):
    ///
    ///     world = T(−anchor) · transform · R(heading) · T(position, zPosition)
    ///             · [parent's sublayerTransform about its anchor] · [flatten] · world(parent)
    ///
    /// where the anchor is `anchorPoint` in the bounds (plus `anchorPointZ`). A plain
    /// parent flattens its sublayers into its plane (z dropped after their transforms);
    /// a transform layer keeps them in 3D. The composition itself does not flatten, so
    /// z survives for consumers that want it.
    ///
    /// Parents come before their sublayers, so each parent's part of the chain (its
    /// sublayerTransform, flattening and world matrix) is multiplied out once, into
    /// `basis`, and each sublayer costs one product. Flattening zeroes the z column,
    /// which is exactly a product with diag(1, 1, 0, 1) and so may be folded in.
    func computeGeometry(_ state: inout SceneState) {
        layers.withUnsafeBufferPointer { layers in
        state.values.withUnsafeBufferPointer { values in
        state.world.withUnsafeMutableBufferPointer { world in
        state.basis.withUnsafeMutableBufferPointer { basis in
        state.opacity.withUnsafeMutableBufferPointer { opacity in
        state.inherited.withUnsafeMutableBufferPointer { inherited in
        state.angles.withUnsafeBufferPointer { angles in
            guard let v = values.baseAddress, let w = world.baseAddress, let bp = basis.baseAddress else { return }
            // Matrices are read straight from the buffers rather than carried in
            // optionals: copies of 128-byte structs compiled to memcpy calls, seven per layer.
            let vm = UnsafeMutablePointer(mutating: v)
            for i in layers.indices {
                let o = layers[i].geometry
                let g = LayerGeometry(o, v)
                var local: M4
                if o.transform >= 0, case let t = M4.load(vm + o.transform), !t.isIdentity {
                    local = t.translatedBefore(-g.anchorX, -g.anchorY, -g.anchorZ)
                } else {
                    local = .translation(-g.anchorX, -g.anchorY, -g.anchorZ)
                }
                let angle = angles[i]
                if angle != 0 { local = local.concat(.rotation(angle, 0, 0, 1)) }
                var result = local.translatedAfter(g.positionX, g.positionY, g.zPosition)
                var parentOpacity = 1.0
                if let p = layers[i].parent {
                    result = result.concat(M4.load(bp + p * 16))
                    parentOpacity = inherited[p]
                }
                result.store(w + i * 16)
                if layers[i].hasSublayers {
                    var b = M4.identity
                    if o.sublayerTransform >= 0, case let s = M4.load(vm + o.sublayerTransform), !s.isIdentity {
                        b = s.translatedBefore(-g.anchorX, -g.anchorY, -g.anchorZ).translatedAfter(g.anchorX, g.anchorY, g.anchorZ)
                    }
                    if layers[i].flattensSublayers {
                        b.m.2 = 0; b.m.6 = 0; b.m.10 = 0; b.m.14 = 0
                    }
                    b = b.isIdentity ? result : b.concat(result)
                    b.store(bp + i * 16)
                }
                let own = g.hidden ? 0 : g.opacity * parentOpacity
                inherited[i] = own
                opacity[i] = (!g.doubleSided && !Timeline.facesViewer(result, g)) ? 0 : own
            }
        }
        }
        }
        }
        }
        }
        }
    }

    /// Whether the layer's front faces the viewer: the winding of its bounds' corners
    /// after projection (a non-double-sided layer is not drawn otherwise).
    static func facesViewer(_ m: M4, _ g: LayerGeometry) -> Bool {
        let w = max(g.boundsWidth, 1), h = max(g.boundsHeight, 1)
        let p0 = m.apply(g.boundsX, g.boundsY)
        let p1 = m.apply(g.boundsX + w, g.boundsY)
        let p2 = m.apply(g.boundsX, g.boundsY + h)
        if p0.w <= 0 || p1.w <= 0 || p2.w <= 0 { return false }
        let cross = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        return cross > 0
    }
}

/// The geometric properties of one layer, read from a value buffer.
struct LayerGeometry {
    var positionX = 0.0, positionY = 0.0, zPosition = 0.0
    var anchorX = 0.0, anchorY = 0.0, anchorZ = 0.0
    var boundsX = 0.0, boundsY = 0.0, boundsWidth = 0.0, boundsHeight = 0.0
    var opacity = 1.0
    var hidden = false
    var doubleSided = true

    @inline(__always)
    init(_ o: GeometryOffsets, _ v: UnsafePointer<Double>) {
        if o.position >= 0 { positionX = v[o.position]; positionY = v[o.position + 1] }
        if o.zPosition >= 0 { zPosition = v[o.zPosition] }
        var ax = 0.5, ay = 0.5
        if o.anchorPoint >= 0 { ax = v[o.anchorPoint]; ay = v[o.anchorPoint + 1] }
        if o.anchorPointZ >= 0 { anchorZ = v[o.anchorPointZ] }
        if o.bounds >= 0 {
            boundsX = v[o.bounds]; boundsY = v[o.bounds + 1]; boundsWidth = v[o.bounds + 2]; boundsHeight = v[o.bounds + 3]
        }
        anchorX = boundsX + ax * boundsWidth
        anchorY = boundsY + ay * boundsHeight
        if o.opacity >= 0 { opacity = v[o.opacity] }
        if o.hidden >= 0 { hidden = v[o.hidden] >= 0.5 }
        if o.doubleSided >= 0 { doubleSided = v[o.doubleSided] >= 0.5 }
    }
}
