import AnimcBase
@testable import AnimcChecker
import AnimcDiagnostics
import AnimcSyntax
import AnimcTestSupport
import Testing

/// "Did you mean" suggestions compare a misspelt name with every candidate, and a check
/// stops suggesting once it has compared ``Checker/suggestionBudget`` candidates: a file
/// of a thousand typos among tens of thousands of declarations took seconds. A replayed
/// item counts what it compared, so a check with a memo suggests for the same typos as
/// a check without one.
@Suite struct SuggestionBudgetTests {
    static let path = "Tests/AnimcCheckerTests/Fixtures/suggestions/many-typos.anim"
    /// Small enough that the fixture's typos exhaust it.
    static let budget = 20_000

    /// The fixture's header, then each line after a marker repeated with `#` as its index.
    static func source(declarations: Int, items: [Int]) throws -> String {
        let fixture = Repository.read(path)
        let declarationMarker = try #require(fixture.range(of: "// --- declarations ---\n"))
        let itemMarker = try #require(fixture.range(of: "// --- items ---\n"))
        let declaration = String(fixture[declarationMarker.upperBound..<itemMarker.lowerBound])
        let item = String(fixture[itemMarker.upperBound...])
        var text = String(fixture[..<declarationMarker.lowerBound])
        for i in 0..<declarations { text += declaration.replacingOccurrences(of: "#", with: "\(i)") }
        for i in items { text += item.replacingOccurrences(of: "#", with: "\(i)") }
        return text
    }

    static func check(_ text: String, memo: CheckMemo? = nil) -> CheckResult {
        checkMeasuring(parse(SourceFile(name: path, bytes: Array(text.utf8))), memo: memo, suggestionBudget: budget).0
    }

    static func unknownNames(_ result: CheckResult) -> (all: Int, suggested: Int) {
        let unknown = result.diagnostics.filter { $0.code.rawValue == "E0301" }
        return (unknown.count, unknown.filter { !$0.fixIts.isEmpty }.count)
    }

    @Test func suggestionsStopAtTheBudget() throws {
        // About 230 candidates per typo (the declarations and the built-in constants):
        // the budget covers the first 80 or so of the 150 typos.
        let result = Self.check(try Self.source(declarations: 200, items: Array(0..<150)))
        let (all, suggested) = Self.unknownNames(result)
        #expect(all == 150)
        #expect(suggested > 50 && suggested < 100, "\(suggested) of \(all) suggested")
        #expect(suggested * 200 <= Self.budget)
        // Without the budget every typo gets one.
        let unbounded = AnimcChecker.check(parse(SourceFile(name: Self.path, bytes: Array(try Self.source(declarations: 200, items: Array(0..<150)).utf8))))
        #expect(Self.unknownNames(unbounded).suggested == 150)
    }

    /// A misspelling inside a loop repeats one message, whose suggestion is found once:
    /// listing and comparing every candidate again for each iteration made loops of
    /// typos quadratic (20,000 iterations among 20,000 names ran for minutes, 20,000
    /// masked layers for 20 s).
    @Test(arguments: ["loop-typo-name", "loop-typo-component", "loop-typo-animation", "loop-typo-mask", "loop-typo-property"])
    func aRepeatedMessageIsSuggestedForOnce(_ name: String) {
        let path = "Tests/AnimcCheckerTests/Fixtures/suggestions/\(name).anim"
        let (result, counts) = checkMeasuring(parse(SourceFile(name: path, bytes: Repository.bytes(path))))
        let work = counts.suggestions
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.fixIts.isEmpty == false, "the one message has its suggestion")
        // One list: at most the 200 constants and the built-in names, or the 500 layers'
        // animations; never one list per iteration.
        #expect(work > 0 && work <= 1_100, "\(work) candidates compared")
    }

    @Test func aMemoSuggestsWhereAFreshCheckDoes() throws {
        let memo = CheckMemo()
        var items = Array(0..<150)
        var steps: [[Int]] = [items]
        items.remove(at: 3)  // a typo fixed near the start frees budget for one more at the end
        steps.append(items)
        items.insert(500, at: 70)  // one added among them spends it again
        steps.append(items)
        steps.append(Array(0..<150))
        for (step, list) in steps.enumerated() {
            let text = try Self.source(declarations: 200, items: list)
            let fresh = Self.check(text)
            let replayed = Self.check(text, memo: memo)
            // Compared as booleans: printing two thousand diagnostics says nothing.
            let sameDiagnostics = fresh.diagnostics == replayed.diagnostics
            let suggested = (Self.unknownNames(fresh).suggested, Self.unknownNames(replayed).suggested)
            #expect(sameDiagnostics, "step \(step): \(suggested.0) suggestions fresh, \(suggested.1) with the memo")
            #expect(fresh.foldedValues == replayed.foldedValues, "step \(step)")
            // Items whose suggestion the budget cut are lowered again; the others replay.
            if step > 0 { #expect(memo.reused > 50, "step \(step): reused \(memo.reused)") }
        }
    }
}
