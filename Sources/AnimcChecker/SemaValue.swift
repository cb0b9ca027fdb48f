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
///
/// Only the large payloads are boxed: every expression evaluates to one of these, and
/// boxing all of them cost a heap allocation per number.
enum SemaValue {
    case number(Double, Dimension)
    case bool(Bool)
    case string(String)
    indirect case color(Color)
    /// `(a, b, ...)`; `isSize` when written `w x h`.
    case tuple(TupleItems, isSize: Bool)
    case list([SemaValue])
    indirect case range(lower: Double, upper: Double, inclusive: Bool, dimension: Dimension)
    case transform([TransformFunction])
    case path([PathElement])
    indirect case timing(TimingFunction)
    case image(String)
    /// The special `presentation` value for an animation's `from`.
    case presentation
    case component(ComponentInfo)
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
        case .poison: return "an invalid value"
        }
    }

    /// A tuple of the given items.
    static func tuple(_ items: [SemaValue], isSize: Bool) -> SemaValue { .tuple(TupleItems(items), isSize: isSize) }

    /// A pair of plain numbers: a point, or a size when `isSize`.
    static func pair(_ x: Double, _ y: Double, isSize: Bool = false) -> SemaValue { .tuple(TupleItems(x, y), isSize: isSize) }

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

    /// The two numbers of a plain-number pair, `(x, y)` or `w x h`, without building an
    /// array: every point and size property reads one.
    var plainPair: (Double, Double)? {
        guard case .tuple(let items, _) = self else { return nil }
        return items.plainPair
    }

    /// Whether ``plainNumbers`` is non-nil, without building the array.
    var isPlainNumbers: Bool {
        guard case .tuple(let items, _) = self else { return false }
        for item in items {
            guard case .number(_, .none) = item else { return false }
        }
        return true
    }

    static func vector(_ xs: [Double], isSize: Bool = false) -> SemaValue {
        if xs.count == 2 { return .pair(xs[0], xs[1], isSize: isSize) }
        return .tuple(xs.map { .number($0, .none) }, isSize: isSize)
    }
}

/// The items of a tuple value.
///
/// Most tuples are points and sizes: two plain numbers, held here inline. As an array
/// each was a heap allocation, freed through the generic array destruction, and every
/// copy of the value retained and released it: a grid's instance made and dropped
/// several (its position, its offset, what the arithmetic on them gave). Any other
/// tuple keeps its items in an array. Which form a tuple takes is decided here alone,
/// so the two never hold the same items: a pair of plain numbers is always inline.
struct TupleItems: RandomAccessCollection {
    private enum Storage {
        case pair(Double, Double)
        case array([SemaValue])
    }

    private let storage: Storage

    init(_ items: [SemaValue]) {
        if items.count == 2, case .number(let x, .none) = items[0], case .number(let y, .none) = items[1] {
            storage = .pair(x, y)
        } else {
            storage = .array(items)
        }
    }

    init(_ x: Double, _ y: Double) { storage = .pair(x, y) }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .pair: return 2
        case .array(let items): return items.count
        }
    }

    subscript(position: Int) -> SemaValue {
        switch storage {
        case .pair(let x, let y):
            precondition(position == 0 || position == 1, "tuple index out of range")
            return .number(position == 0 ? x : y, .none)
        case .array(let items): return items[position]
        }
    }

    /// The two numbers when the tuple is a pair of plain numbers.
    var plainPair: (Double, Double)? {
        if case .pair(let x, let y) = storage { return (x, y) }
        return nil
    }
}

/// A component declaration, with the scope it was declared in (components are
/// lexically scoped: their bodies see the declaration's surroundings, not the caller's).
final class ComponentInfo {
    let name: Identifier
    /// The parameters read out of the tree once: every instance binds its arguments to
    /// them, and reading them again per instance made each name's string anew.
    let parameters: [Parameter]
    /// Each parameter's interned name, in order: what every instance matches its
    /// argument labels against, without copying a parameter (and its strings) to ask.
    let parameterIDs: [UInt32]
    /// Whether the parameters' names are distinct interned names: an instance's
    /// parameters then go into its empty scope without a look for a duplicate.
    let parametersDistinct: Bool
    let body: Block
    /// The declarations of the body, which go in an instance's scope beside the
    /// parameters (so that scope is sized once).
    let declarationCount: Int
    /// Unowned: the scope holds the binding that holds this, and a cycle would keep
    /// every scope of a loop alive. Instances are checked only where the component is
    /// visible, so while its scope lives.
    unowned let scope: Scope
    let range: SourceRange
    /// Where the checker keeps the scope of this component's instances for the next
    /// one (``Checker/instanceScopes``): one per declaration in the text.
    let recyclerIndex: Int

