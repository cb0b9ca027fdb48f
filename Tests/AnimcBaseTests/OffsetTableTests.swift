@testable import AnimcBase
import AnimcTestSupport
import Testing

/// `OffsetTable` against `Dictionary`, the map it stands in for, on the keys the checker
/// gives it: offsets, packed ranges (including ranges that differ only in their end),
/// the zero key, keys that collide in the table's top bits, updates and in-place changes.
@Suite struct OffsetTableTests {
    @Test(arguments: [0, 1, 15, 16, 17, 1_000, 20_000])
    func agreesWithADictionary(count: Int) {
        var table = OffsetTable<Int>()
        var reference: [UInt64: Int] = [:]
        var order: [UInt64] = []
        var random = SplitMix64(seed: UInt64(count) + 7)
        for i in 0..<count {
            let key: UInt64
            switch i % 4 {
            case 0: key = UInt64(i)
            case 1: key = OffsetTable<Int>.key(SourceRange(i / 3, i / 3 + 5))
            case 2: key = OffsetTable<Int>.key(SourceRange(i / 3, i / 3 + 6))
            // Multiples of 2^58 share the low bits and differ only where the hash shifts out.
            default: key = UInt64(i) << 58 | UInt64(i & 1)
            }
            table.set(key, i)
            if reference[key] == nil { order.append(key) }
            reference[key] = i
            if i > 0, Int.random(in: 0..<4, using: &random) == 0 {
                let earlier = order[Int.random(in: 0..<order.count, using: &random)]
                table.update(earlier, initial: 0) { $0 -= 1 }
                reference[earlier, default: 0] -= 1
            }
        }
        #expect(table.count == reference.count)
        #expect(table.keys == order, "entries keep insertion order")
        for (key, value) in reference { #expect(table[key] == value, "\(key)") }
        for probe in [UInt64.max, 1 << 40, 123_456_789] where reference[probe] == nil { #expect(table[probe] == nil) }
    }

    @Test func rangesAreKeyedByBothEnds() {
        var table = OffsetTable<String>()
        table.set(SourceRange(3, 9), "a")
        table.set(SourceRange(3, 10), "b")
        table.set(SourceRange(0, 0), "empty")
        #expect(table[SourceRange(3, 9)] == "a")
        #expect(table[SourceRange(3, 10)] == "b")
        #expect(table[SourceRange(0, 0)] == "empty")
        #expect(table[SourceRange(9, 12)] == nil)
        table.update(OffsetTable<String>.key(SourceRange(4, 4)), initial: "x") { $0 += "y" }
        #expect(table[SourceRange(4, 4)] == "xy")
    }
}
