import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcPreview
import AnimcRuntime
import Foundation

/// `animc preview FILE [-o PAGE.html] [--fps N] [--window START..END] [--serve [--port N]]`
///
/// Writes a self-contained HTML page that plays the composition, by default beside
/// the input as `NAME.preview.html`; with `--serve`, serves it on 127.0.0.1 and
/// reloads it when the file changes.
struct PreviewCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["output", "fps", "window", "port", "color"], flags: ["serve"], aliases: ["o": "output"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: PreviewCommand.spec, command: "preview")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "preview")
        }
        guard parsed.positionals.count == 1, let input = parsed.positionals.first else {
            return tool.usageError(parsed.positionals.isEmpty ? "no input file" : "preview takes one input file", command: "preview")
        }
        var settings = PreviewSettings()
        do {
            (settings.fps, settings.window) = try samplingOptions(parsed)
        } catch {
            return tool.usageError(error.message, command: "preview")
        }
        if parsed.has("serve") {
            var port = 8080
            if let text = parsed.value("port") {
                guard let p = Int(text), (0...65535).contains(p) else {
                    return tool.usageError("invalid value '\(text)' for '--port' (expected 0 to 65535)", command: "preview")
                }
                port = p
            }
            guard parsed.value("output") == nil else { return tool.usageError("--serve writes no file; drop -o", command: "preview") }
            return PreviewServer(tool: tool, input: input, settings: settings, useColor: useColor).run(port: port)
        } else if parsed.value("port") != nil {
            return tool.usageError("--port is for --serve", command: "preview")
        }
        guard !tool.fileSystem.isDirectory(input) else {
            tool.console.writeErr("animc preview: error: \(input): is a directory; give an .anim file\n")
            return CommandLineTool.ExitCode.usage
        }
        guard tool.fileSystem.exists(input) else {
            tool.console.writeErr("animc preview: error: \(input): no such file or directory\n")
            return CommandLineTool.ExitCode.usage
        }
        let destination = parsed.value("output") ?? PreviewCommand.defaultOutput(for: input)
        if destination != "-", tool.fileSystem.canonicalPath(destination) == tool.fileSystem.canonicalPath(input) {
            return tool.usageError("refusing to write '\(destination)': it is the input; choose another output with -o (\(FileDiagnostics.outputIsInput.code))", command: "preview")
        }
        guard let file = tool.readSource(input, command: "preview") else { return CommandLineTool.ExitCode.usage }
        let built = PreviewBuilder(tool: tool, settings: settings).build(file, input: input)
        DiagnosticOutput(console: tool.console, useColor: useColor)
            .emit(built.reports.filter { !$0.diagnostics.isEmpty }, format: "human", summaryVerb: nil)
        guard let data = built.data else { return CommandLineTool.ExitCode.findings }
        let bytes = PreviewPage.render(data, title: PreviewBuilder.title(of: input))
        if destination == "-" {
            tool.console.writeOut(String(decoding: bytes, as: UTF8.self))
            return CommandLineTool.ExitCode.success
        }
        // Every file the page was made from (imports, images) is an input too.
        if let read = tool.input(replacedBy: destination, among: built.inputs) {
            tool.console.writeErr("animc preview: error[\(FileDiagnostics.outputIsInput.code)]: refusing to write '\(destination)': it is '\(read)', which the page was made from; choose another output with -o\n")
            return CommandLineTool.ExitCode.usage
        }
        do {
            try tool.fileSystem.writeOutputAtomically(destination, bytes)
            tool.console.writeErr("wrote \(destination) (\(sizeText(bytes.count)))\n")
        } catch {
            tool.ioError(error, command: "preview")
            return CommandLineTool.ExitCode.usage
        }
        return CommandLineTool.ExitCode.success
    }

    /// `dir/name.anim` → `dir/name.preview.html`.
    static func defaultOutput(for input: String) -> String {
        (input.hasSuffix(".anim") ? String(input.dropLast(5)) : input) + ".preview.html"
    }
}

/// The frame rate and window a preview samples, when not the composition's.
struct PreviewSettings: Sendable {
    var fps: Double?
    var window: TimeWindow?
}

/// Compiles a source into the page's data, with the images found beside it.
struct PreviewBuilder {
    let tool: CommandLineTool
    let settings: PreviewSettings
    /// Images larger than this are refused (drawn as the grey placeholder) rather than embedded.
    static let imageLimit = 8 << 20

    struct Built {
        /// Nil when the source has errors or cannot be baked.
        var data: PreviewData?
        /// The report of the source, then of each file it imports.
        var reports: [FileReport]
        /// The files the page was made from (the source, the files it imports and the
        /// images found), which the server watches.
        var inputs: [String]

        /// The diagnostics as the page shows them, each file's after its name.
        var diagnosticsText: String {
            reports.filter { !$0.diagnostics.isEmpty }.map { HumanRenderer().render($0.diagnostics, in: $0.file) }.joined(separator: "\n")
        }
        var hasDiagnostics: Bool { reports.contains { !$0.diagnostics.isEmpty } }
    }

    func build(_ file: SourceFile, input: String) -> Built {
        let compiled = tool.compileForOutput(file)
        var reports = compiled.reports
        let inputs = compiled.project.files.map(\.name)
        guard let composition = compiled.composition else {
            return Built(data: nil, reports: reports, inputs: inputs)
        }
        let timeline = Timeline(composition)
        switch Baker.plan(timeline, fps: settings.fps, window: settings.window) {
        case .failure(let refusal):
            reports[0].diagnostics.append(BuildCommand(tool: tool).refusalDiagnostic(refusal, composition))
            return Built(data: nil, reports: reports, inputs: inputs)
        case .success(let plan):
            let (images, found) = self.images(PreviewBuilder.imageNames(composition), besides: input)
            return Built(data: PreviewData(Baker.sample(timeline, plan: plan), images: images), reports: reports, inputs: inputs + found)
        }
    }

    /// The page's title: the source file's name.
    static func title(of input: String) -> String {
        input.split(separator: "/").last.map(String.init) ?? input
    }

    /// Every image asset the composition names, in its properties and animations.
    static func imageNames(_ c: Composition) -> [String] {
        var names = Set<String>()
        func visit(_ v: Value) { if case .image(let n?) = v { names.insert(n) } }
        func visit(_ v: AnimatedValue) { if case .value(let x) = v { visit(x) } }
        func visit(_ a: Animation) {
            switch a.kind {
            case .group(let children): children.forEach(visit)
            case .property(let p):
                switch p.content {
                case .basic(let from, let to), .spring(let from, let to, _): visit(from); visit(to)
                case .keyframes(let k): k.values.forEach(visit)
                case .decay(let from, _, _): visit(from)
                case .motion: break
                }
            }
        }
        for layer in c.layers {
            layer.properties.forEach { visit($0.value) }
            layer.animations.forEach(visit)
        }
        return names.sorted()
    }

    /// `NAME.png` (or .jpg, .svg, ...) beside the source or in its `assets/` folder, as
    /// data URLs. Names that are not plain file names are never looked up.
    func images(_ names: [String], besides input: String) -> (urls: [String: String], files: [String]) {
        var urls: [String: String] = [:]
        var files: [String] = []
        for found in tool.imageFiles(names, besides: input, limit: PreviewBuilder.imageLimit, command: "preview") {
            urls[found.name] = "data:\(found.mime);base64," + Data(found.bytes).base64EncodedString()
            files.append(found.path)
        }
        return (urls, files)
    }
}
