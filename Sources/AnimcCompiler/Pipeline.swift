import AnimcBase
import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// What compiling one file produced.
public struct CompileResult: Sendable {
    public var file: SourceFile
    public var tree: SyntaxTree
    /// The IR, when the file has no errors.
    public var composition: Composition?
    /// Diagnostics that remain after suppression comments, in order.
    public var diagnostics: [Diagnostic]
    public var suppressed: [SuppressedDiagnostic]
    /// What each declaration folded to (see ``CheckResult/foldedValues``).
    public var foldedValues = FoldedValues()
    /// The IR lowered despite errors (see ``CheckResult/partialComposition``).
    public var partialComposition: Composition?
    /// Declarations and references (see ``CheckResult/names``).
    public var names: NameIndex?
    /// The file's `test` blocks (see ``CheckResult/tests``).
    public var tests: [TestCase] = []
    /// Inputs, states and transitions (see ``CheckResult/interaction``).
    public var interaction: Interaction?

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var report: FileReport { FileReport(file: file, diagnostics: diagnostics, suppressed: suppressed) }
}

/// Runs the stages in order. Pure: no I/O, so editors and tests call it directly.
public enum Pipeline {
    /// The compiler's version, as `animc --version` and the language server report it.
    public static let version = "0.1.0"

    /// The largest source animc compiles, from a file, standard input or an editor.
    public static let maxSourceSize = 8 << 20
    /// Why a larger source is refused, in every command's and the editor's words.
    public static let sourceTooLarge = "larger than \(maxSourceSize >> 20) MiB, the most animc compiles"

    /// Parses and checks `file`, reporting every stage in one run: the checker also
    /// runs on a tree with syntax errors, where the parser's error nodes are poison
    /// (they satisfy every check and produce no message of their own), so a typo does
    /// not hide the name, type and Core Animation findings elsewhere in the file. There
    /// is IR only when nothing is wrong.
    ///
    /// An editor passes the document's `memo` on every change, so that top-level items
    /// that did not change are not checked again (the result is the same).
    ///
    /// `limits` are the checker's work limits: the standard ones unless a fuzzer wants
    /// smaller ones, to tell a hang from an input that meets a limit.
    ///
    /// The file is compiled alone: an `import` in it is an error (see
    /// ``compile(_:loader:memo:limits:)`` for a file with the files it imports).
    public static func compile(_ file: SourceFile, memo: CheckMemo? = nil, limits: ExpansionLimits = .standard) -> CompileResult {
        compile(file, loader: nil, memo: memo, limits: limits).main
    }

    /// ``compile(_:memo:)`` that gives up, returning nil, once `isCancelled` returns
    /// true (see ``check(_:memo:until:)``): an editor's check of a version already
    /// typed past.
    public static func compile(_ file: SourceFile, memo: CheckMemo?, until isCancelled: @escaping () -> Bool) -> CompileResult? {
        compile(file, loader: nil, memo: memo, until: isCancelled)?.main
    }

    /// What the parser alone knows of `file`: its tree, syntax errors and names. For an
    /// editor to answer from at once while the check runs.
    public static func syntax(_ file: SourceFile) -> CompileResult {
        let tree = parse(file)
        return CompileResult(file: file, tree: tree, composition: nil, diagnostics: tree.diagnostics, suppressed: [],
                             names: NameIndex.build(tree))
    }

    /// `extra`: what was found outside the checker (imports that failed).
    /// The most imports of one file said to have errors (E0326) one by one; the rest are
    /// one line. Files that import each other all had errors, each import saying so:
    /// 200 files importing every other printed 40,000 of them.
    static let importsWithErrorsListed = 10

    static func summarizingImportedErrors(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        let code = CheckerDiagnostics.importedErrors.code
        var seen = 0
        var rest: [Diagnostic] = []
        var kept: [Diagnostic] = []
        for d in diagnostics {
            if d.code == code {
                seen += 1
                if seen > importsWithErrorsListed { rest.append(d); continue }
            }
            kept.append(d)
        }
        guard let first = rest.first else { return diagnostics }
        let summary = CheckerDiagnostics.importedErrors.at(
            first.range, "\(rest.count) more imported file\(rest.count == 1 ? " has" : "s have") errors",
            label: "and more", notes: rest.prefix(3).map { Note($0.message) } + (rest.count > 3 ? [Note("…")] : []))
        return (kept + [summary]).sorted(by: Diagnostic.ordered)
    }

    static func assemble(_ tree: SyntaxTree, _ checked: CheckResult, extra: [Diagnostic] = []) -> CompileResult {
        let file = tree.file
        let diagnostics = tree.diagnostics + extra + checked.diagnostics
        let (kept, suppressed) = Suppressions.apply(diagnostics, comments: tree.comments, file: file,
                                                   knownCodes: DiagnosticRegistry.codes)
        // The IR only when nothing is wrong, the imports included.
        let failed = extra.contains { $0.severity == .error }
        return CompileResult(file: file, tree: tree, composition: failed ? nil : checked.composition,
                             diagnostics: summarizingImportedErrors(kept.sorted(by: Diagnostic.ordered)), suppressed: suppressed,
                             foldedValues: checked.foldedValues, partialComposition: checked.partialComposition,
                             names: checked.names, tests: checked.tests, interaction: failed ? nil : checked.interaction)
    }
}
