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
        // One artifact per file checked, findings or not (a project's libraries too):
        // each result's location points to its file's entry.
        var artifacts: [JSONValue] = []
        for (artifact, report) in reports.enumerated() {
            let index = LineIndex(report.file)
            let offsets = ScalarOffsets(index)
            let uri = fileURI(report.file.name)
            artifacts.append(.object([
                JSONMember("location", .object([JSONMember("uri", .string(uri))])),
                JSONMember("length", .number(Double(report.file.bytes.count))),
                JSONMember("roles", .array(["analysisTarget"])),
            ]))
            let location = { (range: SourceRange) in SARIFRenderer.location(uri, range, offsets, artifact: artifact) }
            var occurrences: [String: Int] = [:]
            let all = report.shown.map { ($0, nil as String?) } + report.shownSuppressed.map { ($0.diagnostic, $0.justification as String?) }
            for (d, justification) in all {
                var members: [JSONMember] = [
                    JSONMember("ruleId", .string(d.code.rawValue)),
                ]
                if let i = ruleIndex[d.code] { members.append(JSONMember("ruleIndex", .number(Double(i)))) }
                members.append(JSONMember("level", .string(d.severity == .error ? "error" : "warning")))
                var text = d.message
                if let help = d.help { text += " (help: \(help))" }
                members.append(JSONMember("message", .object([JSONMember("text", .string(text))])))
                members.append(JSONMember("locations", .array([location(d.primary.range)])))
                if !d.secondary.isEmpty {
                    members.append(JSONMember("relatedLocations", .array(d.secondary.enumerated().map { i, label in
                        var loc = location(label.range).objectValue ?? []
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
                                JSONMember("artifactLocation", .object([JSONMember("uri", .string(uri)),
                                                                        JSONMember("index", .number(Double(artifact)))])),
                                JSONMember("replacements", .array(fix.edits.map { edit in
                                    .object([
                                        JSONMember("deletedRegion", region(edit.range, offsets)),
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
        // No informationUri or helpUri: the project has no web site of its own, and a
        // link to somebody else's would mislead. Each rule carries its full explanation.
        let driver: JSONValue = .object([
            JSONMember("name", "animc"),
            JSONMember("version", .string(toolVersion)),
            JSONMember("rules", .array(rules.map { rule in
                .object([
                    JSONMember("id", .string(rule.code.rawValue)),
                    JSONMember("name", .string(rule.name)),
                    JSONMember("shortDescription", .object([JSONMember("text", .string(rule.summary))])),
                    JSONMember("fullDescription", .object([JSONMember("text", .string(rule.explanation))])),
                    JSONMember("help", .object([JSONMember("text", .string(rule.explanation)),
                                                JSONMember("markdown", .string(rule.explanation))])),
                    JSONMember("defaultConfiguration", .object([
                        JSONMember("level", .string(rule.severity == .error ? "error" : "warning")),
                    ])),
                ])
            })),
        ])
        var notifications: [JSONValue] = []
        for report in reports where report.notShown > 0 {
            notifications.append(.object([
                JSONMember("level", "note"),
                JSONMember("message", .object([JSONMember("text", .string(
                    "\(report.notShown) more results in \(report.file.name) are not included, \(report.errorsNotShown) of them errors "
                        + "(\(FileReport.shownLimit) are, errors first)"))])),
            ]))
        }
        return .object([
            JSONMember("$schema", .string(schemaURI)),
            JSONMember("version", "2.1.0"),
            JSONMember("runs", .array([.object([
                JSONMember("tool", .object([JSONMember("driver", driver)])),
                JSONMember("invocations", .array([.object([
                    JSONMember("executionSuccessful", true),
                    JSONMember("toolExecutionNotifications", .array(notifications)),
                ])])),
                JSONMember("columnKind", "unicodeCodePoints"),
                JSONMember("artifacts", .array(artifacts)),
                JSONMember("results", .array(results)),
            ])])),
        ])
    }

    static func location(_ uri: String, _ range: SourceRange, _ offsets: ScalarOffsets, artifact: Int) -> JSONValue {
        .object([JSONMember("physicalLocation", .object([
            JSONMember("artifactLocation", .object([JSONMember("uri", .string(uri)), JSONMember("index", .number(Double(artifact)))])),
            JSONMember("region", region(range, offsets)),
        ]))])
    }

    /// Lines and columns as everywhere, and `charOffset`/`charLength` in the unit
    /// `columnKind` declares: Unicode code points, not bytes.
    static func region(_ range: SourceRange, _ offsets: ScalarOffsets) -> JSONValue {
        let start = offsets.index.location(of: range.start)
        let end = offsets.index.location(of: range.end)
        let startOffset = offsets.scalarOffset(start)
        return .object([
            JSONMember("startLine", .number(Double(start.line))),
            JSONMember("startColumn", .number(Double(start.column))),
            JSONMember("endLine", .number(Double(end.line))),
            JSONMember("endColumn", .number(Double(end.column))),
            JSONMember("charOffset", .number(Double(startOffset))),
            JSONMember("charLength", .number(Double(offsets.scalarOffset(end) - startOffset))),
        ])
    }

    /// A relative path as a URI reference (RFC 3986): every byte outside the unreserved
    /// set and the path punctuation is percent-encoded, so spaces, `#`, `%` and
    /// non-ASCII names survive consumers that parse the URI.
    public static func fileURI(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E,  // A-Z a-z 0-9 - . _ ~
                 0x2F, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, 0x40:  // / ! $ & ' ( ) * + , ; = @
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
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

/// Code-point offsets of positions in one file: the scalars before each line start,
/// counted once, so each offset costs a line lookup rather than a scan from the start.
struct ScalarOffsets {
    let index: LineIndex
    private let lineStarts: [Int]

    init(_ index: LineIndex) {
        self.index = index
        var starts: [Int] = []
        starts.reserveCapacity(index.lineStarts.count)
        var count = 0
        var previous = 0
        for start in index.lineStarts {
            count += index.scalarCount(from: previous, to: start)
            starts.append(count)
            previous = start
        }
        lineStarts = starts
    }

    func scalarOffset(_ location: SourceLocation) -> Int {
        lineStarts[max(0, min(location.line - 1, lineStarts.count - 1))] + location.column - 1
    }
}
