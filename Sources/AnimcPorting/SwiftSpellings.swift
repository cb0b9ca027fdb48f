import AnimcBase
import AnimcSyntax

/// Swift and Objective-C spellings pasted from Core Animation code (`.pi`, `M_PI`,
/// `kCAFillModeForwards`, `CATransform3DMakeRotation(...)`, `CGPoint(x:y:)`,
/// `UIColor(red:...)`, `fromValue`, ...). Each is an error (E0323) whose fix-it is the
/// `.anim` form, so a pasted block is fixed in one check-and-fix cycle: the fix of a
/// construct includes the fixes of everything inside it, and only the outermost one
/// is reported.
public enum SwiftSpellings {
    /// What a name or member stands for.
    public enum Meaning: Sendable {
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
    public static let systemColours: [String: String] = [
        "systemRed": "#ff3b30", "systemOrange": "#ff9500", "systemYellow": "#ffcc00", "systemGreen": "#34c759",
        "systemMint": "#00c7be", "systemTeal": "#30b0c7", "systemCyan": "#32ade6", "systemBlue": "#007aff",
        "systemIndigo": "#5856d6", "systemPurple": "#af52de", "systemPink": "#ff2d55", "systemBrown": "#a2845e",
        "systemGray": "#8e8e93", "systemGray2": "#aeaeb2", "systemGray3": "#c7c7cc", "systemGray4": "#d1d1d6",
        "systemGray5": "#e5e5ea", "systemGray6": "#f2f2f7", "label": "#000000", "systemBackground": "#ffffff",
    ]

