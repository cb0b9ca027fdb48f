import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// What only some layer nodes have, in a box that only they make: a layer with a
/// `mask:` or used as a mask, a layer with its own `beginTime`, `speed` or
/// `timeOffset`, and every layer of a check with a memo (its kept IR). Inline, these
/// fields were 80 bytes of every node, and the nodes of a file are all alive at the
/// check's peak.
final class LayerExtras {
    // Unchecked for the reason given on ``Checker``'s containers: a check memo's
    // reuse reads and clears them for every kept node.
    @exclusivity(unchecked) var maskReference: (name: String, range: SourceRange)?
    @exclusivity(unchecked) var mask: LayerNode?
    @exclusivity(unchecked) var maskedBy: SourceRange?
    @exclusivity(unchecked) var timing = LayerTiming()
    @exclusivity(unchecked) var irLayer: Layer?
}

/// A layer node's children by name, in a box made with its first child: most layers
/// have none, and the table's three arrays were 24 bytes of every node.
///
/// The table holds where each name is written, not the child: a name's place in the
/// table is its child's in the node's `children` (both are added to in the same
/// order), so the table needs no reference to find the child, and keeps none: a check
/// that flattens the top level's layers item by item lets go of each item's nodes
/// when it empties the list and the table (see ``Checker/lowerFile()``).
final class ChildNames {
    @exclusivity(unchecked) var table = NameTable<SourceRange>()
}

/// The animation keys and the timing attributes (and `mask:`) written so far in one
/// layer body, with where each is written (see ``Checker/bodyKeys``).
struct LayerBodyKeys {
    var animations = NameTable<SourceRange>()
    var timing = NameTable<SourceRange>()
}

/// A layer while the tree is being built; flattened into ``Layer`` at the end.
final class LayerNode {
    // Containers changed on every property and animation; unchecked for the reason
    // given on ``Checker``'s.
    let name: String
    /// Ranges are variables so that a check memo can move a reused subtree (see ``CheckMemo``).
    var nameRange: SourceRange
    let kind: LayerKind
    let isMask: Bool
    var range: SourceRange
    /// Unowned, not weak: a layer's parent holds it in `children` as long as the
    /// layer is in the tree, and every layer with sublayers got the side table a weak
    /// reference needs, through which each retain and release of it then went (a grid
    /// is retained and released several times per tile). A layer outlives its parent
    /// only when flattening has let go of the parent (nothing reads the layer's parent
    /// after that), or when the check memo keeps it for the next check, which nils the
    /// parent first (``CheckMemo/finish(everyName:)``).
    unowned var parent: LayerNode? { didSet { cachedID = nil } }
    @exclusivity(unchecked) var children: [LayerNode] = []
    /// Children by name, so duplicate checks stay linear for layers with many sublayers
    /// (see ``childNames``).
    private var childBox: ChildNames?
    @exclusivity(unchecked) var properties = LayerProperties()
    @exclusivity(unchecked) var animations: [Animation] = []
    private var extras: LayerExtras?

    /// The children's table by name, made if the layer had none.
    var childNames: ChildNames {
        if let childBox { return childBox }
        let made = ChildNames()
        childBox = made
        return made
    }

    /// The child called `name`.
    func child(named name: String) -> LayerNode? {
        guard let p = childBox?.table.ordinal(of: name) else { return nil }
        return children[p]
    }

    /// Lets go of the children's table, which only lowering reads.
    func forgetChildNames() { childBox = nil }

    /// Empties the children's table and keeps its storage, for a node whose children
    /// are let go a few at a time (the top level's, item by item).
    func clearChildNames() { childBox?.table.removeAll() }

    /// Moves where the children's names are written, as ``move(_:)`` moves the rest of
    /// a subtree a check memo keeps; false if one cannot be moved.
    func moveChildNames(_ shift: RangeShift) -> Bool {
        childBox?.table.updateValues { range in
            guard let moved = shift(range) else { return false }
            range = moved
            return true
        } ?? true
    }

    /// Forgets what masks this layer and what it masks (a kept subtree's, whose masks
    /// are resolved again).
    func clearMasks() {
        guard let extras else { return }
        extras.mask = nil
        extras.maskedBy = nil
    }

    private var madeExtras: LayerExtras {
        if let extras { return extras }
        let made = LayerExtras()
        extras = made
        return made
    }

    /// The layer's own `beginTime`, `speed` and `timeOffset`.
    var timing: LayerTiming {
        get { extras?.timing ?? LayerTiming() }
        set { if extras != nil || newValue != LayerTiming() { madeExtras.timing = newValue } }
    }
    /// The `mask:` written in this layer's body.
    var maskReference: (name: String, range: SourceRange)? {
        get { extras?.maskReference }
        set { if newValue != nil || extras != nil { madeExtras.maskReference = newValue } }
    }
    var mask: LayerNode? {
        get { extras?.mask }
        set { if newValue != nil || extras != nil { madeExtras.mask = newValue } }
    }
    /// Where the `mask:` that uses this mask layer is written. (The range alone: the
    /// masked layer holds this one through `mask`, and holding it back made a cycle.)
    var maskedBy: SourceRange? {
        get { extras?.maskedBy }
        set { if newValue != nil || extras != nil { madeExtras.maskedBy = newValue } }
    }
    /// The IR of this layer once flattened, kept for a check memo's next check, which
    /// reuses it unless the layer moved. Made after lowering, so it never changes.
    var irLayer: Layer? {
        get { extras?.irLayer }
        set { if newValue != nil || extras != nil { madeExtras.irLayer = newValue } }
    }
    /// The id of ``irLayer``, read without copying the layer out of its box.
    var irLayerID: String? { extras?.irLayer?.id }

