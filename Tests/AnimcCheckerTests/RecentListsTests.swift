import AnimcBase
@testable import AnimcChecker
import AnimcIR
import AnimcSyntax
import AnimcTestSupport
import Testing

/// A keyframes animation whose key times, timing functions or number values equal a
/// recent one's, bit for bit, shares that list's storage (`RecentLists`). Sharing must
/// never change a value: `-0` is not `0`, and lists that differ anywhere stay apart.
@Suite struct RecentListsTests {
    static func storage<T>(_ list: [T]) -> UnsafeRawPointer? {
        list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func equalListsShareAndOthersDoNot() {
        var recent = RecentLists<Double>()
        var first = [0, 0.5, 1.0]
        recent.share(&first, BitIdentity.identical)
        var same = [0, 0.5, 1.0]
        recent.share(&same, BitIdentity.identical)
        #expect(Self.storage(same) == Self.storage(first))

        var negativeZero = [-0.0, 0.5, 1.0]
        recent.share(&negativeZero, BitIdentity.identical)
        #expect(Self.storage(negativeZero) != Self.storage(first))
        #expect(negativeZero[0].sign == .minus)

        var shorter = [0, 0.5]
        recent.share(&shorter, BitIdentity.identical)
        #expect(Self.storage(shorter) != Self.storage(first))
        #expect(shorter == [0, 0.5])
    }

    /// Four lists are kept, the oldest replaced first.
    @Test func keepsTheLastFour() {
        var recent = RecentLists<Double>()
        var made: [[Double]] = []
        for k in 0..<5 {
            var list = [Double(k), 1]
            recent.share(&list, BitIdentity.identical)
            made.append(list)
        }
        var oldest = [0.0, 1]
        recent.share(&oldest, BitIdentity.identical)
        #expect(Self.storage(oldest) != Self.storage(made[0]), "the first list was replaced by the fifth")
        var latest = [4.0, 1]
        recent.share(&latest, BitIdentity.identical)
        #expect(Self.storage(latest) == Self.storage(made[4]))
    }

    @Test func timingFunctionsAndValuesCompareBitForBit() {
        let cubic = TimingFunction.cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        #expect(BitIdentity.identical(cubic, .cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)))
        #expect(!BitIdentity.identical(cubic, .cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1.0.nextUp)))
        #expect(!BitIdentity.identical(TimingFunction.cubic(x1: 0, y1: 0, x2: 1, y2: 1), .cubic(x1: -0.0, y1: 0, x2: 1, y2: 1)))
        #expect(BitIdentity.identical(TimingFunction.steps(count: 3, position: .end), .steps(count: 3, position: .end)))
        #expect(!BitIdentity.identical(TimingFunction.steps(count: 3, position: .end), .steps(count: 3, position: .start)))
        #expect(!BitIdentity.identical(TimingFunction.linear, cubic))
        #expect(BitIdentity.identical(Value.number(.nan), .number(.nan)))
        #expect(!BitIdentity.identical(Value.number(0), .number(-0.0)))
        // Only numbers are compared; anything else is never shared.
        #expect(!BitIdentity.identical(Value.point(Point(1, 2)), .point(Point(1, 2))))
    }

    /// Through the checker: equal lists of two layers share storage, and the layer that
    /// differs only by a zero's sign keeps its own values, with the sign.
    @Test func layersShareTheirRepeatedKeyframes() throws {
        let path = "Tests/AnimcCheckerTests/Fixtures/sharing/repeated-keyframes.anim"
        let result = check(parse(SourceFile(name: path, bytes: Repository.bytes(path))))
        #expect(result.diagnostics.isEmpty)
        let layers = try #require(result.composition?.layers)
        func keyframes(_ id: String) throws -> Keyframes {
            let layer = try #require(layers.first { $0.id == id })
            guard case .property(let p) = try #require(layer.animations.first).kind, case .keyframes(let k) = p.content else {
                throw KeyframesMissing()
            }
            return k
        }
        let a = try keyframes("a"), b = try keyframes("b"), c = try keyframes("c"), d = try keyframes("d"), e = try keyframes("e")
        #expect(Self.storage(b.values) == Self.storage(a.values))
        #expect(Self.storage(b.keyTimes ?? []) == Self.storage(a.keyTimes ?? []))
        #expect(Self.storage(b.timingFunctions) == Self.storage(a.timingFunctions))
        #expect(Self.storage(c.values) != Self.storage(a.values))
        guard case .number(let first) = c.values[0] else { Issue.record("c's first value is not a number"); return }
        #expect(first.sign == .minus)
        #expect(Self.storage(c.keyTimes ?? []) == Self.storage(a.keyTimes ?? []))
        #expect(Self.storage(e.values) != Self.storage(d.values))
        #expect(e.values == d.values)
    }

    struct KeyframesMissing: Error {}
}
