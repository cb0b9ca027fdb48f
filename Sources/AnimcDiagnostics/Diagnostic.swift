import AnimcBase

/// How serious a finding is. `error` stops compilation; `warning` does not, unless
/// the user asks for `--werror`.
public enum Severity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// A stable diagnostic code such as `E0201`. Codes are never reused: a retired code
/// stays retired so CI baselines and suppressions keep their meaning.
///
/// Ranges: E01xx lexical, E02xx syntax, E03xx names, types, units and evaluation,
/// E04xx animation and timing rules, W05xx Core Animation pitfalls (warnings),
/// E06xx/W06xx build and output, W07xx suppressions.
public struct DiagnosticCode: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A source range with an optional short text shown beside its underline.
public struct Label: Hashable, Sendable {
    public var range: SourceRange
    public var message: String?
    public init(_ range: SourceRange, _ message: String? = nil) {
        self.range = range
        self.message = message
    }
}

/// Extra context printed after the snippet as `= note: ...`.
public struct Note: Hashable, Sendable {
    public var message: String
    public var range: SourceRange?
    public init(_ message: String, at range: SourceRange? = nil) {
        self.message = message
        self.range = range
    }
}

/// Replace the bytes of `range` with `replacement` (an empty range inserts).
public struct TextEdit: Hashable, Sendable {
    public var range: SourceRange
    public var replacement: String
    public init(range: SourceRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// The edit that removes the item at `range` of `bytes` with one separator beside it:
    /// the comma after it (or before it), else its whole line when nothing else is on it.
    public static func removal(of range: SourceRange, in bytes: [UInt8]) -> TextEdit {
        var e = Int(min(range.end, UInt32(bytes.count)))
        while e < bytes.count, bytes[e] == 0x20 || bytes[e] == 0x09 { e += 1 }
        if e < bytes.count, bytes[e] == 0x2C {
            e += 1
            while e < bytes.count, bytes[e] == 0x20 || bytes[e] == 0x09 { e += 1 }
            return TextEdit(range: SourceRange(start: range.start, end: UInt32(e)), replacement: "")
        }
        var b = Int(range.start) - 1
        while b >= 0, bytes[b] == 0x20 || bytes[b] == 0x09 { b -= 1 }
        if b >= 0, bytes[b] == 0x2C { return TextEdit(range: SourceRange(start: UInt32(b), end: range.end), replacement: "") }
        // Alone on its line: the line goes, newline included.
        if b < 0 || bytes[b] == 0x0A, e >= bytes.count || bytes[e] == 0x0A || bytes[e] == 0x0D {
            let lineEnd = e < bytes.count ? (bytes[e] == 0x0D && e + 1 < bytes.count && bytes[e + 1] == 0x0A ? e + 2 : e + 1) : e
            return TextEdit(range: SourceRange(start: UInt32(b + 1), end: UInt32(lineEnd)), replacement: "")
        }
        return TextEdit(range: range, replacement: "")
    }
}

/// A mechanical fix: applying all of its edits yields source that no longer has
/// the problem. Edits never overlap.
public struct FixIt: Hashable, Sendable {
    /// Whether a tool may apply a fix without a person looking (rustc's terms).
    public enum Applicability: String, Hashable, Sendable {
        /// The fix keeps what the author meant: a pasted spelling written the `.anim`
        /// way (`1.0f` → `1.0`, `M_PI` → `180deg`), a bare number of seconds given its
        /// unit. `animc check --fix` and the editor's fix-all apply these.
        case machineApplicable = "machine-applicable"
        /// A guess (a typo's closest name, a missing comma): shown, offered one at a
        /// time, never applied in bulk.
        case maybeIncorrect = "maybe-incorrect"
    }

    public var message: String
    public var edits: [TextEdit]
    public var applicability: Applicability
    public init(_ message: String, edits: [TextEdit], applicability: Applicability = .maybeIncorrect) {
        precondition(!edits.isEmpty, "a fix-it needs at least one edit")
        self.message = message
        self.edits = edits
        self.applicability = applicability
    }

    public static func replace(_ range: SourceRange, with text: String, _ message: String,
                               applicability: Applicability = .maybeIncorrect) -> FixIt {
        FixIt(message, edits: [TextEdit(range: range, replacement: text)], applicability: applicability)
    }

