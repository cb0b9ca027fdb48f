import AnimcBase
@testable import AnimcChecker
import AnimcCompiler
import AnimcDriver
import AnimcIR
import Testing

/// Tuples hold a pair of plain numbers inline and anything else in an array
/// (``TupleItems``). The two forms must be indistinguishable to the language: these
/// compare what a tuple evaluates to with values worked out by hand.
@Suite struct TupleItemsTests {
    @Test func aPairOfPlainNumbersIsHeldInline() {
        let pair = TupleItems([.number(1, .none), .number(2, .none)])
        #expect(pair.plainPair.map { [$0.0, $0.1] } == [1, 2])
        #expect(pair.count == 2)
        // Items come back as the numbers they were, in order.
        #expect(pair.map(\.plainNumber) == [1, 2])
        // Not pairs of plain numbers: a unit, another length, another kind of item.
        #expect(TupleItems([.number(1, .time), .number(2, .none)]).plainPair == nil)
        #expect(TupleItems([.number(1, .none), .number(2, .angle)]).plainPair == nil)
        #expect(TupleItems([.number(1, .none)]).plainPair == nil)
        #expect(TupleItems([.number(1, .none), .number(2, .none), .number(3, .none)]).plainPair == nil)
        #expect(TupleItems([.number(1, .none), .bool(true)]).plainPair == nil)
        #expect(TupleItems([]).isEmpty)
        // Whichever way a point is made, it reads the same.
        #expect(SemaValue.pair(3, 4).plainPair.map { [$0.0, $0.1] } == [3, 4])
        #expect(SemaValue.tuple([.number(3, .none), .number(4, .none)], isSize: false).plainPair.map { [$0.0, $0.1] } == [3, 4])
        #expect(SemaValue.vector([3, 4]).isSame(as: .pair(3, 4)))
        #expect(!SemaValue.pair(3, 4, isSize: true).isSame(as: .pair(3, 4)))
    }

    /// The model value `property` gets on layer `box`, and the codes of the diagnostics.
    func value(_ expression: String, _ property: String = "position") -> (Value?, [String]) {
        let text = "composition { size: 10 x 10 }\nlayer box {\n  \(property): \(expression)\n}\n"
        let result = Pipeline.compile(SourceFile(name: "t.anim", text: text))
        guard let c = result.composition, let id = PropertyID(rawValue: property) else { return (nil, result.diagnostics.map(\.code.rawValue)) }
        return (c.layers[0].modelValue(id), result.diagnostics.map(\.code.rawValue))
    }

    @Test func pairsEvaluateAsTuplesDo() {
        let points: [(String, Point)] = [
            ("(1, 2)", Point(1, 2)),
            ("(1, 2) + (3, 4)", Point(4, 6)),
            ("(1, 2) - (3, 5)", Point(-2, -3)),
            ("(1, 2) * 3", Point(3, 6)),
            ("3 * (1, 2)", Point(3, 6)),
            ("(3, 6) / 3", Point(1, 2)),
            ("-(1, 2)", Point(-1, -2)),
            ("+(1, 2)", Point(1, 2)),
            ("((1, 2))", Point(1, 2)),
            ("(0.1, 0.2) + (0.2, 0.1)", Point(0.3, 0.3)),
            ("normalize((3, 4)) * 10", Point(6, 8)),
            ("((1, 2, 3)[0], (1, 2, 3)[2])", Point(1, 3)),
            ("((5, 7)[1], (5, 7).x)", Point(7, 5)),
            ("((5, 7).y, 1)", Point(7, 1)),
        ]
        for (expression, expected) in points {
            let (v, codes) = value(expression)
            #expect(codes.isEmpty, "\(expression): \(codes)")
            #expect(v == .point(expected), "\(expression): \(String(describing: v))")
        }
        let (size, codes) = value("3 x 4", "bounds")
        #expect(codes.isEmpty)
        #expect(size == .rect(Rect(0, 0, 3, 4)))
        let (rect, rectCodes) = value("(1, 2, 3, 4)", "bounds")
        #expect(rectCodes.isEmpty)
        #expect(rect == .rect(Rect(1, 2, 3, 4)))
    }

    /// What was wrong with a tuple is reported as before: each bad item of a literal
    /// once, an index past the end, units where a point takes plain numbers.
    @Test func pairsReportAsTuplesDo() {
        #expect(value("(1, 2)[2]").1 == ["E0320"])
        #expect(value("(1, 2, 3)[3]").1 == ["E0320"])
        #expect(value("(1s, 2)").1 == value("(1, 2s)").1)
        #expect(!value("(1s, 2)").1.isEmpty)
        // Both items of a literal are evaluated, so each unknown name is reported.
        #expect(value("(nope1, nope2)").1.count == 2)
        #expect(value("(nope1, nope2, nope3)").1.count == 3)
        // A point where a number goes, and numbers and points mixed.
        #expect(!value("(1, 2)", "zPosition").1.isEmpty)
        #expect(!value("(1, 2) + 1").1.isEmpty)
        #expect(!value("(1, 2) + (1, 2, 3)").1.isEmpty)
    }
}

extension SemaValue {
    fileprivate var plainNumber: Double? {
        if case .number(let x, .none) = self { return x }
        return nil
    }
}
