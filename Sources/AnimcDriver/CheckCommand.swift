import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR

/// `animc check PATH... [--format human|json|sarif|github] [--werror] [--color WHEN]`
/// (also `animc lint`): every diagnostic, no output files.
struct CheckCommand {
    let tool: CommandLineTool
    let name: String

    static let spec = ArgumentSpec(valued: ["format", "color"], flags: ["werror", "dump-ir"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: CheckCommand.spec, command: name)
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: name)
        }
        let format = parsed.value("format") ?? "human"
        guard ["human", "json", "sarif", "github"].contains(format) else {
            return tool.usageError("invalid value '\(format)' for '--format' (expected human, json, sarif or github)", command: name)
        }
        guard !parsed.positionals.isEmpty else {
            return tool.usageError("no input paths; give one or more .anim files or directories", command: name)
        }
        let (paths, pathsFailed) = tool.expandPaths(parsed.positionals, command: name)
        var ioFailed = pathsFailed
        var reports: [FileReport] = []
        for path in paths {
            guard let file = tool.readSource(path, command: name) else { ioFailed = true; continue }
            let result = Pipeline.compile(file)
            if parsed.has("dump-ir"), let composition = result.composition {
                tool.console.writeOut(IRDump.dump(composition))
            }
            reports.append(result.report)
        }
        let werror = parsed.has("werror")
        // After an I/O error with nothing checked, "no problems" would be misleading.
        DiagnosticOutput(console: tool.console, useColor: useColor)
            .emit(reports, format: format, summaryVerb: reports.isEmpty && ioFailed ? nil : "checked")
        if ioFailed { return CommandLineTool.ExitCode.usage }
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        return errors > 0 || (werror && warnings > 0) ? CommandLineTool.ExitCode.findings : CommandLineTool.ExitCode.success
    }
}

/// Writes diagnostics in the requested format: human text to stderr, machine
/// formats to stdout so they stay parseable.
struct DiagnosticOutput {
    let console: Console
    let useColor: Bool

    func emit(_ reports: [FileReport], format: String, summaryVerb: String?) {
        switch format {
        case "json":
            console.writeOut(JSONLinesRenderer.render(reports))
        case "sarif":
            let log = SARIFRenderer.render(reports, rules: DiagnosticRegistry.all, toolVersion: CommandLineTool.version)
            console.writeOut(log.serializedString(style: .pretty))
        case "github":
            console.writeOut(GitHubRenderer.render(reports))
        default:
            let renderer = HumanRenderer(useColor: useColor)
            for report in reports where !report.diagnostics.isEmpty {
                console.writeErr(renderer.render(report))
            }
            if let verb = summaryVerb { console.writeErr(summary(reports, verb: verb)) }
        }
    }

    func summary(_ reports: [FileReport], verb: String) -> String {
        let errors = reports.reduce(0) { $0 + $1.errorCount }
        let warnings = reports.reduce(0) { $0 + $1.warningCount }
        let files = "\(reports.count) file\(reports.count == 1 ? "" : "s")"
        if errors == 0 && warnings == 0 { return "\(verb) \(files): no problems\n" }
        return "\(verb) \(files): \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
    }
}

func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
