import AnimcBase
import AnimcIR
import Testing

/// ``Layer`` keeps its parent and mask indices in 32 bits (80 bytes a layer, not 96).
/// What the properties read back must be what was set, for every index a composition
/// can hold; an index beyond 32 bits, which none can, reads back clamped and stays
/// invalid; and the layer's other fields, its timing among them, are unaffected.
@Suite struct LayerStorageTests {
    static func layer(parent: Int?, mask: Int? = nil, timing: LayerTiming = LayerTiming()) -> Layer {
        Layer(id: "l", kind: .layer, parent: parent, mask: mask, properties: [], animations: [], timing: timing,
              range: SourceRange(start: 0, end: 1))
    }

    @Test func indicesReadBackAsSet() {
        let indices: [Int?] = [nil, 0, 1, 249_999, 999_999_999, -1, -999_999_999, Int(Int32.max), Int(Int32.min) + 1]
        for i in indices {
            var l = Self.layer(parent: i, mask: i)
            #expect(l.parent == i && l.mask == i, "\(String(describing: i))")
            l.parent = 7
            l.mask = i
            #expect(l.parent == 7 && l.mask == i)
            l.parent = nil
            #expect(l.parent == nil && l.mask == i)
        }
    }

    @Test func indicesBeyondThirtyTwoBitsAreClampedAndStayInvalid() {
        let high = Self.layer(parent: Int.max, mask: Int(Int32.max) + 1)
        #expect(high.parent == Int(Int32.max) && high.mask == Int(Int32.max))
        let low = Self.layer(parent: Int.min)
        // Clamped to a negative index, never to "no parent".
        #expect(low.parent == Int(Int32.min) + 1)
        let composition = Composition(name: "c", size: Size(1, 1), fps: 30, window: nil, backgroundColor: nil,
                                      layers: [Self.layer(parent: nil), high, low], range: SourceRange(start: 0, end: 1))
        let problems = IRValidation.problems(composition)
        #expect(problems.contains { $0.hasPrefix("layers[1].parent") })
        #expect(problems.contains { $0.hasPrefix("layers[1].mask") })
        #expect(problems.contains { $0.hasPrefix("layers[2].parent") })
    }

    @Test func timingReadsBackAndComparesByValue() {
        let identity = Self.layer(parent: nil)
        #expect(identity.timing == LayerTiming())
        let own = LayerTiming(beginTime: 0.5, speed: 2, timeOffset: -0.25)
        var a = Self.layer(parent: nil, timing: own)
        #expect(a.timing == own)
        var b = Self.layer(parent: nil)
        b.timing = own
        #expect(a == b && a.hashValue == b.hashValue)
        b.timing.speed = 3
        #expect(b.timing == LayerTiming(beginTime: 0.5, speed: 3, timeOffset: -0.25))
        #expect(a != b)
        // Back to the identity, set explicitly or left out: the same layer.
        a.timing = LayerTiming()
        #expect(a == identity && a.hashValue == identity.hashValue)
        let nan = LayerTiming(beginTime: .nan)
        #expect(Self.layer(parent: nil, timing: nan).timing.beginTime.isNaN)
    }
}
