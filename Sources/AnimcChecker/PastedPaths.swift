import AnimcBase
import AnimcDiagnostics
import AnimcPorting
import AnimcSyntax

/// Path building pasted into a path block, one statement a line:
///
/// - UIBezierPath in Objective-C: `[path moveToPoint:p]`, `addLineToPoint:`,
///   `addCurveToPoint:controlPoint1:controlPoint2:`, `addQuadCurveToPoint:controlPoint:`,
///   `addArcWithCenter:radius:startAngle:endAngle:clockwise:`, `closePath`, `appendPath:`;
/// - UIBezierPath in Swift: `path.move(to:)`, `addLine(to:)`, `addCurve(to:controlPoint1:controlPoint2:)`,
///   `addQuadCurve(to:controlPoint:)`, `addArc(withCenter:...)`, `close()`, `append(_:)`;
/// - CGMutablePath in Swift: `addCurve(to:control1:control2:)`, `addQuadCurve(to:control:)`,
///   `addArc(center:...)`, `closeSubpath()`, `addRect(_:)`, `addEllipse(in:)`, `addPath(_:)`;
/// - Core Graphics in C: `CGPathMoveToPoint(path, NULL, x, y)`, `CGPathAddLineToPoint`,
///   `CGPathAddCurveToPoint`, `CGPathAddQuadCurveToPoint`, `CGPathAddArc`,
///   `CGPathCloseSubpath`, `CGPathAddRect`, `CGPathAddEllipseInRect`.
///
/// Each is E0323 with the `.anim` command as its fix-it, made from the statement's
/// syntax (its arguments' text, ported). **Meaning kept**: the command draws the same
/// element. UIKit's `clockwise` is `.anim`'s (on screen); Core Graphics' is the
/// opposite in UIKit's flipped space (Apple: "specifying a clockwise arc results in a
/// counterclockwise arc"), so its fix writes the other literal, and there is no fix
/// when the flag is not a literal. A statement with a transform other than `NULL`,
/// `nil` or none gets no fix.
extension Checker {
    /// Reports a pasted statement of path building (see above); false when `name` is
    /// an ordinary command.
    func reportPastedPathBuilding(_ range: SourceRange, _ name: Identifier, _ arguments: Children<Argument>) -> Bool {
        let written: String, command: String?
        if name.name == ContextualKeywords.pastedPathStatement, let statement = tree[arguments].first?.value {
            switch tree[statement] {
            case .message(_, let selector, let pieces):
                written = "[... " + selector.name + "]"
                command = porter.pastedPathMessage(selector.name, Array(tree[pieces]))
            case .qualifiedCall(_, let callee, let swiftArguments):
                written = "." + callee.name + "(...)"
                command = porter.pastedPathMethod(callee.name, Array(tree[swiftArguments]))
            default:
                report(CheckerDiagnostics.swiftSpelling.at(
                    range, "a path block holds path commands", label: "not a command",
                    help: "write one of move, line, quad, cubic, arc, close, rect, roundedRect, ellipse, circle or add"))
                return true
            }
        } else if name.name.hasPrefix("CGPath"), let c = porter.pastedPathFunction(name.name, Array(tree[arguments])) {
            written = name.name + "(...)"
            command = c
        } else {
            return false
        }
        if let command {
            reportSpelling(at: range, written: written, replacement: command, note: "path building, one command a line")
        } else {
            report(CheckerDiagnostics.swiftSpelling.at(
                range, "'\(written)' is Swift or Objective-C path building, not .anim", label: "pasted path building",
                help: "write the path command it makes; the porting table in the language reference lists them"))
        }
        return true
    }
}
