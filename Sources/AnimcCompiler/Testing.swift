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
    /// What went wrong when it is not a value at the test's time (`continuous:`).
    public var note: String?

    /// What went wrong, without the test's name.
    public var message: String {
        if let note { return note }
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
            func check(_ t: Timeline, _ s: SceneState) {
                for e in test.expectations {
                    let actual = t.layerIndex(e.layer).flatMap { t.value(e.keyPath, layer: $0, in: s) }
                    results.append(ExpectationResult(test: test, expectation: e, actual: actual,
                                                     passed: actual.map { matches($0, e.value, tolerance: test.tolerance) } ?? false))
                }
            }
            guard let script = test.events else {
                timeline.evaluate(at: test.time, into: &state)
                check(timeline, state)
                continue
            }
            if played[script] == nil { played[script] = .some(playing(script, composition, interaction)) }
            guard let t = played[script] ?? nil else {
                results += test.expectations.map { ExpectationResult(test: test, expectation: $0, actual: nil, passed: false) }
                results += test.continuous.map {
                    ExpectationResult(test: test, expectation: $0, actual: nil, passed: false, note: "its events cannot be played")
                }
                continue
            }
            var s = t.makeState()
            t.evaluate(at: test.time, into: &s)
            check(t, s)
            for e in test.continuous {
                let jump = continuityJump(e, at: script.events.map(\.time), in: t, tolerance: test.tolerance)
                results.append(ExpectationResult(test: test, expectation: e, actual: nil, passed: jump == nil, note: jump))
            }
        }
        return results
    }

    /// Where `e`'s key path jumps at one of `times`, in value or velocity, said as a
    /// failure; nil when it is continuous at all of them. Velocity is read with
    /// second-order one-sided differences (an event may change the acceleration), and
    /// may differ by 1% of its size (at least 100 × `tolerance` per second).
    public static func continuityJump(_ e: Expectation, at times: [Double], in t: Timeline, tolerance: Double) -> String? {
        guard let layer = t.layerIndex(e.layer) else { return "\(e.layer).\(e.keyPath): no such layer" }
        func at(_ time: Double) -> [Double] {
            t.value(e.keyPath, layer: layer, in: t.state(at: time)).flatMap(numbers) ?? []
        }
        let h = 1e-4, d = 1e-7
        func shown(_ x: Double) -> String { formatNumber((x * 1e6).rounded() / 1e6) }
        for time in Set(times).sorted() where time - 2 * h > 0 {
            let before = at(time - d), after = at(time + d)
            if let k = before.indices.first(where: { k in k < after.count && abs(before[k] - after[k]) > tolerance }) {
                return "\(e.layer).\(e.keyPath) jumps at \(formatNumber(time))s, from \(shown(before[k])) to \(shown(after[k]))"
            }
            let (m2, m1, x0, p1, p2) = (at(time - 2 * h), at(time - h), at(time), at(time + h), at(time + 2 * h))
            for k in x0.indices where [m2, m1, p1, p2].allSatisfy({ $0.count == x0.count }) {
                let vBefore = (3 * x0[k] - 4 * m1[k] + m2[k]) / (2 * h), vAfter = (-3 * x0[k] + 4 * p1[k] - p2[k]) / (2 * h)
                if abs(vBefore - vAfter) > max(0.01 * max(abs(vBefore), abs(vAfter)), 100 * tolerance) {
                    return "\(e.layer).\(e.keyPath)'s velocity jumps at \(formatNumber(time))s, from \(shown(vBefore)) to \(shown(vAfter)) per second"
                }
            }
        }
        return nil
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
