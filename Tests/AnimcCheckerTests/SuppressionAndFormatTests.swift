import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

@Suite struct SuppressionTests {
    func codes(_ text: String) -> ([String], Int) {
        let r = Pipeline.compile(SourceFile(name: "t.anim", text: "composition { size: 10 x 10 }\n" + text))
        return (r.diagnostics.map(\.code.rawValue), r.suppressed.count)
    }

    @Test func aCommentSilencesTheNextLine() {
        #expect(codes("layer box {\n  // animc-ignore W0509: placeholder\n  basic opacity { from: 1, to: 1, duration: 1s }\n}\n") == ([], 1))
    }

    /// A directive reaches past blank and comment lines to the next line of code, and
    /// each line below a run of directives is looked at once, however long the run.
    @Test func directivesReachPastCommentLines() {
        let text = "layer box {\n  // animc-ignore W0509: placeholder\n\n  // a note\n  basic opacity { from: 1, to: 1, duration: 1s }\n}\n"
        #expect(codes(text) == ([], 1))
        // A run of 2,000 directives above two unused constants: all of them reach the
        // first, which one silences (the rest are reported unused, W0701), and none
        // reaches the second.
        let run = String(repeating: "// animc-ignore W0310: unused on purpose\n", count: 2_000)
        let (left, suppressed) = codes(run + "let spare = 1\nlet other = 2\n")
        #expect(suppressed == 1)
        #expect(left.filter { $0 == "W0310" }.count == 1)
        #expect(left.filter { $0 == "W0701" }.count == 1_999)
    }

    @Test func aTrailingCommentSilencesItsOwnLine() {
        #expect(codes("layer box {\n  basic opacity { from: 1, to: 1, duration: 1s }  // animc-ignore W0509\n}\n") == ([], 1))
    }

    @Test func aFileWideCommentSilencesEverywhere() {
        let text = "// animc-ignore-file W0509: placeholders\nlayer a { basic opacity { from: 1, to: 1, duration: 1s } }\nlayer b { basic opacity { from: 1, to: 1, duration: 1s } }\n"
        #expect(codes(text) == ([], 2))
    }

    @Test func suppressionOnlyAppliesToTheNamedCode() {
        #expect(codes("layer box {\n  // animc-ignore W0510\n  basic opacity { from: 1, to: 1, duration: 1s }\n}\n").0.sorted() == ["W0509", "W0701"])
    }

    @Test func suppressedFindingsStayInSARIF() {
        let r = Pipeline.compile(SourceFile(name: "t.anim", text: "composition { size: 10 x 10 }\nlayer box {\n  // animc-ignore W0509: placeholder\n  basic opacity { from: 1, to: 1, duration: 1s }\n}\n"))
        let sarif = SARIFRenderer.render([r.report], rules: DiagnosticRegistry.all, toolVersion: "test")
        let result = sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first
        #expect(result?["suppressions"]?.arrayValue?.first?["kind"] == "inSource")
        #expect(result?["suppressions"]?.arrayValue?.first?["justification"] == "placeholder")
    }
}

@Suite struct FormatTests {
    static let broken = Pipeline.compile(SourceFile(name: "dir/broken.anim", text: """
    composition { size: 10 x 10 }
    let duration = 3s
    layer box {
      opactiy: 0.5
      basic opacity { from: 0, to: 1, duration: duraton }
      basic zPosition { from: 0, to: 0, duration: 1s }
    }
    """))