    public static func insert(_ text: String, at offset: UInt32, _ message: String,
                              applicability: Applicability = .maybeIncorrect) -> FixIt {
        FixIt(message, edits: [TextEdit(range: .empty(at: offset), replacement: text)], applicability: applicability)
    }

    /// The fixes a tool applies in one go: each diagnostic's first machine-applicable
    /// fix, in order, skipping one whose edits touch an edit already taken (two fixes
    /// of one construct), with the code of the diagnostic each came from. The one
    /// selection `check --fix` and the editor's fix-all share.
    public static func applicableTogether(_ diagnostics: [Diagnostic]) -> [(code: DiagnosticCode, fix: FixIt)] {
        var taken: [(code: DiagnosticCode, fix: FixIt)] = []
        var used: [SourceRange] = []
        for d in diagnostics {
            guard let fix = d.fixIts.first(where: { $0.applicability == .machineApplicable }) else { continue }
            let overlaps = fix.edits.contains { e in
                used.contains { $0.start < e.range.end && e.range.start < $0.end || $0.start == e.range.start || $0.end == e.range.end && $0.start < e.range.end }
            }
            if overlaps { continue }
            taken.append((d.code, fix))
            used += fix.edits.map(\.range)
        }
        return taken
    }
}

/// One finding: what is wrong, where, and how to fix it.
public struct Diagnostic: Hashable, Sendable {
    public var code: DiagnosticCode
    public var severity: Severity
    /// One line, lower case, no trailing period; names the thing it is about.
    public var message: String
    /// The caret line: where the problem is.
    public var primary: Label
    /// Other places that explain the problem ("first defined here").
    public var secondary: [Label]
    public var notes: [Note]
    /// A suggestion in words ("did you mean 'opacity'?").
    public var help: String?
    public var fixIts: [FixIt]

    public init(code: DiagnosticCode, severity: Severity, message: String, primary: Label,
                secondary: [Label] = [], notes: [Note] = [], help: String? = nil, fixIts: [FixIt] = []) {
        self.code = code
        self.severity = severity
        self.message = message
        self.primary = primary
        self.secondary = secondary
        self.notes = notes
        self.help = help
        self.fixIts = fixIts
    }

    public var range: SourceRange { primary.range }

    /// Output order: by position, then code, then message, so output never depends on
    /// the order in which passes happened to find things.
    public static func ordered(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.primary.range.start != b.primary.range.start { return a.primary.range.start < b.primary.range.start }
        if a.code != b.code { return a.code < b.code }
        if a.primary.range.end != b.primary.range.end { return a.primary.range.end < b.primary.range.end }
        return a.message < b.message
    }
}

/// The static description of a diagnostic code: what `animc explain` prints and what
/// SARIF rules and docs are built from.
public struct DiagnosticDescriptor: Sendable, Hashable {
    public let code: DiagnosticCode
    /// A kebab-case name, stable like the code ("unterminated-string").
    public let name: String
    public let severity: Severity
    /// A one-line summary, sentence case, no trailing period.
    public let summary: String
    /// The long explanation in Markdown: what triggers it, why it matters, how to fix it,
    /// with a small example.
    public let explanation: String

    public init(_ code: DiagnosticCode, _ name: String, _ severity: Severity, _ summary: String, explanation: String) {
        self.code = code
        self.name = name
        self.severity = severity
        self.summary = summary
        self.explanation = explanation
    }

    /// A diagnostic of this kind with its default severity.
    public func at(_ range: SourceRange, _ message: String, label: String? = nil, secondary: [Label] = [],
                   notes: [Note] = [], help: String? = nil, fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(code: code, severity: severity, message: message, primary: Label(range, label),
                   secondary: secondary, notes: notes, help: help, fixIts: fixIts)
    }
}

/// Applies fix-it edits to source bytes. Edits are applied back to front so earlier
/// offsets stay valid; overlapping edits are a caller bug and are skipped.
public func applyEdits(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    var lastStart = Int.max
    for edit in edits.sorted(by: { $0.range.start > $1.range.start || ($0.range.start == $1.range.start && $0.range.end > $1.range.end) }) {
        let lo = min(Int(edit.range.start), result.count)
        let hi = min(Int(edit.range.end), result.count)
        guard hi <= lastStart else { continue }
        result.replaceSubrange(lo..<hi, with: Array(edit.replacement.utf8))
        lastStart = lo
    }
    return result
}
