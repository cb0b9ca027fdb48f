import AnimcBase
import AnimcIR
@testable import AnimcRuntime
import Foundation

/// Builds IR directly, so runtime tests do not depend on the checker.
enum Build {
    static func composition(_ layers: [Layer], window: TimeWindow? = nil) -> Composition {
        Composition(name: "test", size: Size(100, 100), fps: 60, window: window, backgroundColor: nil, layers: layers,
                    range: .empty(at: 0))
    }

    static func layer(_ id: String, kind: LayerKind = .layer, parent: Int? = nil, properties: [PropertyID: Value] = [:],
                      animations: [Animation] = [], timing: LayerTiming = LayerTiming()) -> Layer {
        Layer(id: id, kind: kind, parent: parent,
              properties: properties.sorted { $0.key < $1.key }.map { PropertyValue($0.key, $0.value, range: .empty(at: 0)) },
              animations: animations, timing: timing, range: .empty(at: 0))
    }

    static func property(_ keyPath: String, _ timing: Timing, _ content: AnimationContent, name: String? = nil,
                         additive: Bool = false, cumulative: Bool = false,
                         interpolation: TransformInterpolation = .matrix) -> Animation {
        let target = PropertyTable.keyPath(keyPath)!.target
        return Animation(name: name ?? keyPath, timing: timing,
                         kind: .property(PropertyAnimation(target: target, additive: additive, cumulative: cumulative,
                                                           transformInterpolation: interpolation, content: content)),
                         range: .empty(at: 0))
    }

    static func basic(_ keyPath: String, from: Value, to: Value, _ timing: Timing, name: String? = nil, additive: Bool = false,
                      cumulative: Bool = false, interpolation: TransformInterpolation = .matrix) -> Animation {
        property(keyPath, timing, .basic(from: .value(from), to: .value(to)), name: name, additive: additive, cumulative: cumulative,
                 interpolation: interpolation)
    }

    static func group(_ name: String, _ timing: Timing, _ children: [Animation]) -> Animation {
        Animation(name: name, timing: timing, kind: .group(children), range: .empty(at: 0))
    }

    /// A timeline with one layer carrying `animations`.
    static func timeline(_ animations: [Animation], kind: LayerKind = .layer, properties: [PropertyID: Value] = [:]) -> Timeline {
        Timeline(composition([layer("a", kind: kind, properties: properties, animations: animations)]))
    }
}

extension Timeline {
    /// A number-valued key path of the first layer at `t`.
    func number(_ keyPath: String, at t: Double, layer: Int = 0) -> Double {
        if case .number(let x)? = value(keyPath, layer: layer, in: state(at: t)) { return x }
        return .nan
    }

    func point(_ keyPath: String, at t: Double, layer: Int = 0) -> Point {
        if case .point(let p)? = value(keyPath, layer: layer, in: state(at: t)) { return p }
        return Point(.nan, .nan)
    }
}

func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance }
