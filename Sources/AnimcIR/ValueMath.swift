/// Arithmetic on IR values: the checker resolves `by` and component assignments with
/// it, and an event script's transitions add the difference between two states.
public enum ValueMath {
    /// `a + b` for types that add (CABasicAnimation's `by`); transforms concatenate.
    public static func add(_ a: Value, _ b: Value) -> Value? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + y)
        case (.point(let p), .point(let q)): return .point(Point(p.x + q.x, p.y + q.y))
        case (.size(let p), .size(let q)): return .size(Size(p.width + q.width, p.height + q.height))
        case (.rect(let p), .rect(let q)): return .rect(Rect(p.x + q.x, p.y + q.y, p.width + q.width, p.height + q.height))
        case (.color(let p), .color(let q)):
            return .color(Color(red: p.red + q.red, green: p.green + q.green, blue: p.blue + q.blue, alpha: p.alpha + q.alpha))
        case (.transform(let p), .transform(let q)): return .transform(Transform(p.functions + q.functions))
        default: return nil
        }
    }

    /// `a - b`, the inverse of ``add(_:_:)`` where one exists (not for transforms).
    public static func subtract(_ a: Value, _ b: Value) -> Value? {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x - y)
        case (.point(let p), .point(let q)): return .point(Point(p.x - q.x, p.y - q.y))
        case (.size(let p), .size(let q)): return .size(Size(p.width - q.width, p.height - q.height))
        case (.rect(let p), .rect(let q)): return .rect(Rect(p.x - q.x, p.y - q.y, p.width - q.width, p.height - q.height))
        case (.color(let p), .color(let q)):
            return .color(Color(red: p.red - q.red, green: p.green - q.green, blue: p.blue - q.blue, alpha: p.alpha - q.alpha))
        default: return nil
        }
    }

    /// `a · k` for types that subtract (a transition's progress of a change).
    public static func scale(_ a: Value, by k: Double) -> Value? {
        switch a {
        case .number(let x): return .number(x * k)
        case .point(let p): return .point(Point(p.x * k, p.y * k))
        case .size(let s): return .size(Size(s.width * k, s.height * k))
        case .rect(let r): return .rect(Rect(r.x * k, r.y * k, r.width * k, r.height * k))
        case .color(let c): return .color(Color(red: c.red * k, green: c.green * k, blue: c.blue * k, alpha: c.alpha * k))
        default: return nil
        }
    }

    /// How far apart `a` and `b` are, per component (|b − a|), for types that subtract.
    public static func distances(_ a: Value, _ b: Value) -> [Double]? {
        switch subtract(b, a) {
        case .number(let x)?: return [abs(x)]
        case .point(let p)?: return [abs(p.x), abs(p.y)]
        case .size(let s)?: return [abs(s.width), abs(s.height)]
        case .rect(let r)?: return [abs(r.x), abs(r.y), abs(r.width), abs(r.height)]
        case .color(let c)?: return [abs(c.red), abs(c.green), abs(c.blue), abs(c.alpha)]
        default: return nil
        }
    }

    /// The model value with one component replaced (`position.x: 10`).
    public static func setting(_ component: KeyPathComponent, of value: Value, to part: Value) -> Value? {
        switch (value, component, part) {
        case (.point(var p), .x, .number(let v)): p.x = v; return .point(p)
        case (.point(var p), .y, .number(let v)): p.y = v; return .point(p)
        case (.size(var s), .width, .number(let v)): s.width = v; return .size(s)
        case (.size(var s), .height, .number(let v)): s.height = v; return .size(s)
        case (.rect(var r), .originX, .number(let v)): r.x = v; return .rect(r)
        case (.rect(var r), .originY, .number(let v)): r.y = v; return .rect(r)
        case (.rect(var r), .width, .number(let v)): r.width = v; return .rect(r)
        case (.rect(var r), .height, .number(let v)): r.height = v; return .rect(r)
        case (.rect(var r), .origin, .point(let p)): r.x = p.x; r.y = p.y; return .rect(r)
        case (.rect(var r), .size, .size(let s)): r.width = s.width; r.height = s.height; return .rect(r)
        default: return nil
        }
    }

    /// The component a key path selects from a model value, for comparisons with an
    /// animation's first value. Transform components are read only from plain lists.
    public static func component(_ component: KeyPathComponent?, of value: Value) -> Value? {
        guard let component else { return value }
        switch (value, component) {
        case (.point(let p), .x): return .number(p.x)
        case (.point(let p), .y): return .number(p.y)
        case (.size(let s), .width): return .number(s.width)
        case (.size(let s), .height): return .number(s.height)
        case (.rect(let r), .originX): return .number(r.x)
        case (.rect(let r), .originY): return .number(r.y)
        case (.rect(let r), .width): return .number(r.width)
        case (.rect(let r), .height): return .number(r.height)
        case (.rect(let r), .origin): return .point(Point(r.x, r.y))
        case (.rect(let r), .size): return .size(Size(r.width, r.height))
        case (.transform(let t), _) where t.functions.isEmpty:
            switch component {
            case .scale, .scaleX, .scaleY, .scaleZ, .scaleXY: return .number(1)
            case .translation: return .size(Size(0, 0))
            default: return .number(0)
            }
        default: return nil
        }
    }
}
