import AnimcBase
import AnimcDiagnostics
import AnimcSyntax

/// `animc fmt [--check] PATH…` and `animc fmt -`: the canonical layout.
///
/// Files are rewritten in place, atomically, and only when their layout changes (an
/// unchanged file keeps its modification time, so build tools do not rebuild). A
/// file with syntax errors is left untouched and its errors are printed: formatting
/// it would mean guessing what was meant.
struct FmtCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["color"], flags: ["check"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: FmtCommand.spec, command: "fmt")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "fmt")
        }
        let check = parsed.has("check")
        guard !parsed.positionals.isEmpty else {
            return tool.usageError("expected a PATH, or '-' for standard input", command: "fmt")
        }
        if parsed.positionals.contains("-") {
            guard parsed.positionals.count == 1 else {
                return tool.usageError("'-' (standard input) cannot be combined with paths", command: "fmt")
            }
            return formatStandardInput(check: check, useColor: useColor)
        }
        let (files, failed) = tool.expandPaths(parsed.positionals, command: "fmt")
        var status = failed ? CommandLineTool.ExitCode.usage : CommandLineTool.ExitCode.success
        var changed = 0
        for path in files {
            guard let file = tool.readSource(path, command: "fmt") else {
                status = CommandLineTool.ExitCode.usage
                continue
            }
            guard let formatted = format(file, useColor: useColor) else {
                status = max(status, CommandLineTool.ExitCode.findings)
                continue
            }
            let original = String(decoding: file.bytes, as: UTF8.self)
            guard Array(formatted.utf8) != file.bytes else { continue }
            changed += 1
            if check {
                tool.console.writeOut(LineDiff.unified(old: original, new: formatted, oldName: "a/\(path)", newName: "b/\(path)"))
                status = max(status, CommandLineTool.ExitCode.findings)
            } else {
                do {
                    try tool.fileSystem.rewriteSource(path, from: file.bytes, to: Array(formatted.utf8))
                } catch {
                    tool.ioError(error, command: "fmt")
                    status = CommandLineTool.ExitCode.usage
                }
            }
        }
        if check && changed > 0 {
            tool.console.writeErr("animc fmt: \(changed) of \(files.count) file\(files.count == 1 ? "" : "s") not formatted\n")
        }
        return status
    }

    private func formatStandardInput(check: Bool, useColor: Bool) -> Int32 {
        guard let bytes = tool.console.readInput(limit: LocalFileSystem.maxFileSize) else {
            tool.console.writeErr("animc fmt: error: <stdin>: could not be read, or is larger than \(LocalFileSystem.maxFileSize >> 20) MiB\n")
            return CommandLineTool.ExitCode.usage
        }
        let file = SourceFile(name: "<stdin>", bytes: bytes)
        guard let formatted = format(file, useColor: useColor) else {
            // Nothing is lost: the input goes out unchanged, byte for byte, as editors
            // piping a buffer through `fmt -` expect (it need not be UTF-8).
            if !check { tool.console.writeOut(bytes: bytes) }
            return CommandLineTool.ExitCode.findings
        }
        if check {
            let diff = LineDiff.unified(old: String(decoding: bytes, as: UTF8.self), new: formatted,
                                        oldName: "a/<stdin>", newName: "b/<stdin>")
            tool.console.writeOut(diff)
            return diff.isEmpty ? CommandLineTool.ExitCode.success : CommandLineTool.ExitCode.findings
        }
        tool.console.writeOut(formatted)
        return CommandLineTool.ExitCode.success
    }

    /// The formatted text, or nil after printing why there is none.
    private func format(_ file: SourceFile, useColor: Bool) -> String? {
        switch SourceFormatter.format(file) {
        case .success(let text):
            return text
        case .failure(.syntaxErrors):
            let tree = parse(file)
            tool.console.writeErr(HumanRenderer(useColor: useColor).render(FileReport(file: file, diagnostics: tree.diagnostics)))
            tool.console.writeErr("animc fmt: \(file.name): not formatted: fix the syntax errors first\n")
            return nil
        case .failure(.wouldChangeMeaning(let offset)):
            let at = LineIndex(file).location(of: offset)
            tool.console.writeErr("animc fmt: internal error: \(file.name):\(at.line):\(at.column): formatting would change the tokens here; "
                                  + "the file was left as it is (please report this)\n")
            return nil
        }
    }
}
