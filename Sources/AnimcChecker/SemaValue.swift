import AnimcBase
import AnimcIR
import AnimcSyntax

/// The physical dimension of a number. Lengths are plain numbers (points).
enum Dimension: Hashable {
    case none, time, angle

    var noun: String {
        switch self {
        case .none: return "a number"
        case .time: return "a time"
        case .angle: return "an angle"
        }
    }
}

/// A value during compile-time evaluation. Richer than the IR's ``Value``: tuples are
/// not yet points or sizes, enumerations are still names, and `poison` marks a value
/// whose error was already reported so that nothing downstream reports again.
enum SemaValue {
    case number(Double, Dimension)
    case bool(Bool)
    case string(String)
    indirect case color(Color)
    /// `(a, b, ...)`; `isSize` when written `w x h`.
    case tuple([SemaValue], isSize: Bool)
    case list([SemaValue])
    indirect case range(lower: Double, upper: Double, inclusive: Bool, dimension: Dimension)
    case transform([TransformFunction])
    case path([PathElement])
    indirect case timing(TimingFunction)
    case image(String)
    /// The special `presentation` value for an animation's `from`.
    case presentation
    case component(ComponentInfo)
    /// An imported file, by the name it is imported as.
    case module(ModuleInterface)
    case poison

    var isPoison: Bool { if case .poison = self { return true } else { return false } }

    /// How the value is named in messages.
    var typeName: String {
        switch self {
        case .number(_, let d): return d.noun
        case .bool: return "a boolean"
        case .string: return "a string"
        case .color: return "a colour"
        case .tuple(let items, let isSize):
            // `(1s, 2deg)` where a point is expected is not "a point": say what is in it.
            if items.count <= 4, !isPlainNumbers {
                return (isSize ? "" : "(") + items.map(\.typeName).joined(separator: isSize ? " x " : ", ") + (isSize ? "" : ")")
            }
            if isSize { return "a size" }
            if items.count == 2 { return "a point" }
            if items.count == 4 { return "a rect" }
            return "a \(items.count)-tuple"
        case .list: return "a list"
        case .range: return "a range"
        case .transform: return "a transform"
        case .path: return "a path"
        case .timing: return "a timing function"
        case .image: return "an image"
        case .presentation: return "'presentation'"
        case .component: return "a component"
        case .module: return "an imported file"
        case .poison: return "an invalid value"
        }
    }

    /// A pair of plain numbers: a point, or a size when `isSize`.
    static func pair(_ x: Double, _ y: Double, isSize: Bool = false) -> SemaValue {
        .tuple([.number(x, .none), .number(y, .none)], isSize: isSize)
    }

    /// The numbers of a tuple whose elements are all plain numbers.
    var plainNumbers: [Double]? {
        guard case .tuple(let items, _) = self else { return nil }
        var result: [Double] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard case .number(let v, .none) = item else { return nil }
            result.append(v)
        }
        return result
    }

    /// Whether this is a tuple of plain numbers.
    var isPlainNumbers: Bool {
        guard case .tuple(let items, _) = self else { return false }
        return items.allSatisfy { if case .number(_, .none) = $0 { true } else { false } }
    }

    /// The two numbers of a plain-number pair, `(x, y)` or `w x h`.
    var plainPair: (Double, Double)? {
        guard case .tuple(let items, _) = self, items.count == 2, case .number(let x, .none) = items[0],
              case .number(let y, .none) = items[1] else { return nil }
        return (x, y)
    }

    static func vector(_ xs: [Double], isSize: Bool = false) -> SemaValue {
        .tuple(xs.map { .number($0, .none) }, isSize: isSize)
    }

    /// Exact equality, bit for bit in numbers: two values that fold to the same text
    /// and lower identically. False for poison.
    func isSame(as other: SemaValue) -> Bool {
        switch (self, other) {
        case (.number(let a, let d), .number(let b, let e)): return a.bitPattern == b.bitPattern && d == e
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.color(let a), .color(let b)):
            return a.red.bitPattern == b.red.bitPattern && a.green.bitPattern == b.green.bitPattern
                && a.blue.bitPattern == b.blue.bitPattern && a.alpha.bitPattern == b.alpha.bitPattern
        case (.tuple(let a, let s), .tuple(let b, let t)):
            return s == t && a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.range(let l1, let u1, let i1, let d1), .range(let l2, let u2, let i2, let d2)):
            return l1.bitPattern == l2.bitPattern && u1.bitPattern == u2.bitPattern && i1 == i2 && d1 == d2
        case (.timing(let a), .timing(let b)): return SemaValue.identical(a, b)
        case (.image(let a), .image(let b)): return a == b
        case (.presentation, .presentation): return true
        case (.component(let a), .component(let b)): return a === b
        case (.module(let a), .module(let b)): return a === b
        default: return false
        }
    }
}

