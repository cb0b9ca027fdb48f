import AnimcBase
import AnimcDiagnostics

/// Inline suppression comments:
///
/// ```
/// // animc-ignore W0501: the flash is hidden behind the logo
/// basic opacity { ... }
/// ```
///
/// A comment alone on its line silences the listed codes on the next line that holds
/// code; a comment after code silences them on its own line; `animc-ignore-file`
/// silences them in the whole file. Only warnings can be silenced. A directive that
/// silences nothing is itself reported, so stale suppressions do not pile up.
public enum Suppressions {
    public static let unused = DiagnosticDescriptor(
        "W0701", "unused-suppression", .warning, "A suppression comment that silences nothing",
        explanation: """
        An `// animc-ignore CODE` comment did not match any diagnostic with that code on \
        the line it applies to (the next line of code, or its own line when it follows \
        code). The problem was probably fixed; remove the comment so it cannot hide a \
        future one.
        """)

    public static let unknownCode = DiagnosticDescriptor(
        "W0702", "unknown-suppression-code", .warning, "A suppression comment names a code that does not exist",
        explanation: """
        The codes in `// animc-ignore` must be diagnostic codes such as `W0501`; \
        `animc explain --list` lists them.
        """)

    public static let notSuppressible = DiagnosticDescriptor(
        "W0703", "error-not-suppressible", .warning, "A suppression comment names an error",
        explanation: """
        Errors mean the file cannot be compiled, so they cannot be silenced; only \
        warnings can. Fix the error instead.
        """)

    public static let all = [unused, unknownCode, notSuppressible]

    struct Directive {
        var codes: [(code: String, range: SourceRange)]
        var reason: String
        var range: SourceRange
        /// The 0-based line it applies to, or nil for the whole file.
        var line: Int?
        var used: Set<String> = []
    }

    /// Splits `diagnostics` into those that remain and those silenced, adding
    /// diagnostics about the directives themselves.
    public static func apply(_ diagnostics: [Diagnostic], comments: [SourceRange], file: SourceFile,
                             knownCodes: Set<String>) -> (kept: [Diagnostic], suppressed: [SuppressedDiagnostic]) {
        var directives = parse(comments, file: file)
        guard !directives.isEmpty else { return (diagnostics, []) }
        let index = LineIndex(file)
        var kept: [Diagnostic] = []
        var suppressed: [SuppressedDiagnostic] = []
        var extra: [Diagnostic] = []
        for i in directives.indices {
            for (code, range) in directives[i].codes {
                if !knownCodes.contains(code) {
                    extra.append(unknownCode.at(range, "'\(code)' is not a diagnostic code",
                                                help: "'animc explain --list' lists every code"))
                    directives[i].used.insert(code)
                } else if code.hasPrefix("E") {
                    extra.append(notSuppressible.at(range, "error \(code) cannot be suppressed", help: "fix the error instead"))
                    directives[i].used.insert(code)
                }
            }
        }
        for d in diagnostics {
            let line = index.lineNumber(ofOffset: Int(d.range.start))
            let match = directives.indices.first { i in
                d.severity == .warning && (directives[i].line == nil || directives[i].line == line)
                    && directives[i].codes.contains { $0.code == d.code.rawValue }
            }
            if let i = match {
                directives[i].used.insert(d.code.rawValue)
                suppressed.append(SuppressedDiagnostic(d, justification: directives[i].reason))
            } else {
                kept.append(d)
            }
        }
        for directive in directives {
            for (code, range) in directive.codes where !directive.used.contains(code) {
                extra.append(unused.at(range, "suppression of \(code) silences nothing",
                                       fixIts: [.replace(directive.range, with: "", "remove the comment",
                                                          // Removing a comment that still silences another code would un-silence it.
                                                          applicability: directive.codes.allSatisfy { !directive.used.contains($0.0) }
                                                              ? .machineApplicable : .maybeIncorrect)]))
            }
        }
        return (kept + extra, suppressed)
    }

    static func parse(_ comments: [SourceRange], file: SourceFile) -> [Directive] {
        // Most files have no directives: look for the prefix before building anything.
        let prefix = Array("// animc-ignore".utf8)
        let candidates = comments.filter { r in
            r.length >= prefix.count && file.bytes[Int(r.start)..<(Int(r.start) + prefix.count)].elementsEqual(prefix)
        }
        guard !candidates.isEmpty else { return [] }
        let index = LineIndex(file)
        var codeLines = CodeLines(index: index, commentStarts: Set(comments.map { Int($0.start) }))
        var result: [Directive] = []
        for range in candidates {
            let text = file.text(range)
            let fileWide: Bool
            let prefixLength: Int
            if text.hasPrefix("// animc-ignore-file") {
                fileWide = true
                prefixLength = "// animc-ignore-file".utf8.count
            } else if text.hasPrefix("// animc-ignore") {
                fileWide = false
                prefixLength = "// animc-ignore".utf8.count
            } else {
                continue
            }
            let bytes = Array(text.utf8)
            var i = prefixLength
            var codes: [(String, SourceRange)] = []
            while i < bytes.count {
                while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x2C { i += 1 }
                let start = i
                while i < bytes.count, (bytes[i] >= 0x30 && bytes[i] <= 0x39) || (bytes[i] >= 0x41 && bytes[i] <= 0x5A) { i += 1 }
                if i == start { break }
                codes.append((String(decoding: bytes[start..<i], as: UTF8.self),
                              SourceRange(Int(range.start) + start, Int(range.start) + i)))
            }
            var reason = ""
            if i < bytes.count, bytes[i] == 0x3A {
                reason = String(decoding: bytes[(i + 1)...], as: UTF8.self).trimmingSpacesAround
            }
            guard !codes.isEmpty else { continue }
            var line: Int?
            if !fileWide {
                let commentLine = index.lineNumber(ofOffset: Int(range.start))
                let lineStart = index.lineStarts[commentLine]
                let before = file.bytes[lineStart..<Int(range.start)]
                if before.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    line = codeLines.next(after: commentLine)
                } else {
                    line = commentLine
                }
            }
            result.append(Directive(codes: codes, reason: reason, range: range, line: line))
        }
        return result
    }

    /// Finds the line a directive on a line of its own applies to: the first after it
    /// that is neither blank nor only a comment. Each line is looked at once however
    /// many directives stand above it: a file of thousands of directive lines, each
    /// searching every comment and every directive line below it, was quadratic.
    private struct CodeLines {
        let index: LineIndex
        let commentStarts: Set<Int>
        /// For lines already walked over: the first code line at or after them.
        var firstCodeFrom: [Int: Int] = [:]

        mutating func next(after line: Int) -> Int {
            var walked: [Int] = []
            var l = line + 1
            while l < index.lineCount {
                if let known = firstCodeFrom[l] {
                    l = known
                    break
                }
                let range = index.lineByteRange(l)
                if let first = index.bytes[range].firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), !commentStarts.contains(first) { break }
                walked.append(l)
                l += 1
            }
            for w in walked { firstCodeFrom[w] = l }
            return l
        }
    }
}
