import AnimcBake
import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcRuntime

/// Writes a composition as a Lottie 1.0 file (Bodymovin JSON), for the players apps
/// already ship. The mapping, with what is exact and what is sampled, is in
/// docs/formats.md ("Lottie").
///
/// Every property becomes one Lottie track, chosen in this order:
/// 1. constant over the window: a static value;
/// 2. moved by exactly one animation whose values Lottie can interpolate (numbers,
///    points, sizes, rects, colours, plane transforms; linear, cubic or discrete): exact
///    keyframes with the same Bézier handles, cut where repeats, autoreverses, offsets,
///    fills and groups cut the animation's time (``TimePieces``);
/// 3. otherwise: sampled at every frame into linear keyframes, with a W08xx finding
///    naming the animation and why.
/// An exact track is used only after it reproduces the runtime at every frame and half
/// frame; a track that does not is sampled too (W0807), so no export shows a frame that
/// `animc eval` would not.
public enum LottieExporter {
    public struct Options: Sendable {
        /// Image data URLs by asset name; images not found get a placeholder.
        public var images: [String: String]
        public init(images: [String: String] = [:]) { self.images = images }
    }

    public struct Result: Sendable {
        public var bytes: [UInt8]
        /// Target findings (W08xx), one per source construct and reason.
        public var diagnostics: [Diagnostic]
        /// Tracks written as keyframes derived from the animations, as samples, and as
        /// constants.
        public var exactTracks: Int
        public var sampledTracks: Int
        public var constantTracks: Int
    }

    public static func export(_ timeline: Timeline, plan: BakePlan, options: Options = Options()) -> Result {
        var e = Exporter(timeline: timeline, plan: plan, options: options)
        return e.run()
    }
}

/// A Lottie layer and what it is made from.
struct LottieLayerPlan {
    enum Role: Equatable {
        /// Carries a CA layer's transform; also draws its content when it has one drawable.
        case transform
        /// One more drawable of a CA layer, parented to its transform layer.
        case content
        /// A copy of a mask (or of a masksToBounds clip) above the layer it mattes.
        case matte
        case clip
        /// The composition's background colour.
        case background
    }
    var ind: Int
    var caLayer: Int
    var role: Role
    var kind: Kind
    var parent: Int?
    var name: String
    var image: String?
    var isMatte = false
    var isMatted = false

    enum Kind: Equatable { case null, shape, image }
}

/// What a CA layer draws, decided once from its model values and its animations.
struct LayerContent {
    var background = false
    var border = false
    var path = false
    var fill = false
    var stroke = false
    var gradient = false
    var images: [String] = []

    var hasShape: Bool { background || border || path || gradient }
    var drawableCount: Int { (hasShape ? 1 : 0) + images.count }
}

struct TrackKey: Hashable {
    var layer: Int
    var channel: Channel
    /// For an image drawable: the image its opacity is shown for.
    var image: String?
}

struct Exporter {
    let timeline: Timeline
    let plan: BakePlan
    let options: Options
    typealias Options = LottieExporter.Options

    var composition: Composition { timeline.composition }
    var view: AnimcBakePlanView
    /// Samples at every half frame: frame f is sample 2f (the last, at the out point, a
    /// little before it).
    var sampleTimes: [Double] = []
    var sampleFrames: [Double] = []
    /// How far before the out point its sample is, in frames.
    static let outPointMargin = 1e-6
    var is3D: [Bool] = []
    var contents: [LayerContent] = []
    /// Every channel's value at every sample (``sample(_:)``).
    var series = SeriesTable()
    var tracks: [TrackKey: LottieTrack] = [:]
    /// Per layer with an exact track, its timeline alone (see ``layerAlone(_:)``).
    var alone: [Int: (Timeline, Int)] = [:]
    var findings = Findings()
    var exact = 0, sampled = 0, constant = 0

    init(timeline: Timeline, plan: BakePlan, options: Options) {
        self.timeline = timeline
        self.plan = plan
        self.options = options
        view = AnimcBakePlanView(start: plan.window.start, fps: plan.fps, frameCount: plan.frameCount)
    }

