import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// The interval of parent time during which an animation shows something.
struct VisibleInterval {
    var start: Double
    var end: Double

    func overlaps(_ other: VisibleInterval) -> Bool {
        min(end, other.end) - max(start, other.start) > 1e-9
    }

    func covers(from a: Double, to b: Double) -> Bool { start <= a + 1e-9 && end >= b - 1e-9 }
}

extension Checker {
    /// Where an animation contributes, in its parent's time: its active interval
    /// (semantics.md §2–3), widened by its fill. Inside a group `removedOnCompletion`
    /// is ignored, so a forwards fill holds to the group's end.
    func visibleInterval(_ t: Timing, topLevel: Bool) -> VisibleInterval {
        let span = t.activeSpan
        // Before it is added and after it is replaced it shows nothing, fill or not.
        return VisibleInterval(start: max(t.fillsBeforeInParent ? -.infinity : span.start, t.added),
                               end: min(t.fillsAfterInParent(kept: !topLevel || !t.removedOnCompletion) ? .infinity : span.end, t.replaced))
    }

    /// The value an animation shows first, when it is a literal.
    func firstValue(_ p: PropertyAnimation) -> Value? {
        switch p.content {
        case .basic(.value(let v), _), .spring(.value(let v), _, _), .decay(.value(let v), _, _): return v
        case .keyframes(let k): return k.values.first
        case .motion(let m): return PathGeometry(m.path).startPoint.map { .point($0) }
        default: return nil
        }
    }

    func lastValue(_ p: PropertyAnimation) -> Value? {
        switch p.content {
        case .basic(_, .value(let v)), .spring(_, .value(let v), _): return v
        case .keyframes(let k): return k.values.last
        default: return nil
        }
    }

