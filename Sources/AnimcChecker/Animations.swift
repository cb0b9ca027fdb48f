import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// The duration an animation inherits when it gives none.
struct GroupContext {
    /// The enclosing group's duration, once known; children without a duration use it.
    var duration: Double?
    /// The group wrote a duration that is an error: what a child's zero duration becomes
    /// is not known, so no fix-it writes a value for it (it wrote 0.25s, the default,
    /// where the group's `2` only lacked its unit).
    var unknown = false
}

/// One attribute as written, with the scope its expression is evaluated in.
struct Attribute {
    var name: String
    var nameRange: SourceRange
    var value: Expr
    var range: SourceRange
    var scope: Scope
}

/// An animation's attributes by canonical name, a handful each, searched in order.
struct AttributeSet {
    private(set) var values: [Attribute] = []

    subscript(name: String) -> Attribute? {
        let length = name.utf8.count
        return values.first { $0.name.utf8.count == length && $0.name == name }
    }

    mutating func insert(_ a: Attribute) { values.append(a) }

    mutating func reserve(_ count: Int) { values.reserveCapacity(count) }
}

/// One keyframe row as written.
struct KeyframeRow {
    var time: Expr
    var value: Expr
    var timing: Expr?
    var range: SourceRange
    var scope: Scope
}

extension Checker {
    static let timingAttributeNames = ["beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
                                       "autoreverses", "fillMode", "removedOnCompletion", "timingFunction", "added"]
    static let propertyAttributeNames = ["additive", "isAdditive", "cumulative", "isCumulative"]
    static let kindAttributes: [String: [String]] = [
        "basic": ["from", "to", "by", "interpolation"],
        "keyframes": ["values", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues", "biasValues",
                      "interpolation"],
        "motion": ["path", "keyTimes", "timingFunctions", "calculationMode", "rotationMode"],
        "spring": ["from", "to", "by", "mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping",
                   "perceptualDuration", "bounce", "interpolation"],
        "decay": ["from", "velocity", "deceleration"],
        "group": [],
    ]

    /// Every attribute each kind of animation takes.
    static let knownAttributes = NameTable<[String]>(kindAttributes.map { kind, names in
        (kind, timingAttributeNames + (kind == "group" ? [] : propertyAttributeNames) + names)
    })

    /// The range naming an animation in messages: its key path or group name.
    func animationNameRange(_ item: Item) -> SourceRange { Checker.animationNameRange(item, in: tree) }

    static func animationNameRange(_ item: Item, in tree: SyntaxTree) -> SourceRange {
        guard case .animation(let kind, let target, let alias, _, _, _) = tree[item] else { return item.range }
        return alias?.range ?? target?.range ?? kind.range
    }

    /// The body of the animation lowered at `range` in this check's tree.
    func animationBlock(_ range: SourceRange) -> Block? {
        guard let item = animationItems[range], case .animation(_, _, _, _, let body, _) = tree[item] else { return nil }
        return body
    }

    /// Where ` as name` would go for a fix-it.
    func aliasInsertionPoint(_ item: Item) -> UInt32? {
        guard case .animation(_, let target, let alias, _, _, _) = tree[item], alias == nil, let t = target else { return nil }
        return t.range.end
    }

    /// An animation's body as written: its attributes, keyframe rows and (a group's)
    /// child animations, each with the scope it sees; `failed` when something was
    /// reported already (the rest is still checked, so one run reports everything).
    struct AnimationBody {
        var attributes = AttributeSet()
        var rows: [KeyframeRow] = []
        var children: [(item: Item, scope: Scope)] = []
        var failed = false
    }

