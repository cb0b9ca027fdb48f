import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
import Dispatch
import Foundation

/// `animc render FILE --at TIME [-o frame.png] [--scale N] [--background COLOR] [--layer ID]`
/// `animc render FILE --at START..END/FPS -o DIR/`
/// `animc render FILE --apng anim.png | --gif anim.gif [--window START..END] [--fps N] [--dither]`
/// `animc render FILE --filmstrip N -o strip.png`
///
/// Frames drawn by the native renderer (AnimcRender): what a CI job attaches to a pull
/// request or a README shows, without a browser.
struct RenderCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["at", "output", "scale", "background", "layer", "apng", "gif", "filmstrip", "window",
                                            "fps", "color", "events"],
                                   flags: ["dither"], aliases: ["o": "output"])
    /// More frames than this in one command is a mistake (a window of hours at 60 fps).
    static let maxFrames = 100_000

    enum Mode {
        case frame(Double, output: String)
        case frames([Double], directory: String)
        case apng(output: String)
        case gif(output: String)
        case filmstrip(Int, output: String)
    }

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        let sampling: (fps: Double?, window: TimeWindow?)
        do {
            parsed = try parseArguments(args, spec: RenderCommand.spec, command: "render")
            useColor = try tool.useColor(parsed.value("color"))
            sampling = try samplingOptions(parsed)
        } catch {
            return tool.usageError(error.message, command: "render")
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            return tool.usageError("expected exactly one FILE", command: "render")
        }
        let modes = ["at", "apng", "gif", "filmstrip"].filter { parsed.value($0) != nil }
        guard modes.count == 1 else {
            return tool.usageError(modes.isEmpty ? "say what to draw: --at TIME, --apng FILE, --gif FILE or --filmstrip N"
                                   : "give one of --at, --apng, --gif and --filmstrip, not " + modes.map { "--" + $0 }.joined(separator: " and "),
                                   command: "render")
        }
        let stem = String(path.split(separator: "/").last ?? "frame").replacingSuffix(".anim", with: "")
        let mode: Mode
        if let atText = parsed.value("at") {
            guard let at = TimeSpec(atText) else {
                return tool.usageError("invalid time '\(atText)' in --at; write seconds such as 1.5, 1.5s or 1500ms, or a range START..END/FPS such as 0..3/30", command: "render")
            }
            if sampling.fps != nil || sampling.window != nil {
                return tool.usageError("--fps and --window go with --apng, --gif and --filmstrip; --at takes a range START..END/FPS", command: "render")
            }
            var times: [Double] = []
            var tooMany = false
            at.forEach { t in if times.count <= RenderCommand.maxFrames { times.append(t) } else { tooMany = true } }
            guard !tooMany else { return tool.usageError("--at asks for more than \(RenderCommand.maxFrames) frames", command: "render") }
            guard !times.isEmpty else { return tool.usageError("the range in --at holds no frame", command: "render") }
            if case .range = at {
                guard let o = parsed.value("output") else {
                    return tool.usageError("a range of times writes numbered frames: give a folder with -o DIR/", command: "render")
                }
                mode = .frames(times, directory: o)
            } else {
                mode = .frame(times[0], output: parsed.value("output") ?? String(path.dropLast(path.hasSuffix(".anim") ? 5 : 0)) + ".png")
            }
        } else if let o = parsed.value("apng") {
            mode = .apng(output: o)
        } else if let o = parsed.value("gif") {
            mode = .gif(output: o)
        } else {
            let text = parsed.value("filmstrip") ?? ""
            guard let n = Int(text), n >= 1, n <= 100 else {
                return tool.usageError("invalid value '\(text)' for '--filmstrip' (expected a count of frames from 1 to 100)", command: "render")
            }
            mode = .filmstrip(n, output: parsed.value("output") ?? String(path.dropLast(path.hasSuffix(".anim") ? 5 : 0)) + ".filmstrip.png")
        }
        if parsed.has("dither"), case .gif = mode {} else if parsed.has("dither") {
            return tool.usageError("--dither applies to --gif only", command: "render")
        }
        if parsed.value("output") != nil {
            switch mode {
            case .apng, .gif: return tool.usageError("--apng and --gif name their output; -o is for --at and --filmstrip", command: "render")
            default: break
            }
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

        guard tool.fileSystem.exists(path), !tool.fileSystem.isDirectory(path) else {
            tool.console.writeErr("animc render: error: \(path): \(tool.fileSystem.isDirectory(path) ? "is a directory" : "no such file or directory")\n")
            return CommandLineTool.ExitCode.usage
        }
        guard let file = tool.readSource(path, command: "render") else { return CommandLineTool.ExitCode.usage }
        let compiled = tool.compileForOutput(file)
        DiagnosticOutput(console: tool.console, useColor: useColor)
            .emit(compiled.reports.filter { !$0.diagnostics.isEmpty }, format: "human", summaryVerb: nil)
        guard let declared = compiled.composition else { return CommandLineTool.ExitCode.findings }
        guard let composition = tool.applyingEvents(parsed.value("events"), to: declared, interaction: compiled.project.main.interaction,
                                                    command: "render") else { return CommandLineTool.ExitCode.usage }
        // The renderer holds a frame in 16 bytes a pixel, and a group as much again: at
        // most 4,096 pixels a side, and said so rather than drawn smaller.
        if let oversize = SceneRenderer.oversize(composition.size, scale: options.scale) {
            return tool.usageError(oversize + " (lower --scale)", command: "render")
        }
        if let layer = parsed.value("layer") {
            guard let i = composition.layerIndex(layer) else {
                var message = "no layer '\(layer)' in \(path)"
                if let guess = closestMatch(to: layer, in: composition.layers.map(\.id)) { message += "; did you mean '\(guess)'?" }
                return tool.usageError(message, command: "render")
            }
            options.onlyLayer = i
        }
        let timeline = Timeline(composition)
        // What the frames to be drawn show of each picture, so that one drawn small is kept
        // small (issue 51). At most 2,000 of those frames are looked at, evenly spread.
        var demand = ImageDemand()
        if !PreviewBuilder.imageNames(composition).isEmpty {
            var times: [Double]
            switch mode {
            case .frame(let t, _): times = [t]
            case .frames(let all, _): times = all
            default:
                let fps = sampling.fps ?? composition.fps
                if case .success(let p) = Baker.plan(timeline, fps: fps, window: sampling.window, sampleLimit: Int.max / 4),
                   p.frameCount <= RenderCommand.maxFrames {
                    times = (0..<p.frameCount).map(p.time(ofFrame:))
                } else {
                    times = []
                }
            }
            if times.count > 2_000 {
                let step = Double(times.count - 1) / 1_999
                times = (0..<2_000).map { times[Int((Double($0) * step).rounded())] }
            }
            var state = timeline.makeState()
            for t in times {
                timeline.evaluate(at: t, into: &state)
                demand.note(state, of: timeline, scale: options.scale)
            }
        }
        (options.images, options.imagePointSizes) = tool.decodedImages(composition, besides: path, command: "render", demand: demand)
        let renderer = SceneRenderer(timeline: timeline, options: options)
        let status = compiled.reports.contains { $0.diagnostics.contains { $0.severity == .error } }
            ? CommandLineTool.ExitCode.findings : CommandLineTool.ExitCode.success

        // Every file this render read: an output that is one of them is refused, as
        // `build` refuses it (`render F -o F` replaced the source with a PNG).
        let inputs = Set(compiled.project.files.map { tool.fileSystem.canonicalPath($0.name) })
        /// Writes `bytes()` to `output` atomically; what went wrong, as printed, or nil.
        /// Touches no console, so frames written on several threads can use it.
        let fileSystem = tool.fileSystem
        @Sendable func writeFile(_ output: String, _ bytes: () throws -> [UInt8]) -> String? {
            if inputs.contains(fileSystem.canonicalPath(output)) {
                return "animc render: error[\(FileDiagnostics.outputIsInput.code)]: refusing to write '\(output)': it is an input of this render; choose another output\n"
            }
            do {
                try fileSystem.writeOutputAtomically(output, try bytes())
                return nil
            } catch let error as FileSystemError {
                return CommandLineTool.ioErrorLine(error, command: "render")
            } catch {
                return "animc render: error: \(output): \(error)\n"
            }
        }
        func write(_ output: String, _ bytes: () throws -> [UInt8]) -> Bool {
            guard let failure = writeFile(output, bytes) else { return true }
            tool.console.writeErr(failure)
            return false
        }
        /// Every frame of the window at the rate (`--window`, `--fps`, else the composition's).
        func plan(maxFPS: Double? = nil) -> BakePlan? {
            var fps = sampling.fps ?? composition.fps
            if let m = maxFPS, sampling.fps == nil { fps = min(fps, m) }
            switch Baker.plan(timeline, fps: fps, window: sampling.window, sampleLimit: Int.max / 4) {
            case .success(let p):
                guard p.frameCount <= RenderCommand.maxFrames else {
                    _ = tool.usageError("the window holds \(p.frameCount) frames at \(formatNumber(fps)) fps; at most \(RenderCommand.maxFrames) (give --window or --fps)", command: "render")
                    return nil
                }
                guard p.frameCount > 0 else {
                    _ = tool.usageError("the window holds no frame", command: "render")
                    return nil
                }
                return p
            case .failure(.unbounded(let animation, _)):
                _ = tool.usageError("'\(timeline.layerID(ofAnimation: animation.id))/\(animation.path)' repeats forever and the composition has no window: give --window START..END", command: "render")
                return nil
            case .failure:
                _ = tool.usageError("the window is too long; give --window START..END", command: "render")
                return nil
            }
        }
        func renderAll(_ times: [Double], pass: String? = nil, _ each: (Int, Bitmap) -> Bool) -> Bool {
            var state = timeline.makeState()
            let progress = Progress(console: tool.console, total: times.count, pass: pass)
            defer { progress.finish() }
            for (n, t) in times.enumerated() {
                timeline.evaluate(at: t, into: &state)
                guard each(n, renderer.render(state)) else { return false }
                progress.step(n + 1)
            }
            return true
        }
        let size = "\(renderer.width)×\(renderer.height)"
        /// An animation written in two passes, so that no frame is kept: the first adds
        /// each frame to `summary` (what the file's header needs), the second draws each
        /// frame again and appends it to the writer made from the summary.
        func inTwoPasses<Summary, Writer>(_ times: [Double], _ output: String, summary: Summary,
                                          add: (inout Summary, Bitmap) throws -> Void, writer: (Summary) throws -> Writer,
                                          append: (inout Writer, Int, Bitmap) throws -> Void,
                                          finish: (Writer) throws -> [UInt8]) -> Bool {
            var summary = summary
            var failure: (any Error)?
            _ = renderAll(times, pass: "counting") { _, image in
                do { try add(&summary, image) } catch { failure = error }
                return failure == nil
            }
            return write(output) {
                if let failure { throw failure }
                var w = try writer(summary)
                _ = renderAll(times, pass: "writing") { n, image in
                    do { try append(&w, n, image) } catch { failure = error }
                    return failure == nil
                }
                if let failure { throw failure }
                return try finish(w)
            }
        }

        switch mode {
        case .frame(let t, let output):
            guard write(output, { PNG.encode(renderer.render(at: t)) }) else { return CommandLineTool.ExitCode.usage }
        case .frames(let times, let directory):
            do { try tool.fileSystem.createDirectory(directory) } catch {
                tool.ioError(error, command: "render")
                return CommandLineTool.ExitCode.usage
            }
            let digits = max(4, String(times.count - 1).count)
            let folder = directory + (directory.hasSuffix("/") ? "" : "/") + stem + "-"
            let failure = RenderCommand.inParallel(times, timeline: timeline, options: options, first: renderer,
                                                   progress: Progress(console: tool.console, total: times.count)) { n, image in
                let number = String(n)
                let name = folder + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png"
                return writeFile(name) { PNG.encode(image) }
            }
            if let failure {
                tool.console.writeErr(failure)
                return CommandLineTool.ExitCode.usage
            }
            tool.console.writeErr("wrote \(times.count) frames (\(size)) to \(directory)\n")
        case .apng(let output):
            guard let p = plan() else { return CommandLineTool.ExitCode.usage }
            let times = (0..<p.frameCount).map(p.time(ofFrame:))
            let written = inTwoPasses(times, output, summary: PNG.AnimationSummary(), add: { try $0.add($1) },
                                      writer: { try PNG.AnimationWriter($0, delay: Self.delay(fps: p.fps)) },
                                      append: { writer, _, image in try writer.append(image) }, finish: { try $0.finish() })
            guard written else { return CommandLineTool.ExitCode.usage }
            tool.console.writeErr("wrote \(output): \(times.count) frames (\(size)) at \(formatNumber(p.fps)) fps\n")
        case .gif(let output):
            // Browsers show a GIF delay under 2/100 s as 1/10 s: at most 50 fps unless asked.
            guard let p = plan(maxFPS: 50) else { return CommandLineTool.ExitCode.usage }
            let times = (0..<p.frameCount).map(p.time(ofFrame:))
            // Delays in hundredths, rounded so that they add up to the frames' times.
            func hundredths(_ n: Int) -> Int { Int((Double(n) * 100 / p.fps).rounded()) }
            let written = inTwoPasses(times, output, summary: GIF.Summary(), add: { try $0.add($1) },
                                      writer: { try GIF.Writer($0, options: GIF.Options(dither: parsed.has("dither"))) },
                                      append: { writer, n, image in try writer.append(image, delay: hundredths(n + 1) - hundredths(n)) },
                                      finish: { try $0.finish() })
            guard written else { return CommandLineTool.ExitCode.usage }
            tool.console.writeErr("wrote \(output): \(times.count) frames (\(size)) at \(formatNumber(p.fps)) fps\n")
        case .filmstrip(let count, let output):
            guard let p = plan() else { return CommandLineTool.ExitCode.usage }
            // Evenly spaced frames of the window, the first and the last included.
            let picked = (0..<count).map { k in count == 1 ? 0 : Int((Double(k) * Double(p.frameCount - 1) / Double(count - 1)).rounded()) }
            let times = picked.map(p.time(ofFrame:))
            var frames: [Bitmap] = []
            _ = renderAll(times) { _, image in frames.append(image); return true }
            let labels = times.map { formatNumber(($0 * 1000).rounded() / 1000) + "s" }
            let pixel = max(1, Int((2 * options.scale).rounded()))
            let strip = Filmstrip.compose(frames, labels: labels, gap: 4 * pixel, pixel: pixel)
            guard write(output, { PNG.encode(strip) }) else { return CommandLineTool.ExitCode.usage }
            tool.console.writeErr("wrote \(output): \(count) frames (\(size)) of \(formatNumber(p.window.start))..\(formatNumber(p.window.end)) s\n")
        }
        return status
    }

    /// One frame's time as a fraction with a denominator APNG can hold (≤ 65,535).
    static func delay(fps: Double) -> (numerator: Int, denominator: Int) {
        if fps == fps.rounded(), fps >= 1, fps <= 65535 { return (1, Int(fps)) }
        let denominator = 10_000
        return (max(1, min(65535, Int((Double(denominator) / fps).rounded()))), denominator)
    }
}

