import AnimcBake
import AnimcBase
import AnimcIR
import AnimcRuntime

/// What the preview page plays: the sampled frames in the page's own compact encoding,
/// the timing chart, the images and the diagnostics, kept in pieces (one per layer) so
/// that a served page can be sent only the layers an edit changed.
///
/// The encoding (docs/preview.md, "The page's data") is the baked document's, except
/// that every number that changes per frame is stored per component with runs of
/// equal values collapsed, and rounded to 1e-9 (a nanometre of a point; the page draws
/// to 1/64 px). For the splash that is a third of the baked document's size.
public struct PreviewData: Sendable {
    /// The frames' members before their layers: composition, fps, window, frameCount.
    let head: [UInt8]
    /// Each layer's id and its encoded object, in the timeline's order.
    let layerIDs: [String]
    let layers: [[UInt8]]
    let chart: [UInt8]
    let images: [UInt8]
    private(set) var diagnostics: [UInt8]

    /// The data for `frames`, with image data URLs by asset name and diagnostics to
    /// show over the stage.
    public init(_ frames: BakedFrames, images: [String: String] = [:], diagnostics: [String] = []) {
        let timeline = frames.timeline
        let plan = frames.plan
        var head: [UInt8] = []
        let c = timeline.composition
        head += Array("\"composition\":{\"name\":".utf8)
        appendJSONString(c.name, to: &head)
        head += Array(",\"size\":[".utf8)
        appendNumber(c.size.width, to: &head)
        head.append(UInt8(ascii: ","))
        appendNumber(c.size.height, to: &head)
        head += Array("],\"backgroundColor\":".utf8)
        if let bg = c.backgroundColor {
            head += JSONValue.array([bg.red, bg.green, bg.blue, bg.alpha].map(JSONValue.number)).serialized(style: .compact)
        } else {
            head += Array("null".utf8)
        }
        head += Array("},\"fps\":".utf8)
        appendNumber(plan.fps, to: &head)
        head += Array(",\"window\":{\"start\":".utf8)
        appendNumber(plan.window.start, to: &head)
        head += Array(",\"end\":".utf8)
        appendNumber(plan.window.end, to: &head)
        head += Array((plan.window.includesEnd ? ",\"includesEnd\":true}" : ",\"includesEnd\":false}").utf8)
        head += Array(",\"frameCount\":".utf8)
        appendNumber(Double(plan.frameCount), to: &head)
        self.head = head

        var byLayer = [[PropertyChannel]](repeating: [], count: timeline.layerCount)
        for ch in timeline.propertyChannels { byLayer[ch.layer].append(ch) }
        // Which slots ever differ from frame 0, found frame by frame: walking each
        // channel down the frames instead touches a new cache line per read (a frame of
        // the splash is 64 KB) and took most of the encoding's time.
        var changing = [Bool](repeating: false, count: timeline.rawValueCount)
        frames.values.withUnsafeBufferPointer { values in
            let stride = timeline.rawValueCount
            for f in 1..<max(plan.frameCount, 1) {
                for k in 0..<stride where values[f * stride + k].bitPattern != values[k].bitPattern { changing[k] = true }
            }
        }
        var ids: [String] = []
        var layers: [[UInt8]] = []
        for layer in 0..<timeline.layerCount {
            ids.append(timeline.layerInfo(layer).id)
            var encoder = LayerEncoder(frames: frames, layer: layer, channels: byLayer[layer], changing: changing)
            layers.append(encoder.encode())
        }
        layerIDs = ids
        self.layers = layers
        chart = PreviewPage.chart(timeline, plan: plan).serialized(style: .compact)
        self.images = JSONValue.object(images.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) })
            .serialized(style: .compact)
        self.diagnostics = JSONValue.array(diagnostics.map(JSONValue.string)).serialized(style: .compact)
    }

    /// The same frames with other diagnostics over the stage (a served page keeps the
    /// last good frames while the source has errors).
    public func with(diagnostics: [String]) -> PreviewData {
        var copy = self
        copy.diagnostics = JSONValue.array(diagnostics.map(JSONValue.string)).serialized(style: .compact)
        return copy
    }

    /// The whole document, as the page embeds it. `version` numbers a served page's
    /// data (0 for a written page); `events` is where a served page listens for changes.
    public func document(version: Int = 0, events: String? = nil) -> [UInt8] {
        assemble(version: version, events: events, layers: layers, sameImages: false, from: nil)
    }

    /// What a page showing `old` (at version `oldVersion`) needs to show this: each
    /// layer whose encoding is unchanged is `{"same": INDEX}` (its index in `old`), the
    /// images are left out when unchanged (`"sameImages": true`), the rest is as in
    /// ``document(version:events:)``. The page applies it to what it holds.
    public func update(from old: PreviewData, oldVersion: Int, version: Int, events: String? = nil) -> [UInt8] {
        var previous: [String: Int] = [:]
        for (i, id) in old.layerIDs.enumerated() { previous[id] = i }
        let layers = zip(layerIDs, self.layers).map { id, bytes -> [UInt8] in
            if let i = previous[id], old.layers[i] == bytes { return Array("{\"same\":\(i)}".utf8) }
            return bytes
        }
        return assemble(version: version, events: events, layers: layers, sameImages: images == old.images, from: oldVersion)
    }

    /// `from`, in an update, tells the page which version the `same` indices refer to.
    private func assemble(version: Int, events: String?, layers: [[UInt8]], sameImages: Bool, from: Int?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(layers.reduce(0) { $0 + $1.count + 1 } + chart.count + images.count + head.count + 1024)
        out += Array("{\"version\":\(version),\"events\":".utf8)
        if let events { appendJSONString(events, to: &out) } else { out += Array("null".utf8) }
        out += Array(",\"frames\":{".utf8)
        out += head
        out += Array(",\"layers\":[".utf8)
        for (i, layer) in layers.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += layer
        }
        out += Array("]},\"chart\":".utf8)
        out += chart
        if sameImages {
            out += Array(",\"sameImages\":true".utf8)
        } else {
            out += Array(",\"images\":".utf8)
            out += images
        }
        out += Array(",\"diagnostics\":".utf8)
        out += diagnostics
        out += Array(",\"shown\":".utf8)
        out += PreviewData.shownRanges
        if let from { out += Array(",\"from\":\(from)".utf8) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The range each number property is drawn clamped into (`PropertyInfo.shown`): the
    /// frames hold presentation values, which an animation may take outside it.
    static let shownRanges: [UInt8] = JSONValue.object(PropertyTable.properties.compactMap { info in
        guard info.type == .number || info.type == .length, info.minimum != nil || info.maximum != nil else { return nil }
        return JSONMember(info.id.rawValue, .array([info.minimum.map(JSONValue.number) ?? .null, info.maximum.map(JSONValue.number) ?? .null]))
    }).serialized(style: .compact)
}