    /// Lowers an animation item. `group` is nil for an animation added directly to a layer.
    func lowerAnimation(_ item: Item, layerKind: LayerKind, scope: Scope, group: GroupContext?) -> Animation? {
        guard case .animation(let kind, let target, let alias, let along, let body, let indices) = tree[item] else { return nil }
        animationItems[item.range] = item
        output.animations.append(item)
        if expanding { work.evaluations += limits.loweringWeight }
        // `as fade[c]` in a loop: fade[0], fade[1], ...
        guard let name = indexedName(alias?.name ?? target?.dotted ?? "group", indices, scope, what: "an animation index") else { return nil }
        var written = gatherBody(item, kind: kind.name, body, scope, inGroup: group != nil)
        if kind.name == "group" {
            let loweredTiming = lowerTiming(written.attributes, kind: kind.name, range: item.range, group: group, body: body)
            if loweredTiming == nil { written.failed = true }
            return lowerGroup(item, name: name, timing: loweredTiming ?? Timing(duration: .nan), written, layerKind: layerKind)
        }
        guard let t = target, let (info, property) = animationTarget(t, layerKind: layerKind) else { return nil }
        let loweredTiming = lowerTiming(written.attributes, kind: kind.name, range: item.range, group: group, body: body)
        if loweredTiming == nil { written.failed = true }
        let timing = loweredTiming ?? Timing(duration: .nan)
        return lowerPropertyAnimation(item, kind: kind.name, name: name, along: along, body: body, written, info: info,
                                      property: property, targetRange: t.range, timing: timing, group: group)
    }

    /// Reads an animation's body: attributes by canonical name (a pasted `fromValue` read
    /// as `from`, after its message), keyframe rows, a group's children.
    private func gatherBody(_ item: Item, kind: String, _ body: Block, _ scope: Scope, inGroup: Bool) -> AnimationBody {
        var written = AnimationBody()
        // Every item is an attribute, a row or a child (a loop's may be more): sized
        // once rather than grown by doubling.
        if kind == "keyframes" { written.rows.reserveCapacity(body.items.count) }
        written.attributes.reserve(body.items.count)
        let known = Checker.knownAttributes[kind] ?? Checker.timingAttributeNames + Checker.propertyAttributeNames
        expandNested(body, in: scope) { child, childScope in
            if tree.tag(child) == .animation {
                if kind == "group" { written.children.append((child, childScope)) }  // else reported by the parser
                return
            }
            switch tree[child] {
            case .property(let key, let value):
                var name = key.dotted
                if !known.contains(name), let canonical = self.swiftAttribute(name, key.range), known.contains(canonical) {
                    name = canonical
                }
                if name == "delegate" {
                    // `anim.delegate = self`: app code told when the animation starts and
                    // stops; it changes no frame, so the fix removes it.
                    report(CheckerDiagnostics.swiftSpelling.at(
                        key.range, "'delegate' is the app's code that hears when the animation starts and stops: it is not animation",
                        label: "app code", fixIts: [FixIt("remove it", edits: [removal(of: child.range)], applicability: .machineApplicable)]))
                    return
                }
                if kind == "spring", name == "duration", case .member(let base, let member) = tree[value], member.name == "settlingDuration",
                   case .identifier(let owner) = tree[base], isThisSpring(owner, item, childScope) {
                    // `spring.duration = spring.settlingDuration`: what a spring's duration
                    // is when it is not set, so the fix removes it. In a group the default
                    // is the group's duration: no fix there.
                    report(CheckerDiagnostics.swiftSpelling.at(
                        value.range, "'\(owner).settlingDuration' is what a spring's duration is when it is not set", label: "pasted spelling",
                        help: inGroup ? "in a group a spring's duration defaults to the group's: write the settling time as a number" : nil,
                        fixIts: inGroup ? [] : [FixIt("remove it: the duration defaults to the settling duration", edits: [removal(of: child.range)],
                                                      applicability: .machineApplicable)]))
                    if inGroup { written.failed = true }
                    return
                }
                guard known.contains(name) else {
                    if let help = Checker.misplacedAttributeHelp(name, kind: kind) {
                        report(Messages.unknownAttribute(key.range, name: name, on: "a '\(kind)' animation", suggestion: nil, help: help))
                    } else {
                        reportSuggesting(name, among: known.count, { known }) {
                            Messages.unknownAttribute(key.range, name: name, on: "a '\(kind)' animation", suggestion: $0)
                        }
                    }
                    unrecognisedAttributeItems.insert(item.range)
                    output.unrecognised.append(item.range)
                    written.failed = true
                    return
                }
                let canonical = name == "isAdditive" ? "additive" : name == "isCumulative" ? "cumulative" : name
                if let previous = written.attributes[canonical] {
                    // Pasted code assigns a property twice (`anim.fillMode = ...` in two
                    // places) and Core Animation keeps the last: the fix removes the first.
                    var d = Messages.duplicateProperty(child.range, name: name, previous: previous.range)
                    d.fixIts = [FixIt("remove the first one: the last value set is the one Core Animation keeps",
                                      edits: [removal(of: previous.range)], applicability: .machineApplicable)]
                    report(d)
                    written.failed = true
                    return
                }
                written.attributes.insert(Attribute(name: canonical, nameRange: key.range, value: value, range: child.range, scope: childScope))
            case .keyframe(let time, let value, let timing):
                guard kind == "keyframes" else {
                    report(Messages.keyframeForms(child.range, problem: "keyframe rows belong in a 'keyframes' animation, not '\(kind)'"))
                    written.failed = true
                    return
                }
                if written.rows.count >= limits.keyframes {
                    if written.rows.count == limits.keyframes { report(Messages.tooManyKeyframes(item.range, limit: limits.keyframes)) }
                    written.failed = true
                    return
                }
                written.rows.append(KeyframeRow(time: time, value: value, timing: timing, range: child.range, scope: childScope))
            default:
                break
            }
        }
        return written
    }

