import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcRuntime

/// Diagnostics of `test` blocks (E09xx): what `animc test` and the language server say
/// when an expectation does not hold.
public enum TestDiagnostics {
    public static let expectationFailed = DiagnosticDescriptor(
        "E0901", "expectation-failed", .error, "A test's expected value is not what the layer shows",
        explanation: """
        A `test` block says what a layer shows at a time: `at: 0.9s` and \
        `logo.opacity: 1`. The composition, evaluated at that time, shows another value \
        (beyond the test's `tolerance`, 0.001 unless it says otherwise, for each number of \
        the value). Either the animation changed, or the expectation is out of date: \
        `animc eval FILE --at TIME --layer LAYER` prints what the layer shows.
        """)

    public static let all = [expectationFailed]
}

/// One expectation checked: what the layer shows, and whether it is what was expected.
public struct ExpectationResult: Sendable {
    public var test: TestCase
    public var expectation: Expectation
    /// Nil when the layer has no such key path.
    public var actual: Value?
    public var passed: Bool

    /// What went wrong, without the test's name.
    public var message: String {
        let shown = actual.map(ExpectationCheck.describe) ?? "no '\(expectation.keyPath)'"
        return "\(expectation.layer).\(expectation.keyPath) at \(formatNumber(test.time))s is \(shown), expected \(ExpectationCheck.describe(expectation.value))"
            + (test.tolerance == TestCase.defaultTolerance ? "" : " within \(formatNumber(test.tolerance))")
    }

    /// The failure as a diagnostic at the expectation.
    public var diagnostic: Diagnostic {
        TestDiagnostics.expectationFailed.at(expectation.range, "test '\(test.name)': " + message, label: "not what the layer shows")
    }
}

/// Checks the value expectations of `test` blocks against the runtime: no pixels (the
/// driver's `animc test` compares snapshots), so editors run it on every check.
public enum ExpectationCheck {
    /// Every expectation of `tests`, in order. A test with `events:` reads the
    /// composition after them (`interaction` says how it plays them); one whose
    /// events cannot be played fails each expectation.
    public static func run(_ tests: [TestCase], on timeline: Timeline, composition: Composition? = nil,
                           interaction: Interaction? = nil) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        var state = timeline.makeState()
        var played: [EventScript: Timeline?] = [:]
        for test in tests.sorted(by: { $0.time < $1.time }) {
            if let script = test.events {
                if played[script] == nil {
                    played[script] = .some(playing(script, composition, interaction))
                }
                guard let t = played[script] ?? nil else {
                    results += test.expectations.map { ExpectationResult(test: test, expectation: $0, actual: nil, passed: false) }
                    continue
                }
                var s = t.makeState()
                t.evaluate(at: test.time, into: &s)
                for e in test.expectations {
                    let actual = t.layerIndex(e.layer).flatMap { t.value(e.keyPath, layer: $0, in: s) }
                    results.append(ExpectationResult(test: test, expectation: e, actual: actual,
                                                     passed: actual.map { matches($0, e.value, tolerance: test.tolerance) } ?? false))
                }
                continue
            }
            timeline.evaluate(at: test.time, into: &state)
            for e in test.expectations {
                let actual = timeline.layerIndex(e.layer).flatMap { timeline.value(e.keyPath, layer: $0, in: state) }
                let passed = actual.map { matches($0, e.value, tolerance: test.tolerance) } ?? false
                results.append(ExpectationResult(test: test, expectation: e, actual: actual, passed: passed))
            }
        }
        return results
    }

    /// The timeline of `composition` after `script`, or nil when it cannot be played.
    public static func playing(_ script: EventScript, _ composition: Composition?, _ interaction: Interaction?) -> Timeline? {
        guard let composition, let interaction, case .success(let (c, _)) = InteractionPlayer.unroll(composition, interaction, script) else {
            return nil
        }
        return Timeline(c)
    }

    /// Whether two values agree, number by number within `tolerance`.
    public static func matches(_ a: Value, _ b: Value, tolerance: Double) -> Bool {
        func close(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { p, q in p == q || abs(p - q) <= tolerance }
        }
        if case .transform(let x) = a, case .transform(let y) = b { return close(x.matrix.array, y.matrix.array) }
        if let x = numbers(a), let y = numbers(b) { return close(x, y) }
        return a == b
    }

    static func numbers(_ v: Value) -> [Double]? {
        switch v {
        case .number(let x): return [x]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.x, r.y, r.width, r.height]
        case .color(let c): return [c.red, c.green, c.blue, c.alpha]
        case .numbers(let xs): return xs
        case .colors(let cs): return cs.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        default: return nil
        }
    }

    /// A value as a test failure prints it.
    public static func describe(_ v: Value) -> String {
        switch v {
        case .number(let x): return formatNumber(x)
        case .point(let p): return "(\(formatNumber(p.x)), \(formatNumber(p.y)))"
        case .size(let s): return "\(formatNumber(s.width)) x \(formatNumber(s.height))"
        case .rect(let r): return "(\(formatNumber(r.x)), \(formatNumber(r.y)), \(formatNumber(r.width)), \(formatNumber(r.height)))"
        case .color(let c):
            return "rgba(\(formatNumber((c.red * 255 * 1000).rounded() / 1000)), \(formatNumber((c.green * 255 * 1000).rounded() / 1000)), "
                + "\(formatNumber((c.blue * 255 * 1000).rounded() / 1000)), \(formatNumber((c.alpha * 1000).rounded() / 1000)))"
        case .bool(let b): return b ? "true" : "false"
        case .enumeration(let e): return e
        case .image(let name): return name.map { "image(\"\($0)\")" } ?? "no image"
        case .numbers(let xs): return "[" + xs.map(formatNumber).joined(separator: ", ") + "]"
        default: return "a \(v)"
        }
    }
}
