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
    /// Per layer: whether its `basis` is planar (``M4/isPlanar``), so sublayers may
    /// take the 2D product.
    var planarBasis: [Bool]
    var hints: [Int]
    var scratch: [Double]
    var lastComponent: [Int]
    var lastComponentValue: [Double]
    /// Per node of the timeline's flat plan: what its first pass found.
    var nodes: [FlatPlan.NodeState]
    var locations = [FlatPlan.LocationCache](repeating: FlatPlan.LocationCache(), count: FlatPlan.LocationCache.size)
    /// Counts evaluations: a location cached under another stamp is stale.
    var stamp = 0
    var initialized = false

    init(valueCount: Int, layerCount: Int, hintCount: Int, scratch: Int, nodeCount: Int = 0) {
        values = [Double](repeating: 0, count: valueCount)
        layerTimes = [Double](repeating: 0, count: layerCount)
        angles = [Double](repeating: 0, count: layerCount)
        hasAngle = [Bool](repeating: false, count: layerCount)
        world = [Double](repeating: 0, count: layerCount * 16)
        basis = [Double](repeating: 0, count: layerCount * 16)
        opacity = [Double](repeating: 0, count: layerCount)
        inherited = [Double](repeating: 0, count: layerCount)
        planarBasis = [Bool](repeating: false, count: layerCount)
        hints = [Int](repeating: 0, count: hintCount + 1)
        self.scratch = [Double](repeating: 0, count: scratch)
        lastComponent = [Int](repeating: -1, count: layerCount * 2)
        lastComponentValue = [Double](repeating: 0, count: layerCount * 2)
        nodes = [FlatPlan.NodeState](repeating: FlatPlan.NodeState(), count: max(nodeCount, 1))
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
        var nodeStates = state.nodes
        var locations = state.locations
        state.layerTimes = []  // borrowed below without copying
        state.nodes = []
        state.locations = []
        state.stamp &+= 1
        let stamp = state.stamp
        state.withBuffers { b in
            times.withUnsafeMutableBufferPointer { times in
            nodeStates.withUnsafeMutableBufferPointer { nodeStates in
            locations.withUnsafeMutableBufferPointer { locations in
            model.withUnsafeBufferPointer { modelBuffer in
            plan.layers.withUnsafeBufferPointer { layers in
            plan.nodes.withUnsafeBufferPointer { nodes in
            plan.tracks.withUnsafeBufferPointer { tracks in
            plan.general.withUnsafeBufferPointer { general in
            plan.written.withUnsafeBufferPointer { written in
                guard let dst = b.values.baseAddress, let src = modelBuffer.baseAddress, let states = nodeStates.baseAddress,
                      let times = times.baseAddress, let hints = b.hints.baseAddress, let cache = locations.baseAddress
                else { return }
                for i in layers.indices {
                    let parent = layers[i].parent
                    times[i] = layers[i].clock.local(parent >= 0 ? times[parent] : t)
                }
                if let nodes = nodes.baseAddress {
                    FlatPlan.sample(layers: layers, layerTimes: times, nodes: nodes, tracks: tracks.baseAddress, states: states,
                                    hints: hints, cache: cache, stamp: stamp, linearOverride: linearOverride)
                }
                for i in layers.indices {
                    let layer = layers[i]
                    // Values nothing animates keep their model values between samples.
                    if firstTime {
                        let range = layer.range
                        (dst + range.lowerBound).update(from: src + range.lowerBound, count: range.count)
                    } else if layer.nodes.isEmpty {
                        continue
                    } else {
                        // Ranges are a few doubles: a plain loop beats a call to memmove.
                        for w in layer.written {
                            let r = written[w]
                            for k in r { dst[k] = src[k] }
                        }
                    }
                    guard !layer.nodes.isEmpty, let nodes = nodes.baseAddress else { continue }
                    b.angles[i] = 0
                    b.lastComponent[i * 2] = -1
                    b.lastComponent[i * 2 + 1] = -1
                    FlatPlan.apply(layer, nodes: nodes, tracks: tracks.baseAddress, general: general, states: states, b)
                }
            }
            }
            }
            }
            }
            }
            }
            }
            }
        }
        state.nodes = nodeStates
        state.locations = locations
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
        state.planarBasis.withUnsafeMutableBufferPointer { planarBasis in
            guard let v = values.baseAddress, let w = world.baseAddress, let bp = basis.baseAddress else { return }
            // Matrices are read straight from the buffers rather than carried in
            // optionals: copies of 128-byte structs compiled to memcpy calls, seven per layer.
            let vm = UnsafeMutablePointer(mutating: v)
            for i in layers.indices {
                let o = layers[i].geometry
                let g = LayerGeometry(o, v)
                let parent = layers[i].parent
                if !layers[i].hasSublayers, angles[i] == 0,
                   let world2D = Timeline.planarWorld(g, transform: o.transform >= 0 ? vm + o.transform : nil,
                                                      parent: parent.map { planarBasis[$0] ? bp + $0 * 16 : nil }) {
                    world2D.store(w + i * 16)
                    let own = g.hidden ? 0 : g.opacity * (parent.map { inherited[$0] } ?? 1)
                    inherited[i] = own
                    opacity[i] = (!g.doubleSided && !Timeline.facesViewer(world2D, g)) ? 0 : own
                    continue
                }
                var local: M4
                // translatedBefore of the identity is the translation (up to the sign
                // of a zero), which spares testing for the identity.
                if o.transform >= 0 {
                    local = M4.load(vm + o.transform).translatedBefore(-g.anchorX, -g.anchorY, -g.anchorZ)
                } else {
                    local = .translation(-g.anchorX, -g.anchorY, -g.anchorZ)
                }
                let angle = angles[i]
                if angle != 0 { local = local.concat(.rotation(angle, 0, 0, 1)) }
                var result = local.translatedAfter(g.positionX, g.positionY, g.zPosition)
                var parentOpacity = 1.0
                if let p = layers[i].parent {
                    let parentBasis = M4.load(bp + p * 16)
                    // Most scenes are flat: the 2D product, when both sides are planar.
                    result = planarBasis[p] && result.isPlanar ? result.planarConcat(parentBasis) : result.concat(parentBasis)
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
                    planarBasis[i] = b.isPlanar
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
    }

    /// The world matrix of a leaf layer in a flat scene, in 2D: nil unless the layer's
    /// transform (if any) is planar (``M4/isPlanar``), it has no z position or anchor z,
    /// every number involved is finite, and its parent (if any) has a planar basis.
    /// The general chain's other terms are then exact products with 0 and 1, so this
    /// is its result up to the sign of a zero, for a sixth of the arithmetic.
    /// - Parameter parent: `.some(nil)` when the parent's basis is not planar.
    @inline(__always)
    static func planarWorld(_ g: LayerGeometry, transform: UnsafeMutablePointer<Double>?,
                            parent: UnsafeMutablePointer<Double>??) -> M4? {
        if g.zPosition != 0 || g.anchorZ != 0 { return nil }
        var (a, b, c, d, e, f, z) = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0)
        if let m = transform {
            if m[2] != 0 || m[3] != 0 || m[6] != 0 || m[7] != 0 || m[8] != 0 || m[9] != 0 || m[11] != 0 || m[14] != 0 || m[15] != 1 {
                return nil
            }
            (a, b, c, d, e, f, z) = (m[0], m[1], m[4], m[5], m[12], m[13], m[10])
        }
        // T(−anchor) · transform · T(position), as translatedBefore and translatedAfter.
        let x = (-g.anchorX * a + -g.anchorY * c + e) + g.positionX
        let y = (-g.anchorX * b + -g.anchorY * d + f) + g.positionY
        guard (a + b + c + d + z + x + y).isFinite else { return nil }
        guard let parent else { return M4((a, b, 0, 0, c, d, 0, 0, 0, 0, z, 0, x, y, 0, 1)) }
        guard let p = parent else { return nil }
        return M4((a * p[0] + b * p[4], a * p[1] + b * p[5], 0, 0,
                   c * p[0] + d * p[4], c * p[1] + d * p[5], 0, 0,
                   0, 0, z * p[10], 0,
                   x * p[0] + y * p[4] + p[12], x * p[1] + y * p[5] + p[13], 0, 1))
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
        // Composited clamped to [0, 1] (`PropertyInfo.shown`): an opacity animated from -1
        // or a spring's overshoot past 1 draws as 0 or 1.
        if o.opacity >= 0 { let x = v[o.opacity]; opacity = x >= 0 ? min(x, 1) : 0 }
        if o.hidden >= 0 { hidden = v[o.hidden] >= 0.5 }
        if o.doubleSided >= 0 { doubleSided = v[o.doubleSided] >= 0.5 }
    }
}
