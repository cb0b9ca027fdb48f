import AnimcBase
import AnimcIR
import AnimcImage
import AnimcRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a frame is rendered.
public struct RenderOptions: Sendable {
    /// Device pixels per point.
    public var scale: Double = 1
    /// Drawn under everything; the composition's `background` when nil (transparent if it has none).
    public var background: Color?
    /// Curves become polylines within this distance of the curve, in device pixels: a
    /// tenth of the 0.1 px bound, so an edge pixel's coverage is off by at most 1% and a
    /// shape's area by at most 0.01 px times its perimeter (inscribed chords only lose area).
    public var tolerance: Double = 0.01
    /// Draws only this layer's own content (background, shape or gradient, border; not its
    /// sublayers) at its effective opacity, over ``background`` only (not the
    /// composition's): for looking at one layer, and for comparing one layer with another
    /// renderer.
    public var onlyLayer: Int?
    /// Decoded image assets by name (premultiplied or straight), for `contents`. A name
    /// missing here draws ``Color/missingImage`` over the layer's bounds.
    public var images: [String: Bitmap] = [:]
    /// The size in points of an image in ``images`` that was made smaller than its file
    /// (``ImageDemand``): gravity places it at this size, its pixels spread over it.
    /// Images not named here are one pixel a point.
    public var imagePointSizes: [String: Size] = [:]
    public init(scale: Double = 1, background: Color? = nil) {
        self.scale = scale
        self.background = background
    }
}

/// Rasterises a ``SceneState`` as Core Animation draws the layer tree: each layer, in
/// tree order, draws its background (rounded by `cornerRadius`), its content (a shape's
/// fill then stroke, or a gradient), its sublayers (clipped to its rounded bounds when
/// `masksToBounds`), then its border, inside its bounds, over the sublayers. A layer whose
/// opacity is below 1 and that draws more than one thing, or that has a mask, is drawn
/// into a group first and composited once with its opacity and its mask's alpha, as Core
/// Animation composites group opacity. Every layer is a projected quad: its points go
/// through its composed matrix (perspective included) before rasterising.
///
/// Not yet drawn (docs/render.md): SVG, GIF and WebP image contents (the driver decodes
/// PNG and JPEG).
///
/// A renderer keeps its buffers between frames; it is not shared between threads.
public final class SceneRenderer {
    public let timeline: Timeline
    public let options: RenderOptions
    public let width: Int
    public let height: Int
    var raster: CoverageRaster
    var root: Canvas
    var groups: [Canvas] = []
    let sublayers: [[Int]]
    let topLevel: [Int]
    let keys: Keys

    /// The most pixels a frame has a side: a frame is drawn in 16 bytes a pixel
    /// (4,096² is 256 MB), and a group as much again.
    public static let maxSide = 4096

    /// Why a composition of `size` points drawn at `scale` is too large to draw, or nil:
    /// what every command that draws says instead of drawing it smaller.
    public static func oversize(_ size: Size, scale: Double) -> String? {
        let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
        guard !(w <= Double(maxSide) && h <= Double(maxSide)) else { return nil }
        return "the frame would be \(formatNumber(w))×\(formatNumber(h)) pixels; at most 4,096 a side"
    }

    /// The size is the composition's times the scale, rounded up, at most 4,096 pixels a
    /// side (a frame is drawn in 16 bytes a pixel; 4,096² is 256 MB).
    public init(timeline: Timeline, options: RenderOptions = RenderOptions()) {
        // (Callers refuse larger frames first: ``oversize(_:scale:)``.)
        self.timeline = timeline
        var o = options
        if !(o.scale.isFinite && o.scale > 0) { o.scale = 1 }
        self.options = o
        let size = timeline.composition.size
        func pixels(_ v: Double) -> Int { v.isFinite && v > 0 ? Int(min((v * o.scale).rounded(.up), Double(SceneRenderer.maxSide))) : 1 }
        width = pixels(size.width)
        height = pixels(size.height)
        raster = CoverageRaster(width: width, height: height)
        root = Canvas(width: width, height: height)
        let layers = timeline.composition.layers
        var children = [[Int]](repeating: [], count: layers.count)
        var top: [Int] = []
        for (i, l) in layers.enumerated() where !l.isMask {
            if let p = l.parent, p >= 0, p < layers.count { children[p].append(i) } else { top.append(i) }
        }
        sublayers = children
        topLevel = top
        keys = Keys()
    }