    /// Whether `owner` in `owner.settlingDuration` names the spring being read: its
    /// `as` name, or a name declared nowhere (the pasted code's variable for it).
    private func isThisSpring(_ owner: String, _ item: Item, _ scope: Scope) -> Bool {
        if case .animation(_, _, let alias?, _, _, _) = tree[item], alias.name == owner { return true }
        return scope.lookup(owner) == nil && Builtins.constant(owner) == nil
    }

    /// The property an animation's key path names, on a layer of `layerKind`; nil after
    /// reporting.
    private func animationTarget(_ t: KeyPathSyntax, layerKind: LayerKind) -> (KeyPathInfo, PropertyInfo)? {
        guard let info = keyPathInfo(t) else {
            reportSuggesting(t.dotted, among: PropertyTable.keyPaths.count, { PropertyTable.keyPaths.map(\.keyPath) }) {
                Messages.unknownKeyPath(t.range, path: t.dotted, suggestion: $0)
            }
            return nil
        }
        let property = PropertyTable.info(info.target.property)
        guard property.applies(to: layerKind) else {
            let owners = (property.kinds ?? []).map { Messages.kindNoun($0) + "s" }.sorted().joined(separator: " and ")
            report(Messages.propertyNotOnKind(t.range, name: t.dotted, kind: layerKind, owners: owners))
            return nil
        }
        return (info, property)
    }

    /// A group: its children lowered in the group's time, their durations defaulting to
    /// the group's.
    private func lowerGroup(_ item: Item, name: String, timing groupTiming: Timing, _ written: AnimationBody,
                            layerKind: LayerKind) -> Animation? {
        var timing = groupTiming
        var failed = written.failed
        var children: [Animation] = []
        children.reserveCapacity(written.children.count)
        var keys = NameTable<SourceRange>()
        let explicitDuration = timing.duration.isNaN ? nil : timing.duration
        // Children sequence against each other in the group's time.
        context.frame.groups.append(Animation(name: name, timing: timing, kind: .group([]), range: item.range))
        defer { context.frame.groups.removeLast() }
        for (child, childScope) in written.children {
            guard let a = lowerAnimation(child, layerKind: layerKind, scope: childScope,
                                         group: GroupContext(duration: explicitDuration,
                                                             unknown: explicitDuration == nil && written.attributes["duration"] != nil))
            else { failed = true; continue }
            if let previous = keys[a.name] {
                report(Messages.duplicateAnimation(animationNameRange(child), name: a.name, previous: previous,
                                                   insertAt: aliasInsertionPoint(child)))
                failed = true
                continue
            }
            keys[a.name] = animationNameRange(child)
            children.append(a)
        }
        if failed { return nil }
        if timing.duration.isNaN {
            timing.duration = groupExtent(children) ?? CoreAnimationDefaults.duration
            if groupExtent(children) == nil, case .animation(_, _, _, _, let body, _) = tree[item] { warnDefaultDuration(item, body) }
        }
        // Children that gave no duration run for the group's (Core Animation's rule).
        for i in children.indices where children[i].timing.duration.isNaN { children[i].timing.duration = timing.duration }
        let animation = Animation(name: name, timing: timing, kind: .group(children), range: item.range)
        checkGroupRules(animation, item: item)
        context.frame.groups.removeLast()
        registerLowered(animation, nameRange: animationNameRange(item))
        context.frame.groups.append(animation)
        return animation
    }

