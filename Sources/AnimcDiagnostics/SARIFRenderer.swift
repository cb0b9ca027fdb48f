import AnimcBase

/// SARIF 2.1.0 for code-scanning dashboards. Columns are Unicode code points
/// (`columnKind: unicodeCodePoints`); paths stay as given (repository-relative when
/// the user ran from the root), so fingerprints match across runs.
public enum SARIFRenderer {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    /// - Parameters:
    ///   - rules: every descriptor the tool knows, in code order; results point into it.
    public static func render(_ reports: [FileReport], rules: [DiagnosticDescriptor], toolVersion: String) -> JSONValue {
        let ruleIndex = Dictionary(rules.enumerated().map { ($0.element.code, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var results: [JSONValue] = []
        for report in reports {
            let index = LineIndex(report.file)
            var occurrences: [String: Int] = [:]
            let all = report.diagnostics.map { ($0, nil as String?) } + report.suppressed.map { ($0.diagnostic, $0.justification as String?) }
            for (d, justification) in all {
                var members: [JSONMember] = [
                    JSONMember("ruleId", .string(d.code.rawValue)),
                ]
                if let i = ruleIndex[d.code] { members.append(JSONMember("ruleIndex", .number(Double(i)))) }
                members.append(JSONMember("level", .string(d.severity == .error ? "error" : "warning")))
                var text = d.message
                if let help = d.help { text += " (help: \(help))" }
                members.append(JSONMember("message", .object([JSONMember("text", .string(text))])))
                members.append(JSONMember("locations", .array([location(report.file.name, d.primary.range, index)])))
                if !d.secondary.isEmpty {
                    members.append(JSONMember("relatedLocations", .array(d.secondary.enumerated().map { i, label in
                        var loc = location(report.file.name, label.range, index).objectValue ?? []
                        loc.insert(JSONMember("id", .number(Double(i))), at: 0)
                        if let m = label.message { loc.append(JSONMember("message", .object([JSONMember("text", .string(m))]))) }
                        return .object(loc)
                    })))
                }
                let lineText = String(decoding: index.lineBytes(index.lineNumber(ofOffset: Int(d.primary.range.start))), as: UTF8.self)
                let key = d.code.rawValue + "|" + lineText.trimmingSpaces()
                let occurrence = occurrences[key, default: 0] + 1
                occurrences[key] = occurrence
                members.append(JSONMember("partialFingerprints", .object([
                    JSONMember("primaryLocationLineHash", .string(fnv1a(key) + ":\(occurrence)"))
                ])))
                if !d.fixIts.isEmpty {
                    members.append(JSONMember("fixes", .array(d.fixIts.map { fix in
                        .object([
                            JSONMember("description", .object([JSONMember("text", .string(fix.message))])),
                            JSONMember("artifactChanges", .array([.object([
                                JSONMember("artifactLocation", .object([JSONMember("uri", .string(report.file.name))])),
                                JSONMember("replacements", .array(fix.edits.map { edit in
                                    .object([
                                        JSONMember("deletedRegion", region(edit.range, index)),
                                        JSONMember("insertedContent", .object([JSONMember("text", .string(edit.replacement))])),
                                    ])
                                })),
                            ])])),
                        ])
                    })))
                }
                if let justification {
                    members.append(JSONMember("suppressions", .array([.object([
                        JSONMember("kind", "inSource"), JSONMember("justification", .string(justification)),
                    ])])))
                }
                results.append(.object(members))
            }
        }
        let driver: JSONValue = .object([
            JSONMember("name", "animc"),
            JSONMember("version", .string(toolVersion)),
            JSONMember("informationUri", "https://github.com/animc/animc"),
            JSONMember("rules", .array(rules.map { rule in
                .object([
                    JSONMember("id", .string(rule.code.rawValue)),
                    JSONMember("name", .string(rule.name)),
                    JSONMember("shortDescription", .object([JSONMember("text", .string(rule.summary))])),
                    JSONMember("fullDescription", .object([JSONMember("text", .string(rule.explanation))])),
                    JSONMember("defaultConfiguration", .object([
                        JSONMember("level", .string(rule.severity == .error ? "error" : "warning")),
                    ])),
                    JSONMember("helpUri", .string("https://github.com/animc/animc/blob/main/docs/diagnostics.md#\(rule.code.rawValue.lowercased())")),
                ])
            })),
        ])
        return .object([
            JSONMember("$schema", .string(schemaURI)),
            JSONMember("version", "2.1.0"),
            JSONMember("runs", .array([.object([
                JSONMember("tool", .object([JSONMember("driver", driver)])),
                JSONMember("columnKind", "unicodeCodePoints"),
                JSONMember("results", .array(results)),
            ])])),
        ])
    }

    static func location(_ file: String, _ range: SourceRange, _ index: LineIndex) -> JSONValue {
        .object([JSONMember("physicalLocation", .object([
            JSONMember("artifactLocation", .object([JSONMember("uri", .string(file))])),
            JSONMember("region", region(range, index)),
        ]))])
    }

    static func region(_ range: SourceRange, _ index: LineIndex) -> JSONValue {
        let start = index.location(of: range.start)
        let end = index.location(of: range.end)
        return .object([
            JSONMember("startLine", .number(Double(start.line))),
            JSONMember("startColumn", .number(Double(start.column))),
            JSONMember("endLine", .number(Double(end.line))),
            JSONMember("endColumn", .number(Double(end.column))),
            JSONMember("charOffset", .number(Double(start.offset))),
            JSONMember("charLength", .number(Double(end.offset - start.offset))),
        ])
    }

    /// A stable 64-bit FNV-1a hash in hex: fingerprints must not change between runs,
    /// and Swift's `Hasher` is seeded per process.
    static func fnv1a(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        var lo = scalars.startIndex
        var hi = scalars.endIndex
        while lo < hi, scalars[lo] == " " || scalars[lo] == "\t" { lo = scalars.index(after: lo) }
        while hi > lo, scalars[scalars.index(before: hi)] == " " || scalars[scalars.index(before: hi)] == "\t" {
            hi = scalars.index(before: hi)
        }
        return String(scalars[lo..<hi])
    }
}
