import AnimcBase
import AnimcSyntax

/// The `.anim` commands of pasted path building (see the checker's `PastedPaths.swift`
/// for what is met where, and the meaning each keeps).
extension Porter {
    private func point(_ e: Expr?) -> String? { e.map { argumentText($0, angle: false) } }

    /// `[path addArcWithCenter:c radius:r ...]`: the first argument is labelled with the
    /// selector's first piece.
    public func pastedPathMessage(_ selector: String, _ args: [Argument]) -> String? {
        func piece(_ label: String) -> Expr? { args.first { $0.label?.name == label }?.value }
        switch selector {
        case "moveToPoint": return point(piece(selector)).map { "move " + $0 }
        case "addLineToPoint": return point(piece(selector)).map { "line " + $0 }
        case "addCurveToPoint":
            guard let p = point(piece(selector)), let c1 = point(piece("controlPoint1")), let c2 = point(piece("controlPoint2")) else { return nil }
            return "cubic \(p) c1: \(c1) c2: \(c2)"
        case "addQuadCurveToPoint":
            guard let p = point(piece(selector)), let c = point(piece("controlPoint")) else { return nil }
            return "quad \(p) control: \(c)"
        case "addArcWithCenter":
            return arcCommand(piece(selector), piece("radius"), piece("startAngle"), piece("endAngle"), piece("clockwise"), flipped: false)
        case "closePath": return args.isEmpty ? "close" : nil
        case "appendPath": return point(piece(selector)).map { "add " + $0 }
        default: return nil
        }
    }

    /// `path.move(to: p)` (UIBezierPath or CGMutablePath, told apart by their labels).
    public func pastedPathMethod(_ method: String, _ args: [Argument]) -> String? {
        func labelled(_ label: String?) -> Expr? { args.first { $0.label?.name == label }?.value }
        guard labelled("transform").map(isNullTransform) ?? true else { return nil }
        switch method {
        case "move": return point(labelled("to")).map { "move " + $0 }
        case "addLine": return point(labelled("to")).map { "line " + $0 }
        case "addCurve":
            guard let p = point(labelled("to")), let c1 = point(labelled("controlPoint1") ?? labelled("control1")),
                  let c2 = point(labelled("controlPoint2") ?? labelled("control2")) else { return nil }
            return "cubic \(p) c1: \(c1) c2: \(c2)"
        case "addQuadCurve":
            guard let p = point(labelled("to")), let c = point(labelled("controlPoint") ?? labelled("control")) else { return nil }
            return "quad \(p) control: \(c)"
        case "addArc":
            if let center = labelled("withCenter") {
                return arcCommand(center, labelled("radius"), labelled("startAngle"), labelled("endAngle"), labelled("clockwise"), flipped: false)
            }
            return arcCommand(labelled("center"), labelled("radius"), labelled("startAngle"), labelled("endAngle"), labelled("clockwise"),
                              flipped: true)
        case "close", "closeSubpath": return args.isEmpty ? "close" : nil
        case "append", "addPath": return point(labelled(nil)).map { "add " + $0 }
        case "addRect": return point(labelled(nil)).map { "rect " + $0 }
        case "addEllipse": return point(labelled("in")).map { "ellipse " + $0 }
        default: return nil
        }
    }

    /// Core Graphics' path functions and how many arguments each takes.
    private static let pathFunctionArity = ["CGPathMoveToPoint": 4, "CGPathAddLineToPoint": 4, "CGPathAddCurveToPoint": 8,
                                            "CGPathAddQuadCurveToPoint": 6, "CGPathAddArc": 8, "CGPathCloseSubpath": 1,
                                            "CGPathAddRect": 3, "CGPathAddEllipseInRect": 3]

    /// `CGPathMoveToPoint(path, NULL, x, y)` and its kin: the path, a transform, then
    /// the numbers. Nil when `name` is none of them; `.some(nil)` when it is, but its
    /// arguments have no exact command (a transform, a count that does not fit).
    public func pastedPathFunction(_ name: String, _ args: [Argument]) -> String?? {
        guard let count = Self.pathFunctionArity[name] else { return nil }
        guard args.count == count, args.allSatisfy({ $0.label == nil }), count == 1 || isNullTransform(args[1].value) else { return .some(nil) }
        func v(_ i: Int) -> String { argumentText(args[i].value, angle: false) }
        func pair(_ i: Int) -> String { "(\(v(i)), \(v(i + 1)))" }
        switch name {
        case "CGPathMoveToPoint": return "move " + pair(2)
        case "CGPathAddLineToPoint": return "line " + pair(2)
        case "CGPathAddCurveToPoint": return "cubic \(pair(6)) c1: \(pair(2)) c2: \(pair(4))"
        case "CGPathAddQuadCurveToPoint": return "quad \(pair(4)) control: \(pair(2))"
        case "CGPathAddArc":
            return .some(arcCommand(nil, args[4].value, args[5].value, args[6].value, args[7].value, flipped: true, center: pair(2)))
        case "CGPathCloseSubpath": return "close"
        case "CGPathAddRect": return "rect " + v(2)
        default: return "ellipse " + v(2)
        }
    }

    /// `arc center: c radius: r from: a to: b clockwise: cw`, the angles ported as
    /// angles. `flipped`: Core Graphics' flag, the opposite of UIKit's on screen.
    private func arcCommand(_ centerExpr: Expr?, _ radius: Expr?, _ start: Expr?, _ end: Expr?, _ clockwise: Expr?,
                            flipped: Bool, center: String? = nil) -> String? {
        guard let c = center ?? point(centerExpr), let r = point(radius), let start, let end, let clockwise else { return nil }
        let cw: String
        if flipped {
            guard let literal = booleanLiteral(clockwise) else { return nil }
            cw = literal ? "false" : "true"
        } else {
            cw = booleanLiteral(clockwise).map { $0 ? "true" : "false" } ?? argumentText(clockwise, angle: false)
        }
        return "arc center: \(c) radius: \(r) from: \(argumentText(start, angle: true)) to: \(argumentText(end, angle: true)) clockwise: \(cw)"
    }

    /// `true`, `YES`, `1` and their opposites, as C and Swift write a flag.
    private func booleanLiteral(_ e: Expr) -> Bool? {
        switch tree[e] {
        case .bool(let b): return b
        case .identifier(let n):
            switch n {
            case "true", "YES", "TRUE": return true
            case "false", "NO", "FALSE": return false
            default: return nil
            }
        case .number(let x, nil) where x == 0 || x == 1: return x == 1
        case .paren(let inner): return booleanLiteral(inner)
        default: return nil
        }
    }

    /// No transform: null, or the identity (`.identity`, `CGAffineTransform.identity`).
    private func isNullTransform(_ e: Expr) -> Bool {
        switch tree[e] {
        case .member(_, let n), .implicitMember(let n): return n.name == "identity"
        default: return isNull(e)
        }
    }
}
