import AnimcBase
import AnimcDiagnostics

/// A stable, indented text dump of a syntax tree: one node per line with its range
/// as `line:column-line:column`, then one line per diagnostic. Used by goldens and by
/// `animc parse --dump`; made for reading diffs.
public enum SyntaxDump {
    public static func dump(_ tree: SyntaxTree) -> String {
        var d = Dumper(index: LineIndex(tree.file), tree: tree)
        d.block("File", tree.root, 0)
        for diag in tree.diagnostics {
            d.out += "\(diag.severity.rawValue)[\(diag.code.rawValue)] \(d.loc(diag.range)): \(diag.message)\n"
        }
        return d.out
    }
}

private struct Dumper {
    let index: LineIndex
    let tree: SyntaxTree
    var out = ""

    func loc(_ r: SourceRange) -> String {
        let a = index.location(of: r.start)
        let b = index.location(of: r.end)
        return "\(a.line):\(a.column)-\(b.line):\(b.column)"
    }

    mutating func line(_ depth: Int, _ text: String, _ range: SourceRange) {
        out += String(repeating: "  ", count: depth) + text + " @" + loc(range) + "\n"
    }

    mutating func block(_ title: String, _ b: Block, _ depth: Int) {
        line(depth, title + (b.closed ? "" : " unclosed"), b.range)
        for item in tree[b.items] { self.item(item, depth + 1) }
    }

    mutating func item(_ item: Item, _ depth: Int) {
        let r = item.range
        switch tree[item] {
        case .letDecl(let name, let type, let value):
            line(depth, "Let \(name.name)" + (type.map { ": \($0.name)" } ?? ""), r)
            expr(value, depth + 1)
        case .timingDecl(let name, let value):
            line(depth, "Timing \(name.name)", r)
            expr(value, depth + 1)
        case .importDecl(let path, let alias):
            line(depth, "Import" + (alias.map { " as=\($0.name)" } ?? ""), r)
            expr(path, depth + 1)
        case .component(let name, let params, let body):
            line(depth, "Component \(name.name)", r)
            for p in tree[params] {
                line(depth + 1, "Param \(p.name.name)" + (p.type.map { ": \($0.name)" } ?? ""), p.range)
                if let v = p.defaultValue { expr(v, depth + 2) }
            }
            block("Body", body, depth + 1)
        case .composition(let name, let body):
            line(depth, "Composition" + (name.map { " \($0.name)" } ?? ""), r)
            block("Body", body, depth + 1)
        case .pathDecl(let name, let body):
            line(depth, "PathDecl \(name.name)", r)
            block("Body", body, depth + 1)
        case .layer(let mask, let kind, let name, let indices, let body):
            line(depth, "Layer\(mask != nil ? " mask" : "") kind=\(kind.name)" + (name.map { " name=\($0.name)" } ?? ""), r)
            for i in tree[indices] { expr(i, depth + 1, prefix: "index ") }
            block("Body", body, depth + 1)
        case .instance(let name, let indices, let value):
            line(depth, "Instance \(name.name)", r)
            for i in tree[indices] { expr(i, depth + 1, prefix: "index ") }
            expr(value, depth + 1)
        case .property(let key, let value):
            line(depth, "Property \(key.dotted)", r)
            expr(value, depth + 1)
        case .animation(let kind, let target, let alias, let along, let body, _):
            var title = "Animation \(kind.name)"
            if let target { title += " target=\(target.dotted)" }
            if let alias { title += " as=\(alias.name)" }
            line(depth, title, r)
            if let along { expr(along, depth + 1, prefix: "along ") }
            block("Body", body, depth + 1)
        case .keyframe(let time, let value, let timing):
            line(depth, "Keyframe", r)
            expr(time, depth + 1, prefix: "time ")
            expr(value, depth + 1, prefix: "value ")
            if let timing { expr(timing, depth + 1, prefix: "timing ") }
        case .forLoop(let bindings, let body):
            line(depth, "For", r)
            for b in tree[bindings] {
                line(depth + 1, "Binding \(b.name.name)", b.range)
                expr(b.sequence, depth + 2)
            }
            block("Body", body, depth + 1)
        case .ifItem(let condition, let then, let otherwise):
            line(depth, "If", r)
            expr(condition, depth + 1, prefix: "condition ")
            block("Then", then, depth + 1)
            if let otherwise { block("Else", otherwise, depth + 1) }
        case .pathCommand(let name, let arguments):
            line(depth, "PathCommand \(name.name)", r)
            for a in tree[arguments] { argument(a, depth + 1) }
        case .inputDecl(let name, let type, let range, let defaultValue):
            line(depth, "Input \(name.name): \(type.name)", r)
            if let range { expr(range, depth + 1, prefix: "in ") }
            if let defaultValue { expr(defaultValue, depth + 1, prefix: "default ") }
        case .stateDecl(let name, let body):
            line(depth, "State \(name.name)", r)
            block("Body", body, depth + 1)
        case .transition(let input, let condition, let from, let to, let duration, let timing, let interruption):
            line(depth, "On \(input.name) -> \(to.name)", r)
            if let condition { expr(condition, depth + 1, prefix: "if ") }
            for state in tree[from] { expr(state, depth + 1, prefix: "from ") }
            if let duration { expr(duration, depth + 1, prefix: "with ") }
            if let timing { expr(timing, depth + 1, prefix: "with ") }
            if let interruption { line(depth + 1, "interruption \(interruption.name)", interruption.range) }
        case .error:
            line(depth, "ErrorItem", r)
        }
    }

