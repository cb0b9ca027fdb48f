import AnimcBase
import AnimcIR
import AnimcRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The values one Lottie layer is computed from at one instant: the CA layer's own
/// properties as the runtime presents them, plus what its parent contributes.
///
/// Sampled tracks read these from the runtime at every frame; exact tracks take them at
/// one instant of a piece and substitute an animation's keyframe value for the property
/// it animates (``set(_:_:)``), so both go through the same formulas in ``channels``.
struct LayerValues {
    var position = Point(0, 0)
    var anchorPoint = Point(0.5, 0.5)
    var bounds = Rect.zero
    /// The layer's `transform`, in Core Animation's row-vector layout.
    var transform = M4.identity
    var opacity = 1.0
    var backgroundColor = Color.clear
    var cornerRadius = 0.0
    var borderWidth = 0.0
    var borderColor = Color.black
    var path = Path.empty
    var fillColor = Color.black
    var strokeColor = Color.clear
    var lineWidth = 1.0
    var strokeStart = 0.0
    var strokeEnd = 1.0
    var colors: [Color] = []
    var locations: [Double] = []
    var startPoint = Point(0.5, 0)
    var endPoint = Point(0.5, 1)
    /// What the parent applies to this layer's local matrix (its sublayerTransform
    /// about its anchor), and the heading of a motion animation.
    var parentSublayer = M4.identity
    var heading = 0.0
    /// Opacity inherited from the ancestors (Lottie does not inherit it through `parent`).
    var inheritedOpacity = 1.0
    /// For a layer drawn in 3D: its composed matrix and final opacity, which replace the
    /// local matrix (the layer is not parented in Lottie).
    var world: M4?
    var effectiveOpacity = 1.0
    /// Set for a layer written as one Lottie image layer: its asset's size in pixels,
    /// the space the Lottie transform maps (see ``LottieExporter``'s `imagePixels`).
    var imagePixels: (w: Double, h: Double)?

    /// Reads layer `i` from `state`.
    init(_ timeline: Timeline, layer i: Int, state: SceneState, world: Bool) {
        func v(_ key: KeyPathInfo?) -> Value? { key.flatMap { timeline.value($0, layer: i, in: state) } }
        if case .point(let p)? = v(Keys.position) { position = p }
        if case .point(let p)? = v(Keys.anchorPoint) { anchorPoint = p }
        if case .rect(let r)? = v(Keys.bounds) { bounds = r }
        if case .transform(let t)? = v(Keys.transform) { transform = t.matrix }
        if case .number(let x)? = v(Keys.opacity) { opacity = x }
        if case .bool(true)? = v(Keys.hidden) { opacity = 0 }
        if case .color(let c)? = v(Keys.backgroundColor) { backgroundColor = c }
        if case .number(let x)? = v(Keys.cornerRadius) { cornerRadius = x }
        if case .number(let x)? = v(Keys.borderWidth) { borderWidth = x }
        if case .color(let c)? = v(Keys.borderColor) { borderColor = c }
        let layer = timeline.composition.layers[i]
        switch layer.kind {
        case .shape:
            if case .path(let p)? = v(Keys.path) { path = p }
            if case .color(let c)? = v(Keys.fillColor) { fillColor = c }
            if case .color(let c)? = v(Keys.strokeColor) { strokeColor = c }
            if case .number(let x)? = v(Keys.lineWidth) { lineWidth = x }
            if case .number(let x)? = v(Keys.strokeStart) { strokeStart = x }
            if case .number(let x)? = v(Keys.strokeEnd) { strokeEnd = x }
        case .gradient:
            if case .colors(let c)? = v(Keys.colors) { colors = c }
            if case .numbers(let l)? = v(Keys.locations) { locations = l }
            if case .point(let p)? = v(Keys.startPoint) { startPoint = p }
            if case .point(let p)? = v(Keys.endPoint) { endPoint = p }
        default: break
        }
        heading = timeline.motionAngle(ofLayer: i, in: state)
        if let p = layer.parent {
            if case .transform(let t)? = Keys.sublayerTransform.flatMap({ timeline.value($0, layer: p, in: state) }), t != .identity {
                var pb = Rect.zero, pa = Point(0.5, 0.5)
                if case .rect(let r)? = Keys.bounds.flatMap({ timeline.value($0, layer: p, in: state) }) { pb = r }
                if case .point(let a)? = Keys.anchorPoint.flatMap({ timeline.value($0, layer: p, in: state) }) { pa = a }
                let ax = pb.x + pa.x * pb.width, ay = pb.y + pa.y * pb.height
                parentSublayer = M4.translation(-ax, -ay, 0).concat(t.matrix).concat(.translation(ax, ay, 0))
            }
            inheritedOpacity = state.effectiveOpacity(ofLayer: p)
        }
        effectiveOpacity = state.effectiveOpacity(ofLayer: i)
        if world { self.world = state.matrix(ofLayer: i) }
    }

    /// Replaces what `keyPath` names with `value`, as an animation of it would. False
    /// when the key path is not one an exact track can be derived through.
    mutating func set(_ keyPath: String, _ value: Value) -> Bool {
        switch (keyPath, value) {
        case ("position", .point(let p)): position = p
        case ("position.x", .number(let x)): position.x = x
        case ("position.y", .number(let y)): position.y = y
        case ("anchorPoint", .point(let p)): anchorPoint = p
        case ("bounds", .rect(let r)): bounds = r
        case ("bounds.size", .size(let s)): bounds.width = s.width; bounds.height = s.height
        case ("bounds.size.width", .number(let x)): bounds.width = x
        case ("bounds.size.height", .number(let x)): bounds.height = x
        case ("opacity", .number(let x)): opacity = x
        case ("backgroundColor", .color(let c)): backgroundColor = c
        case ("cornerRadius", .number(let x)): cornerRadius = x
        case ("borderWidth", .number(let x)): borderWidth = x
        case ("borderColor", .color(let c)): borderColor = c
        case ("path", .path(let p)): path = p
        case ("fillColor", .color(let c)): fillColor = c
        case ("strokeColor", .color(let c)): strokeColor = c
        case ("lineWidth", .number(let x)): lineWidth = x
        case ("strokeStart", .number(let x)): strokeStart = x
        case ("strokeEnd", .number(let x)): strokeEnd = x
        case ("transform", .transform(let t)): transform = t.matrix
        case ("transform.rotation", .number(let a)), ("transform.rotation.z", .number(let a)):
            guard var d = Affine2D(transform) else { return false }
            d.rotation = a
            transform = d.matrix
        case ("transform.scale", .number(let s)), ("transform.scale.xy", .number(let s)):
            guard var d = Affine2D(transform) else { return false }
            d.scaleX = s; d.scaleY = s
            transform = d.matrix
        case ("transform.scale.x", .number(let s)):
            guard var d = Affine2D(transform) else { return false }
            d.scaleX = s
            transform = d.matrix
        case ("transform.scale.y", .number(let s)):
            guard var d = Affine2D(transform) else { return false }
            d.scaleY = s
            transform = d.matrix
        case ("transform.translation.x", .number(let x)):
            guard var d = Affine2D(transform) else { return false }
            d.translateX = x
            transform = d.matrix
        case ("transform.translation.y", .number(let y)):
            guard var d = Affine2D(transform) else { return false }
            d.translateY = y
            transform = d.matrix
        default: return false
        }
        return true
    }
}

/// A 2D affine transform split the way Lottie's transform is composed (spec helpers.md
/// "Transform"): translate, rotate, skew (along x), scale. Angles in radians, clockwise
/// on screen, as Core Animation's.
struct Affine2D: Equatable {
    var translateX = 0.0, translateY = 0.0
    var rotation = 0.0
    var scaleX = 1.0, scaleY = 1.0
    /// x' = x + skew · y before rotating (the tangent, not the angle).
    var skew = 0.0
    /// The map split, as given (column form): where a point lands, even when the map has
    /// no area and its parts lose a direction (a plane seen edge-on).
    var given = (a: 1.0, b: 0.0, c: 0.0, d: 1.0)

    init() {}

    static func == (l: Affine2D, r: Affine2D) -> Bool {
        l.translateX == r.translateX && l.translateY == r.translateY && l.rotation == r.rotation && l.scaleX == r.scaleX
            && l.scaleY == r.scaleY && l.skew == r.skew
    }