    /// The frame at composition time `t`.
    public func render(at t: Double) -> Bitmap {
        var state = timeline.makeState()
        timeline.evaluate(at: t, into: &state)
        return render(state)
    }

    /// The frame `state` holds, premultiplied RGBA8.
    public func render(_ state: SceneState) -> Bitmap {
        root.dirty = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        root.clear()
        // One layer alone is drawn on nothing (its alpha is what it covers) unless a
        // background is asked for.
        if let bg = options.background ?? (options.onlyLayer == nil ? timeline.composition.backgroundColor : nil) {
            root.fillAll(premultiply(bg))
        }
        var frame = Frame(state: state)
        if let only = options.onlyLayer {
            if only >= 0, only < timeline.composition.layers.count {
                draw(only, &frame, into: &root, clip: nil, depth: 0, alone: true)
            }
        } else {
            for i in inDrawingOrder(topLevel, frame) { draw(i, &frame, into: &root, clip: nil, depth: 0) }
        }
        return root.bitmap()
    }

    /// What one frame's drawing carries.
    struct Frame {
        let state: SceneState
    }

    struct Keys {
        let opacity = PropertyTable.keyPath("opacity"), hidden = PropertyTable.keyPath("hidden")
        let bounds = PropertyTable.keyPath("bounds"), backgroundColor = PropertyTable.keyPath("backgroundColor")
        let cornerRadius = PropertyTable.keyPath("cornerRadius"), borderWidth = PropertyTable.keyPath("borderWidth")
        let borderColor = PropertyTable.keyPath("borderColor"), masksToBounds = PropertyTable.keyPath("masksToBounds")
        let path = PropertyTable.keyPath("path"), fillColor = PropertyTable.keyPath("fillColor")
        let strokeColor = PropertyTable.keyPath("strokeColor"), lineWidth = PropertyTable.keyPath("lineWidth")
        let strokeStart = PropertyTable.keyPath("strokeStart"), strokeEnd = PropertyTable.keyPath("strokeEnd")
        let lineCap = PropertyTable.keyPath("lineCap"), lineJoin = PropertyTable.keyPath("lineJoin")
        let miterLimit = PropertyTable.keyPath("miterLimit"), lineDashPhase = PropertyTable.keyPath("lineDashPhase")
        let lineDashPattern = PropertyTable.keyPath("lineDashPattern"), fillRule = PropertyTable.keyPath("fillRule")
        let colors = PropertyTable.keyPath("colors"), locations = PropertyTable.keyPath("locations")
        let startPoint = PropertyTable.keyPath("startPoint"), endPoint = PropertyTable.keyPath("endPoint")
        let gradientType = PropertyTable.keyPath("gradientType"), zPosition = PropertyTable.keyPath("zPosition")
        let shadowColor = PropertyTable.keyPath("shadowColor"), shadowOpacity = PropertyTable.keyPath("shadowOpacity")
        let shadowOffset = PropertyTable.keyPath("shadowOffset"), shadowRadius = PropertyTable.keyPath("shadowRadius")
        let contents = PropertyTable.keyPath("contents"), contentsGravity = PropertyTable.keyPath("contentsGravity")
    }

    func value(_ key: KeyPathInfo?, _ layer: Int, _ frame: Frame) -> Value? {
        guard let key else { return nil }
        return timeline.value(key, layer: layer, in: frame.state)
    }
    func number(_ key: KeyPathInfo?, _ layer: Int, _ frame: Frame) -> Double? {
        if case .number(let x)? = value(key, layer, frame), x.isFinite { return x }
        return nil
    }
    func color(_ key: KeyPathInfo?, _ layer: Int, _ frame: Frame) -> Color? {
        if case .color(let c)? = value(key, layer, frame) { return c }
        return nil
    }
    func flag(_ key: KeyPathInfo?, _ layer: Int, _ frame: Frame) -> Bool {
        switch value(key, layer, frame) {
        case .bool(let b)?: return b
        case .number(let x)?: return x >= 0.5
        default: return false
        }
    }
    func enumeration(_ key: KeyPathInfo?, _ layer: Int, _ frame: Frame) -> String? {
        if case .enumeration(let e)? = value(key, layer, frame) { return e }
        return nil
    }

