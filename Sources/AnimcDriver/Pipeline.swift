import AnimcBake
import AnimcBase
import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcLottie
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

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var report: FileReport { FileReport(file: file, diagnostics: diagnostics, suppressed: suppressed) }
}

/// Runs the stages in order. Pure: no I/O, so editors and tests call it directly.
public enum Pipeline {
    /// Parses and checks `file`, reporting every stage in one run: the checker also
    /// runs on a tree with syntax errors, where the parser's error nodes are poison
    /// (they satisfy every check and produce no message of their own), so a typo does
    /// not hide the name, type and Core Animation findings elsewhere in the file. There
    /// is IR only when nothing is wrong.
    ///
    /// An editor passes the document's `memo` on every change, so that top-level items
    /// that did not change are not checked again (the result is the same).
    public static func compile(_ file: SourceFile, memo: CheckMemo? = nil) -> CompileResult {
        let tree = parse(file)
        let checked = check(tree, memo: memo)
        let diagnostics = tree.diagnostics + checked.diagnostics
        let composition = checked.composition
        let (kept, suppressed) = Suppressions.apply(diagnostics, comments: tree.comments, file: file,
                                                   knownCodes: DiagnosticRegistry.codes)
        return CompileResult(file: file, tree: tree, composition: composition,
                             diagnostics: kept.sorted(by: Diagnostic.ordered), suppressed: suppressed,
                             foldedValues: checked.foldedValues, partialComposition: checked.partialComposition,
                             names: checked.names)
    }
}

/// Every diagnostic code animc can emit, in code order: what `explain --list` prints
/// and what SARIF's rule table holds.
public enum DiagnosticRegistry {
    public static let all: [DiagnosticDescriptor] = {
        (SyntaxDiagnostics.all + CheckerDiagnostics.all + Suppressions.all + BuildDiagnostics.all + LottieDiagnostics.all).sorted { $0.code < $1.code }
    }()

    public static let codes: Set<String> = Set(all.map(\.code.rawValue))

    public static func descriptor(_ code: String) -> DiagnosticDescriptor? {
        all.first { $0.code.rawValue.lowercased() == code.lowercased() }
    }
}

/// Diagnostics of the build step (E06xx).
public enum BuildDiagnostics {
    public static let unboundedBake = DiagnosticDescriptor(
        "E0601", "unbounded-bake", .error, "A bake of an animation that never ends, with no window",
        explanation: """
        A baked file holds every frame, so it needs a last frame. Something in the \
        composition repeats forever and the composition has no `window`, so there is \
        none. Add `window: 0s ..< 3s` (for example one cycle) to the composition, or \
        pass `--window 0..3` to `animc build`.
        """)

    public static let bakeTooLarge = DiagnosticDescriptor(
        "E0602", "bake-too-large", .error, "A bake that would be too large",
        explanation: """
        The number of frames times the number of values sampled per frame is beyond \
        the bake limit (\(formatNumber(Double(Baker.defaultSampleLimit) / 1e6)) million samples), which would take \
        gigabytes. Shorten the window, \
        lower `--fps`, or use the timeline target, which stores the animation itself \
        instead of its frames.
        """)

    public static let all = [unboundedBake, bakeTooLarge]
}
