import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import Dispatch
import Foundation

/// `animc check PATH... [--format human|json|sarif|github] [--werror] [--color WHEN]
/// [--fix [--dry-run]]` (also `animc lint`): every diagnostic, no output files; with
/// `--fix`, every fix-it that keeps the meaning applied first (``Pipeline/fix(_:maxRounds:)``),
/// and what is left reported.
struct CheckCommand {
    let tool: CommandLineTool
    let name: String

    static let spec = ArgumentSpec(valued: ["format", "color"], flags: ["werror", "dump-ir", "fix", "dry-run"])

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
        if parsed.has("dry-run") && !parsed.has("fix") {
            return tool.usageError("'--dry-run' goes with '--fix'", command: name)
        }
        let (paths, pathsFailed) = tool.expandPaths(parsed.positionals, command: name)
        var ioFailed = pathsFailed
        var reports: [FileReport] = []
        if parsed.has("fix") {
            // Fixing writes files and says so as it goes: one file after another.
            for path in paths {
                guard let file = tool.readSource(path, command: name) else { ioFailed = true; continue }
                let result = fix(file, path: path, dryRun: parsed.has("dry-run"), ioFailed: &ioFailed)
                // Its imports' own findings are reported by their own check.
                if parsed.has("dump-ir"), let composition = result.composition { tool.console.writeOut(IRDump.dump(composition)) }
                reports.append(result.report)
            }
        } else {
            // Read in order (a file that cannot be read is said where it is met), check
            // on every core, report in the order of the paths.
            var files: [SourceFile] = []
            for path in paths {
                if let file = tool.readSource(path, command: name) { files.append(file) } else { ioFailed = true }
            }
            for result in CheckCommand.compileAll(files, loader: { tool.loader(for: $0) }, modules: tool.modules) {
                if parsed.has("dump-ir"), let composition = result.composition { tool.console.writeOut(IRDump.dump(composition)) }
                reports.append(result.report)
            }
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

extension CheckCommand {
    /// Every file compiled with its imports, in the files' order, on as many threads as
    /// there are cores: each compile is independent and shares nothing but read-only
    /// tables. Then each imported file that is not among `files`, once, in the order
    /// first met: a library's findings are its own, reported once however many files
    /// import it (a file that is among them is reported where it is).
    static func compileAll(_ files: [SourceFile], loader: (String) -> (any SourceLoader)?, modules: ModuleCache) -> [CompileResult] {
        let results = Slots<ProjectResult>(count: files.count)
        let loaders = files.map { loader($0.name) }
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            results.set(i, Pipeline.compile(files[i], loader: loaders[i], cache: modules))
        }
        let projects = results.values
        var reported = Set(files.map { ImportResolution.normalize($0.name) })
        var all = projects.map(\.main)
        for project in projects {
            for imported in project.imported where reported.insert(ImportResolution.normalize(imported.file.name)).inserted {
                all.append(imported)
            }
        }
        return all
    }

    /// Applies `file`'s machine-applicable fixes: writes the file (or, for a dry run,
    /// prints the diff on stdout), says on stderr what it changed, and returns the check
    /// of what is left.
    func fix(_ file: SourceFile, path: String, dryRun: Bool, ioFailed: inout Bool) -> CompileResult {
        let outcome = Pipeline.fix(file, loader: tool.loader(for: path), cache: tool.modules)
        if outcome.gainedErrors {
            tool.console.writeErr("animc \(name): left \(path) as it was: its fixes would have added errors (a bug in animc; please report it)\n")
        }
        guard outcome.changed else { return outcome.result }
        if dryRun {
            tool.console.writeOut(LineDiff.unified(old: String(decoding: file.bytes, as: UTF8.self),
                                                   new: String(decoding: outcome.bytes, as: UTF8.self),
                                                   oldName: "a/\(path)", newName: "b/\(path)"))
        } else {
            do {
                try tool.fileSystem.rewriteSource(path, from: file.bytes, to: outcome.bytes)
            } catch {
                tool.ioError(error, command: name)
                ioFailed = true
                return Pipeline.compile(file, loader: tool.loader(for: path)).main
            }
        }
        var counts: [(String, Int)] = []
        for (code, _) in outcome.applied {
            if let i = counts.firstIndex(where: { $0.0 == code.rawValue }) { counts[i].1 += 1 } else { counts.append((code.rawValue, 1)) }
        }
        let detail = counts.sorted { $0.0 < $1.0 }.map { $0.1 == 1 ? $0.0 : "\($0.0) ×\($0.1)" }.joined(separator: ", ")
        tool.console.writeErr("\(dryRun ? "would fix" : "fixed") \(path): \(outcome.applied.count) fix\(outcome.applied.count == 1 ? "" : "es") (\(detail))\n")
        return outcome.result
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

/// One result per index, written from several threads.
final class Slots<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Element?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: Element) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }

    /// Every slot, once all are set.
    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