extension RenderCommand {
    /// The bytes a thread drawing frames of `pixels` holds (the accumulation buffer and
    /// the canvas in floats, the frame, its PNG encoding), bounding how many draw at once.
    static func workers(frames: Int, pixels: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        let perThread = max(pixels, 1) * 40
        let budget = 1 << 30
        return max(1, min(cores, frames, 16, budget / perThread))
    }

    /// Draws every frame of `times` and hands it to `each` (which encodes and writes it,
    /// returning what went wrong, or nil), on as many threads as there are cores within
    /// a memory budget: a frame sequence spent most of its time encoding PNG on one core
    /// (issue 51). Each thread has its own renderer and scene state; the timeline and the
    /// images are shared, read only. Frames are dealt out in turn, so progress advances
    /// evenly; the first failure stops every thread and is returned.
    static func inParallel(_ times: [Double], timeline: Timeline, options: RenderOptions, first: SceneRenderer,
                           progress: Progress, _ each: @escaping @Sendable (Int, Bitmap) -> String?) -> String? {
        let threads = workers(frames: times.count, pixels: first.width * first.height)
        let shared = ParallelRun(progress: progress)
        defer { progress.finish() }
        let firstRenderer = UncheckedBox(first)
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            let renderer = w == 0 ? firstRenderer.value : SceneRenderer(timeline: timeline, options: options)
            var state = timeline.makeState()
            for n in stride(from: w, to: times.count, by: threads) {
                guard !shared.stopped else { return }
                timeline.evaluate(at: times[n], into: &state)
                if let failure = each(n, renderer.render(state)) {
                    shared.fail(failure, at: n)
                    return
                }
                shared.step()
            }
        }
        return shared.failure
    }
}

/// What the threads of ``RenderCommand/inParallel`` share: frames done (for progress),
/// and the failure of the earliest frame that failed.
final class ParallelRun: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var failed: (frame: Int, message: String)?
    let progress: Progress

    init(progress: Progress) { self.progress = progress }

    var stopped: Bool { lock.withLock { failed != nil } }
    var failure: String? { lock.withLock { failed?.message } }

    func step() {
        lock.withLock {
            done += 1
            progress.step(done)
        }
    }

    func fail(_ message: String, at frame: Int) {
        lock.withLock {
            if failed.map({ frame < $0.frame }) ?? true { failed = (frame, message) }
        }
    }
}

/// A renderer handed to the one thread that uses it (the first), never shared.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Frame counts on one updating line, on a terminal only (logs get the summary line).
struct Progress {
    let console: Console
    let total: Int
    /// Which pass over the frames this is, when there are two (an animation's).
    var pass: String?

    func step(_ done: Int) {
        guard console.stderrIsTerminal, total > 1 else { return }
        console.writeErr("\rrendering frame \(done)/\(total)" + (pass.map { " (\($0))" } ?? ""))
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