    init(name: String, nameRange: SourceRange, kind: LayerKind, isMask: Bool, range: SourceRange) {
        self.name = name
        self.nameRange = nameRange
        self.kind = kind
        self.isMask = isMask
        self.range = range
    }

    /// The dotted path from the top level, `grid.tile[0,1]`. Made once: flattening and
    /// messages ask for it, and each time it joined every ancestor's name again.
    var id: String {
        if let cachedID { return cachedID }
        let made: String
        if let p = parent, p.parent != nil || !p.name.isEmpty {
            // Written byte by byte into one string sized once: appending went through the
            // string's general append path three times (and `a + "." + b` made the middle
            // string too), about 2,000 instructions per layer.
            made = LayerNode.dotted(p.id, name)
        } else {
            made = name
        }
        cachedID = made
        return made
    }
    private var cachedID: String?

    /// `prefix.name`.
    static func dotted(_ prefix: String, _ name: String) -> String {
        var prefix = prefix, name = name
        let a = prefix.utf8.count, b = name.utf8.count
        return prefix.withUTF8 { head in
            name.withUTF8 { tail in
                String(unsafeUninitializedCapacity: a + 1 + b) { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<a]).initialize(from: head)
                    buffer[a] = 0x2E
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[(a + 1)...]).initialize(from: tail)
                    return a + 1 + b
                }
            }
        }
    }

    func modelValue(_ id: PropertyID) -> Value {
        properties[id]?.value ?? PropertyTable.info(id).defaultValue
    }
}

/// A layer's model values by property, kept in property order: the order of the IR's
/// list, which then takes this one as it is instead of building and sorting a second.
/// A layer sets each property at most once, so there are at most as many as the
/// property table has, and a search in order costs less than hashing: every property
/// of every layer is looked up here while it is checked.
struct LayerProperties {
    private(set) var entries: [PropertyValue] = []

    /// The entries, moved out: the list is left empty, and nothing is retained to hand
    /// them over.
    mutating func takeEntries() -> [PropertyValue] {
        var taken: [PropertyValue] = []
        swap(&taken, &entries)
        return taken
    }

    subscript(id: PropertyID) -> (value: Value, range: SourceRange)? {
        get {
            for e in entries where e.property == id { return (e.value, e.range) }
            return nil
        }
        set {
            let i = entries.firstIndex { $0.property == id }
            switch (i, newValue) {
            case (let i?, let v?): entries[i] = PropertyValue(id, v.value, range: v.range)
            case (let i?, nil): entries.remove(at: i)
            case (nil, let v?):
                // Room for a layer's usual handful at once, unless ``reserve(_:)`` made
                // room already: grown one at a time, the list was allocated three times
                // for three properties.
                if entries.capacity == 0 { entries.reserveCapacity(4) }
                // Inserted in order: a layer sets a handful of properties, most of them
                // in the order of the table.
                var k = entries.count
                entries.append(PropertyValue(id, v.value, range: v.range))
                while k > 0 && id < entries[k - 1].property {
                    entries.swapAt(k, k - 1)
                    k -= 1
                }
            case (nil, nil): break
            }
        }
    }

    /// Makes room for `count` values at once (a layer's property items, counted before
    /// they are lowered), so the list is neither grown nor larger than it needs.
    mutating func reserve(_ count: Int) {
        if count > 0 && entries.isEmpty { entries.reserveCapacity(count) }
    }

    /// Moves every range in place, stopping at the first `shift` cannot move.
    mutating func moveRanges(_ shift: (SourceRange) -> SourceRange?) -> Bool {
        for i in entries.indices {
            guard let moved = shift(entries[i].range) else { return false }
            entries[i].range = moved
        }
        return true
    }
}

extension Checker {
    /// A list, not a set: every property of every layer asks, and comparing three short
    /// names costs less than hashing one.
    static let layerTimingAttributes = ["beginTime", "speed", "timeOffset"]
    /// `mask: name`, the attribute that names a layer's mask.
    static let maskAttribute = "mask"

