import AnimcBase
import AnimcIR

/// Lays out the Lottie document. Keys are written in a fixed order (`ddd` first: rlottie
/// reads keys in order and treats a layer as 3D until it has seen `"ddd": 0`), numbers
/// are rounded to what players can show (values to 1e-4, easing handles to 1e-6), and
/// nothing depends on the machine or the time, so the same input gives the same bytes.
struct LottieWriter {
    let exporter: Exporter
    let layers: [LottieLayerPlan]

    var composition: Composition { exporter.composition }

    func document() -> [UInt8] {
        var assets: [JSONValue] = []
        var assetIDs: [String: String] = [:]
        // Each layer is serialized as soon as it is made and its tree dropped: the whole
        // document as one tree took about twenty times the file's size (2,000 layers of
        // springs, a 37 MB file: 752 MB).
        var layerBytes: [UInt8] = [UInt8(ascii: "[")]
        for p in layers {
            var refID: String?
            if p.kind == .image, let name = p.image {
                let size = imageSize(p.caLayer)
                let key = "\(name)|\(size.0)x\(size.1)"
                if let id = assetIDs[key] {
                    refID = id
                } else {
                    let id = "image_\(assetIDs.count)"
                    assetIDs[key] = id
                    refID = id
                    let url = exporter.options.images[name] ?? LottieAssets.placeholder(width: size.0, height: size.1)
                    assets.append(.object([
                        JSONMember("id", .string(id)), JSONMember("nm", .string(name)),
                        JSONMember("w", .number(Double(size.0))), JSONMember("h", .number(Double(size.1))),
                        JSONMember("u", ""), JSONMember("p", .string(url)), JSONMember("e", 1),
                    ]))
                }
            }
            if layerBytes.count > 1 { layerBytes.append(UInt8(ascii: ",")) }
            layerBytes += layer(p, refID: refID).serialized(style: .compact)
        }
        layerBytes.append(UInt8(ascii: "]"))
        let doc = JSONValue.object([
            JSONMember("v", "5.7.0"),
            JSONMember("fr", .number(round(exporter.plan.fps, 1e-6))),
            JSONMember("ip", 0),
            JSONMember("op", .number(Double(exporter.plan.frameCount))),
            JSONMember("w", .number(round(composition.size.width, 1e-4))),
            JSONMember("h", .number(round(composition.size.height, 1e-4))),
            JSONMember("nm", .string(composition.name)),
            JSONMember("ddd", 0),
            JSONMember("assets", .array(assets)),
            JSONMember("layers", .array([])),
            JSONMember("meta", .object([JSONMember("g", "animc")])),
        ])
        // The layers go where the empty list is: the last `"layers":[]` of the text is the
        // key (in a name, the quotes would be escaped).
        let skeleton = doc.serialized(style: .compact)
        let marker = Array(#""layers":[]"#.utf8)
        guard let at = Self.lastRange(of: marker, in: skeleton) else { return skeleton + [0x0A] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(skeleton.count + layerBytes.count + 1)
        bytes += skeleton[..<(at + marker.count - 2)]
        bytes += layerBytes
        bytes += skeleton[(at + marker.count)...]
        bytes.append(0x0A)
        return bytes
    }

    func imageSize(_ i: Int) -> (Int, Int) { exporter.imageSize(i) }

    /// Where the last occurrence of `needle` starts in `haystack`.
    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = haystack.count - needle.count
        while i >= 0 {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }

    // MARK: Layers

    func layer(_ p: LottieLayerPlan, refID: String?) -> JSONValue {
        var m: [JSONMember] = [JSONMember("ddd", 0), JSONMember("ind", .number(Double(p.ind)))]
        let type: Double
        switch p.kind {
        case .null: type = 3
        case .shape: type = 4
        case .image: type = 2
        }
        m.append(JSONMember("ty", .number(type)))
        m.append(JSONMember("nm", .string(p.name)))
        if let parent = p.parent { m.append(JSONMember("parent", .number(Double(parent)))) }
        m.append(JSONMember("sr", 1))
        m.append(JSONMember("ks", transform(p)))
        m.append(JSONMember("ao", 0))
        m.append(JSONMember("ip", 0))
        m.append(JSONMember("op", .number(Double(exporter.plan.frameCount))))
        m.append(JSONMember("st", 0))
        m.append(JSONMember("bm", 0))
        if p.isMatte { m.append(JSONMember("td", 1)) }
        if p.isMatted { m.append(JSONMember("tt", 1)) }
        switch p.kind {
        case .shape: m.append(JSONMember("shapes", .array(shapes(p))))
        case .image: if let refID { m.append(JSONMember("refId", .string(refID))) }
        case .null: break
        }
        return .object(m)
    }

    func key(_ p: LottieLayerPlan, _ c: Channel) -> TrackKey {
        let image = c == .opacity && p.kind == .image && p.caLayer >= 0 && exporter.contents[p.caLayer].images.count > 1 ? p.image : nil
        return TrackKey(layer: p.caLayer, channel: c, image: image)
    }

    func transform(_ p: LottieLayerPlan) -> JSONValue {
        switch p.role {
        case .transform, .matte:
            var m = [JSONMember("a", property(key(p, .anchor))), JSONMember("p", property(key(p, .position))),
                     JSONMember("s", property(key(p, .scale))), JSONMember("r", property(key(p, .rotation))),
                     JSONMember("o", property(key(p, .opacity)))]
            if let skew = exporter.tracks[key(p, .skew)], !(skew.isConstant && abs(skew.keyframes[0].value.first ?? 0) < 1e-9) {
                m.append(JSONMember("sk", property(key(p, .skew))))
                m.append(JSONMember("sa", .object([JSONMember("a", 0), JSONMember("k", 0)])))
            }
            return .object(m)
        case .content:
            return identity(opacity: property(key(p, .opacity)))
        case .clip, .background:
            return identity(opacity: .object([JSONMember("a", 0), JSONMember("k", 100)]))
        }
    }

    func identity(opacity: JSONValue) -> JSONValue {
        .object([JSONMember("a", constant([0, 0])), JSONMember("p", constant([0, 0])), JSONMember("s", constant([100, 100])),
                 JSONMember("r", constant([0])), JSONMember("o", opacity)])
    }

    // MARK: Shapes

    func shapes(_ p: LottieLayerPlan) -> [JSONValue] {
        if p.role == .background {
            let s = composition.size
            let bg = composition.backgroundColor ?? .clear
            return [group("background", [
                .object([JSONMember("ty", "rc"), JSONMember("d", 1), JSONMember("s", constant([s.width, s.height])),
                         JSONMember("p", constant([s.width / 2, s.height / 2])), JSONMember("r", constant([0]))]),
                fill(color: constant([bg.red, bg.green, bg.blue]), opacity: constant([bg.alpha * 100]), rule: 1),
            ])]
        }
        if p.role == .clip {
            return [group("bounds", [
                rect(size: property(key(p, .backgroundSize)), center: property(key(p, .backgroundCenter)),
                     roundness: property(key(p, .backgroundRoundness))),
                fill(color: constant([1, 1, 1]), opacity: constant([100]), rule: 1),
            ])]
        }
        let c = exporter.contents[p.caLayer]
        let layer = composition.layers[p.caLayer]
        var out: [JSONValue] = []
        // Lottie draws the first item on top: border, then content, then background.
        if c.border {
            out.append(group("border", [
                rect(size: property(key(p, .borderSize)), center: property(key(p, .backgroundCenter)),
                     roundness: property(key(p, .borderRoundness))),
                stroke(color: property(key(p, .borderColor)), opacity: property(key(p, .borderOpacity)),
                       width: property(key(p, .borderWidth)), layer: nil),
            ]))
        }
        if c.path {
            var items = pathShapes(key(p, .path))
            let trimmed = exporter.tracks[key(p, .trimStart)].map { !($0.isConstant && $0.keyframes[0].value == [0]) } ?? false
                || exporter.tracks[key(p, .trimEnd)].map { !($0.isConstant && $0.keyframes[0].value == [100]) } ?? false
            if trimmed {
                items.append(.object([JSONMember("ty", "tm"), JSONMember("s", property(key(p, .trimStart))),
                                      JSONMember("e", property(key(p, .trimEnd))), JSONMember("o", constant([0])),
                                      JSONMember("m", .number(items.count > 1 ? 2 : 1))]))
            }
            if c.stroke {
                items.append(stroke(color: property(key(p, .strokeColor)), opacity: property(key(p, .strokeOpacity)),
                                    width: property(key(p, .strokeWidth)), layer: layer))
            }
            if c.fill {
                let rule: Double = layer.modelValue(.fillRule) == .enumeration("evenOdd") ? 2 : 1
                items.append(fill(color: property(key(p, .fillColor)), opacity: property(key(p, .fillOpacity)), rule: rule))
            }
            out.append(group("path", items))
        }
        if c.gradient {
            let type: Double = layer.modelValue(.gradientType) == .enumeration("radial") ? 2 : 1
            let stops = exporter.tracks[key(p, .gradientStops)]
            let count = Double(colorsCount(layer))
            out.append(group("gradient", [
                rect(size: property(key(p, .backgroundSize)), center: property(key(p, .backgroundCenter)), roundness: constant([0])),
                .object([JSONMember("ty", "gf"), JSONMember("o", constant([100])), JSONMember("r", 1), JSONMember("t", .number(type)),
                         JSONMember("s", property(key(p, .gradientStart))), JSONMember("e", property(key(p, .gradientEnd))),
                         JSONMember("g", .object([JSONMember("p", .number(count)),
                                                  JSONMember("k", stops.map { write($0, channel: .gradientStops) } ?? constant([]))]))]),
            ]))
        }
        if c.stroke, p.isMatted, let extent = strokeExtent(p) {
            // lottie-web sizes a track matte's mask by the matted layer's geometry
            // without its stroke width, so a thick stroke under a matte is cut to the
            // path's fill box (lottie-web #1082, #1276, #2367). A transparent rect over
            // everything the stroke can cover widens that box; other players draw nothing
            // for it. docs/formats.md lists the workarounds.
            out.append(group("stroke extent", [
                rect(size: constant([extent.width, extent.height]), center: constant([extent.x + extent.width / 2, extent.y + extent.height / 2]),
                     roundness: constant([0])),
                fill(color: constant([0, 0, 0]), opacity: constant([0]), rule: 1),
            ]))
        }
        if c.background {
            out.append(group("background", [
                rect(size: property(key(p, .backgroundSize)), center: property(key(p, .backgroundCenter)),
                     roundness: property(key(p, .backgroundRoundness))),
                fill(color: property(key(p, .backgroundColor)), opacity: property(key(p, .backgroundOpacity)), rule: 1),
            ]))
        }
        return out
    }

    /// Everything a layer's stroke can cover over the export: the hull of its path's
    /// control points at every sample, widened by half the widest line (times the miter
    /// limit, for miter joins).
    func strokeExtent(_ p: LottieLayerPlan) -> Rect? {
        guard let paths = exporter.series[key(p, .path)] ?? exporter.tracks[key(p, .path)].map({ $0.keyframes.map(\.value) }) else { return nil }
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        for flat in paths {
            for shape in LottiePath.unflatten(flat) {
                for k in shape.vertices.indices {
                    let v = shape.vertices[k]
                    for q in [v, Point(v.x + shape.inTangents[k].x, v.y + shape.inTangents[k].y),
                              Point(v.x + shape.outTangents[k].x, v.y + shape.outTangents[k].y)] {
                        lo = (min(lo.x, q.x), min(lo.y, q.y))
                        hi = (max(hi.x, q.x), max(hi.y, q.y))
                    }
                }
            }
        }
        guard lo.x.isFinite, hi.x.isFinite else { return nil }
        let widths = exporter.series[key(p, .strokeWidth)] ?? exporter.tracks[key(p, .strokeWidth)].map { $0.keyframes.map(\.value) } ?? []
        let width = widths.compactMap(\.first).max() ?? 1
        let layer = composition.layers[p.caLayer]
        var miter = 1.0
        if layer.modelValue(.lineJoin) == .enumeration("miter"), case .number(let m) = layer.modelValue(.miterLimit) { miter = max(1, m) }
        let pad = width / 2 * miter + 1
        return Rect(lo.x - pad, lo.y - pad, hi.x - lo.x + 2 * pad, hi.y - lo.y + 2 * pad)
    }

    func colorsCount(_ layer: Layer) -> Int {
        if case .colors(let c) = layer.modelValue(.colors) { return c.count }
        return 0
    }

    func group(_ name: String, _ items: [JSONValue]) -> JSONValue {
        .object([JSONMember("ty", "gr"), JSONMember("nm", .string(name)), JSONMember("it", .array(items + [
            .object([JSONMember("ty", "tr"), JSONMember("a", constant([0, 0])), JSONMember("p", constant([0, 0])),
                     JSONMember("s", constant([100, 100])), JSONMember("r", constant([0])), JSONMember("o", constant([100]))]),
        ]))])
    }

    func rect(size: JSONValue, center: JSONValue, roundness: JSONValue) -> JSONValue {
        .object([JSONMember("ty", "rc"), JSONMember("d", 1), JSONMember("s", size), JSONMember("p", center), JSONMember("r", roundness)])
    }

    func fill(color: JSONValue, opacity: JSONValue, rule: Double) -> JSONValue {
        .object([JSONMember("ty", "fl"), JSONMember("c", color), JSONMember("o", opacity), JSONMember("r", .number(rule))])
    }

    func stroke(color: JSONValue, opacity: JSONValue, width: JSONValue, layer: Layer?) -> JSONValue {
        var cap = 1.0, join = 1.0, miter = 10.0
        var dashes: [Double] = []
        var phase = 0.0
        if let layer {
            switch layer.modelValue(.lineCap) {
            case .enumeration("round"): cap = 2
            case .enumeration("square"): cap = 3
            default: break
            }
            switch layer.modelValue(.lineJoin) {
            case .enumeration("round"): join = 2
            case .enumeration("bevel"): join = 3
            default: break
            }
            if case .number(let m) = layer.modelValue(.miterLimit) { miter = m }
            if case .numbers(let d) = layer.modelValue(.lineDashPattern) { dashes = d }
            if case .number(let ph) = layer.modelValue(.lineDashPhase) { phase = ph }
        }
        var m = [JSONMember("ty", "st"), JSONMember("c", color), JSONMember("o", opacity), JSONMember("w", width),
                 JSONMember("lc", .number(cap)), JSONMember("lj", .number(join)), JSONMember("ml", .number(round(miter, 1e-4)))]
        if !dashes.isEmpty {
            // CAShapeLayer repeats an odd-length pattern twice over, as CGContext does.
            let pattern = dashes.count % 2 == 1 ? dashes + dashes : dashes
            var d: [JSONValue] = []
            for (k, v) in pattern.enumerated() {
                d.append(.object([JSONMember("n", .string(k % 2 == 0 ? "d" : "g")), JSONMember("nm", .string(k % 2 == 0 ? "dash" : "gap")),
                                  JSONMember("v", constant([v]))]))
            }
            d.append(.object([JSONMember("n", "o"), JSONMember("nm", "offset"), JSONMember("v", constant([phase]))]))
            m.append(JSONMember("d", .array(d)))
        }
        return .object(m)
    }

    /// One `sh` per subpath; a subpath the path lacks at some keyframe is written as an
    /// empty shape there, so that every keyframe has the same shapes.
    func pathShapes(_ key: TrackKey) -> [JSONValue] {
        guard let track = exporter.tracks[key] else { return [] }
        let perKey = track.keyframes.map { LottiePath.unflatten($0.value) }
        let count = perKey.map(\.count).max() ?? 0
        var out: [JSONValue] = []
        for k in 0..<count {
            func shape(_ shapes: [BezierShape]) -> JSONValue { bezier(k < shapes.count ? shapes[k] : BezierShape()) }
            let value: JSONValue
            if track.keyframes.count == 1 || track.isConstant {
                value = .object([JSONMember("a", 0), JSONMember("k", shape(perKey[0]))])
            } else {
                value = .object([JSONMember("a", 1), JSONMember("k", .array(track.keyframes.enumerated().map { (i, kf) in
                    keyframe(kf, last: i == track.keyframes.count - 1, value: .array([shape(perKey[i])]))
                }))])
            }
            out.append(.object([JSONMember("ty", "sh"), JSONMember("nm", .string("subpath \(k + 1)")), JSONMember("ks", value)]))
        }
        return out
    }

    func bezier(_ s: BezierShape) -> JSONValue {
        func points(_ ps: [Point]) -> JSONValue { .array(ps.map { .array([.number(round($0.x, 1e-4)), .number(round($0.y, 1e-4))]) }) }
        return .object([JSONMember("c", .bool(s.closed)), JSONMember("v", points(s.vertices)), JSONMember("i", points(s.inTangents)),
                        JSONMember("o", points(s.outTangents))])
    }

    // MARK: Properties

    func property(_ key: TrackKey) -> JSONValue {
        guard let track = exporter.tracks[key] else { return constant(defaultValue(key.channel)) }
        return write(track, channel: key.channel)
    }

    func defaultValue(_ c: Channel) -> [Double] {
        switch c {
        case .scale: return [100, 100]
        case .opacity, .trimEnd, .backgroundOpacity, .fillOpacity, .strokeOpacity, .borderOpacity: return [100]
        case .anchor, .position, .backgroundSize, .backgroundCenter, .borderSize, .gradientStart, .gradientEnd: return [0, 0]
        case .backgroundColor, .fillColor, .strokeColor, .borderColor: return [0, 0, 0]
        default: return [0]
        }
    }

    func write(_ track: LottieTrack, channel: Channel) -> JSONValue {
        if track.isConstant { return constant(track.keyframes.first?.value ?? defaultValue(channel)) }
        return .object([JSONMember("a", 1), JSONMember("k", .array(track.keyframes.enumerated().map { (i, kf) in
            keyframe(kf, last: i == track.keyframes.count - 1, value: .array(kf.value.map { .number(round($0, 1e-4)) }))
        }))])
    }

    func keyframe(_ kf: LottieKeyframe, last: Bool, value: JSONValue) -> JSONValue {
        var m = [JSONMember("t", .number(round(kf.t, 1e-4))), JSONMember("s", value)]
        if !last {
            switch kf.ease {
            case .hold: m.append(JSONMember("h", 1))
            case .linear: m += handles(0, 0, 1, 1)
            case .bezier(let ox, let oy, let ix, let iy): m += handles(ox, oy, ix, iy)
            }
        }
        return .object(m)
    }

    func handles(_ ox: Double, _ oy: Double, _ ix: Double, _ iy: Double) -> [JSONMember] {
        func h(_ x: Double, _ y: Double) -> JSONValue {
            .object([JSONMember("x", .array([.number(round(x, 1e-6))])), JSONMember("y", .array([.number(round(y, 1e-6))]))])
        }
        return [JSONMember("o", h(ox, oy)), JSONMember("i", h(ix, iy))]
    }

    /// A static property: scalars as numbers, vectors as arrays.
    func constant(_ v: [Double]) -> JSONValue {
        let k: JSONValue = v.count == 1 ? .number(round(v[0], 1e-4)) : .array(v.map { .number(round($0, 1e-4)) })
        return .object([JSONMember("a", 0), JSONMember("k", k)])
    }

    func round(_ x: Double, _ step: Double) -> Double {
        guard x.isFinite else { return 0 }
        let r = (x / step).rounded() * step
        // Printing the product can show float noise (0.30000000000000004): go through the
        // shortest decimal of the quotient instead.
        let digits = step >= 1e-4 ? 4 : 6
        let scaled = (x / step).rounded()
        if abs(scaled) < 1e15, let d = Double(formatScaled(scaled, digits: digits)) { return d == 0 ? 0 : d }
        return r == 0 ? 0 : r
    }

    private func formatScaled(_ scaled: Double, digits: Int) -> String {
        let negative = scaled < 0
        var s = String(Int64(abs(scaled)))
        while s.count <= digits { s = "0" + s }
        let cut = s.index(s.endIndex, offsetBy: -digits)
        return (negative ? "-" : "") + s[..<cut] + "." + s[cut...]
    }
}

enum LottieAssets {
    /// A grey (``Color/missingImage``) PNG of `width` × `height` as a data URL, for images not found
    /// beside the source: the layer still draws at its size, so the file plays and the
    /// placeholder shows where the picture goes. One bit per pixel, so a 400 × 300
    /// placeholder is 15 KB; the players draw it without scaling.
    static func placeholder(width: Int, height: Int) -> String {
        let w = max(1, min(width, 4096)), h = max(1, min(height, 4096))
        let rowBytes = (w + 7) / 8
        let raw = [UInt8](repeating: 0, count: (rowBytes + 1) * h)  // filter 0, palette index 0
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ x: UInt32) -> [UInt8] { [UInt8(x >> 24), UInt8((x >> 16) & 0xFF), UInt8((x >> 8) & 0xFF), UInt8(x & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            png += be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        chunk("IHDR", be32(UInt32(w)) + be32(UInt32(h)) + [1, 3, 0, 0, 0])  // 1 bit, indexed
        let grey = Color.missingImage
        chunk("PLTE", [grey.red, grey.green, grey.blue].map { UInt8(($0 * 255).rounded()) })
        // zlib with stored (uncompressed) deflate blocks: no compressor needed.
        var z: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n >= raw.count ? 1 : 0
            z += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += raw[offset..<(offset + n)]
            offset += n
        } while offset < raw.count
        z += be32(adler32(raw))
        chunk("IDAT", z)
        chunk("IEND", [])
        return "data:image/png;base64," + base64(png)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65_521
            b = (b + a) % 65_521
        }
        return (b << 16) | a
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i]), b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0, b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let v = (b0 << 16) | (b1 << 8) | b2
            out.append(table[Int((v >> 18) & 63)])
            out.append(table[Int((v >> 12) & 63)])
            out.append(i + 1 < bytes.count ? table[Int((v >> 6) & 63)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? table[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