extension SemaValue {
    /// Timing functions equal bit for bit (`==` takes -0 for 0).
    static func identical(_ a: TimingFunction, _ b: TimingFunction) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x.bitPattern == y.bitPattern }
        switch (a, b) {
        case (.linear, .linear): return true
        case let (.cubic(a1, a2, a3, a4), .cubic(b1, b2, b3, b4)): return same(a1, b1) && same(a2, b2) && same(a3, b3) && same(a4, b4)
        case let (.steps(n, p), .steps(m, q)): return n == m && p == q
        case let (.spring(s), .spring(t)):
            return same(s.mass, t.mass) && same(s.stiffness, t.stiffness) && same(s.damping, t.damping)
                && same(s.initialVelocity, t.initialVelocity) && s.allowsOverdamping == t.allowsOverdamping
        default: return false
        }
    }
}

/// A component declaration. Components are lexically scoped: an instance's body sees
/// the scope that declares the component (where a lookup finds its binding), not the
/// caller's.
final class ComponentInfo {
    let name: Identifier
    let parameterList: Children<Parameter>
    /// The parameters decoded from the tree once, where every instance binds them.
    let parameters: [Parameter]
    let body: Block
    let range: SourceRange

    init(name: Identifier, parameters: Children<Parameter>, in tree: SyntaxTree, body: Block, range: SourceRange) {
        self.name = name
        self.parameterList = parameters
        self.parameters = Array(tree[parameters])
        self.body = body
        self.range = range
    }
}

/// A named thing in a scope.
final class Binding {
    enum Kind {
        case constant, timing, path, component, parameter, loopVariable, module

        var noun: String {
            switch self {
            case .constant: return "constant"
            case .timing: return "timing function"
            case .path: return "path"
            case .component: return "component"
            case .parameter: return "parameter"
            case .loopVariable: return "loop variable"
            case .module: return "import"
            }
        }
    }

    let name: Identifier
    let kind: Kind
    /// The expression of a `let` or `timing`, evaluated on first use.
    let expr: Expr?
    /// The body of a `path` declaration.
    let pathBody: Block?
    /// An optional declared type (`let x: Time = ...`).
    let declaredType: Identifier?
    /// The value, once evaluated (in the scope that declares the binding: the scope a
    /// lookup found it in, see ``Scope/resolve(_:)``).
    var value: SemaValue?
    var evaluating = false
    /// For a binding of the file's top level, once evaluated: the top-level names its
    /// value read directly. An item that reads this binding depends on them and on what
    /// they read (see ``CheckMemo``).
    var dependencies: Set<String>?

    /// A declaration evaluated on first use, in the scope it is declared in.
    init(name: Identifier, kind: Kind, expr: Expr? = nil, pathBody: Block? = nil, declaredType: Identifier? = nil) {
        self.name = name
        self.kind = kind
        self.expr = expr
        self.pathBody = pathBody
        self.declaredType = declaredType
    }

    /// A name bound to its value from the start.
    init(name: Identifier, kind: Kind, value: SemaValue) {
        self.name = name
        self.kind = kind
        self.expr = nil
        self.pathBody = nil
        self.declaredType = nil
        self.value = value
    }
}

/// A lexical scope: a block's declarations, looked up before the enclosing block's.
///
/// Names are compared by their interned id (``Identifier/nameID``): within one tree two
/// names are equal exactly when their ids are. Most scopes hold a handful of names (a
/// loop iteration's variables, an instance's parameters) and are searched in order; one
/// that grows past a dozen (the file's top level) also gets tables by id and by text.
final class Scope {
    // Every name read walks scopes, and the dynamic exclusivity checks on these
    // properties were half of a lookup. A scope belongs to the one thread that checks
    // the file and is never passed inout, so no access to it can overlap another.
    let parent: Scope?
    /// Declaration order, so evaluation and diagnostics are deterministic.
    @exclusivity(unchecked) private(set) var bindings: [Binding] = []
    /// Past ``indexThreshold`` bindings, each name id's binding's position; a table by
    /// text is made when first asked by text (a suggestion, a pasted spelling).
    @exclusivity(unchecked) private var byID: [UInt32: Int]?
    @exclusivity(unchecked) private var byText: [String: Binding]?
    /// Whether a binding's name has no interned id (made outside the tree): the scope
    /// then answers by text.
    @exclusivity(unchecked) private var hasUnnamed = false
    private static let indexThreshold = 16

