import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// Factories for every checker message. Call sites pass data; wording lives here.
enum Messages {
    typealias D = CheckerDiagnostics

    static func unknownName(_ range: SourceRange, name: String, suggestion: String?, help: String? = nil) -> Diagnostic {
        D.unknownName.at(range, "cannot find '\(name)' in scope", label: "not defined",
                         help: suggestion.map { "did you mean '\($0)'?" } ?? help,
                         fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func notCallable(_ range: SourceRange, name: String, what: String) -> Diagnostic {
        D.badArguments.at(range, "'\(name)' is a \(what), not a function", label: "called here")
    }

    static func unknownFunction(_ range: SourceRange, name: String, suggestion: String?) -> Diagnostic {
        D.unknownName.at(range, "cannot find function '\(name)'", label: "not defined",
                         help: suggestion.map { "did you mean '\($0)'?" },
                         fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func unknownProperty(_ range: SourceRange, name: String, kind: LayerKind, suggestion: String?) -> Diagnostic {
        D.unknownProperty.at(range, "unknown property '\(name)'", label: "not a property of \(kindNoun(kind))s",
                             help: suggestion.map { "did you mean '\($0)'?" },
                             fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func propertyNotOnKind(_ range: SourceRange, name: String, kind: LayerKind, owners: String) -> Diagnostic {
        D.unknownProperty.at(range, "'\(name)' is not a property of \(kindNoun(kind))s", label: "only on \(owners)",
                             help: "declare the layer as \(owners.hasPrefix("s") ? "'shape'" : "the right kind") to use it")
    }

    static func unknownKeyPath(_ range: SourceRange, path: String, suggestion: String?) -> Diagnostic {
        D.unknownProperty.at(range, "unknown key path '\(path)'", label: "not an animatable key path",
                             help: suggestion.map { "did you mean '\($0)'?" },
                             fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func subKeyPathModel(_ range: SourceRange, path: String, base: String) -> Diagnostic {
        D.unknownProperty.at(range, "the model value of '\(path)' cannot be set on its own",
                             help: "set '\(base)' as a whole, for example transform: rotate(15deg)")
    }

    static func kindNoun(_ kind: LayerKind) -> String {
        switch kind {
        case .layer: return "layer"
        case .shape: return "shape layer"
        case .image: return "image layer"
        case .gradient: return "gradient layer"
        case .transformLayer: return "transform layer"
        }
    }

    static func typeMismatch(_ range: SourceRange, expected: String, found: String, context: String? = nil,
                             help: String? = nil) -> Diagnostic {
        let where_ = context.map { " for \($0)" } ?? ""
        return D.typeMismatch.at(range, "expected \(expected)\(where_), found \(found)", label: "this is \(found)", help: help)
    }

    /// `edits`, when given, give a non-literal its unit (see `Checker.unitEdits`).
    static func missingUnit(_ range: SourceRange, expected: Dimension, literal: Bool, value: Double, context: String?,
                            edits: [TextEdit] = []) -> Diagnostic {
        let unit: String
        switch expected {
        case .time: unit = "s"
        case .angle: unit = abs(value) > 6.3 || value == value.rounded() && value != 0 && abs(value) >= 10 ? "deg" : "rad"
        case .none: unit = ""
        }
        let where_ = context.map { " for \($0)" } ?? ""
        let example = expected == .time ? "3s or 500ms" : "45deg or 0.5rad"
        return D.unitMismatch.at(range, "expected \(expected.noun)\(where_), found a number without a unit",
                                 label: "needs a unit", help: "write \(expected.noun) with its unit, such as \(example)",
                                 // Core Animation's times are seconds and its angles radians: a
                                 // pasted bare number means what the unit says.
                                 fixIts: literal ? [.insert(unit, at: range.end, "add '\(unit)'",
                                                            applicability: unit == "deg" ? .maybeIncorrect : .machineApplicable)]
                                     : edits.isEmpty ? [] : [FixIt("give it its unit, \(expected == .time ? "seconds" : "radians")", edits: edits,
                                                                   applicability: .machineApplicable)])
    }

    static func missingUnitInDeclaration(_ range: SourceRange, name: String, expected: Dimension, value: Double,
                                         declaration: SourceRange, context: String?) -> Diagnostic {
        let unit = expected == .time ? "s" : (abs(value) > 6.3 ? "deg" : "rad")
        let where_ = context.map { " for \($0)" } ?? ""
        return D.unitMismatch.at(range, "expected \(expected.noun)\(where_), found '\(name)', a number without a unit",
                                 label: "needs a unit", secondary: [Label(declaration, "'\(name)' is declared here")],
                                 help: "give the number its unit where '\(name)' is declared",
                                 fixIts: [.insert(unit, at: declaration.end, "add '\(unit)' to '\(name)'",
                                                  applicability: unit == "deg" ? .maybeIncorrect : .machineApplicable)])
    }

    static func dimensionMismatch(_ range: SourceRange, expected: Dimension, found: Dimension, context: String?) -> Diagnostic {
        let where_ = context.map { " for \($0)" } ?? ""
        return D.unitMismatch.at(range, "expected \(expected.noun)\(where_), found \(found.noun)", label: "this is \(found.noun)")
    }

    static func operandDimensions(_ range: SourceRange, op: String, left: Dimension, right: Dimension) -> Diagnostic {
        D.unitMismatch.at(range, "cannot apply '\(op)' to \(left.noun) and \(right.noun)",
                          help: left == .none || right == .none
                            ? "give both operands the same unit, for example 2s + 500ms"
                            : "these dimensions do not combine")
    }

    static func operandTypes(_ range: SourceRange, op: String, left: String, right: String) -> Diagnostic {
        D.typeMismatch.at(range, "cannot apply '\(op)' to \(left) and \(right)")
    }

    static func divisionByZero(_ range: SourceRange) -> Diagnostic {
        D.divisionByZero.at(range, "division by zero", label: "this is zero")
    }

    static func nonFinite(_ range: SourceRange, nan: Bool) -> Diagnostic {
        D.nonFinite.at(range, nan ? "expression is not a number (NaN)" : "expression overflows to infinity")
    }

    static func addedInGroup(_ range: SourceRange) -> Diagnostic {
        D.unknownAttribute.at(range, "an animation in a group is added with its group", label: "in a group",
                              help: "give the group 'added:' instead")
    }

    static func infiniteValue(_ range: SourceRange, context: String) -> Diagnostic {
        D.nonFinite.at(range, "\(context) cannot be infinite", label: "not finite",
                       help: "only timing ('repeatCount: inf', 'repeatDuration: inf') may be infinite")
    }

    static func badArguments(_ range: SourceRange, callee: String, problem: String, usage: String? = nil) -> Diagnostic {
        D.badArguments.at(range, "\(problem) in call to '\(callee)'", help: usage.map { "usage: \($0)" })
    }

    static func duplicate(_ range: SourceRange, name: String, what: String, previous: SourceRange) -> Diagnostic {
        D.duplicateDefinition.at(range, "'\(name)' is already defined in this block", label: "second \(what)",
                                 secondary: [Label(previous, "first defined here")])
    }

    static func duplicateProperty(_ range: SourceRange, name: String, previous: SourceRange) -> Diagnostic {
        D.duplicateDefinition.at(range, "'\(name)' is set twice", label: "set again here",
                                 secondary: [Label(previous, "first set here")],
                                 fixIts: [.replace(range, with: "", "remove the second one")])
    }

    static func duplicateAnimation(_ range: SourceRange, name: String, previous: SourceRange, insertAt: UInt32?) -> Diagnostic {
        D.duplicateDefinition.at(range, "two animations on this layer are keyed '\(name)'", label: "second '\(name)'",
                                 secondary: [Label(previous, "first here")],
                                 help: "name one with 'as', for example 'as \(name)2'",
                                 fixIts: insertAt.map { [.insert(" as \(name.replacingDots)2", at: $0, "name it '\(name.replacingDots)2'")] } ?? [])
    }

    static func duplicateLayer(_ range: SourceRange, name: String, previous: SourceRange) -> Diagnostic {
        D.duplicateDefinition.at(range, "a sibling layer is already named '\(name)'", label: "second '\(name)'",
                                 secondary: [Label(previous, "first here")])
    }

    static func duplicateLayerInLoop(_ range: SourceRange, name: String, loop: SourceRange) -> Diagnostic {
        // One message per line of source, not one per repeated name: the message does not
        // name the layer (reports are deduplicated on it), the label does.
        D.duplicateDefinition.at(range, "iterations of a loop give their layers the same name", label: "'\(name)' again",
                                 secondary: [Label(loop, "this loop runs it again with the same name")],
                                 help: "give each iteration its own name, such as 'dot[i]' with the loop variable")
    }

    static func shadowing(_ range: SourceRange, name: String, outer: SourceRange, what: String) -> Diagnostic {
        D.shadowing.at(range, "'\(name)' hides the \(what) of the same name", secondary: [Label(outer, "hidden declaration")])
    }

    static func unused(_ range: SourceRange, name: String, what: String, fixIts: [FixIt] = []) -> Diagnostic {
        D.unusedDefinition.at(range, "\(what) '\(name)' is never used",
                              help: "remove it, or prefix its name with '_' to keep it", fixIts: fixIts)
    }

    /// Which limit was met, and its value.
    enum ExpansionLimit { case layers(Int), iterations(Int), evaluations(Int) }

    static func expansionTooLarge(_ range: SourceRange, _ limit: ExpansionLimit) -> Diagnostic {
        let message: String
        switch limit {
        case .layers(let n): message = "expansion creates more than \(n) layers"
        case .iterations(let n): message = "loops run more than \(n) iterations"
        case .evaluations(let n): message = "expanding this file evaluates more than \(n) expressions"
        }
        return D.expansionTooLarge.at(range, message, label: "expansion stopped here")
    }

    static func tooManyKeyframes(_ range: SourceRange, limit: Int) -> Diagnostic {
        D.expansionTooLarge.at(range, "animation has more than \(limit) keyframes")
    }

    static func recursive(_ range: SourceRange, name: String, what: String) -> Diagnostic {
        D.recursiveDefinition.at(range, "\(what) '\(name)' depends on itself", label: "used while it is being defined")
    }

    static func definitionsTooDeep(_ range: SourceRange, name: String, limit: Int) -> Diagnostic {
        D.definitionsTooDeep.at(range, "'\(name)' is reached through more than \(limit) definitions, each using the next",
                                label: "the limit is reached here",
                                help: "shorten the chain of constants or components that use each other")
    }

    static func unknownAnimationReference(_ range: SourceRange, name: String, suggestion: String?) -> Diagnostic {
        D.unknownName.at(range, "no animation named '\(name)' before this one", label: "not an earlier animation",
                         help: suggestion.map { "did you mean '\($0)'?" }
                            ?? "an animation is named by its 'as' name (or its key path); it must come earlier in the file, and 'layer.name' names one in another layer",
                         fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func sequencingNeverEnds(_ range: SourceRange, name: String, what: String) -> Diagnostic {
        D.typeMismatch.at(range, "'\(name)' has no finite \(what): it repeats forever", label: "infinite",
                          help: "give '\(name)' a finite repeatCount or repeatDuration, or refer to its begin")
    }

    /// A child without a duration of its own in a group without one takes the group's,
    /// which is the extent of the children: not known while they are lowered.
    static func sequencingDurationUnknown(_ range: SourceRange, name: String, group: String?) -> Diagnostic {
        let from = group.map { "group '\($0)'" } ?? "its group"
        return D.typeMismatch.at(range, "'\(name)' has no duration yet: it takes the duration of \(from), which lasts until its children end",
                                 label: "not known here",
                                 help: "give '\(name)' a duration of its own, or give \(from) one")
    }

    static func sequencingAcross(_ range: SourceRange, name: String, group: String) -> Diagnostic {
        D.typeMismatch.at(range, "'\(name)' cannot be placed on this timeline: group '\(group)' warps time with its timing function",
                          label: "no single instant",
                          help: "refer to animations on the same side of '\(group)', or make its timingFunction linear")
    }

    static func sequencingStoppedLayer(_ range: SourceRange, name: String, layer: String) -> Diagnostic {
        D.typeMismatch.at(range, "'\(name)' cannot be placed on this timeline: layer '\(layer)' has speed 0, so its time stands still",
                          label: "no single instant")
    }

    static func outOfRange(_ range: SourceRange, what: String, value: String, valid: String) -> Diagnostic {
        D.valueOutOfRange.at(range, "\(what) is \(value), outside \(valid)", label: "out of range")
    }

    static func badInstance(_ range: SourceRange, problem: String, help: String? = nil) -> Diagnostic {
        D.badInstance.at(range, problem, help: help)
    }

    static func missingAttribute(_ range: SourceRange, what: String, needs: String, help: String? = nil) -> Diagnostic {
        D.missingAttribute.at(range, "\(what) needs \(needs)", help: help)
    }

    static func unknownAttribute(_ range: SourceRange, name: String, on: String, suggestion: String?, help: String? = nil) -> Diagnostic {
        D.unknownAttribute.at(range, "'\(name)' is not an attribute of \(on)", label: "unknown attribute",
                              help: suggestion.map { "did you mean '\($0)'?" } ?? help,
                              fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func unknownLayer(_ range: SourceRange, name: String, suggestion: String?) -> Diagnostic {
        D.unknownLayer.at(range, "no mask layer named '\(name)'", label: "not found",
                          help: suggestion.map { "did you mean '\($0)'?" } ?? "declare it with 'mask layer \(name) { ... }'",
                          fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func maskIsSublayer(_ range: SourceRange, name: String, declared: SourceRange) -> Diagnostic {
        D.unknownLayer.at(range, "'\(name)' is a sublayer and cannot also be a mask", label: "used as a mask here",
                          secondary: [Label(declared, "declared as a sublayer here")],
                          help: "declare it with 'mask' in front, as in 'mask layer \(name) { ... }'")
    }

    static func maskUsedTwice(_ range: SourceRange, name: String, first: SourceRange) -> Diagnostic {
        D.unknownLayer.at(range, "mask layer '\(name)' already masks another layer", label: "second use",
                          secondary: [Label(first, "first use")], help: "a layer can mask only one layer")
    }

    static func maskCycle(_ range: SourceRange, name: String) -> Diagnostic {
        D.unknownLayer.at(range, "mask layer '\(name)' masks one of its own ancestors", label: "mask cycle")
    }

    static func maskLoop(_ range: SourceRange, name: String, layer: String) -> Diagnostic {
        D.unknownLayer.at(range, "mask layer '\(name)' is masked, through its own masks, by '\(layer)': the masks loop",
                          label: "mask cycle", help: "a chain of masks must end; remove one of the 'mask:' properties")
    }

    static func badComponent(_ range: SourceRange, problem: String) -> Diagnostic {
        D.badComponent.at(range, problem, help: "a component's body holds exactly one layer, for example 'layer { ... }'")
    }

    static func misplaced(_ range: SourceRange, problem: String, help: String? = nil) -> Diagnostic {
        D.misplacedDeclaration.at(range, problem, help: help)
    }

    static func indexOutOfRange(_ range: SourceRange, index: String, count: Int) -> Diagnostic {
        D.indexOutOfRange.at(range, "index \(index) is outside a list of \(count)", label: "valid indices are 0 to \(count - 1)")
    }

    static func missingComposition(_ range: SourceRange) -> Diagnostic {
        D.missingComposition.at(range, "the file declares no composition",
                                help: "add 'composition { size: 375 x 667 }' at the top level")
    }

    // MARK: Animations

    static func keyTimesCount(_ range: SourceRange, keyTimes: Int, values: Int, mode: CalculationMode) -> Diagnostic {
        let wanted = mode == .discrete ? values + 1 : values
        return D.keyTimesCount.at(range, "\(keyTimes) key times for \(values) values", label: "expected \(wanted)",
                                  notes: mode == .discrete ? [Note("in discrete mode there is one more key time than values")] : [])
    }

    static func keyTimesOrder(_ range: SourceRange, previous: SourceRange?) -> Diagnostic {
        D.keyTimesOrder.at(range, "key time is earlier than the one before it", label: "goes back in time",
                           secondary: previous.map { [Label($0, "previous key time")] } ?? [])
    }

    static func keyTimesRange(_ range: SourceRange, value: Double) -> Diagnostic {
        D.keyTimesRange.at(range, "key time \(formatNumber(value)) is outside 0...1", label: "a fraction of the duration",
                           help: "key times are fractions: write 0.5 or 50%; to delay the animation use beginTime")
    }

    static func keyTimesShort(_ range: SourceRange, first: Bool, at time: Double) -> Diagnostic {
        D.keyTimesShort.at(range, first ? "the first key time is \(formatNumber(time)), not 0: the first value holds until then"
                                        : "the last key time is \(formatNumber(time)), not 1: the last value holds from then on",
                           label: first ? "first key time" : "last key time",
                           help: "Core Animation plays it this way; to say so, move the hold into the values: \(first ? "start with" : "end with") a key time of \(first ? 0 : 1) and the same value",
                           fixIts: [])
    }

    static func keyTimesEnds(_ range: SourceRange, first: Bool, mode: CalculationMode) -> Diagnostic {
        D.keyTimesEnds.at(range, first ? "the first key time must be 0" : "the last key time must be 1",
                          label: first ? "should be 0" : "should be 1",
                          notes: [Note("required in \(mode.rawValue) mode")],
                          fixIts: [.replace(range, with: first ? "0" : "1", first ? "start at 0" : "end at 1")])
    }

    static func timingFunctionsCount(_ range: SourceRange, count: Int, segments: Int) -> Diagnostic {
        D.timingFunctionsCount.at(range, "\(count) timing functions for \(segments) segment\(segments == 1 ? "" : "s")",
                                  label: "expected \(segments)")
    }

    /// W0421, with a fix-it that makes the count explicit when the list is written out:
    /// the extra entries removed, or `linear` added for the segments without one.
    static func timingFunctionsCountMismatch(_ list: Expr, in tree: SyntaxTree, count: Int, segments: Int) -> Diagnostic {
        let s = segments == 1 ? "" : "s"
        var fixIts: [FixIt] = []
        if case .list(let elements) = tree[list], elements.count == count {
            if count > segments {
                let from = segments == 0 ? tree[elements][0].range.start : tree[elements][segments - 1].range.end
                fixIts = [.replace(SourceRange(start: from, end: tree[elements][count - 1].range.end), with: "",
                                   "remove the \(count - segments) extra timing function\(count - segments == 1 ? "" : "s")")]
            } else if let last = tree[elements].last {
                fixIts = [.insert(String(repeating: ", linear", count: segments - count), at: last.range.end,
                                  "make the linear segment\(segments - count == 1 ? "" : "s") explicit")]
            } else {
                fixIts = [.replace(list.range, with: "[" + Array(repeating: "linear", count: segments).joined(separator: ", ") + "]",
                                   "make the linear segment\(segments - count == 1 ? "" : "s") explicit")]
            }
        }
        let effect = count > segments
            ? "the last \(count - segments == 1 ? "one is" : "\(count - segments) are") ignored"
            : "the last \(segments - count == 1 ? "segment is" : "\(segments - count) segments are") linear"
        return D.timingFunctionsCountMismatch.at(list.range, "\(count) timing function\(count == 1 ? "" : "s") for \(segments) segment\(s): \(effect)",
                                                 label: "expected \(segments)", fixIts: fixIts)
    }

    static func lastRowTiming(_ range: SourceRange) -> Diagnostic {
        D.timingFunctionsCount.at(range, "the last keyframe has no segment after it to time",
                                  label: "nothing follows this keyframe",
                                  fixIts: [.replace(range, with: "", "remove the timing function")])
    }

    static func pacedIgnores(_ range: SourceRange, attribute: String, mode: CalculationMode, removable: Bool = true) -> Diagnostic {
        D.pacedIgnores.at(range, "'\(attribute)' \(attribute.hasSuffix("s") ? "are" : "is") ignored in \(mode.rawValue) mode",
                          label: "has no effect",
                          help: removable ? nil : "in paced modes write 'values: [...]' without key times",
                          fixIts: removable ? [.replace(range, with: "", "remove it")] : [])
    }

    static func cubicControl(_ range: SourceRange, which: String, value: Double) -> Diagnostic {
        D.cubicControlRange.at(range, "\(which) is \(formatNumber(value)), outside 0...1",
                               label: "control point x must be a time in 0...1",
                               help: "only the y values may overshoot, as in cubic(0.68, -0.55, 0.265, 1.55)")
    }

    static func badDuration(_ range: SourceRange, value: Double, what: String) -> Diagnostic {
        D.negativeDuration.at(range, "\(what) is negative", label: "must be positive")
    }

    static func zeroDuration(_ range: SourceRange, used: Double, inGroup: Bool) -> Diagnostic {
        let seconds = formatNumber(used) + "s"
        return D.defaultDuration.at(range, "duration 0: Core Animation uses \(inGroup ? "the group's duration, " : "")\(seconds)",
                                    label: "replaced when added",
                                    fixIts: [.replace(range, with: seconds, "write \(seconds)", applicability: .machineApplicable)])
    }

    static func negativeRepeat(_ range: SourceRange, what: String) -> Diagnostic {
        D.negativeRepeat.at(range, "\(what) is negative", label: "must be 0 or more")
    }

    static func repeatConflict(_ range: SourceRange, other: SourceRange) -> Diagnostic {
        D.repeatConflict.at(range, "repeatCount and repeatDuration are both set", label: "second repeat attribute",
                            secondary: [Label(other, "first repeat attribute")],
                            notes: [Note("Core Animation leaves the combination undefined")],
                            help: "keep one of them")
    }

    static func keyframeForms(_ range: SourceRange, problem: String) -> Diagnostic {
        D.keyframeForms.at(range, problem)
    }

    static func pathStructure(_ range: SourceRange, what: String, first: SourceRange?) -> Diagnostic {
        D.pathStructure.at(range, "\(what) differs in structure from the first value", label: "different structure",
                           secondary: first.map { [Label($0, "first value")] } ?? [],
                           help: "interpolated values need the same elements in the same order")
    }

    static func notInterpolatable(_ range: SourceRange, keyPath: String, type: ValueType, basic: Bool, fixIt: FixIt?) -> Diagnostic {
        D.notInterpolatable.at(range, "'\(keyPath)' holds \(type) and cannot be interpolated",
                               help: basic ? "use 'keyframes \(keyPath)' with 'calculationMode: discrete'" : "add 'calculationMode: discrete'",
                               fixIts: fixIt.map { [$0] } ?? [])
    }

    static func notAdditive(_ range: SourceRange, attribute: String, type: ValueType) -> Diagnostic {
        D.notAdditive.at(range, "'\(attribute)' needs values that add, but this animates \(type)", label: "not supported for this type")
    }

    static func motionTarget(_ range: SourceRange, keyPath: String, type: ValueType) -> Diagnostic {
        D.motionTarget.at(range, "a motion along a path animates a point, but '\(keyPath)' is \(type)",
                          help: "use 'motion position along ...'")
    }

    static func rotationModeOutsideMotion(_ range: SourceRange) -> Diagnostic {
        D.motionTarget.at(range, "'rotationMode' only applies to motion along a path",
                          help: "write 'motion position along somePath { rotationMode: auto }'")
    }

    static func springParameter(_ range: SourceRange, name: String, valid: String) -> Diagnostic {
        D.springParameters.at(range, "spring '\(name)' must be \(valid)", label: "out of range")
    }

    static func zeroRotationAxis(_ range: SourceRange) -> Diagnostic {
        D.surprisingTransform.at(range, "a rotation about the zero axis is the identity", label: "no axis",
                                 help: "give the axis a direction, such as (0, 0, 1)")
    }

    static func invertedPerspective(_ range: SourceRange, distance: Double) -> Diagnostic {
        let m34 = -distance == (-distance).rounded() ? "1/\(formatNumber(-distance))" : formatNumber(-1 / distance)
        return D.surprisingTransform.at(range, "a negative perspective distance gives a positive m34 (\(m34)): far things look larger",
                                 label: "negative distance",
                                 help: "perspective(d) is m34 = -1/d; use a positive distance for the usual perspective")
    }

    static func springNeverSettles(_ range: SourceRange) -> Diagnostic {
        D.springParameters.at(range, "this spring never settles, so its duration cannot default to the settling time",
                              label: "no settling time",
                              help: "give it a 'duration', or some damping")
    }

    static func decayRate(_ range: SourceRange, value: Double) -> Diagnostic {
        D.decayParameters.at(range, "deceleration \(formatNumber(value)) is outside (0, 1)",
                             help: "0.998 is UIScrollView's normal rate and 0.99 its fast one")
    }

    static func stepsCount(_ range: SourceRange, minimum: Int) -> Diagnostic {
        D.stepsCount.at(range, "steps needs at least \(minimum) step\(minimum == 1 ? "" : "s")")
    }

    static func springTiming(_ range: SourceRange, kind: String) -> Diagnostic {
        D.springTiming.at(range, "a \(kind) animation cannot have a timing function", label: "its progress comes from physics",
                          fixIts: [.replace(range, with: "", "remove it")])
    }

    static func presentationMisuse(_ range: SourceRange) -> Diagnostic {
        D.presentationMisuse.at(range, "'presentation' can only be an animation's 'from'",
                                label: "the value shown before the animation begins")
    }
}

extension String {
    var replacingDots: String { String(map { $0 == "." ? "_" : $0 }) }
}