    /// Where the map takes (x, y).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (given.a * x + given.c * y + translateX, given.b * x + given.d * y + translateY)
    }

    /// Splits the plane part of `m`, or nil when `m` has any 3D part.
    init?(_ m: M4, near previousRotation: Double? = nil) {
        let e = m.m
        guard e.2 == 0, e.3 == 0, e.6 == 0, e.7 == 0, e.8 == 0, e.9 == 0, e.11 == 0, e.14 == 0, e.15 == 1 else { return nil }
        self.init(a: e.0, b: e.1, c: e.4, d: e.5, tx: e.12, ty: e.13, near: previousRotation)
    }

    /// Column form: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double, near previousRotation: Double? = nil,
         previousScale: (x: Double, y: Double)? = nil) {
        translateX = tx
        translateY = ty
        given = (a, b, c, d)
        let sx = (a * a + b * b).squareRoot()
        var theta = sx > 1e-12 ? atan2(b, a) : (previousRotation ?? 0)
        if let p = previousRotation, sx > 1e-12 {
            // Whole turns are free. So is half a turn with both scales negated (R(θ + π)
            // ·(−U) is the same map) when the map is a mirror image, where one scale is
            // negative either way: the one nearest the rotation before. A plane turning
            // about y has its x scale pass through zero; keeping that scale positive
            // would turn the layer by 180° between two frames.
            theta += ((p - theta) / (2 * Double.pi)).rounded() * 2 * Double.pi
            let flipped = theta + ((p - theta) >= 0 ? Double.pi : -Double.pi)
            if let q = previousScale {
                // Knowing the scales before too: the choice that changes rotation and
                // scales least (a plane fit under perspective can pass from one negative
                // scale to two, which is a half turn for a rotation-only rule).
                func cost(_ angle: Double) -> Double {
                    let (cs, sn) = (cos(angle), sin(angle))
                    return abs(angle - p) + abs(cs * a + sn * b - q.x) + abs(-sn * c + cs * d - q.y)
                }
                if cost(flipped) < cost(theta) - 1e-9 { theta = flipped }
            } else if a * d - b * c < 0, abs(flipped - p) < abs(theta - p) - 1e-9 {
                theta = flipped
            }
        }
        rotation = theta
        let (cs, sn) = (cos(theta), sin(theta))
        // U = R(-θ)·M is upper triangular: [[sx, u12], [0, u22]].
        let u11 = cs * a + sn * b
        let u12 = cs * c + sn * d
        let u22 = -sn * c + cs * d
        scaleX = u11
        scaleY = u22
        skew = abs(u22) > 1e-12 ? u12 / u22 : 0
    }

    /// Back to Core Animation's row-vector layout.
    var matrix: M4 {
        let (cs, sn) = (cos(rotation), sin(rotation))
        // M = R · [[sx, skew·sy], [0, sy]]
        let a = cs * scaleX, b = sn * scaleX
        let c = cs * skew * scaleY - sn * scaleY
        let d = sn * skew * scaleY + cs * scaleY
        return M4((a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, translateX, translateY, 0, 1))
    }
}

/// Lottie's transform and content values for one layer, as flat numbers per channel.
enum Channel: Hashable, Sendable, CaseIterable {
    case anchor, position, scale, rotation, skew, opacity
    case backgroundSize, backgroundCenter, backgroundRoundness, backgroundColor, backgroundOpacity
    case borderSize, borderRoundness, borderColor, borderOpacity, borderWidth
    case path, fillColor, fillOpacity, strokeColor, strokeOpacity, strokeWidth, trimStart, trimEnd
    case gradientStart, gradientEnd, gradientStops

    /// Whether an animation of `target` moves this channel. An exact track needs exactly
    /// one such animation.
    func isDriven(by target: AnimationTarget) -> Bool {
        let p = target.property, c = target.component
        switch self {
        case .anchor: return p == .anchorPoint || p == .bounds
        case .position:
            if p == .position { return true }
            guard p == .transform else { return false }
            return c == nil || c == .translation || c == .translationX || c == .translationY
        case .scale: return p == .transform && (c == nil || c == .scale || c == .scaleX || c == .scaleY)
        case .rotation: return p == .transform && (c == nil || c == .rotationZ)
        case .skew: return p == .transform && c == nil
        case .opacity: return p == .opacity || p == .hidden
        case .backgroundSize, .backgroundCenter: return p == .bounds
        case .backgroundRoundness: return p == .cornerRadius
        case .backgroundColor, .backgroundOpacity: return p == .backgroundColor
        case .borderSize: return p == .bounds || p == .borderWidth
        case .borderRoundness: return p == .cornerRadius || p == .borderWidth
        case .borderColor, .borderOpacity: return p == .borderColor
        case .borderWidth: return p == .borderWidth
        case .path: return p == .path
        case .fillColor, .fillOpacity: return p == .fillColor
        case .strokeColor, .strokeOpacity: return p == .strokeColor
        case .strokeWidth: return p == .lineWidth
        case .trimStart: return p == .strokeStart
        case .trimEnd: return p == .strokeEnd
        case .gradientStart: return p == .startPoint || p == .bounds
        case .gradientEnd: return p == .endPoint || p == .bounds
        case .gradientStops: return p == .colors || p == .locations
        }
    }

