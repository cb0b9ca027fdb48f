import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

// Layers in templates. A grid's tile is a component's root layer, lowered once per
// instance: three properties and a ripple group, every time. Its animations were already
// kept as templates (TemplateReuse.swift), and its property values too, but each instance
// still went through every item: a slot found and its reads matched per property and per
// animation, the node's lists built one value at a time. A layer whose body is made of
// properties and template animations only is kept whole instead: its properties, its
// timing, its animations' kept lowerings, and every name its lowering read. A later
// instance whose reads resolve to the same values takes the kept node's lists, lowers only
// its holes, and replays what lowering its animations does besides returning them.
//
// Holes are what an instance changes: a property or a timing attribute written as a bare
// name bound inside the template (`position: at`, `beginTime: delay`), taken as animation
// holes are (see ``Checker/atHole(_:_:_:type:_:)``), and the animations' own holes, which
// their kept lowerings fill. The rules that read the layer as a whole
// (``Checker/checkLayerRules(_:)``) run again on the new node, as lowering runs them.
//
// What is taken has to be exactly what lowering again would give. So a layer is kept only
// when its body is properties and reusable animations (nothing declares a name, no `for`
// or `if`, no sublayer or instance), none of its properties is `mask` or a part of a value
// (`position.x`, which reads the value set before it), its lowering reported nothing and
// read no other animation's, each of its animations is a kept lowering, and the file
// registers no animations for sequencing (a replay would have to register them with the
// layer's frame). A hole that reports or fails sends the instance back to lowering afresh.

/// Where a layer's body is written, and what else lowering it reads besides names.
struct LayerTemplateKey: TemplateTableKey {
    var range: SourceRange
    var definitionDepth: Int
    var expectedDimension: Dimension?
}

/// A layer's value that each instance gives: a property or a timing attribute written as
/// a bare name bound inside the template.
struct LayerHole {
    enum Site {
        case property(PropertyInfo)
        case beginTime, speed, timeOffset
    }

    let site: Site
    /// The bare name, and its text.
    let expr: Expr
    let name: String
    /// The property item's range, which the node keeps with the value.
    let range: SourceRange
    /// The key path as written, for messages.
    let path: String
}

/// A kept animation of a layer: its item and the kept lowering it is.
struct LayerAnimation {
    let item: Item
    let entry: TemplateEntry
}

/// What lowering a layer's body records while it may be kept.
final class LayerRecording {
    var holes: [LayerHole] = []
    var animations: [LayerAnimation] = []
    /// Cleared by anything that cannot be taken by a later instance.
    var keepable = true
}

/// A layer's lowered body and what its lowering read. Immutable once kept.
final class LayerTemplateEntry: KeptLowering {
    let reads: [KeptRead]
    /// Holes included.
    let evaluations: Int
    let properties: LayerProperties
    let timing: LayerTiming
    let animations: [LayerAnimation]
    let holes: [LayerHole]

    init(reads: [KeptRead], evaluations: Int, node: LayerNode, recording: LayerRecording) {
        self.reads = reads
        self.evaluations = evaluations
        properties = node.properties
        timing = node.timing
        animations = recording.animations
        holes = recording.holes
    }
}

extension Checker {
    /// The key under which a layer's body can be kept, or nil when it cannot (outside a
    /// template, a body of other items, a file that registers animations).
    func layerTemplateKey(_ body: Block) -> LayerTemplateKey? {
        guard reusesTemplates, definitionDepth > 0 || !activeLoops.isEmpty, !registersLowered,
              global.templateReads.active == nil else { return nil }
        let keepable: Bool
        if let known = layerTemplateBodies[body.range] {
            keepable = known
        } else {
            keepable = isKeepableLayerBody(body) && !spansSyntaxError(body.range)
            layerTemplateBodies.set(body.range, keepable)
        }
        guard keepable else { return nil }
        return LayerTemplateKey(range: body.range, definitionDepth: definitionDepth, expectedDimension: expectedDimension)
    }