    public static let names: [String: Meaning] = {
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
    public static func meaning(of name: String) -> Meaning? {
        // `nil` for a colour (`fillColor = nil`) draws nothing, as `clear` does.
        if name == "nil" { return .word("clear") }
        guard hasCapital(name) else { return nil }
        return names[name]
    }

    /// `#colorLiteral(...)` once its `#` is lexed away (a C-syntax error of its own).
    public static let colorLiteral = "colorLiteral"
    /// `.init(...)`, which the parser keeps as a call of `init`: a timing function's or a
    /// colour's initialiser, by its labels.
    public static let swiftInit = "init"

    /// Whether a call of `name` is a pasted Swift or Core Animation function.
    public static func isFunction(_ name: String) -> Bool {
        // Every one starts with a capital: the first byte rules out the `.anim` functions
        // every layer calls (`rgb`, `cubic`) without a scan or a hash.
        guard let first = name.utf8.first, first >= 0x41 && first <= 0x5A else { return name == colorLiteral || name == swiftInit }
        return functions.contains(name)
    }

    public static func hasCapital(_ name: String) -> Bool {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// Swift's implicit members and the members of Swift types, by member name.
    /// Every name that spells π in the tables above: math.h's constants, and `.pi`.
    public static let piSpellings: [String] = (Array(names.keys) + ["pi"]).filter { name in
        if case .pi? = names[name] { return true }
        if case .pi? = member(name) { return true }
        return false
    }

    public static func member(_ name: String) -> Meaning? {
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

    /// Types whose members (`Double.pi`, `UIColor.white`, `CAMediaTimingFillMode.forwards`)
    /// stand for `.anim` words.
    public static let types: Set<String> = [
        "Double", "CGFloat", "Float", "Float32", "Float64", "UIColor", "NSColor", "CGColor", "CAMediaTimingFillMode",
        "CAMediaTimingFunctionName", "CAAnimationCalculationMode", "CAAnimationRotationMode", "CAShapeLayerLineCap",
        "CAShapeLayerLineJoin", "CAShapeLayerFillRule", "CATransform3D",
    ]

    /// Swift, C and Core Graphics types for `.anim`'s, as declarations write them.
    public static let typeNames: [String: String] = [
        "CGFloat": "Number", "Double": "Number", "Float": "Number", "Int": "Number", "NSInteger": "Number",
        "NSUInteger": "Number", "Int32": "Number", "float": "Number", "double": "Number", "int": "Number",
        "CFTimeInterval": "Time", "TimeInterval": "Time", "NSTimeInterval": "Time",
        "CGPoint": "Point", "CGSize": "Size", "CGRect": "Rect", "UIColor": "Color", "NSColor": "Color", "CGColor": "Color",
        "CGColorRef": "Color", "CGPath": "Path", "CGPathRef": "Path", "UIBezierPath": "Path", "CATransform3D": "Transform",
        "CAMediaTimingFunction": "Timing", "BOOL": "Bool", "NSString": "String",
    ]

    /// Members that turn a UIKit value into Core Animation's (`UIColor.red.cgColor`,
    /// `path.CGPath`): `.anim` values are Core Animation's already.
    public static let bridgingMembers: Set<String> = [
        "cgColor", "cgPath", "CGColor", "CGPath", "cgImage", "CGImage",
        // NSNumber's and NSValue's unboxing (`[delays[i] floatValue]`, `n.doubleValue`).
        "floatValue", "doubleValue", "intValue", "integerValue", "boolValue", "CGPointValue", "CGSizeValue", "CGRectValue",
        "CATransform3DValue",
    ]

    /// Core Animation's attribute names for `.anim`'s.
    public static let attributes: [String: String] = [
        "fromValue": "from", "toValue": "to", "byValue": "by", "isRemovedOnCompletion": "removedOnCompletion",
    ]

    /// Functions (and initialisers) that have a `.anim` form. Of C's functions, only those
    /// spelt in capitals (`MIN`): `isFunction` answers no to a lowercase name before
    /// looking here, and the lowercase ones (`ceilf`) are met as unknown calls
    /// (`Checker.swiftCFunction`).
    public static let functions: Set<String> = Set([
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
    public static let cFunctions: [String: String] = [
        "MIN": "min", "MAX": "max", "ABS": "abs", "fabs": "abs", "fmin": "min", "fmax": "max",
        "ceilf": "ceil", "floorf": "floor", "roundf": "round", "fmod": "rem",
    ]

    /// Core Graphics' rect getters, as the member of a rect they read.
    public static let rectGetters: [String: String] = [
        "CGRectGetMinX": "minX", "CGRectGetMidX": "midX", "CGRectGetMaxX": "maxX",
        "CGRectGetMinY": "minY", "CGRectGetMidY": "midY", "CGRectGetMaxY": "maxY",
        "CGRectGetWidth": "width", "CGRectGetHeight": "height",
    ]

    /// Selectors and labels of the hex-string colour helpers apps add to UIColor.
    public static let hexColourSelectors: Set<String> = ["colorWithHexString", "colorWithHex", "colorFromHexString", "colorWithHexCode"]
    public static let hexColourLabels: Set<String> = ["hex", "hexString", "hexCode"]

    /// What to write instead of a known call whose arguments have no exact `.anim` form.
    public static let unportedHelp: [String: String] = [
        "UIBezierPath": "paths are rect(...), ellipse(...), arc(...), roundedRect(...) or path { ... }; roundedRect's corners are circular, as CGPath(roundedRect:cornerWidth:cornerHeight:transform:) draws them, where UIBezierPath's are continuous",
        "CGPath": "paths are rect(...), ellipse(...), roundedRect(...) with equal corner width and height, or path { ... }",
    ]

    /// The host's clock, which Core Animation code adds to a `beginTime`
    /// (`CACurrentMediaTime() + 0.2`): a `.anim` beginTime counts from the composition's
    /// start, so the clock's term is dropped.
    public static let hostClock = "CACurrentMediaTime"

    public static func isHostClock(_ e: Expr, in tree: SyntaxTree) -> Bool {
        if case .call(let callee, let arguments) = tree[e] { return callee.name == hostClock && arguments.isEmpty }
        return false
    }
}

extension String {
    var lowercasedFirstLetter: String { isEmpty ? self : prefix(1).lowercased() + dropFirst() }
}
