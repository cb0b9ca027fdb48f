import AnimcCompiler
import AnimcDiagnostics

/// `animc explain CODE` prints a code's long explanation; `--list` lists every code.
struct ExplainCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(flags: ["list"])

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try parseArguments(args, spec: ExplainCommand.spec, command: "explain")
        } catch {
            return tool.usageError(error.message, command: "explain")
        }
        if parsed.has("list") {
            var out = ""
            for d in DiagnosticRegistry.all {
                out += "\(d.code.rawValue)  \(d.severity.rawValue.padding(7))  \(d.name.padding(34))  \(d.summary)\n"
            }
            tool.console.writeOut(out)
            return CommandLineTool.ExitCode.success
        }
        guard parsed.positionals.count == 1, let code = parsed.positionals.first else {
            return tool.usageError("expected one diagnostic code, such as E0201, or --list", command: "explain")
        }
        guard let d = DiagnosticRegistry.descriptor(code) ?? DiagnosticRegistry.all.first(where: { $0.name == code }) else {
            return tool.usageError("unknown diagnostic code '\(code)'; 'animc explain --list' shows them all", command: "explain")
        }
        tool.console.writeOut("\(d.code.rawValue) (\(d.name), \(d.severity.rawValue)): \(d.summary)\n\n\(d.explanation)\n")
        return CommandLineTool.ExitCode.success
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
