import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcPorting
import AnimcSyntax

extension Checker {
    // MARK: Meeting a spelling while evaluating

    /// Evaluates `expr` knowing the type the value will be converted to, so a pasted
    /// `.pi` is rewritten as degrees where an angle is expected.
    func evaluating(_ expr: Expr, _ scope: Scope, expecting type: ValueType) -> SemaValue {
        let saved = context.expectedDimension, savedType = context.expectedType
        if facts.spellsSwift { context.expectedType = type }
        defer { if facts.spellsSwift { context.expectedType = savedType } }
        switch type {
        case .angle: context.expectedDimension = .angle
        case .time: context.expectedDimension = .time
        case .number, .length: context.expectedDimension = Dimension.none
        default: context.expectedDimension = nil
        }
        defer { context.expectedDimension = saved }
        return eval(expr, scope)
    }

    /// The `.anim` word a pasted enumeration spelling stands for (`.forwards`).
    func swiftWord(_ expr: Expr) -> String? {
        switch tree[expr] {
        case .identifier(let name):
            if case .word(let w)? = SwiftSpellings.meaning(of: name) { return w }
        case .implicitMember(let name):
            if case .word(let w)? = SwiftSpellings.member(name.name) { return w }
        case .member(let base, let name):
            if case .identifier(let type) = tree[base], SwiftSpellings.types.contains(type),
               case .word(let w)? = SwiftSpellings.member(name.name) { return w }
        default: break
        }
        return nil
    }

    /// `M_PI`, `kCAFillModeForwards`, ...: reports E0323 and returns the value the
    /// `.anim` form has, so checking goes on as if it had been written.
    func swiftName(_ name: String, _ range: SourceRange, _ scope: Scope) -> SemaValue? {
        guard let meaning = SwiftSpellings.meaning(of: name) else { return nil }
        if name == "nil", !context.expectsColour {
            // `nil` draws nothing only as a colour; a nil transform or path means
            // something else, which the call it is passed to decides.
            report(CheckerDiagnostics.swiftSpelling.at(range, "'nil' has no .anim form here", label: "pasted nil",
                                                       help: "write the value meant; nil is 'clear' only as a colour"))
            return .poison
        }
        return swiftMeaning(meaning, written: name, range, scope)
    }

    /// `Double.pi`, `UIColor.white`, `.forwards`, and `X.cgColor`.
    func swiftMember(_ expr: Expr, _ scope: Scope) -> SemaValue? {
        switch tree[expr] {
        case .implicitMember(let name):
            if let meaning = SwiftSpellings.member(name.name) { return swiftMeaning(meaning, written: "." + name.name, expr.range, scope) }
            if name.name == "zero", let zero = context.expectedType.flatMap(SwiftSpellings.zero) {
                return swiftMeaning(zero, written: ".zero", expr.range, scope)
            }
            // Any other `.name`: the leading dot is Swift's; the name may be an .anim word
            // (else dropping the dot would only trade this error for 'cannot find').
            let known = scope.lookup(name.name) != nil || Builtins.constant(name.name) != nil
            reportSpelling(expr, written: "." + name.name, replacement: known || Builtins.enumerationOwning(name.name) != nil ? portedText(expr) : nil)
            return known ? lookupValue(name.name, name.range, scope) : .poison
        case .member(let base, let name):
            if case .identifier(let type) = tree[base], SwiftSpellings.types.contains(type), scope.lookup(type) == nil,
               let meaning = SwiftSpellings.member(name.name) {
                return swiftMeaning(meaning, written: "\(type).\(name.name)", expr.range, scope)
            }
            if name.name == "zero", case .identifier(let type) = tree[base], scope.lookup(type) == nil,
               let zero = SwiftSpellings.zeroTypes[type].flatMap(SwiftSpellings.zero) {
                return swiftMeaning(zero, written: "\(type).zero", expr.range, scope)
            }
            if SwiftSpellings.bridgingMembers.contains(name.name) {
                reportSpelling(expr, written: "." + name.name, replacement: portedText(expr))
                return .poison
            }
            return nil
        default:
            return nil
        }
    }

    /// Where nothing says what kind of value is expected (a `let`), π is taken for an
    /// angle when it is the value (`let full = 2 * M_PI`), and for a plain number when
    /// it is an operand of more (`let c = M_PI * 2 * radius`, a circumference).
    private var piIsOperandOfUnknownKind: Bool {
        context.expectedDimension == nil && context.spellingLevel > Precedence.any
    }

