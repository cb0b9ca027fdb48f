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

    /// Renders one diagnostic; `index` must be the line index of `file`.
    public func render(_ d: Diagnostic, in file: SourceFile, index: LineIndex) -> String {
        var out = ""
        let style = severityStyle(d.severity)
        out += paint("\(d.severity.rawValue)[\(d.code.rawValue)]", style) + paint(": \(d.message)", .bold) + "\n"

        let loc = index.location(of: d.primary.range.start)
        let labels = [(d.primary, true)] + d.secondary.map { ($0, false) }
        let lines = Set(labels.map { index.lineNumber(ofOffset: Int($0.0.range.start)) })
        let maxLine = (lines.max() ?? 0) + 1
        let gutterWidth = String(maxLine).count
        let pad = String(repeating: " ", count: gutterWidth)
        let bar = paint("|", .gutter)

        out += "\(pad)\(paint("-->", .gutter)) \(file.name):\(loc.line):\(loc.column)\n"
        out += "\(pad) \(bar)\n"

        var previous: Int?
        for line in lines.sorted() {
            if let p = previous, line - p > 2 {
                out += paint("...", .gutter) + "\n"
            } else if let p = previous, line - p == 2 {
                out += sourceLine(p + 1, index: index, width: gutterWidth)
            }
            out += sourceLine(line, index: index, width: gutterWidth)
            let display = DisplayLine(index.lineBytes(line))
            let lineRange = index.lineByteRange(line)
            for (label, isPrimary) in labels where index.lineNumber(ofOffset: Int(label.range.start)) == line {
                let startByte = Int(label.range.start) - lineRange.lowerBound
                let endByte = min(Int(label.range.end), lineRange.upperBound) - lineRange.lowerBound
                let startCol = display.column(ofByte: startByte)
                let endCol = max(display.column(ofByte: max(endByte, startByte)), startCol + 1)
                let mark = String(repeating: isPrimary ? "^" : "-", count: endCol - startCol)
                var underline = String(repeating: " ", count: startCol) + paint(mark, isPrimary ? style : .gutter)
                if let message = label.message, !message.isEmpty {
                    underline += " " + paint(message, isPrimary ? style : .gutter)
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
        for fix in d.fixIts {
            out += renderFixIt(fix, file: file, index: index, gutterWidth: gutterWidth)
        }
        return out
    }

    private func sourceLine(_ line: Int, index: LineIndex, width: Int) -> String {
        let number = String(line + 1)
        let padded = String(repeating: " ", count: width - number.count) + number
        let text = DisplayLine(index.lineBytes(line)).text
        return paint(padded, .gutter) + " " + paint("|", .gutter) + (text.isEmpty ? "" : " " + text) + "\n"
    }

    /// Shows the fixed line when every edit falls on one line; otherwise only the message.
    /// An edit that inserts line breaks (adding an attribute on its own line) shows the
    /// resulting lines, the new ones marked `+` in the gutter.
    private func renderFixIt(_ fix: FixIt, file: SourceFile, index: LineIndex, gutterWidth: Int) -> String {
        var out = paint("help", .note) + paint(": \(fix.message)", .bold) + "\n"
        let firstLine = index.lineNumber(ofOffset: Int(fix.edits[0].range.start))
        let sameLine = fix.edits.allSatisfy {
            index.lineNumber(ofOffset: Int($0.range.start)) == firstLine
                && index.lineNumber(ofOffset: Int($0.range.end)) == firstLine
        }
        guard sameLine else { return out }
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
        let pad = String(repeating: " ", count: gutterWidth)
        out += "\(pad) \(paint("|", .gutter))\n"
        var lines = edited.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.count > 1 {
            let added = lines.count - 1
            // An insertion at the end of the file leaves an empty last line; not worth a row.
            if lines.last?.isEmpty == true { lines.removeLast() }
            let width = max(gutterWidth, String(firstLine + lines.count).count)
            for (i, line) in lines.enumerated() {
                let number = String(firstLine + 1 + i)
                let display = DisplayLine(line)
                out += paint(String(repeating: " ", count: width - number.count) + number, .gutter) + " "
                    + (i < added ? paint("+", .note) : paint("|", .gutter)) + (display.text.isEmpty ? "" : " " + display.text) + "\n"
            }
            return out
        }
        let number = String(firstLine + 1)
        let display = DisplayLine(edited[...])
        out += paint(String(repeating: " ", count: gutterWidth - number.count) + number, .gutter) + " "
            + paint("|", .gutter) + (display.text.isEmpty ? "" : " " + display.text) + "\n"
        var underline = ""
        var col = 0
        for (lo, hi, insertion) in marks where hi > lo {
            let a = display.column(ofByte: lo)
            let b = display.column(ofByte: hi)
            guard a >= col else { continue }
            underline += String(repeating: " ", count: a - col)
            underline += paint(String(repeating: insertion ? "+" : "~", count: max(1, b - a)), .note)
            col = max(b, a + 1)
        }
        if !underline.isEmpty { out += "\(pad) \(paint("|", .gutter)) \(underline)\n" }
        return out
    }
}
