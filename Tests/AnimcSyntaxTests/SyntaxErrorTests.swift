import AnimcBase
import AnimcDiagnostics
import AnimcSyntax
import AnimcTestSupport
import Foundation
import Testing

/// Malformed fixtures with their rendered diagnostics as goldens: codes, ranges and
/// the text a user sees.
@Suite struct SyntaxErrorTests {
    static let fixtures = Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/errors", withExtension: "anim")

    static func render(_ tree: SyntaxTree) -> String {
        let index = LineIndex(tree.file)
        var out = ""
        for d in tree.diagnostics {
            let a = index.location(of: d.range.start), b = index.location(of: d.range.end)
            out += "\(d.code.rawValue) \(a.line):\(a.column)-\(b.line):\(b.column) \(d.message)\n"
        }
        return out + "---\n" + HumanRenderer().render(tree.diagnostics, in: tree.file)
    }

    @Test func thereAreAtLeastFortyMalformedFixtures() {
        #expect(Self.fixtures.count >= 40)
    }

    @Test(arguments: fixtures)
    func reportsTheExpectedDiagnostics(_ path: String) {
        let tree = parse(SourceFile(name: path.split(separator: "/").last.map(String.init) ?? path, bytes: Repository.bytes(path)))
        #expect(!tree.diagnostics.isEmpty, "\(path) should report something")
        let golden = path.replacingOccurrences(of: ".anim", with: ".diag.txt")
        if let problem = Golden.check(Self.render(tree), against: golden) { Issue.record(Comment(rawValue: problem)) }
    }

    /// Five independent mistakes on five lines: all five reported, each at its line and
    /// column, and nothing else.
    @Test func reportsFiveIndependentErrorsAndNothingElse() {
        let path = "Tests/AnimcSyntaxTests/Fixtures/five-errors.anim"
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        let index = LineIndex(tree.file)
        let found = tree.diagnostics.map { d -> String in
            let l = index.location(of: d.range.start)
            return "\(d.code.rawValue)@\(l.line):\(l.column)"
        }
        #expect(found == ["E0205@3:11", "E0202@5:12", "E0206@7:10", "E0108@8:20", "E0107@9:18"])
    }

    /// A file with an error on each of a million lines records 1,000 diagnostics and
    /// one E0213 saying it stopped, quickly, instead of a million (which took a gigabyte).
    @Test func recordingStopsAfterAThousandErrors() {
        let text = "composition { size: 10 x 10 }\n" + String(repeating: "1\n", count: 1_000_000)
        let tree = withinTime(60) { parse(SourceFile(name: "many.anim", text: text)) }
        #expect(tree?.diagnostics.count == SyntaxDiagnostics.recordedLimit + 1)
        #expect(tree?.diagnostics.last?.code.rawValue == "E0213")
        guard let tree else { return }
        let rendered = HumanRenderer().render(FileReport(file: tree.file, diagnostics: tree.diagnostics))
        #expect(rendered.contains("note: 801 more diagnostics in many.anim not shown: 801 errors, 0 warnings (the 200 above are the first, errors before warnings)"))
        // A million stray characters on one line are one message.
        let stray = parse(SourceFile(name: "stray.anim", text: String(repeating: "$", count: 1_000_000)))
        #expect(stray.diagnostics.count == 1)
    }

    @Test func everyGoldenHasAFixture() {
        for g in Repository.files(in: "Tests/AnimcSyntaxTests/Fixtures/errors", withExtension: "txt") {
            #expect(Self.fixtures.contains(g.replacingOccurrences(of: ".diag.txt", with: ".anim")), "orphaned golden \(g)")
        }
    }

    @Test func fixItsProduceSourceWithoutThatError() {
        // Applying the fix-it of a diagnostic removes that diagnostic.
        let cases = ["let a = 1.\n", "let a = .5\n", "let d = 3sec\n", "let r = 0..3\n", "layer box {\n  opacity 0.5\n}\n",
                     "let on = true\nlet show = on & false\n", "composition { size: 375x667 }\n"]
        for text in cases {
            let file = SourceFile(name: "t.anim", text: text)
            let tree = parse(file)
            guard let d = tree.diagnostics.first, let fix = d.fixIts.first else {
                Issue.record("no fix-it for \(text.debugDescription)")
                continue
            }
            let fixed = parse(SourceFile(name: "t.anim", bytes: applyEdits(fix.edits, to: file.bytes)))
            #expect(!fixed.diagnostics.contains { $0.code == d.code && $0.severity == .error }, "\(text.debugDescription) → \(fixed.diagnostics.map(\.message))")
        }
    }
}
