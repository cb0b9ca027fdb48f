import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcLottie
import AnimcPreview
import AnimcRender
import AnimcTestSupport
import Testing

/// docs/diagnostics.md and docs/properties.md are generated from the registry and the
/// property table, so the documentation cannot drift from the code. Regenerate with
/// `ANIMC_UPDATE_GOLDENS=1 swift test`.
@Suite struct GeneratedDocsTests {
    @Test func diagnosticsReferenceIsCurrent() {
        var out = """
        # Diagnostics

        Every diagnostic animc can report, by code. `animc explain CODE` prints the same
        text; `animc explain --list` lists the codes. Codes are stable and never reused.
        E01xx are lexical, E02xx syntax, E03xx names, types and evaluation, E04xx animation
        and timing rules, W05xx Core Animation pitfalls, E06xx the build, W07xx
        suppression comments. Warnings can be silenced with
        `// animc-ignore CODE: reason` (see [language.md](language.md#suppressing-a-warning)).

        Every stage reports in one run: the checker also runs on a file with syntax errors,
        so a typo does not hide name, type or rule findings elsewhere, and errors do not hide
        warnings. A construct that holds a syntax error is not checked further (what the
        parser recovered there is a guess), so one mistake gives one message.

        This file is generated from the diagnostic registry by the test suite.

        | code | name | severity | summary |
        |---|---|---|---|

        """
        for d in DiagnosticRegistry.all {
            out += "| [\(d.code.rawValue)](#\(d.code.rawValue.lowercased())) | `\(d.name)` | \(d.severity.rawValue) | \(d.summary) |\n"
        }
        for d in DiagnosticRegistry.all {
            out += "\n## \(d.code.rawValue)\n\n**\(d.name)** (\(d.severity.rawValue)): \(d.summary).\n\n\(d.explanation)\n"
        }
        if let problem = Golden.check(out, against: "docs/diagnostics.md") { Issue.record(Comment(rawValue: problem)) }
    }

    @Test func everyPropertyHasATableEntry() {
        for id in PropertyID.allCases { #expect(PropertyTable.properties.contains { $0.id == id }, "\(id)") }
        // `PropertyTable.info` and the runtime's slot tables index by `PropertyID.index`.
        #expect(PropertyTable.properties.map(\.id) == PropertyID.allCases)
        #expect(PropertyID.allCases.map(\.index) == Array(PropertyID.allCases.indices))
        #expect(PropertyID.allCases.sorted() == PropertyID.allCases)
        #expect(Set(PropertyTable.keyPaths.map(\.keyPath)).count == PropertyTable.keyPaths.count)
    }

    @Test func propertiesReferenceIsCurrent() {
        func value(_ v: Value) -> String { "`" + IRDump.value(v) + "`" }
        var out = """
        # Layer properties and key paths

        Generated from the property table (`Sources/AnimcIR/PropertyTable.swift`), which
        the checker validates against and the runtime takes defaults from. Lengths are in
        points, angles in radians (write `deg`, `rad` or `turn`), times in seconds,
        colours as straight-alpha sRGB.

        | property | type | default | valid range | layers | interpolates | meaning |
        |---|---|---|---|---|---|---|

        """
        for p in PropertyTable.properties {
            let range: String
            switch (p.minimum, p.maximum) {
            case let (lo?, hi?): range = "\(IRDump.n(lo))...\(IRDump.n(hi))"
            case let (lo?, nil): range = "≥ \(IRDump.n(lo))"
            default: range = ""
            }
            let kinds = p.kinds.map { $0.map(\.rawValue).sorted().joined(separator: ", ") } ?? "all"
            out += "| `\(p.id.rawValue)` | \(p.type) | \(value(p.defaultValue)) | \(range) | \(kinds) | \(p.interpolates ? "yes" : "discrete only") | \(p.summary) |\n"
        }
        out += """

        ## Animatable key paths

        Besides every property above, animations may target these parts of a property.
        Transform parts read and write through the transform's decomposition (see
        [semantics.md](semantics.md#transforms)).

        | key path | part of | type |
        |---|---|---|

        """
        for k in PropertyTable.keyPaths where k.target.component != nil {
            out += "| `\(k.keyPath)` | `\(k.target.property.rawValue)` | \(k.type) |\n"
        }
        out += """

        ## What each backend draws

        The timeline, the baked frames and the runtime carry every property's values
        exactly. The renderer (`animc render`), the preview page and the Lottie export draw
        them as this table says: ✓ as Core Animation draws it, ≈ with the approximation
        given, — not drawn, for the reason given. Generated from each backend's
        `SupportTable` (`SceneRenderer.support`, `PreviewPage.support`,
        `LottieExporter.support`).

        | property | render | preview | Lottie |
        |---|---|---|---|

        """
        func cell(_ s: Support?) -> String {
            switch s {
            case .exact?: return "✓"
            case .approximate(let note)?: return "≈ " + note
            case .leftOut(let note)?: return "— " + note
            case nil: return "?"
            }
        }
        for p in PropertyID.allCases {
            out += "| `\(p.rawValue)` | \(cell(SceneRenderer.support[p])) | \(cell(PreviewPage.support[p])) | \(cell(LottieExporter.support[p])) |\n"
        }
        if let problem = Golden.check(out, against: "docs/properties.md") { Issue.record(Comment(rawValue: problem)) }
    }

    /// Every drawing backend classifies every property, once (issue 52): a property added
    /// to the table without a word on how each backend shows it fails here.
    @Test func everyBackendClassifiesEveryProperty() {
        for table in [SceneRenderer.support, PreviewPage.support, LottieExporter.support] {
            #expect(table.unclassified.isEmpty, "\(table.backend) does not classify \(table.unclassified.map(\.rawValue))")
            #expect(table.repeated.isEmpty, "\(table.backend) classifies \(table.repeated.map(\.rawValue)) more than once")
        }
    }
}