    mutating func run() -> LottieExporter.Result {
        let n = plan.frameCount
        // Up to frame n, the export's out point: players draw the frames between the last
        // whole frame and it, so every track must be right up to there. The out point
        // itself is never shown: its sample is the limit from before it (a cycle that
        // restarts there must not pull the last frame towards its start).
        sampleFrames = (0..<max(1, 2 * n + 1)).map { Double($0) / 2 }
        if n > 0 { sampleFrames[2 * n] = Double(n) - Exporter.outPointMargin }
        sampleTimes = sampleFrames.map { view.start + $0 / plan.fps }
        analyse()
        let layers = structure()
        sample(layers)
        decideTracks()
        let bytes = LottieWriter(exporter: self, layers: layers).document()
        return LottieExporter.Result(bytes: bytes, diagnostics: findings.diagnostics(), exactTracks: exact,
                                     sampledTracks: sampled, constantTracks: constant)
    }

    // MARK: Analysis

    /// Which layers are drawn in 3D, and what each draws.
    mutating func analyse() {
        let c = composition
        is3D = [Bool](repeating: false, count: c.layers.count)
        var state = timeline.makeState()
        for (s, t) in sampleTimes.enumerated() where s % 2 == 0 {
            timeline.evaluate(at: t, into: &state)
            for i in c.layers.indices where !is3D[i] {
                let v = LayerValues(timeline, layer: i, state: state, world: false)
                if v.local(near: nil) == nil { is3D[i] = true }
            }
        }
        for i in c.layers.indices {
            if let p = c.layers[i].parent, is3D[p] { is3D[i] = true }
            if c.layers[i].kind == .transformLayer { is3D[i] = is3D[i] || c.layers[i].parent.map { is3D[$0] } ?? false }
        }
        for (i, layer) in c.layers.enumerated() where is3D[i] {
            findings.add(LottieDiagnostics.projected3D, range: threeDRange(i), layer: layer.id,
                         "layer '\(layer.id)' is drawn in 3D; projected to 2D at every frame (approximate)")
        }
        contents = c.layers.map(content(of:))
        for (i, layer) in c.layers.enumerated() {
            for name in contents[i].images where options.images[name] == nil {
                findings.add(LottieDiagnostics.dropped, range: imageRange(layer), layer: layer.id,
                             "image '\(name)' is not beside the source or in its assets/ folder; a grey placeholder of the layer's size is embedded")
            }
            if case .number(let o) = layer.modelValue(.shadowOpacity), o > 0 || animated(layer, .shadowOpacity) {
                findings.add(LottieDiagnostics.dropped, range: layer.properties.first { $0.property == .shadowOpacity }?.range ?? layer.range,
                             layer: layer.id, "the shadow of '\(layer.id)' is left out (the players draw no layer shadows)")
            }
            if layer.modelValue(.zPosition) != .number(0) || animated(layer, .zPosition) {
                findings.add(LottieDiagnostics.dropped, range: layer.properties.first { $0.property == .zPosition }?.range ?? layer.range,
                             layer: layer.id, "the zPosition of '\(layer.id)' is left out; Lottie draws siblings in declaration order")
            }
            if layer.kind == .gradient, layer.modelValue(.gradientType) == .enumeration("conic") {
                findings.add(LottieDiagnostics.dropped, range: layer.range, layer: layer.id,
                             "'\(layer.id)' is a conic gradient, which Lottie has not; exported as a linear one")
            }
        }
    }

    func imageRange(_ layer: Layer) -> SourceRange {
        if let p = layer.properties.first(where: { $0.property == .contents }) { return p.range }
        return flatten(layer.animations).first { if case .property(let p) = $0.animation.kind { return p.target.property == .contents } else { return false } }?
            .animation.range ?? layer.range
    }

    func threeDRange(_ i: Int) -> SourceRange {
        let layer = composition.layers[i]
        for a in flatten(layer.animations) {
            if case .property(let p) = a.animation.kind, p.target.property == .transform || p.target.property == .sublayerTransform {
                return a.animation.range
            }
        }
        return layer.properties.first { $0.property == .transform }?.range ?? layer.range
    }

    func animated(_ layer: Layer, _ property: PropertyID) -> Bool {
        flatten(layer.animations).contains { if case .property(let p) = $0.animation.kind { return p.target.property == property } else { return false } }
    }