    init(name: Identifier, parameters: [Parameter], body: Block, declarationCount: Int, scope: Scope, range: SourceRange,
         recyclerIndex: Int) {
        self.name = name
        self.parameters = parameters
        parameterIDs = parameters.map(\.name.nameID)
        parametersDistinct = !parameterIDs.contains(Identifier.noNameID) && Set(parameterIDs).count == parameterIDs.count
        self.body = body
        self.declarationCount = declarationCount
        self.scope = scope
        self.range = range
        self.recyclerIndex = recyclerIndex
    }
}

/// A named thing in a scope.
final class Binding {
    enum Kind {
        case constant, timing, path, component, parameter, loopVariable

        var noun: String {
            switch self {
            case .constant: return "constant"
            case .timing: return "timing function"
            case .path: return "path"
            case .component: return "component"
            case .parameter: return "parameter"
            case .loopVariable: return "loop variable"
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
    /// The scope the expression is evaluated in. Unowned, because that scope holds
    /// this binding: a strong reference made every loop iteration's scope immortal (5
    /// million iterations kept 3 GB alive). A binding is evaluated only when found
    /// through a live scope or by the `expand` of its own scope, so its scope lives.
    /// (Weak cost a side table per scope, 15% of a loop's time.) Nil for a binding made
    /// with its value (a parameter, a loop variable, a component), which never evaluates
    /// anything: holding its scope unowned cost reference counting on every instance
    /// and iteration for nothing.
    unowned let scope: Scope?
    var value: SemaValue?
    var evaluating = false
    /// Whether hover already says "varies" for this declaration (``Checker/recordFolded(_:_:)``):
    /// a recycled binding (an instance's parameter) then records nothing more without
    /// looking its declaration up in the hover table.
    var foldedVaries = false
    /// For a binding of the file's top level, once evaluated: the top-level names its
    /// value read directly. An item that reads this binding depends on them and on what
    /// they read (see ``CheckMemo``).
    var dependencies: Set<String>?

    /// A declaration evaluated on first use, in `scope`.
    init(name: Identifier, kind: Kind, expr: Expr? = nil, pathBody: Block? = nil, declaredType: Identifier? = nil,
         scope: Scope) {
        self.name = name
        self.kind = kind
        self.expr = expr
        self.pathBody = pathBody
        self.declaredType = declaredType
        self.scope = scope
        self.value = nil
    }

    /// A name bound to its value from the start.
    init(name: Identifier, kind: Kind, value: SemaValue) {
        self.name = name
        self.kind = kind
        self.expr = nil
        self.pathBody = nil
        self.declaredType = nil
        self.scope = nil
        self.value = value
    }
}

/// A lexical scope: a block's declarations, looked up before the enclosing block's.
///
/// Almost every scope (a block, a loop iteration, a component's parameters) holds a
/// handful of names or none, and loops create one per iteration: the names live in a
/// short list searched linearly (``BindingList``), and only a scope that grows large
/// (the file's top level) also gets a dictionary.
final class Scope {
    let parent: Scope?
    // Lookups are a third of a template's check, and the dynamic exclusivity checks on
    // these properties were a third of each lookup. Each is only ever read, or replaced
    // whole, by the one thread that checks the file: no access can overlap another.

    /// Declaration order, so evaluation and diagnostics are deterministic.
    @exclusivity(unchecked) private(set) var bindings = BindingList()
    @exclusivity(unchecked) private var index: NameTable<Binding>?
    private static let indexThreshold = 12
    /// For a scope past the threshold, its bindings by interned name: entry `i` is one
    /// more than the position in ``bindings`` of the binding named by name `i` of the
    /// tree, 0 for none. Every binding is declared by a name of the tree, so a lookup
    /// that knows its name's id reads one entry instead of hashing the name; the file's
    /// top level, where components and constants live, is such a scope.
    @exclusivity(unchecked) private var byNameID: [Int32] = []
    /// Whether a binding was declared without an interned name (none is today): the
    /// scope then answers by name only.
    private var hasUnnamed = false

    /// Set on the file's top-level scope while an item's lowering is recorded: every
    /// name looked up there, found or not, is something the item depends on.
    @exclusivity(unchecked) var observer: DependencyLog?

    /// Shared by every scope of one check: where lookups are logged while a template's
    /// animation is lowered (see ``TemplateReads``).
    let templateReads: TemplateReads

    init(parent: Scope?) {
        self.parent = parent
        templateReads = parent?.templateReads ?? TemplateReads()
    }

    /// A scope that will hold `capacity` bindings (an instance's parameters, a loop's
    /// variables, with the declarations of the block they go with): what does not fit
    /// in the list itself is allocated once instead of growing.
    convenience init(parent: Scope?, capacity: Int) {
        self.init(parent: parent)
        bindings.reserveCapacity(capacity)
    }

    /// Calls `body` with each binding in declaration order, reading them one at a time
    /// (copying the list retained every binding in it). Bindings `body` declares here
    /// are not visited.
    func forEachBinding(_ body: (Binding) -> Void) {
        let count = bindings.count
        for position in 0..<count {
            if let b = bindings.at(position) { body(b) }
        }
    }

    /// Calls `body` with each binding that has no value yet, in declaration order; an
    /// evaluated one is passed over in place (taken out, it was retained and released).
    /// Bindings `body` declares here are not visited.
    func forEachUnevaluatedBinding(_ body: (Binding) -> Void) {
        let count = bindings.count
        for position in 0..<count where bindings.isUnevaluated(at: position) {
            if let b = bindings.at(position) { body(b) }
        }
    }

    /// Empties the scope for a ``ScopeRecycler`` to hand it out again.
    fileprivate func reset() {
        bindings.removeAll()
        index = nil
        byNameID = []
        hasUnnamed = false
        observer = nil
    }

    /// The binding `name` resolves to, here or further out. `id` is the name's interned
    /// id when the caller knows it (``Identifier/nameID``), which lets every scope
    /// compare integers; the result is the same either way.
    func lookup(_ name: String, id: UInt32 = Identifier.noNameID) -> Binding? {
        let found = resolve(name, id)
        if let log = templateReads.active { log.append(TemplateRead(name: name, id: id, binding: found)) }
        return found
    }

    /// ``lookup(_:id:)`` for a name as written.
    func lookup(_ identifier: Identifier) -> Binding? { lookup(identifier.name, id: identifier.nameID) }

    private func resolve(_ name: String, _ id: UInt32) -> Binding? {
        if parent == nil, let observer {
            let b = local(name, id: id)
            observer.read(name, id: id)
            return b
        }
        if let b = local(name, id: id) { return b }
        // Recursion rather than a loop over a variable: each `parent` is a constant the
        // call borrows, where a variable walking the chain retained and released every
        // scope (a third of a lookup in a template-heavy check). Scopes nest no deeper
        // than definitions, loops and blocks do, all of them bounded.
        return parent?.resolve(name, id)
    }

    /// What a lookup by interned name finds without taking the binding out.
    enum Evaluated {
        /// No binding of the scope has the name.
        case notHere
        /// One has, and its value is not evaluated yet.
        case unevaluated
        case value(SemaValue)

        init(_ value: SemaValue?) {
            if let value { self = .value(value) } else { self = .unevaluated }
        }
    }

    /// Whether a lookup of interned name `id` here may be answered in place, without the
    /// binding: not when the name has no id, when a scope has an unnamed binding (both are
    /// answered by name), when a template's lowering logs its lookups (each read is
    /// logged with its binding), or when the top level logs them for the memo.
    private func answersInPlace(_ id: UInt32) -> Bool {
        id != Identifier.noNameID && !hasUnnamed && templateReads.active == nil && (parent != nil || observer == nil)
    }

    /// The value of the binding interned name `id` resolves to, here or further out, when
    /// it is evaluated: what most lookups want, read without returning the binding (which
    /// retained and released it). `.unevaluated` also where the answer needs the binding
    /// itself (see ``answersInPlace(_:)``).
    func evaluatedValue(id: UInt32) -> Evaluated {
        guard answersInPlace(id) else { return .unevaluated }
        guard let p = localPosition(id: id) else { return parent?.evaluatedValue(id: id) ?? .notHere }
        return bindings.evaluatedValue(at: p)
    }

    /// Whether interned name `id` resolves, here or further out, to `binding` itself (to
    /// nothing when `binding` is nil), compared in place: the lookup returned the binding
    /// it found, retained, only to compare it. nil where only a lookup can tell (see
    /// ``answersInPlace(_:)``).
    func resolves(id: UInt32, to binding: Binding?) -> Bool? {
        guard answersInPlace(id) else { return nil }
        // Through the optional, not a local: a local copy of `parent` was retained and
        // released around the call.
        guard let p = localPosition(id: id) else { return parent?.resolves(id: id, to: binding) ?? (binding == nil) }
        return bindings.holds(at: p, identicalTo: binding)
    }

    /// Whether the binding interned name `id` resolves to below the top level (as
    /// ``bindingBelowTopLevel(_:id:)`` finds it) is evaluated, read in place; nil where
    /// only the binding itself can tell (no interned name, a scope with an unnamed
    /// binding). Nothing logs this lookup, as nothing logs that one.
    func isEvaluatedBelowTopLevel(id: UInt32) -> Bool? {
        if parent == nil { return false }
        if id == Identifier.noNameID || hasUnnamed { return nil }
        guard let p = localPosition(id: id) else { return parent?.isEvaluatedBelowTopLevel(id: id) ?? false }
        switch bindings.evaluatedValue(at: p) {
        case .notHere: return parent?.isEvaluatedBelowTopLevel(id: id) ?? false
        case .unevaluated: return false
        case .value: return true
        }
    }

    /// The binding `name` resolves to when one below the top level declares it (a
    /// parameter, a loop variable, a local `let`), without logging the lookup anywhere.
    func bindingBelowTopLevel(_ name: String, id: UInt32 = Identifier.noNameID) -> Binding? {
        if parent == nil { return nil }
        if let b = local(name, id: id) { return b }
        return parent?.bindingBelowTopLevel(name, id: id)
    }

    func local(_ name: String, id: UInt32 = Identifier.noNameID) -> Binding? {
        if id != Identifier.noNameID && !hasUnnamed { return localPosition(id: id).flatMap { bindings.at($0) } }
        if let index { return index[name] }
        // Lengths first: a native string's length is stored, while comparing two unequal
        // names costs a call into the runtime.
        let length = name.utf8.count
        return bindings.first { $0.name.name.utf8.count == length && $0.name.name == name }
    }

    /// Where this scope's binding named by interned name `id` is in ``bindings``, nil
    /// when it has none: one entry of ``byNameID`` past the threshold, else the list's
    /// slots. Only for a scope without unnamed bindings, which answers by name.
    @inline(__always)
    private func localPosition(id: UInt32) -> Int? {
        guard index != nil else { return bindings.position(id: id) }
        let i = Int(id)
        guard i < byNameID.count, byNameID[i] != 0 else { return nil }
        return Int(byNameID[i]) - 1
    }

    func insert(_ binding: Binding) {
        bindings.append(binding)
        if binding.name.nameID == Identifier.noNameID { hasUnnamed = true }
        if index != nil {
            index?[binding.name.name] = binding
            indexByID(bindings.count - 1)
        } else if bindings.count > Scope.indexThreshold {
            var built = NameTable<Binding>()
            bindings.forEach { built[$0.name.name] = $0 }
            index = built
            for position in 0..<bindings.count { indexByID(position) }
        }
    }

    /// Enters the binding at `position` of ``bindings`` in ``byNameID``. No name is
    /// entered twice: `declare` reports a duplicate and does not insert it.
    private func indexByID(_ position: Int) {
        guard let id = bindings.at(position)?.name.nameID, id != Identifier.noNameID else { return }
        let i = Int(id)
        if i >= byNameID.count { byNameID.append(contentsOf: repeatElement(0, count: i + 1 - byNameID.count)) }
        if byNameID[i] == 0 { byNameID[i] = Int32(position + 1) }
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
            s.forEachBinding { names.append($0.name.name) }
            if s.parent == nil { s.observer?.readEveryName() }
            scope = s.parent
        }
        return names
    }
}

/// A scope's bindings in declaration order.
///
/// A scope holds a handful of names or none (a loop iteration's variables, an
/// instance's parameters), and loops make one per iteration: the first four bindings
/// are held here, in the scope itself, so such a scope is one allocation where an
/// array made it two. Any further ones go in an array.
struct BindingList {
    private var b0: Binding?
    private var b1: Binding?
    private var b2: Binding?
    private var b3: Binding?
    /// The slots' interned names, so a lookup by id compares integers and touches (and
    /// retains) only the binding it finds: reading each slot's binding to compare its
    /// name retained and released every binding passed over.
    private var id0 = Identifier.noNameID
    private var id1 = Identifier.noNameID
    private var id2 = Identifier.noNameID
    private var id3 = Identifier.noNameID
    private var rest: [Binding] = []
    /// How many bindings the list holds; slots fill in order.
    private(set) var count = 0

