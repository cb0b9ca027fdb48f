import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// `replicator name { instanceCount: 12, instanceTransform: rotate(30deg), ... }`:
/// CAReplicatorLayer. It is lowered, not carried: the IR holds a plain layer whose
/// sublayers are drawn `instanceCount` times, so every backend (the runtime, baked
/// frames, Lottie, the preview, the renderer) plays the copies as the layers they are.
///
/// Copy 0 is the sublayers as written (their ids unchanged). Copy k (1 ≤ k < count) is
/// a layer `instance[k]` over the replicator's bounds holding a copy of every sublayer
/// (`spinner.instance[3].dot`), as Core Animation draws it:
/// - its transform is `instanceTransform` applied k times, about the centre of the
///   replicator's bounds ("applied to instance k − 1 to produce instance k, relative to
///   the center of this layer");
/// - its time runs `k × instanceDelay` behind (a layer `timeOffset` of −k × delay), so
///   its animations start that much later and show the model values before;
/// - its opacity is `instanceColor`'s alpha plus k × `instanceAlphaOffset`, clamped to
///   0...1;
/// - its red, green and blue are multiplied by `instanceColor`'s plus k × the red,
///   green and blue offsets, each clamped to 0...1 (copy 0 too: "the color used to
///   multiply the source object"). The multiplier is applied to every colour the copy
///   draws (backgrounds, borders, shadows, fills, strokes, gradient stops, and the
///   values of their animations). For solid colours that is exactly multiplying what
///   the copy renders: source-over is linear in premultiplied colour and keeps alpha,
///   and interpolation is linear in the values. Where it would not be exact, E0328
///   refuses: image contents, and colour animations whose values can leave 0...1
///   (additive, cumulative, springs, decay, cubic or paced keyframes, timing curves
///   that overshoot), where the clamp would come before the tint instead of after.
///   An `instanceColor` alpha other than 1 would fade copy 0, which has no layer of
///   its own to carry it: refused too.
struct ReplicatorSettings {
    static let attributes = ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
                             "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
    var count = 1
    var delay = 0.0
    var transform = Transform.identity
    var colour = Color(red: 1, green: 1, blue: 1, alpha: 1)
    var offsets = [0.0, 0.0, 0.0, 0.0]
    /// Where an `instanceColor` with an alpha other than 1 is written (see above).
    var fadedFirstCopy: SourceRange?
    var failed = false

    /// Copy k's red, green and blue multipliers.
    func tint(_ k: Int) -> (Double, Double, Double) {
        func clamped(_ x: Double) -> Double { min(max(x, 0), 1) }
        return (clamped(colour.red + Double(k) * offsets[0]), clamped(colour.green + Double(k) * offsets[1]),
                clamped(colour.blue + Double(k) * offsets[2]))
    }
}

extension Checker {
    /// An `instance...` attribute of the replicator whose body is being lowered.
    func lowerReplicatorAttribute(_ path: String, _ value: Expr, _ range: SourceRange, _ scope: Scope) {
        guard var settings = context.bodies.last?.replicator else { return }
        defer { context.bodies[context.bodies.count - 1].replicator = settings }
        func number(_ type: ValueType) -> Double? {
            guard case .number(let x)? = lowerValue(value, scope, as: type, context: "'\(path)'") else { settings.failed = true; return nil }
            return x
        }
        switch path {
        case "instanceCount":
            guard let x = number(.number) else { return }
            // NSInteger: a whole number; more copies than the layer limit is the limit's error.
            guard x >= 0, x == x.rounded(), x <= Double(limits.layers) else {
                report(CheckerDiagnostics.replicator.at(value.range, "instanceCount must be a whole number from 0 to \(limits.layers)",
                                                        label: "not a count of copies"))
                settings.failed = true
                return
            }
            settings.count = Int(x)
        case "instanceDelay":
            guard let x = number(.time) else { return }
            settings.delay = x
        case "instanceTransform":
            guard case .transform(let t)? = lowerValue(value, scope, as: .transform, context: "'instanceTransform'") else {
                settings.failed = true
                return
            }
            settings.transform = t
        case "instanceColor":
            guard case .color(let c)? = lowerValue(value, scope, as: .color, context: "'instanceColor'") else {
                settings.failed = true
                return
            }
            settings.colour = c
            if c.alpha != 1 { settings.fadedFirstCopy = value.range }
        default:
            guard let x = number(.number) else { return }
            let i = ["instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"].firstIndex(of: path) ?? 3
            settings.offsets[i] = x
        }
    }

    /// Adds the copies of a replicator's sublayers (see ``ReplicatorSettings``).
    func replicate(_ node: LayerNode, _ r: ReplicatorSettings) {
        if let faded = r.fadedFirstCopy {
            report(CheckerDiagnostics.replicator.at(
                faded, "an instanceColor alpha other than 1 fades copy 0, which is not drawn yet", label: "alpha below 1",
                notes: [Note("instanceAlphaOffset fades the later copies and is drawn")],
                help: "give instanceColor an alpha of 1 and fade the sublayers themselves"))
            return
        }
        guard !r.failed else { return }
        let originals = node.children
        if r.count == 0 {
            node.removeAllChildren()
            return
        }
        guard !originals.isEmpty else { return }
        if r.count > 1 { addCopies(node, originals, r) }
        // Copy 0 last: the later copies are made from its untinted layers.
        for child in originals { guard tint(child, by: r.tint(0)) else { return } }
    }