    func premultiply(_ c: Color, _ opacity: Double = 1) -> Premultiplied {
        func unit(_ v: Double) -> Float { v.isFinite ? Float(min(max(v, 0), 1)) : 0 }
        let a = unit(c.alpha) * unit(opacity)
        return Premultiplied(r: unit(c.red) * a, g: unit(c.green) * a, b: unit(c.blue) * a, a: a)
    }

    /// A layer's points in device pixels, through its composed matrix.
    struct Projection {
        let matrix: M4
        let scale: Double
        /// Layer units per device pixel near the layer's bounds: curves are flattened
        /// in layer units to a device tolerance.
        var layerUnitsPerPixel = 1.0

        init(_ matrix: M4, scale: Double, around center: Point) {
            self.matrix = matrix
            self.scale = scale
            if let c = map(center), let x = map(Point(center.x + 1, center.y)), let y = map(Point(center.x, center.y + 1)) {
                let stretch = max(hypot(x.x - c.x, x.y - c.y), hypot(y.x - c.x, y.y - c.y))
                if stretch.isFinite, stretch > 1e-12 { layerUnitsPerPixel = 1 / stretch }
            }
        }

        func map(_ p: Point) -> DevicePoint? {
            let r = matrix.apply(p.x, p.y)
            // Behind the eye: the point has no place on screen.
            guard r.w > 1e-9, r.x.isFinite, r.y.isFinite else { return nil }
            return DevicePoint(r.x * scale, r.y * scale)
        }

        /// Maps every polygon; nil if any point is behind the viewer.
        func map(_ polygons: [[Point]]) -> [[DevicePoint]]? {
            var out: [[DevicePoint]] = []
            out.reserveCapacity(polygons.count)
            for polygon in polygons {
                var mapped: [DevicePoint] = []
                mapped.reserveCapacity(polygon.count)
                for p in polygon {
                    guard let d = map(p) else { return nil }
                    mapped.append(d)
                }
                out.append(mapped)
            }
            return out
        }

        /// The layer point under a device pixel's centre (the matrix's plane inverted).
        func inverse() -> Inverse? {
            let m = matrix.m
            // Row vector (x, y, 1) times H gives (X, Y, W).
            let h = (m.0, m.1, m.3, m.4, m.5, m.7, m.12, m.13, m.15)
            let det = h.0 * (h.4 * h.8 - h.5 * h.7) - h.1 * (h.3 * h.8 - h.5 * h.6) + h.2 * (h.3 * h.7 - h.4 * h.6)
            guard det.isFinite, abs(det) > 1e-300 else { return nil }
            return Inverse(i0: (h.4 * h.8 - h.5 * h.7) / det, i1: (h.2 * h.7 - h.1 * h.8) / det, i2: (h.1 * h.5 - h.2 * h.4) / det,
                           i3: (h.5 * h.6 - h.3 * h.8) / det, i4: (h.0 * h.8 - h.2 * h.6) / det, i5: (h.2 * h.3 - h.0 * h.5) / det,
                           i6: (h.3 * h.7 - h.4 * h.6) / det, i7: (h.1 * h.6 - h.0 * h.7) / det, i8: (h.0 * h.4 - h.1 * h.3) / det,
                           scale: scale)
        }
    }

    /// A layer's plane inverted: device pixel → layer point. A value with its numbers in
    /// fields, so the per-pixel call is inlined (a closure over an array of them was a
    /// seventh of drawing the splash's tiles).
    struct Inverse {
        let i0, i1, i2, i3, i4, i5, i6, i7, i8: Double
        let scale: Double

        /// The layer point under device pixel (px, py)'s centre; nil on the plane's horizon.
        @inline(__always)
        func callAsFunction(_ px: Double, _ py: Double) -> Point? {
            let X = (px + 0.5) / scale, Y = (py + 0.5) / scale
            let w = X * i2 + Y * i5 + i8
            guard w != 0 else { return nil }
            return Point((X * i0 + Y * i3 + i6) / w, (X * i1 + Y * i4 + i7) / w)
        }
    }