    init() {}

    /// Room for `capacity` bindings in all, allocated at once for those past the slots.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > 4 { rest.reserveCapacity(capacity - 4) }
    }

    mutating func append(_ binding: Binding) {
        switch count {
        case 0: b0 = binding; id0 = binding.name.nameID
        case 1: b1 = binding; id1 = binding.name.nameID
        case 2: b2 = binding; id2 = binding.name.nameID
        case 3: b3 = binding; id3 = binding.name.nameID
        default: rest.append(binding)
        }
        count += 1
    }

    /// Empties the list in place, keeping the room past the slots.
    mutating func removeAll() {
        guard count > 0 else { return }
        b0 = nil; b1 = nil; b2 = nil; b3 = nil
        id0 = Identifier.noNameID; id1 = Identifier.noNameID; id2 = Identifier.noNameID; id3 = Identifier.noNameID
        if count > 4 { rest.removeAll(keepingCapacity: true) }
        count = 0
    }

    /// The position of the first binding named by interned name `id` (not
    /// ``Identifier/noNameID``), found by comparing integers: what is read there is read
    /// in place, by position (``at(_:)``, ``evaluatedValue(at:)``, ``holds(at:identicalTo:)``).
    @inline(__always)
    func position(id: UInt32) -> Int? {
        // Empty slots hold no id (noNameID), so they never match.
        if id0 == id { return 0 }
        if id1 == id { return 1 }
        if id2 == id { return 2 }
        if id3 == id { return 3 }
        guard count > 4 else { return nil }
        for k in rest.indices where rest[k].name.nameID == id { return k + 4 }
        return nil
    }

