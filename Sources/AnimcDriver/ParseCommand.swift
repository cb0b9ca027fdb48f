import AnimcBase
import AnimcDiagnostics
import AnimcSyntax

/// `animc parse FILE --dump`: the syntax tree, for goldens and debugging. Without
/// `--dump` it only reports syntax errors.
struct ParseCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["color"], flags: ["dump"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: ParseCommand.spec, command: "parse")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "parse")
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            return tool.usageError("expected exactly one FILE", command: "parse")
        }
        guard tool.fileSystem.exists(path) else {
            tool.console.writeErr("animc parse: error: \(path): no such file or directory\n")
            return CommandLineTool.ExitCode.usage
        }
        guard let file = tool.readSource(path, command: "parse") else { return CommandLineTool.ExitCode.usage }
        let tree = parse(file)
        if parsed.has("dump") {
            tool.console.writeOut(SyntaxDump.dump(tree))
        } else {
            tool.console.writeErr(HumanRenderer(useColor: useColor).render(FileReport(file: file, diagnostics: tree.diagnostics)))
        }
        return tree.diagnostics.contains { $0.severity == .error } ? CommandLineTool.ExitCode.findings : CommandLineTool.ExitCode.success
    }
}