    /// A `basic`, `keyframes`, `motion`, `spring` or `decay` animation of `info`'s key path.
    private func lowerPropertyAnimation(_ item: Item, kind: String, name: String, along: Expr?, body: Block, _ written: AnimationBody,
                                       info: KeyPathInfo, property: PropertyInfo, targetRange: SourceRange, timing lowered: Timing,
                                       group: GroupContext?) -> Animation? {
        let attributes = written.attributes, failed = written.failed
        var timing = lowered
        let additive = attributes["additive"].flatMap { lowerBool($0) } ?? false
        let cumulative = attributes["cumulative"].flatMap { lowerBool($0) } ?? false
        for attr in ["additive", "cumulative"] where attributes[attr] != nil && !info.type.isAdditive {
            report(Messages.notAdditive(attributes[attr]?.range ?? item.range, attribute: attr, type: info.type))
            return nil
        }
        var interpolation = TransformInterpolation.matrix
        if let attr = attributes["interpolation"] {
            // Only a whole transform has a choice: every other value interpolates one way.
            guard info.type == .transform, info.target.component == nil else {
                report(Messages.unknownAttribute(attr.nameRange, name: "interpolation", on: "an animation of '\(info.keyPath)'",
                                                 suggestion: nil,
                                                 help: "'interpolation' chooses how a whole 'transform' interpolates; '\(info.keyPath)' interpolates one way"))
                return nil
            }
            guard let mode = enumerationValue(attr.value, attr.scope, cases: TransformInterpolation.allCases.map(\.rawValue),
                                              context: "'interpolation'").flatMap(TransformInterpolation.init(rawValue:)) else { return nil }
            interpolation = mode
        }
        let content: AnimationContent
        switch kind {
        case "basic":
            guard let (from, to) = lowerFromTo(attributes, info, item), !failed else { return nil }
            guard interpolates(info, at: targetRange) else { return nil }
            content = .basic(from: from, to: to)
        case "keyframes":
            guard let k = lowerKeyframes(attributes, written.rows, info, item, body), !failed else { return nil }
            content = .keyframes(k)
        case "motion":
            guard let m = lowerMotion(attributes, along, info, item), !failed else { return nil }
            content = .motion(m)
        case "spring":
            let endpoints = lowerFromTo(attributes, info, item), parameters = lowerSpring(attributes)
            guard let (from, to) = endpoints, let p = parameters, !failed, interpolates(info, at: targetRange) else { return nil }
            if let tf = attributes["timingFunction"] { report(Messages.springTiming(tf.range, kind: "spring")); return nil }
            if timing.duration.isNaN && group?.duration == nil {
                let settling = p.settlingDuration
                // An undamped (or vanishingly weak) spring never settles: its duration
                // cannot default to the settling time.
                guard settling.isFinite, settling > 0 else {
                    report(Messages.springNeverSettles(animationNameRange(item)))
                    return nil
                }
                timing.duration = settling
            }
            content = .spring(from: from, to: to, parameters: p)
            checkSpringCutOff(from, to, p, timing: timing, groupDuration: group?.duration, type: info.type, item: item)
        case "decay":
            guard let d = lowerDecay(attributes, info, item), !failed else { return nil }
            if let tf = attributes["timingFunction"] { report(Messages.springTiming(tf.range, kind: "decay")); return nil }
            if timing.duration.isNaN && group?.duration == nil { timing.duration = Decay.settlingDuration(rate: d.rate) }
            content = .decay(from: d.from, velocity: d.velocity, deceleration: d.rate)
        default:
            return nil
        }
        if timing.duration.isNaN && group == nil {
            timing.duration = CoreAnimationDefaults.duration
            warnDefaultDuration(item, body)
        }
        let animation = Animation(name: name, timing: timing,
                                  kind: .property(PropertyAnimation(target: info.target, additive: additive, cumulative: cumulative,
                                                                    transformInterpolation: interpolation, content: content)),
                                  range: item.range)
        checkPropertyAnimationRules(animation, item: item, type: info.type)
        registerLowered(animation, nameRange: animationNameRange(item))
        return animation
    }

