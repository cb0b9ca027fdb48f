import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// An animation already lowered, with where it sits: its layer and the groups around
/// it. Sequencing (`beginTime: go.end`) reads these.
final class LoweredAnimation {
    let name: String
    /// Its layer and the layer's ancestors, outermost first (whose timing maps the
    /// layer's time to the composition's).
    let layers: [LayerNode]
    var layer: LayerNode { layers[layers.count - 1] }
    /// The enclosing groups, outermost first. (Variables, for a check memo's moves.)
    var groups: [Animation]
    let timing: Timing
    var nameRange: SourceRange
    /// The top-level item that made it, by its place in the file (see
    /// ``Checker/itemNumber``): a reference to another item's reads beyond its own text.
    var item = 0

    init(name: String, layers: [LayerNode], groups: [Animation], timing: Timing, nameRange: SourceRange) {
        self.name = name
        self.layers = layers
        self.groups = groups
        self.timing = timing
        self.nameRange = nameRange
    }
}

/// Where the animation being lowered sits: its layer and enclosing groups.
struct TimeFrame {
    var layer: LayerNode?
    var groups: [Animation] = []
}

extension Checker {
    /// The members a reference to an animation reads.
    static let sequencingMembers = ["begin", "end", "duration"]

    /// `go.begin`, `go.end`, `go.duration`, `card.go.end`: an instant or length of an
    /// earlier animation, on the timeline of the animation being lowered (its parent's
    /// time), exact for decimal inputs. Nil when `base` does not name an animation, so
    /// the member is evaluated as usual.
    func sequencing(_ base: Expr, _ member: Identifier, _ range: SourceRange, _ scope: Scope) -> SemaValue? {
        guard Checker.sequencingMembers.contains(member.name), let here = context.frame.layer else { return nil }
        guard let path = dottedNames(base), scope.lookup(path[0].name) == nil, Builtins.constant(path[0].name) == nil else { return nil }
        guard let target = findAnimation(path, from: here) else {
            // The suggestion reads every animation lowered so far, in other items too.
            output.cannotReplay(.otherItemsAnimations)
            let written = path.map(\.name).joined(separator: ".")
            // Named in another layer: suggest the qualified name.
            // Both searches read every animation so far: only for a new message (see
            // `reportSuggesting`).
            let plain = Messages.unknownAnimationReference(base.range, name: written, suggestion: nil)
            if recordingStopped || hasReported(plain) {
                report(plain)
                return .poison
            }
            if let elsewhere = loweredAnimations.last(where: { $0.name == written && $0.layer !== here }) {
                report(Messages.unknownAnimationReference(base.range, name: written, suggestion: elsewhere.layer.id + "." + elsewhere.name))
                return .poison
            }
            reportSuggesting(written, among: loweredAnimations.count, { loweredAnimations.map(\.name) }) {
                Messages.unknownAnimationReference(base.range, name: written, suggestion: $0)
            }
            return .poison
        }
        if target.item != itemNumber { output.cannotReplay(.otherItemsAnimations) }
        let span = target.timing.activeSpan
        guard let fromTarget = toComposition(target.layers, target.groups, at: base.range, referenced: target.name),
              let toHere = toComposition(context.layers, context.frame.groups, at: base.range, referenced: target.name) else { return .poison }
        switch member.name {
        case "duration":
            // The active duration itself, not end − begin, which would round.
            let t = target.timing
            let length = t.speed == 0 ? Double.infinity : ExactDecimal.divide(t.exactActiveDuration, abs(t.speed))
            guard isKnown(length, of: target, what: "duration", range) else { return .poison }
            return finiteTime(ExactDecimal.divide(ExactDecimal.multiply(length, abs(fromTarget.scale)), abs(toHere.scale)), range)
        default:
            let instant = member.name == "begin" ? span.start : span.end
            guard isKnown(instant, of: target, what: member.name, range) else { return .poison }
            return finiteTime(toHere.inverse(fromTarget.apply(instant)), range)
        }
    }

