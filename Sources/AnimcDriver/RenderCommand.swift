import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime

/// `animc render FILE --at TIME [-o frame.png] [--scale N] [--background COLOR]`
/// `animc render FILE --at START..END/FPS -o DIR/`
///
/// Frames as PNG, drawn by the native renderer (AnimcRender): what a CI job attaches to
/// a pull request, without a browser.
struct RenderCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["at", "output", "scale", "background", "layer", "color"], flags: [], aliases: ["o": "output"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: RenderCommand.spec, command: "render")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "render")
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            return tool.usageError("expected exactly one FILE", command: "render")
        }
        guard let atText = parsed.value("at") else {
            return tool.usageError("missing --at TIME (such as 1s, or 0..3/30 for frames)", command: "render")
        }
        guard let at = TimeSpec(atText) else {
            return tool.usageError("invalid time '\(atText)' in --at; write seconds such as 1.5, 1.5s or 1500ms, or a range START..END/FPS such as 0..3/30", command: "render")
        }
        var options = RenderOptions()
        if let s = parsed.value("scale") {
            guard let scale = Double(s), scale.isFinite, scale > 0, scale <= 16 else {
                return tool.usageError("invalid value '\(s)' for '--scale' (expected a number above 0, at most 16)", command: "render")
            }
            options.scale = scale
        }
        if let b = parsed.value("background") {
            guard let color = parseColor(b) else {
                return tool.usageError("invalid colour '\(b)' for '--background' (expected #RRGGBB, #RRGGBBAA, white, black or transparent)", command: "render")
            }
            options.background = color
        }
        var times: [Double] = []
        at.forEach { times.append($0) }
        let isRange: Bool
        if case .range = at { isRange = true } else { isRange = false }
        guard !times.isEmpty else { return tool.usageError("the range in --at holds no frame", command: "render") }
        guard times.count <= 100_000 else {
            return tool.usageError("--at asks for \(times.count) frames; at most 100,000", command: "render")
        }
        let stem = String(path.split(separator: "/").last ?? "frame").replacingSuffix(".anim", with: "")
        let output: String
        if let o = parsed.value("output") {
            output = o
        } else if isRange {
            return tool.usageError("a range of times writes numbered frames: give a folder with -o DIR/", command: "render")
        } else {
            output = String(path.dropLast(path.hasSuffix(".anim") ? 5 : 0)) + ".png"
        }

        guard tool.fileSystem.exists(path), !tool.fileSystem.isDirectory(path) else {
            tool.console.writeErr("animc render: error: \(path): \(tool.fileSystem.isDirectory(path) ? "is a directory" : "no such file or directory")\n")
            return CommandLineTool.ExitCode.usage
        }
        guard let file = tool.readSource(path, command: "render") else { return CommandLineTool.ExitCode.usage }
        let compiled = tool.compileForOutput(file)
        DiagnosticOutput(console: tool.console, useColor: useColor)
            .emit(compiled.reports.filter { !$0.diagnostics.isEmpty }, format: "human", summaryVerb: nil)
        guard let composition = compiled.composition else { return CommandLineTool.ExitCode.findings }
        if let layer = parsed.value("layer") {
            guard let i = composition.layerIndex(layer) else {
                var message = "no layer '\(layer)' in \(path)"
                if let guess = closestMatch(to: layer, in: composition.layers.map(\.id)) { message += "; did you mean '\(guess)'?" }
                return tool.usageError(message, command: "render")
            }
            options.onlyLayer = i
        }
        let renderer = SceneRenderer(timeline: Timeline(composition), options: options)

        if isRange {
            do { try tool.fileSystem.createDirectory(output) } catch {
                tool.ioError(error, command: "render")
                return CommandLineTool.ExitCode.usage
            }
            let digits = max(4, String(times.count - 1).count)
            var state = renderer.timeline.makeState()
            let progress = Progress(console: tool.console, total: times.count)
            for (n, t) in times.enumerated() {
                renderer.timeline.evaluate(at: t, into: &state)
                let number = String(n)
                let name = output + (output.hasSuffix("/") ? "" : "/") + stem + "-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
                do { try tool.fileSystem.writeFileAtomically(name, PNG.encode(renderer.render(state))) } catch {
                    progress.finish()
                    tool.ioError(error, command: "render")
                    return CommandLineTool.ExitCode.usage
                }
                progress.step(n + 1)
            }
            progress.finish()
            tool.console.writeErr("wrote \(times.count) frames (\(renderer.width)×\(renderer.height)) to \(output)\n")
        } else {
            do { try tool.fileSystem.writeFileAtomically(output, PNG.encode(renderer.render(at: times[0]))) } catch {
                tool.ioError(error, command: "render")
                return CommandLineTool.ExitCode.usage
            }
        }
        return compiled.reports.contains { $0.diagnostics.contains { $0.severity == .error } }
            ? CommandLineTool.ExitCode.findings : CommandLineTool.ExitCode.success
    }
}

/// Frame counts on one updating line, on a terminal only (logs get the summary line).
struct Progress {
    let console: Console
    let total: Int

    func step(_ done: Int) {
        guard console.stderrIsTerminal, total > 1 else { return }
        console.writeErr("\rrendering frame \(done)/\(total)")
    }

    func finish() {
        guard console.stderrIsTerminal, total > 1 else { return }
        console.writeErr("\r\u{1B}[K")
    }
}

/// `#RRGGBB`, `#RRGGBBAA`, `white`, `black` or `transparent`.
func parseColor(_ text: String) -> Color? {
    switch text.lowercased() {
    case "white": return .white
    case "black": return .black
    case "transparent", "clear": return .clear
    default: break
    }
    guard text.hasPrefix("#") else { return nil }
    let hex = Array(text.utf8.dropFirst())
    guard hex.count == 6 || hex.count == 8 else { return nil }
    var components: [Double] = []
    var i = 0
    while i < hex.count {
        guard let v = UInt8(String(decoding: hex[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
        components.append(Double(v) / 255)
        i += 2
    }
    return Color(red: components[0], green: components[1], blue: components[2], alpha: components.count == 4 ? components[3] : 1)
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
