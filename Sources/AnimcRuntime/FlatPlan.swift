import AnimcIR

/// The per-frame form of a timeline: every layer's animation tree laid out as flat
/// arrays of plain data, walked by index.
///
/// The compiled tree (``RuntimeAnimation``, ``RuntimeTrack``) is what the builder
/// makes and what queries read; evaluating it frame after frame chased a class
/// reference and an enum payload per node, and reference counting was a quarter of a
/// scene's time. Here:
/// - nodes are structs in pre-order; a node knows the node whose time drives it and
///   where its subtree ends, so an absent group skips its children with one jump;
/// - keyframe data lives in one block of memory owned by ``PlanStorage``, and tracks
///   point into it (``KeyframeTable``): no reference is counted per frame;
/// - tracks with equal key times, segment timing and mode share a *schedule*, stored
///   once: when consecutive tracks of a layer are at the same progress, the segment
///   search and the timing curve's solve are done once for all of them;
/// - a leaf with the same timing and timing function as the leaf before it, under the
///   same parent, reuses that leaf's sample instead of recomputing it.
/// What the plan does not lay out flat (transform keyframes, motion, springs, decay)
/// it evaluates through the tree's own track, in the same order, so composition of
/// several animations on one property is unchanged. The values are the tree
/// evaluator's, bit for bit (`FlatPlanTests`).
struct FlatPlan: @unchecked Sendable {
    // @unchecked: the tables in `tracks` point into `storage`, which this plan keeps
    // alive and nothing mutates after `init`.

    enum NodeKind: UInt8 {
        case group
        /// Vector keyframes, laid out flat (`payload` indexes `tracks`).
        case keyframes
        /// Anything else, through the tree's track (`payload` indexes `general`).
        case general
    }

    struct Node {
        var timing: MediaTiming
        var function: CompiledTimingFunction
        var id: Int
        /// The group node whose local time drives this one, or −1 for the layer's time.
        var parent: Int
        /// One past the last node of this node's subtree.
        var end: Int
        var kind: NodeKind
        var payload: Int
        /// Same parent, timing and timing function as the leaf just before it.
        var sharesSample: Bool
    }

    /// Writes that the plan specialises, for linear or discrete keyframes that are not
    /// cumulative: one or two numbers set or added at `offset`, or a uniform scale or a
    /// z rotation set on a transform known to be the identity. The rest go through
    /// ``Evaluator/writeVector``.
    enum DirectWrite: UInt8 {
        case none, setScalar, addScalar, setPair, addPair, uniformScale, rotationZ
    }

    struct Track {
        var table: KeyframeTable
        var direct: DirectWrite
        /// Where a direct write lands.
        var offset: Int
        /// Tracks with the same schedule locate a progress identically.
        var schedule: Int
        var write: TrackWrite
        var hintIndex: Int
    }

    struct Layer {
        var parent: Int
        var clock: LayerClock
        var range: Range<Int>
        var nodes: Range<Int>
        /// Into ``FlatPlan/written``: the buffer ranges the layer's animations write.
        var written: Range<Int>
        var ref: LayerRef
    }

    let storage: PlanStorage
    let nodes: [Node]
    let tracks: [Track]
    let general: [RuntimeTrack]
    let layers: [Layer]
    let written: [Range<Int>]

