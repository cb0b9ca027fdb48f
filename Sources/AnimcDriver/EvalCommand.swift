import AnimcBase
import AnimcBake
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcRuntime

/// `animc eval FILE --at TIMES [--at TIMES...] [--times-from FILE] [--layer L] [--property P] [--format human|json]`
/// `animc eval FILE --fraction F --animation NAME [--scrub timing|linear] [...]`
///
/// Values at given times, for authors scrubbing in a terminal and for scripts. Each
/// sample is printed as soon as it is computed, so a million times take no more
/// memory than one.
struct EvalCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["at", "times-from", "layer", "property", "format", "fraction", "animation", "scrub", "color",
                                            "events"],
                                   flags: [])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: EvalCommand.spec, command: "eval")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "eval")
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            return tool.usageError("expected exactly one FILE", command: "eval")
        }
        let format = parsed.value("format") ?? "human"
        guard format == "human" || format == "json" else {
            return tool.usageError("invalid value '\(format)' for '--format' (expected human or json)", command: "eval")
        }
        let fractionMode = parsed.value("fraction") != nil || parsed.value("animation") != nil
        let wantsTimes = !parsed.all("at").isEmpty || parsed.value("times-from") != nil
        if fractionMode && wantsTimes {
            return tool.usageError("give either --at (or --times-from) or --fraction with --animation, not both", command: "eval")
        }
        if !fractionMode && !wantsTimes {
            return tool.usageError("missing --at TIME (or --times-from FILE, or --fraction F --animation NAME)", command: "eval")
        }
        var times: [TimeSpec] = []
        for at in parsed.all("at") {
            for part in at.split(separator: ",", omittingEmptySubsequences: false) {
                guard let spec = TimeSpec(String(part)) else {
                    return tool.usageError("invalid time '\(part)' in --at; write seconds such as 1.5, 1.5s or 1500ms, or a range START..END/RATE such as 0..3/60", command: "eval")
                }
                times.append(spec)
            }
        }
        if let list = parsed.value("times-from") {
            let bytes: [UInt8]
            do { bytes = try tool.fileSystem.readFile(list) } catch {
                tool.ioError(error, command: "eval")
                return CommandLineTool.ExitCode.usage
            }
            for (n, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                    .trimmingSpacesAround ?? ""
                if text.isEmpty { continue }
                guard let spec = TimeSpec(text) else {
                    return tool.usageError("\(list):\(n + 1): invalid time '\(text)'; write one time or range per line", command: "eval")
                }
                times.append(spec)
            }
        }
        var fraction = 0.0
        if fractionMode {
            guard let f = parsed.value("fraction").flatMap(Double.init), f.isFinite else {
                return tool.usageError("--fraction needs a number, such as 0.5", command: "eval")
            }
            guard parsed.value("animation") != nil else {
                return tool.usageError("--fraction needs --animation NAME", command: "eval")
            }
            fraction = f
        }
        let scrubText = parsed.value("scrub") ?? "timing"
        guard let scrub = ScrubMode(rawValue: scrubText) else {
            return tool.usageError("invalid value '\(scrubText)' for '--scrub' (expected timing or linear)", command: "eval")
        }
        if parsed.value("scrub") != nil && !fractionMode {
            return tool.usageError("--scrub only applies with --fraction", command: "eval")
        }

        guard tool.fileSystem.exists(path), !tool.fileSystem.isDirectory(path) else {
            tool.console.writeErr("animc eval: error: \(path): \(tool.fileSystem.isDirectory(path) ? "is a directory" : "no such file or directory")\n")
            return CommandLineTool.ExitCode.usage
        }
        guard let file = tool.readSource(path, command: "eval") else { return CommandLineTool.ExitCode.usage }
        let compiled = tool.compileForOutput(file)
        guard let declared = compiled.composition else {
            DiagnosticOutput(console: tool.console, useColor: useColor)
                .emit(compiled.reports.filter { !$0.diagnostics.isEmpty }, format: "human", summaryVerb: nil)
            return CommandLineTool.ExitCode.findings
        }
        guard let composition = tool.applyingEvents(parsed.value("events"), to: declared, interaction: compiled.project.main.interaction,
                                                    command: "eval") else { return CommandLineTool.ExitCode.usage }
        let timeline = Timeline(composition)

        var layerIndices = Array(0..<timeline.layerCount)
        if let layer = parsed.value("layer") {
            guard let i = timeline.layerIndex(layer) else {
                var message = "no layer '\(layer)' in \(path)"
                if let guess = closestMatch(to: layer, in: composition.layers.map(\.id)) { message += "; did you mean '\(guess)'?" }
                return tool.usageError(message, command: "eval")
            }
            layerIndices = [i]
        }
        let property = parsed.value("property")
        if let p = property, PropertyTable.keyPath(p) == nil {
            var message = "unknown property '\(p)'"
            if let guess = closestMatch(to: p, in: PropertyTable.keyPaths.map(\.keyPath)) { message += "; did you mean '\(guess)'?" }
            return tool.usageError(message, command: "eval")
        }

        var fractionSample: (label: String, time: Double, state: SceneState)?
        if fractionMode, let name = parsed.value("animation") {
            let matches = timeline.animations(named: name, layer: parsed.value("layer"))
            guard let animation = matches.first else {
                let all = timeline.animations.map { "\(timeline.layerID(ofAnimation: $0.id))/\($0.path)" }
                var message = "no animation named '\(name)'"
                if let guess = closestMatch(to: name, in: all + timeline.animations.map(\.path)) { message += "; did you mean '\(guess)'?" }
                return tool.usageError(message, command: "eval")
            }
            guard matches.count == 1 else {
                let names = matches.map { "\(timeline.layerID(ofAnimation: $0.id))/\($0.path)" }.joined(separator: ", ")
                return tool.usageError("'\(name)' names \(matches.count) animations (\(names)); qualify it as LAYER/NAME", command: "eval")
            }
            guard let state = timeline.state(atFraction: fraction, ofAnimation: animation.id, scrub: scrub) else {
                return tool.usageError("cannot map a fraction of '\(name)' to a time (a speed of 0 or a timing function that cannot be inverted)", command: "eval")
            }
            let label = "fraction \(formatNumber(fraction)) of \(timeline.layerID(ofAnimation: animation.id))/\(animation.path)"
                + (scrub == .linear ? " (scrubbed linearly)" : "")
            fractionSample = (label, state.time, state)
        }

        let selections = layerIndices.map { i in (i, keyPaths(for: i, composition, property: property, all: parsed.value("layer") != nil)) }
            .filter { !$0.1.isEmpty }
        if property != nil && selections.isEmpty {
            let scope = parsed.value("layer").map { "layer '\($0)'" } ?? "any layer"
            return tool.usageError("\(scope) has no property '\(property ?? "")'", command: "eval")
        }
        let showLayerOpacity = parsed.value("layer") != nil
        func sampleJSON(_ label: String, _ time: Double, _ state: SceneState) -> JSONValue {
            var layersJSON: [JSONValue] = []
            for (i, paths) in selections {
                var values: [JSONMember] = []
                for p in paths {
                    if let v = timeline.value(p, layer: i, in: state) { values.append(JSONMember(p, ValueJSON.encode(v))) }
                }
                layersJSON.append(.object([
                    JSONMember("id", .string(composition.layers[i].id)),
                    JSONMember("values", .object(values)),
                    JSONMember("opacity", .number(state.effectiveOpacity(ofLayer: i))),
                    JSONMember("matrix", .array(state.matrix(ofLayer: i).array.map { .number($0) })),
                ]))
            }
            return .object([JSONMember("label", .string(label)), JSONMember("time", .number(time)),
                             JSONMember("layers", .array(layersJSON))])
        }
        func sampleText(_ label: String, _ time: Double, _ state: SceneState) -> String {
            var out = label + (label.hasPrefix("t =") ? "" : " (t = \(formatNumber((time * 1e9).rounded() / 1e9)) s)") + "\n"
            for (i, paths) in selections {
                out += "  \(composition.layers[i].id)\n"
                let width = paths.map(\.count).max() ?? 0
                for p in paths {
                    guard let v = timeline.value(p, layer: i, in: state), let info = PropertyTable.keyPath(p) else { continue }
                    out += "    \(p.padding(width))  \(ValueJSON.describe(v, type: info.type))\n"
                }
                if showLayerOpacity {
                    out += "    \("opacity (effective)".padding(width))  \(ValueJSON.describe(.number(state.effectiveOpacity(ofLayer: i)), type: .number))\n"
                }
            }
            return out
        }
        // Each sample is written as soon as it is computed: the document is streamed,
        // element by element, in the same layout a whole pretty document would have.
        var written = 0
        func emit(_ label: String, _ time: Double, _ state: SceneState) {
            if format == "json" {
                tool.console.writeOut((written == 0 ? "\n    " : ",\n    ")
                    + String(decoding: sampleJSON(label, time, state).serialized(style: .pretty, depth: 2), as: UTF8.self))
            } else {
                tool.console.writeOut(sampleText(label, time, state))
            }
            written += 1
        }
        if format == "json" { tool.console.writeOut("{\n  \"format\": \"animc.eval\",\n  \"version\": 1,\n  \"samples\": [") }
        if let (label, time, state) = fractionSample {
            emit(label, time, state)
        } else {
            var state = timeline.makeState()
            for spec in times {
                spec.forEach { t in
                    timeline.evaluate(at: t, into: &state)
                    emit("t = \(formatNumber(t)) s", t, state)
                }
            }
        }
        if format == "json" { tool.console.writeOut(written == 0 ? "]\n}\n" : "\n  ]\n}\n") }
        return CommandLineTool.ExitCode.success
    }

    /// Which key paths to print for layer `i`: the one asked for; every property of the
    /// one layer asked for; otherwise what the layer's animations target.
    private func keyPaths(for i: Int, _ c: Composition, property: String?, all: Bool) -> [String] {
        let layer = c.layers[i]
        if let p = property {
            guard let info = PropertyTable.keyPath(p), PropertyTable.info(info.target.property).applies(to: layer.kind) else { return [] }
            return [p]
        }
        if all { return PropertyTable.properties.filter { $0.applies(to: layer.kind) }.map(\.id.rawValue) }
        var paths: [String] = []
        func visit(_ a: Animation) {
            switch a.kind {
            case .group(let children): children.forEach(visit)
            case .property(let p):
                let path = p.target.keyPath
                if !paths.contains(path) { paths.append(path) }
            }
        }
        layer.animations.forEach(visit)
        return paths
    }
}

