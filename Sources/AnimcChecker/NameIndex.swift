import AnimcBase
import AnimcIR
import AnimcSyntax

/// Every declared name of a file and every use of one, resolved from the syntax tree
/// alone: lexical scopes as the checker builds them, without evaluating anything.
///
/// Because it needs no evaluation it works on files with errors of any kind, which is
/// what the unused-definition warning (W0310) needs to stay free of cascades (a use in
/// a broken item still counts), and what an editor needs for go to definition, find
/// references and rename.
public struct NameIndex: Sendable {
    public enum Kind: String, Sendable, Hashable {
        case constant, timing, path, component, parameter, loopVariable, layer, animation
        /// The name an `import` gives an imported file (`tokens`, or the name after `as`).
        case module
        /// `input name: ...` and `state name { ... }`. States are a namespace of their
        /// own: only transitions name them.
        case input, state

        /// How the kind is named in messages and editor outlines.
        public var noun: String {
            switch self {
            case .constant: return "constant"
            case .timing: return "timing function"
            case .path: return "path"
            case .component: return "component"
            case .parameter: return "parameter"
            case .loopVariable: return "loop variable"
            case .layer: return "layer"
            case .animation: return "animation"
            case .module: return "import"
            case .input: return "input"
            case .state: return "state"
            }
        }
    }

    public struct Declaration: Sendable, Hashable {
        public let name: String
        /// The name as written.
        public let range: SourceRange
        public let kind: Kind
        /// The whole declaration (for a layer, its whole block).
        public let extent: SourceRange
    }

    public struct Reference: Sendable, Hashable {
        public let range: SourceRange
        public let declaration: Int
        /// An instance's argument label naming a component parameter (`delay:` in
        /// `Tile(delay: 0.1s)`): found by rename and references, but not a use of the
        /// parameter, which only the component's body can make.
        public var isArgumentLabel = false
    }

    /// `tokens.fast`, `ui.Spinner(...)`: a name another file declares, read through an
    /// import of this file (`module`, the import's declaration). Resolved against the
    /// imported file by whoever has it (an editor's navigation across files).
    public struct QualifiedReference: Sendable, Hashable {
        /// The name after the dot, as written.
        public let range: SourceRange
        public let name: String
        public let module: Int
    }

    public internal(set) var declarations: [Declaration] = []
    public internal(set) var references: [Reference] = []
    public internal(set) var qualified: [QualifiedReference] = []
    /// Names used where no declaration of that name is in scope (built-ins, and typos),
    /// each once, in the order first used.
    public internal(set) var unresolvedNames: [String] = []
    /// Whether the file spells `mask` anywhere (so may name a layer's mask).
    var spellsMask = false

    /// The declaration named or referred to at `offset`, if any.
    public func declaration(at offset: UInt32) -> Int? {
        if let r = references.first(where: { $0.range.start <= offset && offset <= $0.range.end }) { return r.declaration }
        return declarations.firstIndex { $0.range.start <= offset && offset <= $0.range.end }
    }

    /// Where declaration `d` is used.
    public func uses(of d: Int) -> [SourceRange] {
        references.filter { $0.declaration == d }.map(\.range)
    }

    /// The qualified reference whose name is at `offset`, if any.
    public func qualifiedReference(at offset: UInt32) -> QualifiedReference? {
        qualified.first { $0.range.start <= offset && offset <= $0.range.end }
    }

    /// The declaration of a top-level name another file may read (`let`, `timing`,
    /// `path`, `component`; not a layer, an animation or an import), in `tree`.
    public func exported(_ name: String, in tree: SyntaxTree) -> Int? {
        let topLevel = Set(tree[tree.root.items].map(\.range.start))
        return declarations.firstIndex {
            $0.name == name && topLevel.contains($0.extent.start) && [.constant, .timing, .path, .component].contains($0.kind)
        }
    }

    /// Declarations no reference resolves to.
    public var unreferenced: [Int] {
        // One flag per declaration: a set hashed each of a file's references.
        var used = [Bool](repeating: false, count: declarations.count)
        for r in references where !r.isArgumentLabel && r.declaration >= 0 && r.declaration < used.count { used[r.declaration] = true }
        return declarations.indices.filter { !used[$0] }
    }

