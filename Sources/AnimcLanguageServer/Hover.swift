import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcIR
import AnimcSyntax

extension LanguageServer {
    func hover(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r, waitingAtMost: Self.hoverWait)
        let at = try offset(r, a)
        guard let (text, range) = hoverText(at: at, a) else { return .null }
        return obj(("contents", markup(text)), ("range", a.positions.json(range)))
    }

    func hoverText(at offset: UInt32, _ a: Analysis) -> (String, SourceRange)? {
        let tree = a.result.tree
        // `tokens.fast`: what the imported file declares, its value and where.
        if let q = a.names.qualifiedReference(at: offset) {
            let module = a.names.declarations[q.module].name
            let file = ProjectFile(a)
            guard let i = file.importDeclaration(of: q.module), let path = file.importedPath(of: q.module),
                  let imported = a.imported.first(where: { $0.file.name == path }),
                  let names = imported.names, let d = names.exported(q.name, in: imported.tree) else { return nil }
            let decl = names.declarations[d]
            var text = "```anim\n\(decl.kind.noun) \(module).\(decl.name)\n```"
            if let value = imported.foldedValues[decl.range.start] { text += "\n\n= `\(value)`" }
            let line = LineIndex(imported.file).location(of: decl.range.start).line
            text += "\n\ndeclared in \(i.path), line \(line)"
            return (text, q.range)
        }
        // A name: its declaration, kind and folded value.
        if let d = a.names.declaration(at: offset) {
            let decl = a.names.declarations[d]
            let range = a.names.references.first { $0.range.start <= offset && offset <= $0.range.end }?.range ?? decl.range
            var text = "```anim\n\(decl.kind.noun) \(decl.name)\n```"
            if let value = a.folded[decl.range.start] { text += "\n\n= `\(value)`" }
            if decl.kind == .animation || decl.kind == .layer, let item = item(at: decl.range.start, in: tree) {
                if let more = animationHover(item, a) { text += "\n\n" + more }
            }
            if let interaction = a.result.interaction, let more = interactionHover(decl, interaction, a) { text += "\n\n" + more }
            return (text, range)
        }
        if let item = item(at: offset, in: tree) {
            switch tree[item] {
            case .property(let key, _) where key.range.contains(offset) || key.range.end == offset:
                if let attribute = attributeHover(key.dotted, item, a) { return (attribute, key.range) }
                return (propertyHover(key.dotted, item, a), key.range)
            case .animation(let kind, let target, _, _, _, _):
                let head = target?.range.union(kind.range) ?? kind.range
                if head.contains(offset) || head.end == offset, let text = animationHover(item, a) { return (text, head) }
            default:
                break
            }
        }
        return tokenHover(at: offset, a)
    }

    /// An input's kind, range and first value, or a state's values, and the transitions
    /// each takes part in.
    func interactionHover(_ decl: NameIndex.Declaration, _ i: Interaction, _ a: Analysis) -> String? {
        func transition(_ t: Interaction.Transition) -> String {
            let from = t.from.map { i.states[$0].name }.joined(separator: ", ")
            let how = t.animation.map { " over \(formatNumber($0.duration)) s" + (t.interruption == .additive ? "" : ", \(t.interruption.rawValue)") } ?? " (a jump)"
            return "`on \(i.inputs[t.input].name)`: \(from) → \(i.states[t.to].name)\(how)"
        }
        switch decl.kind {
        case .input:
            guard let k = i.input(named: decl.name) else { return nil }
            let input = i.inputs[k]
            var text = input.kind == .trigger ? "a trigger: an event with no value" : "a \(input.kind.rawValue)"
            if let r = input.allowed { text += " in \(formatNumber(r.lowerBound)) ... \(formatNumber(r.upperBound)) (values outside are clamped)" }
            if let v = input.initial { text += ", \(v.description) at first" }
            let fires = i.transitions.filter { $0.input == k }.map(transition)
            if !fires.isEmpty { text += "\n\n" + fires.map { "- " + $0 }.joined(separator: "\n") }
            return text
        case .state:
            guard let k = i.states.firstIndex(where: { $0.name == decl.name }) else { return nil }
            var text = k == 0 ? "the initial state: the layers show it from the start" : "a state"
            let values = i.states[k].values.map { "`\(a.result.partialComposition?.layers[$0.layer].id ?? "?").\($0.target.keyPath)`: \(ExpectationCheck.describe($0.value))" }
            if !values.isEmpty { text += "\n\n" + values.map { "- " + $0 }.joined(separator: "\n") }
            let involved = i.transitions.filter { $0.to == k || $0.from.contains(k) }.map(transition)
            if !involved.isEmpty { text += "\n\n" + involved.map { "- " + $0 }.joined(separator: "\n") }
            return text
        default:
            return nil
        }
    }

    /// What the language itself gives a word or number: built-in functions, argument
    /// labels, timing functions, colours, constants, enumeration cases and units.
    func tokenHover(at offset: UInt32, _ a: Analysis) -> (String, SourceRange)? {
        let tokens = a.lexTokens()
        guard let i = tokens.firstIndex(where: { $0.range.start <= offset && offset <= $0.range.end && $0.kind != .eof }) else { return nil }
        let token = tokens[i]
        let word = a.file.text(token.range)
        let next = i + 1 < tokens.count ? tokens[i + 1] : token
        switch token.kind {
        case .number:
            return numberHover(word).map { ($0, token.range) }
        case .color:
            let hex = word.dropFirst().compactMap(\.hexDigitValue)
            guard hex.count == word.count - 1, [3, 4, 6, 8].contains(hex.count) else { return nil }
            let wide = hex.count >= 6
            let step = wide ? 2 : 1
            let channels = stride(from: 0, to: hex.count, by: step).map { i -> Double in
                wide ? Double(hex[i] * 16 + hex[i + 1]) / 255 : Double(hex[i] * 17) / 255
            }
            let c = Color(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count > 3 ? channels[3] : 1)
            return ("```anim\ncolour \(word)\n```\n" + colorDescription(c), token.range)
        case .identifier:
            break
        default:
            return nil
        }
        if next.kind == .lParen && next.flags.contains(.attached) {
            let signatures = LanguageFacts.signatures(of: word)
            guard !signatures.isEmpty else { return nil }
            let text = signatures.map { "```anim\n\($0.label)\n```\n\($0.summary)" }.joined(separator: "\n\n")
            return (text, token.range)
        }
        if next.kind == .colon, let call = CallContext.find(before: token.range.start, in: tokens, a.file, component: componentSignature(a)),
           let parameter = call.signatures.lazy.compactMap({ s in s.parameters.first { $0.name == word }.map { (s, $0) } }).first {
            let (s, p) = parameter
            let text = "```anim\n\(p.name): \(p.type)\(p.defaultValue.map { " = \($0)" } ?? "")\n```\nargument of `\(s.label)`"
            return (text, token.range)
        }
        if let t = LanguageFacts.timingFunction(named: word) {
            var text = "```anim\ntiming \(LanguageFacts.describe(t))\n```\nCore Animation's `\(word)` curve."
            if let duration = enclosingAnimations(at: offset, a).first?.timing.duration {
                text += " Here it runs over \(formatNumber(duration)) s (the animation's duration)."
            }
            return (text, token.range)
        }
        if let c = LanguageFacts.color(named: word) {
            return ("```anim\ncolour \(word)\n```\n" + colorDescription(c), token.range)
        }
        if let summary = LanguageFacts.constantSummary(word) {
            return ("```anim\n\(word)\n```\n\(summary)", token.range)
        }
        if let owner = LanguageFacts.enumerationOwning(word), let cases = LanguageFacts.enumerationCases(of: owner) {
            return ("```anim\n\(owner): \(word)\n```\none of " + cases.map { "`\($0)`" }.joined(separator: ", "), token.range)
        }
        return nil
    }

    func colorDescription(_ c: Color) -> String {
        let (r, g, b) = (Self.level(c.red), Self.level(c.green), Self.level(c.blue))
        let rgb = c.alpha == 1 ? "rgb(\(r), \(g), \(b))" : "rgba(\(r), \(g), \(b), \(formatNumber(c.alpha)))"
        return "`\(rgb)`, `#\(Self.hexDigits([r, g, b]))`"
    }

    /// A number with a unit, in the units it converts to.
    func numberHover(_ text: String) -> String? {
        guard let (value, unit) = LiteralValue.number(Substring(text)), let unit else { return nil }
        // Conversions through π are shown to 4 places (1.5708 rad, not 1.5707963267948966).
        func approx(_ x: Double) -> String { formatNumber((x * 10_000).rounded() / 10_000) }
        switch unit {
        case .ms: return "`\(text)` = \(formatNumber(value / 1000)) s"
        case .s: return "`\(text)` = \(formatNumber(value * 1000)) ms"
        case .deg: return "`\(text)` = \(approx(value * .pi / 180)) rad = \(approx(value / 360)) turn"
        case .rad: return "`\(text)` = \(approx(value * 180 / .pi))°"
        case .turn: return "`\(text)` = \(approx(value * 360))° = \(approx(value * 2 * .pi)) rad"
        case .percent: return "`\(text)` = \(formatNumber(value / 100))"
        case .pt: return "`\(text)`: \(formatNumber(value)) points"
        }
    }

    /// An animation attribute (`duration:`, `fillMode:`) inside an animation.
    func attributeHover(_ name: String, _ item: Item, _ a: Analysis) -> String? {
        let offset = item.range.start
        guard let kind = enclosingAnimationKind(at: offset, in: a.result.tree),
              LanguageFacts.attributes(ofAnimationKind: kind).contains(name) else { return nil }
        var text = "```anim\n\(name)\n```\nattribute of a `\(kind)` animation"
        switch LanguageFacts.expectation(ofAttribute: name) {
        case .time: text += ": a time (`0.3s`, `300ms`)"
        case .timing: text += ": a timing function: " + LanguageFacts.timingFunctionNames.map { "`\($0)`" }.joined(separator: ", ") + ", `cubic(…)`, `steps(…)`"
        case .timings: text += ": a list of timing functions, one per keyframe interval"
        case .bool: text += ": `true` or `false`"
        case .number: text += ": a number"
        case .path: text += ": a path"
        case .enumeration(let cases): text += ": one of " + cases.map { "`\($0)`" }.joined(separator: ", ")
        case .propertyValue: text += ": a value of the animated property"
        case .other: break
        }
        if let value = enclosingAnimations(at: offset, a).first, let v = attributeValue(name, value) {
            text += "\n\nvalue: `\(v)`"
        }
        return text
    }

    private func attributeValue(_ name: String, _ anim: Animation) -> String? {
        let t = anim.timing
        switch name {
        case "duration": return formatNumber(t.duration) + "s"
        case "beginTime": return formatNumber(t.beginTime) + "s"
        case "timeOffset": return formatNumber(t.timeOffset) + "s"
        case "speed": return formatNumber(t.speed)
        case "repeatCount": return t.repeatCount.isInfinite ? "inf" : formatNumber(t.repeatCount)
        case "repeatDuration": return formatNumber(t.repeatDuration) + "s"
        case "fillMode": return t.fillMode.rawValue
        case "timingFunction": return LanguageFacts.describe(t.timingFunction)
        default: return nil
        }
    }

    func propertyHover(_ name: String, _ item: Item, _ a: Analysis) -> String {
        guard let id = PropertyID(rawValue: name), let info = PropertyTable.properties.first(where: { $0.id == id }) else {
            return "`\(name)`: not a layer property"
        }
        var text = "```anim\n\(name): \(info.type)\n```\n\(info.summary).\n\ndefault: `\(IRDump.value(info.defaultValue))`"
        if let lo = info.minimum { text += ", at least \(formatNumber(lo))" }
        if let hi = info.maximum { text += ", at most \(formatNumber(hi))" }
        if let kinds = info.kinds { text += "\n\nonly on " + kinds.map(\.rawValue).sorted().joined(separator: ", ") + " layers" }
        if let c = a.result.composition ?? a.result.partialComposition {
            let values = c.layers.flatMap(\.properties).filter { $0.range == item.range }.map { IRDump.value($0.value) }
            if let first = values.first {
                text += "\n\nvalue: `\(first)`" + (Set(values).count > 1 ? " (and \(values.count - 1) more instances)" : "")
            }
        }
        return text
    }

    /// The interval on the composition's timeline where the animation (every
    /// expansion of it) is active, after its layers' and groups' timing.
    func animationHover(_ item: Item, _ a: Analysis) -> String? {
        let tree = a.result.tree
        guard case .animation(let kind, let target, _, _, _, _) = tree[item] else { return nil }
        let title = "```anim\n\(kind.name)\(target.map { " " + $0.dotted } ?? "")\n```"
        let placements = self.placements(of: item.range, a)
        guard !placements.isEmpty else { return a.checked ? title : title + "\n\n(timing shown once the check finishes)" }
        let lines = placements.map(\.description)
        let shown = lines.prefix(8)
        return title + "\n\n" + shown.joined(separator: "\n\n") + (lines.count > 8 ? "\n\n… and \(lines.count - 8) more" : "")
    }

    // MARK: Where animations play

    /// One expansion of an animation on the composition's timeline.
    struct Placement {
        let layer: String
        let animation: Animation
        /// Composition time when it starts and ends (infinite when it repeats forever);
        /// nil inside a group whose time is not one affine map of its parent's.
        let start: Double?
        let end: Double?
        /// How long one cycle takes on the composition's timeline.
        let period: Double?
        let group: String?

        var description: String {
            guard let start, let end else {
                return "on `\(layer)`: inside group `\(group ?? "")`, whose timing repeats or curves: see the group"
            }
            var parts = ["on `\(layer)`: plays \(Placement.time(min(start, end))) → \(Placement.time(max(start, end)))"]
            let timing = animation.timing
            if let period { parts.append("repeats every \(Placement.time(period))") }
            if timing.fillsBeforeInParent { parts.append("fills backwards (shows its first value before it starts)") }
            if timing.fillsAfterInParent(kept: !timing.removedOnCompletion) { parts.append("holds its last value after") }
            return parts.joined(separator: ", ")
        }

        static func time(_ x: Double) -> String { x.isInfinite ? (x > 0 ? "∞" : "−∞") : formatNumber(x) + " s" }
    }

    /// Every expansion of the animation written at `range`, placed on the composition's
    /// timeline through its layer's and groups' time maps.
    func placements(of range: SourceRange, _ a: Analysis) -> [Placement] {
        guard let c = a.result.composition ?? a.result.partialComposition else { return [] }
        var out: [Placement] = []
        for layer in c.layers.indices {
            guard let map = layerMap(layer, c) else { continue }
            collect(c.layers[layer].animations, map: map, range: range, layer: c.layers[layer].id, into: &out)
            if out.count >= 1000 { break }
        }
        return out
    }

    /// A layer's time on the composition's timeline: its own map, then each parent's.
    private func layerMap(_ index: Int, _ c: Composition) -> TimeMap? {
        var composed = TimeMap.identity
        var i: Int? = index
        var steps = 0
        while let current = i, steps < c.layers.count {
            guard let m = TimeMap(layer: c.layers[current].timing) else { return nil }
            composed = m.after(composed)
            i = c.layers[current].parent
            steps += 1
        }
        return composed
    }

    private func collect(_ animations: [Animation], map: TimeMap, range: SourceRange, layer: String, into out: inout [Placement]) {
        for anim in animations {
            if anim.range == range {
                let span = anim.timing.activeSpan
                let timing = anim.timing
                let period = timing.repeatCount > 0 || timing.repeatDuration > 0
                    ? (timing.autoreverses ? 2 : 1) * timing.duration / abs(timing.speed) * abs(map.scale) : nil
                out.append(Placement(layer: layer, animation: anim, start: map.apply(span.start), end: map.apply(span.end),
                                     period: period, group: nil))
            }
            guard case .group(let children) = anim.kind else { continue }
            if let inner = TimeMap(group: anim.timing), anim.timing.repeatCount == 0, anim.timing.repeatDuration == 0,
               !anim.timing.autoreverses {
                collect(children, map: map.after(inner), range: range, layer: layer, into: &out)
            } else if let child = children.first(where: { $0.range == range }) {
                out.append(Placement(layer: layer, animation: child, start: nil, end: nil, period: nil, group: anim.name))
            }
        }
    }

    /// The lowered animations (every expansion) of the innermost animation item around
    /// `offset`.
    func enclosingAnimations(at offset: UInt32, _ a: Analysis) -> [Animation] {
        guard let item = items(at: offset, in: a.result.tree).last(where: { a.result.tree.tag($0) == .animation }) else { return [] }
        return placements(of: item.range, a).map(\.animation)
    }

    func enclosingAnimationKind(at offset: UInt32, in tree: SyntaxTree) -> String? {
        guard let item = items(at: offset, in: tree).last(where: { tree.tag($0) == .animation }),
              case .animation(let kind, _, _, _, _, _) = tree[item] else { return nil }
        return kind.name
    }

    // MARK: Finding items

    /// The innermost item containing `offset` (blocks are searched through).
    func item(at offset: UInt32, in tree: SyntaxTree) -> Item? { items(at: offset, in: tree).last }

    /// The items containing `offset`, outermost first.
    func items(at offset: UInt32, in tree: SyntaxTree) -> [Item] {
        var path: [Item] = []
        var block: Block? = tree.root
        var visited = 0
        while let current = block, visited < 1_000_000 {
            block = nil
            for item in tree[current.items] where item.range.start <= offset && offset <= item.range.end {
                visited += 1
                path.append(item)
                switch tree[item] {
                case .composition(_, let b), .component(_, _, let b), .pathDecl(_, let b), .layer(_, _, _, _, let b),
                     .animation(_, _, _, _, let b, _), .forLoop(_, let b):
                    if b.range.start <= offset && offset <= b.range.end { block = b }
                case .ifItem(_, let t, let o):
                    if t.range.start <= offset && offset <= t.range.end { block = t } else if let o, o.range.start <= offset && offset <= o.range.end { block = o }
                default:
                    break
                }
                break
            }
        }
        return path
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