    func content(of layer: Layer) -> LayerContent {
        var c = LayerContent()
        func visibleColor(_ p: PropertyID) -> Bool {
            if animated(layer, p) { return true }
            if case .color(let col) = layer.modelValue(p) { return col.alpha > 0 }
            return false
        }
        c.background = visibleColor(.backgroundColor)
        if animated(layer, .borderWidth) || (layer.modelValue(.borderWidth) != .number(0)) {
            c.border = visibleColor(.borderColor)
        }
        switch layer.kind {
        case .shape:
            if case .path(let p) = layer.modelValue(.path), !p.elements.isEmpty { c.path = true }
            if animated(layer, .path) { c.path = true }
            c.fill = c.path && visibleColor(.fillColor)
            c.stroke = c.path && visibleColor(.strokeColor)
        case .gradient:
            c.gradient = true
        case .image:
            var names: [String] = []
            func note(_ v: Value) { if case .image(let n?) = v, !names.contains(n) { names.append(n) } }
            note(layer.modelValue(.contents))
            for a in flatten(layer.animations) {
                guard case .property(let p) = a.animation.kind, p.target.property == .contents else { continue }
                switch p.content {
                case .keyframes(let k): k.values.forEach(note)
                case .basic(let from, let to):
                    if case .value(let v) = from { note(v) }
                    if case .value(let v) = to { note(v) }
                default: break
                }
            }
            c.images = names
        default: break
        }
        return c
    }

    // MARK: Structure

    /// The Lottie layers, top-most first (Lottie draws the array back to front), with
    /// mattes above the layers they matte.
    mutating func structure() -> [LottieLayerPlan] {
        let c = composition
        var children = [[Int]](repeating: [], count: c.layers.count)
        var roots: [Int] = []
        for (i, l) in c.layers.enumerated() {
            if let p = l.parent, p >= 0, p < i { if !l.isMask { children[p].append(i) } } else { roots.append(i) }
        }
        var plans: [LottieLayerPlan] = []
        var transformInd = [Int](repeating: 0, count: c.layers.count)
        var nextInd = 1
        // Transform layers first, so that every parent has an index.
        for (i, l) in c.layers.enumerated() {
            let content = contents[i]
            let kind: LottieLayerPlan.Kind
            if content.drawableCount == 1 { kind = content.hasShape ? .shape : .image } else { kind = .null }
            transformInd[i] = nextInd
            var p = LottieLayerPlan(ind: nextInd, caLayer: i, role: .transform, kind: kind, parent: nil, name: l.id)
            if content.drawableCount == 1, !content.hasShape { p.image = content.images.first }
            plans.append(p)
            nextInd += 1
        }
        for i in plans.indices {
            let l = c.layers[plans[i].caLayer]
            if let parent = l.parent, !is3D[plans[i].caLayer] { plans[i].parent = transformInd[parent] }
        }
        // Paint order: each layer's own drawables, then its sublayers.
        var paint: [LottieLayerPlan] = []
        func clipSources(_ i: Int) -> [(layer: Int, isMask: Bool)] {
            var out: [(Int, Bool)] = []
            var k: Int? = i
            while let j = k {
                if let m = c.layers[j].mask { out.append((m, true)) }
                if j != i, case .bool(true) = c.layers[j].modelValue(.masksToBounds) { out.append((j, false)) }
                k = c.layers[j].parent
                if let kk = k, c.layers[kk].isMask || out.count > 8 { break }
            }
            return out
        }
        func visit(_ i: Int) {
            let l = c.layers[i]
            let content = contents[i]
            var drawables: [LottieLayerPlan] = []
            if content.drawableCount == 1 {
                drawables.append(plans[i])
            } else if content.drawableCount > 1 {
                if content.hasShape {
                    drawables.append(LottieLayerPlan(ind: 0, caLayer: i, role: .content, kind: .shape, parent: transformInd[i], name: l.id + " content"))
                }
                for name in content.images {
                    var d = LottieLayerPlan(ind: 0, caLayer: i, role: .content, kind: .image, parent: transformInd[i], name: l.id + " " + name)
                    d.image = name
                    drawables.append(d)
                }
            }
            if !l.isMask {
                let clips = clipSources(i)
                for var d in drawables {
                    if let clip = clips.first {
                        d.isMatted = true
                        if clips.count > 1 {
                            findings.add(LottieDiagnostics.dropped, range: l.range, layer: l.id,
                                         "layer '\(l.id)' is clipped by \(clips.count) masks; Lottie mattes a layer once, so only the nearest clips it")
                        }
                        paint.append(d)
                        paint.append(matte(clip.layer, isMask: clip.isMask, transformInd: transformInd))
                    } else {
                        paint.append(d)
                    }
                }
            }
            for child in children[i] { visit(child) }
        }
        for r in roots where !c.layers[r].isMask { visit(r) }
        // Assign indices to the drawables that are not transform layers, in paint order.
        for k in paint.indices where paint[k].ind == 0 {
            paint[k].ind = nextInd
            nextInd += 1
        }
        // Top-most first; each matte, painted after its layer, lands just above it.
        var out = Array(paint.reversed())
        // Transform layers that draw nothing (nulls, masks) come last; players find
        // parents by index wherever they are.
        let drawn = Set(out.filter { $0.role == .transform }.map(\.ind))
        for p in plans where !drawn.contains(p.ind) {
            var q = p
            if q.kind != .null { q.kind = .null }
            out.append(q)
        }
        // Nulls that nothing is parented to carry nothing.
        while true {
            let parents = Set(out.compactMap(\.parent))
            let kept = out.filter { $0.kind != .null || parents.contains($0.ind) }
            if kept.count == out.count { break }
            out = kept
        }
        if let bg = composition.backgroundColor, bg.alpha > 0 {
            out.append(LottieLayerPlan(ind: nextInd, caLayer: -1, role: .background, kind: .shape, parent: nil, name: "background"))
        }
        return out
    }

