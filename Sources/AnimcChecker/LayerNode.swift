import AnimcBase
import AnimcIR
import AnimcSyntax

/// A layer while the tree is being built; flattened into ``Layer`` at the end. A node
/// holds its children and nothing holds back: lowering knows a layer's ancestors (see
/// ``LoweringContext/layers``), and the walks that need them carry their own path.
final class LayerNode {
    let name: String
    /// The dotted path from the top level where it is declared, `grid.tile[0,1]`.
    let id: String
    /// Ranges are variables so that a check memo can move a replayed subtree.
    var nameRange: SourceRange
    let kind: LayerKind
    let isMask: Bool
    var range: SourceRange
    private(set) var children: [LayerNode] = []
    /// Where each child's name is written, by name, for duplicates and `mask:` lookups.
    private var childIndex: [String: Int] = [:]
    var properties = LayerProperties()
    var animations: [Animation] = []
    /// The layer's own `beginTime`, `speed` and `timeOffset`.
    var timing = LayerTiming()
    /// The `mask:` written in this layer's body.
    var maskReference: (name: String, range: SourceRange)?
    /// The mask layer resolved for ``maskReference``.
    var mask: LayerNode?
    /// Where the `mask:` that uses this mask layer is written. (The range alone: the
    /// masked layer holds this one through `mask`.)
    var maskedBy: SourceRange?

    init(name: String, id: String, nameRange: SourceRange, kind: LayerKind, isMask: Bool, range: SourceRange) {
        self.name = name
        self.id = id
        self.nameRange = nameRange
        self.kind = kind
        self.isMask = isMask
        self.range = range
    }

    /// The child called `name`.
    func child(named name: String) -> LayerNode? { childIndex[name].map { children[$0] } }

    /// Makes `node` this layer's last child.
    func adopt(_ node: LayerNode) {
        if childIndex[node.name] == nil { childIndex[node.name] = children.count }
        children.append(node)
    }

    func modelValue(_ id: PropertyID) -> Value {
        properties[id]?.value ?? PropertyTable.info(id).defaultValue
    }

    /// Removes every sublayer (a replicator of no copies draws none).
    func removeAllChildren() {
        children = []
        childIndex = [:]
    }

    /// A copy of this subtree whose ids start with `new` where they started with `old`
    /// (a replicator's copy: `spinner.dot` in `spinner.instance[2]`). Masks are resolved
    /// afterwards over the whole tree, by name, as for any layer.
    func copy(movingIDFrom old: String, to new: String) -> LayerNode {
        let movedID = old.isEmpty ? new + "." + id : (id.hasPrefix(old) ? new + id.dropFirst(old.count) : id)
        let c = LayerNode(name: name, id: movedID, nameRange: nameRange, kind: kind, isMask: isMask, range: range)
        c.properties = properties
        c.animations = animations
        c.timing = timing
        c.maskReference = maskReference
        c.maskedBy = nil
        for child in children { c.adopt(child.copy(movingIDFrom: old, to: new)) }
        return c
    }

    /// Forgets the masks resolved by the check that made this subtree: masks are
    /// resolved again over the whole tree of each check.
    func resetMasks() {
        mask = nil
        maskedBy = nil
        for child in children { child.resetMasks() }
    }

    /// Moves this subtree's ranges in place; false if one cannot be moved.
    func move(_ shift: RangeShift) -> Bool {
        guard let n = shift(nameRange), let r = shift(range) else { return false }
        nameRange = n
        range = r
        guard properties.moveRanges({ shift($0) }) else { return false }
        for i in animations.indices where !animations[i].move(shift) { return false }
        if let (name, r) = maskReference {
            guard let moved = shift(r) else { return false }
            maskReference = (name, moved)
        }
        for child in children where !child.move(shift) { return false }
        return true
    }
}

/// A layer's model values, kept in property order: the order of the IR's list. A layer
/// sets each property at most once.
struct LayerProperties {
    private(set) var entries: [PropertyValue] = []

    subscript(id: PropertyID) -> (value: Value, range: SourceRange)? {
        get {
            for e in entries where e.property == id { return (e.value, e.range) }
            return nil
        }
        set {
            let i = entries.firstIndex { $0.property == id }
            switch (i, newValue) {
            case (let i?, let v?): entries[i] = PropertyValue(id, v.value, range: v.range)
            case (let i?, nil): entries.remove(at: i)
            case (nil, let v?):
                let at = entries.firstIndex { id < $0.property } ?? entries.count
                entries.insert(PropertyValue(id, v.value, range: v.range), at: at)
            case (nil, nil): break
            }
        }
    }

    /// Moves every range in place, stopping at the first `shift` cannot move.
    mutating func moveRanges(_ shift: (SourceRange) -> SourceRange?) -> Bool {
        for i in entries.indices {
            guard let moved = shift(entries[i].range) else { return false }
            entries[i].range = moved
        }
        return true
    }
}

/// The animation keys and the timing attributes (and `mask:`) written so far in one
/// layer body, with where each is written (see ``LoweringContext/bodies``).
struct LayerBodyKeys {
    var animations = NameTable<SourceRange>()
    var timing = NameTable<SourceRange>()
    /// The body itself, for a pasted `frame:` to see the properties written after it.
    var block: Block?
    /// The `anchorPoint:` written so far, as syntax: a `frame:` after it is placed
    /// about that anchor, and its fix-it writes the anchor's expression, not its value.
    var anchorPoint: Expr?
    /// Whether a component of the anchor (`anchorPoint.x:`) was written: no single
    /// expression then says where the anchor is.
    var anchorPointByComponent = false
    /// A replicator's `instance...` attributes, for a replicator's body.
    var replicator: ReplicatorSettings?
}