    /// `.pi / 4`, `2 * .pi`, `-.pi` where an angle is expected: one report for the
    /// whole product, folded into degrees (`45deg`), and the angle's value.
    func swiftFoldedPi(_ expr: Expr, _ scope: Scope) -> SemaValue? {
        guard context.expectedDimension != Dimension.none, facts.spellsSwiftPi, !piIsOperandOfUnknownKind else { return nil }
        let folded: String?
        switch tree[expr] {
        case .binary(let op, let l, let r) where op == .multiply || op == .divide: folded = porter.foldedPi(l, r, op)
        case .unary(.negate, let operand): folded = porter.foldedPi(operand, nil, nil).map { "-" + $0 }
        default: folded = nil
        }
        guard let text = folded, let degrees = Double(text.dropLast(3)) else { return nil }
        reportSpelling(expr, written: self.text(expr.range), replacement: fitted(text, text.hasPrefix("-") ? Precedence.unary : Precedence.postfix))
        return .number(degrees * .pi / 180, .angle)
    }

    /// `CATransform3DMakeRotation(.pi / 4, 0, 0, 1)`, `CGPoint(x: 1, y: 2)`, ...: one
    /// report for the whole call, its fix-it with everything inside rewritten too.
    func swiftCall(_ expr: Expr, _ callee: Identifier, _ scope: Scope) -> SemaValue? {
        guard SwiftSpellings.isFunction(callee.name), scope.lookup(callee) == nil else { return nil }
        if callee.name == "UIColor" || callee.name == "NSColor", case .call(_, let arguments) = tree[expr],
           let only = tree[arguments].first, tree[arguments].count == 1, only.label?.name == "named" {
            reportAppColour(text(only.value.range), expr.range)
            return .poison
        }
        if SwiftSpellings.functions.contains(callee.name), case .call(_, let arguments) = tree[expr],
           porter.portedCall(callee.name, Array(tree[arguments])) == nil {
            // A call the table knows but not with these arguments: porting only its
            // arguments would leave a call that cannot be found.
            let labels = tree[arguments].map { ($0.label?.name ?? "_") + ":" }.joined()
            report(CheckerDiagnostics.swiftSpelling.at(
                expr.range, "'\(callee.name)(\(labels))' has no .anim form", label: "pasted call",
                help: SwiftSpellings.unportedHelp[callee.name] ?? "write the value it makes; the porting table in the language reference lists the .anim forms"))
            return .poison
        }
        guard let replacement = portedText(expr), replacement != text(expr.range) else { return nil }
        reportSpelling(expr, written: callee.name + "(...)", replacement: replacement)
        return .poison
    }

    /// `ceilf(x)`, `fabs(x)`: C's function for `.anim`'s of the same meaning, reported
    /// with the callee renamed (its arguments' spellings are reported as they are
    /// evaluated), and the `.anim` function's value.
    func swiftCFunction(_ callee: Identifier, _ arguments: CallArguments) -> SemaValue? {
        guard let name = SwiftSpellings.cFunctions[callee.name], let function = Builtins.functions[name] else { return nil }
        report(CheckerDiagnostics.swiftSpelling.at(
            callee.range, "'\(callee.name)' is C's, not .anim: write '\(name)'", label: "pasted function",
            fixIts: [.replace(callee.range, with: name, "write it the .anim way", applicability: .machineApplicable)]))
        if arguments.hasPoison { return .poison }
        return callBuiltin(name, function, arguments) ?? .poison
    }

    /// `[UIColor clearColor]`, `[NSNumber numberWithFloat:0.5]`: an Objective-C message
    /// send, reported whole with its `.anim` form when it has one.
    func swiftMessage(_ expr: Expr) -> SemaValue {
        guard case .message(_, let selector, _) = tree[expr] else { return .poison }
        let written = text(expr.range)
        let shown = written.utf8.count <= 48 ? written : "[... \(selector.name)...]"
        if let replacement = portedText(expr) {
            reportSpelling(expr, written: shown, replacement: replacement)
        } else {
            report(CheckerDiagnostics.swiftSpelling.at(
                expr.range, "'\(shown)' is an Objective-C message send, not .anim", label: "Objective-C",
                help: "write the value it makes; the porting table in the language reference lists the .anim forms"))
        }
        return .poison
    }