    func lowerFile() -> Composition? {
        let root = LayerNode(name: "", nameRange: .empty(at: 0), kind: .layer, isMask: false, range: tree.root.range)
        var composition: (name: Identifier?, body: Block, range: SourceRange)?
        let visit: (Item, Scope) -> Void = { item, scope in
            switch self.tree[item] {
            case .composition(let name, let body):
                // Inside a top-level `if`, the composition is not part of the item's record.
                self.recorder?.cacheable = false
                if let first = composition {
                    self.report(Messages.misplaced(item.range, problem: "a file has only one composition",
                                                   help: "the first one is at \(LineIndex(self.tree.file).location(of: first.range.start))"))
                } else {
                    composition = (name, body, item.range)
                }
            case .layer(let mask, let kind, let name, let indices, let body):
                self.lowerIndexedLayer(mask: mask != nil, kind: kind, name: name, indices: indices, body: body, range: item.range,
                                       parent: root, scope: scope)
            case .instance(let name, let indices, let value):
                self.lowerInstance(name, indices, value, item.range, parent: root, scope: scope)
            default:
                break  // misplaced items were reported by the parser
            }
        }
        register(tree.root.items, in: global)
        // Each top-level item's layers are flattened into the composition's list as soon
        // as the item is lowered, and their nodes let go, when nothing can look a layer
        // up later: no mask to resolve (masks are resolved over the whole tree at the
        // end), no `go.end` reference to another layer's animation, no memo to keep the
        // nodes for the next check. A file of many layers then holds one item's nodes at
        // a time, where it held every node (120 bytes a layer) until the end, beside the
        // IR. The list is sized from the layers the tree declares (loops and components
        // grow it as usual), the names from the layers written at the top level.
        let declared = tree.arena.layerDeclarations
        let streams = streamsLayers && memo == nil && !registersLowered && !declared.anyMask && !(nameIndex?.spellsMask ?? true)
        streamedLayers = streams
        if streams {
            let topLevel = tree[tree.root.items].reduce(0) { count, item in
                switch tree.tag(item) {
                case .layer, .instance: count + 1
                default: count
                }
            }
            streamed.begin(root: root, layers: declared.count, names: topLevel)
        }
        for item in tree[tree.root.items] {
            switch tree[item] {
            case .layer, .instance, .forLoop, .ifItem:
                lowerTopLevel(item, root: root) { expandItem(item, scope: global, visit) }
                if streams { flattenItem(root) }
            default:
                expandItem(item, scope: global, visit)
            }
        }
        evaluateUnevaluated(global)
        // A file without mask layers or `mask:` has nothing to resolve, and the walk
        // gathered every layer node to find that out.
        if masksWritten {
            assert(!streams, "a file that streams its layers wrote a mask")
            resolveMasks(root)
        }
        guard let comp = composition else {
            if !hasSyntaxErrors { report(Messages.missingComposition(.empty(at: 0))) }
            return nil
        }
        // Nothing reads the names of the top level's layers after the masks are
        // resolved, and without a memo nothing keeps them: their table, the largest in a
        // file of many layers, goes before the list below is made.
        if memo == nil { root.forgetChildNames() }
        var layers = streamed.takeLayers()
        // Sized once from the layers expanded (a memo's reused items add to it): grown by
        // doubling, the list of a large file held its old and new buffers together, at
        // the check's peak.
        if !streams { layers.reserveCapacity(layerCount) }
        flattenChildren(of: root, parentIndex: nil, parentID: nil, into: &layers)
        let settings = lowerComposition(comp.name, comp.body, comp.range)
        let result = Composition(
            name: comp.name?.name ?? fileStem, size: settings.size, fps: settings.fps, window: settings.window,
            backgroundColor: settings.background, layers: layers, range: comp.range)
        checkCompositionRules(result, windowRange: settings.windowRange, compositionRange: comp.range)
        return result
    }

    private var fileStem: String {
        let name = tree.file.name.split(separator: "/").last.map(String.init) ?? tree.file.name
        return name.hasSuffix(".anim") ? String(name.dropLast(5)) : name
    }

    // MARK: Composition

    struct CompositionSettings {
        var size = Size(0, 0)
        var fps = 60.0
        var window: TimeWindow?
        var windowRange: SourceRange?
        var background: Color?
    }

    private func lowerComposition(_ name: Identifier?, _ body: Block, _ range: SourceRange) -> CompositionSettings {
        var settings = CompositionSettings()
        var seenAttributes: [String: SourceRange] = [:]
        var sawSize = false
        let known = ["size", "fps", "window", "backgroundColor"]
        expand(body, scope: Scope(parent: global)) { item, scope in
            guard case .property(let key, let value) = tree[item] else { return }
            let attr = key.dotted
            if let previous = seenAttributes[attr] {
                report(Messages.duplicateProperty(item.range, name: attr, previous: previous))
                return
            }
            seenAttributes[attr] = item.range
            switch attr {
            case "size":
                sawSize = true
                guard case .size(let s)? = lowerValue(value, scope, as: .size, context: "'size'") else { return }
                if s.width <= 0 || s.height <= 0 {
                    report(Messages.outOfRange(value.range, what: "the composition size", value: "\(formatNumber(s.width)) x \(formatNumber(s.height))", valid: "positive widths and heights"))
                }
                settings.size = s
            case "fps":
                guard case .number(let f)? = lowerValue(value, scope, as: .number, context: "'fps'") else { return }
                guard f > 0, f <= 1000 else {
                    report(Messages.outOfRange(value.range, what: "fps", value: formatNumber(f), valid: "(0, 1000]"))
                    return
                }
                settings.fps = f
            case "window":
                let v = eval(value, scope)
                guard case .range(let lo, let hi, let inclusive, let dim) = v else {
                    if !v.isPoison {
                        report(Messages.typeMismatch(value.range, expected: "a time range such as 0s ..< 3s", found: v.typeName, context: "'window'"))
                    }
                    return
                }
                guard dim == .time else {
                    if dim == .none {
                        report(Messages.missingUnit(value.range, expected: .time, literal: false, value: lo, context: "'window'"))
                    } else {
                        report(Messages.dimensionMismatch(value.range, expected: .time, found: dim, context: "'window'"))
                    }
                    return
                }
                guard lo.isFinite, hi.isFinite, hi > lo || (inclusive && hi == lo) else {
                    report(Messages.outOfRange(value.range, what: "the window", value: "\(formatNumber(lo))s to \(formatNumber(hi))s",
                                               valid: "a finite range whose end follows its start"))
                    return
                }
                settings.window = TimeWindow(start: lo, end: hi, includesEnd: inclusive)
                settings.windowRange = value.range
            case "backgroundColor":
                guard case .color(let c)? = lowerValue(value, scope, as: .color, context: "'backgroundColor'") else { return }
                settings.background = c
            default:
                reportSuggesting(attr, among: known.count, { known }) {
                    Messages.unknownAttribute(key.range, name: attr, on: "a composition", suggestion: $0)
                }
            }
        }
        if !sawSize {
            reportMissing(in: range, Messages.missingAttribute(name?.range ?? SourceRange(start: range.start, end: range.start + 11),
                                             what: "the composition", needs: "a size",
                                             help: "add 'size: 375 x 667' (width x height in points)"))
        }
        return settings
    }

