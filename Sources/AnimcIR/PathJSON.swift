import AnimcBase

extension PathElement {
    /// The element as a JSON array, `["move", x, y]` ... `["close"]`: the one form
    /// paths take in every output (the timeline and the baked format, docs/formats.md),
    /// so the two cannot drift apart. The timeline loader reads it back.
    public var json: JSONValue {
        switch self {
        case .move(let q): return ["move", .number(q.x), .number(q.y)]
        case .line(let q): return ["line", .number(q.x), .number(q.y)]
        case .quad(let c, let q): return ["quad", .number(c.x), .number(c.y), .number(q.x), .number(q.y)]
        case .cubic(let c1, let c2, let q):
            return ["cubic", .number(c1.x), .number(c1.y), .number(c2.x), .number(c2.y), .number(q.x), .number(q.y)]
        case .arc(let c, let r, let a0, let a1, let cw):
            return ["arc", .number(c.x), .number(c.y), .number(r), .number(a0), .number(a1), .bool(cw)]
        case .close: return ["close"]
        }
    }
}