    func matte(_ source: Int, isMask: Bool, transformInd: [Int]) -> LottieLayerPlan {
        let c = composition
        var m: LottieLayerPlan
        if isMask {
            let content = contents[source]
            m = LottieLayerPlan(ind: 0, caLayer: source, role: .matte, kind: content.hasShape ? .shape : (content.images.isEmpty ? .null : .image),
                                parent: c.layers[source].parent.map { transformInd[$0] }, name: c.layers[source].id + " (matte)")
            m.image = content.hasShape ? nil : content.images.first
        } else {
            m = LottieLayerPlan(ind: 0, caLayer: source, role: .clip, kind: .shape, parent: transformInd[source],
                                name: c.layers[source].id + " (bounds)")
        }
        m.isMatte = true
        return m
    }

    // MARK: Sampling

    /// The channels a Lottie layer writes.
    func channels(_ p: LottieLayerPlan) -> [TrackKey] {
        let i = p.caLayer
        guard i >= 0 else { return [] }
        var keys: [Channel] = []
        switch p.role {
        case .transform, .matte:
            keys = [.anchor, .position, .scale, .rotation, .skew, .opacity]
        case .content:
            keys = [.opacity]
        case .clip:
            keys = [.backgroundSize, .backgroundCenter, .backgroundRoundness]
        case .background:
            return []
        }
        if p.kind == .shape && p.role != .clip {
            let c = contents[i]
            if c.background || c.gradient { keys += [.backgroundSize, .backgroundCenter] }
            if c.background { keys += [.backgroundRoundness, .backgroundColor, .backgroundOpacity] }
            if c.border { keys += [.backgroundCenter, .borderSize, .borderRoundness, .borderColor, .borderOpacity, .borderWidth] }
            if c.path { keys += [.path, .trimStart, .trimEnd] }
            if c.fill { keys += [.fillColor, .fillOpacity] }
            if c.stroke { keys += [.strokeColor, .strokeOpacity, .strokeWidth] }
            if c.gradient { keys += [.gradientStart, .gradientEnd, .gradientStops] }
        }
        var seen = Set<Channel>()
        let image = p.kind == .image && contents[i].images.count > 1 ? p.image : nil
        return keys.filter { seen.insert($0).inserted }.map { TrackKey(layer: i, channel: $0, image: $0 == .opacity ? image : nil) }
    }

