import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// Swift and Objective-C spellings pasted from Core Animation code (`.pi`, `M_PI`,
/// `kCAFillModeForwards`, `CATransform3DMakeRotation(...)`, `CGPoint(x:y:)`,
/// `UIColor(red:...)`, `fromValue`, ...). Each is an error (E0323) whose fix-it is the
/// `.anim` form, so a pasted block is fixed in one check-and-fix cycle: the fix of a
/// construct includes the fixes of everything inside it, and only the outermost one
/// is reported.
enum SwiftSpellings {
    /// What a name or member stands for.
    enum Meaning {
        /// π times the factor: `180deg` where an angle is expected (or the context is
        /// unknown: in Core Animation code π is nearly always an angle), `pi` otherwise.
        case pi(Double)
        /// A plain number written as a C constant (`M_2_PI` is 2/π, `M_SQRT2` is √2):
        /// its `.anim` form is the literal.
        case number(Double)
        /// `inf`
        case infinity
        /// A `.anim` word: a constant, an enumeration case, a timing function or colour.
        case word(String)
        /// A colour `.anim` has no name for, as its literal (`#007aff`).
        case colour(String)
        /// Any other `.anim` text (`CGPointZero` is `(0, 0)`), with its ``Precedence`` level.
        case source(String, level: Int)
    }

    /// UIKit's system colours in the light appearance (iOS 15 and later), which is
    /// what `UIColor.systemBlue.cgColor` resolves to in an app that does not switch.
    static let systemColours: [String: String] = [
        "systemRed": "#ff3b30", "systemOrange": "#ff9500", "systemYellow": "#ffcc00", "systemGreen": "#34c759",
        "systemMint": "#00c7be", "systemTeal": "#30b0c7", "systemCyan": "#32ade6", "systemBlue": "#007aff",
        "systemIndigo": "#5856d6", "systemPurple": "#af52de", "systemPink": "#ff2d55", "systemBrown": "#a2845e",
        "systemGray": "#8e8e93", "systemGray2": "#aeaeb2", "systemGray3": "#c7c7cc", "systemGray4": "#d1d1d6",
        "systemGray5": "#e5e5ea", "systemGray6": "#f2f2f7", "label": "#000000", "systemBackground": "#ffffff",
    ]

    static let names: [String: Meaning] = {
        var table: [String: Meaning] = [
            "M_PI": .pi(1), "M_PI_2": .pi(0.5), "M_PI_4": .pi(0.25),
            // math.h's other constants are plain numbers: `M_2_PI` is 2/π, not 2π.
            "M_1_PI": .number(1 / Double.pi), "M_2_PI": .number(2 / Double.pi), "M_2_SQRTPI": .number(2 / Double.pi.squareRoot()),
            "M_SQRT2": .number(2.0.squareRoot()), "M_SQRT1_2": .number(0.5.squareRoot()), "M_E": .number(2.718281828459045),
            "M_LOG2E": .number(1.4426950408889634), "M_LOG10E": .number(0.4342944819032518), "M_LN2": .number(0.6931471805599453),
            "M_LN10": .number(2.302585092994046),
            "HUGE": .infinity, "HUGE_VAL": .infinity, "HUGE_VALF": .infinity, "FLT_MAX": .infinity, "DBL_MAX": .infinity,
            "INFINITY": .infinity, "MAXFLOAT": .infinity, "CGFLOAT_MAX": .infinity,
            "CATransform3DIdentity": .word("identity"), "CGAffineTransformIdentity": .word("identity"),
            "YES": .word("true"), "NO": .word("false"),
            "CGPointZero": .source("(0, 0)", level: Precedence.postfix), "CGSizeZero": .source("0 x 0", level: BinaryOperator.size.precedence),
            "CGRectZero": .source("(0, 0, 0, 0)", level: Precedence.postfix),
            // Repeat counts in pasted code: exactly these numbers, which .anim accepts.
            "INT_MAX": .number(2147483647), "INT32_MAX": .number(2147483647), "UINT32_MAX": .number(4294967295),
            "NSIntegerMax": .number(9223372036854775807), "LONG_MAX": .number(9223372036854775807),
        ]
        for mode in ["Forwards", "Backwards", "Both", "Removed"] { table["kCAFillMode" + mode] = .word(mode.lowercasedFirstLetter) }
        for (name, word) in [("Linear", "linear"), ("EaseIn", "easeIn"), ("EaseOut", "easeOut"),
                             ("EaseInEaseOut", "easeInEaseOut"), ("Default", "default")] {
            table["kCAMediaTimingFunction" + name] = .word(word)
        }
        for mode in ["Linear", "Discrete", "Paced", "Cubic", "CubicPaced"] { table["kCAAnimation" + mode] = .word(mode.lowercasedFirstLetter) }
        table["kCAAnimationRotateAuto"] = .word("auto")
        table["kCAAnimationRotateAutoReverse"] = .word("autoReverse")
        for cap in ["Butt", "Round", "Square"] { table["kCALineCap" + cap] = .word(cap.lowercasedFirstLetter) }
        for join in ["Miter", "Round", "Bevel"] { table["kCALineJoin" + join] = .word(join.lowercasedFirstLetter) }
        table["kCAFillRuleNonZero"] = .word("nonZero")
        table["kCAFillRuleEvenOdd"] = .word("evenOdd")
        return table
    }()

    /// The meaning of a pasted name, if it is one. Every spelling in ``names`` has a
    /// capital letter and every `.anim` word has one only inside it, so the words most
    /// names are (`backwards`, `rgb`) are told apart without hashing them: this runs for
    /// every enumeration value and unknown name a check meets.
    static func meaning(of name: String) -> Meaning? {
        // `nil` for a colour (`fillColor = nil`) draws nothing, as `clear` does.
        if name == "nil" { return .word("clear") }
        guard hasCapital(name) else { return nil }
        return names[name]
    }

    /// `#colorLiteral(...)` once its `#` is lexed away (a C-syntax error of its own).
    static let colorLiteral = "colorLiteral"
    /// `.init(...)`, which the parser keeps as a call of `init`: a timing function's or a
    /// colour's initialiser, by its labels.
    static let swiftInit = "init"

    /// Whether a call of `name` is a pasted Swift or Core Animation function.
    static func isFunction(_ name: String) -> Bool {
        // Every one starts with a capital: the first byte rules out the `.anim` functions
        // every layer calls (`rgb`, `cubic`) without a scan or a hash.
        guard let first = name.utf8.first, first >= 0x41 && first <= 0x5A else { return name == colorLiteral || name == swiftInit }
        return functions.contains(name)
    }