    /// - Parameter model: the model values, by which the plan knows which transforms
    ///   start each frame as the identity.
    init(_ runtimeLayers: [RuntimeLayer], model: [Double]) {
        var b = Builder()
        b.model = model
        for layer in runtimeLayers {
            let first = b.nodes.count
            b.writtenTransforms = []
            for a in layer.animations { b.add(a, parent: -1, layerStart: first) }
            let w = b.written.count
            b.written += layer.written
            b.layers.append(Layer(parent: layer.parent ?? -1, clock: layer.clock, range: layer.range, nodes: first..<b.nodes.count,
                                  written: w..<b.written.count, ref: layer.ref))
        }
        storage = PlanStorage(doubles: b.doubles, functions: b.functions)
        var tracks = b.tracks
        for i in tracks.indices {
            let o = b.offsets[i]
            tracks[i].table.values = storage.doubles(o.values)
            tracks[i].table.keyTimes = storage.doubles(o.keyTimes)
            tracks[i].table.timing = o.timingCount > 0 ? storage.functions(o.timing) : nil
            tracks[i].table.outTangents = storage.doubles(o.outTangents)
            tracks[i].table.inTangents = storage.doubles(o.inTangents)
            tracks[i].table.arcTables = storage.doubles(o.arcTables)
            tracks[i].write.end = storage.doubles(o.end)
        }
        self.tracks = tracks
        nodes = b.nodes
        general = b.general
        layers = b.layers
        written = b.written
    }

    /// Offsets into the storage, turned into pointers once the storage exists (−1: none).
    private struct Offsets {
        var values = -1, keyTimes = -1, timing = -1, timingCount = 0, outTangents = -1, inTangents = -1, arcTables = -1, end = -1
    }

    private struct ScheduleKey: Hashable {
        var keyTimes: [Double]
        var timing: [CompiledTimingFunction]
        var mode: VectorKeyframes.Mode
    }

    private struct Builder {
        var nodes: [Node] = []
        var tracks: [Track] = []
        var offsets: [Offsets] = []
        var general: [RuntimeTrack] = []
        var layers: [Layer] = []
        var written: [Range<Int>] = []
        var doubles: [Double] = []
        var functions: [CompiledTimingFunction] = []
        /// Schedule id, key times offset, timing offset.
        var schedules: [ScheduleKey: (id: Int, keyTimes: Int, timing: Int)] = [:]
        var model: [Double] = []
        /// The transform offsets written by the current layer's tracks so far.
        var writtenTransforms: Set<Int> = []

        /// Whether `offset` holds an identity transform in the model.
        func modelIsIdentity(at offset: Int) -> Bool {
            guard offset >= 0, offset + 16 <= model.count else { return false }
            return M4(Array(model[offset..<(offset + 16)])).isIdentity
        }

        mutating func add(_ a: RuntimeAnimation, parent: Int, layerStart: Int) {
            let index = nodes.count
            nodes.append(Node(timing: a.timing, function: a.timingFunction, id: a.id, parent: parent, end: index + 1,
                              kind: .group, payload: -1, sharesSample: false))
            switch a.body {
            case .group(let children):
                for child in children { add(child, parent: index, layerStart: layerStart) }
            case .property(let track):
                var startsFromIdentity = false
                switch track.target {
                case .matrix(let offset), .matrixComponent(let offset, _):
                    startsFromIdentity = !writtenTransforms.contains(offset) && modelIsIdentity(at: offset)
                    writtenTransforms.insert(offset)
                case .vector, .motion:
                    break
                }
                if case .vector(let k) = track.content {
                    nodes[index].kind = .keyframes
                    nodes[index].payload = tracks.count
                    addTrack(track, k, startsFromIdentity: startsFromIdentity)
                } else {
                    nodes[index].kind = .general
                    nodes[index].payload = general.count
                    general.append(track)
                }
                if index > layerStart, case let previous = nodes[index - 1], previous.kind != .group, previous.parent == parent,
                   previous.timing == a.timing, previous.function == a.timingFunction {
                    nodes[index].sharesSample = true
                }
            }
            nodes[index].end = nodes.count
        }

        mutating func append(_ xs: [Double]) -> Int {
            if xs.isEmpty { return -1 }
            doubles += xs
            return doubles.count - xs.count
        }

