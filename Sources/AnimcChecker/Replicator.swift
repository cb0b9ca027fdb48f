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
///   0...1. Tinting the copies' red, green and blue (`instanceColor` other than white,
///   the red, green and blue offsets) is refused with E0328: it is not drawn yet.
struct ReplicatorSettings {
    static let attributes = ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
                             "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
    var count = 1
    var delay = 0.0
    var transform = Transform.identity
    var colour = Color(red: 1, green: 1, blue: 1, alpha: 1)
    var offsets = [0.0, 0.0, 0.0, 0.0]
    /// Where a tint that is not drawn is written, for the message.
    var tint: SourceRange?
    var failed = false
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
            if c.red != 1 || c.green != 1 || c.blue != 1 || c.alpha != 1 { settings.tint = settings.tint ?? value.range }
        default:
            guard let x = number(.number) else { return }
            let i = ["instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"].firstIndex(of: path) ?? 3
            settings.offsets[i] = x
            if i < 3, x != 0 { settings.tint = settings.tint ?? value.range }
        }
    }

    /// Adds the copies of a replicator's sublayers (see ``ReplicatorSettings``).
    func replicate(_ node: LayerNode, _ r: ReplicatorSettings) {
        if let tint = r.tint {
            report(CheckerDiagnostics.replicator.at(
                tint, "tinting a replicator's copies is not drawn yet", label: "a tint",
                notes: [Note("instanceColor's alpha and instanceAlphaOffset are: each copy's opacity")],
                help: "leave instanceColor white (its alpha may change) and the red, green and blue offsets 0"))
            return
        }
        guard !r.failed else { return }
        let originals = node.children
        if r.count == 0 {
            node.removeAllChildren()
            return
        }
        guard r.count > 1, !originals.isEmpty else { return }
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
            node.adopt(wrapper)
        }
    }
}