    /// Every channel's value at every sample, from the runtime: the timeline evaluated
    /// once per sample for every layer, each channel's series kept by its place in one
    /// list until the end.
    mutating func sample(_ layers: [LottieLayerPlan]) {
        var wanted: [Int: [Int]] = [:]
        var keys: [TrackKey] = []
        var seen = Set<TrackKey>()
        for p in layers {
            for k in channels(p) where seen.insert(k).inserted {
                wanted[k.layer, default: []].append(keys.count)
                keys.append(k)
            }
        }
        var values = [SampleSeries](repeating: SampleSeries(), count: keys.count)
        var state = timeline.makeState()
        let order = wanted.keys.sorted()
        // Each layer's rotation series: the rotation, scale and skew of a sample are one
        // decomposition, chosen continuous with the rotation of the sample before.
        var rotationKey: [Int: Int] = [:], scaleKey: [Int: Int] = [:]
        for (k, key) in keys.enumerated() {
            if key.channel == .rotation { rotationKey[key.layer] = k } else if key.channel == .scale { scaleKey[key.layer] = k }
        }
        for t in sampleTimes {
            timeline.evaluate(at: t, into: &state)
            for i in order {
                let v = self.values(i, state)
                let rotationBefore = rotationKey[i].flatMap { values[$0].last?.first }
                let scaleBefore = scaleKey[i].flatMap { values[$0].last }
                for k in wanted[i] ?? [] {
                    let key = keys[k]
                    let previous = key.channel == .rotation || key.channel == .scale || key.channel == .skew ? rotationBefore : nil
                    var x = v.value(of: key.channel, previousRotation: previous, previousScale: previous == nil ? nil : scaleBefore)
                        ?? (values[k].last ?? [0])
                    if key.channel == .opacity, let image = key.image {
                        if case .image(let shown)? = Keys.contents.flatMap({ timeline.value($0, layer: i, in: state) }), shown == image {} else { x = [0] }
                    }
                    values[k].append(x)
                }
            }
        }
        for (k, key) in keys.enumerated() { series.storage[key] = values[k] }
    }

    func values(_ i: Int, _ state: SceneState) -> LayerValues {
        var v = LayerValues(timeline, layer: i, state: state, world: is3D[i])
        if composition.layers[i].isMask { v.inheritedOpacity = 1 }
        v.imagePixels = imagePixels(i)
        return v
    }

    /// An image asset's size in pixels: the layer's model bounds, rounded.
    func imageSize(_ i: Int) -> (Int, Int) {
        guard i >= 0, case .rect(let r) = composition.layers[i].modelValue(.bounds) else { return (1, 1) }
        func clamp(_ x: Double) -> Int { x.isFinite ? Int(max(1, min(x.rounded(), 100_000))) : 1 }
        return (clamp(r.width), clamp(r.height))
    }

    /// For a layer written as one Lottie image layer, its asset's size: the layer's
    /// transform then maps the asset's pixels, and animated bounds stretch them as Core
    /// Animation stretches the contents (`contentsGravity: resize`).
    func imagePixels(_ i: Int) -> (w: Double, h: Double)? {
        guard i >= 0, i < contents.count, contents[i].drawableCount == 1, !contents[i].hasShape, !contents[i].images.isEmpty else { return nil }
        let (w, h) = imageSize(i)
        return (Double(w), Double(h))
    }

    // MARK: Deciding

    mutating func decideTracks() {
        // A fixed order (hash values change from run to run), so that which layer a
        // shared finding names first never changes.
        func rank(_ c: Channel) -> Int { Channel.allCases.firstIndex(of: c) ?? 0 }
        for key in series.storage.keys.sorted(by: { ($0.layer, rank($0.channel), $0.image ?? "") < ($1.layer, rank($1.channel), $1.image ?? "") }) {
            guard let s = series[key] else { continue }
            // Only the writer's path and stroke-width series are read again: the rest are
            // dropped as they are decided.
            if key.channel != .path && key.channel != .strokeWidth { series.storage[key] = nil }
            let frames = stride(from: 0, to: s.count, by: 2).map { s[$0] }
            if let first = frames.first, s.allSatisfy({ close($0, first, key.channel) }) {
                tracks[key] = .constant(first)
                constant += 1
                continue
            }
            if let track = exactTrack(key, s) {
                tracks[key] = track
                exact += 1
                continue
            }
            var values = s
            if key.channel.isAngle { unwrapDegrees(&values) }
            tracks[key] = sampledTrack(halfFrames: values, tolerance: key.channel.sampleTolerance)
            sampled += 1
        }
    }

