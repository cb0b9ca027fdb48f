import AnimcBase
import AnimcIR
import AnimcRuntime

/// What to bake: the frames' times.
public struct BakePlan: Equatable, Sendable {
    public var fps: Double
    public var window: TimeWindow
    public var frameCount: Int

    /// Frame `i` is at `window.start + i / fps`.
    public func time(ofFrame i: Int) -> Double { window.start + Double(i) / fps }

    /// Frames at start, start + 1/fps, ... before the end (or at it, with `includesEnd`);
    /// at least one.
    public init(fps: Double, window: TimeWindow) {
        self.fps = fps
        self.window = window
        let span = max(0, (window.end - window.start) * fps)
        let whole = span.rounded()
        var count: Int
        if abs(span - whole) <= 1e-9 * max(1, span) {
            count = Int(saturating: whole) + (window.includesEnd && whole < 1e15 ? 1 : 0)
        } else {
            count = Int(saturating: span.rounded(.up))
        }
        frameCount = max(count, 1)
    }
}

/// Why a bake was refused.
public enum BakeRefusal: Error, Equatable, Sendable {
    /// Something repeats forever (or runs at speed 0) and no window was given.
    case unbounded(animation: AnimationInfo, range: SourceRange)
    /// frames × channels beyond the limit. Frames is a `Double`: a window of 1e300 s
    /// has more frames than any integer type holds.
    case tooLarge(frames: Double, channels: Int, limit: Int)
}

/// Samples a composition per frame and writes `animc.baked` JSON (docs/formats.md).
public enum Baker {
    public static let format = "animc.baked"
    public static let version = 1
    /// frames × doubles per frame; 20 million is about 160 MB of samples.
    public static let defaultSampleLimit = 20_000_000

    /// Decides the frames, or refuses: a composition that never ends needs a window,
    /// and the sample count is checked before any memory is committed.
    public static func plan(_ timeline: Timeline, fps: Double? = nil, window: TimeWindow? = nil,
                            sampleLimit: Int = defaultSampleLimit) -> Result<BakePlan, BakeRefusal> {
        let c = timeline.composition
        let rate = fps ?? c.fps
        var w = window ?? c.window
        if w == nil {
            let (end, unbounded) = timeline.naturalEnd
            if let info = unbounded {
                let range = c.layers[info.layer].animations.first { $0.name == info.path.split(separator: "/").first.map(String.init) }?.range
                return .failure(.unbounded(animation: info, range: range ?? c.range))
            }
            w = TimeWindow(start: 0, end: end ?? 0, includesEnd: true)
        }
        guard let win = w else { return .failure(.tooLarge(frames: 0, channels: 0, limit: sampleLimit)) }
        let span = (win.end - win.start) * rate
        let channels = channelCount(timeline)
        if !span.isFinite || span * Double(channels) > Double(sampleLimit) {
            return .failure(.tooLarge(frames: span.rounded(.up), channels: channels, limit: sampleLimit))
        }
        let plan = BakePlan(fps: rate, window: win)
        if plan.frameCount * channels > sampleLimit {
            return .failure(.tooLarge(frames: Double(plan.frameCount), channels: channels, limit: sampleLimit))
        }
        return .success(plan)
    }

    /// Doubles sampled per frame: every property slot, plus a matrix and an opacity per layer.
    public static func channelCount(_ t: Timeline) -> Int { t.rawValueCount + 17 * t.layerCount }

    /// Samples every frame and writes the document. `progress` is called with
    /// (frames done, total) every few frames.
    public static func bake(_ timeline: Timeline, plan: BakePlan, progress: ((Int, Int) -> Void)? = nil) -> [UInt8] {
        write(sample(timeline, plan: plan, progress: progress))
    }