    /// Whether the channel is an angle in degrees (made continuous between samples).
    var isAngle: Bool { self == .rotation }

    /// How far a sampled track may miss a half frame before it is given a keyframe there,
    /// in the channel's Lottie units: 0.05 px, 0.05 % of scale or opacity, 0.05°, 0.0005
    /// of a colour component (colours are 0–1 in Lottie).
    var sampleTolerance: Double {
        switch self {
        case .backgroundColor, .borderColor, .fillColor, .strokeColor, .gradientStops: return 0.0005
        default: return 0.05
        }
    }
}

extension LayerValues {
    /// Lottie's anchor: Core Animation's unit anchor point in the bounds, in points.
    var anchor: Point { Point(bounds.x + anchorPoint.x * bounds.width, bounds.y + anchorPoint.y * bounds.height) }

    /// The layer's transform relative to its Lottie parent (or to the composition, in
    /// 3D), split as Lottie composes it; nil when it is not a plane transform.
    func local(near previousRotation: Double?, previousScale: (x: Double, y: Double)? = nil) -> Affine2D? {
        if let w = world {
            // Projected: the affine map closest to where the bounds' corners land.
            let x0 = bounds.x, y0 = bounds.y
            let wd = max(bounds.width, 1), ht = max(bounds.height, 1)
            let corners = [w.apply(x0, y0), w.apply(x0 + wd, y0), w.apply(x0, y0 + ht), w.apply(x0 + wd, y0 + ht)]
            guard corners.allSatisfy({ $0.w > 0 && $0.x.isFinite && $0.y.isFinite }) else { return nil }
            let (q00, q10, q01, q11) = (corners[0], corners[1], corners[2], corners[3])
            let a = ((q10.x + q11.x) - (q00.x + q01.x)) / (2 * wd), b = ((q10.y + q11.y) - (q00.y + q01.y)) / (2 * wd)
            let c = ((q01.x + q11.x) - (q00.x + q10.x)) / (2 * ht), d = ((q01.y + q11.y) - (q00.y + q10.y)) / (2 * ht)
            let cx = (q00.x + q10.x + q01.x + q11.x) / 4, cy = (q00.y + q10.y + q01.y + q11.y) / 4
            let mx = x0 + wd / 2, my = y0 + ht / 2
            return Affine2D(a: a, b: b, c: c, d: d, tx: cx - a * mx - c * my, ty: cy - b * mx - d * my, near: previousRotation,
                            previousScale: previousScale)
        }
        // Row vectors: T(-anchor) · transform · R(heading) · T(position) · parent's part.
        let a = anchor
        var m = M4.translation(-a.x, -a.y, 0).concat(transform)
        if heading != 0 { m = m.concat(.rotation(heading, 0, 0, 1)) }
        m = m.concat(.translation(position.x, position.y, 0)).concat(parentSublayer)
        // Flattening into the parent's plane drops z; what remains must be a plane map.
        var e = m.m
        e.2 = 0; e.6 = 0; e.8 = 0; e.9 = 0; e.10 = 1; e.14 = 0
        guard e.3 == 0, e.7 == 0, e.11 == 0, e.15 == 1 else { return nil }
        return Affine2D(a: e.0, b: e.1, c: e.4, d: e.5, tx: e.12, ty: e.13, near: previousRotation, previousScale: previousScale)
    }