    func close(_ a: [Double], _ b: [Double], _ channel: Channel) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            let d = abs(x - y)
            if d <= 1e-7 * max(1, abs(y)) { continue }
            if channel.isAngle {
                let r = d.truncatingRemainder(dividingBy: 360)
                if min(r, 360 - r) <= 1e-7 * max(1, abs(y)) { continue }
            }
            return false
        }
        return true
    }

    /// The exact track of `key`, or nil with a finding saying why it is sampled.
    mutating func exactTrack(_ key: TrackKey, _ samples: [[Double]]) -> LottieTrack? {
        let layer = composition.layers[key.layer]
        let drivers = flatten(layer.animations).filter {
            if case .property(let p) = $0.animation.kind { return key.channel.isDriven(by: p.target) } else { return false }
        }
        if is3D[key.layer], [.anchor, .position, .scale, .rotation, .skew, .opacity].contains(key.channel) { return nil }
        if key.image != nil {
            return nil
        }
        guard drivers.count == 1, case .property(let p) = drivers[0].animation.kind else {
            if drivers.count > 1 {
                let names = drivers.map { "'\($0.path)'" }
                for d in drivers {
                    // A spring or a motion among them is the better reason.
                    if case .property(let q) = d.animation.kind, case .failure(let r) = ValueCurve.make(q, timing: d.animation.timing, model: .number(0)),
                       r.isPhysicsOrMotion {
                        report(r, d, layer)
                        continue
                    }
                    findings.add(LottieDiagnostics.sampledCombination, range: d.animation.range, layer: layer.id,
                                 "\(names.joined(separator: " and ")) on '\(layer.id)' move one Lottie property (\(lottieName(key.channel))); sampled at \(formatNumber(plan.fps)) fps")
                }
            } else {
                unexplained(key)
            }
            return nil
        }
        let driver = drivers[0]
        if p.cumulative {
            findings.add(LottieDiagnostics.sampledCombination, range: driver.animation.range, layer: layer.id,
                         "cumulative '\(driver.path)' on '\(layer.id)' sampled at \(formatNumber(plan.fps)) fps (Lottie has no cumulative repeats)")
            return nil
        }
        if key.channel == .position, layer.animations.contains(where: { if case .property(let q) = $0.kind, case .motion = q.content { return true } else { return false } }) {
            return nil
        }
        let model = ValueMath.component(p.target.keyPath, of: layer.modelValue(p.target.property)) ?? layer.modelValue(p.target.property)
        switch ValueCurve.make(p, timing: driver.animation.timing, model: model) {
        case .failure(let refusal):
            report(refusal, driver, layer)
            return nil
        case .success(let curve):
            let chain = driver.chain
            let (alone, index) = layerAlone(key.layer)
            var state = alone.makeState()
            let world = is3D[key.layer], isMask = layer.isMask, pixels = imagePixels(key.layer)
            let builder = ExactTrackBuilder(timeline: timeline, plan: view, layer: key.layer, channel: key.channel, animation: p,
                                            chain: chain, curve: curve,
                                            valuesAt: { t in
                                                alone.evaluate(at: t, into: &state)
                                                var v = LayerValues(alone, layer: index, state: state, world: world)
                                                if isMask { v.inheritedOpacity = 1 }
                                                v.imagePixels = pixels
                                                return v
                                            })
            guard let track = builder.build() else {
                findings.add(LottieDiagnostics.sampledInterpolation, range: driver.animation.range, layer: layer.id,
                             "'\(driver.path)' on '\(layer.id)' has values or timing Lottie keyframes cannot express; sampled at \(formatNumber(plan.fps)) fps")
                return nil
            }
            // The track must be what the runtime shows, at every frame and half frame.
            for (s, expected) in samples.enumerated() {
                let got = track.value(at: sampleFrames[s])
                if !close(got, expected, key.channel) {
                    findings.add(LottieDiagnostics.sampledUnverified, range: driver.animation.range, layer: layer.id,
                                 "'\(driver.path)' on '\(layer.id)' as exact keyframes differs from the runtime at frame \(formatNumber((sampleFrames[s] * 2).rounded() / 2)) (\(lottieName(key.channel))); sampled instead")
                    return nil
                }
            }
            return track
        }
    }

    /// The timeline of layer `i` and its ancestors alone, and the layer's place in it:
    /// what the layer shows at any time depends on nothing else, so an exact track's
    /// instants are evaluated there, not across the whole composition (which made the
    /// export quadratic in layers). Made once per layer.
    mutating func layerAlone(_ i: Int) -> (Timeline, Int) {
        if let made = alone[i] { return made }
        var chain: [Int] = []
        var next: Int? = i
        while let k = next {
            chain.insert(k, at: 0)
            next = composition.layers[k].parent
        }
        var layers: [Layer] = []
        for (position, k) in chain.enumerated() {
            var layer = composition.layers[k]
            layer.parent = position == 0 ? nil : position - 1
            layer.mask = nil
            layers.append(layer)
        }
        var sub = composition
        sub.layers = layers
        let made = (Timeline(sub), chain.count - 1)
        alone[i] = made
        return made
    }

    /// A channel that changes though no single animation of its own drives it.
    mutating func unexplained(_ key: TrackKey) {
        let layer = composition.layers[key.layer]
        if is3D[key.layer] { return }
        if let motion = flatten(layer.animations).first(where: { if case .property(let p) = $0.animation.kind, case .motion = p.content { return true } else { return false } }) {
            findings.add(LottieDiagnostics.sampledMotion, range: motion.animation.range, layer: layer.id,
                         "motion along a path on '\(layer.id)' sampled at \(formatNumber(plan.fps)) fps")
            return
        }
        // Inherited: an ancestor's opacity or sublayerTransform.
        var k = layer.parent
        while let j = k {
            let ancestor = composition.layers[j]
            let relevant: Set<PropertyID> = key.channel == .opacity ? [.opacity, .hidden] : [.sublayerTransform]
            if let a = flatten(ancestor.animations).first(where: { if case .property(let p) = $0.animation.kind { return relevant.contains(p.target.property) } else { return false } }) {
                let what = key.channel == .opacity ? "opacity (Lottie does not inherit opacity through parents)" : "sublayerTransform"
                findings.add(LottieDiagnostics.sampledCombination, range: a.animation.range, layer: layer.id,
                             "'\(a.path)' on '\(ancestor.id)' changes the \(what) of '\(layer.id)'; sampled at \(formatNumber(plan.fps)) fps")
                return
            }
            k = ancestor.parent
        }
    }

    mutating func report(_ refusal: ValueCurve.Refusal, _ driver: FlatAnimation, _ layer: Layer) {
        let fps = formatNumber(plan.fps)
        switch refusal {
        case .physics(let what):
            findings.add(LottieDiagnostics.sampledPhysics, range: driver.animation.range, layer: layer.id,
                         "\(what) '\(driver.path)' on '\(layer.id)' sampled at \(fps) fps (Lottie has no \(what == "spring" ? "springs" : "decay"))")
        case .motion:
            findings.add(LottieDiagnostics.sampledMotion, range: driver.animation.range, layer: layer.id,
                         "motion along a path on '\(layer.id)' sampled at \(fps) fps")
        case .interpolation(let what):
            findings.add(LottieDiagnostics.sampledInterpolation, range: driver.animation.range, layer: layer.id,
                         "'\(driver.path)' on '\(layer.id)' uses \(what), which Lottie keyframes cannot express; sampled at \(fps) fps")
        case .combination(let what):
            findings.add(LottieDiagnostics.sampledCombination, range: driver.animation.range, layer: layer.id, what)
        }
    }

    func lottieName(_ c: Channel) -> String {
        switch c {
        case .anchor: return "anchor"
        case .position: return "position"
        case .scale: return "scale"
        case .rotation: return "rotation"
        case .skew: return "skew"
        case .opacity: return "opacity"
        default: return "shape"
        }
    }
}