    /// Samples every frame, for a writer: the baked document's or another backend's.
    public static func sample(_ timeline: Timeline, plan: BakePlan, progress: ((Int, Int) -> Void)? = nil) -> BakedFrames {
        let frames = plan.frameCount
        let valueCount = timeline.rawValueCount
        let layerCount = timeline.layerCount
        var values = [Double](repeating: 0, count: frames * valueCount)
        var matrices = [Double](repeating: 0, count: frames * layerCount * 16)
        var opacities = [Double](repeating: 0, count: frames * layerCount)
        var state = timeline.makeState()
        for f in 0..<frames {
            timeline.evaluate(at: plan.time(ofFrame: f), into: &state)
            state.rawValues.withUnsafeBufferPointer { src in
                values.withUnsafeMutableBufferPointer { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                    (d + f * valueCount).update(from: s, count: valueCount)
                }
            }
            state.rawMatrices.withUnsafeBufferPointer { src in
                matrices.withUnsafeMutableBufferPointer { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                    (d + f * layerCount * 16).update(from: s, count: layerCount * 16)
                }
            }
            state.rawOpacities.withUnsafeBufferPointer { src in
                opacities.withUnsafeMutableBufferPointer { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                    (d + f * layerCount).update(from: s, count: layerCount)
                }
            }
            if let progress, f % 16 == 15 || f == frames - 1 { progress(f + 1, frames) }
        }
        return BakedFrames(timeline: timeline, plan: plan, values: values, matrices: matrices, opacities: opacities)
    }

    /// The `animc.baked` document of `frames`.
    public static func write(_ frames: BakedFrames) -> [UInt8] {
        var w = BakeWriter(timeline: frames.timeline)
        w.out.reserveCapacity(frames.plan.frameCount * frames.timeline.rawValueCount * 4 + 4096)
        w.document(plan: frames.plan, values: frames.values, matrices: frames.matrices, opacities: frames.opacities)
        return w.out
    }
}

/// Every frame's samples, as the runtime gives them: frame-major arrays of property
/// slots (``Timeline/propertyChannels`` say where each property is), composed
/// matrices (16 per layer) and effective opacities (one per layer).
public struct BakedFrames: Sendable {
    public let timeline: Timeline
    public let plan: BakePlan
    /// `values[f * timeline.rawValueCount + slot]`.
    public let values: [Double]
    /// `matrices[(f * timeline.layerCount + layer) * 16 + k]`, row-major as Core Animation's.
    public let matrices: [Double]
    /// `opacities[f * timeline.layerCount + layer]`.
    public let opacities: [Double]
}

/// Streams the baked document. Key order is fixed, numbers go through the one
/// shortest-round-trip printer, and nothing machine- or time-dependent is written, so
/// the same input always gives the same bytes.
struct BakeWriter {
    let timeline: Timeline
    var out: [UInt8] = []

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    mutating func string(_ s: String) { appendJSONString(s, to: &out) }

    mutating func number(_ x: Double) { appendNumber(x.isFinite ? x : 0, to: &out) }

