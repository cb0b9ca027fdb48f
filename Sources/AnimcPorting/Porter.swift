import AnimcBase
import AnimcDiagnostics
import AnimcSyntax

/// Prints the `.anim` text of pasted Swift and Objective-C, from the syntax tree alone:
/// every fix-it of porting is an edit made here, with `.anim`'s precedence
/// (parentheses where the replaced text would bind otherwise), and none embeds a value
/// a checker computed. What a caller knows of the place (an angle expected, the level
/// the text must stand at) is passed in.
public struct Porter {
    public let tree: SyntaxTree
    /// Whether a time is expected where the text stands: the host clock's delay is
    /// then written in seconds.
    public let expectsTime: Bool

    public init(_ tree: SyntaxTree, expectsTime: Bool = false) {
        self.tree = tree
        self.expectsTime = expectsTime
    }

    /// `text` parenthesised when its level is below the one `required` where it stands.
    public func fitted(_ text: String, _ level: Int, within required: Int) -> String {
        level < required ? "(" + text + ")" : text
    }

    // MARK: The .anim text of pasted code

    /// `pi` scaled, as an angle (`45deg`) or a number (`pi / 4`).
    public func piText(_ factor: Double, angle: Bool) -> String {
        if angle { return formatNumber(ExactDecimal.multiply(180, factor)) + "deg" }
        if factor == 1 { return "pi" }
        return factor < 1 ? "pi / \(formatNumber(ExactDecimal.divide(1, factor)))" : "\(formatNumber(factor)) * pi"
    }