/// One `--at` entry: a time, or a range of times at a rate, `START..END/RATE`
/// (`..` and `..<` leave the end out, `...` includes it; RATE samples per second, as
/// frames per second): `0..3/60` is 0, 1/60, ... up to but not including 3 s.
/// Ranges are enumerated lazily, never stored.
enum TimeSpec {
    case time(Double)
    case range(start: Double, end: Double, includesEnd: Bool, rate: Double)

    init?(_ text: String) {
        let trimmed = text.trimmingSpacesAround
        if let slash = trimmed.lastIndex(of: "/") {
            guard let window = parseWindow(String(trimmed[..<slash])),
                  let rate = Double(String(trimmed[trimmed.index(after: slash)...]).trimmingSpacesAround),
                  rate.isFinite, rate > 0, (window.end - window.start) * rate < 1e15 else { return nil }
            self = .range(start: window.start, end: window.end, includesEnd: window.includesEnd, rate: rate)
        } else {
            guard let t = parseTime(trimmed) else { return nil }
            self = .time(t)
        }
    }

    /// Calls `body` with each time, in order. Times are `start + i / rate`, so they do
    /// not drift as a running sum would.
    func forEach(_ body: (Double) -> Void) {
        switch self {
        case .time(let t):
            body(t)
        case .range(let start, let end, let includesEnd, let rate):
            let plan = BakePlan(fps: rate, window: TimeWindow(start: start, end: end, includesEnd: includesEnd))
            for i in 0..<plan.frameCount { body(plan.time(ofFrame: i)) }
        }
    }
}

/// Seconds from `1.5`, `1.5s` or `1500ms`.
func parseTime(_ text: String) -> Double? {
    var t = text.trimmingSpacesAround
    var scale = 1.0
    if t.hasSuffix("ms") { t.removeLast(2); scale = 0.001 } else if t.hasSuffix("s") { t.removeLast() }
    guard !t.isEmpty, let v = Double(t), v.isFinite else { return nil }
    return v * scale
}