    /// Properties (not `mask`, not part of a value) and reusable animations only.
    private func isKeepableLayerBody(_ body: Block) -> Bool {
        for item in tree[body.items] {
            switch tree[item] {
            case .property(let key, _):
                if let keyPath = keyPathInfo(key) {
                    if keyPath.target.component != nil { return false }
                } else if !Checker.layerTimingAttributes.contains(key.dotted) {
                    return false
                }
            case .animation:
                if reusableKind(item) == .none { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Lowers a layer's body into `node` (a new node, attached to its parent): from a kept
    /// lowering when one's reads match here, else afresh, kept for later instances when it
    /// can be. Runs the layer rules either way.
    func lowerLayerBody(_ body: Block, key: LayerTemplateKey?, node: LayerNode, scope: Scope) {
        guard let key else {
            lowerLayerItems(body, node: node, scope: scope)
            return
        }
        let slot = layerTemplates.slot(key)
        if let slot {
            if slot.isCold {
                lowerLayerItems(body, node: node, scope: scope)
                return
            }
            if let entry = keptLowering(in: slot, scope), takeLayer(entry, into: node, scope: scope) {
                slot.reuses += 1
                layerReuses += 1
                return
            }
        }
        let recording = LayerRecording()
        let outer = layerRecording
        layerRecording = recording
        let (_, recorded) = recordingReads(scope) { lowerLayerItems(body, node: node, scope: scope) }
        layerRecording = outer
        guard recorded.keepable, recording.keepable, hasRoom(slot) else { return }
        templateEntryCount += 1
        let kept = slot ?? TemplateSlot<LayerTemplateEntry>()
        if slot == nil { layerTemplates.insert(kept, for: key) }
        kept.entries.append(LayerTemplateEntry(reads: Checker.keptReads(recorded.log), evaluations: recorded.evaluations,
                                               node: node, recording: recording))
    }

    /// The layer's items lowered one by one, then the layer rules.
    private func lowerLayerItems(_ body: Block, node: LayerNode, scope: Scope) {
        // Property items, counted from their tags: an upper bound on the values the layer
        // sets (its timing attributes and `mask` are among them, and items in a `for` or
        // an `if` are not, which only grows the list).
        var propertyItems = 0
        for item in tree[body.items] where tree.tag(item) == .property { propertyItems += 1 }
        node.properties.reserve(propertyItems)
        // This body's keys, in the tables an earlier body at this depth emptied.
        if bodyDepth == bodyKeys.count { bodyKeys.append(LayerBodyKeys()) }
        bodyDepth += 1
        expandNested(body, in: scope) { item, itemScope in
            lowerLayerItem(item, node, itemScope)
        }
        bodyDepth -= 1
        bodyKeys[bodyDepth].animations.removeAll()
        bodyKeys[bodyDepth].timing.removeAll()
        checkLayerRules(node)
    }

    /// A kept layer with this instance's values in its holes, put into `node`; false,
    /// with nothing changed but what lowering the holes reported, when a hole cannot be
    /// taken (the instance is then lowered afresh, which reports the same).
    private func takeLayer(_ entry: LayerTemplateEntry, into node: LayerNode, scope: Scope) -> Bool {
        let evaluationsBefore = evaluationCount, reportsBefore = reportCalls
        func fallBack() -> Bool {
            evaluationCount = evaluationsBefore
            return false
        }
        // First every hole, which changes nothing but the evaluation count: one that fails
        // falls back before any effect is replayed.
        // Holes read in place, by index: a hole copied out retained and released its names.
        var properties = entry.properties
        var timing = entry.timing
        let holes = entry.holes
        for h in holes.indices where !isHoleValueReady(holes[h].name, holes[h].expr, scope) { return fallBack() }
        for h in holes.indices {
            switch holes[h].site {
            case .property(let info):
                guard let v = lowerPropertyValueAfresh(holes[h].expr, scope, info, path: holes[h].path) else { return fallBack() }
                properties[info.id] = (v, holes[h].range)
            case .beginTime, .speed, .timeOffset:
                let site = holes[h].site
                guard case .number(let x)? = lowerValue(holes[h].expr, scope, as: site.timingType,
                                                        context: "'\(holes[h].path)'") else { return fallBack() }
                site.set(x, in: &timing)
            }
        }
        // Each kept animation copied into the list and its holes filled there.
        var animations: [Animation] = []
        animations.reserveCapacity(entry.animations.count)
        let kept = entry.animations
        for k in kept.indices {
            animations.append(kept[k].entry.animation)
            guard instantiate(kept[k].entry, scope: scope, into: &animations[animations.count - 1]) != nil else { return fallBack() }
        }
        guard reportCalls == reportsBefore else { return fallBack() }
        evaluationCount = evaluationsBefore + entry.evaluations
        // Then what lowering does besides making the node, in the order it does it.
        // (Not the body's animation keys and timing ranges: they are read only while a
        // body is lowered, see `Checker.bodyKeys`, and this one is not.)
        node.properties = properties
        node.timing = timing
        // The made animations read in place: one read out of the list by subscript is a
        // copy.
        animations.withUnsafeBufferPointer { made in
            for k in kept.indices {
                templateReuses += 1
                replayEffects(of: made[k], item: kept[k].item, entry: kept[k].entry)
            }
        }
        node.animations = animations
        checkLayerRules(node)
        return true
    }

    /// While a layer is recorded: whether the value at `expr` is a hole (a bare name bound
    /// inside the template to a value already evaluated, of a type holes take), in which
    /// case it is lowered without logging the read and recorded as one.
    func layerHole<T>(_ site: LayerHole.Site, _ expr: Expr, range: SourceRange, path: @autoclosure () -> String,
                      type: ValueType, _ scope: Scope, _ lower: () -> T) -> T {
        let hub = scope.templateReads
        guard let recording = layerRecording, let log = hub.active, case .identifier(let name) = tree[expr],
              Checker.holeTypeAllowed(type), isHoleValueReady(name, expr, scope) else { return lower() }
        hub.active = nil
        let result = lower()
        hub.active = log
        recording.holes.append(LayerHole(site: site, expr: expr, name: name, range: range, path: path()))
        return result
    }
}

extension LayerHole.Site {
    /// The type a timing attribute's value has.
    var timingType: ValueType {
        if case .speed = self { return .number }
        return .time
    }

    /// Sets the timing attribute this site is to `x` (a property site sets nothing).
    func set(_ x: Double, in timing: inout LayerTiming) {
        switch self {
        case .beginTime: timing.beginTime = x
        case .speed: timing.speed = x
        case .timeOffset: timing.timeOffset = x
        case .property: break
        }
    }
}
