import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcSyntax

extension LanguageServer {
    // MARK: Fixes

    static let applyEditCommand = "animc.applyEdit"

    /// The fix-its of the diagnostics in the range (quick fixes) and all of them at
    /// once (`source.fixAll`). A client without code action literals gets commands
    /// that apply the same edits through `workspace/applyEdit`.
    func codeActions(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try checkedAnalysis(r)
        let wanted = r["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
        func wants(_ kind: String) -> Bool { wanted.map { $0.contains { kind.hasPrefix($0) } } ?? true }
        let range = a.positions.range(r["range"]) ?? SourceRange(start: 0, end: UInt32(clamping: a.file.bytes.count))
        var actions: [(title: String, kind: String, edit: JSONValue, diagnostic: Diagnostic?, preferred: Bool)] = []
        func edit(_ fixes: [FixIt]) -> JSONValue {
            let edits: [JSONValue] = fixes.flatMap(\.edits).map {
                obj(("range", a.positions.json($0.range)), ("newText", .string($0.replacement)))
            }
            return workspaceEdit([(doc.uri, edits)])
        }
        if wants("quickfix") {
            for d in a.result.diagnostics where d.range.start <= range.end && range.start <= d.range.end {
                for fix in d.fixIts {
                    actions.append((fix.message.capitalizedFirst, "quickfix", edit([fix]), d, d.fixIts.count == 1))
                }
            }
        }
        // What `animc check --fix` does: every fix that keeps the meaning, re-checked
        // until none applies; guesses (a typo's closest name) stay one at a time above.
        if wants("source.fixAll.animc"), !FixIt.applicableTogether(a.result.diagnostics).isEmpty {
            let outcome = Pipeline.fix(a.file, checked: a.result, loader: loader(besides: a.uri), cache: modules)
            if outcome.changed {
                let n = outcome.applied.count
                let change = Self.smallestEdit(from: a.file.bytes, to: outcome.bytes)
                let edits = [obj(("range", a.positions.json(change.range)), ("newText", .string(change.replacement)))]
                actions.append(("Apply all \(n) animc fix\(n == 1 ? "" : "es") that keep the meaning", "source.fixAll.animc",
                                workspaceEdit([(doc.uri, edits)]), nil, false))
            }
        }
        for refactoring in refactorings(a, in: range, wants: wants) {
            let edits: [JSONValue] = refactoring.edits.map {
                obj(("range", a.positions.json($0.range)), ("newText", .string($0.replacement)))
            }
            actions.append((refactoring.title, refactoring.kind, workspaceEdit([(doc.uri, edits)]), nil, false))
        }
        if client.codeActionLiterals {
            return .array(actions.map { action in
                obj(("title", .string(action.title)), ("kind", .string(action.kind)),
                    ("diagnostics", action.diagnostic.map { .array([lspDiagnostic($0, a, uri: doc.uri)]) }),
                    ("isPreferred", action.preferred ? true : nil), ("edit", action.edit))
            })
        }
        return .array(actions.map { action in
            obj(("title", .string(action.title)), ("command", .string(Self.applyEditCommand)), ("arguments", .array([action.edit])))
        })
    }

    /// One edit turning `old` into `new`: the bytes between their common prefix and
    /// suffix, on character boundaries, so the cursor outside it stays where it was.
    static func smallestEdit(from old: [UInt8], to new: [UInt8]) -> TextEdit {
        var (prefix, suffix) = commonEnds(old, new)
        // Back off to character boundaries: the edit's ends become UTF-16 positions.
        while prefix > 0, prefix < old.count, old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
        while suffix > 0, old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        let replaced = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
        return TextEdit(range: SourceRange(prefix, old.count - suffix), replacement: replaced)
    }

    /// Runs a command a code action carried: asks the client to apply its edit.
    func applyEdit(_ arguments: [JSONValue], _ r: inout Request) throws(RequestError) -> JSONValue {
        guard let edit = arguments.first, arguments.count == 1 else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "\(Self.applyEditCommand) takes one workspace edit")
        }
        nextRequestID += 1
        r.notifications.append(obj(("jsonrpc", "2.0"), ("id", .string("animc-\(nextRequestID)")), ("method", "workspace/applyEdit"),
                                   ("params", obj(("label", "animc fix"), ("edit", edit)))))
        return .null
    }

    // MARK: Formatting

    /// The edits that make the document (or the lines of a range) what `animc fmt`
    /// makes it. The formatter changes only whitespace between tokens, so the edits are
    /// the gaps between tokens and comments that differ: a range's edits never reach
    /// outside it. A file with syntax errors is refused with the reason.
    func formatting(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        let formatted: String
        switch SourceFormatter.format(a.file) {
        case .success(let text): formatted = text
        case .failure(.syntaxErrors(let count)):
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed,
                               message: "animc fmt leaves a file with syntax errors alone: fix the \(count) error\(count == 1 ? "" : "s") first")
        case .failure(.wouldChangeMeaning):
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "animc fmt could not format this file without changing it")
        }
        let only = r["range"] == nil ? nil : a.positions.range(r["range"])
        if r["range"] != nil && only == nil {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing or invalid range")
        }
        guard let edits = Self.gapEdits(a.file, formatted: formatted, within: only) else {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "animc fmt could not format this file without changing it")
        }
        return .array(edits.map { obj(("range", a.positions.json($0.range)), ("newText", .string($0.text))) })
    }

    /// The whitespace edits from `file` to `formatted`, gap by gap between tokens and
    /// comments; with `range`, only what lies inside it, line ends kept as they are.
    /// Nil when the two do not hold the same tokens and comments.
    static func gapEdits(_ file: SourceFile, formatted: String, within range: SourceRange?) -> [(range: SourceRange, text: String)]? {
        let new = SourceFile(name: file.name, text: formatted)
        func atoms(_ f: SourceFile) -> [SourceRange] {
            let lexed = Lexer.lex(f)
            return (lexed.tokens.filter { $0.kind != .eof }.map(\.range) + lexed.comments).sorted { $0.start < $1.start }
        }
        let old = atoms(file), now = atoms(new)
        guard old.count == now.count, zip(old, now).allSatisfy({ file.bytes[Int($0.start)..<Int($0.end)] == new.bytes[Int($1.start)..<Int($1.end)] }) else {
            return nil
        }
        var edits: [(range: SourceRange, text: String)] = []
        for i in 0...old.count {
            let a = i == 0 ? 0 : Int(old[i - 1].end), b = i == old.count ? file.bytes.count : Int(old[i].start)
            let c = i == 0 ? 0 : Int(now[i - 1].end), d = i == now.count ? new.bytes.count : Int(now[i].start)
            let was = Array(file.bytes[a..<b]), becomes = Array(new.bytes[c..<d])
            guard was != becomes else { continue }
            guard let range else {
                edits.append((SourceRange(start: UInt32(a), end: UInt32(b)), String(decoding: becomes, as: UTF8.self)))
                continue
            }
            edits += lineEdits(was, at: a, becomes: becomes, within: range)
        }
        return edits
    }

    /// A gap's edits inside `range`, line by line when the formatter kept its line
    /// breaks (each line's trailing spaces and indentation), else the whole gap when it
    /// lies inside the range. The file's own line ends are kept.
    private static func lineEdits(_ was: [UInt8], at start: Int, becomes: [UInt8], within range: SourceRange) -> [(range: SourceRange, text: String)] {
        let breaks = was.indices.filter { was[$0] == 0x0A }
        let newLines = becomes.split(separator: 0x0A, omittingEmptySubsequences: false)
        func inside(_ a: Int, _ b: Int) -> Bool { a >= Int(range.start) && b <= Int(range.end) }
        guard breaks.count == newLines.count - 1 else {
            guard inside(start, start + was.count) else { return [] }
            let crlf = was.contains(0x0D)
            let text = String(decoding: becomes, as: UTF8.self)
            return [(SourceRange(start: UInt32(start), end: UInt32(start + was.count)), crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text)]
        }
        var edits: [(range: SourceRange, text: String)] = []
        var segmentStart = 0
        for (k, line) in newLines.enumerated() {
            var segmentEnd = k < breaks.count ? breaks[k] : was.count
            if k < breaks.count, segmentEnd > segmentStart, was[segmentEnd - 1] == 0x0D { segmentEnd -= 1 }
            let old = was[segmentStart..<segmentEnd]
            if Array(old) != Array(line), inside(start + segmentStart, start + segmentEnd) {
                edits.append((SourceRange(start: UInt32(start + segmentStart), end: UInt32(start + segmentEnd)), String(decoding: line, as: UTF8.self)))
            }
            segmentStart = k < breaks.count ? breaks[k] + 1 : was.count
        }
        return edits
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
