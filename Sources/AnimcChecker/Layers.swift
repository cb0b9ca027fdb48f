import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// A list, not a set: every property of every layer asks, and comparing three short
    /// names costs less than hashing one.
    static let layerTimingAttributes = ["beginTime", "speed", "timeOffset", "duration", "repeatCount", "repeatDuration", "autoreverses"]
    /// `mask: name`, the attribute that names a layer's mask.
    static let maskAttribute = "mask"

    func lowerFile() -> Composition? {
        var composition: (name: Identifier?, body: Block, range: SourceRange)?
        let visit: (Item, Scope) -> Void = { item, scope in
            switch self.tree[item] {
            case .composition(let name, let body):
                // Inside a top-level `if`, the composition is not part of the item's output.
                self.output.cannotReplay(.composition)
                if let first = composition {
                    self.report(Messages.misplaced(item.range, problem: "a file has only one composition",
                                                   help: "the first one is at \(LineIndex(self.tree.file).location(of: first.range.start))"))
                } else {
                    composition = (name, body, item.range)
                }
            case .layer(_, let kind, _, _, _) where kind.name == ContextualKeywords.test:
                break  // tests are read against the finished composition (`lowerTests`)
            case .layer(let mask, let kind, let name, let indices, let body):
                self.lowerIndexedLayer(mask: mask != nil, kind: kind, name: name, indices: indices, body: body, range: item.range,
                                       parent: self.root, scope: scope)
            case .instance(let name, let indices, let value):
                self.lowerInstance(name, indices, value, item.range, parent: self.root, scope: scope)
            default:
                break  // misplaced items were reported by the parser
            }
        }
        register(tree.root.items, in: global)
        for item in tree[tree.root.items] {
            if isCancelled != nil { pollCancellation() }
            if cancelled { return nil }
            switch tree.tag(item) {
            case .layer, .instance, .forLoop, .ifItem:
                lowerTopLevel(item) { expandItem(item, scope: global, visit) }
            default:
                expandItem(item, scope: global, visit)
            }
        }
        evaluateUnevaluated(global)
        if isLibrary { checkComponentsOfLibrary() }
        if cancelled { return nil }
        if masksWritten { resolveMasks() }
        guard let comp = composition else {
            // A library has none to have: it is built through the files that import it.
            if !hasSyntaxErrors && !isLibrary { report(Messages.missingComposition(.empty(at: 0))) }
            return nil
        }
        var layers: [Layer] = []
        for child in root.children where !child.isMask {
            flatten(child, parentIndex: nil, into: &layers)
        }
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
        let isReplicator = kind.name == ContextualKeywords.replicator
        guard let layerKind = isReplicator ? LayerKind.layer : LayerKind(rawValue: kind.name) else {
            if kind.name == ContextualKeywords.test {
                report(Messages.misplaced(kind.range, problem: "a test belongs at the top level of a file",
                                          help: "move it out of this block; a test names layers by their ids, such as 'logo.square'"))
            }
            return nil
        }
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
        if let previous = parent.child(named: layerName)?.nameRange {
            // A clash between top-level layers may be with another item's.
            if parent === root { output.cannotReplay(.otherItemsLayers) }
            // Made twice by one line of source in a loop: point at the loop that
            // repeats the name, not twice at the same line.
            if previous == nameRange, let loop = context.activeLoops.last {
                report(Messages.duplicateLayerInLoop(nameRange, name: layerName, loop: loop))
            } else {
                report(Messages.duplicateLayer(nameRange, name: layerName, previous: previous))
            }
            return nil
        }
        guard allowExpansion(layers: 1, at: range) else { return nil }
        // The root (whose id alone is empty) may be an importing file's, when this file's component is instantiated there.
        let id = parent.id.isEmpty ? layerName : parent.id + "." + layerName
        let node = LayerNode(name: layerName, id: id, nameRange: nameRange, kind: layerKind, isMask: mask, range: range)
        if mask { masksWritten = true }
        parent.adopt(node)
        context.bodies.append(LayerBodyKeys(block: body, replicator: isReplicator ? ReplicatorSettings() : nil))
        context.layers.append(node)
        expandNested(body, in: scope) { item, itemScope in lowerLayerItem(item, node, itemScope) }
        context.layers.removeLast()
        let keys = context.bodies.removeLast()
        if let settings = keys.replicator { replicate(node, settings) }
        if node.timing.duration == 0, let written = ["repeatCount", "repeatDuration", "autoreverses"].lazy.compactMap({ keys.timing[$0] }).first,
           node.timing.repeatCount > 0 || node.timing.repeatDuration > 0 || node.timing.autoreverses {
            report(CheckerDiagnostics.layerRepeatWithoutDuration.at(
                written, "this layer has no duration, so its time has no passes to repeat or reverse", label: "no effect",
                help: "give the layer a 'duration:', or remove this"))
        }
        if let count = keys.timing["repeatCount"], let duration = keys.timing["repeatDuration"] {
            let (first, second) = count.start < duration.start ? (count, duration) : (duration, count)
            report(Messages.repeatConflict(second, other: first))
        }
        orderByAddTime(node)
        checkLayerRules(node)
        return node
    }

    /// Puts a layer's animations in the order Core Animation applies them, the order they
    /// were added (`added:`, then the source's order), and ends each where a later one
    /// added under its key replaces it.
    func orderByAddTime(_ node: LayerNode) {
        guard node.animations.contains(where: { $0.timing.added != -.infinity }) else { return }
        let ordered = node.animations.enumerated().sorted {
            $0.element.timing.added != $1.element.timing.added ? $0.element.timing.added < $1.element.timing.added : $0.offset < $1.offset
        }.map(\.element)
        var animations = ordered
        var next: [String: Double] = [:]
        for i in animations.indices.reversed() {
            if let later = next[animations[i].name] { animations[i].timing.replaced = later }
            next[animations[i].name] = animations[i].timing.added
        }
        node.animations = animations
    }

    /// The keys written so far in the layer body being lowered.
    private var bodyKeys: LayerBodyKeys {
        get { context.bodies[context.bodies.count - 1] }
        // In place: a get and a set copied the whole entry for each key written.
        _modify { yield &context.bodies[context.bodies.count - 1] }
    }

    func lowerLayerItem(_ item: Item, _ node: LayerNode, _ scope: Scope) {
        switch tree[item] {
        case .property(let key, let value):
            lowerProperty(key, value, item.range, node, scope)
        case .layer(let mask, let kind, let name, let indices, let body):
            lowerIndexedLayer(mask: mask != nil, kind: kind, name: name, indices: indices, body: body, range: item.range,
                              parent: node, scope: scope)
        case .instance(let name, let indices, let value):
            lowerInstance(name, indices, value, item.range, parent: node, scope: scope)
        case .animation:
            let saved = context.frame
            context.frame = TimeFrame(layer: node, groups: [])
            defer { context.frame = saved }
            guard let animation = lowerAnimation(item, layerKind: node.kind, scope: scope, group: nil) else { return }
            if let previous = bodyKeys.animations[animation.name],
               node.animations.last(where: { $0.name == animation.name })?.timing.added == animation.timing.added {
                // Added at another time, the key is reused as add(_:forKey:) reuses it: the
                // later replaces the earlier (`orderByAddTime`).
                report(Messages.duplicateAnimation(animationNameRange(item), name: animation.name, previous: previous,
                                                   insertAt: aliasInsertionPoint(item)))
                return
            }
            bodyKeys.animations[animation.name] = animationNameRange(item)
            node.animations.append(animation)
        default:
            break
        }
    }

    private func lowerProperty(_ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange, _ node: LayerNode, _ scope: Scope) {
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
            if let previous = bodyKeys.timing[Checker.maskAttribute] {
                report(Messages.duplicateProperty(range, name: Checker.maskAttribute, previous: previous))
                return
            }
            bodyKeys.timing[Checker.maskAttribute] = range
            node.maskReference = (name, value.range)
            masksWritten = true
            return
        }
        if Checker.layerTimingAttributes.contains(path) {
            if let previous = bodyKeys.timing[path] {
                report(Messages.duplicateProperty(range, name: path, previous: previous))
                return
            }
            bodyKeys.timing[path] = range
            if path == "autoreverses" {
                if case .bool(let b)? = lowerValue(value, scope, as: .bool, context: "'autoreverses'") { node.timing.autoreverses = b }
                return
            }
            let unitless = path == "speed" || path == "repeatCount"
            guard case .number(let x)? = lowerValue(value, scope, as: unitless ? .number : .time, context: "'\(path)'", finite: false)
            else { return }
            switch path {
            case "speed": node.timing.speed = x
            case "beginTime": node.timing.beginTime = x
            case "timeOffset": node.timing.timeOffset = x
            case "duration":
                // A layer's duration of 0 is Core Animation's default: no passes.
                guard x.isFinite else {
                    report(Messages.infiniteValue(value.range, context: "a layer's duration"))
                    return
                }
                guard x >= 0 else {
                    report(Messages.badDuration(value.range, value: x, what: "a layer's duration"))
                    return
                }
                node.timing.duration = x
            default:
                guard x >= 0 else {
                    report(Messages.negativeRepeat(value.range, what: path))
                    return
                }
                if path == "repeatCount" { node.timing.repeatCount = x } else { node.timing.repeatDuration = x }
            }
            return
        }
        if path == "frame" {
            lowerFrame(key, value, range, node, scope)
            return
        }
        if ReplicatorSettings.attributes.contains(path) {
            guard bodyKeys.replicator != nil else {
                report(Messages.propertyNotOnKind(key.range, name: path, kind: node.kind, owners: "replicators"))
                return
            }
            if let previous = bodyKeys.timing[path] {
                report(Messages.duplicateProperty(range, name: path, previous: previous))
                return
            }
            bodyKeys.timing[path] = range
            lowerReplicatorAttribute(path, value, range, scope)
            return
        }
        reportSuggesting(path, among: PropertyTable.properties.count + 1 + Checker.layerTimingAttributes.count,
                         { PropertyTable.properties.map(\.id.rawValue) + ["mask"] + Checker.layerTimingAttributes }) {
            Messages.unknownProperty(key.range, name: path, kind: node.kind, suggestion: $0)
        }
    }

    /// `frame: (x, y, w, h)` pasted from UIKit: Core Animation derives the frame from
    /// bounds, position and anchorPoint, so the fix-it writes those two, with the
    /// anchor point set so far (setting `frame` after `anchorPoint` uses the new anchor,
    /// as UIKit does), and checking goes on as if they were written. A `bounds:` or
    /// `position:` written later in the body replaces what the frame set (`UIView(frame:)`
    /// then `.center = ...`), so the fix leaves that one out.
    ///
    /// The fix is written from the syntax (``FrameFix``), never from the values: in a
    /// loop or a component each use keeps its own expressions.
    private func lowerFrame(_ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange, _ node: LayerNode, _ scope: Scope) {
        let v = evaluating(value, scope, expecting: .rect)
        let message = "'frame' is UIKit's: .anim sets bounds and position"
        guard case .tuple(let items, _) = v, items.count == 4,
              let xs = Optional(items.compactMap { item -> Double? in if case .number(let x, .none) = item { return x } else { return nil } }),
              xs.count == 4 else {
            if !v.isPoison {
                report(CheckerDiagnostics.swiftSpelling.at(key.range, message, label: "pasted property",
                                                           help: "write 'bounds: (0, 0, w, h)' and 'position: (x, y)'"))
            }
            return
        }
        var anchor = Point(0.5, 0.5)
        if case .point(let a) = node.modelValue(.anchorPoint) { anchor = a }
        let bounds = Rect(0, 0, xs[2], xs[3])
        let position = Point(xs[0] + xs[2] * anchor.x, xs[1] + xs[3] * anchor.y)
        let (laterBounds, laterPosition) = geometryWritten(after: range)
        let line = tree.file.bytes[..<Int(range.start)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let indent = String(decoding: tree.file.bytes[line..<Int(range.start)].prefix { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
        let replacement = bodyKeys.anchorPointByComponent ? nil
            : porter.frameFixText(value, anchor: bodyKeys.anchorPoint, bounds: !laterBounds, position: !laterPosition, indent: indent)
        let f = { (x: Double) in formatNumber(x) }
        let written = [laterBounds ? nil : "bounds", laterPosition ? nil : "position"].compactMap { $0 }.joined(separator: " and ")
        report(CheckerDiagnostics.swiftSpelling.at(
            key.range, message, label: "pasted property",
            notes: [Note("with anchorPoint (\(f(anchor.x)), \(f(anchor.y))), the frame (\(xs.map(f).joined(separator: ", "))) is the bounds (0, 0, \(f(bounds.width)), \(f(bounds.height))) and the position (\(f(position.x)), \(f(position.y)))")]
                + (laterBounds || laterPosition ? [Note("the \(laterBounds ? "bounds" : "position") written after it replaces the frame's")] : []),
            help: replacement == nil ? "write 'bounds: (0, 0, w, h)' and 'position: (x, y)' about the anchor point" : nil,
            fixIts: replacement.map { [.replace(range, with: $0, "write \(written)", applicability: .machineApplicable)] } ?? []))
        if node.properties[.bounds] == nil, !laterBounds { node.properties[.bounds] = (.rect(bounds), range) }
        if node.properties[.position] == nil, !laterPosition { node.properties[.position] = (.point(position), range) }
    }

    /// Whether `bounds:` and `position:` are written in the layer body after `range`.
    private func geometryWritten(after range: SourceRange) -> (bounds: Bool, position: Bool) {
        guard let block = bodyKeys.block else { return (false, false) }
        var result = (bounds: false, position: false)
        for item in tree[block.items] where item.range.start > range.start {
            guard case .property(let key, _) = tree[item] else { continue }
            if key.dotted == "bounds" { result.bounds = true }
            if key.dotted == "position" { result.position = true }
        }
        return result
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
        guard let v = lowerValue(value, scope, as: info.type, context: "'\(key.dotted)'"),
              checkRange(v, info, component: nil, at: value.range) else { return }
        node.properties[info.id] = (v, range)
        if info.id == .anchorPoint { bodyKeys.anchorPoint = value }
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
        if info.id == .anchorPoint { bodyKeys.anchorPointByComponent = true }
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
        var indexed = name + "["
        for (k, index) in tree[indices].enumerated() {
            let v = eval(index, scope)
            guard case .number(let x, .none) = v, x == x.rounded(), x.magnitude < 1e15 else {
                if !v.isPoison { report(Messages.typeMismatch(index.range, expected: "a whole number", found: v.typeName, context: what)) }
                return nil
            }
            if k > 0 { indexed += "," }
            // Whole and below 1e15: the integer's digits are what formatNumber writes.
            indexed += String(Int64(x))
        }
        return indexed + "]"
    }

    // MARK: Masks and flattening

    /// Resolves `mask: name` references: the name is looked up among the layer's own
    /// children, then its ancestors' children, outwards. A mask layer becomes a child
    /// of the layer it masks.
    private func resolveMasks() {
        // Every node in declaration order, each with its ancestors (root first).
        var all: [(node: LayerNode, ancestors: [LayerNode])] = []
        var stack: [(LayerNode, [LayerNode])] = [(root, [])]
        while let (n, ancestors) = stack.popLast() {
            all.append((n, ancestors))
            stack += n.children.reversed().map { ($0, ancestors + [n]) }
        }
        var failed = false
        for (node, ancestors) in all {
            guard let (name, range) = node.maskReference else { continue }
            var found: LayerNode?
            var searched: [LayerNode] = []
            for s in [node] + ancestors.reversed() where found == nil {
                found = s.child(named: name)
                searched.append(s)
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
            if target === node || ancestors.contains(where: { $0 === target }) {
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
        for (node, _) in all where node.isMask && node.maskedBy == nil {
            report(CheckerDiagnostics.unusedMask.at(node.nameRange, "mask layer '\(node.name)' is never used as a mask",
                                                    help: "name it in a layer's 'mask:' property, or remove it"))
        }
    }

    /// Depth-first, parents first: each layer (a sublayer of the root or of another
    /// layer), then its mask (re-parented under it), then its sublayers in declaration
    /// order. Unattached masks are dropped. `maskedID` is the id of the layer a mask masks.
    private func flatten(_ node: LayerNode, parentIndex: Int?, maskedID: String? = nil, into layers: inout [Layer]) {
        let index = layers.count
        // A mask is addressed under the layer it masks; its sublayers where they are declared.
        let id = maskedID.map { $0 + "." + node.name } ?? node.id
        layers.append(Layer(id: id, kind: node.kind, parent: parentIndex, isMask: node.isMask, properties: node.properties.entries,
                            animations: node.animations, timing: node.timing, range: node.range))
        if let mask = node.mask {
            layers[index].mask = layers.count
            flatten(mask, parentIndex: index, maskedID: id, into: &layers)
        }
        for child in node.children where !child.isMask {
            flatten(child, parentIndex: index, into: &layers)
        }
    }
}