    // MARK: Layers

    @discardableResult
    func lowerLayer(mask: Bool, kind: Identifier, name: Identifier?, nameOverride: (String, SourceRange)?, body: Block,
                    range: SourceRange, parent: LayerNode, scope: Scope) -> LayerNode? {
        guard let layerKind = LayerKind(rawValue: kind.name) else { return nil }
        let layerName: String
        let nameRange: SourceRange
        if let (n, r) = nameOverride {
            layerName = n
            nameRange = r
        } else if let name {
            layerName = name.name
            nameRange = name.range
        } else {
            report(Messages.misplaced(kind.range, problem: "this \(kind.name) needs a name",
                                      help: "only a component's root layer may leave its name out"))
            return nil
        }
        // Searched once for a sibling and for the place to join: the name hashed once.
        let siblings = parent.childNames
        let probe = siblings.table.probe(layerName)
        // The top level's layers of earlier items may be flattened already.
        if let previous = siblings.table.value(at: probe) ?? streamed.nameRange(of: layerName, under: parent) {
            // A clash between top-level layers depends on another item.
            if parent.parent == nil { recorder?.cacheable = false }
            // Made twice by one line of source in a loop: point at the loop that
            // repeats the name, not twice at the same line.
            if previous == nameRange, let loop = activeLoops.last {
                report(Messages.duplicateLayerInLoop(nameRange, name: layerName, loop: loop))
            } else {
                report(Messages.duplicateLayer(nameRange, name: layerName, previous: previous))
            }
            return nil
        }
        guard allowExpansion(layers: 1, at: range) else { return nil }
        let node = LayerNode(name: layerName, nameRange: nameRange, kind: layerKind, isMask: mask, range: range)
        if mask { masksWritten = true }
        node.parent = parent
        parent.children.append(node)
        siblings.table.insert(layerName, nameRange, absent: probe)
        lowerLayerBody(body, key: layerTemplateKey(body), node: node, scope: scope)
        return node
    }

    func lowerLayerItem(_ item: Item, _ node: LayerNode, _ scope: Scope) {
        switch tree.tag(item) {
        case .property:
            guard case .property(let key, let value) = tree[item] else { return }
            lowerProperty(key, value, item.range, node, scope)
        case .layer:
            guard case .layer(let mask, let kind, let name, let indices, let body) = tree[item] else { return }
            lowerIndexedLayer(mask: mask != nil, kind: kind, name: name, indices: indices, body: body, range: item.range,
                              parent: node, scope: scope)
        case .instance:
            guard case .instance(let name, let indices, let value) = tree[item] else { return }
            lowerInstance(name, indices, value, item.range, parent: node, scope: scope)
        case .animation:
            let saved = currentFrame
            currentFrame = TimeFrame(layer: node, groups: [])
            defer { currentFrame = saved }
            lastTemplateEntry = nil
            guard let animation = lowerAnimation(item, layerKind: node.kind, scope: scope, group: nil) else {
                layerRecording?.keepable = false
                return
            }
            if let previous = bodyKeys[bodyDepth - 1].animations[animation.name] {
                report(Messages.duplicateAnimation(animationNameRange(item), name: animation.name, previous: previous,
                                                   insertAt: aliasInsertionPoint(item)))
                return
            }
            bodyKeys[bodyDepth - 1].animations[animation.name] = animationNameRange(item)
            node.animations.append(animation)
            // A layer kept around this animation takes its kept lowering; without one,
            // the layer cannot be kept.
            if let recording = layerRecording {
                if let entry = lastTemplateEntry {
                    recording.animations.append(LayerAnimation(item: item, entry: entry))
                } else {
                    recording.keepable = false
                }
            }
        default:
            break
        }
    }

