import AnimcIR
@testable import AnimcRuntime
import AnimcTestSupport
import Testing

/// The evaluation's shortcuts against the general forms they stand for.
@Suite struct FastPathTests {
    /// Awkward values, then random bit patterns of every magnitude and sign.
    static let roundingInputs: [Double] = {
        var xs: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 1, -1,
                            0.9999999999999999, -0.9999999999999999, 0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52 + 1,
                            0x1p53, 0x1p63, -0x1p63, 1e300, -1e300, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
                            -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        var rng = SplitMix64(seed: 52)
        for _ in 0..<20_000 {
            let bits = rng.next()
            // Mostly exponents near 1 (where the cases are), some anywhere.
            let x = Double(bitPattern: bits % 4 == 0 ? bits : (bits & 0x800F_FFFF_FFFF_FFFF) | (UInt64(1013 + bits % 60) << 52))
            xs.append(x)
        }
        return xs
    }()

    @Test func roundingHelpersGiveTheLibrarysBits() {
        for x in Self.roundingInputs {
            for (name, ours, library) in [("down", roundedDown(x), x.rounded(.down)), ("up", roundedUp(x), x.rounded(.up)),
                                          ("nearest", roundedToNearest(x), x.rounded())] {
                let same = ours.bitPattern == library.bitPattern || (ours.isNaN && library.isNaN)
                #expect(same, "\(name) of \(x): \(ours) vs \(library)")
                if !same { return }
            }
        }
    }

    /// The 2D chain for leaf layers of flat scenes is the full 4×4 chain's result.
    @Test func planarWorldIsTheFullChain() {
        var rng = SplitMix64(seed: 11)
        func r() -> Double { Double(rng.next() % 2_000_001) / 1000 - 1000 }
        let none = [Double](repeating: -1, count: 1)
        for k in 0..<2000 {
            var g = none.withUnsafeBufferPointer { LayerGeometry(GeometryOffsets(), $0.baseAddress!) }
            (g.anchorX, g.anchorY, g.positionX, g.positionY) = (r(), r(), r(), r())
            var t = M4.identity
            (t.m.0, t.m.1, t.m.4, t.m.5, t.m.12, t.m.13) = (r(), r(), r(), r(), r(), r())
            if k % 3 == 0 { t.m.10 = r() }
            var parent = M4.identity
            (parent.m.0, parent.m.1, parent.m.4, parent.m.5, parent.m.12, parent.m.13) = (r(), r(), r(), r(), r(), r())
            if k % 2 == 0 { parent.m.10 = 0 }  // a flattening parent
            let local = t.translatedBefore(-g.anchorX, -g.anchorY, -g.anchorZ).translatedAfter(g.positionX, g.positionY, g.zPosition)
            var tEntries = t.array, pEntries = parent.array
            tEntries.withUnsafeMutableBufferPointer { tp in
                pEntries.withUnsafeMutableBufferPointer { pp in
                    #expect(Timeline.planarWorld(g, transform: tp.baseAddress, parent: .some(pp.baseAddress)) == local.concat(parent))
                    #expect(Timeline.planarWorld(g, transform: tp.baseAddress, parent: nil) == local)
                    // Not planar: the general chain decides.
                    #expect(Timeline.planarWorld(g, transform: tp.baseAddress, parent: .some(nil)) == nil)
                    tp[k % 2 == 0 ? 2 : 14] = 0.5
                    #expect(Timeline.planarWorld(g, transform: tp.baseAddress, parent: nil) == nil)
                    tp[k % 2 == 0 ? 2 : 14] = 0
                    tp[0] = .infinity
                    #expect(Timeline.planarWorld(g, transform: tp.baseAddress, parent: nil) == nil)
                }
            }
            g.zPosition = 1
            #expect(Timeline.planarWorld(g, transform: nil, parent: nil) == nil)
        }
    }

    /// `transform.scale` written on the identity without the decomposition: the same
    /// bits as through it, signed zeros included.
    @Test func scaleOnTheIdentityIsTheDecompositionsMatrix() {
        for component in [KeyPathComponent.scale, .scaleX, .scaleY, .scaleZ] {
            for v in [2.0, -3.0, 0, -0.0, 1e-300, 1e300] {
                for additive in [false, true] {
                    var value = v
                    let fast = TransformComponents.write(component, value: &value, width: 1, additive: additive, to: .identity)
                    var d = DecomposedTransform()
                    let s = additive ? 1 + v : v
                    switch component {
                    case .scale: d.scale = (s, s, s)
                    case .scaleX: d.scale.0 = s
                    case .scaleY: d.scale.1 = s
                    default: d.scale.2 = s
                    }
                    #expect(fast.array.map(\.bitPattern) == d.matrix.array.map(\.bitPattern), "\(component) \(v) \(additive)")
                }
            }
        }
    }
}