    static func hasCapital(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// Swift's implicit members and the members of Swift types, by member name.
    /// Every name that spells π in the tables above: math.h's constants, and `.pi`.
    static let piSpellings: [String] = (Array(names.keys) + ["pi"]).filter { name in
        if case .pi? = names[name] { return true }
        if case .pi? = member(name) { return true }
        return false
    }

    static func member(_ name: String) -> Meaning? {
        switch name {
        case "pi": return .pi(1)
        case "infinity", "greatestFiniteMagnitude": return .infinity
        case "rotateAuto": return .word("auto")
        case "rotateAutoReverse": return .word("autoReverse")
        case "identity": return .word("identity")
        default:
            if let hex = systemColours[name] { return .colour(hex) }
            if ["forwards", "backwards", "both", "removed", "linear", "easeIn", "easeOut", "easeInEaseOut", "default",
                "discrete", "paced", "cubic", "cubicPaced", "butt", "round", "square", "miter", "bevel", "nonZero", "evenOdd",
                "clear", "black", "white", "red", "green", "blue", "yellow", "cyan", "magenta", "orange", "purple", "brown",
                "gray", "darkGray", "lightGray"].contains(name) {
                return .word(name)
            }
            return nil
        }
    }

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

    /// Types whose members (`Double.pi`, `UIColor.white`, `CAMediaTimingFillMode.forwards`)
    /// stand for `.anim` words.
    static let types: Set<String> = [
        "Double", "CGFloat", "Float", "Float32", "Float64", "UIColor", "NSColor", "CGColor", "CAMediaTimingFillMode",
        "CAMediaTimingFunctionName", "CAAnimationCalculationMode", "CAAnimationRotationMode", "CAShapeLayerLineCap",
        "CAShapeLayerLineJoin", "CAShapeLayerFillRule", "CATransform3D",
    ]

    /// Swift, C and Core Graphics types for `.anim`'s, as declarations write them.
    static let typeNames: [String: String] = [
        "CGFloat": "Number", "Double": "Number", "Float": "Number", "Int": "Number", "NSInteger": "Number",
        "NSUInteger": "Number", "Int32": "Number", "float": "Number", "double": "Number", "int": "Number",
        "CFTimeInterval": "Time", "TimeInterval": "Time", "NSTimeInterval": "Time",
        "CGPoint": "Point", "CGSize": "Size", "CGRect": "Rect", "UIColor": "Color", "NSColor": "Color", "CGColor": "Color",
        "CGColorRef": "Color", "CGPath": "Path", "CGPathRef": "Path", "UIBezierPath": "Path", "CATransform3D": "Transform",
        "CAMediaTimingFunction": "Timing", "BOOL": "Bool", "NSString": "String",
    ]

    /// Members that turn a UIKit value into Core Animation's (`UIColor.red.cgColor`,
    /// `path.CGPath`): `.anim` values are Core Animation's already.
    static let bridgingMembers: Set<String> = ["cgColor", "cgPath", "CGColor", "CGPath", "cgImage", "CGImage"]

    /// Core Animation's attribute names for `.anim`'s.
    static let attributes: [String: String] = [
        "fromValue": "from", "toValue": "to", "byValue": "by", "isRemovedOnCompletion": "removedOnCompletion",
    ]

    /// Functions (and initialisers) that have a `.anim` form. Of C's functions, only those
    /// spelt in capitals (`MIN`): `isFunction` answers no to a lowercase name before
    /// looking here, and the lowercase ones (`ceilf`) are met as unknown calls
    /// (`Checker.swiftCFunction`).
    static let functions: Set<String> = Set([
        "CATransform3DMakeRotation", "CATransform3DMakeScale", "CATransform3DMakeTranslation", "CATransform3DRotate",
        "CATransform3DScale", "CATransform3DTranslate", "CATransform3DConcat", "CGAffineTransform", "CGPoint", "CGSize",
        "CGRect", "CGVector", "UIColor", "NSColor", "CAMediaTimingFunction", "CGFloat", "Double", "Float", "NSNumber",
        "CFTimeInterval", "TimeInterval",
        "CGPointMake", "CGSizeMake", "CGRectMake", "CGAffineTransformMakeRotation", "CGAffineTransformMakeScale",
        "CGAffineTransformMakeTranslation", "UIBezierPath", "CGPath", hostClock,
        "CGPathCreateWithRect", "CGPathCreateWithEllipseInRect", "CGPathCreateWithRoundedRect", colorLiteral, swiftInit,
    ]).union(cFunctions.keys.filter { hasCapital(String($0.prefix(1))) }).union(rectGetters.keys)

    /// C's functions and macros with a `.anim` function that computes the same, called
    /// with the same arguments. `ceilf`, `floorf` and `roundf` round a float: they differ
    /// from `ceil` only for an argument within a float's precision (2⁻²⁴) of a whole
    /// number, where C rounds the argument first. `fmod` truncates, as `rem` does
    /// (`.anim`'s `mod` is floored: they differ for a negative operand).
    static let cFunctions: [String: String] = [
        "MIN": "min", "MAX": "max", "ABS": "abs", "fabs": "abs", "fmin": "min", "fmax": "max",
        "ceilf": "ceil", "floorf": "floor", "roundf": "round", "fmod": "rem",
    ]

    /// Core Graphics' rect getters, as the member of a rect they read.
    static let rectGetters: [String: String] = [
        "CGRectGetMinX": "minX", "CGRectGetMidX": "midX", "CGRectGetMaxX": "maxX",
        "CGRectGetMinY": "minY", "CGRectGetMidY": "midY", "CGRectGetMaxY": "maxY",
        "CGRectGetWidth": "width", "CGRectGetHeight": "height",
    ]

    /// Selectors and labels of the hex-string colour helpers apps add to UIColor.
    static let hexColourSelectors: Set<String> = ["colorWithHexString", "colorWithHex", "colorFromHexString", "colorWithHexCode"]
    static let hexColourLabels: Set<String> = ["hex", "hexString", "hexCode"]

    /// What to write instead of a known call whose arguments have no exact `.anim` form.
    static let unportedHelp: [String: String] = [
        "UIBezierPath": "paths are rect(...), ellipse(...), arc(...), roundedRect(...) or path { ... }; roundedRect's corners are circular, as CGPath(roundedRect:cornerWidth:cornerHeight:transform:) draws them, where UIBezierPath's are continuous",
        "CGPath": "paths are rect(...), ellipse(...), roundedRect(...) with equal corner width and height, or path { ... }",
    ]

    /// The host's clock, which Core Animation code adds to a `beginTime`
    /// (`CACurrentMediaTime() + 0.2`): a `.anim` beginTime counts from the composition's
    /// start, so the clock's term is dropped.
    static let hostClock = "CACurrentMediaTime"

    static func isHostClock(_ e: Expr, in tree: SyntaxTree) -> Bool {
        if case .call(let callee, let arguments) = tree[e] { return callee.name == hostClock && arguments.isEmpty }
        return false
    }
}

extension String {
    var lowercasedFirstLetter: String { isEmpty ? self : prefix(1).lowercased() + dropFirst() }
}

extension Checker {
    // MARK: Meeting a spelling while evaluating

