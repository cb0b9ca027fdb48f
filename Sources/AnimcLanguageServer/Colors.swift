import AnimcBase
import AnimcChecker
import AnimcIR
import AnimcSyntax

/// Colour swatches and the picker (`textDocument/documentColor`, `colorPresentation`):
/// the colours a file writes as literals, and how a picked colour is written back.
extension LanguageServer {
    /// A colour the text writes, and where.
    struct WrittenColor: Equatable {
        var range: SourceRange
        var color: Color
    }

    func documentColors(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        return .array(Self.writtenColors(a).map { c in
            obj(("range", a.positions.json(c.range)),
                ("color", obj(("red", .number(c.color.red)), ("green", .number(c.color.green)), ("blue", .number(c.color.blue)),
                              ("alpha", .number(c.color.alpha)))))
        })
    }

    func colorPresentations(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try currentAnalysis(r)
        guard let c = r["color"], let red = c["red"]?.numberValue, let green = c["green"]?.numberValue,
              let blue = c["blue"]?.numberValue, let alpha = c["alpha"]?.numberValue,
              let range = a.positions.range(r["range"]) else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing color or range")
        }
        return .array(Self.spellings(of: Color(red: red, green: green, blue: blue, alpha: alpha)).map { text in
            obj(("label", .string(text)), ("textEdit", obj(("range", a.positions.json(range)), ("newText", .string(text)))))
        })
    }

    /// Every colour written with literals: `#RRGGBB` (any of its lengths), `rgb`, `rgba`,
    /// `hsb` and `hsba` of plain numbers, and the built-in names (`white`) where no
    /// declaration of the file takes the name. Read off the tokens, so a file being typed
    /// still shows the swatches it has; what is computed (`rgb(x, 0, 0)`) has none.
    static func writtenColors(_ a: Analysis) -> [WrittenColor] {
        let tokens = a.lexTokens()
        let file = a.file
        var declared: Set<UInt32>?
        var colors: [WrittenColor] = []
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            defer { i += 1 }
            switch t.kind {
            case .color:
                if let (r, g, b, alpha) = LiteralValue.color(file.text(t.range)[...]) {
                    colors.append(WrittenColor(range: t.range, color: Color(red: r, green: g, blue: b, alpha: alpha)))
                }
            case .identifier:
                let name = file.text(t.range)
                let previous = i > 0 ? tokens[i - 1].kind : nil, next = i + 1 < tokens.count ? tokens[i + 1].kind : nil
                if next == .lParen, let (color, end) = call(name, tokens, from: i + 2, file) {
                    colors.append(WrittenColor(range: SourceRange(start: t.range.start, end: tokens[end].range.end), color: color))
                    i = end
                } else if let color = LanguageFacts.color(named: name), previous != .dot, next != .colon, next != .lParen, next != .equal {
                    // `let white = ...` or a parameter named `red` takes the name.
                    let names = declared ?? Set(a.names.references.map(\.range.start) + a.names.declarations.map(\.range.start))
                    declared = names
                    if !names.contains(t.range.start) { colors.append(WrittenColor(range: t.range, color: color)) }
                }
            default:
                continue
            }
        }
        return colors
    }

    /// `name(n, n, n[, n])` from the token after its `(`: the colour, and the index of
    /// its `)`. Labels (`red:`) may name the channels; a channel is a plain number.
    private static func call(_ name: String, _ tokens: [Token], from start: Int, _ file: SourceFile) -> (Color, Int)? {
        guard ["rgb", "rgba", "hsb", "hsba"].contains(name) else { return nil }
        var channels: [Double] = []
        var k = start
        while k < tokens.count, channels.count < 4 {
            if tokens[k].kind == .identifier, k + 1 < tokens.count, tokens[k + 1].kind == .colon { k += 2 }
            guard k < tokens.count, tokens[k].kind == .number, let (value, unit) = LiteralValue.number(file.text(tokens[k].range)[...]),
                  unit == nil else { return nil }
            channels.append(value)
            k += 1
            guard k < tokens.count else { return nil }
            if tokens[k].kind == .rParen {
                return LanguageFacts.color(calling: name, channels: channels).map { ($0, k) }
            }
            guard tokens[k].kind == .comma else { return nil }
            k += 1
        }
        return nil
    }

    /// How a picked colour may be written: `rgb`/`rgba` of 0–255 channels and the hex
    /// literal, channels rounded to the nearest of 256 levels (alpha to three places).
    static func spellings(of c: Color) -> [String] {
        let r = level(c.red), g = level(c.green), b = level(c.blue)
        let alpha = min(max(c.alpha.isNaN ? 1 : c.alpha, 0), 1)
        if level(alpha) == 255 { return ["rgb(\(r), \(g), \(b))", "#" + hexDigits([r, g, b])] }
        let a = formatNumber((alpha * 1000).rounded() / 1000)
        return ["rgba(\(r), \(g), \(b), \(a))", "#" + hexDigits([r, g, b, level(alpha)])]
    }

    /// A channel in 0...1 as the nearest of 256 levels (NaN as 0).
    static func level(_ x: Double) -> Int { Int((min(max(x.isNaN ? 0 : x, 0), 1) * 255).rounded()) }

    /// Levels as two lowercase hex digits each.
    static func hexDigits(_ levels: [Int]) -> String { levels.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}
