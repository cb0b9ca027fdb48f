import AnimcBase
import AnimcDiagnostics
import AnimcSyntax

/// Writes a valid `.anim` file the way Swift and Objective-C code spells the same
/// things (issue 49's meaning test): `1.5s` as a bare `1.5` or `CFTimeInterval(1.5)`,
/// `90deg` as `M_PI_2`, `(x, y)` as `CGPointMake(x, y)`, `forwards` as
/// `kCAFillModeForwards`, `from:` as `fromValue:`, `red` as `[UIColor redColor].CGColor`,
/// `0.5` as `@0.5` or `0.5f`, a quotient as `CGFloat(a / b)`, a `beginTime` as
/// `CACurrentMediaTime() + t`, ... `animc check --fix` must give back a file whose
/// timeline is the original's, byte for byte: a fix-it that changes the meaning shows
/// up as a difference whoever wrote the file.
///
/// Each place is respelled with probability `rate` from a seeded generator, so a
/// corpus gives many respellings and a failing one is found again from its seed.
/// Written from the syntax tree, independently of the checker's porting tables.
public struct Respeller {
    let tree: SyntaxTree
    var random: SplitMix64
    let rate: UInt64
    /// Every name the file declares (constants, parameters, loop variables): a colour
    /// word or `inf` that is one of them is not the built-in.
    let declared: Set<String>

    /// The respelled text of `file`, or nil when it does not parse cleanly.
    public static func respell(_ file: SourceFile, seed: UInt64, rate: Double = 0.5) -> String? {
        let tree = Parser.parse(file)
        guard tree.diagnostics.isEmpty else { return nil }
        var r = Respeller(tree: tree, random: SplitMix64(seed: seed), rate: UInt64(rate * 1000), declared: declaredNames(in: tree))
        let edits = r.block(tree.root, context: .none)
        return String(decoding: applyEdits(edits, to: file.bytes), as: UTF8.self)
    }

    /// What an expression's place expects, as far as the syntax says.
    enum Context { case none, time, angle, fillMode, timing, calculationMode, test }