    /// Indexes a tree, including trees with syntax errors (error nodes hold no names).
    public static func build(_ tree: SyntaxTree) -> NameIndex {
        var builder = Builder(tree: tree)
        var root = LayerScope(table: StaticLayer(parent: nil))
        builder.declareInteraction()
        builder.block(tree.root, layer: &root, ownScope: false)
        builder.resolveMasks()
        builder.index.unresolvedNames = builder.unresolved.map { tree.arena.names[Int($0)] }
        builder.index.spellsMask = builder.spellsMask
        return builder.index
    }
}

/// The value names (constants, timings, paths, components, parameters, loop
/// variables) visible at the builder's place in its walk, by interned name.
///
/// The walk is depth first, so the names visible at any point are those of the scopes
/// it is inside: one entry per name, overwritten on entering a scope and restored on
/// leaving it, answers a lookup with one load instead of a hash per enclosing scope.
private struct Visibility {
    /// Per interned name, the declaration it names here, or -1.
    private var declaration: [Int32]
    /// Per interned name, the scope depth that declared it (so a second declaration
    /// in the same scope keeps the first, as the checker does).
    private var depth: [Int32]
    private var undo: [(name: UInt32, declaration: Int32, depth: Int32)] = []
    private var current: Int32 = 0

    init(nameCount: Int) {
        declaration = Array(repeating: -1, count: nameCount)
        depth = Array(repeating: -1, count: nameCount)
    }

    func lookup(_ name: UInt32) -> Int? {
        guard Int(name) < declaration.count else { return nil }
        let d = declaration[Int(name)]
        return d < 0 ? nil : Int(d)
    }

    /// Enters a scope; `close` with the mark returned leaves it.
    mutating func open() -> Int {
        current += 1
        return undo.count
    }

    mutating func close(_ mark: Int) {
        while undo.count > mark {
            let u = undo.removeLast()
            declaration[Int(u.name)] = u.declaration
            depth[Int(u.name)] = u.depth
        }
        current -= 1
    }

    mutating func declare(_ name: UInt32, _ d: Int) {
        let i = Int(name)
        guard i < declaration.count, depth[i] != current else { return }
        undo.append((name, declaration[i], depth[i]))
        declaration[i] = Int32(d)
        depth[i] = current
    }
}

/// A layer in the layer namespace (for `mask:` and `layer.animation.end`), with its
/// animations by name. Only a layer that names something in it has one (see
/// ``LayerScope``).
private final class StaticLayer {
    /// Weak: a layer holds its children, and a child holding its parent made every
    /// index's layer tree a cycle that outlived the build. Ancestors live while a layer
    /// is walked: the walk holds them, or the root's tables do.
    weak var parent: StaticLayer?
    // FNV-hashed tables, as the checker's: a file's top level can hold a layer per
    // line, and each one is looked up when declared. A child's layer is nil while the
    // child has named nothing (see ``LayerScope``).
    @exclusivity(unchecked) var children = NameTable<(declaration: Int, layer: StaticLayer?)>()
    @exclusivity(unchecked) var animations = NameTable<Int>()
    init(parent: StaticLayer?) { self.parent = parent }
}

/// The layer whose body the walk is in. Its ``StaticLayer`` is made when the body
/// first names something in it (a sublayer, an aliased animation): most layers name
/// nothing, and a table for each of them was most of an index's memory while it was
/// built, at the end of a check, beside the tree and the IR. A layer without one
/// answers as an empty one would: no animation of its own, and lookups that go on
/// outwards from `outer`, the nearest enclosing layer with a table.
private struct LayerScope {
    private(set) var table: StaticLayer?
    let outer: StaticLayer?
    /// Where the parent lists this layer (when it was the first of its name there),
    /// to point at the table once it is made.
    let entry: (owner: StaticLayer, name: String, declaration: Int)?

    init(table: StaticLayer?, outer: StaticLayer? = nil, entry: (owner: StaticLayer, name: String, declaration: Int)? = nil) {
        self.table = table
        self.outer = outer
        self.entry = entry
    }

    /// Where lookups from this body start: its table, or the nearest one outside.
    var nearest: StaticLayer? { table ?? outer }

    /// The table to name something in, made now if the layer had none.
    mutating func madeTable() -> StaticLayer {
        if let table { return table }
        let made = StaticLayer(parent: outer)
        table = made
        if let entry { entry.owner.children[entry.name] = (entry.declaration, made) }
        return made
    }
}

