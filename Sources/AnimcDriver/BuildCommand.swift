import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcLottie
import AnimcRuntime
import AnimcTimeline

/// `animc build FILE... [--target timeline|baked|lottie] [-o PATH] [--fps N] [--window START..END]`
///
/// Defaults: target `timeline`; the output goes beside each input as
/// `NAME.timeline.json`, `NAME.baked.json` or `NAME.lottie.json`, or into `-o` (a file
/// for one input, a directory for several). Outputs are written atomically.
struct BuildCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["target", "output", "fps", "window", "format", "color", "events"], flags: ["werror", "strict-lottie"],
                                   aliases: ["o": "output"])

    enum Target: String { case timeline, baked, lottie }

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: BuildCommand.spec, command: "build")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "build")
        }
        let targetText = parsed.value("target") ?? "timeline"
        let strictLottie = parsed.has("strict-lottie")
        guard let target = Target(rawValue: targetText) else {
            return tool.usageError("invalid value '\(targetText)' for '--target' (expected timeline, baked or lottie)", command: "build")
        }
        let format = parsed.value("format") ?? "human"
        guard ["human", "json", "sarif", "github"].contains(format) else {
            return tool.usageError("invalid value '\(format)' for '--format' (expected human, json, sarif or github)", command: "build")
        }
        let fps: Double?, window: TimeWindow?
        do {
            (fps, window) = try samplingOptions(parsed)
        } catch {
            return tool.usageError(error.message, command: "build")
        }
        guard !parsed.positionals.isEmpty else {
            return tool.usageError("no input files", command: "build")
        }
        let inputs = parsed.positionals
        let output = parsed.value("output")
        let toStandardOutput = output == "-"
        if toStandardOutput && inputs.count > 1 {
            return tool.usageError("-o - writes one output to standard output; give one input", command: "build")
        }
        if let o = output, o.hasSuffix("/") {
            // `-o out/` names a directory: create it if it is not there yet.
            do {
                try tool.fileSystem.createDirectory(String(o.dropLast()))
            } catch {
                tool.ioError(error, command: "build")
                return CommandLineTool.ExitCode.usage
            }
        } else if let o = output, inputs.count > 1, !tool.fileSystem.isDirectory(o) {
            return tool.usageError("with several inputs, -o must be a directory; write '\(o)/' to create it", command: "build")
        }
        if !toStandardOutput, let refusal = clobberingProblem(inputs, target: target, output: output) {
            return tool.usageError(refusal, command: "build")
        }
        var status = CommandLineTool.ExitCode.success
        var reports: [FileReport] = []
        var reportedImports: Set<String> = []
        let diagnosticsOut = DiagnosticOutput(console: tool.console, useColor: useColor)
        for input in inputs {
            guard !tool.fileSystem.isDirectory(input) else {
                tool.console.writeErr("animc build: error: \(input): is a directory; give .anim files\n")
                status = CommandLineTool.ExitCode.usage
                continue
            }
            guard tool.fileSystem.exists(input) else {
                tool.console.writeErr("animc build: error: \(input): no such file or directory\n")
                status = CommandLineTool.ExitCode.usage
                continue
            }
            guard let file = tool.readSource(input, command: "build") else {
                status = CommandLineTool.ExitCode.usage
                continue
            }
            let compiled = tool.compileForOutput(file)
            var report = compiled.reports[0]
            // After the input's report, the files it imports; one imported by several
            // inputs is reported once.
            let importedReports = compiled.reports.dropFirst().filter { reportedImports.insert($0.file.name).inserted }
            defer { reports += importedReports }
            let blocked = compiled.composition == nil || (parsed.has("werror") && compiled.reports.contains { $0.warningCount > 0 })
            guard !blocked, let declared = compiled.composition else {
                reports.append(report)
                status = max(status, CommandLineTool.ExitCode.findings)
                continue
            }
            guard let composition = tool.applyingEvents(parsed.value("events"), to: declared, interaction: compiled.project.main.interaction,
                                                        command: "build") else {
                reports.append(report)
                status = max(status, CommandLineTool.ExitCode.usage)
                continue
            }
            let destination = outputPath(for: input, target: target, output: output)
            let bytes: [UInt8]
            var trackSummary = ""
            switch target {
            case .timeline:
                var c = composition
                if let fps { c.fps = fps }
                if let window { c.window = window }
                // The states go with it for a runtime to play live; after --events the
                // composition is one script's outcome, and they are left out.
                bytes = TimelineWriter.bytes(c, interaction: parsed.value("events") == nil ? compiled.project.main.interaction : nil)
            case .baked, .lottie:
                let timeline = Timeline(composition)
                switch Baker.plan(timeline, fps: fps, window: window) {
                case .failure(let refusal):
                    report.diagnostics.append(refusalDiagnostic(refusal, composition))
                    reports.append(report)
                    status = max(status, CommandLineTool.ExitCode.findings)
                    continue
                case .success(let plan) where target == .baked:
                    let showProgress = tool.console.stderrIsTerminal && plan.frameCount >= 600
                    bytes = Baker.bake(timeline, plan: plan, progress: showProgress ? { done, total in
                        tool.console.writeErr("\r  baking \(input): \(done)/\(total) frames")
                        if done == total { tool.console.writeErr("\r\u{1B}[K") }
                    } : nil)
                case .success(let plan):
                    let images = PreviewBuilder(tool: tool, settings: PreviewSettings()).images(PreviewBuilder.imageNames(composition), besides: input).urls
                    let export = LottieExporter.export(timeline, plan: plan, options: LottieExporter.Options(images: images))
                    var findings = export.diagnostics
                    if strictLottie {
                        for k in findings.indices { findings[k].severity = .error }
                    }
                    report.diagnostics = (report.diagnostics + findings).sorted(by: Diagnostic.ordered)
                    if (strictLottie || parsed.has("werror")) && !findings.isEmpty {
                        reports.append(report)
                        status = max(status, CommandLineTool.ExitCode.findings)
                        continue
                    }
                    bytes = export.bytes
                    if format == "human" && !toStandardOutput {
                        trackSummary = " (\(export.exactTracks) exact, \(export.sampledTracks) sampled, \(export.constantTracks) constant tracks)"
                    }
                }
            }
            reports.append(report)
            if toStandardOutput {
                tool.console.writeOut(String(decoding: bytes, as: UTF8.self))
                continue
            }
            // An import is an input too (`-o lib.anim` replaced a library with JSON).
            if let imported = tool.input(replacedBy: destination, among: compiled.project.imported.map(\.file.name)) {
                tool.console.writeErr("animc build: error[\(FileDiagnostics.outputIsInput.code)]: refusing to write '\(destination)': it is '\(imported)', which \(input) imports; choose another output with -o\n")
                status = CommandLineTool.ExitCode.usage
                continue
            }
            do {
                try tool.fileSystem.writeOutputAtomically(destination, bytes)
                if format == "human" {
                    tool.console.writeErr("wrote \(destination) (\(sizeText(bytes.count)))\(trackSummary)\n")
                }
            } catch {
                tool.ioError(error, command: "build")
                status = CommandLineTool.ExitCode.usage
            }
        }
        diagnosticsOut.emit(reports.filter { !$0.diagnostics.isEmpty || format != "human" }, format: format, summaryVerb: nil)
        return status
    }

    /// Why the outputs cannot be written, before anything is compiled: an output that
    /// is one of the inputs (`build s.anim -o s.anim` replaced the source with JSON), or
    /// two inputs that would write the same file.
    func clobberingProblem(_ inputs: [String], target: Target, output: String?) -> String? {
        let fs = tool.fileSystem
        var inputKeys: [String: String] = [:]
        for input in inputs { inputKeys[fs.canonicalPath(input)] = input }
        var written: [String: String] = [:]
        for input in inputs {
            let destination = outputPath(for: input, target: target, output: output)
            let key = fs.canonicalPath(destination)
            if let source = inputKeys[key] {
                return "refusing to write '\(destination)': it is the input '\(source)'; choose another output with -o (\(FileDiagnostics.outputIsInput.code))"
            }
            if let other = written[key], other != input {
                return "'\(other)' and '\(input)' would both be written to '\(destination)'; build them into different directories"
            }
            written[key] = input
        }
        return nil
    }

    /// Beside the input (`dir/name.timeline.json`), inside `-o` when it is a directory,
    /// or `-o` itself.
    func outputPath(for input: String, target: Target, output: String?) -> String {
        let file = input.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? input
        let stem = file.hasSuffix(".anim") ? String(file.dropLast(5)) : file
        let name = "\(stem).\(target.rawValue).json"
        if let o = output {
            if o.hasSuffix("/") { return o + name }
            if tool.fileSystem.isDirectory(o) { return o + "/" + name }
            return o
        }
        let dir = directoryPart(input) ?? ""
        return dir.isEmpty ? name : dir + "/" + name
    }

    func refusalDiagnostic(_ refusal: BakeRefusal, _ c: Composition) -> Diagnostic {
        switch refusal {
        case .unbounded(let info, let range):
            return BuildDiagnostics.unboundedBake.at(
                range, "cannot bake '\(info.path)': it never ends and the composition has no window",
                label: "repeats forever",
                help: "add 'window: 0s ..< \(formatNumber(info.timing.duration))s' to the composition, or pass --window 0..\(formatNumber(info.timing.duration))")
        case .tooLarge(let frames, let channels, let limit):
            return BuildDiagnostics.bakeTooLarge.at(
                SourceRange(start: c.range.start, end: min(c.range.end, c.range.start + 11)),
                "baking would sample \(frames.isFinite ? formatNumber(frames) : "unboundedly many") frames of \(channels) values, beyond the limit of \(limit)",
                help: "shorten the window, lower --fps, or build the timeline target instead")
        }
    }
}