    private func lowerProperty(_ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange, _ node: LayerNode, _ scope: Scope) {
        // A layer property first: the common case, found by the key path's interned id,
        // where comparing its text with `mask` and the timing attributes cost four
        // string comparisons per property.
        if let keyPath = keyPathInfo(key) {
            lowerPropertyAt(keyPath, key, value, range, node, scope)
            return
        }
        let path = key.dotted
        if path == Checker.maskAttribute {
            guard case .identifier(let name) = tree[value] else {
                report(Messages.typeMismatch(value.range, expected: "the name of a mask layer", found: "an expression", context: "'mask'"))
                return
            }
            if let previous = bodyKeys[bodyDepth - 1].timing[Checker.maskAttribute] {
                report(Messages.duplicateProperty(range, name: Checker.maskAttribute, previous: previous))
                return
            }
            bodyKeys[bodyDepth - 1].timing[Checker.maskAttribute] = range
            node.maskReference = (name, value.range)
            masksWritten = true
            return
        }
        if Checker.layerTimingAttributes.contains(path) {
            if let previous = bodyKeys[bodyDepth - 1].timing[path] {
                report(Messages.duplicateProperty(range, name: path, previous: previous))
                return
            }
            bodyKeys[bodyDepth - 1].timing[path] = range
            let site: LayerHole.Site = path == "speed" ? .speed : path == "beginTime" ? .beginTime : .timeOffset
            guard case .number(let x)? = layerHole(site, value, range: range, path: path, type: site.timingType, scope, {
                lowerValue(value, scope, as: site.timingType, context: "'\(path)'")
            }) else { return }
            site.set(x, in: &node.timing)
            return
        }
        reportSuggesting(path, among: PropertyTable.properties.count + 1 + Checker.layerTimingAttributes.count,
                         { PropertyTable.properties.map(\.id.rawValue) + ["mask"] + Checker.layerTimingAttributes }) {
            Messages.unknownProperty(key.range, name: path, kind: node.kind, suggestion: $0)
        }
    }

    /// `lowerProperty` of a key path the property table knows.
    private func lowerPropertyAt(_ keyPath: KeyPathInfo, _ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange,
                                 _ node: LayerNode, _ scope: Scope) {
        let info = PropertyTable.info(keyPath.target.property)
        guard info.applies(to: node.kind) else {
            let owners = (info.kinds ?? []).map { Messages.kindNoun($0) + "s" }.sorted().joined(separator: " and ")
            report(Messages.propertyNotOnKind(key.range, name: key.dotted, kind: node.kind, owners: owners))
            return
        }
        if let component = keyPath.target.component {
            lowerComponentProperty(component, keyPath, info, key, value, range, node, scope)
            return
        }
        if let previous = node.properties[info.id] {
            report(Messages.duplicateProperty(range, name: key.dotted, previous: previous.range))
            return
        }
        let lowered: Value?
        if layerRecording == nil {
            lowered = lowerPropertyValue(value, scope, info, path: key.dotted)
        } else {
            lowered = layerHole(.property(info), value, range: range, path: key.dotted, type: info.type, scope) {
                lowerPropertyValue(value, scope, info, path: key.dotted)
            }
        }
        guard let v = lowered else { return }
        node.properties[info.id] = (v, range)
    }

    /// `position.x: 10`: sets one component of a point, size or rect model value.
    private func lowerComponentProperty(_ component: KeyPathComponent, _ keyPath: KeyPathInfo, _ info: PropertyInfo,
                                        _ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange, _ node: LayerNode,
                                        _ scope: Scope) {
        if info.type == .transform {
            report(Messages.subKeyPathModel(key.range, path: keyPath.keyPath, base: info.id.rawValue))
            return
        }
        guard let v = lowerValue(value, scope, as: keyPath.type, context: "'\(keyPath.keyPath)'"),
              checkRange(v, info, component: component, at: value.range) else { return }
        let current = node.modelValue(info.id)
        guard let updated = ValueMath.setting(component, of: current, to: v) else { return }
        node.properties[info.id] = (updated, node.properties[info.id]?.range ?? range)
    }

    /// `layer dot[i] { ... }`: the layer named with its indices, as instances are.
    func lowerIndexedLayer(mask: Bool, kind: Identifier, name: Identifier?, indices: Children<Expr>, body: Block, range: SourceRange,
                           parent: LayerNode, scope: Scope) {
        guard !indices.isEmpty, let name else {
            lowerLayer(mask: mask, kind: kind, name: name, nameOverride: nil, body: body, range: range, parent: parent, scope: scope)
            return
        }
        guard let indexed = indexedName(name.name, indices, scope, what: "a layer index") else { return }
        lowerLayer(mask: mask, kind: kind, name: nil, nameOverride: (indexed, name.range), body: body, range: range,
                   parent: parent, scope: scope)
    }