        mutating func addTrack(_ track: RuntimeTrack, _ k: VectorKeyframes, startsFromIdentity: Bool) {
            let key = ScheduleKey(keyTimes: k.keyTimes, timing: k.segmentTiming, mode: k.mode)
            let schedule: (id: Int, keyTimes: Int, timing: Int)
            if let known = schedules[key] {
                schedule = known
            } else {
                let timing = functions.count
                functions += k.segmentTiming
                schedule = (schedules.count, append(k.keyTimes), timing)
                schedules[key] = schedule
            }
            var o = Offsets()
            o.keyTimes = schedule.keyTimes
            o.timing = schedule.timing
            o.timingCount = k.segmentTiming.count
            o.values = append(k.values)
            o.outTangents = append(k.outTangents)
            o.inTangents = append(k.inTangents)
            o.arcTables = append(k.flatArcTables)
            o.end = append(track.endValue)
            offsets.append(o)
            let table = KeyframeTable(width: k.width, count: k.count, mode: k.mode, values: nil, keyTimes: nil, timing: nil,
                                      timingCount: k.segmentTiming.count, outTangents: nil, inTangents: nil, arcTables: nil)
            let write = TrackWrite(target: track.target, additive: track.additive, cumulative: track.cumulative, end: nil,
                                   endCount: track.endValue.count, startsFromIdentity: startsFromIdentity)
            var direct = DirectWrite.none
            var offset = -1
            if !track.cumulative, k.mode == .linear || k.mode == .discrete {
                switch track.target {
                case .vector(let slot) where k.width == 1 && slot.width >= 1:
                    (direct, offset) = (track.additive ? .addScalar : .setScalar, slot.offset)
                case .vector(let slot) where k.width == 2 && slot.width >= 2:
                    (direct, offset) = (track.additive ? .addPair : .setPair, slot.offset)
                case .matrixComponent(let o, .scale) where k.width == 1 && startsFromIdentity && !track.additive:
                    (direct, offset) = (.uniformScale, o)
                case .matrixComponent(let o, .rotationZ) where k.width == 1 && startsFromIdentity && !track.additive:
                    (direct, offset) = (.rotationZ, o)
                default:
                    break
                }
            }
            tracks.append(Track(table: table, direct: direct, offset: offset, schedule: schedule.id, write: write,
                                hintIndex: track.hintIndex))
        }
    }
}

/// The memory a ``FlatPlan``'s tables point into: one block of doubles and one of
/// timing functions, written once and freed with the plan.
final class PlanStorage: @unchecked Sendable {
    // @unchecked: immutable after init; the blocks are only read.
    private let doubleBlock: UnsafeMutablePointer<Double>
    private let doubleCount: Int
    private let functionBlock: UnsafeMutablePointer<CompiledTimingFunction>
    private let functionCount: Int

    init(doubles: [Double], functions: [CompiledTimingFunction]) {
        let d = UnsafeMutablePointer<Double>.allocate(capacity: max(doubles.count, 1))
        d.initialize(repeating: 0, count: max(doubles.count, 1))
        doubles.withUnsafeBufferPointer { src in
            if let s = src.baseAddress { d.update(from: s, count: src.count) }
        }
        let f = UnsafeMutablePointer<CompiledTimingFunction>.allocate(capacity: max(functions.count, 1))
        f.initialize(repeating: .linear, count: max(functions.count, 1))
        functions.withUnsafeBufferPointer { src in
            if let s = src.baseAddress { f.update(from: s, count: src.count) }
        }
        (doubleBlock, doubleCount, functionBlock, functionCount) = (d, doubles.count, f, functions.count)
    }

    deinit {
        doubleBlock.deinitialize(count: max(doubleCount, 1))
        doubleBlock.deallocate()
        functionBlock.deinitialize(count: max(functionCount, 1))
        functionBlock.deallocate()
    }

    /// The doubles from `offset` on, or nil for −1 (absent).
    func doubles(_ offset: Int) -> UnsafePointer<Double>? {
        offset >= 0 && offset < doubleCount ? UnsafePointer(doubleBlock + offset) : nil
    }

    func functions(_ offset: Int) -> UnsafePointer<CompiledTimingFunction>? {
        offset >= 0 && offset < functionCount ? UnsafePointer(functionBlock + offset) : nil
    }
}