    mutating func document(plan: BakePlan, values: [Double], matrices: [Double], opacities: [Double]) {
        let c = timeline.composition
        raw("{\n  \"format\": ")
        string(Baker.format)
        raw(",\n  \"version\": ")
        number(Double(Baker.version))
        raw(",\n  \"composition\": {\"name\": ")
        string(c.name)
        raw(", \"size\": [")
        number(c.size.width); raw(", "); number(c.size.height)
        raw("], \"backgroundColor\": ")
        if let bg = c.backgroundColor {
            raw("["); number(bg.red); raw(", "); number(bg.green); raw(", "); number(bg.blue); raw(", "); number(bg.alpha); raw("]")
        } else {
            raw("null")
        }
        raw("},\n  \"fps\": ")
        number(plan.fps)
        raw(",\n  \"window\": {\"start\": ")
        number(plan.window.start)
        raw(", \"end\": ")
        number(plan.window.end)
        raw(", \"includesEnd\": ")
        raw(plan.window.includesEnd ? "true" : "false")
        raw("},\n  \"frameCount\": ")
        number(Double(plan.frameCount))
        raw(",\n  \"layers\": [")
        let channels = timeline.propertyChannels
        var byLayer = [[PropertyChannel]](repeating: [], count: timeline.layerCount)
        for ch in channels { byLayer[ch.layer].append(ch) }
        let frames = plan.frameCount
        let stride = timeline.rawValueCount
        let layerCount = timeline.layerCount
        for layer in 0..<layerCount {
            let info = timeline.layerInfo(layer)
            raw(layer == 0 ? "\n    {\n      \"id\": " : ",\n    {\n      \"id\": ")
            string(info.id)
            raw(",\n      \"kind\": ")
            string(info.kind.rawValue)
            raw(",\n      \"parent\": ")
            if let p = info.parent { string(timeline.layerInfo(p).id) } else { raw("null") }
            raw(",\n      \"isMask\": ")
            raw(info.isMask ? "true" : "false")
            raw(",\n      \"mask\": ")
            if let m = info.mask { string(timeline.layerInfo(m).id) } else { raw("null") }
            var constant: [PropertyChannel] = []
            var animated: [PropertyChannel] = []
            for ch in byLayer[layer] {
                if isConstant(values, offset: ch.offset, width: ch.width, stride: stride, frames: frames) {
                    constant.append(ch)
                } else {
                    animated.append(ch)
                }
            }
            raw(",\n      \"constant\": {")
            for (i, ch) in constant.enumerated() {
                raw(i == 0 ? "\n        " : ",\n        ")
                string(ch.property.rawValue)
                raw(": ")
                value(ch, values, at: ch.offset)
            }
            raw(constant.isEmpty ? "}" : "\n      }")
            raw(",\n      \"animated\": {")
            for (i, ch) in animated.enumerated() {
                raw(i == 0 ? "\n        " : ",\n        ")
                string(ch.property.rawValue)
                raw(": [")
                for f in 0..<frames {
                    if f > 0 { raw(", ") }
                    value(ch, values, at: f * stride + ch.offset)
                }
                raw("]")
            }
            raw(animated.isEmpty ? "}" : "\n      }")
            raw(",\n      \"matrix\": ")
            if isConstant(matrices, offset: layer * 16, width: 16, stride: layerCount * 16, frames: frames) {
                raw("{\"constant\": ")
                numbers(matrices, layer * 16, 16)
                raw("}")
            } else {
                raw("{\"frames\": [")
                for f in 0..<frames {
                    if f > 0 { raw(", ") }
                    numbers(matrices, f * layerCount * 16 + layer * 16, 16)
                }
                raw("]}")
            }
            raw(",\n      \"opacity\": ")
            if isConstant(opacities, offset: layer, width: 1, stride: layerCount, frames: frames) {
                raw("{\"constant\": ")
                number(opacities[layer])
                raw("}")
            } else {
                raw("{\"frames\": [")
                for f in 0..<frames {
                    if f > 0 { raw(", ") }
                    number(opacities[f * layerCount + layer])
                }
                raw("]}")
            }
            raw("\n    }")
        }
        raw(layerCount == 0 ? "]\n}\n" : "\n  ]\n}\n")
    }

    func isConstant(_ data: [Double], offset: Int, width: Int, stride: Int, frames: Int) -> Bool {
        guard frames > 1 else { return true }
        for f in 1..<frames {
            let base = f * stride + offset
            for k in 0..<width where data[base + k] != data[offset + k] { return false }
        }
        return true
    }

    mutating func numbers(_ data: [Double], _ offset: Int, _ count: Int) {
        raw("[")
        for k in 0..<count {
            if k > 0 { raw(", ") }
            number(data[offset + k])
        }
        raw("]")
    }

    /// One value in the encoding of ``ValueJSON``, straight from its doubles.
    mutating func value(_ ch: PropertyChannel, _ data: [Double], at offset: Int) {
        switch ch.type {
        case .number, .length, .angle, .time: number(data[offset])
        case .point, .size: numbers(data, offset, 2)
        case .rect, .color: numbers(data, offset, 4)
        case .transform: numbers(data, offset, 16)
        case .bool: raw(data[offset] >= 0.5 ? "true" : "false")
        case .enumeration: string(timeline.symbol(data[offset]) ?? "")
        case .image:
            if let s = timeline.symbol(data[offset]), data[offset] >= 0 { string(s) } else { raw("null") }
        case .numbers, .colors, .path:
            let v = data.withUnsafeBufferPointer { b in
                timeline.decode(ch, UnsafeBufferPointer(rebasing: b[offset..<(offset + ch.width)]))
            }
            out += ValueJSON.encode(v).serialized(style: .compact)
        }
    }
}

extension BakedFrames {
    /// Appends property `channel`'s value at frame `f` in the encoding of ``ValueJSON``.
    public func appendValue(_ channel: PropertyChannel, frame f: Int, to out: inout [UInt8]) {
        var w = BakeWriter(timeline: timeline)
        swap(&w.out, &out)
        w.value(channel, values, at: f * timeline.rawValueCount + channel.offset)
        swap(&w.out, &out)
    }
}