/// One layer's object: its structure, its constant properties as ``ValueJSON`` writes
/// them, and its animated properties, matrix and opacity as series:
/// - `{"n": COLUMN}`: a number per frame;
/// - `{"c": [COLUMN, ...]}`: a list of numbers per frame (a point, a colour, a matrix);
/// - `{"r": [[COUNT, VALUE], ...]}`: any other value per frame, as runs.
/// A column is a number (the same at every frame) or a list whose items are a number
/// (one frame) or `[COUNT, NUMBER]` (that many frames of it).
struct LayerEncoder {
    let frames: BakedFrames
    let layer: Int
    let channels: [PropertyChannel]
    /// Per slot of the frames' values: whether it ever differs from frame 0.
    let changing: [Bool]
    var out: [UInt8] = []

    init(frames: BakedFrames, layer: Int, channels: [PropertyChannel], changing: [Bool]) {
        self.frames = frames
        self.layer = layer
        self.channels = channels
        self.changing = changing
    }

    mutating func encode() -> [UInt8] {
        let timeline = frames.timeline
        let info = timeline.layerInfo(layer)
        raw("{\"id\":")
        appendJSONString(info.id, to: &out)
        raw(",\"kind\":")
        appendJSONString(info.kind.rawValue, to: &out)
        raw(",\"parent\":")
        if let p = info.parent { appendJSONString(timeline.layerInfo(p).id, to: &out) } else { raw("null") }
        raw(info.isMask ? ",\"isMask\":true,\"mask\":" : ",\"isMask\":false,\"mask\":")
        if let m = info.mask { appendJSONString(timeline.layerInfo(m).id, to: &out) } else { raw("null") }
        let stride = timeline.rawValueCount
        var animated: [PropertyChannel] = []
        raw(",\"constant\":{")
        var first = true
        for ch in channels {
            if changing[ch.offset..<(ch.offset + ch.width)].contains(true) {
                animated.append(ch)
                continue
            }
            if !first { raw(",") }
            first = false
            appendJSONString(ch.property.rawValue, to: &out)
            raw(":")
            frames.appendValue(ch, frame: 0, to: &out)
        }
        raw("},\"animated\":{")
        for (i, ch) in animated.enumerated() {
            if i > 0 { raw(",") }
            appendJSONString(ch.property.rawValue, to: &out)
            raw(":")
            switch ch.type {
            case .number, .length, .angle, .time:
                raw("{\"n\":")
                column(frames.values, offset: ch.offset, stride: stride)
                raw("}")
            case .point, .size, .rect, .color, .transform:
                columns(frames.values, offset: ch.offset, width: ch.width, stride: stride)
            case .bool, .enumeration, .image, .numbers, .colors, .path:
                runs(ch, stride: stride)
            }
        }
        raw("},\"matrix\":")
        let layers = timeline.layerCount
        columns(frames.matrices, offset: layer * 16, width: 16, stride: layers * 16)
        raw(",\"opacity\":{\"n\":")
        column(frames.opacities, offset: layer, stride: layers)
        raw("}}")
        return out
    }