    /// Whether values of `info`'s type interpolate (a `basic` or `spring` needs them to);
    /// reports when not.
    private func interpolates(_ info: KeyPathInfo, at range: SourceRange) -> Bool {
        guard !info.type.interpolates else { return true }
        report(Messages.notInterpolatable(range, keyPath: info.keyPath, type: info.type, basic: true, fixIt: nil))
        return false
    }

    private static func misplacedAttributeHelp(_ name: String, kind: String) -> String? {
        for (other, names) in kindAttributes where other != kind && names.contains(name) {
            return "'\(name)' belongs to '\(other)' animations"
        }
        return nil
    }

    private func warnDefaultDuration(_ item: Item, _ body: Block) {
        reportMissing(in: item.range, CheckerDiagnostics.defaultDuration.at(
            animationNameRange(item), "no duration: Core Animation uses 0.25 s",
            fixIts: attributeInsertion(body, "duration: 0.25s", message: "write the duration").map { [$0] } ?? []))
    }

    /// The end of the last child in group time, if every child with an end has one.
    func groupExtent(_ children: [Animation]) -> Double? {
        var end: Double?
        for c in children where !c.timing.duration.isNaN {
            let speed = c.timing.speed == 0 ? 1 : abs(c.timing.speed)
            let e = c.timing.beginTime + c.timing.activeDuration / speed
            guard e.isFinite else { continue }
            end = max(end ?? 0, e)
        }
        return end.flatMap { $0 > 0 ? $0 : nil }
    }

    // MARK: Timing

    private func lowerTiming(_ a: AttributeSet, kind: String, range: SourceRange, group: GroupContext?, body: Block) -> Timing? {
        var t = Timing(duration: .nan)
        var ok = true
        func time(_ name: String) -> Double? {
            guard let attr = a[name] else { return nil }
            guard let x = lowerTimeAttribute(name, attr.value, attr.scope) else { ok = false; return nil }
            return x
        }
        if let x = time("beginTime") { t.beginTime = x }
        if let attr = a["duration"], let x = time("duration") {
            if x < 0 {
                report(Messages.badDuration(attr.value.range, value: x, what: "the duration"))
                ok = false
            } else if x == 0 {
                // Core Animation replaces a zero duration when the animation is added: with
                // its group's, or the transaction's 0.25 s.
                let used = kind == "group" ? CoreAnimationDefaults.duration : group?.duration ?? CoreAnimationDefaults.duration
                t.duration = used
                if kind != "group", group?.unknown == true {
                    ok = false  // reported at the group's duration
                } else {
                    report(Messages.zeroDuration(attr.value.range, used: used, inGroup: kind != "group" && group?.duration != nil))
                }
            } else {
                t.duration = x
            }
        } else if a["duration"] == nil, let inherited = group?.duration, kind != "group" {
            t.duration = inherited
        }
        if let attr = a["speed"] {
            if case .number(let x)? = lowerValue(attr.value, attr.scope, as: .number, context: "'speed'", finite: false) { t.speed = x } else { ok = false }
        }
        if let x = time("timeOffset") { t.timeOffset = x }
        if let attr = a["repeatCount"] {
            if case .number(let x)? = lowerValue(attr.value, attr.scope, as: .number, context: "'repeatCount'", finite: false) {
                if x < 0 { report(Messages.negativeRepeat(attr.value.range, what: "repeatCount")); ok = false } else { t.repeatCount = x }
            } else { ok = false }
        }
        if let attr = a["repeatDuration"] {
            let v = eval(attr.value, attr.scope)
            if case .number(let x, .none) = v, x.isInfinite, x > 0 {
                t.repeatDuration = x
            } else if case .number(let x)? = convert(v, to: .time, at: attr.value.range, context: "'repeatDuration'", literal: false) {
                if x < 0 { report(Messages.negativeRepeat(attr.value.range, what: "repeatDuration")); ok = false } else { t.repeatDuration = x }
            } else { ok = false }
        }
        if let count = a["repeatCount"], let duration = a["repeatDuration"] {
            let (first, second) = count.range.start < duration.range.start ? (count, duration) : (duration, count)
            report(Messages.repeatConflict(second.range, other: first.range))
            ok = false
        }
        if let attr = a["autoreverses"] { if let b = lowerBool(attr) { t.autoreverses = b } else { ok = false } }
        if let attr = a["removedOnCompletion"] { if let b = lowerBool(attr) { t.removedOnCompletion = b } else { ok = false } }
        if let attr = a["fillMode"] {
            if let m = enumerationValue(attr.value, attr.scope, cases: FillMode.allCases.map(\.rawValue), context: "'fillMode'"),
               let mode = FillMode(rawValue: m) { t.fillMode = mode } else { ok = false }
        }
        if let attr = a["timingFunction"], kind != "spring", kind != "decay" {
            if let f = lowerTimingFunction(attr.value, attr.scope, context: "'timingFunction'") { t.timingFunction = f } else { ok = false }
        }
        if let attr = a["added"] {
            if group != nil {
                report(Messages.addedInGroup(attr.nameRange))
                ok = false
            } else if let x = time("added") {
                if x.isFinite {
                    t.added = x
                    // Core Animation sets a beginTime of 0 to the time it adds the animation.
                    if t.beginTime == 0 { t.beginTime = x }
                } else {
                    report(Messages.infiniteValue(attr.value.range, context: "'added'"))
                    ok = false
                }
            }
        }
        return ok ? t : nil
    }