    /// Equality with a tolerance, because compile-time arithmetic (`2 / 3 * L`) rounds.
    func approximatelyEqual(_ a: Value, _ b: Value) -> Bool {
        func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 1e-9 * max(1, abs(x), abs(y)) }
        switch (a, b) {
        case (.number(let x), .number(let y)): return close(x, y)
        case (.point(let p), .point(let q)): return close(p.x, q.x) && close(p.y, q.y)
        case (.size(let p), .size(let q)): return close(p.width, q.width) && close(p.height, q.height)
        case (.rect(let p), .rect(let q)):
            return close(p.x, q.x) && close(p.y, q.y) && close(p.width, q.width) && close(p.height, q.height)
        case (.color(let p), .color(let q)):
            return close(p.red, q.red) && close(p.green, q.green) && close(p.blue, q.blue) && close(p.alpha, q.alpha)
        case (.transform(let p), .transform(let q)):
            return p == q || (isIdentityList(p) && isIdentityList(q))
        default: return a == b
        }
    }

    private func isIdentityList(_ t: Transform) -> Bool {
        t.functions.allSatisfy { $0 == $0.identityCounterpart }
    }

    // MARK: Per animation

    func checkPropertyAnimationRules(_ a: Animation, item: Item, type: ValueType) {
        guard case .property(let p) = a.kind else { return }
        let values = animatedValues(p)
        output.noteExpansion(animationNameRange(item), noEffect: noVisibleEffect(p, values, item: item))
        checkWrittenTurn(p, values, item: item)
    }

    /// The literal values an animation moves between, in order (none for an end taken
    /// from the presentation, a path or a decay).
    private func animatedValues(_ p: PropertyAnimation) -> [Value] {
        switch p.content {
        case .basic(.value(let f), .value(let t)), .spring(.value(let f), .value(let t), _): return [f, t]
        case .keyframes(let k): return k.values
        default: return []
        }
    }

    /// W0509, the warning the animation gets when it changes nothing (nil when it
    /// changes something).
    private func noVisibleEffect(_ p: PropertyAnimation, _ values: [Value], item: Item) -> Diagnostic? {
        // A template (in a loop or component) is expanded many times; warn only when
        // every expansion has no effect, not when one instance happens to (the centre
        // tile of a grid ripples by zero). Where the warning goes is looked up only for a
        // warning: every animation passes here.
        guard values.count >= 2 || (values.count == 1 && isKeyframes(p)),
              let first = values.first, values.allSatisfy({ approximatelyEqual($0, first) }), !p.cumulative,
              showsTheModelValue(p, first) else { return nil }
        return CheckerDiagnostics.noVisibleEffect.at(
            animationNameRange(item), values.count == 1 ? "a single keyframe changes nothing over time" : "every value of this animation is the same",
            help: values.count == 1 ? "add a second keyframe, or set the property's model value instead" : "change a value, or remove the animation")
    }

    /// Whether an animation holding `value` shows what the layer shows without it: a
    /// hold of another value (`strokeEnd` 1 → 1 over a model value of 0) is an effect,
    /// and removing it would change the frames. Unknown (the property is written after
    /// the animation, so its model value is not known yet) counts as an effect.
    private func showsTheModelValue(_ p: PropertyAnimation, _ value: Value) -> Bool {
        guard let node = context.frame.layer,
              let model = ValueMath.component(p.target.component, of: node.modelValue(p.target.property)) else { return false }
        if node.properties[p.target.property] == nil, let block = context.bodies.last?.block {
            let path = p.target.property.rawValue
            let writtenLater = tree[block.items].contains { item in
                if case .property(let key, _) = tree[item] { return key.dotted == path || key.dotted.hasPrefix(path + ".") }
                return false
            }
            if writtenLater { return false }
        }
        // An additive animation shows the model value plus its own.
        guard let shown = p.additive ? ValueMath.add(model, value) : value else { return false }
        return approximatelyEqual(shown, model)
    }

    /// W0505: a transform animated as matrices between lists written to turn half a
    /// turn or more, which the matrices take the short way.
    private func checkWrittenTurn(_ p: PropertyAnimation, _ values: [Value], item: Item) {
        guard (p.target.property == .transform || p.target.property == .sublayerTransform) && p.target.component == nil else { return }
        for (x, y) in zip(values, values.dropFirst()) {
            guard case .transform(let t1) = x, case .transform(let t2) = y,
                  !(p.transformInterpolation == .functions && t1.interpolatesComponentwise(with: t2)),
                  let turn = t1.writtenTurn(to: t2), abs(turn) >= .pi - 1e-9 else { continue }
            let degrees = formatNumber((abs(turn) * 180 / .pi * 1e6).rounded() / 1e6)
            // The fix-it helps only when the two lists would interpolate function by function.
            let block = t1.interpolatesComponentwise(with: t2) ? animationBlock(item.range) : nil
            report(CheckerDiagnostics.matrixTurn.at(
                animationNameRange(item), "this transform interpolates as matrices, so the written \(degrees)° turn takes the short way",
                notes: [Note("Core Animation sees only CATransform3D matrices, and a matrix does not remember how far it turned")],
                help: "animate 'transform.rotation.z' (or .x, .y) for the written turn, split it into steps under 180°, or add 'interpolation: functions'",
                fixIts: block.flatMap { attributeInsertion($0, "interpolation: functions", message: "interpolate function by function") }.map { [$0] } ?? []))
            break
        }
    }

    /// W0513: a spring stopped (by its duration, or by its group's end) while it is
    /// still visibly moving: more than a point from its target for lengths and
    /// positions, more than 1% of its travel for other values.
    func checkSpringCutOff(_ from: AnimatedValue, _ to: AnimatedValue, _ p: SpringParameters, timing: Timing,
                           groupDuration: Double?, type: ValueType, item: Item) {
        guard case .value(let a) = from, case .value(let b) = to, let travel = ValueMath.distances(a, b) else { return }
        var cut = timing.duration
        if let g = groupDuration, timing.speed > 0 { cut = min(cut, (g - timing.beginTime) * timing.speed) }
        let settling = p.settlingDuration
        guard cut.isFinite, cut > 0, cut < settling - 1e-9 else { return }
        let left = abs(1 - SpringSolution(p).position(at: cut))
        let lengths: Set<ValueType> = [.length, .point, .size, .rect]
        let remaining = travel.map { $0 * left }.max() ?? 0
        let threshold = lengths.contains(type) ? 1 : 0.01 * (travel.max() ?? 0)
        guard remaining > threshold else { return }
        let amount = lengths.contains(type) ? formatNumber((remaining * 100).rounded() / 100) + " points" : formatNumber((left * 1000).rounded() / 10) + "% of its travel"
        report(CheckerDiagnostics.springCutOff.at(
            animationNameRange(item), "the spring stops after \(seconds(cut)) while still \(amount) from its target",
            notes: [Note("it settles after \(seconds(settling)); the value then jumps to the end")],
            help: "let it run its settling time (leave out 'duration'), or use a stiffer or more damped spring"))
    }

    private func isKeyframes(_ p: PropertyAnimation) -> Bool {
        if case .keyframes = p.content { return true }
        return false
    }

    // MARK: Groups

    func checkGroupRules(_ group: Animation, item: Item) {
        guard case .group(let children) = group.kind else { return }
        let duration = group.timing.duration
        // W0514: an overshooting timing function maps the group's progress outside
        // [0, 1], so its children see times before 0 and past the duration.
        if case .cubic(_, let y1, _, let y2) = group.timing.timingFunction, y1 < 0 || y1 > 1 || y2 < 0 || y2 > 1 {
            let (low, high) = cubicRange(y1, y2)
            report(CheckerDiagnostics.groupTimingOvershoot.at(
                nameRange(group), "this group's timing function runs its children's time from \(percent(low)) to \(percent(high)) of its duration",
                notes: [Note("past its end, a child that does not fill forwards shows the model value while the curve overshoots")],
                help: "put the overshooting curve on the children's own animations, or keep the group's curve within [0, 1]"))
        }
        for child in children {
            let range = nameRange(child)
            // The interval the runtime plays, in group time: a child with a negative
            // speed plays before its beginTime, ending there.
            let span = child.timing.activeSpan
            if span.start >= duration - 1e-9 || span.end <= 1e-9 {
                report(CheckerDiagnostics.neverActive.at(
                    range, "'\(child.name)' never plays: it is outside its group's \(seconds(duration))",
                    notes: [Note("it runs from \(seconds(span.start)) to \(seconds(span.end)) in group time")]))
            } else if (span.end.isFinite && span.end > duration + 1e-9) || span.start < -1e-9 {
                let past = span.end > duration + 1e-9
                report(CheckerDiagnostics.childPastGroup.at(
                    range, past ? "'\(child.name)' runs until \(seconds(span.end)), past its group's end at \(seconds(duration))"
                        : "'\(child.name)' would start at \(seconds(span.start)), before its group's start",
                    notes: [Note("children are clipped to the group, not scaled")],
                    help: past ? "lengthen the group's duration or shorten the child" : "start it later, or shorten it"))
            }
        }
        checkFighting(children, topLevel: false)
    }

    /// The lowest and highest y of the cubic from (0, 0) to (1, 1) with control
    /// ordinates y1, y2 (sampled finely: for a message, not for evaluation).
    private func cubicRange(_ y1: Double, _ y2: Double) -> (Double, Double) {
        var low = 0.0, high = 1.0
        for i in 0...1000 {
            let t = Double(i) / 1000, u = 1 - t
            let y = 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t
            low = min(low, y); high = max(high, y)
        }
        return (low, high)
    }

    private func percent(_ x: Double) -> String { formatNumber((x * 1000).rounded() / 10) + "%" }

    /// W0508: two non-additive animations of one key path visible at once.
    private func checkFighting(_ animations: [Animation], topLevel: Bool) {
        // A fight needs two: the first animation has none before it to hide.
        for (j, later) in animations.enumerated().dropFirst() {
            guard case .property(let q) = later.kind, !q.additive else { continue }
            var laterInterval = visibleInterval(later.timing, topLevel: topLevel)
            // `from: presentation` takes over from whatever shows when it begins: a
            // deliberate hand-off. Before it begins, a backwards fill still shows its
            // first value over the earlier animations, which is no hand-off.
            if case .basic(.presentation, _) = q.content { laterInterval.end = handOffStart(later.timing) }
            if case .spring(.presentation, _, _) = q.content { laterInterval.end = handOffStart(later.timing) }
            guard laterInterval.end > laterInterval.start else { continue }
            for earlier in animations[..<j] {
                guard case .property(let p) = earlier.kind, !p.additive, p.target == q.target else { continue }
                let earlierInterval = visibleInterval(earlier.timing, topLevel: topLevel)
                guard laterInterval.overlaps(earlierInterval) else { continue }
                let from = max(laterInterval.start, earlierInterval.start)
                let to = min(laterInterval.end, earlierInterval.end)
                let range = nameRange(later)
                let secondary = nameRange(earlier)
                report(CheckerDiagnostics.fightingAnimations.at(
                    range, "'\(later.name)' hides '\(earlier.name)' on \(q.target.keyPath) \(span(from, to))",
                    secondary: [Label(secondary, "hidden while both run")],
                    help: "end the first where the second begins, or make the second 'additive: true'"))
                break
            }
        }
    }

    /// Where a `from: presentation` animation takes over: the start of its active
    /// interval, or −∞ (it shows nothing before that) without a fill before it.
    private func handOffStart(_ t: Timing) -> Double { t.fillsBeforeInParent ? t.activeSpan.start : -.infinity }

    private func span(_ a: Double, _ b: Double) -> String {
        if a == -.infinity && b == .infinity { return "at all times" }
        if b == .infinity { return "from \(seconds(a)) on" }
        if a == -.infinity { return "until \(seconds(b))" }
        return "from \(seconds(a)) to \(seconds(b))"
    }

    func seconds(_ t: Double) -> String {
        t.isInfinite ? "forever" : formatNumber((t * 1e6).rounded() / 1e6) + " s"
    }

    // MARK: Layers

    /// Rules that need the layer's model values: pops, flashes, forwards fills that
    /// are removed, and fights between top-level animations.
    func checkLayerRules(_ node: LayerNode) {
        let animations = node.animations
        for index in animations.indices {
            let a = animations[index]
            var name: SourceRange { nameRange(a) }
            var block: Block? { animationBlock(animations[index].range) }
            let t = animations[index].timing
            // W0502
            if t.fillMode.fillsForwards && t.removedOnCompletion && t.activeDuration.isFinite && t.speed != 0 {
                var harmless = false
                if case .property(let p) = a.kind, let last = lastValue(p),
                   let model = ValueMath.component(p.target.component, of: node.modelValue(p.target.property)),
                   approximatelyEqual(last, model) { harmless = true }
                if !harmless {
                    report(CheckerDiagnostics.fillWithoutKeep.at(
                        name, "fillMode \(t.fillMode.rawValue) has no effect after the end: the animation is removed on completion",
                        help: "set 'removedOnCompletion: false', or set the model value to the end value",
                        fixIts: block.flatMap { attributeInsertion($0, "removedOnCompletion: false", message: "keep the animation") }.map { [$0] } ?? []))
                }
            }
            // W0504. With a timeOffset the animation starts part way through, from a
            // value this rule does not compute: saying it starts from its first value
            // would be wrong.
            // An animation added at a time shows nothing before it is added, and a
            // beginTime of 0 begins there: only a later beginTime leaves a gap.
            if t.beginTime - max(t.added, 0) > 1e-9, t.speed > 0, t.timeOffset == 0, !t.fillMode.fillsBackwards, case .property(let p) = a.kind,
               let first = firstValue(p), let model = ValueMath.component(p.target.component, of: node.modelValue(p.target.property)),
               // An additive animation starts by showing the model value plus its first.
               let shown = p.additive ? ValueMath.add(model, first) : first, !approximatelyEqual(shown, model),
               !coveredBefore(t.beginTime, target: p.target, among: Array(animations[..<index]) + Array(animations[(index + 1)...]), topLevel: true) {
                report(CheckerDiagnostics.firstKeyframePop.at(
                    name, "'\(a.name)' starts at \(seconds(t.beginTime)) from \(IRDump.value(shown)), but until then the layer shows \(IRDump.value(model))",
                    help: p.additive ? "add 'fillMode: backwards', or start the additive animation from its zero"
                        : "set the model value to \(IRDump.value(first)), or add 'fillMode: backwards'",
                    fixIts: block.flatMap { attributeInsertion($0, "fillMode: \(t.fillMode == .forwards ? "both" : "backwards")", message: "fill backwards") }.map { [$0] } ?? []))
            }
            if case .group(let children) = animations[index].kind { checkDelayedChildren(children, duration: t.duration, node) }
        }
        checkFighting(animations, topLevel: true)
    }

    /// W0501, recursively through nested groups: `children` run in a group of one
    /// `duration`.
    private func checkDelayedChildren(_ children: [Animation], duration: Double, _ node: LayerNode) {
        for index in children.indices {
            if case .group(let members) = children[index].kind {
                checkDelayedChildren(members, duration: children[index].timing.duration, node)
                continue
            }
            let t = children[index].timing
            guard t.beginTime > 1e-9, t.speed > 0, !t.fillMode.fillsBackwards, t.beginTime < duration else { continue }
            let child = children[index]
            guard case .property(let p) = child.kind,
                  let first = firstValue(p),
                  let model = ValueMath.component(p.target.component, of: node.modelValue(p.target.property)),
                  !approximatelyEqual(first, model) else { continue }
            let others = Array(children[..<index]) + Array(children[(index + 1)...])
            if coveredBefore(t.beginTime, target: p.target, among: others, topLevel: false) { continue }
            let block = animationBlock(child.range)
            report(CheckerDiagnostics.delayedChildFlash.at(
                nameRange(child),
                "'\(child.name)' begins \(seconds(t.beginTime)) into its group; until then the layer flashes its model value",
                notes: [Note("the model value is \(IRDump.value(model)); the animation starts from \(IRDump.value(first))")],
                help: "add 'fillMode: backwards', or make the model value \(IRDump.value(first))",
                fixIts: block.flatMap { attributeInsertion($0, "fillMode: \(t.fillMode == .forwards ? "both" : "backwards")", message: "fill backwards") }
                    .map { [$0] } ?? []))
        }
    }

    /// Whether other animations of the same key path show something throughout
    /// [0, `begin`], so the model value never appears before this one starts.
    private func coveredBefore(_ begin: Double, target: AnimationTarget, among others: [Animation], topLevel: Bool) -> Bool {
        others.contains { other in
            guard case .property(let p) = other.kind, p.target == target, !p.additive else { return false }
            return visibleInterval(other.timing, topLevel: topLevel).covers(from: 0, to: begin)
        }
    }

    // MARK: Composition

    func checkCompositionRules(_ c: Composition, windowRange: SourceRange?, compositionRange: SourceRange) {
        if c.window == nil {
            outer: for layer in c.layers where layer.timing.speed != 0 {
                for k in layer.animations.indices where layer.animations[k].timing.activeDuration.isInfinite && layer.animations[k].timing.speed != 0 {
                    let a = layer.animations[k]
                    report(CheckerDiagnostics.infiniteWithoutWindow.at(
                        nameRange(a), "'\(a.name)' repeats forever and the composition has no window",
                        secondary: [Label(SourceRange(start: compositionRange.start, end: compositionRange.start + 11), "composition declared here")],
                        help: "add 'window: 0s ..< \(seconds(a.timing.duration).replacingOccurrencesOfSpace)' to the composition to bake one cycle"))
                    break outer
                }
            }
        } else if let w = c.window {
            for layer in c.layers where layer.timing.isIdentity {
                for k in layer.animations.indices {
                    let i = visibleInterval(layer.animations[k].timing, topLevel: true)
                    if layer.animations[k].timing.speed > 0 && (i.start >= w.end - 1e-9 || i.end <= w.start + 1e-9) {
                        let a = layer.animations[k]
                        report(CheckerDiagnostics.neverActive.at(
                            nameRange(a), "'\(a.name)' is never seen inside the composition's window",
                            notes: [Note("it shows from \(seconds(i.start)) to \(seconds(i.end)); the window is \(seconds(w.start)) to \(seconds(w.end))")]))
                    }
                }
            }
        }
    }
}

extension String {
    var replacingOccurrencesOfSpace: String { String(filter { $0 != " " }) }
}
