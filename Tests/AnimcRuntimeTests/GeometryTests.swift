import AnimcIR
@testable import AnimcRuntime
import Foundation
import Testing

/// Composed matrices as Core Animation builds them.
@Suite struct GeometryTests {
    func apply(_ m: M4, _ x: Double, _ y: Double) -> Point {
        let p = m.apply(x, y)
        return Point(p.x, p.y)
    }

    @Test func positionAnchorAndBounds() {
        let c = Build.composition([Build.layer("a", properties: [.position: .point(Point(100, 50)), .bounds: .rect(Rect(0, 0, 20, 10))])])
        let m = Timeline(c).state(at: 0).matrix(ofLayer: 0)
        #expect(apply(m, 0, 0) == Point(90, 45))
        #expect(apply(m, 20, 10) == Point(110, 55))
        let c2 = Build.composition([Build.layer("a", properties: [.position: .point(Point(100, 50)), .bounds: .rect(Rect(5, 5, 20, 10)),
                                                                  .anchorPoint: .point(Point(0, 0))])])
        #expect(apply(Timeline(c2).state(at: 0).matrix(ofLayer: 0), 5, 5) == Point(100, 50))
    }

    @Test func transformsTurnAboutTheAnchorPoint() {
        let c = Build.composition([Build.layer("a", properties: [
            .position: .point(Point(100, 100)), .bounds: .rect(Rect(0, 0, 20, 20)),
            .transform: .transform(Transform([.rotate(x: 0, y: 0, z: 1, angle: .pi / 2)])),
        ])])
        let p = apply(Timeline(c).state(at: 0).matrix(ofLayer: 0), 20, 10)   // right middle of the bounds
        #expect(close(p.x, 100, 1e-12) && close(p.y, 110, 1e-12))            // turned clockwise on screen to the bottom
    }

    @Test func sublayersComposeWithTheirParentAndItsSublayerTransform() {
        let parent = Build.layer("p", properties: [.position: .point(Point(50, 50)), .bounds: .rect(Rect(0, 0, 100, 100)),
                                                   .sublayerTransform: .transform(Transform([.scale(x: 2, y: 2, z: 1)]))])
        let child = Build.layer("p.c", parent: 0, properties: [.position: .point(Point(60, 50)), .bounds: .rect(Rect(0, 0, 10, 10))])
        let m = Timeline(Build.composition([parent, child])).state(at: 0).matrix(ofLayer: 1)
        // The child's centre is 10 right of the parent's anchor; the sublayer transform doubles that about the anchor.
        let centre = apply(m, 5, 5)
        #expect(close(centre.x, 70, 1e-12) && close(centre.y, 50, 1e-12))
    }