    /// The property a pasted read of the presentation layer reads:
    /// `(layer.presentationLayer ?: layer).opacity`, `[layer.presentationLayer opacity]`,
    /// `[[layer presentationLayer] opacity]`, `layer.presentation()?.opacity ?? layer.opacity`
    /// (the parser keeps the left side of a fallback), `layer.presentation()!.opacity`.
    func pastedPresentationRead(_ expr: Expr) -> String? {
        func isPresentationLayer(_ e: Expr) -> Bool {
            switch tree[e] {
            case .paren(let inner): return isPresentationLayer(inner)
            case .member(_, let name): return name.name == "presentationLayer" || name.name == "presentation"
            case .message(_, let selector, let arguments): return arguments.isEmpty && selector.name == "presentationLayer"
            default: return false
            }
        }
        switch tree[expr] {
        case .paren(let inner): return pastedPresentationRead(inner)
        case .member(let base, let name) where isPresentationLayer(base): return name.name
        case .message(let receiver, let selector, let arguments) where arguments.isEmpty && isPresentationLayer(receiver):
            return selector.name
        default: return nil
        }
    }

    /// A pasted read of the presentation layer as an animation's `from`: `presentation`
    /// when it reads the property animated (a fix that keeps the meaning), reported
    /// without a fix when it reads another.
    func reportPresentationRead(_ expr: Expr, property: String, keyPath: String) {
        let written = text(expr.range)
        let shown = written.utf8.count <= 48 ? written : "... \(property)"
        if property == keyPath {
            report(CheckerDiagnostics.swiftSpelling.at(
                expr.range, "'\(shown)' reads the presentation layer: write 'presentation'", label: "pasted spelling",
                notes: [Note("'from: presentation' starts from what '\(keyPath)' shows just before the animation begins")],
                fixIts: [.replace(expr.range, with: "presentation", "write it the .anim way", applicability: .machineApplicable)]))
        } else {
            report(CheckerDiagnostics.swiftSpelling.at(
                expr.range, "'\(shown)' reads '\(property)' of the presentation layer, not the '\(keyPath)' this animation animates",
                label: "another property",
                help: "'from: presentation' reads what the animated property shows; write another value as a constant"))
        }
    }

    /// `CACurrentMediaTime() + 0.2`: one report for the sum, whose `.anim` form is the
    /// delay alone (a bare number becomes seconds where a time is expected), and its value.
    func swiftHostClockSum(_ expr: Expr, _ scope: Scope) -> SemaValue? {
        guard facts.namesHostClock, let terms = porter.hostClockDelayTerms(expr), scope.lookup(SwiftSpellings.hostClock) == nil else { return nil }
        // The terms' values first: one that is a time already (a constant another fix of
        // this round gives its unit, `[CFTimeInterval]` elements) is written as it is.
        let level = context.spellingLevel
        let values = terms.map { eval($0.term, scope) }
        context.spellingLevel = level  // the sum's, which the replacement's text is fitted to
        let timed = zip(terms, values).allSatisfy { term, v in
            if case .number(_, .time) = v { return !porter.hasBareNumber(term.term) } else { return false }
        }
        let (delay, delayLevel) = timed ? porter.hostClockTimedText(terms) : (porter.hostClockDelayText(terms), porter.hostClockDelayLevel(terms))
        let text = fitted(delay, delayLevel)
        reportSpelling(expr, written: SwiftSpellings.hostClock + "() + ...", replacement: text,
                       note: "Core Animation's beginTime is on the host's clock; a .anim beginTime counts from the composition's start")
        var sum: SemaValue = .number(0, .none)
        for ((negative, term), v) in zip(terms, values) {
            guard case .number(let x, let d) = v else { return v.isPoison ? .poison : v }
            guard case .number(let total, let dt) = sum, dt == d || dt == .none && total == 0 else {
                if case .number(_, let dt) = sum { report(Messages.operandDimensions(term.range, op: negative ? "-" : "+", left: dt, right: d)) }
                return .poison
            }
            sum = .number(negative ? total - x : total + x, d)
        }
        if case .number(let x, .none) = sum, context.expectedDimension == .time { return .number(x, .time) }
        return sum
    }

    /// `text`, of ``Precedence`` level `level`, parenthesised where it must keep at
    /// least `required` (by default, the level where the expression being evaluated
    /// stands): replacing `CGFloat(n / 3)` in `a / CGFloat(n / 3)` by `n / 3` would
    /// divide by n first.
    func fitted(_ text: String, _ level: Int, within required: Int? = nil) -> String {
        level < (required ?? context.spellingLevel) ? "(" + text + ")" : text
    }

