import AnimcIR
import AnimcRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How finely each image is drawn over the frames a render draws, so that the driver can
/// keep each picture at the size it is shown rather than the size of its file (issue 51:
/// four 8192² PNGs drawn in small layers held 1.35 GB).
///
/// For each image layer it keeps, over every frame noted, the names its `contents`
/// showed, its gravities, its largest bounds and the most device pixels one of its
/// points covers along x and along y (through its whole matrix, perspective and
/// ``RenderOptions/scale`` included). Each is a maximum, so the reduction it allows is
/// never more than any frame allows.
public struct ImageDemand: Sendable {
    struct Use: Sendable {
        var names: Set<String> = []
        var gravities: Set<String> = []
        var width = 0.0, height = 0.0
        var perPointX = 0.0, perPointY = 0.0
    }
    var uses: [Int: Use] = [:]

    public init() {}

    /// The largest whole factor by which `name`, an image of `width` × `height` pixels,
    /// can be made smaller (``AnimcImage/Bitmap/reduced(by:)``) and still have at least two
    /// pixels for each device pixel it covers along each side, in every frame noted: 1
    /// when it is shown at half its size or larger, or never shown.
    public func reduction(for name: String, width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 1 }
        let iw = Double(width), ih = Double(height)
        var factor = Double.infinity
        for use in uses.values where use.names.contains(name) {
            for gravity in use.gravities {
                // The contents' size in the layer's points, as the renderer places them.
                let shown = SceneRenderer.contentsRect(gravity, in: Rect(0, 0, use.width, use.height), size: Size(iw, ih))
                let shownX = shown.width * use.perPointX, shownY = shown.height * use.perPointY
                guard shownX.isFinite, shownY.isFinite else { return 1 }
                if shownX > 0 { factor = min(factor, iw / (2 * shownX)) }
                if shownY > 0 { factor = min(factor, ih / (2 * shownY)) }
            }
        }
        guard factor.isFinite else { return 1 }
        return max(1, Int(factor.rounded(.down)))
    }
}

extension ImageDemand {
    /// Adds what `state` shows of each image layer of `timeline`, drawn at `scale`.
    public mutating func note(_ state: SceneState, of timeline: Timeline, scale: Double) {
        let keys = SceneRenderer.Keys()
        func value(_ key: KeyPathInfo?, _ i: Int) -> Value? { key.flatMap { timeline.value($0, layer: i, in: state) } }
        for (i, layer) in timeline.composition.layers.enumerated() where layer.kind == .image {
            guard case .image(let name?)? = value(keys.contents, i) else { continue }
            let bounds: Rect = { if case .rect(let r)? = value(keys.bounds, i) { return r }; return .zero }()
            let projection = SceneRenderer.Projection(state.matrix(ofLayer: i), scale: scale.isFinite && scale > 0 ? scale : 1,
                                                      around: Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2))
            var use = uses[i] ?? Use()
            use.names.insert(name)
            if case .enumeration(let gravity)? = value(keys.contentsGravity, i) { use.gravities.insert(gravity) } else { use.gravities.insert("resize") }
            if bounds.width.isFinite { use.width = max(use.width, abs(bounds.width)) }
            if bounds.height.isFinite { use.height = max(use.height, abs(bounds.height)) }
            // A point's reach in device pixels at each corner of the bounds (a perspective
            // stretches one side more than another).
            for corner in [Point(bounds.x, bounds.y), Point(bounds.x + bounds.width, bounds.y),
                           Point(bounds.x, bounds.y + bounds.height), Point(bounds.x + bounds.width, bounds.y + bounds.height)] {
                guard let c = projection.map(corner) else { continue }
                if let x = projection.map(Point(corner.x + 1, corner.y)) { use.perPointX = max(use.perPointX, hypot(x.x - c.x, x.y - c.y)) }
                if let y = projection.map(Point(corner.x, corner.y + 1)) { use.perPointY = max(use.perPointY, hypot(y.x - c.x, y.y - c.y)) }
            }
            uses[i] = use
        }
    }
}