    /// `name[1,2]` from a name and whole-number indices (`tile[row, col]`), or nil after
    /// reporting an index that is not a whole number.
    func indexedName(_ name: String, _ indices: Children<Expr>, _ scope: Scope, what: String) -> String? {
        guard !indices.isEmpty else { return name }
        // Every instance in a loop names itself here. Written as bytes into a buffer on the
        // stack and made a string once: a name this short (`tile[2,3]`) is then a small
        // string, where appending to one with room reserved put each on the heap.
        let capacity = name.utf8.count + 2 + Checker.maxIndexBytes * indices.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> String? in
            var n = 0
            for b in name.utf8 { buffer[n] = b; n += 1 }
            for (i, index) in tree[indices].enumerated() {
                let v = eval(index, scope)
                guard case .number(let x, .none) = v, x == x.rounded(), x.magnitude < 1e15 else {
                    if !v.isPoison { report(Messages.typeMismatch(index.range, expected: "a whole number", found: v.typeName, context: what)) }
                    return nil
                }
                buffer[n] = i == 0 ? 0x5B : 0x2C  // "[" or ","
                n += 1
                // As `formatNumber` writes a whole number (so -0 is "0").
                var k = Int64(x)
                if k < 0 { buffer[n] = 0x2D; n += 1; k = -k }
                let first = n
                repeat {
                    buffer[n] = UInt8(truncatingIfNeeded: k % 10) + 0x30
                    n += 1
                    k /= 10
                } while k > 0
                var (lo, hi) = (first, n - 1)
                while lo < hi { buffer.swapAt(lo, hi); lo += 1; hi -= 1 }
            }
            buffer[n] = 0x5D  // "]"
            n += 1
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
        }
    }

    /// The most bytes one index takes in a name: a separator, a sign and the 15 digits
    /// of a whole number below 1e15.
    static let maxIndexBytes = 17

    // MARK: Instances

    /// Whether two identifiers spell the same name: by interned id when both have one.
    static func sameName(_ a: Identifier, _ b: Identifier) -> Bool {
        if a.nameID != Identifier.noNameID && b.nameID != Identifier.noNameID { return a.nameID == b.nameID }
        return a.name == b.name
    }

    /// The position of the parameter the label names: by interned id, or by name for an
    /// identifier made outside the tree (none is today). `label` makes the label, which
    /// only that second way needs.
    static func parameterIndex(of label: () -> Identifier?, id: UInt32, ids: [UInt32], _ parameters: [Parameter]) -> Int? {
        if id != Identifier.noNameID, !ids.contains(Identifier.noNameID) { return ids.firstIndex(of: id) }
        guard let label = label() else { return nil }
        return parameters.firstIndex { sameName($0.name, label) }
    }

    /// The argument an instance gives for a parameter: its value (nil when none is
    /// given) and where the argument is written.
    struct GivenArgument {
        var value: Expr?
        var range: SourceRange
    }

    func lowerInstance(_ name: Identifier, _ indices: Children<Expr>, _ value: Expr, _ range: SourceRange, parent: LayerNode, scope: Scope) {
        guard case .call(let callee, let arguments) = tree[value] else {
            if case .error = tree[value] { return }
            report(Messages.badInstance(value.range, problem: "'\(name.name) = ...' must instantiate a component",
                                        help: "write '\(name.name) = SomeComponent(label: value, ...)'; to declare a constant use 'let'"))
            return
        }
        guard let info = component(callee, scope) else { return }
        guard let instanceName = indexedName(name.name, indices, scope, what: "an instance index") else { return }
        if instantiating.contains(ObjectIdentifier(info)) {
            report(Messages.recursive(callee.range, name: callee.name, what: "component"))
            return
        }
        guard definitionDepth < Checker.maxDefinitionDepth else {
            definitionsTooDeep(callee.range, name: callee.name)
            return
        }
        // Parameters live in a scope whose parent is the component's declaration scope:
        // components are lexically scoped.
        let declarationScope = info.scope
        let parameterScope = instanceScopes[info.recyclerIndex].scope(parent: declarationScope,
                                                                      capacity: info.parameters.count + info.declarationCount)
        // Whether a parameter shadows a name depends on the declaration scope alone, the
        // same for every instance: looked up by the first. (Not with a memo, which
        // records each item's lookups of top-level names.)
        let checkingShadowing = recorder != nil || !instanceScopes[info.recyclerIndex].parametersChecked
        // Each argument's place in the parameter list, found by interned name: names of
        // one tree are equal exactly when their ids are.
        let parameters = info.parameters, parameterIDs = info.parameterIDs
        let argumentList = tree[arguments]
        // Per parameter, the argument given for it (its value, where it is written), in
        // a buffer on the stack: an array for it was an allocation per instance, and
        // decoding an argument twice, or copying a parameter out of the list to read
        // one field, retained and released the strings of its names each time.
        let bound = withUnsafeTemporaryAllocation(of: GivenArgument.self, capacity: max(1, parameters.count)) { given -> Bool in
            given.initialize(repeating: GivenArgument(value: nil, range: .empty(at: 0)))
            // Matched by the labels' interned names: a label itself (its name's string)
            // is made only for a message.
            for position in argumentList.indices {
                let argument = argumentList.parts(position)
                guard argument.isLabelled else {
                    report(Messages.badArguments(argument.range, callee: callee.name, problem: "an unlabelled argument",
                                                 usage: "\(callee.name)(" + parameters.map { "\($0.name.name): ..." }.joined(separator: ", ") + ")"))
                    return false
                }
                let label = { argumentList[position].label }
                guard let p = Checker.parameterIndex(of: label, id: argument.labelID, ids: parameterIDs, parameters) else {
                    if let label = label() {
                        report(Messages.badArguments(label.range, callee: callee.name, problem: "unknown parameter '\(label.name)'",
                                                     usage: "parameters are " + parameters.map(\.name.name).joined(separator: ", ")))
                    }
                    return false
                }
                if given[p].value != nil {
                    if let label = label() {
                        report(Messages.badArguments(label.range, callee: callee.name, problem: "parameter '\(label.name)' given twice"))
                    }
                    return false
                }
                given[p] = GivenArgument(value: argument.value, range: argument.range)
            }
            return parameters.withUnsafeBufferPointer { list -> Bool in
                for p in list.indices {
                    let v: SemaValue
                    let argument = given[p]
                    if let value = argument.value {
                        v = eval(value, scope)
                    } else if let d = list[p].defaultValue {
                        v = eval(d, declarationScope)
                    } else {
                        report(Messages.badInstance(value.range, problem: "missing argument '\(list[p].name.name)' for component '\(callee.name)'"))
                        return false
                    }
                    if v.isPoison { return false }
                    var checked = v
                    if let type = list[p].type {
                        checked = checkDeclaredType(v, type, argument.value != nil ? argument.range : list[p].range)
                        if checked.isPoison { return false }
                    }
                    let name = list[p].name
                    let made = instanceScopes[info.recyclerIndex].binding(p, name: name, kind: .parameter, value: checked)
                    // The scope was empty, so parameters with distinct names cannot
                    // collide: once shadowing is known, each goes in without a look.
                    let declared: Bool
                    if !checkingShadowing && info.parametersDistinct {
                        parameterScope.insert(made)
                        declared = true
                    } else {
                        declared = declare(made, in: parameterScope, checkingShadowing: checkingShadowing)
                    }
                    if declared {
                        recordFolded(made, checked)
                    } else if let binding = parameterScope.local(name.name, id: name.nameID) {
                        recordFolded(binding, checked)
                    }
                }
                return true
            }
        }
        guard bound else { return }
        if checkingShadowing { instanceScopes[info.recyclerIndex].markParametersChecked() }
        instantiating.append(ObjectIdentifier(info))
        definitionDepth += 1
        defer { instantiating.removeLast(); definitionDepth -= 1 }
        // What the root's lowering needs, in one variable the closure captures by
        // address: captured one by one, each was retained and released around every
        // visit.
        var root = InstanceRoot(component: info, name: instanceName, nameRange: name.range, range: range, parent: parent)
        expand(info.body, scope: parameterScope) { item, itemScope in lowerInstanceRoot(item, itemScope, &root) }
        if root.count == 0 {
            report(Messages.badComponent(info.name.range, problem: "component '\(info.name.name)' has no root layer"))
        }
    }

    /// An instance's root layer as ``lowerInstance`` lowers it (see there).
    struct InstanceRoot {
        let component: ComponentInfo
        let name: String
        let nameRange: SourceRange
        let range: SourceRange
        let parent: LayerNode
        /// Root layers met so far: a component has exactly one.
        var count = 0
    }

    /// One item of an instance's body: its root layer, lowered under the instance's name.
    private func lowerInstanceRoot(_ item: Item, _ scope: Scope, _ root: inout InstanceRoot) {
        guard case .layer(let mask, let kind, let layerName, _, let body) = tree[item] else { return }
        root.count += 1
        if root.count > 1 {
            report(Messages.badComponent(item.range, problem: "component '\(root.component.name.name)' has more than one root layer"))
            return
        }
        lowerLayer(mask: mask != nil, kind: kind, name: layerName, nameOverride: (root.name, root.nameRange), body: body,
                   range: root.range, parent: root.parent, scope: scope)
    }

    /// The component `callee` names, or nil, reported, when it names none. Read in place
    /// where the scope can answer so (see ``Scope/evaluatedValue(id:)``).
    private func component(_ callee: Identifier, _ scope: Scope) -> ComponentInfo? {
        if case .value(.component(let info)) = scope.evaluatedValue(id: callee.nameID) { return info }
        guard let binding = scope.lookup(callee) else {
            reportSuggesting(callee.name, among: scope.visibleNameCount,
                             { scope.visibleNames.filter { scope.lookup($0)?.kind == .component } }) {
                Messages.unknownName(callee.range, name: callee.name, suggestion: $0)
            }
            return nil
        }
        guard case .component(let info)? = binding.value else {
            report(Messages.badInstance(callee.range, problem: "'\(callee.name)' is a \(binding.kind.noun), not a component"))
            return nil
        }
        return info
    }

    // MARK: Masks and flattening

    /// Resolves `mask: name` references: the name is looked up among the layer's own
    /// children, then its ancestors' children, outwards. A mask layer becomes a child
    /// of the layer it masks.
    private func resolveMasks(_ root: LayerNode) {
        var all: [LayerNode] = []
        var stack = [root]
        while let n = stack.popLast() {
            all.append(n)
            stack += n.children.reversed()
        }
        var failed = false
        for node in all {
            guard let (name, range) = node.maskReference else { continue }
            var scopeNode: LayerNode? = node
            var found: LayerNode?
            var searched: [LayerNode] = []
            while let s = scopeNode, found == nil {
                found = s.child(named: name)
                searched.append(s)
                scopeNode = s.parent
            }
            guard let target = found else {
                failed = true
                reportSuggesting(name, among: searched.reduce(0) { $0 + $1.children.count },
                                 { searched.flatMap { $0.children.filter(\.isMask).map(\.name) } }) {
                    Messages.unknownLayer(range, name: name, suggestion: $0)
                }
                continue
            }
            guard target.isMask else {
                report(Messages.maskIsSublayer(range, name: name, declared: target.nameRange))
                continue
            }
            if let first = target.maskedBy {
                report(Messages.maskUsedTwice(range, name: name, first: first))
                continue
            }
            var ancestor: LayerNode? = node
            var cycle = false
            while let a = ancestor {
                if a === target { cycle = true }
                ancestor = a.parent
            }
            if cycle {
                // The mask is then used by nothing; one message for the mistake, not two.
                failed = true
                report(Messages.maskCycle(range, name: name))
                continue
            }
            // Masks of masks: `target`'s own chain of masks must not lead back here, or
            // the masks would mask each other (and every one of them be dropped).
            // No link makes a loop, so the chain ends; the bound only guards that.
            var chain = target.mask
            var loops = false
            var steps = 0
            while let m = chain, !loops, steps <= all.count {
                loops = m === node
                chain = m.mask
                steps += 1
            }
            if loops {
                failed = true
                report(Messages.maskLoop(range, name: name, layer: node.name))
                continue
            }
            target.maskedBy = range
            node.mask = target
        }
        // A typo in a mask reference leaves its mask unused: one message, not two.
        guard !failed else { return }
        for node in all where node.isMask && node.maskedBy == nil {
            report(CheckerDiagnostics.unusedMask.at(node.nameRange, "mask layer '\(node.name)' is never used as a mask",
                                                    help: "name it in a layer's 'mask:' property, or remove it"))
        }
    }

    /// Depth-first, parents first: each layer (a sublayer of the root or of another
    /// layer), then its mask (re-parented under it), then its sublayers in declaration
    /// order. Unattached masks are dropped.
    ///
    /// `parentID` is the id of the parent's IR layer when it is the parent's own id (the
    /// parent is not a mask, whose IR id is the masked layer's): the layer's id is then
    /// made from it, where ``LayerNode/id`` walks up the node's parents (and, while they
    /// were weak, went through the side table of every layer with sublayers).
    private func flatten(_ node: LayerNode, parentIndex: Int?, parentID: String?, into layers: inout [Layer]) {
        let index = layers.count
        // With a memo, parents may be IR kept from an earlier check: their own id again.
        let id = node.irLayerID ?? (memo == nil ? parentID.map { LayerNode.dotted($0, node.name) } : nil) ?? node.id
        layers.append(irLayer(node, parent: parentIndex, id: id))
        if let mask = node.mask {
            let maskIndex = layers.count
            layers[index].mask = maskIndex
            flattenMask(mask, maskedID: id, parentIndex: index, into: &layers)
        }
        flattenChildren(of: node, parentIndex: index, parentID: id, into: &layers)
    }

    /// Flattens a node's sublayers in order (masks come with the layers they mask).
    ///
    /// Without a memo nothing reads a node once it is flattened, so each sublayer is let
    /// go as soon as its IR is made: the checker's nodes and the IR then never peak
    /// together, where holding every node to the end kept both at the compile's peak.
    /// (A mask is held by the layer it masks, which flattens it first.)
    private func flattenChildren(of node: LayerNode, parentIndex: Int?, parentID: String?, into layers: inout [Layer]) {
        guard memo == nil, !node.children.isEmpty else {
            for child in node.children where !child.isMask {
                flatten(child, parentIndex: parentIndex, parentID: parentID, into: &layers)
            }
            return
        }
        // Reversed in place, not copied (a word a layer, at the check's peak), once the
        // node no longer shares the list.
        var pending = node.children
        node.children = []
        pending.reverse()
        node.forgetChildNames()
        while let child = pending.popLast() {
            if !child.isMask { flatten(child, parentIndex: parentIndex, parentID: parentID, into: &layers) }
        }
    }

    /// Flattens the top-level layers of the item just lowered into ``streamed``, and
    /// lets go of their nodes: their names go to its index, which the duplicate check
    /// reads for the items after (see ``lowerFile()``). In a file with no masks, so
    /// none of them is one.
    private func flattenItem(_ root: LayerNode) {
        var pending = root.children
        root.children = []
        root.clearChildNames()
        pending.reverse()
        while let child = pending.popLast() {
            let index = streamed.layers.count
            flatten(child, parentIndex: nil, parentID: nil, into: &streamed.layers)
            streamed.addName(ofLayerAt: index, nameRange: child.nameRange)
        }
    }

    private func flattenMask(_ mask: LayerNode, maskedID: String, parentIndex: Int, into layers: inout [Layer]) {
        let index = layers.count
        let id = maskedID + "." + mask.name
        var layer = irLayer(mask, parent: parentIndex, id: id)
        layer.isMask = true
        layer.id = id
        layers.append(layer)
        if let inner = mask.mask {
            layers[index].mask = layers.count
            flattenMask(inner, maskedID: layer.id, parentIndex: index, into: &layers)
        }
        // The mask's IR id is not its own: its sublayers' ids are made from theirs.
        flattenChildren(of: mask, parentIndex: index, parentID: nil, into: &layers)
    }

    /// The node's IR layer, with `id` (its ``LayerNode/id``) when made here.
    private func irLayer(_ node: LayerNode, parent: Int?, id: String) -> Layer {
        if var layer = node.irLayer {
            layer.parent = parent
            return layer
        }
        guard memo == nil else {
            // Kept (its arrays are the IR's own): a memo's next check reuses it, and a
            // second flattening of the node could not make it again once its values are
            // gone.
            let layer = Layer(id: id, kind: node.kind, parent: parent, isMask: node.isMask, properties: node.properties.entries,
                              animations: node.animations, timing: node.timing, range: node.range)
            node.irLayer = layer
            return layer
        }
        // Without a memo the node is let go once flattened (see `flattenChildren`) and
        // nothing flattens it twice: its lists are moved into the IR, not shared with it
        // (a retain now and a release when the node goes, per list and layer).
        var animations: [Animation] = []
        swap(&animations, &node.animations)
        return Layer(id: id, kind: node.kind, parent: parent, isMask: node.isMask, properties: node.properties.takeEntries(),
                     animations: animations, timing: node.timing, range: node.range)
    }
}