private struct Builder {
    let tree: SyntaxTree
    var index = NameIndex()
    var visible: Visibility
    /// The file's states by name (see ``declareInteraction()``).
    var states: [String: Int] = [:]
    /// The tree's interned names by text, made when a name inside a string is looked up.
    var nameIDs: [String: UInt32]?
    /// Names used unresolved, once each by interned name: a file uses a handful of
    /// built-ins thousands of times, and each use was an identifier kept with its name.
    var unresolved: [UInt32] = []
    private var isUnresolved: [Bool]
    /// The interned id of `mask`, whose property names a layer; nil when the file never
    /// spells it.
    private let maskID: UInt32?
    var spellsMask: Bool { maskID != nil }
    /// `mask: name` uses, resolved once the whole file is walked: as the checker does,
    /// a mask may name a layer declared further down. Each keeps the layer tables it
    /// searches, innermost first.
    private var pendingMasks: [(range: SourceRange, name: String, tables: [StaticLayer])] = []
    /// Each test or state key (`logo.square.opacity`) and the file's top-level layers.
    private var pendingTestKeys: [(range: SourceRange, path: String, root: StaticLayer?)] = []
    /// Each component's declaration by where its item starts, and its parameters by name:
    /// an instance's argument labels name the parameters (`Tile(at: p)`), resolved once
    /// the whole file is walked, as a component may be declared after its instances.
    private var componentDeclarations: [UInt32: Int] = [:]
    private var componentParameters: [Int: [String: Int]] = [:]
    private var pendingLabels: [(range: SourceRange, name: String, component: Int)] = []
    /// The name each top-level `import` gives its file, by where the item starts.
    private var importNames: [UInt32: Identifier] = [:]

