import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Checker {
    static let pathCommands = ["move", "line", "quad", "cubic", "arc", "close", "rect", "roundedRect", "ellipse", "circle", "add"]

    /// Evaluates a path block's commands into elements; nil after an error.
    func evalPathBlock(_ block: Block, _ scope: Scope) -> [PathElement]? {
        var elements: [PathElement] = []
        var failed = false
        expandNested(block, in: scope) { item, itemScope in
            guard case .pathCommand(let name, let arguments) = tree[item] else { return }
            if reportPastedPathBuilding(item.range, name, arguments) { failed = true; return }
            let items = tree[arguments].enumerated().map { i, argument in
                CallItem(label: argument.label?.name, value: evaluateArgument(argument, index: i, of: name.name, itemScope),
                         expr: argument.value)
            }
            let args = CallArguments(callee: name.name, items: items, range: item.range, checker: self)
            if args.hasPoison { failed = true; return }
            if let added = pathCommand(name, args, hasCurrentPoint: !elements.isEmpty) {
                elements += added
            } else {
                failed = true
            }
        }
        return failed ? nil : elements
    }

    private func pathCommand(_ name: Identifier, _ a: CallArguments, hasCurrentPoint: Bool) -> [PathElement]? {
        func point(_ slot: (SemaValue, SourceRange)?, _ what: String) -> Point? {
            a.vector(slot, count: 2, what: what).map { Point($0[0], $0[1]) }
        }
        func needsCurrentPoint() -> Bool {
            if !hasCurrentPoint {
                report(Messages.badArguments(name.range, callee: name.name, problem: "no current point",
                                             usage: "start the path with 'move (x, y)'"))
                return false
            }
            return true
        }
        switch name.name {
        case "move":
            guard let s = a.bind(["to"], required: 1, usage: "move (x, y)"), let p = point(s[0], "to") else { return nil }
            return [.move(to: p)]
        case "line":
            guard let s = a.bind(["to"], required: 1, usage: "line (x, y)"), let p = point(s[0], "to"), needsCurrentPoint() else { return nil }
            return [.line(to: p)]
        case "quad":
            guard let s = a.bind(["to", "control"], required: 2, usage: "quad (x, y) control: (cx, cy)") else { return nil }
            let p = point(s[0], "to"), c = point(s[1], "control")
            guard let p, let c, needsCurrentPoint() else { return nil }
            return [.quad(control: c, to: p)]
        case "cubic":
            guard let s = a.bind(["to", "c1", "c2"], required: 3, usage: "cubic (x, y) c1: (x1, y1) c2: (x2, y2)") else { return nil }
            let p = point(s[0], "to"), c1 = point(s[1], "c1"), c2 = point(s[2], "c2")
            guard let p, let c1, let c2, needsCurrentPoint() else { return nil }
            return [.cubic(control1: c1, control2: c2, to: p)]
        case "close":
            guard a.bind([], required: 0, usage: "close") != nil, needsCurrentPoint() else { return nil }
            return [.close]
        case "add":
            guard let s = a.bind(["path"], required: 1, usage: "add somePath"), let slot = s[0] else { return nil }
            guard case .path(let elements) = slot.0 else {
                report(Messages.typeMismatch(slot.1, expected: "a path", found: slot.0.typeName, context: "'add'"))
                return nil
            }
            return elements
        case "arc", "rect", "roundedRect", "ellipse", "circle":
            return shapeElements(name.name, a)
        default:
            reportSuggesting(name.name, among: Checker.pathCommands.count, { Checker.pathCommands }) {
                Messages.unknownFunction(name.range, name: name.name, suggestion: $0)
            }
            return nil
        }
    }

    /// The shape functions, usable as values (`path: circle(center: (0, 0), radius: 10)`)
    /// and as path commands. They follow CGPath's `add...` functions, including where
    /// each shape starts and which way it turns, so `strokeEnd` animations match.
    func shapeElements(_ name: String, _ a: CallArguments) -> [PathElement]? {
        func rect(_ slot: (SemaValue, SourceRange)?) -> Rect? {
            guard let (v, r) = slot else { return nil }
            if let xs = v.plainNumbers {
                if xs.count == 4 { return Rect(xs[0], xs[1], xs[2], xs[3]) }
                if xs.count == 2, case .tuple(_, true) = v { return Rect(0, 0, xs[0], xs[1]) }
            }
            if !v.isPoison { report(Messages.typeMismatch(r, expected: "a rect (x, y, w, h) or a size w x h", found: v.typeName, context: "'\(name)'")) }
            return nil
        }
        switch name {
        case "arc":
            guard let s = a.bind(name) else { return nil }
            // Every argument is checked before any failure returns: one run, every mistake.
            let c = a.vector(s[0], count: 2, what: "center"), r = a.number(s[1], what: "radius"),
                from = a.number(s[2], .angle, what: "from"), to = a.number(s[3], .angle, what: "to"),
                clockwise = s[4] == nil ? true : a.bool(s[4], what: "clockwise")
            guard let c, let r, let from, let to, let cw = clockwise else { return nil }
            guard r >= 0 else {
                report(Messages.outOfRange(s[1]?.1 ?? a.range, what: "radius", value: formatNumber(r), valid: "0 or more"))
                return nil
            }
            return [.arc(center: Point(c[0], c[1]), radius: r, startAngle: from, endAngle: to, clockwise: cw)]
        case "circle":
            guard let s = a.bind("circle") else { return nil }
            let c = a.vector(s[0], count: 2, what: "center"), r = a.number(s[1], what: "radius")
            guard let c, let r else { return nil }
            return [.arc(center: Point(c[0], c[1]), radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true), .close]
        case "rect":
            if a.items.count == 4 {
                guard let s = a.bind(Builtins.rectOfComponents) else { return nil }
                var v: [Double] = []
                for (i, label) in ["x", "y", "width", "height"].enumerated() {
                    guard let x = a.number(s[i], what: label) else { return nil }
                    v.append(x)
                }
                return rectElements(Rect(v[0], v[1], v[2], v[3]))
            }
            guard let s = a.bind(name), let r = rect(s[0]) else { return nil }
            return rectElements(r)
        case "ellipse":
            guard let s = a.bind("ellipse"), let r = rect(s[0]) else { return nil }
            return ellipseElements(r)
        case "roundedRect":
            guard let s = a.bind("roundedRect") else { return nil }
            let r = rect(s[0]), radius = a.number(s[1], what: "radius")
            guard let r, let radius else { return nil }
            return roundedRectElements(r, radius)
        default:
            return nil
        }
    }

    private func rectElements(_ r: Rect) -> [PathElement] {
        [.move(to: Point(r.x, r.y)), .line(to: Point(r.x + r.width, r.y)), .line(to: Point(r.x + r.width, r.y + r.height)),
         .line(to: Point(r.x, r.y + r.height)), .close]
    }

    /// Four cubics from the right-hand point, turning with increasing angle as
    /// `CGPath.addEllipse(in:)` does.
    private func ellipseElements(_ r: Rect) -> [PathElement] {
        let k = 0.5522847498307936  // 4/3·(√2 − 1): the standard quarter-circle Bézier
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2
        let rx = r.width / 2, ry = r.height / 2
        return [
            .move(to: Point(cx + rx, cy)),
            .cubic(control1: Point(cx + rx, cy + k * ry), control2: Point(cx + k * rx, cy + ry), to: Point(cx, cy + ry)),
            .cubic(control1: Point(cx - k * rx, cy + ry), control2: Point(cx - rx, cy + k * ry), to: Point(cx - rx, cy)),
            .cubic(control1: Point(cx - rx, cy - k * ry), control2: Point(cx - k * rx, cy - ry), to: Point(cx, cy - ry)),
            .cubic(control1: Point(cx + k * rx, cy - ry), control2: Point(cx + rx, cy - k * ry), to: Point(cx + rx, cy)),
            .close,
        ]
    }

    private func roundedRectElements(_ r: Rect, _ radius: Double) -> [PathElement] {
        let rr = max(0, min(radius, r.width / 2, r.height / 2))
        let minX = r.x, minY = r.y, maxX = r.x + r.width, maxY = r.y + r.height
        let half = Double.pi / 2
        return [
            .move(to: Point(minX + rr, minY)),
            .line(to: Point(maxX - rr, minY)),
            .arc(center: Point(maxX - rr, minY + rr), radius: rr, startAngle: -half, endAngle: 0, clockwise: true),
            .line(to: Point(maxX, maxY - rr)),
            .arc(center: Point(maxX - rr, maxY - rr), radius: rr, startAngle: 0, endAngle: half, clockwise: true),
            .line(to: Point(minX + rr, maxY)),
            .arc(center: Point(minX + rr, maxY - rr), radius: rr, startAngle: half, endAngle: .pi, clockwise: true),
            .line(to: Point(minX, minY + rr)),
            .arc(center: Point(minX + rr, minY + rr), radius: rr, startAngle: .pi, endAngle: 3 * half, clockwise: true),
            .close,
        ]
    }
}