/// A property animation with the groups around it.
struct FlatAnimation {
    var animation: Animation
    /// Outermost group first, the animation itself last.
    var chain: [Animation]
    var path: String
}

func flatten(_ animations: [Animation]) -> [FlatAnimation] {
    var out: [FlatAnimation] = []
    func visit(_ a: Animation, _ chain: [Animation], _ prefix: String) {
        let path = prefix.isEmpty ? a.name : prefix + "/" + a.name
        switch a.kind {
        case .property: out.append(FlatAnimation(animation: a, chain: chain + [a], path: path))
        case .group(let children): for c in children { visit(c, chain + [a], path) }
        }
    }
    for a in animations { visit(a, [], "") }
    return out
}

/// Findings, one per source range, code and message shape: the 135 tiles of one
/// component instance share a range and so one warning, which counts them.
struct Findings {
    struct Key: Hashable { var code: String; var start: UInt32; var end: UInt32 }
    var order: [Key] = []
    var entries: [Key: (descriptor: DiagnosticDescriptor, range: SourceRange, message: String, layers: [String])] = [:]

    mutating func add(_ d: DiagnosticDescriptor, range: SourceRange, layer: String, _ message: String) {
        let key = Key(code: d.code.rawValue, start: range.start, end: range.end)
        if var e = entries[key] {
            if !e.layers.contains(layer) { e.layers.append(layer) }
            entries[key] = e
            return
        }
        order.append(key)
        entries[key] = (d, range, message, [layer])
    }