    /// The `.anim` text of `expr` with every pasted spelling inside rewritten, or nil
    /// when there is none. `angle` says whether an angle is expected here.
    public func portedText(_ expr: Expr, angle: Bool, within level: Int) -> String? {
        let edits = portEdits(expr, angle: angle, within: level)
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
    public func argumentText(_ e: Expr, angle: Bool, within level: Int = Precedence.any) -> String {
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
    public func frameFixText(_ value: Expr, anchor: Expr?, bounds: Bool, position: Bool, indent: String) -> String {
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
    public func meaningLevel(_ m: SwiftSpellings.Meaning, angle: Bool) -> Int {
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
    public func portedLevel(_ e: Expr, angle: Bool) -> Int {
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
            return tree.precedenceLevel(e)
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
            return tree.precedenceLevel(e)
        }
    }

    /// `π / n`, `π · n` or `n · π` with a literal n, as degrees.
    public func foldedPi(_ l: Expr, _ r: Expr?, _ op: BinaryOperator?) -> String? {
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
        // `UIColor(hue:saturation:brightness:alpha:)`: the same components, 0...1.
        if let h = component("hue"), let s = component("saturation"), let b = component("brightness") {
            return "hsba(" + [h, s, b].map { argumentText($0, angle: false) }.joined(separator: ", ") + ", \(alpha))"
        }
        return nil
    }

    /// `#rrggbb` for a string literal of six hex digits (with `#` or `0x`, or neither) or
    /// three (CSS's shorthand), as the common hex-string colour helpers read it. Eight
    /// digits are left alone: helpers disagree on where the alpha goes.
    private func hexColour(_ e: Expr) -> String? {
        var digits: Substring
        switch tree[e] {
        case .string(let s): digits = Substring(s)
        case .number(let v, nil):
            // `UIColor(hex: 0xFF8000)`, or the literal once written in decimal: the
            // integer's 24 bits are red, green and blue (0xFFF is 4095: #000fff).
            guard v >= 0, v <= 0xFFFFFF, v == v.rounded() else { return nil }
            let hex = String(Int(v), radix: 16)
            digits = Substring(String(repeating: "0", count: 6 - hex.count) + hex)
        default: return nil
        }
        if digits.hasPrefix("#") { digits = digits.dropFirst() } else if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard digits.count == 6 || digits.count == 3, digits.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + digits.lowercased()
    }

    /// `UIColor.redColor()` (Swift 2's spelling of `UIColor.red`): its `.anim` colour.
    public func portedQualifiedCall(_ type: Identifier, _ callee: Identifier, _ arguments: Children<Argument>) -> String? {
        guard type.name == "UIColor" || type.name == "NSColor", arguments.isEmpty, callee.name.hasSuffix("Color") else { return nil }
        switch SwiftSpellings.member(String(callee.name.dropLast(5))) {
        case .word(let w)?: return w
        case .colour(let hex)?: return hex
        default: return nil
        }
    }


    /// The `.anim` form of an Objective-C message send, or nil when it has none here.
    private func portedMessage(_ receiver: Expr, _ selector: String, _ args: [Argument], angle: Bool) -> String? {
        func value(_ i: Int, angle: Bool = false) -> String? { i < args.count ? argumentText(args[i].value, angle: angle) : nil }
        let className: String?
        if case .identifier(let n) = tree[receiver] { className = n } else { className = nil }
        // `[x CGColor]`: the value itself.
        if args.isEmpty, SwiftSpellings.bridgingMembers.contains(selector) { return argumentText(receiver, angle: angle) }
        // `[[UIColor blackColor] colorWithAlphaComponent:0.3]`: the colour, its alpha replaced.
        if selector == "colorWithAlphaComponent", args.count == 1, className != "UIColor", className != "NSColor" {
            return "withAlpha(\(argumentText(receiver, angle: false)), \(argumentText(args[0].value, angle: false)))"
        }
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
    public func portedCall(_ name: String, _ args: [Argument], angle: Bool = false) -> String? {
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
            guard let t = args.last, isNull(t.value), let r = value(0) else { return nil }
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
            // The clock alone is the composition's start: `0s` where a time is expected;
            // elsewhere (`let start = CACurrentMediaTime()`) a plain 0, so the delays added
            // to it later (`start + delays[i]`, numbers of seconds) get their unit once,
            // where the sum is used.
            return args.isEmpty ? (expectsTime ? "0s" : "0") : nil
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

    // MARK: The host clock

    /// The delay of a sum or difference that adds the host's clock
    /// (`CACurrentMediaTime() + a * d + b`, `CACurrentMediaTime() - x`, `d + CACurrentMediaTime()`):
    /// the chain's other terms, each with whether it is subtracted. Nil when no term
    /// added is the clock.
    public func hostClockDelayTerms(_ expr: Expr) -> [(negative: Bool, term: Expr)]? {
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
    public func hostClockDelayText(_ terms: [(negative: Bool, term: Expr)]) -> String {
        if terms.count == 1, !terms[0].negative { return hostClockDelayText(terms[0].term) }
        let time = expectsTime
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
    public func hasBareNumber(_ e: Expr) -> Bool {
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
    public func hostClockTimedText(_ terms: [(negative: Bool, term: Expr)]) -> (text: String, level: Int) {
        let (left, right) = BinaryOperator.add.operandLevels
        var text = ""
        for (i, (negative, term)) in terms.enumerated() {
            let t = argumentText(term, angle: false, within: i == 0 ? (negative ? Precedence.unary : left) : right)
            text += i == 0 ? (negative ? "-" + t : t) : (negative ? " - " + t : " + " + t)
        }
        return (text, terms.count == 1 ? (terms[0].negative ? Precedence.unary : portedLevel(terms[0].term, angle: false))
                                       : BinaryOperator.add.precedence)
    }

    /// Whether every term is a number written without a unit (each then gets seconds).
    private func allLiterals(_ terms: [(negative: Bool, term: Expr)]) -> Bool {
        terms.allSatisfy { if case .number(_, nil) = tree[$0.term] { return true } else { return false } }
    }

    /// The ``Precedence`` level of ``hostClockDelayText(_:)``'s text for several terms.
    public func hostClockDelayLevel(_ terms: [(negative: Bool, term: Expr)]) -> Int {
        if terms.count == 1, !terms[0].negative { return hostClockDelayLevel(terms[0].term) }
        if expectsTime && !allLiterals(terms) { return BinaryOperator.multiply.precedence }
        return terms.count == 1 ? Precedence.unary : BinaryOperator.add.precedence
    }

    /// The delay of `CACurrentMediaTime() + delay`, as a time where one is expected:
    /// `0.2` → `0.2s`, `0.33 * i` → `0.33s * i`, anything else times `1s`.
    private func hostClockDelayText(_ delay: Expr) -> String {
        let text = argumentText(delay, angle: false)
        guard expectsTime else { return text }
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
        guard expectsTime else { return portedLevel(delay, angle: false) }
        switch tree[delay] {
        case .number(_, nil): return Precedence.postfix
        case .number, .call, .identifier: return portedLevel(delay, angle: false)
        default: return BinaryOperator.multiply.precedence
        }
    }

    /// `nil`, `NULL`, `nullptr`: C's and Swift's no-object, as a transform argument.
    func isNull(_ e: Expr) -> Bool {
        guard case .identifier(let n) = tree[e] else { return false }
        return n == "nil" || n == "NULL" || n == "nullptr"
    }
}