    /// A timing attribute's time in seconds; nil after reporting.
    func lowerTimeAttribute(_ name: String, _ expr: Expr, _ scope: Scope) -> Double? {
        guard case .number(let x)? = lowerValue(expr, scope, as: .time, context: "'\(name)'", finite: false) else { return nil }
        return x
    }

    func lowerBool(_ attr: Attribute) -> Bool? {
        guard case .bool(let b)? = lowerValue(attr.value, attr.scope, as: .bool, context: "'\(attr.name)'") else { return nil }
        return b
    }

    func lowerTimingFunction(_ expr: Expr, _ scope: Scope, context: @autoclosure () -> String) -> TimingFunction? {
        let v = eval(expr, scope)
        if case .timing(let f) = v { return f }
        if !v.isPoison {
            report(Messages.typeMismatch(expr.range, expected: "a timing function", found: v.typeName, context: context(),
                                         help: "timing functions are linear, easeIn, easeOut, easeInEaseOut, default, cubic(...), steps(...) and spring(...)"))
        }
        return nil
    }

    // MARK: basic, spring, decay

    /// `from`/`to`/`by` resolved to from → to as CABasicAnimation does, with an absent
    /// end taken from the model value (semantics.md §6).
    private func lowerFromTo(_ a: AttributeSet, _ info: KeyPathInfo, _ item: Item) -> (AnimatedValue, AnimatedValue)? {
        /// `.some(nil)` when the attribute is absent, nil when it failed.
        func value(_ name: String) -> AnimatedValue?? {
            guard let attr = a[name] else { return .some(nil) }
            guard let lowered = lowerEndpoint(name, attr.value, attr.scope, info) else { return nil }
            return .some(lowered)
        }
        // All three are checked before any failure returns, so one run reports a mistake
        // in each (`from: 0` and `to: 2 * pi` for an angle), not one per run.
        let from = value("from"), to = value("to"), by = value("by")
        guard let from, let to, let by else { return nil }
        switch (from, to, by) {
        case (let f?, let t?, nil): return (f, t)
        case (let f?, nil, let b?):
            guard case .value(let fv) = f, case .value(let bv) = b, let sum = ValueMath.add(fv, bv) else {
                report(Messages.typeMismatch(a["by"]?.value.range ?? item.range, expected: "a value that adds to 'from'",
                                             found: info.type.description, context: "'by'"))
                return nil
            }
            return (f, .value(sum))
        case (nil, let t?, let b?):
            guard case .value(let tv) = t, case .value(let bv) = b, let difference = ValueMath.subtract(tv, bv) else {
                report(Messages.typeMismatch(a["by"]?.value.range ?? item.range, expected: "a value that can be subtracted from 'to'",
                                             found: info.type.description, context: "'by'"))
                return nil
            }
            return (.value(difference), t)
        case (let f?, nil, nil): return (f, .model)
        case (nil, let t?, nil): return (.model, t)
        case (nil, nil, .value(let b)?):
            guard ValueMath.add(b, b) != nil else {
                report(Messages.typeMismatch(a["by"]?.value.range ?? item.range, expected: "a value with addition", found: info.type.description, context: "'by'"))
                return nil
            }
            return (.model, .modelPlus(b))
        case (_?, _?, _?):
            report(Messages.keyframeForms(a["by"]?.range ?? item.range, problem: "'from', 'to' and 'by' cannot all be given"))
            return nil
        default:
            reportMissing(in: item.range, Messages.missingAttribute(animationNameRange(item), what: "this animation", needs: "'from', 'to' or 'by'"))
            return nil
        }
    }