    /// Whether the binding declared `position`th has no value yet, read in place; false
    /// past the end.
    func isUnevaluated(at position: Int) -> Bool {
        switch position {
        case 0: return b0 != nil && b0?.value == nil
        case 1: return b1 != nil && b1?.value == nil
        case 2: return b2 != nil && b2?.value == nil
        case 3: return b3 != nil && b3?.value == nil
        default: return position > 3 && position - 4 < rest.count && rest[position - 4].value == nil
        }
    }

    /// Whether the binding declared `position`th is `binding`, compared in place without
    /// taking it out; past the end, whether `binding` is nil.
    @inline(__always)
    func holds(at position: Int, identicalTo binding: Binding?) -> Bool {
        switch position {
        case 0: return b0 === binding
        case 1: return b1 === binding
        case 2: return b2 === binding
        case 3: return b3 === binding
        default: return position > 3 && position - 4 < rest.count ? rest[position - 4] === binding : binding == nil
        }
    }

    /// What ``Scope/evaluatedValue(id:)`` finds in the binding declared `position`th,
    /// read in place: returning the binding to read its value retained and released it,
    /// on every lookup. `.notHere` past the end.
    @inline(__always)
    func evaluatedValue(at position: Int) -> Scope.Evaluated {
        switch position {
        case 0: return Scope.Evaluated(b0?.value)
        case 1: return Scope.Evaluated(b1?.value)
        case 2: return Scope.Evaluated(b2?.value)
        case 3: return Scope.Evaluated(b3?.value)
        default: return position > 3 && position - 4 < rest.count ? Scope.Evaluated(rest[position - 4].value) : .notHere
        }
    }

