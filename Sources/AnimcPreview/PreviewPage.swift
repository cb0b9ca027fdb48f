import AnimcBake
import AnimcBase
import AnimcIR
import AnimcRuntime

/// Builds the preview page: one HTML document with the sampled frames, the timing
/// chart's schedule, the images and the player, and nothing it has to fetch.
public enum PreviewPage {
    /// What the page needs besides the timeline.
    public struct Options: Sendable {
        /// The page's title (the source file's name).
        public var title: String
        /// Image data URLs by asset name (`data:image/png;base64,...`); names without
        /// one are drawn grey (``Color/missingImage``), as every backend draws them.
        public var images: [String: String]
        /// Diagnostics to show over the stage (the served page keeps the last good
        /// frames while the file has errors).
        public var diagnostics: [String]
        /// Set by `--serve`: the page listens for reloads on this path.
        public var eventsPath: String?

        public init(title: String, images: [String: String] = [:], diagnostics: [String] = [], eventsPath: String? = nil) {
            self.title = title
            self.images = images
            self.diagnostics = diagnostics
            self.eventsPath = eventsPath
        }
    }

    /// The page for `timeline` sampled as `plan` says.
    public static func render(_ timeline: Timeline, plan: BakePlan, options: Options) -> [UInt8] {
        let data = PreviewData(Baker.sample(timeline, plan: plan), images: options.images, diagnostics: options.diagnostics)
        return render(data, title: options.title, eventsPath: options.eventsPath)
    }

    /// The page for `data`; a served page's data is numbered `version` and it listens
    /// for changes on `eventsPath`.
    public static func render(_ data: PreviewData, title: String, version: Int = 0, eventsPath: String? = nil) -> [UInt8] {
        let shell = shell(title: title)
        return shell.before + scriptSafe(data.document(version: version, events: eventsPath)) + shell.after
    }

    /// The page around its data: the bytes before the data's script element's text and
    /// after it. A served page is these around the one copy of its data (``scriptSafe(_:)``
    /// text), which the server also answers `/update` with.
    public static func shell(title: String) -> (before: [UInt8], after: [UInt8]) {
        var before: [UInt8] = []
        before.reserveCapacity(PreviewAssets.style.utf8.count + PreviewAssets.body.utf8.count + 1024)
        before += Array("""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="animc preview">
        <title>
        """.utf8)
        before += Array(escapeHTML(title + " · animc preview").utf8)
        before += Array("</title>\n<style>\n".utf8)
        before += Array(PreviewAssets.style.utf8)
        before += Array("</style>\n</head>\n<body>\n".utf8)
        before += Array(PreviewAssets.body.utf8)
        before += Array("\n<script id=\"animc-data\" type=\"application/json\">".utf8)
        let after = Array("</script>\n<script>\n".utf8) + Array(PreviewAssets.script.utf8) + Array("</script>\n</body>\n</html>\n".utf8)
        return (before, after)
    }

    /// JSON text that can sit inside a script element: `<` only occurs inside JSON
    /// strings, where `\u003c` means the same, so no layer or image name can end the
    /// element.
    public static func scriptSafe(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(UInt8(ascii: "<")) else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 64)
        for byte in json {
            if byte == UInt8(ascii: "<") { out += Array("\\u003c".utf8) } else { out.append(byte) }
        }
        return out
    }

    /// The timing chart: per layer, per animation (groups and their children, in
    /// order, with their depth), the stretches where it plays or fills.
    static func chart(_ timeline: Timeline, plan: BakePlan) -> JSONValue {
        let start = plan.window.start
        let end = max(plan.window.end, start + 1 / max(plan.fps, 1))
        let schedules = timeline.schedule(from: start, to: end)
        let composition = timeline.composition
        var rows: [JSONValue] = []
        var byLayer = [[Int]](repeating: [], count: timeline.layerCount)
        for info in timeline.animations where info.layer < byLayer.count { byLayer[info.layer].append(info.id) }
        for layer in 0..<timeline.layerCount where !byLayer[layer].isEmpty {
            var bars: [JSONValue] = []
            for id in byLayer[layer] {
                let info = timeline.animations[id]
                let animation = resolve(info.path, in: composition.layers[info.layer].animations)
                var keyPath: JSONValue = .null
                var isGroup = false
                switch animation?.kind {
                case .property(let p)?: keyPath = .string(p.target.keyPath)
                case .group?: isGroup = true
                case nil: break
                }
                let segments = schedules[id].segments.map { s -> JSONValue in
                    .array([.number(rounded(s.start)), .number(rounded(s.end)), .string(s.phase.rawValue)])
                }
                bars.append(.object([
                    JSONMember("name", .string(info.path.split(separator: "/").last.map(String.init) ?? info.path)),
                    JSONMember("path", .string(info.path)),
                    JSONMember("keyPath", keyPath),
                    JSONMember("group", .bool(isGroup)),
                    JSONMember("depth", .number(Double(info.ancestors.count))),
                    JSONMember("segments", .array(segments)),
                ]))
            }
            rows.append(.object([JSONMember("layer", .string(timeline.layerInfo(layer).id)), JSONMember("bars", .array(bars))]))
        }
        return .object([JSONMember("start", .number(start)), JSONMember("end", .number(end)), JSONMember("rows", .array(rows))])
    }

    /// Boundaries found by bisection are within 1e-12 s; shown to the nanosecond they
    /// read as the author wrote them.
    private static func rounded(_ x: Double) -> Double { ((x * 1e9).rounded() / 1e9) + 0 }

    private static func resolve(_ path: String, in animations: [Animation]) -> Animation? {
        var list = animations
        var found: Animation?
        for name in path.split(separator: "/") {
            guard let a = list.first(where: { $0.name == name }) else { return nil }
            found = a
            if case .group(let children) = a.kind { list = children } else { list = [] }
        }
        return found
    }

    /// Text for HTML element content and attribute values.
    public static func escapeHTML(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension PreviewPage {
    /// What the preview page draws of each property (see ``SupportTable``; docs/preview.md).
    public static let support = SupportTable(
        backend: "preview",
        exact: [.position, .zPosition, .anchorPoint, .anchorPointZ, .bounds, .sublayerTransform, .hidden, .doubleSided,
                .masksToBounds, .backgroundColor, .cornerRadius, .borderWidth, .borderColor, .contents, .contentsGravity, .path,
                .fillColor, .strokeColor, .lineWidth, .lineCap, .lineJoin, .miterLimit, .fillRule, .colors, .locations, .startPoint,
                .endPoint],
        approximate: [
            .transform: "3D layers are drawn in tree order; layers that intersect are not split",
            .opacity: "per layer, not composited as a group: a faded layer's overlapping sublayers show through each other",
            .shadowColor: "CSS box-shadow (a shape layer: drop-shadow), blur 2 × shadowRadius",
            .shadowOpacity: "CSS box-shadow (a shape layer: drop-shadow), blur 2 × shadowRadius",
            .shadowOffset: "CSS box-shadow (a shape layer: drop-shadow), blur 2 × shadowRadius",
            .shadowRadius: "CSS box-shadow (a shape layer: drop-shadow), blur 2 × shadowRadius",
            .strokeStart: "a dashed stroke trimmed by strokeStart or strokeEnd is drawn solid",
            .strokeEnd: "a dashed stroke trimmed by strokeStart or strokeEnd is drawn solid",
            .lineDashPattern: "a dashed stroke trimmed by strokeStart or strokeEnd is drawn solid",
            .lineDashPhase: "a dashed stroke trimmed by strokeStart or strokeEnd is drawn solid",
            .gradientType: "conic gradients are drawn axial",
        ])
}