    private func swiftMeaning(_ meaning: SwiftSpellings.Meaning, written: String, _ range: SourceRange, _ scope: Scope) -> SemaValue {
        switch meaning {
        case .number(let x):
            reportSpelling(at: range, written: written, replacement: fitted(formatNumber(x), porter.meaningLevel(meaning, angle: false)))
            return .number(x, .none)
        case .pi(let factor):
            let angle = context.expectedDimension != Dimension.none && !piIsOperandOfUnknownKind
            reportSpelling(at: range, written: written, replacement: fitted(porter.piText(factor, angle: angle), porter.meaningLevel(meaning, angle: angle)))
            return .number(.pi * factor, angle ? .angle : .none)
        case .infinity:
            reportSpelling(at: range, written: written, replacement: "inf")
            return .number(.infinity, .none)
        case .source(let text, let level):
            reportSpelling(at: range, written: written, replacement: fitted(text, level))
            return .poison
        case .colour(let hex):
            reportSpelling(at: range, written: written, replacement: hex)
            guard let (r, g, b, a) = LiteralValue.color(hex[...]) else { return .poison }
            return .color(Color(red: r, green: g, blue: b, alpha: a))
        case .word(let word):
            reportSpelling(at: range, written: written, replacement: word)
            if let constant = Builtins.constant(word) { return constant }
            if scope.lookup(word) != nil { return lookupValue(word, range, scope) }
            // An enumeration case (`forwards`) is read where its attribute reads it.
            return .poison
        }
    }

    private func reportSpelling(_ expr: Expr, written: String, replacement: String?, note: String? = nil) {
        reportSpelling(at: expr.range, written: written, replacement: replacement, note: note)
    }

    func reportSpelling(at range: SourceRange, written: String, replacement: String?, note: String? = nil) {
        let fix = replacement.map { [FixIt.replace(range, with: $0, "write it the .anim way", applicability: .machineApplicable)] } ?? []
        report(CheckerDiagnostics.swiftSpelling.at(
            range, "'\(written)' is Swift or Objective-C, not .anim" + (replacement.map { ": write '\($0)'" } ?? ""),
            label: "pasted spelling", notes: note.map { [Note($0)] } ?? [],
            help: replacement == nil ? "drop Swift's leading dot" : nil, fixIts: fix))
    }

    /// An attribute spelled as Core Animation's property (`fromValue`): its `.anim` name.
    func swiftAttribute(_ name: String, _ range: SourceRange) -> String? {
        guard let canonical = SwiftSpellings.attributes[name] else { return nil }
        report(CheckerDiagnostics.swiftSpelling.at(range, "'\(name)' is Core Animation's property name: .anim writes '\(canonical)'",
                                                   label: "pasted spelling",
                                                   fixIts: [.replace(range, with: canonical, "write it the .anim way",
                                                                             applicability: .machineApplicable)]))
        return canonical
    }

    /// `UIColor.redColor()`: reported with its `.anim` form, and its value.
    func swiftQualifiedCall(_ expr: Expr, _ type: Identifier, _ callee: Identifier, _ arguments: Children<Argument>, _ scope: Scope) -> SemaValue? {
        guard scope.lookup(type) == nil, let text = porter.portedQualifiedCall(type, callee, arguments) else { return nil }
        reportSpelling(expr, written: "\(type.name).\(callee.name)()", replacement: text)
        if let c = Builtins.constant(text) { return c }
        guard let (r, g, b, a) = LiteralValue.color(text[...]) else { return .poison }
        return .color(Color(red: r, green: g, blue: b, alpha: a))
    }

    /// The text of pasted code, printed by the porting module from the syntax.
    var porter: Porter { Porter(tree, expectsTime: context.expectedDimension == .time) }

    /// The `.anim` text of `expr` with every pasted spelling inside rewritten, or nil
    /// when there is none, fitted to the place being evaluated.
    func portedText(_ expr: Expr, angle: Bool? = nil) -> String? {
        porter.portedText(expr, angle: angle ?? (context.expectedDimension != Dimension.none), within: context.spellingLevel)
    }

    func argumentText(_ e: Expr, angle: Bool, within level: Int = Precedence.any) -> String {
        porter.argumentText(e, angle: angle, within: level)
    }
}

extension SwiftSpellings {
    /// Swift's `.zero` as the type it is read as.
    static func zero(_ type: ValueType) -> Meaning? {
        switch type {
        case .point: return .source("(0, 0)", level: Precedence.postfix)
        case .size: return .source("0 x 0", level: BinaryOperator.size.precedence)
        case .rect: return .source("(0, 0, 0, 0)", level: Precedence.postfix)
        case .number, .length: return .number(0)
        default: return nil
        }
    }

    /// The types whose `.zero` Swift writes (`CGPoint.zero`), by what they are.
    static let zeroTypes: [String: ValueType] = [
        "CGPoint": .point, "CGSize": .size, "CGRect": .rect, "CGFloat": .number, "Double": .number, "Float": .number,
    ]
}