    /// The flip card's transform: rotation about (1, 5, 0), then perspective m34 = −1/d.
    @Test func rotationThenPerspective() {
        let d = 320.0, angle = 0.7
        let list = Transform([.perspective(distance: d), .rotate(x: 1, y: 5, z: 0, angle: angle)])
        let expected = M4.rotation(angle, 1, 5, 0).concat(M4((1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1)))
        for (a, b) in zip(list.matrix.array, expected.array) { #expect(close(a, b, 1e-15)) }
    }

    @Test func plainLayersFlattenAndTransformLayersDoNot() {
        let tilt = Transform([.rotate(x: 0, y: 1, z: 0, angle: 0.5)])
        for (kind, flattened) in [(LayerKind.layer, true), (.transformLayer, false)] {
            let parent = Build.layer("p", kind: kind, properties: [.bounds: .rect(Rect(0, 0, 10, 10))])
            let child = Build.layer("p.c", parent: 0, properties: [.bounds: .rect(Rect(0, 0, 10, 10)), .transform: .transform(tilt)])
            let m = Timeline(Build.composition([parent, child])).state(at: 0).matrix(ofLayer: 1)
            let z = m.apply(10, 5).z
            #expect(flattened ? z == 0 : abs(z) > 1e-6)
        }
    }

    @Test func layersThatAreNotDoubleSidedDisappearWhenTheyFaceAway() {
        for (angle, visible) in [(0.0, true), (80.0, true), (100.0, false), (260.0, false), (280.0, true)] {
            let l = Build.layer("a", properties: [
                .bounds: .rect(Rect(0, 0, 10, 10)), .doubleSided: .bool(false),
                .transform: .transform(Transform([.perspective(distance: 500), .rotate(x: 0, y: 1, z: 0, angle: angle * .pi / 180)])),
            ])
            let opacity = Timeline(Build.composition([l])).state(at: 0).effectiveOpacity(ofLayer: 0)
            #expect(opacity == (visible ? 1 : 0), "\(angle)°")
        }
    }

    @Test func opacityMultipliesDownTheTreeAndHiddenHidesDescendants() {
        let parent = Build.layer("p", properties: [.opacity: .number(0.5)])
        let child = Build.layer("p.c", parent: 0, properties: [.opacity: .number(0.5)])
        let grandchild = Build.layer("p.c.g", parent: 1)
        let s = Timeline(Build.composition([parent, child, grandchild])).state(at: 0)
        #expect(s.effectiveOpacity(ofLayer: 1) == 0.25 && s.effectiveOpacity(ofLayer: 2) == 0.25)
        let hidden = Build.layer("p", properties: [.hidden: .bool(true)])
        let s2 = Timeline(Build.composition([hidden, Build.layer("p.c", parent: 0)])).state(at: 0)
        #expect(s2.effectiveOpacity(ofLayer: 0) == 0 && s2.effectiveOpacity(ofLayer: 1) == 0)
    }

    /// An opacity animated from −1 (BEMCheckBox's fill) or past 1 is kept as the
    /// presentation value and drawn clamped: a layer at −0.5 is invisible, not negative,
    /// and a child of a layer at 1.5 is not brighter than its own opacity.
    @Test func opacityOutsideZeroToOneIsDrawnClamped() {
        let fade = Build.basic("opacity", from: .number(-1), to: .number(1), Timing(duration: 1))
        let parent = Build.layer("p", animations: [fade])
        let over = Build.basic("opacity", from: .number(1.5), to: .number(1.5), Timing(duration: 1))
        let bright = Build.layer("b", animations: [over])
        let child = Build.layer("b.c", parent: 1, properties: [.opacity: .number(0.4)])
        let t = Timeline(Build.composition([parent, bright, child]))
        let s = t.state(at: 0.25)
        #expect(t.value("opacity", layer: "p", at: 0.25) == .number(-0.5))
        #expect(s.effectiveOpacity(ofLayer: 0) == 0)
        #expect(abs(t.state(at: 0.75).effectiveOpacity(ofLayer: 0) - 0.5) < 1e-12)
        #expect(s.effectiveOpacity(ofLayer: 1) == 1 && s.effectiveOpacity(ofLayer: 2) == 0.4)
        #expect(PropertyTable.info(.opacity).shown(-0.5) == 0 && PropertyTable.info(.lineWidth).shown(-2) == 0)
        #expect(PropertyTable.info(.strokeEnd).shown(1.2) == 1 && PropertyTable.info(.zPosition).shown(-7) == -7)
    }

    /// Reusing a state for increasing times gives exactly what fresh states give.
    @Test func theSequentialFastPathMatchesFreshEvaluation() {
        let a = Build.property("zPosition", Timing(duration: 3, repeatCount: 2), .keyframes(Keyframes(
            values: (0..<50).map { .number(Double($0 * $0 % 17)) }, keyTimes: (0..<50).map { Double($0) / 49 },
            timingFunctions: (0..<49).map { _ in .easeInEaseOut })))
        let t = Build.timeline([a])
        var reused = t.makeState()
        for k in 0..<600 {
            let time = Double(k) / 100
            t.evaluate(at: time, into: &reused)
            #expect(t.value("zPosition", layer: 0, in: reused) == t.value("zPosition", layer: 0, in: t.state(at: time)))
        }
    }
}