    func diagnostics() -> [Diagnostic] {
        order.compactMap { key in
            guard let e = entries[key] else { return nil }
            var notes: [Note] = []
            if e.layers.count > 1 {
                notes.append(Note("also on \(e.layers.count - 1) more layer\(e.layers.count == 2 ? "" : "s") made from the same source"))
            }
            return e.descriptor.at(e.range, e.message, notes: notes)
        }.sorted(by: Diagnostic.ordered)
    }
}

/// A channel's values at every sample, one number after another: an array per sample
/// (2,000 layers of springs, 22,000 channels) was most of a large export's memory. A
/// channel whose values change length (a path's points) keeps one array per sample.
struct SampleSeries {
    /// The numbers in a value, or nil for one array per sample.
    private(set) var width: Int?
    private var flat: [Double] = []
    private var ragged: [[Double]] = []
    private(set) var count = 0

    mutating func append(_ x: [Double]) {
        if count == 0 { width = x.count }
        if let w = width, w != x.count {
            ragged = rows
            flat = []
            width = nil
        }
        if width != nil { flat += x } else { ragged.append(x) }
        count += 1
    }

    var last: [Double]? {
        guard count > 0 else { return nil }
        guard let w = width else { return ragged.last }
        return Array(flat[(flat.count - w)...])
    }

    /// The values, one array per sample.
    var rows: [[Double]] {
        guard let w = width else { return ragged }
        return (0..<count).map { k in Array(flat[(k * w)..<((k + 1) * w)]) }
    }
}

/// The sampled series by channel; reading one makes its arrays for that moment only.
struct SeriesTable {
    var storage: [TrackKey: SampleSeries] = [:]
    subscript(key: TrackKey) -> [[Double]]? { storage[key]?.rows }
}

extension LottieExporter {
    /// What the Lottie export carries of each property (see ``SupportTable``; the W08xx
    /// findings say where an animation is approximated or left out).
    public static let support = SupportTable(
        backend: "lottie",
        exact: [.position, .anchorPoint, .bounds, .opacity, .hidden, .doubleSided, .masksToBounds, .backgroundColor, .cornerRadius,
                .borderWidth, .borderColor, .contents, .contentsGravity, .path, .fillColor, .strokeColor, .lineWidth, .strokeStart,
                .strokeEnd, .lineCap, .lineJoin, .miterLimit, .lineDashPhase, .lineDashPattern, .fillRule, .colors, .locations,
                .startPoint, .endPoint],
        approximate: [
            .transform: "a 3D transform is projected to 2D at every frame (W0805)",
            .sublayerTransform: "perspective is projected to 2D at every frame (W0805)",
            .anchorPointZ: "projected to 2D at every frame (W0805)",
            .gradientType: "a conic gradient is exported as a linear one (W0806)",
        ],
        leftOut: [
            .zPosition: "Lottie draws siblings in declaration order (W0806)",
            .shadowColor: "the players draw no layer shadows (W0806)",
            .shadowOpacity: "the players draw no layer shadows (W0806)",
            .shadowOffset: "the players draw no layer shadows (W0806)",
            .shadowRadius: "the players draw no layer shadows (W0806)",
        ])
}
