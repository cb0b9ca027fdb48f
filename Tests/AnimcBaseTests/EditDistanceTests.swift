import AnimcBase
import AnimcTestSupport
import Testing

/// Edit distances and suggestions: the ASCII fast path against a reference written from
/// the definition, on names as typed and on random text with capitals and non-ASCII.
@Suite struct EditDistanceTests {
    /// Optimal string alignment on Unicode scalars over the whole matrix, no limit:
    /// insert, delete and substitute cost one, a substitution that only changes case
    /// costs one, and swapping two adjacent scalars costs one.
    static func reference(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        if x.isEmpty || y.isEmpty { return d[x.count][y.count] }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }

    /// The reference suggestion: the first case variant in order, else the nearest within
    /// a third of the name's length (at least one), ties to the one that sorts first.
    static func referenceMatch(_ name: String, _ candidates: [String]) -> String? {
        let threshold = max(1, name.unicodeScalars.count / 3)
        if let variant = candidates.first(where: { $0 != name && $0.lowercased() == name.lowercased() }) { return variant }
        let near = candidates.filter { $0 != name }.map { ($0, reference(name, $0)) }.filter { $0.1 <= threshold }
        return near.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    static func randomText(_ rng: inout SplitMix64) -> String {
        let alphabet: [Character] = ["a", "b", "c", "A", "B", "e", "E", "_", "1", "é", "É", "ß", "🙂"]
        let asciiOnly = rng.next() % 3 != 0
        let count = Int(rng.next() % 9)
        return String((0..<count).map { _ in
            let pick = Int(rng.next() % UInt64(asciiOnly ? 9 : alphabet.count))
            return alphabet[pick]
        })
    }

    @Test func distancesMatchTheDefinition() {
        var rng = SplitMix64(seed: 0xED17)
        var checked = 0
        for _ in 0..<20_000 {
            let a = Self.randomText(&rng), b = Self.randomText(&rng)
            let exact = Self.reference(a, b)
            #expect(editDistance(a, b) == exact, "\(a) → \(b)")
            // Under a limit the distance is exact up to the limit, and past the limit
            // whenever the exact one is.
            let limit = Int(rng.next() % 4)
            let limited = editDistance(a, b, limit: limit)
            #expect(exact <= limit ? limited == exact : limited > limit, "\(a) → \(b) within \(limit): \(limited)")
            checked += 1
        }
        #expect(checked == 20_000)
        #expect(editDistance("opacity", "opactiy") == 1)
        #expect(editDistance("Position", "position") == 1)
        #expect(editDistance("backgroundColor", "backgroundColour") == 1)
    }

    @Test func suggestionsMatchTheDefinition() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<3_000 {
            let name = Self.randomText(&rng)
            let candidates = (0..<Int(rng.next() % 12)).map { _ in Self.randomText(&rng) }
            #expect(closestMatch(to: name, in: candidates) == Self.referenceMatch(name, candidates), "\(name) in \(candidates)")
        }
        #expect(closestMatch(to: "opactiy", in: ["position", "opacity", "bounds"]) == "opacity")
        #expect(closestMatch(to: "OPACITY", in: ["position", "opacity"]) == "opacity")
        #expect(closestMatch(to: "zzz", in: ["position", "opacity"]) == nil)
    }
}
