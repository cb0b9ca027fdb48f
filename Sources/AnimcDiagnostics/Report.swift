import AnimcBase

/// A diagnostic that an inline `// animc-ignore CODE: reason` comment silenced. It is
/// not printed for people, but machine formats (SARIF) still carry it, marked as
/// suppressed, so dashboards can audit suppressions.
public struct SuppressedDiagnostic: Hashable, Sendable {
    public var diagnostic: Diagnostic
    public var justification: String
    public init(_ diagnostic: Diagnostic, justification: String) {
        self.diagnostic = diagnostic
        self.justification = justification
    }
}

/// Everything found in one file, in output order.
public struct FileReport: Sendable {
    /// Renderers show at most this many diagnostics per file and say how many more
    /// there were: past a few hundred, more messages help nobody, and a generated or
    /// corrupt file can carry one per line.
    public static let shownLimit = 200

    public var file: SourceFile
    public var diagnostics: [Diagnostic]
    public var suppressed: [SuppressedDiagnostic]

    public init(file: SourceFile, diagnostics: [Diagnostic], suppressed: [SuppressedDiagnostic] = []) {
        self.file = file
        self.diagnostics = diagnostics.sorted(by: Diagnostic.ordered)
        self.suppressed = suppressed
    }

    /// Counts cover every diagnostic, shown or not, so exit codes and summaries stay true.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// The diagnostics renderers print: all of them in output order, or past
    /// ``shownLimit`` the errors first and then the warnings, up to the limit, so that
    /// what fails a build is never among those left out while a warning is shown.
    public var shown: [Diagnostic] {
        guard diagnostics.count > FileReport.shownLimit else { return diagnostics }
        let errors = diagnostics.filter { $0.severity == .error }
        let others = diagnostics.filter { $0.severity != .error }
        return Array((errors + others).prefix(FileReport.shownLimit))
    }
    public var shownSuppressed: ArraySlice<SuppressedDiagnostic> { suppressed.prefix(FileReport.shownLimit) }
    /// How many diagnostics were left out of ``shown``, and how many of those are errors.
    public var notShown: Int { max(0, diagnostics.count - FileReport.shownLimit) }
    public var errorsNotShown: Int { max(0, errorCount - FileReport.shownLimit) }
}

/// JSON Lines for editors and scripts: one object per diagnostic, then a summary
/// object. Lines and columns are 1-based (columns count Unicode scalars); offsets are
/// 0-based bytes. Consumers must ignore fields they do not know: new ones may appear.
public enum JSONLinesRenderer {
    public static let schemaVersion = 1

    public static func render(_ reports: [FileReport]) -> String {
        var out: [UInt8] = []
        for report in reports {
            let index = LineIndex(report.file)
            for d in report.shown {
                out += object(d, file: report.file.name, index: index).serialized(style: .compact)
                out.append(0x0A)
            }
        }
        out += summary(reports).serialized(style: .compact)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    public static func summary(_ reports: [FileReport]) -> JSONValue {
        .object([
            JSONMember("type", "summary"),
            JSONMember("schemaVersion", .number(Double(schemaVersion))),
            JSONMember("files", .number(Double(reports.count))),
            JSONMember("errors", .number(Double(reports.reduce(0) { $0 + $1.errorCount }))),
            JSONMember("warnings", .number(Double(reports.reduce(0) { $0 + $1.warningCount }))),
            JSONMember("notShown", .number(Double(reports.reduce(0) { $0 + $1.notShown }))),
        ])
    }

    public static func object(_ d: Diagnostic, file: String, index: LineIndex) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("type", "diagnostic"),
            JSONMember("schemaVersion", .number(Double(schemaVersion))),
            JSONMember("file", .string(file)),
            JSONMember("code", .string(d.code.rawValue)),
            JSONMember("severity", .string(d.severity.rawValue)),
            JSONMember("message", .string(d.message)),
            JSONMember("range", range(d.primary.range, index)),
        ]
        if let label = d.primary.message { members.append(JSONMember("label", .string(label))) }
        members.append(JSONMember("labels", .array(d.secondary.map { label in
            var m = [JSONMember("range", range(label.range, index))]
            if let text = label.message { m.append(JSONMember("message", .string(text))) }
            return .object(m)
        })))
        members.append(JSONMember("notes", .array(d.notes.map { note in
            var m = [JSONMember("message", .string(note.message))]
            if let r = note.range { m.append(JSONMember("range", range(r, index))) }
            return .object(m)
        })))
        if let help = d.help { members.append(JSONMember("help", .string(help))) }
        members.append(JSONMember("fixes", .array(d.fixIts.map { fix in
            .object([
                JSONMember("message", .string(fix.message)),
                JSONMember("applicability", .string(fix.applicability.rawValue)),
                JSONMember("edits", .array(fix.edits.map { edit in
                    .object([JSONMember("range", range(edit.range, index)),
                             JSONMember("newText", .string(edit.replacement))])
                })),
            ])
        })))
        return .object(members)
    }

    static func range(_ r: SourceRange, _ index: LineIndex) -> JSONValue {
        .object([JSONMember("start", location(index.location(of: r.start))),
                 JSONMember("end", location(index.location(of: r.end)))])
    }

    static func location(_ l: SourceLocation) -> JSONValue {
        .object([JSONMember("line", .number(Double(l.line))), JSONMember("column", .number(Double(l.column))),
                 JSONMember("offset", .number(Double(l.offset)))])
    }
}

/// GitHub Actions workflow commands (`::error file=...::message`), one per line on
/// stdout where the runner reads them.
public enum GitHubRenderer {
    public static func render(_ reports: [FileReport]) -> String {
        var out = ""
        for report in reports {
            let index = LineIndex(report.file)
            for d in report.shown {
                let start = index.location(of: d.primary.range.start)
                let end = index.location(of: d.primary.range.end)
                let command = d.severity == .error ? "error" : "warning"
                var message = d.message
                if let help = d.help { message += "\nhelp: " + help }
                out += "::\(command) file=\(escapeProperty(report.file.name)),line=\(start.line),col=\(start.column)"
                    + ",endLine=\(end.line),endColumn=\(end.column),title=\(escapeProperty("animc \(d.code.rawValue)"))"
                    + "::\(escapeData(message))\n"
            }
        }
        return out
    }

    /// Escapes a command's message, as actions/toolkit does: `%` first, then CR and LF.
    public static func escapeData(_ s: String) -> String {
        s.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    /// Escapes a property value: the message escapes plus `:` and `,`, which delimit properties.
    public static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    /// Foundation-free `replacingOccurrences`, on Unicode scalars.
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        let t = Array(target.unicodeScalars)
        let s = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            if i + t.count <= s.count, Array(s[i..<(i + t.count)]) == t {
                result.append(contentsOf: replacement.unicodeScalars)
                i += t.count
            } else {
                result.append(s[i])
                i += 1
            }
        }
        return String(result)
    }
}