    init(tree: SyntaxTree) {
        self.tree = tree
        for i in tree.imports { if let name = i.name { importNames[i.item.range.start] = name } }
        let names = tree.arena.names
        visible = Visibility(nameCount: names.count)
        isUnresolved = Array(repeating: false, count: names.count)
        maskID = names.firstIndex(of: Checker.maskAttribute).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// A use of `name` by its text (a name inside a string has no interned id of its own
    /// unless the file writes it elsewhere).
    mutating func use(_ name: String, at range: SourceRange) {
        if nameIDs == nil {
            var ids: [String: UInt32] = [:]
            for (k, n) in tree.arena.names.enumerated() where ids[n] == nil { ids[n] = UInt32(k) }
            nameIDs = ids
        }
        if let id = nameIDs?[name] { use(id, at: range) }
    }

    mutating func use(_ id: UInt32, at range: SourceRange) {
        if let d = visible.lookup(id) {
            refer(range, to: d)
        } else if Int(id) < isUnresolved.count, !isUnresolved[Int(id)] {
            isUnresolved[Int(id)] = true
            unresolved.append(id)
        }
    }

    /// Records `name` as read through the import `module` names, when it names one.
    mutating func qualify(_ name: Identifier, through module: UInt32) {
        guard let d = visible.lookup(module), index.declarations[d].kind == .module else { return }
        index.qualified.append(NameIndex.QualifiedReference(range: name.range, name: name.name, module: d))
    }

    /// Declares `name`; a value name (`inScope`) also becomes visible in the current scope.
    mutating func declare(_ name: Identifier, _ kind: NameIndex.Kind, extent: SourceRange, inScope: Bool) -> Int {
        let d = index.declarations.count
        index.declarations.append(NameIndex.Declaration(name: name.name, range: name.range, kind: kind, extent: extent))
        if inScope { visible.declare(name.nameID, d) }
        return d
    }

    mutating func refer(_ range: SourceRange, to d: Int) {
        index.references.append(NameIndex.Reference(range: range, declaration: d))
    }

    /// The input names of an event script written as the string literal at `literal`,
    /// with their ranges in the file. None when the literal has escapes, whose text is
    /// not the file's.
    static func eventNames(in text: String, literal: SourceRange, _ file: SourceFile) -> [(String, SourceRange)] {
        guard literal.length >= 2, file.text(SourceRange(start: literal.start + 1, end: literal.end - 1)) == text else { return [] }
        return EventScript.inputNames(in: text).map { name, offset in
            let start = literal.start + 1 + UInt32(offset)
            return (name, SourceRange(start: start, end: start + UInt32(name.utf8.count)))
        }
    }

    /// The file's inputs, visible to every expression as the checker reads them in
    /// conditions, and its states, by name for the transitions (the first of a name).
    mutating func declareInteraction() {
        for item in tree[tree.root.items] {
            switch tree[item] {
            case .inputDecl(let name, _, _, _):
                _ = declare(name, .input, extent: item.range, inScope: true)
            case .stateDecl(let name, _):
                let d = declare(name, .state, extent: item.range, inScope: false)
                if states[name.name] == nil { states[name.name] = d }
            default:
                break
            }
        }
    }

    /// A block's declarations first (order in a block does not matter), then its items.
    /// With `ownScope`, the block's declarations go in a scope of its own, opened only
    /// when the block declares something (most layer and animation bodies declare
    /// nothing); without, they go in the current scope itself (the file, a component's
    /// parameters, a loop's variables).
    mutating func block(_ b: Block, layer: inout LayerScope, ownScope: Bool = true) {
        var mark: Int?
        let items = tree[b.items]
        for item in items where Checker.declaresName(tree.tag(item)) {
            let declared: (Identifier, NameIndex.Kind)
            switch tree[item] {
            case .letDecl(let name, _, _): declared = (name, .constant)
            case .timingDecl(let name, _): declared = (name, .timing)
            case .pathDecl(let name, _): declared = (name, .path)
            case .component(let name, _, _): declared = (name, .component)
            case .importDecl:
                guard let name = importNames[item.range.start] else { continue }
                declared = (name, .module)
            default: continue
            }
            if ownScope && mark == nil { mark = visible.open() }
            let d = declare(declared.0, declared.1, extent: item.range, inScope: true)
            if declared.1 == .component { componentDeclarations[item.range.start] = d }
        }
        for item in items { self.item(item, layer: &layer) }
        if let mark { visible.close(mark) }
    }

    mutating func item(_ item: Item, layer: inout LayerScope) {
        switch tree[item] {
        case .letDecl(_, _, let value), .timingDecl(_, let value):
            expr(value, layer: &layer)
        case .pathDecl(_, let body):
            block(body, layer: &layer)
        case .component(_, let params, let body):
            // Defaults are read outside the component, where no parameter is visible:
            // all of them first, then the parameters. Declarations and references keep
            // their order (defaults declare nothing).
            let parameters = tree[params]
            for p in parameters { if let d = p.defaultValue { expr(d, layer: &layer) } }
            let mark = visible.open()
            let component = componentDeclarations[item.range.start]
            for p in parameters {
                let d = declare(p.name, .parameter, extent: p.range, inScope: true)
                if let component, componentParameters[component, default: [:]][p.name.name] == nil {
                    componentParameters[component, default: [:]][p.name.name] = d
                }
            }
            var own = LayerScope(table: nil)
            block(body, layer: &own, ownScope: false)
            visible.close(mark)
        case .composition(_, let body):
            block(body, layer: &layer)
        case .layer(_, let kind, _, _, let body) where kind.name == ContextualKeywords.test:
            // A test's keys name layers by their ids (`logo.square.opacity`): references to
            // the layers, resolved once the file is walked. The test names no layer.
            let root = layer.madeTable()
            for entry in tree[body.items] {
                guard case .property(let key, let value) = tree[entry] else { continue }
                if key.dotted == "events", case .string(let text) = tree[value] {
                    // `events: "tap@0.2s"` names inputs inside its text.
                    for (name, range) in Builder.eventNames(in: text, literal: value.range, tree.file) { use(name, at: range) }
                    continue
                }
                if key.dotted == "continuous" {
                    // `continuous: (card.position, knob.opacity)`: layers' key paths, as keys are.
                    var parts = [value]
                    if case .tuple(let items) = tree[value] { parts = Array(tree[items]) }
                    for part in parts { pendingTestKeys.append((part.range, tree.file.text(part.range), root)) }
                    continue
                }
                pendingTestKeys.append((key.range, key.dotted, root))
                expr(value, layer: &layer)
            }
        case .layer(_, _, let name, let indices, let body):
            for i in tree[indices] { expr(i, layer: &layer) }
            var child = sublayer(name, extent: item.range, in: &layer)
            block(body, layer: &child)
        case .instance(let name, let indices, let value):
            for i in tree[indices] { expr(i, layer: &layer) }
            _ = sublayer(name, extent: item.range, in: &layer)
            expr(value, layer: &layer)
        case .property(let key, let value):
            // `mask: name` names a layer: a sublayer, else one further out.
            if key.dottedID == maskID, case .identifier(let n) = tree[value] {
                var tables: [StaticLayer] = []
                var s: StaticLayer? = layer.madeTable()
                while let l = s, tables.count < 10_000 {
                    tables.append(l)
                    s = l.parent
                }
                pendingMasks.append((value.range, n, tables))
                return
            }
            expr(value, layer: &layer)
        case .animation(_, _, let alias, let along, let body, _):
            if let along { expr(along, layer: &layer) }
            // Animations are named for sequencing (`go.end`); earlier ones only.
            block(body, layer: &layer)
            if let alias { declareAnimation(alias, extent: item.range, in: &layer) }
        case .keyframe(let time, let value, let timing):
            expr(time, layer: &layer)
            expr(value, layer: &layer)
            if let timing { expr(timing, layer: &layer) }
        case .forLoop(let bindings, let body):
            // Each sequence is read outside the loop, where no loop variable is visible.
            let loopBindings = tree[bindings]
            for b in loopBindings { expr(b.sequence, layer: &layer) }
            let mark = visible.open()
            for b in loopBindings { _ = declare(b.name, .loopVariable, extent: b.range, inScope: true) }
            block(body, layer: &layer, ownScope: false)
            visible.close(mark)
        case .ifItem(let condition, let then, let otherwise):
            expr(condition, layer: &layer)
            block(then, layer: &layer)
            if let otherwise { block(otherwise, layer: &layer) }
        case .pathCommand(_, let arguments):
            for a in tree[arguments] { expr(a.value, layer: &layer) }
        case .inputDecl(_, _, let range, let defaultValue):
            if let range { expr(range, layer: &layer) }
            if let defaultValue { expr(defaultValue, layer: &layer) }
        case .stateDecl(_, let body):
            // A state's keys name layers by their ids, as a test's do.
            let root = layer.madeTable()
            for entry in tree[body.items] {
                guard case .property(let key, let value) = tree[entry] else { continue }
                pendingTestKeys.append((key.range, key.dotted, root))
                expr(value, layer: &layer)
            }
        case .transition(let input, let condition, let from, let to, let duration, let timing, _):
            use(input.nameID, at: input.range)
            for state in tree[from] {
                if case .identifier(let name) = tree[state], let d = states[name] { refer(state.range, to: d) }
            }
            if let d = states[to.name] { refer(to.range, to: d) }
            if let condition { expr(condition, layer: &layer) }
            if let duration { expr(duration, layer: &layer) }
            if let timing { expr(timing, layer: &layer) }
        case .importDecl, .error:
            break
        }
    }

    // The namespace's bookkeeping in functions of their own, out of line: inlined,
    // it made `item` too large for the tree's readers to be inlined into it.

    /// Declares a sublayer (named, or an instance) in `layer`, the first of its name
    /// there listed by name, and gives the scope of its body.
    @inline(never)
    mutating func sublayer(_ name: Identifier?, extent: SourceRange, in layer: inout LayerScope) -> LayerScope {
        var entry: (owner: StaticLayer, name: String, declaration: Int)?
        if let name {
            let d = declare(name, .layer, extent: extent, inScope: false)
            let owner = layer.madeTable()
            if owner.children[name.name] == nil {
                owner.children[name.name] = (d, nil)
                entry = (owner, name.name, d)
            }
        }
        return LayerScope(table: nil, outer: layer.nearest, entry: entry)
    }

    /// Declares an animation's alias in `layer`, the first of its name there listed.
    @inline(never)
    mutating func declareAnimation(_ alias: Identifier, extent: SourceRange, in layer: inout LayerScope) {
        let owner = layer.madeTable()
        if let first = owner.animations[alias.name] {
            // The key again, for an animation added later that replaces the first
            // (`added:`): the same name, which rename must change with it. Like an
            // argument label, it names the animation without using it.
            index.references.append(NameIndex.Reference(range: alias.range, declaration: first, isArgumentLabel: true))
            return
        }
        owner.animations[alias.name] = declare(alias, .animation, extent: extent, inScope: false)
    }

    mutating func expr(_ e: Expr, layer: inout LayerScope) {
        // A name is most of what is walked here: read by its id, without decoding the
        // node (and retaining its name) first.
        let id = tree.nameID(e)
        if id != Identifier.noNameID {
            use(id, at: e.range)
            return
        }
        switch tree[e] {
        case .identifier:
            break  // read above
        case .paren(let inner), .unary(_, let inner):
            expr(inner, layer: &layer)
        case .tuple(let items), .list(let items), .sequence(let items):
            for x in tree[items] { expr(x, layer: &layer) }
        case .binary(_, let l, let r), .range(let l, let r, _):
            expr(l, layer: &layer)
            expr(r, layer: &layer)
        case .conditional(let c, let a, let b):
            expr(c, layer: &layer)
            expr(a, layer: &layer)
            expr(b, layer: &layer)
        case .call(let callee, let arguments):
            use(callee.nameID, at: callee.range)
            let component = visible.lookup(callee.nameID).flatMap { index.declarations[$0].kind == .component ? $0 : nil }
            for a in tree[arguments] {
                if let component, let label = a.label { pendingLabels.append((label.range, label.name, component)) }
                expr(a.value, layer: &layer)
            }
        case .qualifiedCall(let module, let callee, let arguments):
            // The component is the imported file's: its name and labels are found there.
            use(module.nameID, at: module.range)
            qualify(callee, through: module.nameID)
            for a in tree[arguments] { expr(a.value, layer: &layer) }
        case .index(let base, let indices):
            expr(base, layer: &layer)
            for i in tree[indices] { expr(i, layer: &layer) }
        case .message(let receiver, _, let arguments):
            // Pasted Objective-C: the selector's pieces are not names, its values may use some.
            expr(receiver, layer: &layer)
            for a in tree[arguments] { expr(a.value, layer: &layer) }
        case .member(let base, let name):
            // `go.end`, `card.go.end`: an animation, when the first name is not a value.
            if Checker.sequencingMembers.contains(name.name), let (d, range) = animation(base, layer: layer) {
                refer(range, to: d)
                return
            }
            expr(base, layer: &layer)
            let id = tree.nameID(base)
            if id != Identifier.noNameID { qualify(name, through: id) }
        case .pathLiteral(let body):
            block(body, layer: &layer)
        case .number, .string, .color, .bool, .implicitMember, .error:
            break
        }
    }

    /// The animation `a` or `layer.a` names, and the range of its name in the reference.
    func animation(_ base: Expr, layer: LayerScope) -> (Int, SourceRange)? {
        var names: [Identifier] = []
        var e = base
        while true {
            switch tree[e] {
            case .identifier(let n): names.insert(Identifier(n, e.range, nameID: tree.nameID(e)), at: 0)
            case .member(let b, let n): names.insert(n, at: 0); e = b; continue
            default: return nil
            }
            break
        }
        guard let last = names.last, visible.lookup(names[0].nameID) == nil else { return nil }
        if names.count == 1 { return layer.table?.animations[last.name].map { ($0, last.range) } }
        var s = layer.nearest
        while let start = s {
            var current: StaticLayer? = start
            for n in names.dropLast() { current = current?.children[n.name]?.layer }
            if let d = current?.animations[last.name] { return (d, last.range) }
            s = start.parent
        }
        return nil
    }

    /// Resolves every `mask:` to the layer it names (a sublayer, else one further out),
    /// and every argument label of an instance to its component's parameter.
    mutating func resolveMasks() {
        for mask in pendingMasks {
            if let found = mask.tables.lazy.compactMap({ $0.children[mask.name] }).first {
                refer(mask.range, to: found.declaration)
            }
        }
        pendingMasks = []
        // `logo.square.opacity`: `logo` a top-level layer, `square` one of its sublayers,
        // as far as the names go.
        for key in pendingTestKeys {
            var table = key.root
            var offset = key.range.start
            for part in key.path.split(separator: ".", omittingEmptySubsequences: false) {
                let length = UInt32(part.utf8.count)
                guard let t = table, let found = t.children[String(part)] else { break }
                refer(SourceRange(start: offset, end: offset + length), to: found.declaration)
                table = found.layer
                offset += length + 1
            }
        }
        pendingTestKeys = []
        for label in pendingLabels {
            if let d = componentParameters[label.component]?[label.name] {
                index.references.append(NameIndex.Reference(range: label.range, declaration: d, isArgumentLabel: true))
            }
        }
        pendingLabels = []
    }
}