    private mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private var frameCount: Int { frames.plan.frameCount }

    /// The page draws to a fraction of a pixel; nine decimals keep every value to a
    /// nanometre and cut the numbers' text by half. Magnitudes too large to scale are
    /// kept as they are; non-finite numbers (which no channel should hold) as 0, as the
    /// baked document writes them.
    static func rounded(_ x: Double) -> Double {
        guard x.isFinite else { return 0 }
        guard abs(x) < 1e9 else { return x }
        return (x * 1e9).rounded() / 1e9 + 0
    }

    private mutating func columns(_ data: [Double], offset: Int, width: Int, stride: Int) {
        raw("{\"c\":[")
        for k in 0..<width {
            if k > 0 { raw(",") }
            column(data, offset: offset + k, stride: stride)
        }
        raw("]}")
    }

    private mutating func column(_ data: [Double], offset: Int, stride: Int) {
        let n = frameCount
        let xs = (0..<n).map { LayerEncoder.rounded(data[$0 * stride + offset]) }
        guard let first = xs.first, xs.contains(where: { $0 != first }) else {
            decimal(xs.first ?? 0)
            return
        }
        raw("[")
        var f = 0
        while f < n {
            let x = xs[f]
            var end = f + 1
            while end < n && xs[end] == x { end += 1 }
            if f > 0 { raw(",") }
            if end - f > 1 {
                raw("[")
                appendNumber(Double(end - f), to: &out)
                raw(",")
                decimal(x)
                raw("]")
            } else {
                decimal(x)
            }
            f = end
        }
        raw("]")
    }

    /// A number already ``rounded(_:)``, written with at most nine decimals. Below 1e6
    /// the nanounits are an exact integer, so the digits are printed straight from it
    /// (a fifth of the general printer's time, which finds the shortest digits of any
    /// double); the text reads back as the same double, since both are the double
    /// nearest to that decimal.
    private mutating func decimal(_ x: Double) {
        guard abs(x) < 1e6 else { return appendNumber(x, to: &out) }
        let nano = Int64((x * 1e9).rounded())
        var whole = nano.magnitude / 1_000_000_000
        var fraction = nano.magnitude % 1_000_000_000
        // Sign, up to 7 digits, a point and 9 decimals: 18 bytes, built from the end.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { buffer in
            var i = buffer.count
            if fraction > 0 {
                var places = 9
                while fraction % 10 == 0 {
                    fraction /= 10
                    places -= 1
                }
                for _ in 0..<places {
                    i -= 1
                    buffer[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
                    fraction /= 10
                }
                i -= 1
                buffer[i] = UInt8(ascii: ".")
            }
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(whole % 10)
                whole /= 10
            } while whole > 0
            if nano < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    private mutating func runs(_ ch: PropertyChannel, stride: Int) {
        let n = frameCount
        let data = frames.values
        raw("{\"r\":[")
        var f = 0
        while f < n {
            var end = f + 1
            while end < n, (0..<ch.width).allSatisfy({ data[end * stride + ch.offset + $0].bitPattern == data[f * stride + ch.offset + $0].bitPattern }) {
                end += 1
            }
            if f > 0 { raw(",") }
            raw("[")
            appendNumber(Double(end - f), to: &out)
            raw(",")
            frames.appendValue(ch, frame: f, to: &out)
            raw("]")
            f = end
        }
        raw("]}")
    }
}

