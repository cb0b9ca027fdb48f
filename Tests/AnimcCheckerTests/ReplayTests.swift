import AnimcBase
@testable import AnimcChecker
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax
import AnimcTestSupport
import Testing

/// Every reason a top-level item's output cannot be replayed by a later check
/// (``NotReplayable``) has a fixture in `Fixtures/replay/` that meets it: the memo says
/// so (an output not kept, or a record refused), and the memo's check gives exactly
/// what a check without one gives.
///
/// A fixture's first line says what to expect (`// expect: unkept REASON` or
/// `// expect: refused REASON`); `// limits: …` and `// limits after: …` set the
/// evaluation limit and the suggestion budget; `// --- after ---` separates the text
/// before an edit from the text after it (a fixture without one is checked twice).
@Suite struct ReplayTests {
    static let folder = "Tests/AnimcCheckerTests/Fixtures/replay"

    struct Fixture {
        var expectation: (kind: String, reason: String)
        var before: String
        var after: String
        var limits: (evaluations: Int, suggestions: Int)
        var limitsAfter: (evaluations: Int, suggestions: Int)
    }

    static func fixture(_ reason: NotReplayable) throws -> Fixture {
        let text = Repository.read("\(folder)/\(reason.rawValue).anim")
        let parts = text.components(separatedBy: "// --- after ---\n")
        let header = text.split(separator: "\n").prefix { $0.hasPrefix("//") }
        func limits(_ prefix: String) -> (Int, Int) {
            var evaluations = ExpansionLimits.maxEvaluations, suggestions = Checker.suggestionBudget
            for line in header where line.hasPrefix(prefix) {
                for setting in line.dropFirst(prefix.count).split(separator: " ") {
                    let pair = setting.split(separator: "=")
                    guard pair.count == 2, let value = Int(pair[1]) else { continue }
                    if pair[0] == "evaluations" { evaluations = value } else if pair[0] == "suggestions" { suggestions = value }
                }
            }
            return (evaluations, suggestions)
        }
        let expect = try #require(header.first { $0.hasPrefix("// expect: ") }).dropFirst("// expect: ".count).split(separator: " ")
        let before = limits("// limits: ")
        let after = header.contains { $0.hasPrefix("// limits after: ") } ? limits("// limits after: ") : before
        return Fixture(expectation: (String(expect[0]), String(expect[1])), before: parts[0], after: parts.count > 1 ? parts[1] : parts[0],
                       limits: before, limitsAfter: after)
    }

    /// What a check gives, in a form two checks can be compared by.
    static func summary(_ r: CheckResult) -> String {
        let diagnostics = r.diagnostics.map { d in
            "\(d.code) \(d.range) \(d.message) \(d.fixIts.map { $0.edits.map { "\($0.range) \($0.replacement)" } })"
        }
        let folded = r.foldedValues.texts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (diagnostics + folded).joined(separator: "\n") + "\n" + (r.composition.map { IRDump.dump($0) } ?? "no IR")
    }

    @Test(arguments: NotReplayable.allCases)
    func everyReasonIsMetAndChangesNothing(_ reason: NotReplayable) throws {
        let f = try Self.fixture(reason)
        #expect(f.expectation.reason == reason.rawValue)
        let memo = CheckMemo()
        func checked(_ text: String, _ limits: (evaluations: Int, suggestions: Int), memo: CheckMemo?) -> CheckResult {
            let tree = parse(SourceFile(name: "replay.anim", bytes: Array(text.utf8)))
            return checkMeasuring(tree, memo: memo, suggestionBudget: limits.suggestions, evaluationLimit: limits.evaluations).0
        }
        _ = checked(f.before, f.limits, memo: memo)
        if f.expectation.kind == "unkept" {
            #expect(memo.unkept[reason.rawValue, default: 0] > 0, "\(memo.unkept)")
        }
        let replayed = checked(f.after, f.limitsAfter, memo: memo)
        if f.expectation.kind == "refused" {
            #expect(memo.refusals[reason.rawValue, default: 0] > 0, "\(memo.refusals)")
        }
        let fresh = checked(f.after, f.limitsAfter, memo: nil)
        #expect(Self.summary(replayed) == Self.summary(fresh))
    }
}