    /// The group canvas for `depth`, moved out of the pool (so drawing into it copies
    /// nothing); ``give(_:depth:)`` puts it back, cleared. It keeps the window it grew
    /// to, so the next frame's group of about the same place reuses its storage.
    func take(depth: Int) -> Canvas {
        while groups.count <= depth { groups.append(.group(width: width, height: height)) }
        var c = Canvas.group(width: 0, height: 0)
        swap(&c, &groups[depth])
        return c.width == width ? c : .group(width: width, height: height)
    }

    func give(_ canvas: Canvas, depth: Int) {
        groups[depth] = canvas
    }

    /// Siblings as Core Animation draws them: sorted by zPosition, equal ones in the order
    /// they were added (they were drawn in declaration order whatever their zPosition).
    func inDrawingOrder(_ list: [Int], _ frame: Frame) -> [Int] {
        guard list.count > 1 else { return list }
        let z = list.map { i -> Double in let v = number(keys.zPosition, i, frame) ?? 0; return v.isNaN ? 0 : v }
        guard z.contains(where: { $0 != 0 }) else { return list }
        return list.indices.sorted { z[$0] != z[$1] ? z[$0] < z[$1] : $0 < $1 }.map { list[$0] }
    }

    /// `inherited`: the opacity of the ancestors not drawn as groups, which this layer's
    /// drawing carries (a faded layer with one sublayer and nothing of its own is not
    /// grouped: its opacity reaches the sublayer this way; it was once dropped).
    func draw(_ i: Int, _ frame: inout Frame, into target: inout Canvas, clip: CoverageMask?, depth: Int, alone: Bool = false,
              inherited: Double = 1) {
        let layers = timeline.composition.layers
        guard depth < 512 else { return }
        if flag(keys.hidden, i, frame) { return }
        let opacity = alone ? frame.state.effectiveOpacity(ofLayer: i) : min(max(number(keys.opacity, i, frame) ?? 1, 0), 1) * inherited
        if opacity <= 0 { return }
        // A layer facing away with doubleSided off has effective opacity 0 from the runtime.
        if frame.state.effectiveOpacity(ofLayer: i) <= 0 { return }
        let bounds: Rect = { if case .rect(let r)? = value(keys.bounds, i, frame) { return r }; return .zero }()
        let projection = Projection(frame.state.matrix(ofLayer: i), scale: options.scale,
                                    around: Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2))
        let tolerance = options.tolerance * projection.layerUnitsPerPixel
        let radius = max(number(keys.cornerRadius, i, frame) ?? 0, 0)
        let children = alone ? [] : inDrawingOrder(sublayers[i], frame)
        let mask = alone ? nil : layers[i].mask
        var parts = 0
        let background = color(keys.backgroundColor, i, frame).flatMap { $0.alpha > 0 ? $0 : nil }
        if background != nil { parts += 1 }
        let borderWidth = max(number(keys.borderWidth, i, frame) ?? 0, 0)
        let border = borderWidth > 0 ? color(keys.borderColor, i, frame).flatMap { $0.alpha > 0 ? $0 : nil } : nil
        if border != nil { parts += 1 }
        // A shape's fill and stroke overlap, so a faded shape is a group; a gradient or an
        // image is one paint, drawn at the layer's opacity directly (the same pixels as a
        // group of it, without the group's canvas: the splash's 135 fading tiles).
        if layers[i].kind == .shape { parts += 2 } else if layers[i].kind == .gradient || layers[i].kind == .image { parts += 1 }
        parts += children.count
        let masksToBounds = flag(keys.masksToBounds, i, frame)
        // A shadow is the blurred alpha of everything the layer draws, so the layer is
        // drawn as a group first. Core Animation clips it away with masksToBounds.
        var shadow: (color: Premultiplied, offset: Point, sigma: Double)?
        if !alone, !masksToBounds, let c = color(keys.shadowColor, i, frame),
           case let o = min(max(number(keys.shadowOpacity, i, frame) ?? 0, 0), 1), o > 0, c.alpha > 0 {
            var offset = Point(0, -3)
            if case .size(let s)? = value(keys.shadowOffset, i, frame) { offset = Point(s.width, s.height) }
            shadow = (premultiply(c, o), offset, max(number(keys.shadowRadius, i, frame) ?? 3, 0))
        }
        let grouped = mask != nil || shadow != nil || (opacity < 1 && parts > 1)
        let ownAlpha = grouped ? 1 : opacity