/// `--fps` and `--window`, as `build --target baked` and `preview` read them.
func samplingOptions(_ parsed: ParsedArguments) throws(UsageError) -> (fps: Double?, window: TimeWindow?) {
    var fps: Double?, window: TimeWindow?
    if let text = parsed.value("fps") {
        guard let f = Double(text), f.isFinite, f > 0, f <= 1000 else {
            throw UsageError(message: "invalid value '\(text)' for '--fps' (expected a number in (0, 1000])")
        }
        fps = f
    }
    if let text = parsed.value("window") {
        guard let w = parseWindow(text) else {
            throw UsageError(message: "invalid value '\(text)' for '--window' (expected START..END in seconds, e.g. 0..3 or 0s...2.5s)")
        }
        window = w
    }
    return (fps, window)
}

/// The directory part of a path (`dir` in `dir/name.anim`, empty for `/name.anim`), or
/// nil when the path has none.
func directoryPart(_ path: String) -> String? {
    path.lastIndex(of: "/").map { String(path[..<$0]) }
}

/// `START..END` (half-open), `START..<END` or `START...END` (closed), in seconds with
/// optional `s`/`ms`.
func parseWindow(_ text: String) -> TimeWindow? {
    let (separator, closed): (String, Bool)
    if text.contains("...") { (separator, closed) = ("...", true) } else if text.contains("..<") { (separator, closed) = ("..<", false) } else { (separator, closed) = ("..", false) }
    guard let r = text.range(of: separator) else { return nil }
    guard let a = parseTime(String(text[..<r.lowerBound])), let b = parseTime(String(text[r.upperBound...])), b >= a else { return nil }
    return TimeWindow(start: a, end: b, includesEnd: closed)
}

func sizeText(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    if bytes < 1 << 20 { return formatNumber((Double(bytes) / 1024 * 10).rounded() / 10) + " KiB" }
    return formatNumber((Double(bytes) / Double(1 << 20) * 10).rounded() / 10) + " MiB"
}
