@testable import AnimcBase
import AnimcTestSupport
import Testing

/// `NameTable` against `Dictionary`, the map it stands in for, on the names a source
/// file holds: a few (the linear search) and thousands (the hash index), updates,
/// names that differ in one byte, non-ASCII and empty names.
@Suite struct NameTableTests {
    /// Deterministic names: short identifiers, indexed names as loops make them, names
    /// longer than a small string, non-ASCII ones, and the empty name.
    static func name(_ i: Int) -> String {
        switch i % 5 {
        case 0: return "n\(i)"
        case 1: return "tile[\(i / 7),\(i % 7)]"
        case 2: return "aVeryLongLayerNameThatIsNotASmallString\(i)"
        case 3: return "ü\(i)ß"
        default: return i == 4 ? "" : "x\(i)y"
        }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 40, 5_000])
    func agreesWithADictionary(count: Int) {
        var table = NameTable<Int>()
        var reference: [String: Int] = [:]
        var order: [String] = []
        var random = SplitMix64(seed: UInt64(count) + 1)
        for i in 0..<count {
            let key = Self.name(i)
            table[key] = i
            if reference[key] == nil { order.append(key) }
            reference[key] = i
            // Replace some earlier value: the count and the order stay.
            if i > 0, Int.random(in: 0..<4, using: &random) == 0 {
                let earlier = Self.name(Int.random(in: 0..<i, using: &random))
                table[earlier] = -i
                reference[earlier] = -i
            }
        }
        #expect(table.count == reference.count)
        for (key, value) in reference { #expect(table[key] == value, "\(key)") }
        // Absent names, including ones one byte away from present ones.
        for i in 0..<Swift.max(count, 20) {
            let absent = [Self.name(i) + "_", "_" + Self.name(i), "m\(i)"]
            for key in absent where reference[key] == nil { #expect(table[key] == nil, "\(key)") }
        }
        #expect(table.entries.map(\.key) == order)
        #expect(table.entries.map(\.value) == order.map { reference[$0]! })
    }

    /// Names added through a probe (searched once, inserted where absent) give the same
    /// table as the subscript's: across the size where the index is first built and
    /// where it grows, with every other name already present.
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 33, 200])
    func probedInsertionsAgreeWithTheSubscript(count: Int) {
        var probed = NameTable<Int>(), assigned = NameTable<Int>()
        for i in 0..<count {
            let key = Self.name(i)
            for attempt in [key, Self.name(i / 2)] {
                let probe = probed.probe(attempt)
                if probe.found {
                    #expect(probed.value(at: probe) == assigned[attempt], "\(attempt)")
                } else {
                    #expect(assigned[attempt] == nil, "\(attempt)")
                    #expect(probed.value(at: probe) == nil)
                    probed.insert(attempt, i, absent: probe)
                    assigned[attempt] = i
                }
            }
        }
        #expect(probed.count == assigned.count)
        #expect(probed.entries.map(\.key) == assigned.entries.map(\.key))
        #expect(probed.entries.map(\.value) == assigned.entries.map(\.value))
        for (key, value) in assigned.entries { #expect(probed[key] == value, "\(key)") }
        #expect(probed["absent"] == nil && !probed.probe("absent").found)
    }

    @Test func setsNilIsIgnored() {
        var table = NameTable([("a", 1), ("b", 2)])
        table["a"] = nil
        #expect(table["a"] == 1)
        #expect(table.count == 2)
    }

    @Test func updatesValuesInPlaceAndStops() {
        var table = NameTable((0..<20).map { ("k\($0)", $0) })
        #expect(table.updateValues { $0 += 100; return true })
        #expect(table["k7"] == 107)
        var visited = 0
        #expect(!table.updateValues { value in
            visited += 1
            value = 0
            return visited < 3
        })
        #expect(visited == 3)
        #expect(table["k0"] == 0 && table["k2"] == 0 && table["k3"] == 103)
    }
}