        var group = grouped ? take(depth: depth + 1) : .group(width: 0, height: 0)
        func paint(_ body: (inout Canvas) -> Void) {
            if grouped { body(&group) } else { body(&target) }
        }
        let innerClip: CoverageMask? = grouped ? nil : clip

        if let background {
            let outline = Flattening.roundedRect(bounds, radius: radius, tolerance: tolerance)
            paint { fillSolid([outline], .nonZero, projection, premultiply(background, ownAlpha), clip: innerClip, into: &$0) }
        }
        // masksToBounds clips the layer's own contents (its path, gradient, image) as well
        // as its sublayers, to the rounded bounds: a rounded avatar is an image layer
        // with a corner radius and masksToBounds. (Only the sublayers were clipped once.)
        let hasContents = layers[i].kind == .shape || layers[i].kind == .gradient || layers[i].kind == .image
        let boundsClip: CoverageMask? = masksToBounds && (hasContents || !children.isEmpty)
            ? intersect(innerClip, [Flattening.roundedRect(bounds, radius: radius, tolerance: tolerance)], projection) : innerClip
        switch layers[i].kind {
        case .shape: paint { drawShape(i, frame, projection, tolerance, ownAlpha, boundsClip, into: &$0) }
        case .gradient: paint { drawGradient(i, frame, projection, bounds, ownAlpha, boundsClip, into: &$0) }
        case .image: paint { drawImage(i, frame, projection, bounds, ownAlpha, boundsClip, into: &$0) }
        default: break
        }
        if !children.isEmpty {
            let childClip = boundsClip
            for c in children {
                if grouped { draw(c, &frame, into: &group, clip: childClip, depth: depth + 1) } else {
                    draw(c, &frame, into: &target, clip: childClip, depth: depth + 1, inherited: opacity)
                }
            }
        }
        if let border {
            let outer = Flattening.roundedRect(bounds, radius: radius, tolerance: tolerance)
            let inset = Rect(bounds.x + borderWidth, bounds.y + borderWidth, bounds.width - 2 * borderWidth,
                             bounds.height - 2 * borderWidth)
            var shapes = [outer]
            if inset.width > 0, inset.height > 0 {
                shapes.append(Flattening.roundedRect(inset, radius: max(radius - borderWidth, 0), tolerance: tolerance).reversed())
            }
            paint { fillSolid(shapes, .nonZero, projection, premultiply(border, ownAlpha), clip: innerClip, into: &$0) }
        }
        guard grouped else { return }
        var maskCoverage: CoverageMask?
        if let m = mask, m >= 0, m < layers.count {
            var maskCanvas = take(depth: depth + 2)
            draw(m, &frame, into: &maskCanvas, clip: nil, depth: depth + 2)
            maskCoverage = maskCanvas.alphaMask()
            maskCanvas.clear()
            give(maskCanvas, depth: depth + 2)
        }
        if let shadow {
            // Offset and blur radius are in the layer's units: through its matrix to pixels.
            let center = Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2)
            if let a = projection.map(center), let b = projection.map(Point(center.x + shadow.offset.x, center.y + shadow.offset.y)) {
                var alpha = group.alphaMask()
                if let m = maskCoverage, !alpha.box.isEmpty {
                    for y in alpha.box.y0..<alpha.box.y1 {
                        for x in alpha.box.x0..<alpha.box.x1 { alpha.values[alpha.index(x, y)] *= m.value(x, y) }
                    }
                }
                let blurred = Blur.gaussian(alpha, width: width, height: height, sigma: shadow.sigma / projection.layerUnitsPerPixel,
                                            dx: b.x - a.x, dy: b.y - a.y)
                target.paint(blurred, color: shadow.color.scaled(Float(opacity)), clip: clip)
            }
        }
        target.composite(&group, opacity: Float(opacity), mask: maskCoverage, clip: clip)
        give(group, depth: depth + 1)
    }

    func fillSolid(_ polygons: [[Point]], _ rule: FillRule, _ projection: Projection, _ color: Premultiplied,
                   clip: CoverageMask?, into canvas: inout Canvas) {
        guard color.a > 0, let device = projection.map(polygons) else { return }
        for p in device { raster.addPolygon(p) }
        canvas.fill(&raster, rule, clip: clip) { _, _ in color }
    }

    /// `clip` times the coverage of `polygons`.
    func intersect(_ clip: CoverageMask?, _ polygons: [[Point]], _ projection: Projection) -> CoverageMask {
        guard let device = projection.map(polygons) else { return CoverageMask(box: .empty) }
        for p in device { raster.addPolygon(p) }
        var reach = raster.pending
        if let clip { reach = reach.intersection(clip.box) }
        var mask = CoverageMask(box: reach)
        raster.sweep(.nonZero) { row, x0, coverage in
            for k in 0..<coverage.count where coverage[k] > 0 {
                let x = x0 + k
                guard x >= reach.x0, x < reach.x1, row >= reach.y0, row < reach.y1 else { continue }
                mask.values[mask.index(x, row)] = coverage[k] * (clip?.value(x, row) ?? 1)
            }
        }
        return mask
    }

    func drawShape(_ i: Int, _ frame: Frame, _ projection: Projection, _ tolerance: Double, _ alpha: Double,
                   _ clip: CoverageMask?, into canvas: inout Canvas) {
        guard case .path(let path)? = value(keys.path, i, frame) else { return }
        let polylines = Flattening.polylines(path, tolerance: tolerance)
        if let fill = color(keys.fillColor, i, frame), fill.alpha > 0 {
            let rule: FillRule = enumeration(keys.fillRule, i, frame) == "evenOdd" ? .evenOdd : .nonZero
            fillSolid(polylines.map(\.points), rule, projection, premultiply(fill, alpha), clip: clip, into: &canvas)
        }
        if let stroke = color(keys.strokeColor, i, frame), stroke.alpha > 0 {
            var style = StrokeStyle(width: number(keys.lineWidth, i, frame) ?? 1)
            style.cap = ["round": .round, "square": .square][enumeration(keys.lineCap, i, frame) ?? ""] ?? .butt
            style.join = ["round": .round, "bevel": .bevel][enumeration(keys.lineJoin, i, frame) ?? ""] ?? .miter
            style.miterLimit = number(keys.miterLimit, i, frame) ?? 10
            style.dashPhase = number(keys.lineDashPhase, i, frame) ?? 0
            if case .numbers(let dashes)? = value(keys.lineDashPattern, i, frame) { style.dashPattern = dashes }
            style.start = number(keys.strokeStart, i, frame) ?? 0
            style.end = number(keys.strokeEnd, i, frame) ?? 1
            let outline = Stroker(style, tolerance: tolerance).outline(polylines)
            fillSolid(outline, .nonZero, projection, premultiply(stroke, alpha), clip: clip, into: &canvas)
        }
    }

    /// Axial, radial and conic gradients over the bounds. `startPoint`/`endPoint` are in
    /// the unit square of the bounds; colours interpolate straight (as CGGradient does)
    /// between `locations` (evenly spaced when there are none) and hold beyond the ends.
    func drawGradient(_ i: Int, _ frame: Frame, _ projection: Projection, _ bounds: Rect, _ alpha: Double,
                      _ clip: CoverageMask?, into canvas: inout Canvas) {
        guard case .colors(let colors)? = value(keys.colors, i, frame), !colors.isEmpty,
              bounds.width > 0, bounds.height > 0, let inverse = projection.inverse() else { return }
        var locations: [Double] = []
        if case .numbers(let l)? = value(keys.locations, i, frame), l.count == colors.count { locations = l }
        if locations.isEmpty {
            locations = colors.count == 1 ? [0] : (0..<colors.count).map { Double($0) / Double(colors.count - 1) }
        }
        func point(_ key: KeyPathInfo?, _ fallback: Point) -> Point {
            if case .point(let p)? = value(key, i, frame) { return p }
            return fallback
        }
        let type = enumeration(keys.gradientType, i, frame) ?? "axial"
        let start = point(keys.startPoint, Point(0.5, 0)), end = point(keys.endPoint, Point(0.5, 1))
        let sx = bounds.x + start.x * bounds.width, sy = bounds.y + start.y * bounds.height
        let ex = bounds.x + end.x * bounds.width, ey = bounds.y + end.y * bounds.height
        let dx = ex - sx, dy = ey - sy
        let lengthSquared = dx * dx + dy * dy
        let rx = abs(dx), ry = abs(dy)
        let startAngle = atan2(dy, dx)
        func parameter(_ p: Point) -> Double {
            switch type {
            case "radial":
                guard rx > 0 || ry > 0 else { return 1 }
                let u = rx > 0 ? (p.x - sx) / rx : 0, v = ry > 0 ? (p.y - sy) / ry : 0
                return (u * u + v * v).squareRoot()
            case "conic":
                var a = atan2(p.y - sy, p.x - sx) - startAngle
                a = a.truncatingRemainder(dividingBy: 2 * Double.pi)
                if a < 0 { a += 2 * Double.pi }
                return a / (2 * Double.pi)
            default:
                return lengthSquared > 0 ? ((p.x - sx) * dx + (p.y - sy) * dy) / lengthSquared : 0
            }
        }
        let stops = zip(locations, colors).sorted { $0.0 < $1.0 }
        func colorAt(_ t: Double) -> Color {
            guard let first = stops.first, let last = stops.last else { return .clear }
            if !(t > first.0) { return first.1 }
            if t >= last.0 { return last.1 }
            // The first stop at or past t, from the second on: a binary search, so 10,000
            // stops cost what two do (a linear walk per pixel took 13.7 s).
            var lo = 1, hi = stops.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if stops[mid].0 < t { lo = mid + 1 } else { hi = mid }
            }
            let k = lo
            let (l0, c0) = stops[k - 1], (l1, c1) = stops[k]
            let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
            return Color(red: c0.red + (c1.red - c0.red) * f, green: c0.green + (c1.green - c0.green) * f,
                         blue: c0.blue + (c1.blue - c0.blue) * f, alpha: c0.alpha + (c1.alpha - c0.alpha) * f)
        }
        let outline = Flattening.roundedRect(bounds, radius: 0, tolerance: 1)
        guard let device = projection.map([outline]) else { return }
        for p in device { raster.addPolygon(p) }
        canvas.fill(&raster, .nonZero, clip: clip) { x, y in
            guard let p = inverse(Double(x), Double(y)) else { return .clear }
            return premultiply(colorAt(parameter(p)), alpha)
        }
    }

    /// Where `contentsGravity` places contents of `size` points in `bounds`: stretched
    /// (`resize`), scaled to fit or to fill and centred, else at their own size by the named
    /// edge or corner (y down, as UIKit reads them). What ``ImageDemand`` measures too.
    static func contentsRect(_ gravity: String, in bounds: Rect, size: Size) -> Rect {
        let iw = size.width, ih = size.height
        switch gravity {
        case "resize":
            return bounds
        case "resizeAspect", "resizeAspectFill":
            let fit = gravity == "resizeAspect" ? min(bounds.width / iw, bounds.height / ih) : max(bounds.width / iw, bounds.height / ih)
            return Rect(bounds.x + (bounds.width - iw * fit) / 2, bounds.y + (bounds.height - ih * fit) / 2, iw * fit, ih * fit)
        default:
            var x = bounds.x + (bounds.width - iw) / 2, y = bounds.y + (bounds.height - ih) / 2
            if gravity.lowercased().contains("left") { x = bounds.x }
            if gravity.lowercased().contains("right") { x = bounds.x + bounds.width - iw }
            if gravity.lowercased().hasPrefix("top") { y = bounds.y }
            if gravity.lowercased().hasPrefix("bottom") { y = bounds.y + bounds.height - ih }
            return Rect(x, y, iw, ih)
        }
    }

    /// Image contents placed by `contentsGravity` in the bounds (the image's pixels are
    /// points, contentsScale 1), sampled bilinearly through the layer's matrix. As in Core
    /// Animation, contents overflow the bounds (`resizeAspectFill`, the edge gravities)
    /// unless `masksToBounds` clips the layer.
    func drawImage(_ i: Int, _ frame: Frame, _ projection: Projection, _ bounds: Rect, _ alpha: Double,
                   _ clip: CoverageMask?, into canvas: inout Canvas) {
        guard case .image(let name?)? = value(keys.contents, i, frame) else { return }
        guard let image = options.images[name]?.premultiplied(), image.width > 0, image.height > 0 else {
            // No usable file: the same grey over the bounds as the preview and the Lottie
            // export draw, so a missing asset looks alike everywhere (issue 51).
            let outline = Flattening.roundedRect(bounds, radius: 0, tolerance: 1)
            fillSolid([outline], .nonZero, projection, premultiply(.missingImage, alpha), clip: clip, into: &canvas)
            return
        }
        guard let inverse = projection.inverse() else { return }
        let points = options.imagePointSizes[name]
        let iw = points?.width ?? Double(image.width), ih = points?.height ?? Double(image.height)
        let dest = SceneRenderer.contentsRect(enumeration(keys.contentsGravity, i, frame) ?? "resize", in: bounds, size: Size(iw, ih))
        guard dest.width > 0, dest.height > 0, dest.width.isFinite, dest.height.isFinite,
              let device = projection.map([Flattening.roundedRect(dest, radius: 0, tolerance: 1)]) else { return }
        for p in device { raster.addPolygon(p) }
        let k = Float(min(max(alpha, 0), 1)) / 255
        let pw = Double(image.width), ph = Double(image.height)
        let sx = pw / dest.width, sy = ph / dest.height
        let iwidth = image.width, iheight = image.height
        image.pixels.withUnsafeBufferPointer { px in
            canvas.fill(&raster, .nonZero, clip: clip) { x, y in
                guard let p = inverse(Double(x), Double(y)), p.x.isFinite, p.y.isFinite else { return .clear }
                // Pixel centres at half-integers; clamped at the edges.
                let u = min(max((p.x - dest.x) * sx - 0.5, 0), pw - 1), v = min(max((p.y - dest.y) * sy - 0.5, 0), ph - 1)
                let x0 = Int(u), y0 = Int(v)
                let x1 = x0 + 1 < iwidth ? x0 + 1 : x0, y1 = y0 + 1 < iheight ? y0 + 1 : y0
                let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
                // The four neighbours' weights, and the layer's alpha (and 1/255) folded in.
                let w00 = (1 - fx) * (1 - fy) * k, w10 = fx * (1 - fy) * k, w01 = (1 - fx) * fy * k, w11 = fx * fy * k
                let a = (y0 * iwidth + x0) * 4, b = (y0 * iwidth + x1) * 4, c = (y1 * iwidth + x0) * 4, d = (y1 * iwidth + x1) * 4
                @inline(__always) func mix(_ o: Int) -> Float {
                    Float(px[a + o]) * w00 + Float(px[b + o]) * w10 + Float(px[c + o]) * w01 + Float(px[d + o]) * w11
                }
                return Premultiplied(r: mix(0), g: mix(1), b: mix(2), a: mix(3))
            }
        }
    }
}


extension SceneRenderer {
    /// What the renderer draws of each property (see ``SupportTable``; docs/render.md).
    public static let support = SupportTable(
        backend: "render",
        exact: [.position, .zPosition, .anchorPoint, .anchorPointZ, .bounds, .sublayerTransform, .opacity, .hidden, .doubleSided,
                .masksToBounds, .backgroundColor, .cornerRadius, .borderWidth, .borderColor, .shadowColor, .shadowOpacity,
                .shadowOffset, .shadowRadius, .contentsGravity, .path, .fillColor, .strokeColor, .lineWidth, .strokeStart, .strokeEnd,
                .lineCap, .lineJoin, .miterLimit, .lineDashPhase, .lineDashPattern, .fillRule, .colors, .locations, .startPoint,
                .endPoint, .gradientType],
        approximate: [
            .transform: "3D layers are drawn in tree order; layers that intersect are not split",
            .contents: "PNG and baseline JPEG; SVG, GIF, WebP and progressive JPEG contents are drawn as the grey placeholder (Color.missingImage), with a warning",
        ])
}
