import AnimcBase
@testable import AnimcChecker
import AnimcDiagnostics
import AnimcSyntax
import Testing

/// The evaluation limit (E0311) is met at the same expression however the check gets
/// there: with a check memo replaying top-level items as without one.
@Suite struct EvaluationLimitTests {
    /// `k` costs a few evaluations and is first used by `b` before the edit and by `a`
    /// after it, so a replay of `b` must not count `k` again.
    static let before = """
        composition { size: 100 x 100 }
        let k = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8
        layer a { position: (1, 1) }
        layer b { position: (k, k) }
        layer c { position: (k + 1, 2) }
        """
    static let after = before.replacingOccurrences(of: "layer a { position: (1, 1) }", with: "layer a { position: (k, 1) }")

    @Test func aMemoMeetsTheLimitWhereAFreshCheckDoes() {
        let tree = parse(SourceFile(name: "limit.anim", bytes: Array(Self.after.utf8)))
        let (unlimited, _) = checkMeasuring(tree)
        #expect(unlimited.diagnostics.isEmpty)
        // The edit lowers `a` again and replays `b` and `c`.
        let primed = CheckMemo()
        _ = checkMeasuring(parse(SourceFile(name: "limit.anim", bytes: Array(Self.before.utf8))), memo: primed)
        _ = checkMeasuring(tree, memo: primed)
        #expect(primed.lowered == 1 && primed.reused == 2)
        var limit = 1
        while true {
            let memo = CheckMemo()
            _ = checkMeasuring(parse(SourceFile(name: "limit.anim", bytes: Array(Self.before.utf8))), memo: memo)
            let (replayed, _) = checkMeasuring(tree, memo: memo, evaluationLimit: limit)
            let (fresh, _) = checkMeasuring(tree, evaluationLimit: limit)
            let describe = { (d: [Diagnostic]) in d.map { "\($0.code) \($0.range.start)" } }
            #expect(describe(replayed.diagnostics) == describe(fresh.diagnostics), "at limit \(limit)")
            if describe(replayed.diagnostics) != describe(fresh.diagnostics) { break }
            if !fresh.diagnostics.contains(where: { $0.code.rawValue == "E0311" }) { break }
            limit += 1
        }
        #expect(limit > 20, "the limit was met only below \(limit) evaluations")
    }
}