    /// The binding declared `position`th, nil past the end.
    @inline(__always)
    func at(_ position: Int) -> Binding? {
        switch position {
        case 0: return b0
        case 1: return b1
        case 2: return b2
        case 3: return b3
        default: return position > 3 && position - 4 < rest.count ? rest[position - 4] : nil
        }
    }

    /// The first binding, in declaration order, that `matches`.
    @inline(__always)
    func first(where matches: (Binding) -> Bool) -> Binding? {
        // An empty slot ends the list: they fill in order, and `rest` only after them.
        guard let x0 = b0 else { return nil }
        if matches(x0) { return x0 }
        guard let x1 = b1 else { return nil }
        if matches(x1) { return x1 }
        guard let x2 = b2 else { return nil }
        if matches(x2) { return x2 }
        guard let x3 = b3 else { return nil }
        if matches(x3) { return x3 }
        for b in rest where matches(b) { return b }
        return nil
    }

    /// Calls `body` with each binding in declaration order.
    func forEach(_ body: (Binding) -> Void) {
        _ = first { body($0); return false }
    }

    /// Every binding in declaration order.
    var all: [Binding] {
        var out: [Binding] = []
        out.reserveCapacity(count)
        forEach { out.append($0) }
        return out
    }
}

/// The scope of a loop's iterations, or of a component's instances, with the bindings
/// made with values that go in it (loop variables, parameters), handed out again from
/// one iteration or instance to the next.
///
/// Each iteration and each instance made a scope and a binding per variable, and freed
/// them after: half the allocations of a grid's tile. Nothing can tell a recycled one
/// from a new one, because only one that nothing else holds is recycled: a template
/// that kept a binding (to compare a later instance's with it) or a keyframe row that
/// kept its scope keeps that one to itself, and the next iteration gets a new one.
/// (Bindings refer to their scope unowned, and only evaluate through it while
/// unevaluated, which a binding kept by a template never is.)
struct ScopeRecycler {
    private var scope: Scope?
    private var variables: [Binding?] = []
    /// Whether an instance declared every parameter in a scope with the current scope's
    /// parent: what shadowing a parameter is depends on that parent alone, so later
    /// instances need not look each name up there again.
    private(set) var parametersChecked = false

