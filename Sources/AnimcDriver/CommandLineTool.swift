import AnimcBase
import AnimcCompiler
import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcRuntime
import AnimcLanguageServer
import AnimcSyntax

/// The `animc` command-line tool as a library: `run` takes the arguments (without
/// the program name) and returns the exit status. 0 success, 1 findings or compile
/// errors, 2 usage or I/O errors.
public struct CommandLineTool {
    public static let version = Pipeline.version

    public enum ExitCode {
        public static let success: Int32 = 0
        public static let findings: Int32 = 1
        public static let usage: Int32 = 2
    }

    let fileSystem: FileSystem
    let console: Console
    /// `--root DIR`, taken from the arguments of any command (``ProjectRoot``).
    var rootOption: String?
    /// The imported files this process has checked, by content: `check DIR` checks a
    /// library once for all its importers, `preview --serve` once per change to it.
    let modules = ModuleCache()

    public init(fileSystem: FileSystem = LocalFileSystem(), console: Console = StandardConsole()) {
        self.fileSystem = fileSystem
        self.console = console
    }

    public func run(_ arguments: [String]) -> Int32 {
        // `--root DIR` belongs to every command that reads files: taken out here, it is
        // the same option everywhere.
        var arguments = arguments
        var tool = self
        do {
            tool.rootOption = try CommandLineTool.takeRoot(&arguments)
        } catch {
            return usageError(error.message, command: arguments.first)
        }
        if let root = tool.rootOption, !fileSystem.isDirectory(root) {
            return usageError("'--root \(root)': not a directory", command: arguments.first)
        }
        return tool.dispatch(arguments)
    }

    /// Removes `--root DIR` (or `--root=DIR`) before any `--`, and returns DIR.
    static func takeRoot(_ arguments: inout [String]) throws(UsageError) -> String? {
        var root: String?
        var i = 1
        while i < arguments.count, arguments[i] != "--" {
            if arguments[i] == "--root" {
                guard i + 1 < arguments.count else { throw UsageError(message: "option '--root' needs a value") }
                root = arguments[i + 1]
                arguments.removeSubrange(i...(i + 1))
            } else if arguments[i].hasPrefix("--root=") {
                root = String(arguments[i].dropFirst("--root=".count))
                arguments.remove(at: i)
            } else {
                i += 1
            }
        }
        if root?.isEmpty == true { throw UsageError(message: "option '--root' needs a folder") }
        return root
    }

