import AnimcBase
import AnimcCompiler
import AnimcDiagnostics

extension LanguageServer {
    func publishDiagnostics(_ doc: Document, _ a: Analysis) -> JSONValue {
        let items = a.result.diagnostics.map { lspDiagnostic($0, a, uri: doc.uri) }
        return JSONRPC.notification("textDocument/publishDiagnostics",
                                    obj(("uri", .string(doc.uri)), ("version", .number(Double(a.version))), ("diagnostics", .array(items))))
    }

    /// A document past the size limit gets one message, as `animc check` gives one.
    func publishTooLarge(_ doc: Document) -> JSONValue {
        let start = obj(("line", 0), ("character", 0))
        let item = obj(("range", obj(("start", start), ("end", start))), ("severity", 1), ("source", "animc"),
                       ("message", .string("this document is \(Pipeline.sourceTooLarge): it is not checked")))
        return JSONRPC.notification("textDocument/publishDiagnostics",
                                    obj(("uri", .string(doc.uri)), ("version", .number(Double(doc.version))), ("diagnostics", [item])))
    }

    func lspDiagnostic(_ d: Diagnostic, _ a: Analysis, uri: String) -> JSONValue {
        var message = d.message
        if let label = d.primary.message { message += ": " + label }
        if let help = d.help { message += "\nhelp: " + help }
        var related: [JSONValue] = d.secondary.map {
            obj(("location", obj(("uri", .string(uri)), ("range", a.positions.json($0.range)))), ("message", .string($0.message ?? "")))
        }
        for note in d.notes {
            if let r = note.range {
                related.append(obj(("location", obj(("uri", .string(uri)), ("range", a.positions.json(r)))), ("message", .string(note.message))))
            } else {
                message += "\nnote: " + note.message
            }
        }
        let unnecessary: Set<String> = ["W0310", "W0511"]
        return obj(
            ("range", a.positions.json(d.range)),
            ("severity", .number(d.severity == .error ? 1 : 2)),
            ("code", .string(d.code.rawValue)),
            ("source", "animc"),
            ("message", .string(message)),
            ("tags", unnecessary.contains(d.code.rawValue) ? [1] : nil),
            ("relatedInformation", related.isEmpty ? nil : .array(related)),
            ("data", d.fixIts.isEmpty ? nil : obj(("fixes", .number(Double(d.fixIts.count))))))
    }

    /// Text written as Markdown, as the client can show it: Markdown when it said so,
    /// else plain text without fences and backticks.
    func markup(_ markdown: String) -> JSONValue {
        guard !client.markdownHover else { return obj(("kind", "markdown"), ("value", .string(markdown))) }
        return obj(("kind", "plaintext"), ("value", .string(Self.plainText(markdown))))
    }

    static func plainText(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("```") }
            .map { $0.replacingOccurrences(of: "`", with: "") }
            .joined(separator: "\n")
    }
}
