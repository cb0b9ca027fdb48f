import AnimcBase
import AnimcDiagnostics

/// What applying every machine-applicable fix-it to a file did.
public struct FixOutcome: Sendable {
    /// The source after the fixes (the original's bytes when nothing was applied).
    public var bytes: [UInt8]
    /// The fixes applied, each with the code of the diagnostic it came from, in the
    /// order applied over every round.
    public var applied: [(code: DiagnosticCode, fix: FixIt)]
    /// The check of ``bytes``: what is left.
    public var result: CompileResult
    /// Set when the fixes were undone because the fixed file had more errors than the
    /// original (a fix-it that breaks a file is a bug; the file is left as it was).
    public var gainedErrors: Bool
    /// Whether ``bytes`` differ from the original.
    public var changed: Bool
}

extension Pipeline {
    /// Applies the machine-applicable fix-its of `file`'s diagnostics (see
    /// ``FixIt/applicableTogether(_:)``), re-checks and repeats, since a fix can reveal
    /// a finding its error hid (`duration: 1.5f` needs its unit once the suffix is
    /// gone), until nothing applies or `maxRounds` rounds have run. What `animc check
    /// --fix` and the editor's fix-all do: the same fixes, the same result.
    ///
    /// A file that would end with more errors than it started with is not changed.
    /// `checked`, when given, is `file`'s check already made (an editor's), which is
    /// then not made again.
    ///
    /// `loader` reads the files `file` imports, as for ``compile(_:loader:memo:limits:)``.
    public static func fix(_ file: SourceFile, checked: CompileResult? = nil, loader: (any SourceLoader)? = nil,
                           cache: ModuleCache? = nil, maxRounds: Int = 8) -> FixOutcome {
        // Each round checks the file again; its imports do not change (the cache, or one
        // made for this fix, checks them once).
        let modules = cache ?? ModuleCache()
        let compile = { (f: SourceFile) in Pipeline.compile(f, loader: loader, cache: modules).main }
        let original = checked ?? compile(file)
        var current = original
        var bytes = file.bytes
        var applied: [(code: DiagnosticCode, fix: FixIt)] = []
        for _ in 0..<maxRounds {
            let fixes = FixIt.applicableTogether(current.diagnostics)
            guard !fixes.isEmpty else { break }
            let next = applyEdits(fixes.flatMap(\.fix.edits), to: bytes)
            guard next != bytes else { break }
            bytes = next
            applied += fixes
            current = compile(SourceFile(name: file.name, bytes: bytes))
        }
        let errors = { (r: CompileResult) in r.diagnostics.filter { $0.severity == .error }.count }
        if errors(current) > errors(original) {
            return FixOutcome(bytes: file.bytes, applied: [], result: original, gainedErrors: true, changed: false)
        }
        return FixOutcome(bytes: bytes, applied: applied, result: current, gainedErrors: false, changed: bytes != file.bytes)
    }
}