    /// Copies 1 ..< count of `originals`, each in its own `instance[k]` layer.
    private func addCopies(_ node: LayerNode, _ originals: [LayerNode], _ r: ReplicatorSettings) {
        func size(_ n: LayerNode) -> Int { 1 + n.children.reduce(0) { $0 + size($1) } }
        let perCopy = 1 + originals.reduce(0) { $0 + size($1) }
        guard allowExpansion(layers: perCopy * (r.count - 1), at: node.range) else { return }
        var bounds = Rect(0, 0, 0, 0)
        if case .rect(let b) = node.modelValue(.bounds) { bounds = b }
        for k in 1..<r.count {
            let name = "instance[\(k)]"
            if let clash = node.child(named: name) {
                report(Messages.duplicateLayer(clash.nameRange, name: name, previous: node.nameRange))
                return
            }
            let wrapper = LayerNode(name: name, id: node.id.isEmpty ? name : node.id + "." + name, nameRange: node.nameRange,
                                    kind: .layer, isMask: false, range: node.range)
            wrapper.properties[.bounds] = (.rect(bounds), node.range)
            wrapper.properties[.position] = (.point(Point(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2)), node.range)
            if !r.transform.functions.isEmpty {
                wrapper.properties[.transform] = (.transform(Transform(Array(repeating: r.transform.functions, count: k).flatMap { $0 })), node.range)
            }
            let alpha = min(max(r.colour.alpha + Double(k) * r.offsets[3], 0), 1)
            if alpha != 1 { wrapper.properties[.opacity] = (.number(alpha), node.range) }
            wrapper.timing.timeOffset = -Double(k) * r.delay
            for child in originals { wrapper.adopt(child.copy(movingIDFrom: node.id, to: wrapper.id)) }
            guard tint(wrapper, by: r.tint(k)) else { return }
            node.adopt(wrapper)
        }
    }

    /// Multiplies the red, green and blue of every colour `node` and its sublayers draw
    /// by `m`; false, with E0328, where that would not be what Core Animation draws
    /// (see ``ReplicatorSettings``).
    private func tint(_ node: LayerNode, by m: (Double, Double, Double)) -> Bool {
        guard m != (1, 1, 1) else { return true }
        func refuse(_ range: SourceRange, _ what: String, or advice: String) -> Bool {
            report(CheckerDiagnostics.replicator.at(range, "a replicator's tint cannot be drawn exactly on \(what)", label: "tinted copy",
                                                    help: "leave instanceColor's red, green and blue 1 and their offsets 0, or \(advice)"))
            return false
        }
        if case .image(let name?) = node.modelValue(.contents), !name.isEmpty {
            return refuse(node.nameRange, "image contents", or: "draw the copies' colour with a shape or a background")
        }
        for id in PropertyID.colourProperties {
            let v = node.modelValue(id), tinted = v.tinted(m)
            if tinted != v { node.properties[id] = (tinted, node.properties[id]?.range ?? node.range) }
        }
        for i in node.animations.indices {
            guard let animation = node.animations[i].tinted(m) else {
                return refuse(node.animations[i].range, "a colour that can leave 0...1", or: "animate the colour without overshoot")
            }
            node.animations[i] = animation
        }
        for child in node.children where !tint(child, by: m) { return false }
        return true
    }
}

extension PropertyID {
    /// The properties whose values are colours, as the property table types them.
    static let colourProperties = PropertyID.allCases.filter {
        let type = PropertyTable.info($0).type
        return type == .color || type == .colors
    }
}

extension Value {
    /// The value with each colour's red, green and blue multiplied by `m`.
    func tinted(_ m: (Double, Double, Double)) -> Value {
        func t(_ c: Color) -> Color { Color(red: c.red * m.0, green: c.green * m.1, blue: c.blue * m.2, alpha: c.alpha) }
        switch self {
        case .color(let c): return .color(t(c))
        case .colors(let cs): return .colors(cs.map(t))
        default: return self
        }
    }
}

extension Animation {
    /// The animation with its colour values tinted, or nil when a colour's values can
    /// leave 0...1 (the renderer clamps them: tinting after the clamp is not tinting
    /// before it).
    func tinted(_ m: (Double, Double, Double)) -> Animation? {
        var copy = self
        switch kind {
        case .group(let children):
            var tintedChildren: [Animation] = []
            for child in children {
                guard let t = child.tinted(m) else { return nil }
                tintedChildren.append(t)
            }
            copy.kind = .group(tintedChildren)
        case .property(var p):
            // Every value of a colour property is one; `presentation` and `model` are
            // the layer's, tinted with it.
            guard PropertyID.colourProperties.contains(p.target.property) else { return self }
            func tinted(_ a: AnimatedValue) -> AnimatedValue {
                switch a {
                case .value(let v): return .value(v.tinted(m))
                case .modelPlus(let v): return .modelPlus(v.tinted(m))
                case .presentation, .model: return a
                }
            }
            func overshoots(_ f: TimingFunction) -> Bool {
                switch f {
                case .linear, .steps: return false
                case .cubic(_, let y1, _, let y2): return y1 < 0 || y1 > 1 || y2 < 0 || y2 > 1
                case .spring: return true
                }
            }
            switch p.content {
            case .basic(let from, let to):
                guard !p.additive, !p.cumulative, !overshoots(timing.timingFunction) else { return nil }
                p.content = .basic(from: tinted(from), to: tinted(to))
            case .keyframes(var k):
                guard !p.additive, !p.cumulative, k.calculationMode == .linear || k.calculationMode == .discrete,
                      !overshoots(timing.timingFunction), !k.timingFunctions.contains(where: overshoots) else { return nil }
                k.values = k.values.map { $0.tinted(m) }
                p.content = .keyframes(k)
            case .spring, .decay:
                return nil
            case .motion:
                return self
            }
            copy.kind = .property(p)
        }
        return copy
    }
}
