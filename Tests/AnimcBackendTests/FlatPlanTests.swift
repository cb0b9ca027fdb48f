import AnimcBase
import AnimcCompiler
import AnimcDriver
import AnimcIR
@testable import AnimcRuntime
import AnimcTestSupport
import Testing

/// The flat evaluation plan against the animation tree it is laid out from: every
/// value, bit for bit, on every input that compiles, at times in order, out of order,
/// before, after and far away. The tree evaluator is the reference: it is what the
/// timing and interpolation tests (against semantics.md's vectors and independent
/// formulas) have always checked, and the plan is a reorganisation of the same maths.
@Suite struct FlatPlanTests {
    /// Every `.anim` the repository keeps that compiles: the examples, the porting and
    /// regression inputs, the Lottie fixtures.
    static let corpus: [String] = Repository.examples
        + ["Tests/AnimcDriverTests/Fixtures/porting", "Tests/AnimcDriverTests/Fixtures/regressions",
           "Tests/AnimcDriverTests/Fixtures/inputs", "Tests/AnimcBackendTests/Fixtures/lottie",
           "Tests/AnimcDriverTests/Fixtures/preview", "Tests/AnimcDriverTests/Fixtures/one-pass"]
            .flatMap { Repository.files(in: $0, withExtension: "anim") }

    /// The tree evaluator over the whole scene: the loop `Timeline.evaluate` ran before
    /// the plan, which resets every value to the model and applies each layer's
    /// animations in order.
    static func reference(_ t: Timeline, at time: Double, _ state: inout SceneState) {
        state.values = t.model
        var times = [Double](repeating: 0, count: t.layers.count)
        state.withBuffers { b in
            for i in t.layers.indices {
                let parentTime = t.layers[i].parent.map { times[$0] } ?? time
                let lt = t.layers[i].clock.timing
                times[i] = (parentTime - lt.beginTime) * lt.speed + lt.timeOffset
                b.angles[i] = 0
                b.lastComponent[i * 2] = -1
                b.lastComponent[i * 2 + 1] = -1
                Evaluator.evaluateAnimations(t.layers[i], layerTime: times[i], b, linearOverride: nil)
            }
        }
    }

    /// The first few values that differ in their bits, as `#index flat vs tree`.
    static func differences(_ flat: SceneState, _ tree: SceneState) -> [String] {
        zip(flat.values, tree.values).enumerated().filter { $0.element.0.bitPattern != $0.element.1.bitPattern }
            .prefix(4).map { "#\($0.offset) \($0.element.0) vs \($0.element.1)" }
    }

    static func times(_ t: Timeline) -> [Double] {
        var random = SplitMix64(seed: 14)
        let end = max(t.composition.window?.end ?? 3, 1)
        var times = (0..<240).map { Double($0) / 60 * end / 4 }                       // forwards, one frame apart
        times += (0..<60).map { end - Double($0) / 30 }                              // backwards
        times += (0..<60).map { _ in Double(random.next() % 1_000_000) / 1e6 * end * 3 - end }  // anywhere
        times += [-1e9, -1, 0, 1e-300, end, end * 2, 1e9, 1e300]
        return times
    }

    @Test(arguments: corpus)
    func thePlanGivesTheTreesValuesBitForBit(_ path: String) throws {
        guard let ir = Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path))).composition else { return }
        let t = Timeline(ir)
        var flat = t.makeState(), tree = t.makeState()
        for time in Self.times(t) {
            t.evaluate(at: time, into: &flat)
            Self.reference(t, at: time, &tree)
            let differing = Self.differences(flat, tree)
            #expect(differing.isEmpty, "\(path) at \(time): \(differing)")
            #expect(flat.angles == tree.angles, "\(path) at \(time)")
            if !differing.isEmpty { return }
        }
    }

    /// Tracks of one group share a schedule; an identical animation in another layer
    /// shares it too, and the location it found is reused only at the same progress.
    @Test func schedulesAreSharedAcrossTracksAndLayers() throws {
        let ir = try #require(Pipeline.compile(SourceFile(name: "grid.anim", text: Self.grid)).composition)
        let plan = Timeline(ir).plan
        #expect(plan.tracks.count == 12)
        #expect(Set(plan.tracks.map(\.schedule)).count == 2, "opacity and scale share one; the odd one out has its own")
        #expect(plan.tracks.map(\.direct).filter { $0 == .uniformScale }.count == 4)
        #expect(plan.nodes.filter(\.sharesSample).count == 8)
    }

    /// The direct transform writes apply exactly where the plan knows the transform is
    /// the identity and the write replaces it; everything else goes the general way.
    @Test func directTransformWritesOnlyWhereTheyApply() throws {
        let path = "Tests/AnimcBackendTests/Fixtures/flat-plan/spinners.anim"
        let ir = try #require(Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path))).composition)
        // plain: a z rotation on the identity; tilted: a rotation on rotate(30deg);
        // both: a scale, then an additive rotation; growing: a cumulative scale.
        #expect(Timeline(ir).plan.tracks.map(\.direct) == [.rotationZ, .none, .uniformScale, .none, .none])
    }

    /// Four tiles of one component; see the fixture's comment.
    static let grid = Repository.read("Tests/AnimcBackendTests/Fixtures/flat-plan/grid.anim")

    /// The same grid, where layers b and c start together: their values agree with the
    /// tree's at every frame, whichever evaluated first.
    @Test func layersThatStartTogetherShareTheirSolveAndStayExact() throws {
        let ir = try #require(Pipeline.compile(SourceFile(name: "grid.anim", text: Self.grid)).composition)
        let t = Timeline(ir)
        var flat = t.makeState(), tree = t.makeState()
        for frame in 0..<400 {
            let time = Double(frame) / 60 - 0.5
            t.evaluate(at: time, into: &flat)
            Self.reference(t, at: time, &tree)
            let differing = Self.differences(flat, tree)
            #expect(differing.isEmpty, "at \(time): \(differing)")
            if !differing.isEmpty { return }
        }
    }
}