    @Test func jsonLinesAreParseableWithASummaryLast() throws {
        let text = JSONLinesRenderer.render([Self.broken.report])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        for line in lines { #expect(throws: Never.self) { _ = try JSONParser.parse(line) } }
        let first = try JSONParser.parse(lines[0])
        #expect(first["type"] == "diagnostic")
        #expect(first["code"] == "E0301" || first["code"] == "E0302")
        #expect(first["range"]?["start"]?["line"] == .number(4))
        #expect(first["range"]?["start"]?["column"] == .number(3))
        #expect(first["range"]?["start"]?["offset"]?.numberValue != nil)
        let summary = try JSONParser.parse(lines[3])
        #expect(summary["type"] == "summary" && summary["errors"] == .number(2) && summary["warnings"] == .number(1))
    }

    /// The fields SARIF 2.1.0 requires, and 1-based regions (checked against the real
    /// schema in .ci/run with check-jsonschema).
    @Test func sarifHasItsRequiredStructure() {
        let log = SARIFRenderer.render([Self.broken.report], rules: DiagnosticRegistry.all, toolVersion: "0.1.0")
        #expect(log["version"] == "2.1.0")
        guard let run = log["runs"]?.arrayValue?.first else { Issue.record("no run"); return }
        #expect(run["tool"]?["driver"]?["name"] == "animc")
        let rules = run["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(rules.count == DiagnosticRegistry.all.count)
        #expect(rules.allSatisfy { $0["id"]?.stringValue != nil && $0["shortDescription"]?["text"]?.stringValue != nil })
        let results = run["results"]?.arrayValue ?? []
        #expect(results.count == 3)
        for r in results {
            #expect(r["message"]?["text"]?.stringValue != nil)
            #expect(["error", "warning", "note", "none"].contains(r["level"]?.stringValue ?? ""))
            let region = r["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]
            #expect(r["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"] == "dir/broken.anim")
            for key in ["startLine", "startColumn", "endLine", "endColumn"] {
                #expect((region?[key]?.numberValue ?? 0) >= 1, "\(key) must be 1-based")
            }
            if let i = r["ruleIndex"]?.numberValue { #expect(rules[Int(i)]["id"] == r["ruleId"]) }
        }
    }

    /// Artifact URIs are URI references, and charOffset/charLength count code points,
    /// the unit the run's columnKind declares.
    @Test func sarifLocationsAreURIsAndCountCodePoints() {
        #expect(SARIFRenderer.fileURI("dir/my file#1%é.anim") == "dir/my%20file%231%25%C3%A9.anim")
        let r = Pipeline.compile(SourceFile(name: "a b/ü.anim", text: "composition { size: 10 x 10 }\nlet 😀label = 1\n"))
        let log = SARIFRenderer.render([r.report], rules: DiagnosticRegistry.all, toolVersion: "test")
        let location = log["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first?["locations"]?.arrayValue?.first?["physicalLocation"]
        #expect(location?["artifactLocation"]?["uri"] == "a%20b/%C3%BC.anim")
        // Line 1 has 29 code points and a line feed; the emoji is the 5th code point of line 2.
        #expect(location?["region"]?["charOffset"] == .number(34))
        #expect(location?["region"]?["startColumn"] == .number(5))
        let rules = log["runs"]?.arrayValue?.first?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        #expect(rules.allSatisfy { $0["helpUri"] == nil })
    }

    @Test func gitHubAnnotationsEscapeTheirData() {
        #expect(GitHubRenderer.escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext")
        #expect(GitHubRenderer.escapeProperty("a:b,c%") == "a%3Ab%2Cc%25")
        let lines = GitHubRenderer.render([Self.broken.report]).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("::error file=dir/broken.anim,line=4,col=3,endLine=4,endColumn=10,title=animc E0302::"))
        #expect(lines[2].hasPrefix("::warning "))
    }

    @Test func humanOutputColoursOnlyWhenAsked() {
        let plain = HumanRenderer(useColor: false).render(Self.broken.diagnostics, in: Self.broken.file)
        let coloured = HumanRenderer(useColor: true).render(Self.broken.diagnostics, in: Self.broken.file)
        #expect(!plain.contains("\u{1B}["))
        #expect(coloured.contains("\u{1B}[1;31merror[E0302]"))
        if let problem = Golden.check(coloured, against: "Tests/AnimcCheckerTests/Fixtures/rendering/colour.txt") {
            Issue.record(Comment(rawValue: problem))
        }
        if let problem = Golden.check(plain, against: "Tests/AnimcCheckerTests/Fixtures/rendering/plain.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func columnsCountUnicodeScalarsAndCaretsAlignUnderWideCharacters() {
        let r = Pipeline.compile(SourceFile(name: "w.anim", text: "composition { size: 10 x 10 }\nlet 😀label = 1\n"))
        // The emoji is one scalar: the error on it starts at column 5.
        let index = LineIndex(r.file)
        #expect(r.diagnostics.first.map { index.location(of: $0.range.start).column } == 5)
        let rendered = HumanRenderer().render(r.diagnostics, in: r.file)
        if let problem = Golden.check(rendered, against: "Tests/AnimcCheckerTests/Fixtures/rendering/wide.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }
}