    /// Evaluates `expr` knowing the type the value will be converted to, so a pasted
    /// `.pi` is rewritten as degrees where an angle is expected.
    func evaluating(_ expr: Expr, _ scope: Scope, expecting type: ValueType) -> SemaValue {
        let saved = context.expectedDimension, savedColour = context.expectsColour, savedType = context.expectedType
        if facts.spellsSwift {
            context.expectsColour = type == .color || type == .colors
            context.expectedType = type
        }
        defer {
            if facts.spellsSwift {
                context.expectsColour = savedColour
                context.expectedType = savedType
            }
        }
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
        case .binary(let op, let l, let r) where op == .multiply || op == .divide: folded = foldedPi(l, r, op)
        case .unary(.negate, let operand): folded = foldedPi(operand, nil, nil).map { "-" + $0 }
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
        if SwiftSpellings.functions.contains(callee.name), case .call(_, let arguments) = tree[expr],
           portedCall(callee.name, Array(tree[arguments])) == nil {
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
        guard facts.namesHostClock, let terms = hostClockDelayTerms(expr), scope.lookup(SwiftSpellings.hostClock) == nil else { return nil }
        // The terms' values first: one that is a time already (a constant another fix of
        // this round gives its unit, `[CFTimeInterval]` elements) is written as it is.
        let level = context.spellingLevel
        let values = terms.map { eval($0.term, scope) }
        context.spellingLevel = level  // the sum's, which the replacement's text is fitted to
        let timed = zip(terms, values).allSatisfy { term, v in
            if case .number(_, .time) = v { return !hasBareNumber(term.term) } else { return false }
        }
        let text = timed ? hostClockTimedText(terms) : fitted(hostClockDelayText(terms), hostClockDelayLevel(terms))
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

    /// The delay of a sum or difference that adds the host's clock
    /// (`CACurrentMediaTime() + a * d + b`, `CACurrentMediaTime() - x`, `d + CACurrentMediaTime()`):
    /// the chain's other terms, each with whether it is subtracted. Nil when no term
    /// added is the clock.
    func hostClockDelayTerms(_ expr: Expr) -> [(negative: Bool, term: Expr)]? {
        var terms: [(negative: Bool, term: Expr)] = []
        func flatten(_ e: Expr, negative: Bool) {
            if case .binary(let op, let l, let r) = tree[e], op == .add || op == .subtract {
                flatten(l, negative: negative)
                flatten(r, negative: negative != (op == .subtract))
            } else {
                terms.append((negative, e))
            }
        }
        guard case .binary(let op, _, _) = tree[expr], op == .add || op == .subtract else { return nil }
        flatten(expr, negative: false)
        guard let clock = terms.firstIndex(where: { !$0.negative && SwiftSpellings.isHostClock($0.term, in: tree) }), terms.count > 1 else { return nil }
        terms.remove(at: clock)
        return terms
    }

    /// The `.anim` text of a clock's delay terms: one added term as ``hostClockDelayText(_:)``
    /// writes it; several, each literal given seconds (`0.2s + 0.1s`), or the whole
    /// times `1s`, where a time is expected.
    private func hostClockDelayText(_ terms: [(negative: Bool, term: Expr)]) -> String {
        if terms.count == 1, !terms[0].negative { return hostClockDelayText(terms[0].term) }
        let time = context.expectedDimension == .time
        let literals = allLiterals(terms)
        let (left, right) = BinaryOperator.add.operandLevels
        var text = ""
        for (i, (negative, term)) in terms.enumerated() {
            var t = argumentText(term, angle: false, within: i == 0 ? (negative ? Precedence.unary : left) : right)
            if time && literals { t += "s" }
            text += i == 0 ? (negative ? "-" + t : t) : (negative ? " - " + t : " + " + t)
        }
        return time && !literals ? "(\(text)) * 1s" : text
    }

    /// Whether `e` writes a number without a unit (a subscript's index aside): its value
    /// may be a time only because the unit is assumed while it is reported.
    private func hasBareNumber(_ e: Expr) -> Bool {
        switch tree[e] {
        case .number(_, nil): return true
        case .paren(let inner), .unary(_, let inner): return hasBareNumber(inner)
        case .binary(_, let l, let r): return hasBareNumber(l) || hasBareNumber(r)
        case .index(let base, _): return hasBareNumber(base)
        case .member(let base, _): return hasBareNumber(base)
        case .call(_, let arguments): return tree[arguments].contains { hasBareNumber($0.value) }
        default: return false
        }
    }

    /// The delay terms as written, when each is a time already.
    private func hostClockTimedText(_ terms: [(negative: Bool, term: Expr)]) -> String {
        let (left, right) = BinaryOperator.add.operandLevels
        var text = ""
        for (i, (negative, term)) in terms.enumerated() {
            let t = argumentText(term, angle: false, within: i == 0 ? (negative ? Precedence.unary : left) : right)
            text += i == 0 ? (negative ? "-" + t : t) : (negative ? " - " + t : " + " + t)
        }
        return fitted(text, terms.count == 1 ? (terms[0].negative ? Precedence.unary : portedLevel(terms[0].term, angle: false))
                                             : BinaryOperator.add.precedence)
    }

    /// Whether every term is a number written without a unit (each then gets seconds).
    private func allLiterals(_ terms: [(negative: Bool, term: Expr)]) -> Bool {
        terms.allSatisfy { if case .number(_, nil) = tree[$0.term] { return true } else { return false } }
    }

    /// The ``Precedence`` level of ``hostClockDelayText(_:)``'s text for several terms.
    private func hostClockDelayLevel(_ terms: [(negative: Bool, term: Expr)]) -> Int {
        if terms.count == 1, !terms[0].negative { return hostClockDelayLevel(terms[0].term) }
        if context.expectedDimension == .time && !allLiterals(terms) { return BinaryOperator.multiply.precedence }
        return terms.count == 1 ? Precedence.unary : BinaryOperator.add.precedence
    }

    /// The delay of `CACurrentMediaTime() + delay`, as a time where one is expected:
    /// `0.2` → `0.2s`, `0.33 * i` → `0.33s * i`, anything else times `1s`.
    private func hostClockDelayText(_ delay: Expr) -> String {
        let text = argumentText(delay, angle: false)
        guard context.expectedDimension == .time else { return text }
        let (left, right) = BinaryOperator.multiply.operandLevels
        switch tree[delay] {
        case .number(let x, nil): return formatNumber(x) + "s"
        case .binary(.multiply, let l, let r):
            if case .number(let x, nil) = tree[l] { return formatNumber(x) + "s * " + argumentText(r, angle: false, within: right) }
            if case .number(let x, nil) = tree[r] { return argumentText(l, angle: false, within: left) + " * " + formatNumber(x) + "s" }
        case .number, .call, .identifier: return text  // has its unit, or may: checked as written
        default: break
        }
        return "(\(text)) * 1s"
    }

    /// The ``Precedence`` level of ``hostClockDelayText(_:)``'s text.
    private func hostClockDelayLevel(_ delay: Expr) -> Int {
        guard context.expectedDimension == .time else { return portedLevel(delay, angle: false) }
        switch tree[delay] {
        case .number(_, nil): return Precedence.postfix
        case .number, .call, .identifier: return portedLevel(delay, angle: false)
        default: return BinaryOperator.multiply.precedence
        }
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
            reportSpelling(at: range, written: written, replacement: fitted(formatNumber(x), meaningLevel(meaning, angle: false)))
            return .number(x, .none)
        case .pi(let factor):
            let angle = context.expectedDimension != Dimension.none && !piIsOperandOfUnknownKind
            reportSpelling(at: range, written: written, replacement: fitted(piText(factor, angle: angle), meaningLevel(meaning, angle: angle)))
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

    // MARK: The .anim text of pasted code

    /// `pi` scaled, as an angle (`45deg`) or a number (`pi / 4`).
    private func piText(_ factor: Double, angle: Bool) -> String {
        if angle { return formatNumber(ExactDecimal.multiply(180, factor)) + "deg" }
        if factor == 1 { return "pi" }
        return factor < 1 ? "pi / \(formatNumber(ExactDecimal.divide(1, factor)))" : "\(formatNumber(factor)) * pi"
    }

    /// The `.anim` text of `expr` with every pasted spelling inside rewritten, or nil
    /// when there is none. `angle` says whether an angle is expected here.
    func portedText(_ expr: Expr, angle: Bool? = nil) -> String? {
        let edits = portEdits(expr, angle: angle ?? (context.expectedDimension != Dimension.none), within: context.spellingLevel)
        guard !edits.isEmpty else { return nil }
        return sourceText(expr.range, applying: edits)
    }

    private func sourceText(_ range: SourceRange, applying edits: [TextEdit]) -> String {
        let bytes = Array(tree.file.bytes[Int(range.start)..<min(Int(range.end), tree.file.bytes.count)])
        let shifted = edits.map { TextEdit(range: SourceRange(start: $0.range.start - range.start, end: $0.range.end - range.start),
                                           replacement: $0.replacement) }
        return String(decoding: applyEdits(shifted, to: bytes), as: UTF8.self)
    }

    /// The ported text of `e`, to stand where an expression of at least `level` is
    /// needed (by default anywhere: an argument, an element).
    func argumentText(_ e: Expr, angle: Bool, within level: Int = Precedence.any) -> String {
        fitted(sourceText(e.range, applying: portEdits(e, angle: angle, within: Precedence.any)), portedLevel(e, angle: angle), within: level)
    }

    // MARK: frame

    /// The four expressions of a rect written out (`(x, y, w, h)`, `CGRectMake(...)`,
    /// `CGRect(x:y:width:height:)`, `CGRect(origin:size:)` with a point and a size
    /// written out), or nil for any other expression.
    private func rectParts(_ e: Expr) -> [Expr]? {
        switch tree[e] {
        case .paren(let inner): return rectParts(inner)
        case .tuple(let items) where items.count == 4: return Array(tree[items])
        case .call(let callee, let arguments):
            let args = Array(tree[arguments])
            func labelled(_ label: String) -> Expr? { args.first { $0.label?.name == label }?.value }
            switch callee.name {
            case "CGRectMake" where args.count == 4 && args.allSatisfy({ $0.label == nil }): return args.map(\.value)
            case "CGRect":
                if let x = labelled("x"), let y = labelled("y"), let w = labelled("width"), let h = labelled("height") { return [x, y, w, h] }
                if let o = labelled("origin").flatMap(pairParts), let s = labelled("size").flatMap(pairParts) { return o + s }
                return nil
            default: return nil
            }
        default: return nil
        }
    }

    /// `.zero`, `CGPoint.zero`, `CGSize.zero`, `CGPointZero`, `CGSizeZero` as a rect's
    /// origin or size: both parts 0.
    private func isZeroPair(_ e: Expr) -> Bool {
        switch tree[e] {
        case .paren(let inner): return isZeroPair(inner)
        case .implicitMember(let name): return name.name == "zero"
        case .member(let base, let name):
            guard name.name == "zero", case .identifier(let type) = tree[base] else { return false }
            return type == "CGPoint" || type == "CGSize"
        case .identifier(let name): return name == "CGPointZero" || name == "CGSizeZero"
        default: return false
        }
    }

    /// The two expressions of a point or size written out: `(x, y)`, `w x h`,
    /// `CGPointMake`, `CGSizeMake`, `CGPoint(x:y:)`, `CGSize(width:height:)`.
    private func pairParts(_ e: Expr) -> [Expr]? {
        switch tree[e] {
        case .paren(let inner): return pairParts(inner)
        case .tuple(let items) where items.count == 2: return Array(tree[items])
        case .binary(.size, let w, let h): return [w, h]
        case .call(let callee, let arguments):
            let args = Array(tree[arguments])
            func labelled(_ label: String) -> Expr? { args.first { $0.label?.name == label }?.value }
            switch callee.name {
            case "CGPointMake", "CGSizeMake": return args.count == 2 && args.allSatisfy({ $0.label == nil }) ? args.map(\.value) : nil
            case "CGPoint": return labelled("x").flatMap { x in labelled("y").map { [x, $0] } }
            case "CGSize": return labelled("width").flatMap { w in labelled("height").map { [w, $0] } }
            default: return nil
            }
        default: return nil
        }
    }

    /// A pasted `frame: value` as `bounds:` and `position:` lines, printed from the
    /// syntax: `frame: (x, y, w, h)` is `bounds: (0, 0, w, h)` and `position: (x + w / 2,
    /// y + h / 2)` about the default anchor, with the anchor's own expressions when
    /// `anchorPoint:` was written before it, and `R.width`, `R.x`, ... for a rect `R`
    /// not written out. Sums of two literals are written folded when decimal and binary
    /// arithmetic agree on them, so the fix never rounds differently than the check.
    /// Meaning kept: the bounds and position Core Animation derives from the frame.
    func frameFixText(_ value: Expr, anchor: Expr?, bounds: Bool, position: Bool, indent: String) -> String {
        let additive = BinaryOperator.add.operandLevels, multiplicative = BinaryOperator.multiply.operandLevels
        let parts = rectParts(value)
        /// Component `i` of the rect, to stand at `level`.
        func part(_ i: Int, _ level: Int) -> (text: String, literal: Double?) {
            if let parts {
                if case .number(let x, nil) = tree[parts[i]] { return (formatNumber(x), x) }
                return (argumentText(parts[i], angle: false, within: level), nil)
            }
            return (argumentText(value, angle: false, within: Precedence.postfix) + "." + ["x", "y", "width", "height"][i], nil)
        }
        /// The anchor's component `i` (0 or 1): a literal, or the anchor's text.
        func anchorFactor(_ i: Int) -> (text: String, literal: Double?) {
            guard let anchor else { return ("0.5", 0.5) }
            if let p = pairParts(anchor) {
                if case .number(let x, nil) = tree[p[i]] { return (formatNumber(x), x) }
                return (argumentText(p[i], angle: false, within: multiplicative.right), nil)
            }
            return (argumentText(anchor, angle: false, within: Precedence.postfix) + (i == 0 ? ".x" : ".y"), nil)
        }
        /// origin + length × anchor, for one axis.
        func centre(_ axis: Int) -> String {
            let origin = part(axis, additive.left), length = part(axis + 2, multiplicative.left), a = anchorFactor(axis)
            if let o = origin.literal, let l = length.literal, let f = a.literal {
                let exact = ExactDecimal.add(o, ExactDecimal.multiply(l, f)), binary = o + l * f
                if exact == binary { return formatNumber(binary) }
            }
            let offset: String?
            switch a.literal {
            case 0?: offset = nil
            case 1?: offset = part(axis + 2, additive.right).text
            case 0.5?: offset = length.text + " / 2"
            default: offset = length.text + " * " + a.text
            }
            guard let offset else { return origin.text }
            if origin.literal == 0 { return offset }
            return origin.text + " + " + offset
        }
        var lines: [String] = []
        if bounds { lines.append("bounds: (0, 0, \(part(2, Precedence.any).text), \(part(3, Precedence.any).text))") }
        if position { lines.append("position: (\(centre(0)), \(centre(1)))") }
        return lines.joined(separator: "\n" + indent)
    }

    /// The edits that rewrite the pasted spellings in `e`: the outermost construct of
    /// each, so edits never overlap. `e` stands where its text must keep ``Precedence``
    /// level `level`: a rewrite of lower level is parenthesised, so that every fix keeps
    /// the expression's tree.
    private func portEdits(_ e: Expr, angle: Bool, within level: Int) -> [TextEdit] {
        func replace(_ text: String) -> [TextEdit] {
            [TextEdit(range: e.range, replacement: fitted(text, portedLevel(e, angle: angle), within: level))]
        }
        func meaningText(_ m: SwiftSpellings.Meaning) -> String {
            switch m {
            case .pi(let f): return piText(f, angle: angle)
            case .number(let x): return formatNumber(x)
            case .infinity: return "inf"
            case .word(let w): return w
            case .colour(let hex): return hex
            case .source(let text, _): return text
            }
        }
        switch tree[e] {
        case .identifier(let name):
            return SwiftSpellings.meaning(of: name).map { replace(meaningText($0)) } ?? []
        case .implicitMember(let name):
            return replace(SwiftSpellings.member(name.name).map(meaningText) ?? name.name)
        case .member(let base, let name):
            if case .identifier(let type) = tree[base], SwiftSpellings.types.contains(type), let m = SwiftSpellings.member(name.name) {
                return replace(meaningText(m))
            }
            if SwiftSpellings.bridgingMembers.contains(name.name) { return replace(argumentText(base, angle: angle)) }
            return portEdits(base, angle: angle, within: Precedence.postfix)
        case .binary(let op, let l, let r):
            // `.pi / 4` where an angle is expected is `45deg`, not `180deg / 4`.
            if angle, op == .divide || op == .multiply, let folded = foldedPi(l, r, op) { return replace(folded) }
            if let terms = hostClockDelayTerms(e) { return replace(hostClockDelayText(terms)) }
            let (left, right) = op.operandLevels
            return portEdits(l, angle: angle, within: left) + portEdits(r, angle: angle, within: right)
        case .unary(_, let operand):
            if case .unary(.negate, _) = tree[e], angle, let folded = foldedPi(operand, nil, nil) { return replace("-" + folded) }
            return portEdits(operand, angle: angle, within: Precedence.unary)
        case .paren(let operand):
            return portEdits(operand, angle: angle, within: Precedence.any)
        case .message(let receiver, let selector, let arguments):
            return portedMessage(receiver, selector.name, Array(tree[arguments]), angle: angle).map(replace) ?? []
        case .qualifiedCall(let type, let callee, let arguments):
            return portedQualifiedCall(type, callee, arguments).map(replace) ?? []
        case .call(let callee, let arguments):
            if SwiftSpellings.functions.contains(callee.name), let text = portedCall(callee.name, Array(tree[arguments]), angle: angle) {
                return replace(text)
            }
            if let name = SwiftSpellings.cFunctions[callee.name] {
                return [TextEdit(range: callee.range, replacement: name)]
                    + tree[arguments].flatMap { portEdits($0.value, angle: false, within: Precedence.any) }
            }
            return tree[arguments].flatMap { portEdits($0.value, angle: angleArgument(callee.name, $0.label?.name), within: Precedence.any) }
        case .tuple(let items), .list(let items), .sequence(let items):
            return tree[items].flatMap { portEdits($0, angle: angle, within: Precedence.any) }
        case .conditional(let c, let a, let b):
            return portEdits(c, angle: false, within: Precedence.range) + portEdits(a, angle: angle, within: Precedence.any)
                + portEdits(b, angle: angle, within: Precedence.any)
        case .index(let base, let indices):
            return portEdits(base, angle: angle, within: Precedence.postfix)
                + tree[indices].flatMap { portEdits($0, angle: false, within: Precedence.any) }
        default:
            return []
        }
    }

    /// The ``Precedence`` level of a spelling's `.anim` form.
    private func meaningLevel(_ m: SwiftSpellings.Meaning, angle: Bool) -> Int {
        switch m {
        case .pi(let f):
            if angle { return f < 0 ? Precedence.unary : Precedence.postfix }
            return f == 1 ? Precedence.postfix : BinaryOperator.multiply.precedence
        case .number(let x): return x < 0 ? Precedence.unary : Precedence.postfix
        case .infinity, .word, .colour: return Precedence.postfix
        case .source(_, let level): return level
        }
    }

    /// The ``Precedence`` level of the text `portEdits` writes for `e`: a wrapper's
    /// (`CGFloat(x)`, `@(x)`, `[NSNumber numberWithFloat:x]`, `x.cgColor`) is its
    /// argument's, a size's (`CGSizeMake`) is `x`'s; an expression left as written keeps
    /// its own.
    private func portedLevel(_ e: Expr, angle: Bool) -> Int {
        switch tree[e] {
        case .identifier(let name):
            return SwiftSpellings.meaning(of: name).map { meaningLevel($0, angle: angle) } ?? Precedence.postfix
        case .implicitMember(let name):
            return SwiftSpellings.member(name.name).map { meaningLevel($0, angle: angle) } ?? Precedence.postfix
        case .member(let base, let name):
            if case .identifier(let type) = tree[base], SwiftSpellings.types.contains(type), let m = SwiftSpellings.member(name.name) {
                return meaningLevel(m, angle: angle)
            }
            if SwiftSpellings.bridgingMembers.contains(name.name) { return portedLevel(base, angle: angle) }
            return Precedence.postfix
        case .binary(let op, let l, let r):
            if angle, op == .divide || op == .multiply, let folded = foldedPi(l, r, op) {
                return folded.hasPrefix("-") ? Precedence.unary : Precedence.postfix
            }
            if let terms = hostClockDelayTerms(e) { return hostClockDelayLevel(terms) }
            return syntaxLevel(e)
        case .message(let receiver, let selector, let arguments):
            let args = tree[arguments]
            if args.isEmpty, SwiftSpellings.bridgingMembers.contains(selector.name) { return portedLevel(receiver, angle: angle) }
            guard case .identifier(let className) = tree[receiver], args.count == 1 else { return Precedence.postfix }
            switch className {
            case "NSNumber" where selector.name.hasPrefix("numberWith"), "NSValue" where selector.name.hasPrefix("valueWith"):
                return portedLevel(args[0].value, angle: angle)
            case "CAMediaTimingFunction" where selector.name == "functionWithName":
                return portedLevel(args[0].value, angle: false)
            default:
                return Precedence.postfix
            }
        case .call(let callee, let arguments):
            let args = tree[arguments]
            switch callee.name {
            case "CGFloat", "Double", "Float", "NSNumber", "CFTimeInterval", "TimeInterval":
                return args.count == 1 ? portedLevel(args[0].value, angle: angle) : Precedence.postfix
            case "CGSize", "CGSizeMake":
                return BinaryOperator.size.precedence
            case "CAMediaTimingFunction":
                if let name = args.first(where: { $0.label?.name == "name" }) { return portedLevel(name.value, angle: false) }
                return Precedence.postfix
            default:
                return Precedence.postfix
            }
        default:
            // Left as written (a unary, a conditional, a range, a literal...): its own level.
            return syntaxLevel(e)
        }
    }

    /// `π / n`, `π · n` or `n · π` with a literal n, as degrees.
    private func foldedPi(_ l: Expr, _ r: Expr?, _ op: BinaryOperator?) -> String? {
        func literal(_ e: Expr) -> Double? { if case .number(let x, nil) = tree[e] { return x } else { return nil } }
        /// π's factor in `e`, through products and quotients with literals (`3 * .pi / 2`).
        func piFactor(_ e: Expr) -> Double? {
            switch tree[e] {
            case .identifier(let n): if case .pi(let f)? = SwiftSpellings.names[n] { return f }
            case .implicitMember(let n): if case .pi(let f)? = SwiftSpellings.member(n.name) { return f }
            case .member(let base, let n):
                if case .identifier(let t) = tree[base], SwiftSpellings.types.contains(t), case .pi(let f)? = SwiftSpellings.member(n.name) { return f }
            case .paren(let inner): return piFactor(inner)
            case .unary(.negate, let inner): return piFactor(inner).map { -$0 }
            case .binary(.multiply, let a, let b):
                if let f = piFactor(a), let n = literal(b) { return ExactDecimal.multiply(f, n) }
                if let n = literal(a), let f = piFactor(b) { return ExactDecimal.multiply(f, n) }
            case .binary(.divide, let a, let b):
                if let f = piFactor(a), let n = literal(b), n != 0 { return ExactDecimal.divide(f, n) }
            default: break
            }
            return nil
        }
        guard let r, let op else { return piFactor(l).map { formatNumber(ExactDecimal.multiply(180, $0)) + "deg" } }
        // The binary's factor as `piFactor` would find it, without boxing a new expression.
        let factor: Double?
        switch op {
        case .multiply:
            if let f = piFactor(l), let n = literal(r) { factor = ExactDecimal.multiply(f, n) }
            else if let n = literal(l), let f = piFactor(r) { factor = ExactDecimal.multiply(f, n) }
            else { factor = nil }
        case .divide:
            if let f = piFactor(l), let n = literal(r), n != 0 { factor = ExactDecimal.divide(f, n) } else { factor = nil }
        default: factor = nil
        }
        guard let f = factor else { return nil }
        let d = ExactDecimal.multiply(180, f)
        guard d.isFinite, formatNumber(d).count <= 12 else { return nil }
        return formatNumber(d) + "deg"
    }

    /// Which arguments of a built-in are angles, so `.pi` inside them is written in degrees.
    private func angleArgument(_ callee: String, _ label: String?) -> Bool {
        switch callee {
        case "rotate", "rotateX", "rotateY", "rotateZ", "skew", "skewX", "skewY": return true
        case "rotate3d": return label == "angle" || label == nil
        case "arc": return ["from", "to", "startAngle", "endAngle"].contains(label ?? "")
        default: return false
        }
    }

    /// A UIKit colour from its components (0...1), found by label: `rgba` takes red,
    /// green and blue in 0...255.
    private func portedColour(_ component: (String) -> Expr?) -> String? {
        func channel(_ label: String) -> String? {
            guard let value = component(label) else { return nil }
            if case .number(let v, nil) = tree[value] { return formatNumber(ExactDecimal.multiply(v, 255)) }
            return "(\(argumentText(value, angle: false))) * 255"
        }
        let alpha = component("alpha").map { argumentText($0, angle: false) } ?? "1"
        if let r = channel("red"), let g = channel("green"), let b = channel("blue") { return "rgba(\(r), \(g), \(b), \(alpha))" }
        if let w = channel("white") { return "rgba(\(w), \(w), \(w), \(alpha))" }
        return nil
    }

    /// `#rrggbb` for a string literal of six hex digits (with `#` or `0x`, or neither) or
    /// three (CSS's shorthand), as the common hex-string colour helpers read it. Eight
    /// digits are left alone: helpers disagree on where the alpha goes.
    private func hexColour(_ e: Expr) -> String? {
        guard case .string(let s) = tree[e] else { return nil }
        var digits = Substring(s)
        if digits.hasPrefix("#") { digits = digits.dropFirst() } else if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard digits.count == 6 || digits.count == 3, digits.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + digits.lowercased()
    }

    /// `UIColor.redColor()` (Swift 2's spelling of `UIColor.red`): its `.anim` colour.
    func portedQualifiedCall(_ type: Identifier, _ callee: Identifier, _ arguments: Children<Argument>) -> String? {
        guard type.name == "UIColor" || type.name == "NSColor", arguments.isEmpty, callee.name.hasSuffix("Color") else { return nil }
        switch SwiftSpellings.member(String(callee.name.dropLast(5))) {
        case .word(let w)?: return w
        case .colour(let hex)?: return hex
        default: return nil
        }
    }

    /// `UIColor.redColor()`: reported with its `.anim` form, and its value.
    func swiftQualifiedCall(_ expr: Expr, _ type: Identifier, _ callee: Identifier, _ arguments: Children<Argument>, _ scope: Scope) -> SemaValue? {
        guard scope.lookup(type) == nil, let text = portedQualifiedCall(type, callee, arguments) else { return nil }
        reportSpelling(expr, written: "\(type.name).\(callee.name)()", replacement: text)
        if let c = Builtins.constant(text) { return c }
        guard let (r, g, b, a) = LiteralValue.color(text[...]) else { return .poison }
        return .color(Color(red: r, green: g, blue: b, alpha: a))
    }

    /// The `.anim` form of an Objective-C message send, or nil when it has none here.
    private func portedMessage(_ receiver: Expr, _ selector: String, _ args: [Argument], angle: Bool) -> String? {
        func value(_ i: Int, angle: Bool = false) -> String? { i < args.count ? argumentText(args[i].value, angle: angle) : nil }
        let className: String?
        if case .identifier(let n) = tree[receiver] { className = n } else { className = nil }
        // `[x CGColor]`: the value itself.
        if args.isEmpty, SwiftSpellings.bridgingMembers.contains(selector) { return argumentText(receiver, angle: angle) }
        switch className {
        case "UIColor", "NSColor":
            if args.isEmpty, selector.hasSuffix("Color") {
                switch SwiftSpellings.member(String(selector.dropLast(5))) {
                case .word(let w)?: return w
                case .colour(let hex)?: return hex
                default: return nil
                }
            }
            if args.count == 1, SwiftSpellings.hexColourSelectors.contains(selector), let hex = hexColour(args[0].value) { return hex }
            // `colorWithRed:green:blue:alpha:`, `colorWithWhite:alpha:`: the first piece names the first component.
            return portedColour { label in
                args.first { a in a.label.map { $0.name == label || $0.name == "colorWith" + label.prefix(1).uppercased() + label.dropFirst() } ?? false }?.value
            }
        case "UIBezierPath":
            // The selector's first piece names the first argument as Swift's label does.
            let swiftLabels = ["bezierPathWithRect": "rect", "bezierPathWithOvalInRect": "ovalIn", "bezierPathWithArcCenter": "arcCenter"]
            return portedBezierPath { label, angle in
                args.first { a in a.label.map { (swiftLabels[$0.name] ?? $0.name) == label } ?? false }
                    .map { argumentText($0.value, angle: angle) }
            }
        case "CAMediaTimingFunction":
            if selector == "functionWithName", args.count == 1 { return value(0) }
            if selector == "functionWithControlPoints", args.count == 4 { return "cubic(" + (0..<4).compactMap { value($0) }.joined(separator: ", ") + ")" }
            return nil
        case "NSNumber" where selector.hasPrefix("numberWith") && args.count == 1:
            return value(0, angle: angle)
        case "NSValue" where selector.hasPrefix("valueWith") && args.count == 1:
            return value(0, angle: angle)
        case "NSArray" where selector == "arrayWithObjects":
            var items = args.map { argumentText($0.value, angle: angle) }
            if items.last == "nil" { items.removeLast() }
            return "[" + items.joined(separator: ", ") + "]"
        default:
            break
        }
        // `[[UIColor alloc] initWithRed:0.1 green:0.5 blue:0.9 alpha:1]`, `initWithWhite:alpha:`
        if case .message(let inner, let allocation, let none) = tree[receiver], none.isEmpty, allocation.name == "alloc",
           case .identifier(let type) = tree[inner], type == "UIColor" || type == "NSColor", selector.hasPrefix("initWith") {
            return portedColour { label in
                args.first { a in a.label.map { $0.name == label || $0.name == "initWith" + label.prefix(1).uppercased() + label.dropFirst() } ?? false }?.value
            }
        }
        // `[[CAMediaTimingFunction alloc] initWithControlPoints:a :b :c :d]`
        if case .message(let inner, let allocation, let none) = tree[receiver], none.isEmpty, allocation.name == "alloc" || allocation.name == "new",
           case .identifier("CAMediaTimingFunction") = tree[inner], selector == "initWithControlPoints", args.count == 4 {
            return "cubic(" + (0..<4).compactMap { value($0) }.joined(separator: ", ") + ")"
        }
        return nil
    }

    /// The `.anim` path a `UIBezierPath` initialiser makes, from its labelled arguments
    /// (`argument(label, isAngle)`): only the ones drawn the same way. A rounded rect is
    /// left out: UIBezierPath's corners are continuous (iOS 7 on), `roundedRect`'s are
    /// circular as CGPath's are.
    private func portedBezierPath(_ argument: (String, Bool) -> String?) -> String? {
        if let r = argument("rect", false) { return "rect(\(r))" }
        if let r = argument("ovalIn", false) { return "ellipse(\(r))" }
        if let c = argument("arcCenter", false), let radius = argument("radius", false), let from = argument("startAngle", true),
           let to = argument("endAngle", true), let clockwise = argument("clockwise", false) {
            return "arc(center: \(c), radius: \(radius), from: \(from), to: \(to), clockwise: \(clockwise))"
        }
        return nil
    }

    /// The `.anim` form of a Swift call, or nil when its arguments do not fit.
    private func portedCall(_ name: String, _ args: [Argument], angle: Bool = false) -> String? {
        func value(_ i: Int, angle: Bool = false) -> String? { i < args.count ? argumentText(args[i].value, angle: angle) : nil }
        func labelled(_ label: String, angle: Bool = false) -> String? {
            args.first { $0.label?.name == label }.map { argumentText($0.value, angle: angle) }
        }
        func isLiteral(_ i: Int, _ x: Double) -> Bool {
            guard i < args.count, case .number(let v, nil) = tree[args[i].value] else { return false }
            return v == x
        }
        switch name {
        case "CATransform3DMakeRotation":
            guard args.count == 4, let a = value(0, angle: true), let x = value(1), let y = value(2), let z = value(3) else { return nil }
            if isLiteral(1, 0) && isLiteral(2, 0) && isLiteral(3, 1) { return "rotate(\(a))" }
            if isLiteral(1, 1) && isLiteral(2, 0) && isLiteral(3, 0) { return "rotateX(\(a))" }
            if isLiteral(1, 0) && isLiteral(2, 1) && isLiteral(3, 0) { return "rotateY(\(a))" }
            return "rotate3d((\(x), \(y), \(z)), \(a))"
        case "CATransform3DMakeScale":
            guard args.count == 3, let x = value(0), let y = value(1), let z = value(2) else { return nil }
            return isLiteral(2, 1) ? (x == y ? "scale(\(x))" : "scale(\(x), \(y))") : "scale(\(x), \(y), \(z))"
        case "CATransform3DMakeTranslation":
            guard args.count == 3, let x = value(0), let y = value(1), let z = value(2) else { return nil }
            return isLiteral(2, 0) ? "translate(\(x), \(y))" : "translate(\(x), \(y), \(z))"
        case "CATransform3DRotate", "CATransform3DScale", "CATransform3DTranslate":
            // CATransform3DRotate(t, ...) applies the rotation first, then t.
            guard args.count >= 4, let t = value(0) else { return nil }
            let rest = Array(args.dropFirst())
            let inner = name == "CATransform3DRotate" ? "CATransform3DMakeRotation"
                : name == "CATransform3DScale" ? "CATransform3DMakeScale" : "CATransform3DMakeTranslation"
            guard let first = portedCall(inner, rest) else { return nil }
            return "concat(\(first), \(t))"
        case "CATransform3DConcat":
            guard args.count == 2, let a = value(0), let b = value(1) else { return nil }
            return "concat(\(a), \(b))"
        case "CGAffineTransform":
            if let a = labelled("rotationAngle", angle: true) { return "rotate(\(a))" }
            if let x = labelled("scaleX"), let y = labelled("y") { return "scale(\(x), \(y))" }
            if let x = labelled("translationX"), let y = labelled("y") { return "translate(\(x), \(y))" }
            return nil
        case "CGPoint", "CGVector":
            let (lx, ly) = name == "CGPoint" ? ("x", "y") : ("dx", "dy")
            guard let x = labelled(lx), let y = labelled(ly) else { return nil }
            return "(\(x), \(y))"
        case "CGSize":
            let operand = BinaryOperator.size.operandLevels.left
            guard let w = args.first(where: { $0.label?.name == "width" }).map({ argumentText($0.value, angle: false, within: operand) }),
                  let h = args.first(where: { $0.label?.name == "height" }).map({ argumentText($0.value, angle: false, within: operand) })
            else { return nil }
            return "\(w) x \(h)"
        case "CGRect":
            if let x = labelled("x"), let y = labelled("y"), let w = labelled("width"), let h = labelled("height") { return "(\(x), \(y), \(w), \(h))" }
            guard let origin = args.first(where: { $0.label?.name == "origin" })?.value,
                  let size = args.first(where: { $0.label?.name == "size" })?.value else { return nil }
            let o = isZeroPair(origin) ? ["0", "0"] : pairParts(origin).map { $0.map { argumentText($0, angle: false) } }
                ?? ["x", "y"].map { argumentText(origin, angle: false, within: Precedence.postfix) + "." + $0 }
            let z = isZeroPair(size) ? ["0", "0"] : pairParts(size).map { $0.map { argumentText($0, angle: false) } }
                ?? ["width", "height"].map { argumentText(size, angle: false, within: Precedence.postfix) + "." + $0 }
            return "(" + (o + z).joined(separator: ", ") + ")"
        case "UIColor", "NSColor", SwiftSpellings.colorLiteral:
            if args.count == 1, let label = args[0].label?.name, SwiftSpellings.hexColourLabels.contains(label) { return hexColour(args[0].value) }
            return portedColour { label in args.first { $0.label?.name == label }?.value }
        case "UIBezierPath":
            return portedBezierPath { label, angle in labelled(label, angle: angle) }
        case "CGPath":
            // `transform: nil` only: a path drawn through a transform has no written form here.
            if let t = args.first(where: { $0.label?.name == "transform" }) {
                guard case .identifier("nil") = tree[t.value] else { return nil }
            }
            if let r = labelled("rect") { return "rect(\(r))" }
            if let r = labelled("ellipseIn") { return "ellipse(\(r))" }
            if let r = labelled("roundedRect"), let w = labelled("cornerWidth"), let h = labelled("cornerHeight"), w == h {
                return "roundedRect(\(r), radius: \(w))"
            }
            return nil
        case "CGPathCreateWithRect", "CGPathCreateWithEllipseInRect", "CGPathCreateWithRoundedRect":
            // With no transform (`nil`, `NULL`) only: the path as drawn.
            guard let t = args.last, case .identifier(let none) = tree[t.value], none == "nil" || none == "NULL" || none == "nullptr",
                  let r = value(0) else { return nil }
            if name == "CGPathCreateWithRect", args.count == 2 { return "rect(\(r))" }
            if name == "CGPathCreateWithEllipseInRect", args.count == 2 { return "ellipse(\(r))" }
            if args.count == 4, let w = value(1), let h = value(2), w == h { return "roundedRect(\(r), radius: \(w))" }
            return nil
        case "CGPointMake":
            guard args.count == 2, let x = value(0), let y = value(1) else { return nil }
            return "(\(x), \(y))"
        case "CGSizeMake":
            let operand = BinaryOperator.size.operandLevels.left
            guard args.count == 2 else { return nil }
            return "\(argumentText(args[0].value, angle: false, within: operand)) x \(argumentText(args[1].value, angle: false, within: operand))"
        case "CGRectMake":
            guard args.count == 4, let x = value(0), let y = value(1), let w = value(2), let h = value(3) else { return nil }
            return "(\(x), \(y), \(w), \(h))"
        case "CGAffineTransformMakeRotation":
            guard args.count == 1, let a = value(0, angle: true) else { return nil }
            return "rotate(\(a))"
        case "CGAffineTransformMakeScale":
            guard args.count == 2, let x = value(0), let y = value(1) else { return nil }
            return "scale(\(x), \(y))"
        case "CGAffineTransformMakeTranslation":
            guard args.count == 2, let x = value(0), let y = value(1) else { return nil }
            return "translate(\(x), \(y))"
        case SwiftSpellings.swiftInit:
            // The labels say whose initialiser: a timing function's or a colour's.
            if args.contains(where: { ["name", "controlPoints"].contains($0.label?.name ?? "") }) {
                return portedCall("CAMediaTimingFunction", args, angle: angle)
            }
            return portedCall("UIColor", args, angle: angle)
        case "CAMediaTimingFunction":
            if let n = labelled("name") { return n }
            if args.first?.label?.name == "controlPoints", args.count == 4 {
                return "cubic(" + (0..<4).compactMap { value($0) }.joined(separator: ", ") + ")"
            }
            return nil
        case SwiftSpellings.hostClock:
            return args.isEmpty ? "0s" : nil
        case _ where SwiftSpellings.cFunctions[name] != nil:
            guard let function = SwiftSpellings.cFunctions[name], args.allSatisfy({ $0.label == nil }) else { return nil }
            return function + "(" + args.map { argumentText($0.value, angle: angle) }.joined(separator: ", ") + ")"
        case _ where SwiftSpellings.rectGetters[name] != nil:
            guard let member = SwiftSpellings.rectGetters[name], args.count == 1, args[0].label == nil else { return nil }
            return argumentText(args[0].value, angle: false, within: Precedence.postfix) + "." + member
        case "CGFloat", "Double", "Float", "NSNumber", "CFTimeInterval", "TimeInterval":
            // A wrapper: its value, an angle where one is expected (`NSNumber(value: .pi * 2)`).
            guard args.count == 1 else { return nil }
            return value(0, angle: angle)
        default:
            return nil
        }
    }
}
