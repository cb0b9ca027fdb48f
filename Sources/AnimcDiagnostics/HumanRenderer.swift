import AnimcBase

/// Renders diagnostics for people, in the style of rustc and swift-syntax:
///
/// ```
/// error[E0302]: unknown property 'opactiy' on layer 'logo'
///  --> intro.anim:7:5
///   |
/// 7 |     opactiy: 0
///   |     ^^^^^^^ not a property of layers
///   = help: did you mean 'opacity'?
/// ```
///
/// Colour is applied only when ``useColor`` is set; the driver decides that from the
/// terminal, `NO_COLOR` and `--color`.
public struct HumanRenderer: Sendable {
    public var useColor: Bool

    public init(useColor: Bool = false) { self.useColor = useColor }

    private enum Style: String {
        case error = "\u{1B}[1;31m", warning = "\u{1B}[1;33m", note = "\u{1B}[1;36m"
        case bold = "\u{1B}[1m", gutter = "\u{1B}[1;34m", reset = "\u{1B}[0m"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        useColor && !text.isEmpty ? style.rawValue + text + Style.reset.rawValue : text
    }

    private func severityStyle(_ s: Severity) -> Style { s == .error ? .error : .warning }

    /// Renders every diagnostic of one file, each followed by a blank line.
    public func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
        guard !diagnostics.isEmpty else { return "" }
        let index = LineIndex(file)
        return diagnostics.map { render($0, in: file, index: index) + "\n" }.joined()
    }

    /// Renders a report: its first ``FileReport/shownLimit`` diagnostics, then a line
    /// saying how many more there are.
    public func render(_ report: FileReport) -> String {
        var out = render(report.shown, in: report.file)
        if report.notShown > 0 {
            let errors = report.errorsNotShown, warnings = report.notShown - errors
            let kinds = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            out += paint("note", .note) + paint(": \(report.notShown) more diagnostic\(report.notShown == 1 ? "" : "s") in \(report.file.name) not shown: \(kinds)", .bold)
                + " (the \(FileReport.shownLimit) above are the first, errors before warnings)\n\n"
        }
        return out
    }

    /// Source lines wider than this many columns are shown cut around the label.
    public static let snippetWidth = 120

    /// Renders one diagnostic; `index` must be the line index of `file`.
    public func render(_ d: Diagnostic, in file: SourceFile, index: LineIndex) -> String {
        var out = ""
        let style = severityStyle(d.severity)
        out += paint("\(d.severity.rawValue)[\(d.code.rawValue)]", style) + paint(": \(d.message)", .bold) + "\n"

        let loc = index.location(of: d.primary.range.start)
        let labels = [(d.primary, true)] + d.secondary.map { ($0, false) }
        let lines = Set(labels.map { index.lineNumber(ofOffset: Int($0.0.range.start)) })
        let fixIts = d.fixIts.map { fixItRows($0, index: index) }
        // The gutter must fit every line number printed: labels, the context line between
        // two labels, and the lines of a fix-it (which can run past the labels' lines).
        var largest = lines.max() ?? 0
        for rows in fixIts { for row in rows.rows { if let n = row.number { largest = max(largest, n) } } }
        let gutterWidth = String(largest + 1).count
        let pad = String(repeating: " ", count: gutterWidth)
        let bar = paint("|", .gutter)

        out += "\(pad)\(paint("-->", .gutter)) \(file.name):\(loc.line):\(loc.column)\n"
        out += "\(pad) \(bar)\n"

        var previous: Int?
        for line in lines.sorted() {
            if let p = previous, line - p > 2 {
                out += paint("...", .gutter) + "\n"
            } else if let p = previous, line - p == 2 {
                let context = DisplayLine(index.lineBytes(p + 1))
                out += numbered(p + 2, context.clipped(around: 0, limit: HumanRenderer.snippetWidth).text, width: gutterWidth)
            }
            let display = DisplayLine(index.lineBytes(line))
            let lineRange = index.lineByteRange(line)
            var marks: [(start: Int, end: Int, label: Label, isPrimary: Bool)] = []
            for (label, isPrimary) in labels where index.lineNumber(ofOffset: Int(label.range.start)) == line {
                let startByte = Int(label.range.start) - lineRange.lowerBound
                let endByte = min(Int(label.range.end), lineRange.upperBound) - lineRange.lowerBound
                let startCol = display.column(ofByte: startByte)
                let endCol = max(display.column(ofByte: max(endByte, startByte)), startCol + 1)
                marks.append((startCol, endCol, label, isPrimary))
            }
            let focus = marks.map(\.start).min() ?? 0
            let (text, shift) = display.clipped(around: focus, limit: HumanRenderer.snippetWidth)
            let visibleWidth = display.width - shift + 3
            out += numbered(line + 1, text, width: gutterWidth)
            for mark in marks {
                let startCol = min(max(mark.start - shift, 0), visibleWidth)
                let endCol = min(max(mark.end - shift, startCol + 1), startCol + HumanRenderer.snippetWidth)
                let glyph = mark.isPrimary ? "^" : "-"
                var underline = String(repeating: " ", count: startCol)
                    + paint(String(repeating: glyph, count: endCol - startCol), mark.isPrimary ? style : .gutter)
                if let message = mark.label.message, !message.isEmpty {
                    underline += " " + paint(message, mark.isPrimary ? style : .gutter)
                }
                out += "\(pad) \(bar) \(underline)\n"
            }
            previous = line
        }

        for note in d.notes {
            var text = note.message
            if let range = note.range {
                text += " (at \(file.name):\(index.location(of: range.start)))"
            }
            out += "\(pad) \(paint("=", .gutter)) \(paint("note", .bold)): \(text)\n"
        }
        if let help = d.help {
            out += "\(pad) \(paint("=", .gutter)) \(paint("help", .bold)): \(help)\n"
        }
        for (fix, rows) in zip(d.fixIts, fixIts) {
            out += paint("help", .note) + paint(": \(fix.message)", .bold) + "\n"
            guard !rows.rows.isEmpty else { continue }
            out += "\(pad) \(paint("|", .gutter))\n"
            for row in rows.rows {
                let number = row.number.map { String($0 + 1) } ?? ""
                let gutter = paint(String(repeating: " ", count: gutterWidth - number.count) + number, .gutter)
                let marker = row.added ? paint("+", .note) : paint("|", .gutter)
                out += gutter + " " + marker + (row.text.isEmpty ? "" : " " + row.text) + "\n"
            }
            if !rows.underline.isEmpty { out += "\(pad) \(paint("|", .gutter)) \(rows.underline)\n" }
        }
        return out
    }

    private func numbered(_ number: Int, _ text: String, width: Int) -> String {
        let n = String(number)
        let padded = String(repeating: " ", count: max(0, width - n.count)) + n
        return paint(padded, .gutter) + " " + paint("|", .gutter) + (text.isEmpty ? "" : " " + text) + "\n"
    }

    /// The rows a fix-it shows: the fixed line when every edit falls on one line (with
    /// `~` under replaced text and `+` under inserted text), the resulting lines when an
    /// edit adds lines (the new ones marked `+`), and nothing when the edits span lines.
    private struct FixItRows {
        var rows: [(number: Int?, added: Bool, text: String)] = []
        var underline = ""
    }

    private func fixItRows(_ fix: FixIt, index: LineIndex) -> FixItRows {
        var result = FixItRows()
        let firstLine = index.lineNumber(ofOffset: Int(fix.edits[0].range.start))
        let sameLine = fix.edits.allSatisfy {
            index.lineNumber(ofOffset: Int($0.range.start)) == firstLine
                && index.lineNumber(ofOffset: Int($0.range.end)) == firstLine
        }
        guard sameLine else { return result }
        let lineRange = index.lineByteRange(firstLine)
        let original = Array(index.lineBytes(firstLine))
        var edited: [UInt8] = []
        var marks: [(Int, Int, Bool)] = []  // byte range in the edited line, and whether it is an insertion
        var cursor = 0
        for edit in fix.edits.sorted(by: { $0.range.start < $1.range.start }) {
            let lo = max(cursor, Int(edit.range.start) - lineRange.lowerBound)
            let hi = max(lo, min(Int(edit.range.end) - lineRange.lowerBound, original.count))
            guard lo <= original.count else { continue }
            edited += original[cursor..<lo]
            let begin = edited.count
            edited += Array(edit.replacement.utf8)
            marks.append((begin, edited.count, edit.range.isEmpty))
            cursor = hi
        }
        edited += original[min(cursor, original.count)...]
        var lines = edited.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.count > 1 {
            let added = lines.count - 1
            // An insertion at the end of the file leaves an empty last line; not worth a row.
            if lines.last?.isEmpty == true { lines.removeLast() }
            for (i, line) in lines.enumerated() {
                let text = DisplayLine(line).clipped(around: 0, limit: HumanRenderer.snippetWidth).text
                result.rows.append((firstLine + i, i < added, text))
            }
            return result
        }
        let display = DisplayLine(edited[...])
        let focus = marks.first.map { display.column(ofByte: $0.0) } ?? 0
        let (text, shift) = display.clipped(around: focus, limit: HumanRenderer.snippetWidth)
        result.rows.append((firstLine, false, text))
        var underline = ""
        var col = 0
        for (lo, hi, insertion) in marks where hi > lo {
            let a = display.column(ofByte: lo) - shift
            let b = display.column(ofByte: hi) - shift
            guard a >= col, a <= HumanRenderer.snippetWidth else { continue }
            underline += String(repeating: " ", count: a - col)
            let count = max(1, min(b, HumanRenderer.snippetWidth + 3) - a)
            underline += paint(String(repeating: insertion ? "+" : "~", count: count), .note)
            col = a + count
        }
        result.underline = underline
        return result
    }
}