    mutating func argument(_ a: Argument, _ depth: Int) {
        if let label = a.label {
            expr(a.value, depth, prefix: "\(label.name): ")
        } else {
            expr(a.value, depth)
        }
    }

    mutating func expr(_ e: Expr, _ depth: Int, prefix: String = "") {
        let r = e.range
        switch tree[e] {
        case .number(let v, let unit):
            line(depth, prefix + "Number \(formatNumber(v))" + (unit.map { " unit=\($0.spelling)" } ?? ""), r)
        case .string(let s):
            var escaped = ""
            for c in s.unicodeScalars {
                switch c {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                default: escaped.unicodeScalars.append(c)
                }
            }
            line(depth, prefix + "String \"\(escaped)\"", r)
        case .color(let red, let green, let blue, let alpha):
            line(depth, prefix + "Color rgba(\([red, green, blue, alpha].map { formatNumber(($0 * 1e6).rounded() / 1e6) }.joined(separator: ", ")))", r)
        case .bool(let b):
            line(depth, prefix + "Bool \(b)", r)
        case .identifier(let name):
            line(depth, prefix + "Name \(name)", r)
        case .paren(let inner):
            line(depth, prefix + "Paren", r)
            expr(inner, depth + 1)
        case .tuple(let elements):
            line(depth, prefix + "Tuple", r)
            for x in tree[elements] { expr(x, depth + 1) }
        case .list(let elements):
            line(depth, prefix + "List", r)
            for x in tree[elements] { expr(x, depth + 1) }
        case .unary(let op, let operand):
            line(depth, prefix + "Unary \(op.rawValue)", r)
            expr(operand, depth + 1)
        case .binary(let op, let l, let rhs):
            line(depth, prefix + "Binary \(op.rawValue)", r)
            expr(l, depth + 1)
            expr(rhs, depth + 1)
        case .conditional(let c, let a, let b):
            line(depth, prefix + "Conditional", r)
            expr(c, depth + 1)
            expr(a, depth + 1)
            expr(b, depth + 1)
        case .range(let lo, let hi, let inclusive):
            line(depth, prefix + "Range \(inclusive ? "..." : "..<")", r)
            expr(lo, depth + 1)
            expr(hi, depth + 1)
        case .call(let callee, let arguments):
            line(depth, prefix + "Call \(callee.name)", r)
            for a in tree[arguments] { argument(a, depth + 1) }
        case .qualifiedCall(let module, let callee, let arguments):
            line(depth, prefix + "Call \(module.name).\(callee.name)", r)
            for a in tree[arguments] { argument(a, depth + 1) }
        case .message(let receiver, let selector, let arguments):
            line(depth, prefix + "Message \(selector.name)", r)
            expr(receiver, depth + 1, prefix: "receiver ")
            for a in tree[arguments] { argument(a, depth + 1) }
        case .index(let base, let indices):
            line(depth, prefix + "Index", r)
            expr(base, depth + 1)
            for i in tree[indices] { expr(i, depth + 1, prefix: "index ") }
        case .implicitMember(let name):
            line(depth, prefix + "ImplicitMember .\(name.name)", r)
        case .member(let base, let name):
            line(depth, prefix + "Member .\(name.name)", r)
            expr(base, depth + 1)
        case .sequence(let items):
            line(depth, prefix + "Sequence", r)
            for x in tree[items] { expr(x, depth + 1) }
        case .pathLiteral(let body):
            block(prefix + "PathLiteral", body, depth)
        case .error:
            line(depth, prefix + "ErrorExpr", r)
        }
    }
}
