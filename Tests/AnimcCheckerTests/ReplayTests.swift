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
            var evaluations = ExpansionLimits.standard.evaluations, suggestions = Checker.suggestionBudget
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

/// An editor cancels the check of a version the user has typed past
/// (``check(_:memo:until:)``): the check stops at once, and the memo it leaves gives the
/// next check exactly what a fresh check gives.
@Suite struct CancelledCheckTests {
    /// Each example, edited twice: the check of the first edit is cancelled after its
    /// `k`-th question, the second edit is checked to the end with the same memo.
    @Test(arguments: [1, 2, 3, 5, 9, 17])
    func theMemoACancelledCheckLeavesChangesNothing(_ k: Int) {
        for path in Repository.files(in: "examples", withExtension: "anim") {
            let text = Repository.read(path)
            func tree(_ t: String) -> SyntaxTree { parse(SourceFile(name: path, bytes: Array(t.utf8))) }
            // Edits in the middle of the file, where items before and after are replayed.
            let middle = text.index(text.startIndex, offsetBy: text.count / 2)
            let lineStart = text[..<middle].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
            let first = text[..<lineStart] + "let _edited = 1\n" + text[lineStart...]
            let second = text[..<lineStart] + "let _edited = 2\nlet _more = 3\n" + text[lineStart...]
            let memo = CheckMemo()
            _ = check(tree(text), memo: memo)
            var asked = 0
            let cancelled = check(tree(String(first)), memo: memo, until: { asked += 1; return asked >= k })
            if let cancelled {
                // Fewer questions than k: the check finished before it was cancelled.
                #expect(asked < k, "\(path): a cancelled check returned a result")
                _ = cancelled
            }
            let replayed = check(tree(String(second)), memo: memo)
            let fresh = check(tree(String(second)))
            #expect(ReplayTests.summary(replayed) == ReplayTests.summary(fresh), "\(path), cancelled at \(k)")
        }
    }

    /// A loop of a million iterations stops within one polling interval of being told.
    @Test func aLongLoopStopsSoonAfterItIsCancelled() {
        let text = """
        composition C { size: 10 x 10 }
        layer a { opacity: 0.5 }
        for i in 0 ..< 999999 {
          timing _t = cubic(0.2, 0.5, 0.5, 0.8)
        }
        """
        let checker = Checker(tree: parse(SourceFile(name: "slow.anim", bytes: Array(text.utf8))), memo: CheckMemo())
        var asked = 0
        checker.isCancelled = { asked += 1; return asked >= 3 }
        checker.nextCancellationPoll = Checker.cancellationPollInterval
        #expect(checker.run() == nil)
        #expect(asked == 3)
        #expect(checker.work.evaluations < 4 * Checker.cancellationPollInterval)
    }
}