    init() {}

    /// An empty scope in `parent`: the last one handed out when nothing else holds it
    /// any more, else a new one.
    mutating func scope(parent: Scope, capacity: Int) -> Scope {
        if let current = scope, current.parent !== parent { parametersChecked = false }
        if isKnownUniquelyReferenced(&scope), let recycled = scope, recycled.parent === parent {
            recycled.reset()
            scopeHandedOn = true
            return recycled
        }
        let made = Scope(parent: parent, capacity: capacity)
        scope = made
        scopeHandedOn = false
        return made
    }

    /// Whether the last ``scope(parent:capacity:)`` handed on the scope before it: the
    /// one the declarations kept in ``variables`` were made in.
    private var scopeHandedOn = false

    /// Notes that an instance declared every parameter in the current scope's parent.
    mutating func markParametersChecked() { parametersChecked = true }

    /// A binding of variable `k` (the same name and kind every time) with `value`: the
    /// last one when nothing else holds it any more, else a new one. Call after
    /// ``scope(parent:capacity:)``, whose reset lets go of the last iteration's.
    mutating func binding(_ k: Int, name: Identifier, kind: Binding.Kind, value: SemaValue) -> Binding {
        if k < variables.count, isKnownUniquelyReferenced(&variables[k]), let recycled = variables[k],
           recycled.kind == kind, ScopeRecycler.sameDeclaration(recycled.name, name) {
            recycled.value = value
            return recycled
        }
        let made = Binding(name: name, kind: kind, value: value)
        keep(made, at: k)
        return made
    }

    /// An unevaluated binding of declaration `k` (a `let` or `timing` of a loop's body,
    /// numbered after the loop's variables) in `scope`, the one the last
    /// ``scope(parent:capacity:)`` gave: the last one, its value forgotten, when nothing
    /// else holds it any more, it is the same declaration, and that scope was handed on
    /// (so the binding was made in it); else a new one. A body's `let` was an allocation
    /// and a release per iteration. (The binding's own `scope` is not compared: it is
    /// unowned, and a scope that was not handed on may be gone.)
    mutating func declaration(_ k: Int, name: Identifier, kind: Binding.Kind, expr: Expr, declaredType: Identifier?,
                              scope: Scope) -> Binding {
        if scopeHandedOn, k < variables.count, isKnownUniquelyReferenced(&variables[k]), let recycled = variables[k],
           recycled.kind == kind, recycled.expr == expr, ScopeRecycler.sameDeclaration(recycled.name, name),
           recycled.declaredType == declaredType, !recycled.evaluating {
            recycled.value = nil
            recycled.dependencies = nil
            return recycled
        }
        let made = Binding(name: name, kind: kind, expr: expr, declaredType: declaredType, scope: scope)
        keep(made, at: k)
        return made
    }

    /// Whether a kept binding's name is `name`, written at the same place: the cheap
    /// comparisons first, the text last.
    private static func sameDeclaration(_ kept: Identifier, _ name: Identifier) -> Bool {
        kept.nameID == name.nameID && kept.range == name.range && kept.name == name.name
    }

    private mutating func keep(_ binding: Binding, at k: Int) {
        if k >= variables.count { variables.append(contentsOf: repeatElement(nil, count: k + 1 - variables.count)) }
        variables[k] = binding
    }
}
