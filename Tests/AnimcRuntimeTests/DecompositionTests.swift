import AnimcIR
@testable import AnimcRuntime
import AnimcTestSupport
import Testing

/// The shortcuts the evaluator takes around matrices must give exactly what the
/// general path gives, or baked output would depend on which path ran.
@Suite struct DecompositionTests {
    static let components: [KeyPathComponent] = [.rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY, .scaleZ,
                                                  .translation, .translationX, .translationY, .translationZ]

    @Test func identityDecomposesToTheDefaultParts() throws {
        let d = try #require(DecomposedTransform(.identity))
        #expect(d == DecomposedTransform())
        #expect(d.matrix == .identity)
    }

    @Test(arguments: components)
    func readingAPartOfTheIdentityNeedsNoDecomposition(_ c: KeyPathComponent) {
        #expect(TransformComponents.readFirst(c, from: .identity) == TransformComponents.read(c, from: .identity)[0])
    }

    @Test func translationShortcutsEqualTheFullProduct() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            var entries: [Double] = []
            for _ in 0..<16 { entries.append(Double(rng.next() % 2_000_001) / 100_000 - 10) }
            let m = M4(entries)
            let (x, y, z) = (Double(rng.next() % 20_001) / 100 - 100, Double(rng.next() % 20_001) / 100 - 100, Double(rng.next() % 20_001) / 100 - 100)
            #expect(m.translatedBefore(x, y, z) == M4.translation(x, y, z).concat(m))
            #expect(m.translatedAfter(x, y, z) == m.concat(.translation(x, y, z)))
        }
    }

    @Test func equalityIsEntrywise() {
        var a = M4.identity
        #expect(a == .identity && a.isIdentity)
        a.m.14 = 1e-300
        #expect(a != .identity && !a.isIdentity)
        a.m.14 = .nan
        #expect(a != a)
    }
}