    /// `from`, `to` or `by` of a basic or spring animation; nil after reporting. Animated
    /// values are not range-checked: Core Animation accepts an opacity animated from -1
    /// (a delay some ports rely on) and clamps only what it shows, as a spring's
    /// overshoot is (`PropertyInfo.shown`).
    func lowerEndpoint(_ name: String, _ expr: Expr, _ scope: Scope, _ info: KeyPathInfo) -> AnimatedValue? {
        if name == "from" {
            if let read = pastedPresentationRead(expr) {
                reportPresentationRead(expr, property: read, keyPath: info.keyPath)
                return .presentation
            }
            return lowerAnimatedValue(expr, scope, as: info.type, context: "'from'")
        }
        return lowerValue(expr, scope, as: info.type, context: "'\(name)'").map { .value($0) }
    }

    private func lowerSpring(_ a: AttributeSet) -> SpringParameters? {
        let labels = ["mass", "stiffness", "damping", "initialVelocity", "perceptualDuration", "bounce"]
        var items: [CallItem] = []
        for label in labels {
            guard let attr = a[label] else { continue }
            items.append(CallItem(label: label, value: eval(attr.value, attr.scope), expr: attr.value))
        }
        let args = CallArguments(callee: "spring", items: items, range: items.first?.range ?? .empty(at: 0), checker: self)
        if args.hasPoison { return nil }
        guard var p = springParameters(args) else { return nil }
        if let attr = a["allowsOverdamping"] {
            guard let b = lowerBool(attr) else { return nil }
            p.allowsOverdamping = b
        }
        return p
    }

    private func lowerDecay(_ a: AttributeSet, _ info: KeyPathInfo, _ item: Item) -> (from: AnimatedValue, velocity: Value, rate: Double)? {
        guard [.number, .length, .angle, .time, .point, .size, .rect, .color].contains(info.type) else {
            report(Messages.typeMismatch(animationNameRange(item), expected: "a number, point, size, rect or colour key path",
                                         found: "'\(info.keyPath)', which holds \(info.type)", context: "a decay",
                                         help: "a decay moves a value at a velocity; animate a component such as 'transform.rotation.z'"))
            return nil
        }
        guard let v = a["velocity"] else {
            reportMissing(in: item.range, Messages.missingAttribute(animationNameRange(item), what: "a decay", needs: "'velocity'",
                                             help: "velocity is in the property's units per second, e.g. velocity: (1200, -800)"))
            return nil
        }
        guard let velocity = lowerValue(v.value, v.scope, as: info.type, context: "'velocity'") else { return nil }
        var rate = 0.998
        if let d = a["deceleration"] {
            guard case .number(let r)? = lowerValue(d.value, d.scope, as: .number, context: "'deceleration'") else { return nil }
            guard r > 0, r < 1 else {
                report(Messages.decayRate(d.value.range, value: r))
                return nil
            }
            rate = r
        }
        var from = AnimatedValue.model
        if let f = a["from"] {
            guard let v = lowerAnimatedValue(f.value, f.scope, as: info.type, context: "'from'") else { return nil }
            from = v
        }
        return (from, velocity, rate)
    }
}

/// Core Animation's defaults where the source is silent.
enum CoreAnimationDefaults {
    /// `add(_:forKey:)` replaces a zero duration with the transaction's, 0.25 s by default.
    static let duration = 0.25
}