    /// Set on the file's top-level scope while an item is lowered: every name looked up
    /// there, found or not, is something the item depends on (see ``DependencyLog``).
    @exclusivity(unchecked) var observer: DependencyLog?

    init(parent: Scope?) {
        self.parent = parent
    }

    /// The binding `name` resolves to, here or further out.
    func lookup(_ name: Identifier) -> Binding? { resolve(name)?.binding }
    func lookup(_ name: String) -> Binding? { resolve(name)?.binding }

    /// The binding `name` resolves to and the scope that declares it (where it is
    /// evaluated, and a component's declaration scope).
    func resolve(_ name: Identifier) -> (binding: Binding, scope: Scope)? {
        var scope: Scope? = self
        while let s = scope {
            let found = s.local(name)
            if s.parent == nil { s.observer?.read(name.name) }
            if let found { return (found, s) }
            scope = s.parent
        }
        return nil
    }

    func resolve(_ name: String) -> (binding: Binding, scope: Scope)? {
        resolve(Identifier(name, .empty(at: 0)))
    }

    /// The binding `name` resolves to when one below the top level declares it (a
    /// parameter, a loop variable, a local `let`), without reading the top level.
    func bindingBelowTopLevel(_ name: String) -> Binding? {
        var scope: Scope? = self
        while let s = scope, s.parent != nil {
            if let b = s.local(name) { return b }
            scope = s.parent
        }
        return nil
    }

    /// This scope's own binding of `name`.
    func local(_ name: Identifier) -> Binding? {
        let id = name.nameID
        guard id != Identifier.noNameID, !hasUnnamed else { return local(name.name) }
        if let byID { return byID[id].map { bindings[$0] } }
        return bindings.first { $0.name.nameID == id }
    }

    func local(_ name: String) -> Binding? {
        guard bindings.count > Scope.indexThreshold else { return bindings.first { $0.name.name == name } }
        if byText == nil {
            var table: [String: Binding] = [:]
            for b in bindings where table[b.name.name] == nil { table[b.name.name] = b }
            byText = table
        }
        return byText?[name]
    }

    func insert(_ binding: Binding) {
        // Most scopes (an instance's parameters, a loop iteration's variables and lets)
        // hold a handful: one allocation for them, not one per doubling.
        if bindings.isEmpty { bindings.reserveCapacity(4) }
        bindings.append(binding)
        let b = binding
        if b.name.nameID == Identifier.noNameID { hasUnnamed = true }
        if byText != nil, byText?[b.name.name] == nil { byText?[b.name.name] = b }
        if byID != nil {
            if byID?[b.name.nameID] == nil { byID?[b.name.nameID] = bindings.count - 1 }
        } else if bindings.count > Scope.indexThreshold {
            var table: [UInt32: Int] = [:]
            for (i, x) in bindings.enumerated() where table[x.name.nameID] == nil { table[x.name.nameID] = i }
            byID = table
        }
    }

    /// Makes the scope read-only in practice, for other threads to read (a module's
    /// declarations, see ``ModuleInterface``): a binding not evaluated (its check stopped
    /// at a limit) is poison, the table by text is built now rather than on a lookup,
    /// and nothing observes it.
    func freeze() {
        for b in bindings where b.value == nil { b.value = .poison }
        var table: [String: Binding] = [:]
        for b in bindings where table[b.name.name] == nil { table[b.name.name] = b }
        byText = table
        observer = nil
    }

    /// How many names ``visibleNames`` lists, without listing them.
    var visibleNameCount: Int {
        var count = 0
        var scope: Scope? = self
        while let s = scope {
            count += s.bindings.count
            scope = s.parent
        }
        return count
    }

    /// Every name visible from here, for suggestions.
    var visibleNames: [String] {
        var names: [String] = []
        var scope: Scope? = self
        while let s = scope {
            names += s.bindings.map(\.name.name)
            if s.parent == nil { s.observer?.readEveryName() }
            scope = s.parent
        }
        return names
    }
}