    private func dispatch(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            console.writeErr(Help.main)
            return ExitCode.usage
        }
        let rest = arguments.dropFirst()
        switch first {
        case "--version", "-V", "version":
            console.writeOut("animc \(CommandLineTool.version)\n")
            return ExitCode.success
        case "--help", "-h", "help":
            if let topic = rest.first {
                guard let text = Help.command(topic) else {
                    return usageError("unknown command '\(topic)'", command: nil)
                }
                console.writeOut(text)
            } else {
                console.writeOut(Help.main)
            }
            return ExitCode.success
        case "check", "lint":
            return wantsHelp(rest) ? showHelp(first) : CheckCommand(tool: self, name: first).run(rest)
        case "lsp":
            if wantsHelp(rest) { return showHelp(first) }
            guard rest.isEmpty || rest == ["--stdio"] else { return usageError("'lsp' takes no arguments (it serves on stdin and stdout)", command: "lsp") }
            let loop = LanguageServerLoop(transport: StandardIOTransport())
            // The code lens "preview at this animation's start" opens the file's preview,
            // served from this process, one server per file.
            let previews = Previews(tool: self)
            loop.previews = { path in previews.address(of: path) }
            return loop.run()
        case "fmt":
            return wantsHelp(rest) ? showHelp(first) : FmtCommand(tool: self).run(rest)
        case "parse":
            return wantsHelp(rest) ? showHelp(first) : ParseCommand(tool: self).run(rest)
        case "build":
            return wantsHelp(rest) ? showHelp(first) : BuildCommand(tool: self).run(rest)
        case "eval":
            return wantsHelp(rest) ? showHelp(first) : EvalCommand(tool: self).run(rest)
        case "preview":
            return wantsHelp(rest) ? showHelp(first) : PreviewCommand(tool: self).run(rest)
        case "render":
            return wantsHelp(rest) ? showHelp(first) : RenderCommand(tool: self).run(rest)
        case "test":
            return wantsHelp(rest) ? showHelp(first) : TestCommand(tool: self).run(rest)
        case "explain":
            return wantsHelp(rest) ? showHelp(first) : ExplainCommand(tool: self).run(rest)
        default:
            var message = "unknown command '\(first)'"
            if let guess = closestMatch(to: first, in: Help.commands) { message += "; did you mean '\(guess)'?" }
            return usageError(message, command: nil)
        }
    }

    private func wantsHelp(_ args: ArraySlice<String>) -> Bool {
        args.contains("--help") || args.contains("-h")
    }

    private func showHelp(_ command: String) -> Int32 {
        console.writeOut(Help.command(command) ?? Help.main)
        return ExitCode.success
    }

    /// Prints `animc: error: <message>` and a pointer to help; returns exit code 2.
    func usageError(_ message: String, command: String?) -> Int32 {
        let prefix = command.map { "animc \($0)" } ?? "animc"
        console.writeErr("\(prefix): error: \(message)\n")
        console.writeErr("run '\(prefix) --help' for usage\n")
        return ExitCode.usage
    }

    /// Prints an I/O problem as one line.
    func ioError(_ error: FileSystemError, command: String) {
        console.writeErr(CommandLineTool.ioErrorLine(error, command: command))
    }

    /// The line ``ioError(_:command:)`` prints, for callers that say it later (frames
    /// written on several threads, which do not share the console).
    static func ioErrorLine(_ error: FileSystemError, command: String) -> String {
        let label = error.code.map { "error[\($0)]" } ?? "error"
        return "animc \(command): \(label): \(error.path): \(error.reason)\n"
    }

    /// Whether human output on stderr gets colour: `--color always|never|auto`; in auto
    /// mode only on a terminal, with `NO_COLOR` unset or empty and `TERM` not `dumb`;
    /// `CLICOLOR_FORCE` forces it (for CI logs that render ANSI).
    func useColor(_ option: String?) throws(UsageError) -> Bool {
        switch option ?? "auto" {
        case "always": return true
        case "never": return false
        case "auto":
            let env = console.environment
            if let force = env["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
            if env["TERM"] == "dumb" { return false }
            return console.stderrIsTerminal
        default:
            throw UsageError(message: "invalid value '\(option ?? "")' for '--color' (expected auto, always or never)")
        }
    }

    /// Expands the PATH arguments: files as given, directories recursively to their
    /// `*.anim` files. Problems are reported and make the result's `failed` true.
    func expandPaths(_ paths: [String], command: String) -> (files: [String], failed: Bool) {
        var files: [String] = []
        var failed = false
        for path in paths {
            if fileSystem.isDirectory(path) {
                do {
                    var unnamed: [String] = []
                    let found = try fileSystem.filesRecursively(under: path, unnamed: &unnamed).filter { $0.hasSuffix(".anim") }
                    for name in unnamed {
                        console.writeErr("animc \(command): error: \(name): the file's name is not UTF-8, so animc cannot name it; rename it\n")
                        failed = true
                    }
                    if found.isEmpty && unnamed.isEmpty {
                        console.writeErr("animc \(command): error: \(path): no .anim files in this directory\n")
                        failed = true
                    }
                    files += found
                } catch {
                    ioError(error, command: command)
                    failed = true
                }
            } else if fileSystem.exists(path) {
                files.append(path)
            } else {
                console.writeErr("animc \(command): error: \(path): no such file or directory\n")
                failed = true
            }
        }
        return (files, failed)
    }

    /// The project root of the source at `path` (``ProjectRoot``): `--root`, else the
    /// nearest folder above it with a project marker, else its own folder.
    func projectRoot(for path: String) -> ProjectRoot {
        if let rootOption { return ProjectRoot(path: fileSystem.canonicalPath(rootOption), origin: .option) }
        let folder = fileSystem.canonicalPath(directoryPart(path) ?? ".")
        return ProjectRoot.find(fromFolder: folder, exists: { fileSystem.exists($0) })
    }

    /// The file among `inputs` that writing `output` would replace (E1006), compared as
    /// files (canonical paths), not as spellings.
    func input(replacedBy output: String, among inputs: [String]) -> String? {
        let key = fileSystem.canonicalPath(output)
        return inputs.first { fileSystem.canonicalPath($0) == key }
    }

    /// Reads the files the source at `path` imports from this tool's file system, inside
    /// its project root.
    func loader(for path: String) -> FileSystemLoader {
        FileSystemLoader(fileSystem: fileSystem, root: projectRoot(for: path))
    }

    /// Compiles `file` with the files it imports, for a command that makes something of
    /// it (build, eval, preview): the composition when no file has errors, and the
    /// report of every file, the compiled one first. A library (a file of declarations
    /// only) compiles without errors but has nothing to build: that is an error here.
    func compileForOutput(_ file: SourceFile) -> (project: ProjectResult, composition: Composition?, reports: [FileReport]) {
        var project = Pipeline.compile(file, loader: loader(for: file.name), cache: modules)
        if !project.hasErrors, project.main.composition == nil {
            project.main.diagnostics.append(CheckerDiagnostics.missingComposition.at(
                .empty(at: 0), "\(file.name) is a library: it declares no composition, so there is nothing to build",
                help: "build a file that imports it, or add 'composition { size: 375 x 667 }'"))
        }
        return (project, project.hasErrors ? nil : project.main.composition, project.reports)
    }

    /// `composition` after the events of `script` (`--events`), or nil after saying why
    /// (a usage error: the script is an argument). Without a script, the composition.
    func applyingEvents(_ script: String?, to composition: Composition, interaction: Interaction?, command: String) -> Composition? {
        guard let script else { return composition }
        guard let interaction else {
            _ = usageError("--events needs a file that declares inputs, states and transitions ('input tap: trigger', "
                           + "'state open { ... }', 'on tap from closed -> open')", command: command)
            return nil
        }
        switch EventScript.parse(script) {
        case .failure(let error):
            _ = usageError("invalid --events at character \(error.offset + 1): \(error.message); "
                           + "write events such as 'tap@0.2s, progress=0.5@1s'", command: command)
            return nil
        case .success(let events):
            switch InteractionPlayer.unroll(composition, interaction, events) {
            case .failure(let failure):
                _ = usageError("--events: \(failure.message)", command: command)
                return nil
            case .success(let (played, _)):
                return played
            }
        }
    }

    /// Reads a source file, reporting a failure as one line.
    func readSource(_ path: String, command: String) -> SourceFile? {
        do {
            return SourceFile(name: path, bytes: try fileSystem.readFile(path))
        } catch {
            ioError(error, command: command)
            return nil
        }
    }
}