    /// Whether `x`, the `what` of `target`, is a time there is to read, reporting when it
    /// is not: NaN is a duration taken from a group whose children are still being
    /// lowered, an infinity one of an animation that never ends.
    private func isKnown(_ x: Double, of target: LoweredAnimation, what: String, _ range: SourceRange) -> Bool {
        if x.isNaN {
            report(Messages.sequencingDurationUnknown(range, name: target.name, group: target.groups.last?.name))
            return false
        }
        if x.isInfinite {
            report(Messages.sequencingNeverEnds(range, name: target.name, what: what))
            return false
        }
        return true
    }

    /// A finite instant or length; extreme speeds and offsets can carry one past the
    /// doubles.
    private func finiteTime(_ x: Double, _ range: SourceRange) -> SemaValue {
        guard x.isFinite else {
            report(Messages.nonFinite(range, nan: x.isNaN))
            return .poison
        }
        return .number(x, .time)
    }

    /// `a`, `a.b`, `a.b.c` as names; nil for any other expression.
    private func dottedNames(_ e: Expr) -> [Identifier]? {
        switch tree[e] {
        case .identifier(let n): return [Identifier(n, e.range)]
        case .member(let base, let name): return dottedNames(base).map { $0 + [name] }
        default: return nil
        }
    }

    /// The animation named by `path`: a name alone is looked up among the animations
    /// next to the one being lowered (same layer and group), then anywhere in its layer;
    /// with more names, the first ones name a layer (as `mask:` does: a sublayer, else a
    /// layer further out) and the last the animation.
    private func findAnimation(_ path: [Identifier], from here: LayerNode) -> LoweredAnimation? {
        let name = path[path.count - 1].name
        if path.count == 1 {
            let candidates = loweredByLayer[ObjectIdentifier(here), default: []].filter { $0.name == name }
            let sameGroup = candidates.last { $0.groups.map(\.range) == context.frame.groups.map(\.range) }
            return sameGroup ?? candidates.last
        }
        var layer: LayerNode?
        for s in context.layers.reversed() + [root] where layer == nil {
            layer = descend(s, path.dropLast())
        }
        guard let found = layer else { return nil }
        return loweredByLayer[ObjectIdentifier(found), default: []].last { $0.name == name }
    }

    private func descend(_ node: LayerNode, _ names: ArraySlice<Identifier>) -> LayerNode? {
        var current = node
        for n in names {
            guard let child = current.child(named: n.name) else { return nil }
            current = child
        }
        return current
    }

    /// The map from a frame's time (a layer's, or a group's inside it) to the
    /// composition's. Reports and returns nil where there is none: a layer at speed 0,
    /// or a group whose timing function warps time.
    /// `layers` is the frame's layer and its ancestors, outermost first.
    private func toComposition(_ layers: [LayerNode], _ groups: [Animation], at range: SourceRange, referenced: String) -> TimeMap? {
        var map = TimeMap.identity
        for group in groups.reversed() {
            guard let g = TimeMap(group: group.timing) else {
                report(Messages.sequencingAcross(range, name: referenced, group: group.name))
                return nil
            }
            map = g.after(map)
        }
        for n in layers.reversed() {
            guard let l = TimeMap(layer: n.timing) else {
                report(Messages.sequencingStoppedLayer(range, name: referenced, layer: n.name))
                return nil
            }
            map = l.after(map)
        }
        return map
    }

    /// Records a lowered animation for later references, in a file that has any.
    func registerLowered(_ a: Animation, nameRange: SourceRange) {
        guard facts.registersLowered, context.frame.layer != nil else { return }
        let lowered = LoweredAnimation(name: a.name, layers: context.layers, groups: context.frame.groups, timing: a.timing,
                                       nameRange: nameRange)
        lowered.item = itemNumber
        output.lowered.append(lowered)
        appendLowered(lowered)
    }

    /// Adds to the animations lowered so far, and to its layer's.
    func appendLowered(_ a: LoweredAnimation) {
        loweredAnimations.append(a)
        loweredByLayer[ObjectIdentifier(a.layer), default: []].append(a)
    }
}

extension LoweredAnimation {
    /// Moves its ranges in place; false if one cannot be moved.
    func move(_ shift: RangeShift) -> Bool {
        guard let r = shift(nameRange) else { return false }
        nameRange = r
        for i in groups.indices where !groups[i].move(shift) { return false }
        return true
    }
}