extension FlatPlan {
    /// Component `c` of a `width`-wide value at `location`, as ``KeyframeTable/write(_:out:)``
    /// computes it for linear and discrete keyframes; nil when there is nothing to write.
    @inline(__always)
    static func scalar(_ location: KeyLocation, _ v: UnsafePointer<Double>, _ c: Int, _ width: Int) -> Double? {
        switch location {
        case .none: return nil
        case .key(let i): return v[i * width + c]
        case .segment(let i, let s): return (1 - s) * v[i * width + c] + s * v[(i + 1) * width + c]
        }
    }

    /// A location found this frame, for the tracks that share its schedule and progress:
    /// the tracks of one group, and the same animation in layers that start together
    /// (the rows, columns or rings of a staggered grid). A small table indexed by a hash,
    /// valid for the frame whose stamp it carries; a collision only costs a solve.
    struct LocationCache {
        var stamp = -1
        var schedule = -1
        var progress = 0.0
        var before = false
        var location = KeyLocation.none
        var hint = 0

        static let size = 256

        @inline(__always)
        static func slot(_ schedule: Int, _ progress: Double, _ before: Bool) -> Int {
            let h = (progress.bitPattern ^ UInt64(truncatingIfNeeded: schedule &* 31 &+ (before ? 1 : 0))) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: h >> 56)
        }
    }

    /// What the first pass finds for a node, for the second.
    struct NodeState {
        var sample = MediaTiming.Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0)
        /// Progress after the node's timing function.
        var progress = 0.0
        /// A group's local time, for its children.
        var time = 0.0
        /// Keyframes: where the progress falls.
        var location = KeyLocation.none
    }

    /// The first pass, over every layer: each node's sample and progress, each group's
    /// local time, each keyframe track's location (solved once per schedule and
    /// progress in a frame, through `cache`). It writes no value, so the long
    /// dependent chains (divisions in media timing, Newton's steps in a timing curve)
    /// of one layer overlap with the next layer's instead of waiting for its writes.
    /// A node under an absent group is not visited, here or in ``apply``.
    @inline(__always)
    static func sample(layers: UnsafeBufferPointer<Layer>, layerTimes: UnsafePointer<Double>, nodes: UnsafePointer<Node>,
                       tracks: UnsafePointer<Track>?, states: UnsafeMutablePointer<NodeState>, hints: UnsafeMutablePointer<Int>,
                       cache: UnsafeMutablePointer<LocationCache>, stamp: Int, linearOverride: Int?) {
        let sharing = linearOverride == nil
        for i in layers.indices {
            let range = layers[i].nodes
            if range.isEmpty { continue }
            let layerTime = layerTimes[i]
            var sample = MediaTiming.Sample(phase: .absent, passTime: 0, progress: 0, cycle: 0)
            var p = 0.0, before = false
            var n = range.lowerBound
            while n < range.upperBound {
                let node = nodes + n
                if !(sharing && node.pointee.sharesSample) {
                    let parent = node.pointee.parent
                    sample = node.pointee.timing.sample(parent < 0 ? layerTime : states[parent].time)
                    before = sample.phase == .fillingBackwards
                    p = linearOverride == node.pointee.id ? sample.progress : node.pointee.function.apply(sample.progress, before: before)
                }
                states[n].sample = sample
                states[n].progress = p
                if sample.phase == .absent {
                    n = node.pointee.end
                    continue
                }
                switch node.pointee.kind {
                case .group:
                    // Children see the group's basic local time, warped by its timing function.
                    states[n].time = node.pointee.timing.duration * p
                case .keyframes:
                    guard let track = tracks.map({ $0 + node.pointee.payload }) else { break }
                    let schedule = track.pointee.schedule
                    let slot = cache + LocationCache.slot(schedule, p, before)
                    if slot.pointee.stamp == stamp && slot.pointee.schedule == schedule && slot.pointee.progress == p
                        && slot.pointee.before == before {
                        states[n].location = slot.pointee.location
                        hints[track.pointee.hintIndex] = slot.pointee.hint
                    } else {
                        var hint = hints[track.pointee.hintIndex]
                        let location = track.pointee.table.locate(p, hint: &hint, before: before)
                        hints[track.pointee.hintIndex] = hint
                        states[n].location = location
                        slot.pointee = LocationCache(stamp: stamp, schedule: schedule, progress: p, before: before, location: location,
                                                     hint: hint)
                    }
                case .general:
                    break
                }
                n += 1
            }
        }
    }

    /// The second pass, for one layer: applies its animations, in the order they were
    /// added, on top of the values already in the buffers (the model values), as
    /// ``Evaluator/evaluateAnimations`` does for the tree, from what ``sample`` found.
    @inline(__always)
    static func apply(_ layer: Layer, nodes: UnsafePointer<Node>, tracks: UnsafePointer<Track>?,
                      general: UnsafeBufferPointer<RuntimeTrack>, states: UnsafePointer<NodeState>, _ b: EvalBuffers) {
        guard let out = b.scratch.baseAddress, let base = b.values.baseAddress else { return }
        var n = layer.nodes.lowerBound
        while n < layer.nodes.upperBound {
            let node = nodes + n
            let state = states + n
            if state.pointee.sample.phase == .absent {
                n = node.pointee.end
                continue
            }
            switch node.pointee.kind {
            case .group:
                break
            case .keyframes:
                guard let track = tracks.map({ $0 + node.pointee.payload }) else { break }
                let location = state.pointee.location
                let values = track.pointee.table.values
                switch track.pointee.direct {
                case .none:
                    track.pointee.table.write(location, out: out)
                    Evaluator.writeVector(track.pointee.write, width: track.pointee.table.width, cycle: state.pointee.sample.cycle,
                                          out: out, base: base, layer: layer.ref, b)
                case .setScalar:
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 1) { base[track.pointee.offset] = x }
                case .addScalar:
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 1) { base[track.pointee.offset] += x }
                case .setPair:
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 2), let y = FlatPlan.scalar(location, v, 1, 2) {
                        base[track.pointee.offset] = x
                        base[track.pointee.offset + 1] = y
                    }
                case .addPair:
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 2), let y = FlatPlan.scalar(location, v, 1, 2) {
                        base[track.pointee.offset] += x
                        base[track.pointee.offset + 1] += y
                    }
                case .uniformScale:
                    // TransformComponents.write's identity fast path and writeVector's
                    // record of the last component, for `transform.scale` set on the identity.
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 1) {
                        M4((x, 0 * x, 0 * x, 0, 0 * x, x, 0 * x, 0, 0 * x, 0 * x, x, 0, 0, 0, 0, 1)).store(base + track.pointee.offset)
                        let slotIndex = Evaluator.transformSlotIndex(layer.ref, offset: track.pointee.offset)
                        b.lastComponentValue[slotIndex] = x
                        b.lastComponent[slotIndex] = TransformComponents.ordinal(.scale)
                    }
                case .rotationZ:
                    // The same for `transform.rotation.z`, as TransformComponents.write builds it.
                    if let v = values, let x = FlatPlan.scalar(location, v, 0, 1) {
                        M4.rotation(x, 0, 0, 1).store(base + track.pointee.offset)
                        let slotIndex = Evaluator.transformSlotIndex(layer.ref, offset: track.pointee.offset)
                        b.lastComponentValue[slotIndex] = x
                        b.lastComponent[slotIndex] = TransformComponents.ordinal(.rotationZ)
                    }
                }
            case .general:
                let sample = state.pointee.sample
                Evaluator.apply(general[node.pointee.payload], progress: state.pointee.progress, sample: sample,
                                before: sample.phase == .fillingBackwards, layer: layer.ref, b)
            }
            n += 1
        }
    }
}