    /// The channel's numbers; `rotation` continues from `previousRotation` (degrees).
    func value(of channel: Channel, previousRotation: Double?, previousScale: [Double]? = nil) -> [Double]? {
        switch channel {
        case .anchor:
            // In an image layer, the anchor among the asset's pixels.
            if let px = imagePixels { return [anchorPoint.x * px.w, anchorPoint.y * px.h] }
            return [anchor.x, anchor.y]
        case .position, .scale, .rotation, .skew:
            let scale = previousScale.flatMap { $0.count == 2 ? (x: $0[0] / 100, y: $0[1] / 100) : nil }
            guard let l = local(near: previousRotation.map { $0 * Double.pi / 180 }, previousScale: scale) else { return nil }
            let a = anchor
            switch channel {
            case .position:
                // Lottie: p is where the anchor lands, by the map itself: recomposed from
                // its parts, a map with no area (edge-on) would lose a direction and put
                // the anchor hundreds of points away for one frame.
                let p = l.apply(a.x, a.y)
                return [p.x, p.y]
            case .scale:
                // In an image layer, the asset's pixels stretched to the bounds.
                let (kx, ky) = imagePixels.map { (bounds.width / $0.w, bounds.height / $0.h) } ?? (1, 1)
                return [l.scaleX * kx * 100, l.scaleY * ky * 100]
            case .rotation: return [l.rotation * 180 / Double.pi]
            default: return [-atan(l.skew) * 180 / Double.pi]
            }
        case .opacity:
            return [100 * (world != nil ? effectiveOpacity : Shown.opacity.shown(opacity) * inheritedOpacity)]
        case .backgroundSize: return [bounds.width, bounds.height]
        case .backgroundCenter: return [bounds.x + bounds.width / 2, bounds.y + bounds.height / 2]
        // The players clamp the roundness to half the rect, as Core Animation does.
        case .backgroundRoundness: return [Shown.cornerRadius.shown(cornerRadius)]
        case .backgroundColor: return [backgroundColor.red, backgroundColor.green, backgroundColor.blue]
        case .backgroundOpacity: return [100 * backgroundColor.alpha]
        case .borderSize:
            // Core Animation draws the border inside the bounds: a stroke centred on a rect
            // inset by half its width.
            return [max(0, bounds.width - borderWidth), max(0, bounds.height - borderWidth)]
        case .borderRoundness:
            return [max(0, cornerRadius - borderWidth / 2)]
        case .borderColor: return [borderColor.red, borderColor.green, borderColor.blue]
        case .borderOpacity: return [100 * borderColor.alpha]
        case .borderWidth: return [Shown.borderWidth.shown(borderWidth)]
        case .path: return LottiePath.flatten(path)
        case .fillColor: return [fillColor.red, fillColor.green, fillColor.blue]
        case .fillOpacity: return [100 * fillColor.alpha]
        case .strokeColor: return [strokeColor.red, strokeColor.green, strokeColor.blue]
        case .strokeOpacity: return [100 * strokeColor.alpha]
        case .strokeWidth: return [Shown.lineWidth.shown(lineWidth)]
        case .trimStart: return [100 * Shown.strokeStart.shown(min(strokeStart, strokeEnd))]
        case .trimEnd: return [100 * Shown.strokeEnd.shown(max(strokeStart, strokeEnd))]
        case .gradientStart: return [bounds.x + startPoint.x * bounds.width, bounds.y + startPoint.y * bounds.height]
        case .gradientEnd: return [bounds.x + endPoint.x * bounds.width, bounds.y + endPoint.y * bounds.height]
        case .gradientStops: return LottieGradient.stops(colors: colors, locations: locations)
        }
    }
}

/// The properties whose numbers are drawn clamped into their range (Core Animation keeps
/// an out-of-range presentation value and clamps it when it draws): the one rule,
/// `PropertyInfo.shown`, that the preview and the runtime's composited opacity follow.
enum Shown {
    static let opacity = PropertyTable.info(.opacity)
    static let cornerRadius = PropertyTable.info(.cornerRadius)
    static let borderWidth = PropertyTable.info(.borderWidth)
    static let lineWidth = PropertyTable.info(.lineWidth)
    static let strokeStart = PropertyTable.info(.strokeStart)
    static let strokeEnd = PropertyTable.info(.strokeEnd)
}

/// The key paths a Lottie layer reads, looked up in the property table once: every layer
/// is read at every half frame.
enum Keys {
    static let anchorPoint = PropertyTable.keyPath("anchorPoint")
    static let backgroundColor = PropertyTable.keyPath("backgroundColor")
    static let borderColor = PropertyTable.keyPath("borderColor")
    static let borderWidth = PropertyTable.keyPath("borderWidth")
    static let bounds = PropertyTable.keyPath("bounds")
    static let colors = PropertyTable.keyPath("colors")
    static let contents = PropertyTable.keyPath("contents")
    static let cornerRadius = PropertyTable.keyPath("cornerRadius")
    static let endPoint = PropertyTable.keyPath("endPoint")
    static let fillColor = PropertyTable.keyPath("fillColor")
    static let hidden = PropertyTable.keyPath("hidden")
    static let lineWidth = PropertyTable.keyPath("lineWidth")
    static let locations = PropertyTable.keyPath("locations")
    static let opacity = PropertyTable.keyPath("opacity")
    static let path = PropertyTable.keyPath("path")
    static let position = PropertyTable.keyPath("position")
    static let startPoint = PropertyTable.keyPath("startPoint")
    static let strokeColor = PropertyTable.keyPath("strokeColor")
    static let strokeEnd = PropertyTable.keyPath("strokeEnd")
    static let strokeStart = PropertyTable.keyPath("strokeStart")
    static let sublayerTransform = PropertyTable.keyPath("sublayerTransform")
    static let transform = PropertyTable.keyPath("transform")
}