    mutating func chance() -> Bool { random.next() % 1000 < rate }
    mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }

    func text(_ range: SourceRange) -> String { tree.file.text(range) }

    // MARK: Items

    mutating func block(_ b: Block, context: Context) -> [TextEdit] {
        tree[b.items].flatMap { item($0, context: context) }
    }

    mutating func item(_ item: Item, context: Context) -> [TextEdit] {
        switch tree[item] {
        case .letDecl(_, let type, let value):
            // A declared type fixes the unit; a plain constant may be read as anything.
            return type == nil ? expr(value, .none) : []
        case .pathDecl(_, let body):
            return pathBlock(body)
        case .timingDecl, .importDecl, .error, .pathCommand, .composition, .inputDecl, .stateDecl, .transition:
            return []
        case .component(_, _, let body):
            return block(body, context: .none)
        case .layer(_, let kind, _, _, let body):
            // Tests read expectations as the property's type; leave them as written.
            return kind.name == "test" ? [] : block(body, context: .none)
        case .instance:
            return []
        case .property(let key, let value):
            return property(key, value, item.range)
        case .animation(_, _, _, _, let body, _):
            return block(body, context: .none)
        case .keyframe(_, let value, _):
            return expr(value, .none)
        case .forLoop(_, let body):
            return block(body, context: .none)
        case .ifItem(_, let then, let otherwise):
            return block(then, context: .none) + (otherwise.map { block($0, context: .none) } ?? [])
        }
    }

    // MARK: Path building

    /// A path block's commands as UIBezierPath (Objective-C or Swift), CGMutablePath
    /// or Core Graphics' C functions build the same elements. UIKit's `clockwise` is
    /// on screen, as `.anim`'s; Core Graphics' is the opposite (Apple's docs on
    /// CGPathAddArc: in UIKit's flipped space a clockwise arc is drawn counterclockwise).
    mutating func pathBlock(_ b: Block) -> [TextEdit] {
        tree[b.items].flatMap { item -> [TextEdit] in
            switch tree[item] {
            case .pathCommand(let name, let arguments):
                guard chance(), let text = pastedPathStatement(name.name, Array(tree[arguments])) else { return [] }
                return [TextEdit(range: item.range, replacement: text)]
            case .forLoop(_, let body): return pathBlock(body)
            case .ifItem(_, let then, let otherwise): return pathBlock(then) + (otherwise.map { pathBlock($0) } ?? [])
            default: return []
            }
        }
    }

    mutating func pastedPathStatement(_ command: String, _ args: [Argument]) -> String? {
        var point: Expr?
        var labelled: [String: Expr] = [:]
        for (i, a) in args.enumerated() {
            if let label = a.label?.name { if label == "to" && i == 0 { point = a.value } else { labelled[label] = a.value } }
            else if i == 0 { point = a.value } else { return nil }
        }
        func pointText(_ e: Expr) -> String {
            if case .tuple(let items) = tree[e], items.count == 2 {
                let p = tree[items].map { inner($0) }
                return pick(["CGPointMake(\(p[0]), \(p[1]))", "CGPoint(x: \(p[0]), y: \(p[1]))", "(\(p[0]), \(p[1]))"])
            }
            return inner(e)
        }
        func xy(_ e: Expr) -> (String, String)? {
            guard case .tuple(let items) = tree[e], items.count == 2 else { return nil }
            let p = tree[items].map { inner($0) }
            return (p[0], p[1])
        }
        let style = pick(["objc", "uikit", "cg", "c"])
        switch command {
        case "move", "line":
            guard let p = point, labelled.isEmpty else { return nil }
            let pt = pointText(p)
            switch style {
            case "objc": return command == "move" ? "[path moveToPoint:\(pt)];" : "[path addLineToPoint:\(pt)];"
            case "c":
                guard let (x, y) = xy(p) else { return nil }
                return (command == "move" ? "CGPathMoveToPoint" : "CGPathAddLineToPoint") + "(path, NULL, \(x), \(y));"
            default: return command == "move" ? "path.move(to: \(pt))" : "path.addLine(to: \(pt))"
            }
        case "cubic":
            guard let p = point, labelled.count == 2, let c1 = labelled["c1"], let c2 = labelled["c2"] else { return nil }
            switch style {
            case "objc": return "[path addCurveToPoint:\(pointText(p)) controlPoint1:\(pointText(c1)) controlPoint2:\(pointText(c2))];"
            case "uikit": return "path.addCurve(to: \(pointText(p)), controlPoint1: \(pointText(c1)), controlPoint2: \(pointText(c2)))"
            case "cg": return "path.addCurve(to: \(pointText(p)), control1: \(pointText(c1)), control2: \(pointText(c2)))"
            default:
                guard let (x, y) = xy(p), let (ax, ay) = xy(c1), let (bx, by) = xy(c2) else { return nil }
                return "CGPathAddCurveToPoint(path, NULL, \(ax), \(ay), \(bx), \(by), \(x), \(y));"
            }
        case "quad":
            guard let p = point, labelled.count == 1, let c = labelled["control"] else { return nil }
            switch style {
            case "objc": return "[path addQuadCurveToPoint:\(pointText(p)) controlPoint:\(pointText(c))];"
            case "uikit": return "path.addQuadCurve(to: \(pointText(p)), controlPoint: \(pointText(c)))"
            case "cg": return "path.addQuadCurve(to: \(pointText(p)), control: \(pointText(c)))"
            default:
                guard let (x, y) = xy(p), let (cx, cy) = xy(c) else { return nil }
                return "CGPathAddQuadCurveToPoint(path, NULL, \(cx), \(cy), \(x), \(y));"
            }
        case "close":
            guard args.isEmpty else { return nil }
            return ["objc": "[path closePath];", "uikit": "path.close()", "cg": "path.closeSubpath()", "c": "CGPathCloseSubpath(path);"][style]
        case "arc":
            guard point == nil, let c = labelled["center"], let r = labelled["radius"], let from = labelled["from"],
                  let to = labelled["to"], labelled.count == (labelled["clockwise"] == nil ? 4 : 5) else { return nil }
            var clockwise: Bool?
            if let cw = labelled["clockwise"] {
                guard case .bool(let b) = tree[cw] else { return nil }
                clockwise = b
            }
            let onScreen = clockwise ?? true
            let (a, b) = (text(from.range), text(to.range))
            switch style {
            case "objc": return "[path addArcWithCenter:\(pointText(c)) radius:\(inner(r)) startAngle:\(a) endAngle:\(b) clockwise:\(onScreen ? "YES" : "NO")];"
            case "uikit": return "path.addArc(withCenter: \(pointText(c)), radius: \(inner(r)), startAngle: \(a), endAngle: \(b), clockwise: \(onScreen))"
            case "cg": return "path.addArc(center: \(pointText(c)), radius: \(inner(r)), startAngle: \(a), endAngle: \(b), clockwise: \(!onScreen))"
            default:
                guard let (x, y) = xy(c) else { return nil }
                return "CGPathAddArc(path, NULL, \(x), \(y), \(inner(r)), \(a), \(b), \(onScreen ? "NO" : "YES"));"
            }
        default:
            return nil
        }
    }

    static let timeAttributes: Set<String> = ["duration", "beginTime", "timeOffset", "repeatDuration"]
    static let attributeSpellings = ["from": "fromValue", "to": "toValue", "by": "byValue", "removedOnCompletion": "isRemovedOnCompletion"]

    mutating func property(_ key: KeyPathSyntax, _ value: Expr, _ range: SourceRange) -> [TextEdit] {
        let name = key.dotted
        var edits: [TextEdit] = []
        if let swift = Self.attributeSpellings[name], chance() {
            edits.append(TextEdit(range: key.range, replacement: swift))
        }
        let context: Context
        switch name {
        case _ where Self.timeAttributes.contains(name): context = .time
        case "fillMode": context = .fillMode
        case "timingFunction": context = .timing
        case "calculationMode": context = .calculationMode
        default: context = .none
        }
        return edits + expr(value, context, whole: true, attribute: name)
    }

    // MARK: Expressions

    /// The edits of `e`. `whole`: `e` is all of an attribute's value.
    mutating func expr(_ e: Expr, _ context: Context, whole: Bool = false, attribute: String = "") -> [TextEdit] {
        if let text = rewritten(e, context, whole: whole, attribute: attribute) {
            return [TextEdit(range: e.range, replacement: text)]
        }
        return children(e)
    }

    /// The edits inside `e`, leaving `e` itself as written.
    mutating func children(_ e: Expr) -> [TextEdit] {
        switch tree[e] {
        case .paren(let inner): return expr(inner, .none)
        case .tuple(let items), .list(let items): return tree[items].flatMap { expr($0, .none) }
        case .unary(_, let operand): return expr(operand, .none)
        case .binary(_, let l, let r): return expr(l, .none) + expr(r, .none)
        case .call(let callee, let arguments):
            // Angles of rotations may be spelled with π; other arguments plainly.
            let angle = ["rotate", "rotateX", "rotateY", "rotateZ"].contains(callee.name)
            return tree[arguments].flatMap { expr($0.value, angle && $0.label == nil ? .angle : .none) }
        case .pathLiteral(let body): return pathBlock(body)
        default: return []
        }
    }

    /// The text of `e` with its children respelled.
    mutating func inner(_ e: Expr) -> String {
        let edits = children(e)
        let bytes = Array(tree.file.bytes[Int(e.range.start)..<Int(e.range.end)])
        let shifted = edits.map { TextEdit(range: SourceRange(start: $0.range.start - e.range.start, end: $0.range.end - e.range.start),
                                           replacement: $0.replacement) }
        return String(decoding: applyEdits(shifted, to: bytes), as: UTF8.self)
    }

    /// `e` respelled as a whole, or nil to leave it (and respell inside it).
    mutating func rewritten(_ e: Expr, _ context: Context, whole: Bool, attribute: String) -> String? {
        guard chance() else { return nil }
        switch tree[e] {
        case .number(let v, let unit):
            let written = text(e.range)
            switch unit {
            case nil:
                guard !written.contains("e"), !written.contains("E") else { return nil }
                let f = written.contains(".") ? written + "f" : written + ".f"
                return pick(["@" + written, f, "@(\(f))", "CGFloat(\(written))", "[NSNumber numberWithDouble:\(written)]"])
            case .s? where whole && context == .time:
                let digits = String(written.dropLast())
                if attribute == "beginTime" { return pick(["CACurrentMediaTime() + \(digits)", digits]) }
                return pick([digits, "CFTimeInterval(\(digits))", "(CFTimeInterval)\(digits)"])
            case .deg? where context == .angle:
                // Exactly π's factors the C constants and `.pi` spell.
                switch v {
                case 180: return pick(["M_PI", ".pi", "Double.pi", "CGFloat.pi"])
                case 90: return pick(["M_PI_2", ".pi / 2", "M_PI / 2"])
                case 45: return pick(["M_PI_4", ".pi / 4"])
                case 360: return pick([".pi * 2", "2 * M_PI", "M_PI * 2"])
                default: return nil
                }
            default:
                return nil
            }
        case .bool(let b):
            return b ? "YES" : "NO"
        case .identifier(let name):
            guard !declared.contains(name) else { return nil }
            switch (context, name) {
            case (.fillMode, _): return pick(["kCAFillMode" + name.prefix(1).uppercased() + name.dropFirst(), "." + name, "@\"\(name)\""])
            case (.timing, "linear"), (.timing, "easeIn"), (.timing, "easeOut"), (.timing, "easeInEaseOut"), (.timing, "default"):
                let constant = "kCAMediaTimingFunction" + name.prefix(1).uppercased() + name.dropFirst()
                return pick([constant, "CAMediaTimingFunction(name: .\(name))", "[CAMediaTimingFunction functionWithName:\(constant)]",
                             ".init(name: .\(name))"])
            case (.calculationMode, _): return "kCAAnimation" + name.prefix(1).uppercased() + name.dropFirst()
            case (_, "inf"): return pick(["HUGE_VALF", "HUGE", ".infinity", "Float.greatestFiniteMagnitude", "INFINITY"])
            case (_, _) where Self.colours.contains(name):
                return pick(["UIColor.\(name).cgColor", "[UIColor \(name)Color].CGColor", "[[UIColor \(name)Color] CGColor]"])
            default: return nil
            }
        case .tuple(let items) where items.count == 2:
            let parts = tree[items].map { inner($0) }
            return pick(["CGPointMake(\(parts[0]), \(parts[1]))", "CGPoint(x: \(parts[0]), y: \(parts[1]))"])
        case .tuple(let items) where items.count == 4:
            let p = tree[items].map { inner($0) }
            return pick(["CGRectMake(\(p[0]), \(p[1]), \(p[2]), \(p[3]))", "CGRect(x: \(p[0]), y: \(p[1]), width: \(p[2]), height: \(p[3]))"])
        case .binary(.size, let w, let h):
            let a = inner(w), b = inner(h)
            return pick(["CGSizeMake(\(a), \(b))", "CGSize(width: \(a), height: \(b))"])
        case .paren(let grouped):
            // `a / (n / 3)` as C writes it, `a / CGFloat(n / 3)`: the parentheses become
            // the cast's, and the fix must put them back.
            guard case .binary(let op, _, _) = tree[grouped], [.add, .subtract, .multiply, .divide].contains(op) else { return nil }
            let body = inner(grouped)
            return pick(["CGFloat(\(body))", "Double(\(body))", "CFTimeInterval(\(body))", "@(\(body))"])
        case .binary(let op, _, _) where [.add, .subtract, .multiply, .divide].contains(op):
            // A cast around arithmetic: removing it must keep the grouping.
            return pick(["CGFloat(\(inner(e)))", "(CGFloat)(\(inner(e)))", "Double(\(inner(e)))"])
        default:
            return nil
        }
    }

    /// The colour words Swift writes as `UIColor.NAME`.
    static let colours: Set<String> = ["clear", "black", "white", "red", "green", "blue", "yellow", "cyan", "magenta", "orange",
                                       "purple", "brown", "gray", "darkGray", "lightGray"]

    static func declaredNames(in tree: SyntaxTree) -> Set<String> {
        var names: Set<String> = []
        func visit(_ b: Block) {
            for item in tree[b.items] {
                switch tree[item] {
                case .letDecl(let name, _, _), .timingDecl(let name, _), .pathDecl(let name, _): names.insert(name.name)
                case .component(let name, let params, let body):
                    names.insert(name.name)
                    for p in tree[params] { names.insert(p.name.name) }
                    visit(body)
                case .forLoop(let bindings, let body):
                    for b in tree[bindings] { names.insert(b.name.name) }
                    visit(body)
                case .layer(_, _, _, _, let body), .animation(_, _, _, _, let body, _): visit(body)
                case .ifItem(_, let then, let otherwise):
                    visit(then)
                    if let otherwise { visit(otherwise) }
                default: break
                }
            }
        }
        visit(tree.root)
        return names
    }
}
