import AnimcBase
import AnimcDiagnostics

/// The result of parsing one file: always a tree, plus every syntax error found.
///
/// The nodes live in one ``SyntaxArena`` (flat arrays, children by index), and
/// ``Item``, ``Expr``, ``Block`` and the other node types are plain values naming a
/// node: a tree costs a few arrays however many nodes it has, instead of an allocation
/// per node, and is freed as a few arrays too.
public struct SyntaxTree: Sendable {
    public var file: SourceFile
    /// The arena every node of the tree lives in.
    public let arena: SyntaxArena
    public var root: Block
    /// Comment ranges (for `animc-ignore` directives).
    public var comments: [SourceRange]
    /// Lexical and syntax diagnostics, in source order.
    public var diagnostics: [Diagnostic]

    public init(file: SourceFile, arena: SyntaxArena, root: Block, comments: [SourceRange], diagnostics: [Diagnostic]) {
        self.file = file
        self.arena = arena
        self.root = root
        self.comments = comments
        self.diagnostics = diagnostics
    }
}

/// A name as written, with its range.
public struct Identifier: Hashable, Sendable {
    public var name: String
    public var range: SourceRange
    /// The name's place among its tree's interned names (``SyntaxArena``), or
    /// ``Identifier/noNameID`` for one made outside a tree. Within one tree two
    /// identifiers have the same `nameID` exactly when they have the same name, so a
    /// lookup compares integers; across trees the ids mean nothing, and equality and
    /// hashing ignore them.
    public var nameID: UInt32

    /// The `nameID` of an identifier made outside a tree.
    public static let noNameID = UInt32.max

    public init(_ name: String, _ range: SourceRange) {
        self.init(name, range, nameID: Identifier.noNameID)
    }

    public init(_ name: String, _ range: SourceRange, nameID: UInt32) {
        self.name = name
        self.range = range
        self.nameID = nameID
    }

    public static func == (a: Identifier, b: Identifier) -> Bool { a.range == b.range && a.name == b.name }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(range)
    }
}

// MARK: - Node kinds

/// Nodes are plain values: a node's index in its tree's ``SyntaxArena`` and the fields
/// every user reads (its range, a block's list of items). What a node holds beyond that
/// is read from the arena, `tree.arena[expr]` or `tree[expr]`, so walking a tree copies
/// a few words per node and counts no references. A node belongs to the arena that
/// made it; reading it through another arena is a programming error.
public protocol SyntaxElement: Sendable {
    /// The node at `id` of `arena`.
    static func make(_ arena: SyntaxArena, _ id: UInt32) -> Self
}

/// `{ items }`. `closed` is false when the closing brace was missing (already diagnosed).
public struct Block: SyntaxElement, Hashable {
    public let id: UInt32
    public let range: SourceRange
    public let items: Children<Item>
    public let closed: Bool

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> Block {
        let n = arena.nodes[Int(id)]
        return Block(id: id, range: SourceRange(start: n.start, end: n.end), items: arena.children(at: n.data),
                     closed: arena.bits(id) != 0)
    }

    @inlinable init(id: UInt32, range: SourceRange, items: Children<Item>, closed: Bool) {
        self.id = id
        self.range = range
        self.items = items
        self.closed = closed
    }
}

/// One item of a block. What a block may hold depends on the block; the parser
/// reports misplaced items but keeps them in the tree. `tree[item]` is its ``ItemKind``.
public struct Item: SyntaxElement, Hashable {
    public let id: UInt32
    public let range: SourceRange

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> Item {
        Item(id: id, range: arena.range(id))
    }

    @inlinable init(id: UInt32, range: SourceRange) {
        self.id = id
        self.range = range
    }
}

public enum ItemKind: Sendable {
    /// `let name (: Type)? = value`
    case letDecl(name: Identifier, type: Identifier?, value: Expr)
    /// `timing name = value`
    case timingDecl(name: Identifier, value: Expr)
    /// `component Name(params) { body }`
    case component(name: Identifier, params: Children<Parameter>, body: Block)
    /// `composition Name? { attributes }`
    case composition(name: Identifier?, body: Block)
    /// `path name { commands }`
    case pathDecl(name: Identifier, body: Block)
    /// `mask? kind name[indices]? { body }`, e.g. `shape circle { ... }` or, in a loop,
    /// `layer dot[i] { ... }`. The name is optional only for a component's root layer.
    case layer(mask: SourceRange?, kind: Identifier, name: Identifier?, indices: Children<Expr>, body: Block)
    /// `name[indices]? = Component(args)`
    case instance(name: Identifier, indices: Children<Expr>, value: Expr)
    /// `key.path: value`
    case property(key: KeyPathSyntax, value: Expr)
    /// `kind keyPath? (as name)? (along path)? { body }`, e.g. `keyframes strokeEnd { ... }`.
    /// `indices`: `as fade[c]` in a loop names the animation fade[0], fade[1], ...
    case animation(kind: Identifier, target: KeyPathSyntax?, alias: Identifier?, along: Expr?, body: Block, indices: Children<Expr>)
    /// `keyTime = value (~ timing)?`, a row of a keyframes block.
    case keyframe(time: Expr, value: Expr, timing: Expr?)
    /// `for a in range, b in range { body }`
    case forLoop(bindings: Children<LoopBinding>, body: Block)
    /// `if condition { then } (else { ... } | else if ...)?`
    case ifItem(condition: Expr, then: Block, otherwise: Block?)
    /// `command positional? (label: value)*` inside a path block, e.g. `cubic (1, 2) c1: (0, 0) c2: (1, 1)`.
    case pathCommand(name: Identifier, arguments: Children<Argument>)
    /// `import "path.anim" (as name)?` at the top level of a file: `path` is the string
    /// literal as written (relative to the importing file).
    case importDecl(path: Expr, alias: Identifier?)
    /// `input name: type (in range)? (= default)?` at the top level: a value the app (or
    /// an event script) sends, e.g. `input progress: number in 0 ... 1 = 0`.
    case inputDecl(name: Identifier, type: Identifier, range: Expr?, defaultValue: Expr?)
    /// `state name { layer.keyPath: value ... }` at the top level: the model values the
    /// composition takes in that state.
    case stateDecl(name: Identifier, body: Block)
    /// `on input (if condition)? from a, b -> c (with duration? timing (, model)?)?` at the
    /// top level. `from` holds identifier expressions, one per state. With one expression
    /// after `with`, it is in `timing` (a duration or a timing function: the checker
    /// tells). `interruption` names how it meets a transition still running.
    case transition(input: Identifier, condition: Expr?, from: Children<Expr>, to: Identifier, duration: Expr?, timing: Expr?,
                    interruption: Identifier?)
    /// Input that could not be parsed; already diagnosed.
    case error
}

/// What an item is, without its parts: for a walk that dispatches on the kind and
/// reads the parts of a few kinds only (decoding every item's parts cost more than the
/// walk).
public enum ItemTag: Sendable {
    case letDecl, timingDecl, component, composition, pathDecl, layer, instance, property, animation, keyframe
    case forLoop, ifItem, pathCommand, importDecl, inputDecl, stateDecl, transition, error
}

/// A dotted key path such as `transform.rotation.z`, as Core Animation spells it.
public struct KeyPathSyntax: SyntaxElement, Hashable {
    public let id: UInt32
    public let range: SourceRange
    /// The whole path as one name, `transform.rotation.z` (interned when parsed).
    public let dotted: String
    /// ``dotted``'s place among the tree's interned names: two key paths of one tree are
    /// the same path exactly when these are equal.
    public let dottedID: UInt32

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> KeyPathSyntax {
        let n = arena.nodes[Int(id)]
        let name = arena.bits(id) == SyntaxArena.singleNameKeyPath ? n.data : arena.extra[Int(n.data)]
        return KeyPathSyntax(id: id, range: SourceRange(start: n.start, end: n.end), dotted: arena.names[Int(name)], dottedID: name)
    }

    @inlinable init(id: UInt32, range: SourceRange, dotted: String, dottedID: UInt32) {
        self.id = id
        self.range = range
        self.dotted = dotted
        self.dottedID = dottedID
    }
}

/// `name: Type (= default)?` in a component's parameter list.
public struct Parameter: SyntaxElement, Hashable {
    public let name: Identifier
    public let type: Identifier?
    public let defaultValue: Expr?
    public let range: SourceRange

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> Parameter {
        let x = arena.data(id)
        return Parameter(name: arena.identifier(at: x), type: arena.optionalIdentifier(at: x + 3),
                         defaultValue: arena.optionalExpr(arena.word(x + 6)), range: arena.range(id))
    }

    @inlinable init(name: Identifier, type: Identifier?, defaultValue: Expr?, range: SourceRange) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.range = range
    }
}

/// `name in sequence` in a `for` loop.
public struct LoopBinding: SyntaxElement, Hashable {
    public let name: Identifier
    public let sequence: Expr
    public let range: SourceRange

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> LoopBinding {
        let x = arena.data(id)
        return LoopBinding(name: arena.identifier(at: x), sequence: arena.expr(arena.word(x + 3)), range: arena.range(id))
    }

    @inlinable init(name: Identifier, sequence: Expr, range: SourceRange) {
        self.name = name
        self.sequence = sequence
        self.range = range
    }
}

/// `label: value` or `value` in a call. An argument without a label is its value's node.
public struct Argument: SyntaxElement, Hashable {
    public let label: Identifier?
    public let value: Expr
    public let range: SourceRange

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> Argument {
        let n = arena.nodes[Int(id)]
        let range = SourceRange(start: n.start, end: n.end)
        guard arena.tag(id) == .argument else { return Argument(label: nil, value: Expr(id: id, range: range), range: range) }
        return Argument(label: arena.identifier(at: n.data), value: arena.expr(arena.word(n.data + 3)), range: range)
    }

    @inlinable init(label: Identifier?, value: Expr, range: SourceRange) {
        self.label = label
        self.value = value
        self.range = range
    }
}

/// An expression. `tree[expr]` is its ``ExprKind``.
public struct Expr: SyntaxElement, Hashable {
    public let id: UInt32
    public let range: SourceRange

    @inlinable public static func make(_ arena: SyntaxArena, _ id: UInt32) -> Expr {
        Expr(id: id, range: arena.range(id))
    }

    @inlinable init(id: UInt32, range: SourceRange) {
        self.id = id
        self.range = range
    }
}

public enum UnaryOperator: String, Hashable, Sendable, CaseIterable {
    case negate = "-", plus = "+", not = "!"
}

public enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">=", equal = "==", notEqual = "!="
    case and = "&&", or = "||"
    /// `w x h`: a size.
    case size = "x"
}

public enum ExprKind: Sendable {
    /// `12`, `0.5s`, `45deg`, `50%`.
    case number(Double, NumberUnit?)
    case string(String)
    /// `#RRGGBB(AA)` as straight-alpha sRGB components in 0...1.
    case color(red: Double, green: Double, blue: Double, alpha: Double)
    case bool(Bool)
    case identifier(String)
    /// `( e )`
    case paren(Expr)
    /// `( a, b, ... )` with two or more elements: a point, size, rect or vector.
    case tuple(Children<Expr>)
    /// `[ a, b, ... ]`
    case list(Children<Expr>)
    case unary(UnaryOperator, Expr)
    case binary(BinaryOperator, Expr, Expr)
    /// `c ? a : b`
    case conditional(Expr, Expr, Expr)
    /// `a ..< b` or `a ... b`
    case range(Expr, Expr, inclusive: Bool)
    /// `f(args)`
    case call(callee: Identifier, arguments: Children<Argument>)
    /// `module.Name(args)`: a call of a name an imported file declares.
    case qualifiedCall(module: Identifier, callee: Identifier, arguments: Children<Argument>)
    /// `e[i, j]`
    case index(Expr, Children<Expr>)
    /// `e.name`
    case member(Expr, Identifier)
    /// `.name`: Swift's implicit member (`.pi`, `.forwards`), which `.anim` does not
    /// have; parsed so that pasted code gets its `.anim` spelling as a fix-it.
    case implicitMember(Identifier)
    /// Transform functions written side by side: `rotate(-45deg) scale(0.25)`.
    case sequence(Children<Expr>)
    /// `[UIColor clearColor]`, `[NSNumber numberWithFloat:0.5]`: an Objective-C message
    /// send, which `.anim` does not have; parsed so that pasted code gets its `.anim`
    /// spelling as a fix-it. `selector` is the first piece; the arguments are labelled
    /// with theirs (the first with `selector` again; `:0.5` pieces have none).
    case message(receiver: Expr, selector: Identifier, arguments: Children<Argument>)
    /// `path { commands }` used as a value.
    case pathLiteral(Block)
    /// Missing or unparsable; already diagnosed.
    case error
}

// MARK: - Lists

/// The children of a node (a block's items, a call's arguments) as a plain value:
/// where their indices are in the arena and how many there are. `tree[children]` lists
/// them.
public struct Children<Element: SyntaxElement>: Hashable, Sendable {
    /// Where the first child's index sits in ``SyntaxArena/extra``.
    @usableFromInline let offset: UInt32
    public let count: Int

    @inlinable init(offset: UInt32, count: Int) {
        self.offset = offset
        self.count = count
    }

    @inlinable public var isEmpty: Bool { count == 0 }
}

/// The children of a node in order, read from their arena: a collection that allocates
/// nothing.
public struct SyntaxList<Element: SyntaxElement>: RandomAccessCollection, Sendable {
    public let arena: SyntaxArena
    public let children: Children<Element>

    @inlinable init(arena: SyntaxArena, children: Children<Element>) {
        self.arena = arena
        self.children = children
    }

    @inlinable public var count: Int { children.count }
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { children.count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < children.count, "syntax list index out of range")
        return Element.make(arena, arena.word(children.offset + UInt32(truncatingIfNeeded: position)))
    }
}

/// An argument's parts without its label's name: the label's interned id and range,
/// the value and the argument's range. Matching arguments to parameters by interned
/// name needs no more, and making the label (its name's string) for every argument of
/// every instance cost more than the match.
public struct ArgumentParts: Sendable {
    /// ``Identifier/noNameID`` when the argument has no label.
    public let labelID: UInt32
    public let isLabelled: Bool
    public let value: Expr
    public let range: SourceRange

    @inlinable init(labelID: UInt32, isLabelled: Bool, value: Expr, range: SourceRange) {
        self.labelID = labelID
        self.isLabelled = isLabelled
        self.value = value
        self.range = range
    }
}

extension SyntaxList where Element == Argument {
    /// Argument `position`'s parts, without making its label (see ``ArgumentParts``).
    @inlinable public func parts(_ position: Int) -> ArgumentParts {
        precondition(position >= 0 && position < children.count, "syntax list index out of range")
        let id = arena.word(children.offset + UInt32(truncatingIfNeeded: position))
        let n = arena.nodes[Int(id)]
        let range = SourceRange(start: n.start, end: n.end)
        guard arena.tag(id) == .argument else {
            return ArgumentParts(labelID: Identifier.noNameID, isLabelled: false, value: Expr(id: id, range: range), range: range)
        }
        return ArgumentParts(labelID: arena.word(n.data), isLabelled: true, value: arena.expr(arena.word(n.data + 3)), range: range)
    }
}

/// The components of a key path: the one name of a one-name path's node, or the
/// components stored as three words each (name, start, end).
public struct IdentifierList: RandomAccessCollection, Sendable {
    public let arena: SyntaxArena
    /// The key path's node.
    @usableFromInline let path: UInt32

    @inlinable init(arena: SyntaxArena, path: UInt32) {
        self.arena = arena
        self.path = path
    }

    @inlinable var isSingleName: Bool { arena.bits(path) == SyntaxArena.singleNameKeyPath }
    @inlinable public var count: Int { isSingleName ? 1 : Int(arena.word(arena.data(path) + 1)) }
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public subscript(position: Int) -> Identifier {
        precondition(position >= 0 && position < count, "key path component index out of range")
        if isSingleName {
            let n = arena.nodes[Int(path)]
            return Identifier(arena.names[Int(n.data)], SourceRange(start: n.start, end: n.end), nameID: n.data)
        }
        return arena.identifier(at: arena.data(path) + 2 + 3 * UInt32(truncatingIfNeeded: position))
    }
}

// MARK: - Reading a tree

extension SyntaxTree {
    /// What `item` is, without its parts.
    @inlinable @inline(__always) public func tag(_ item: Item) -> ItemTag { arena.itemTag(item.id) }
    /// The interned name an identifier expression reads (its ``Identifier/nameID``), or
    /// ``Identifier/noNameID`` for any other expression.
    @inlinable @inline(__always) public func nameID(_ expr: Expr) -> UInt32 {
        arena.tag(expr.id) == .identifier ? arena.data(expr.id) : Identifier.noNameID
    }
    /// The value and unit of a number literal, nil for any other expression: what
    /// `tree[expr]` gives for one, without decoding a general expression.
    @inlinable @inline(__always) public func numberLiteral(_ expr: Expr) -> (value: Double, unit: NumberUnit?)? {
        let k = arena.kinds[Int(expr.id)]
        switch k.tag {
        case .smallNumber: return (Double(arena.nodes[Int(expr.id)].data), NumberUnit(code: k.bits))
        case .number:
            let x = arena.nodes[Int(expr.id)].data
            return (k.bits >= 16 ? SyntaxArena.decimal(x, k.bits) : arena.numbers[Int(x)], NumberUnit(code: k.bits & 15))
        default: return nil
        }
    }
    /// What `item` is, with its parts.
    @inlinable @inline(__always) public subscript(item: Item) -> ItemKind { arena.itemKind(item.id) }
    /// What `expr` is, with its operands.
    @inlinable @inline(__always) public subscript(expr: Expr) -> ExprKind { arena.exprKind(expr.id) }
    /// The nodes `children` lists.
    @inlinable public subscript<Element>(children: Children<Element>) -> SyntaxList<Element> { SyntaxList(arena: arena, children: children) }
    /// The names of `path`, one per component.
    @inlinable public func components(_ path: KeyPathSyntax) -> IdentifierList { arena.components(path) }
}

extension SyntaxArena {
    /// What `item` is, with its parts.
    @inlinable @inline(__always) public subscript(item: Item) -> ItemKind { itemKind(item.id) }
    /// What `expr` is, with its operands.
    @inlinable @inline(__always) public subscript(expr: Expr) -> ExprKind { exprKind(expr.id) }
    /// The nodes `children` lists.
    @inlinable public subscript<Element>(children: Children<Element>) -> SyntaxList<Element> { SyntaxList(arena: self, children: children) }
    /// The names of `path`, one per component.
    @inlinable public func components(_ path: KeyPathSyntax) -> IdentifierList {
        IdentifierList(arena: self, path: path.id)
    }
}

// MARK: - The arena

/// What a node is. Items, blocks, expressions and the parts of items (key paths,
/// parameters, loop bindings, labelled arguments) share one numbering.
@usableFromInline
enum NodeTag: UInt8, Sendable, BitwiseCopyable {
    // Items.
    case letDecl, timingDecl, component, composition, pathDecl, layer, instance, property, animation, keyframe
    case forLoop, ifItem, pathCommand, importDecl, inputDecl, stateDecl, transition, errorItem
    case block
    // Expressions.
    case number, smallNumber, string, color, boolean, identifier, paren, tuple, list, unary, binary, conditional
    case range, call, qualifiedCall, index, member, implicitMember, sequence, pathLiteral, message, errorExpr
    // Parts of items.
    case keyPath, parameter, loopBinding, argument
}

/// One node's range and payload: 12 bytes. `data` is a payload (a child's index, an
/// interned name, a small number) or the offset in ``SyntaxArena/extra`` where the
/// node's fields are, as ``SyntaxArena`` lays out per tag. What the node is, its
/// ``NodeKind``, is kept in a parallel array: 14 bytes a node in all, where one struct
/// of the five fields took 16 (a struct of 12 needs a shorter range, and a reader that
/// branches on every range it makes, which cost more than the bytes were worth).
@usableFromInline
struct SyntaxNode: Sendable, BitwiseCopyable {
    @usableFromInline var start: UInt32
    @usableFromInline var end: UInt32
    @usableFromInline var data: UInt32

    @inlinable init(start: UInt32, end: UInt32, data: UInt32) {
        self.start = start
        self.end = end
        self.data = data
    }
}

/// What a node is: its tag and a small field (a unit, an operator, `closed`,
/// `inclusive`, whether a layer is a mask, a one-name key path).
@usableFromInline
struct NodeKind: Sendable, BitwiseCopyable {
    @usableFromInline var tag: NodeTag
    @usableFromInline var bits: UInt8

    @inlinable init(tag: NodeTag, bits: UInt8) {
        self.tag = tag
        self.bits = bits
    }
}

/// Where a parse keeps its nodes. Immutable once the parse returns.
///
/// Layouts in `extra`, by tag (an identifier is three words: interned name, start,
/// end, with the name `none` when absent; an absent child is `none`; a list is a count
/// followed by the children's indices):
///
/// | tag | `data` | `extra` at `data` |
/// |---|---|---|
/// | block | offset | list of items; `bits` = closed |
/// | letDecl | offset | name, type, value |
/// | timingDecl | offset | name, value |
/// | component | offset | name, body, list of parameters |
/// | composition, pathDecl | offset | name, body |
/// | layer | offset | kind, name, body, mask start, mask end, list of indices; `bits` = has a mask |
/// | instance | offset | name, value, list of indices |
/// | property | offset | key path, value |
/// | animation | offset | kind, target, alias, along, body, list of the alias's indices |
/// | keyframe | offset | time, value, timing |
/// | forLoop | offset | body, list of bindings |
/// | ifItem | offset | condition, then, otherwise |
/// | pathCommand | offset | name, list of arguments |
/// | importDecl | offset | path, alias |
/// | inputDecl | offset | name, type, range, default |
/// | stateDecl | offset | name, body |
/// | transition | offset | input, condition, target, duration, timing, interruption, list of source states (identifier expressions) |
/// | number | index in `numbers` | — ; `bits` = unit (below 16) |
/// | smallNumber | the value (a whole number below 2³²) | — ; `bits` = unit |
/// | number (a short decimal) | the digits `m` of a value `m / 10ᵉ`, `e` > 0 (see ``SyntaxArena/decimal(_:_:)``) | — ; `bits` = unit, and `e` times 16 |
/// | string | index in `strings` | — |
/// | color | index of four in `numbers` | — |
/// | boolean | — | — ; `bits` = the value |
/// | identifier | interned name | — |
/// | paren, unary | the operand | — ; `bits` = operator |
/// | tuple, list, sequence | offset | list of elements |
/// | binary | offset | left, right; `bits` = operator |
/// | conditional | offset | condition, then, otherwise |
/// | range | offset | lower, upper; `bits` = inclusive |
/// | call | offset | callee, list of arguments |
/// | message | offset | selector (its first piece), receiver, list of arguments |
/// | index | offset | base, list of indices |
/// | member | offset | base, name |
/// | implicitMember | offset | name |
/// | pathLiteral | the block | — |
/// | keyPath (one name) | interned name | — ; `bits` = ``SyntaxArena/singleNameKeyPath`` |
/// | keyPath (dotted) | offset | dotted name, count, components |
/// | parameter | offset | name, type, default |
/// | loopBinding | offset | name, sequence |
/// | argument (labelled) | offset | label, value |
///
/// `nodes`, `kinds` and `extra` are plain buffers the arena owns, written once by the parse and
/// only read after: they hold no references, and every index into them was made by the
/// parse that filled them, which is why they are read without bounds checks (a debug
/// build still checks).
public final class SyntaxArena: @unchecked Sendable {
    @usableFromInline let nodes: UnsafeBufferPointer<SyntaxNode>
    /// Each node's kind, by the same index as `nodes`.
    @usableFromInline let kinds: UnsafeBufferPointer<NodeKind>
    @usableFromInline let extra: UnsafeBufferPointer<UInt32>
    /// Every distinct name of the tree, once, by ``Identifier/nameID``.
    public let names: [String]
    @usableFromInline let numbers: [Double]
    @usableFromInline let strings: [String]

    @usableFromInline static let none = UInt32.max

    /// The value of a ``NodeTag/number`` node that holds a short decimal (`bits` of 16 or more): its digits over the power of ten
    /// in the upper half of `bits`. Both are exact doubles, so the quotient is the
    /// decimal's correctly rounded value; the builder keeps a number this way only when
    /// it comes out bit for bit as the literal's value (see ``SyntaxBuilder/number(_:_:_:)``).
    /// Not inlined: in the expression reader, its switch made the reader too large to be
    /// inlined into the evaluator, which then copied every `ExprKind` it read.
    @usableFromInline @inline(never)
    static func decimal(_ digits: UInt32, _ bits: UInt8) -> Double {
        let power: Double
        switch bits >> 4 {
        case 1: power = 1e1
        case 2: power = 1e2
        case 3: power = 1e3
        case 4: power = 1e4
        case 5: power = 1e5
        case 6: power = 1e6
        case 7: power = 1e7
        case 8: power = 1e8
        default: power = 1e9
        }
        return Double(digits) / power
    }
    /// A key path node's `bits` when the path is one name, which its `data` holds.
    @usableFromInline static let singleNameKeyPath: UInt8 = 1

    /// Takes ownership of `nodes` and `extra`.
    init(nodes: UnsafeBufferPointer<SyntaxNode>, kinds: UnsafeBufferPointer<NodeKind>, extra: UnsafeBufferPointer<UInt32>,
         names: [String], numbers: [Double], strings: [String], layerDeclarations: (count: Int, anyMask: Bool)) {
        self.nodes = nodes
        self.kinds = kinds
        self.extra = extra
        self.names = names
        self.numbers = numbers
        self.strings = strings
        self.layerDeclarations = layerDeclarations
    }

    deinit {
        PlainBuffer.release(nodes)
        PlainBuffer.release(kinds)
        PlainBuffer.release(extra)
    }

    /// How many nodes the parse made (some may be unreachable: recovery can drop what it
    /// parsed).
    public var nodeCount: Int { nodes.count }

    /// The bytes the arena's arrays hold, for the benchmarks' memory figures.
    public var byteCount: Int {
        nodes.count * (MemoryLayout<SyntaxNode>.stride + MemoryLayout<NodeKind>.stride) + extra.count * 4 + numbers.count * 8
            + names.reduce(0) { $0 + $1.utf8.count + 16 } + strings.reduce(0) { $0 + $1.utf8.count + 16 }
    }

    /// Whether any member access in the file, `e.name`, names one of `names`: a scan of
    /// the nodes, for a check that can skip work no such access would read.
    public func hasMemberAccess(named names: [String]) -> Bool {
        for i in kinds.indices where kinds[i].tag == .member && names.contains(self.names[Int(extra[Int(nodes[i].data) + 1])]) {
            return true
        }
        return false
    }

    /// Whether the tree holds an implicit member (`.pi`) or an Objective-C message send,
    /// which `.anim` parses only to port.
    public var hasSwiftSyntax: Bool {
        kinds.contains { $0.tag == .implicitMember || $0.tag == .message }
    }

    /// How many layer declarations the parse made (recovery may have dropped some), and
    /// whether any is a mask layer: a check sizes its list of layers by the first (exact
    /// for a file without loops, components or `if`) and streams its layers only
    /// without the second. Counted as the parser makes them.
    public let layerDeclarations: (count: Int, anyMask: Bool)

    // MARK: Reading nodes

    @inlinable func node(_ id: UInt32) -> SyntaxNode { nodes[Int(id)] }
    @inlinable func tag(_ id: UInt32) -> NodeTag { kinds[Int(id)].tag }
    @inlinable func bits(_ id: UInt32) -> UInt8 { kinds[Int(id)].bits }
    @inlinable func data(_ id: UInt32) -> UInt32 { nodes[Int(id)].data }
    @inlinable func word(_ offset: UInt32) -> UInt32 { extra[Int(offset)] }
    @inlinable func name(_ index: UInt32) -> String { names[Int(index)] }

    @inlinable func range(_ id: UInt32) -> SourceRange {
        let n = nodes[Int(id)]
        return SourceRange(start: n.start, end: n.end)
    }

    @inlinable func identifier(at offset: UInt32) -> Identifier {
        let o = Int(offset)
        let id = extra[o]
        return Identifier(names[Int(id)], SourceRange(start: extra[o + 1], end: extra[o + 2]), nameID: id)
    }

    @inlinable func optionalIdentifier(at offset: UInt32) -> Identifier? {
        extra[Int(offset)] == SyntaxArena.none ? nil : identifier(at: offset)
    }

    @inlinable func optionalExpr(_ id: UInt32) -> Expr? {
        id == SyntaxArena.none ? nil : expr(id)
    }

    @inlinable func children<Element>(at offset: UInt32) -> Children<Element> {
        Children(offset: offset + 1, count: Int(extra[Int(offset)]))
    }

    @inlinable func expr(_ id: UInt32) -> Expr { Expr.make(self, id) }
    @inlinable func block(_ id: UInt32) -> Block { Block.make(self, id) }
    @inlinable func keyPath(_ id: UInt32) -> KeyPathSyntax { KeyPathSyntax.make(self, id) }

    @inlinable @inline(__always) func itemTag(_ id: UInt32) -> ItemTag {
        switch kinds[Int(id)].tag {
        case .letDecl: return .letDecl
        case .timingDecl: return .timingDecl
        case .component: return .component
        case .composition: return .composition
        case .pathDecl: return .pathDecl
        case .layer: return .layer
        case .instance: return .instance
        case .property: return .property
        case .animation: return .animation
        case .keyframe: return .keyframe
        case .forLoop: return .forLoop
        case .ifItem: return .ifItem
        case .pathCommand: return .pathCommand
        case .importDecl: return .importDecl
        case .inputDecl: return .inputDecl
        case .stateDecl: return .stateDecl
        case .transition: return .transition
        default: return .error
        }
    }

    @inlinable @inline(__always) func itemKind(_ id: UInt32) -> ItemKind {
        let n = nodes[Int(id)], k = kinds[Int(id)]
        let x = n.data
        switch k.tag {
        case .letDecl:
            return .letDecl(name: identifier(at: x), type: optionalIdentifier(at: x + 3), value: expr(word(x + 6)))
        case .timingDecl:
            return .timingDecl(name: identifier(at: x), value: expr(word(x + 3)))
        case .component:
            return .component(name: identifier(at: x), params: children(at: x + 4), body: block(word(x + 3)))
        case .composition:
            return .composition(name: optionalIdentifier(at: x), body: block(word(x + 3)))
        case .pathDecl:
            return .pathDecl(name: identifier(at: x), body: block(word(x + 3)))
        case .layer:
            let mask = k.bits != 0 ? SourceRange(start: word(x + 7), end: word(x + 8)) : nil
            return .layer(mask: mask, kind: identifier(at: x), name: optionalIdentifier(at: x + 3), indices: children(at: x + 9),
                          body: block(word(x + 6)))
        case .instance:
            return .instance(name: identifier(at: x), indices: children(at: x + 4), value: expr(word(x + 3)))
        case .property:
            return .property(key: keyPath(word(x)), value: expr(word(x + 1)))
        case .animation:
            let target = word(x + 3)
            return .animation(kind: identifier(at: x), target: target == SyntaxArena.none ? nil : keyPath(target),
                              alias: optionalIdentifier(at: x + 4), along: optionalExpr(word(x + 7)), body: block(word(x + 8)),
                              indices: children(at: x + 9))
        case .keyframe:
            return .keyframe(time: expr(word(x)), value: expr(word(x + 1)), timing: optionalExpr(word(x + 2)))
        case .forLoop:
            return .forLoop(bindings: children(at: x + 1), body: block(word(x)))
        case .ifItem:
            let otherwise = word(x + 2)
            return .ifItem(condition: expr(word(x)), then: block(word(x + 1)),
                           otherwise: otherwise == SyntaxArena.none ? nil : block(otherwise))
        case .pathCommand:
            return .pathCommand(name: identifier(at: x), arguments: children(at: x + 3))
        case .importDecl:
            return .importDecl(path: expr(word(x)), alias: optionalIdentifier(at: x + 1))
        case .inputDecl:
            return .inputDecl(name: identifier(at: x), type: identifier(at: x + 3), range: optionalExpr(word(x + 6)),
                              defaultValue: optionalExpr(word(x + 7)))
        case .stateDecl:
            return .stateDecl(name: identifier(at: x), body: block(word(x + 3)))
        case .transition:
            return .transition(input: identifier(at: x), condition: optionalExpr(word(x + 3)), from: children(at: x + 12),
                               to: identifier(at: x + 4), duration: optionalExpr(word(x + 7)), timing: optionalExpr(word(x + 8)),
                               interruption: optionalIdentifier(at: x + 9))
        default:
            return .error
        }
    }

    @inlinable @inline(__always) func exprKind(_ id: UInt32) -> ExprKind {
        let n = nodes[Int(id)], k = kinds[Int(id)]
        let x = n.data
        switch k.tag {
        case .smallNumber: return .number(Double(x), NumberUnit(code: k.bits))
        case .number: return .number(k.bits >= 16 ? SyntaxArena.decimal(x, k.bits) : numbers[Int(x)], NumberUnit(code: k.bits & 15))
        case .identifier: return .identifier(names[Int(x)])
        case .binary: return .binary(BinaryOperator(code: k.bits), expr(word(x)), expr(word(x + 1)))
        case .call: return .call(callee: identifier(at: x), arguments: children(at: x + 3))
        case .qualifiedCall:
            return .qualifiedCall(module: identifier(at: x), callee: identifier(at: x + 3), arguments: children(at: x + 6))
        case .message: return .message(receiver: expr(word(x + 3)), selector: identifier(at: x), arguments: children(at: x + 4))
        case .tuple: return .tuple(children(at: x))
        case .string: return .string(strings[Int(x)])
        case .color:
            let i = Int(x)
            return .color(red: numbers[i], green: numbers[i + 1], blue: numbers[i + 2], alpha: numbers[i + 3])
        case .boolean: return .bool(k.bits != 0)
        case .paren: return .paren(expr(x))
        case .list: return .list(children(at: x))
        case .unary: return .unary(UnaryOperator(code: k.bits), expr(x))
        case .conditional: return .conditional(expr(word(x)), expr(word(x + 1)), expr(word(x + 2)))
        case .range: return .range(expr(word(x)), expr(word(x + 1)), inclusive: k.bits != 0)
        case .index: return .index(expr(word(x)), children(at: x + 1))
        case .member: return .member(expr(word(x)), identifier(at: x + 1))
        case .implicitMember: return .implicitMember(identifier(at: x))
        case .sequence: return .sequence(children(at: x))
        case .pathLiteral: return .pathLiteral(block(x))
        default: return .error
        }
    }
}

// MARK: - Small fields

extension NumberUnit {
    /// 0 for no unit, else one more than the unit's place in `allCases`.
    @usableFromInline var code: UInt8 {
        switch self {
        case .s: return 1
        case .ms: return 2
        case .deg: return 3
        case .rad: return 4
        case .turn: return 5
        case .percent: return 6
        case .pt: return 7
        }
    }

    @inlinable @inline(__always) init?(code: UInt8) {
        switch code {
        case 1: self = .s
        case 2: self = .ms
        case 3: self = .deg
        case 4: self = .rad
        case 5: self = .turn
        case 6: self = .percent
        case 7: self = .pt
        default: return nil
        }
    }
}

extension UnaryOperator {
    @usableFromInline var code: UInt8 {
        switch self {
        case .negate: return 0
        case .plus: return 1
        case .not: return 2
        }
    }

    @inlinable init(code: UInt8) {
        switch code {
        case 0: self = .negate
        case 1: self = .plus
        default: self = .not
        }
    }
}

extension BinaryOperator {
    @usableFromInline var code: UInt8 {
        switch self {
        case .add: return 0
        case .subtract: return 1
        case .multiply: return 2
        case .divide: return 3
        case .less: return 4
        case .lessEqual: return 5
        case .greater: return 6
        case .greaterEqual: return 7
        case .equal: return 8
        case .notEqual: return 9
        case .and: return 10
        case .or: return 11
        case .size: return 12
        }
    }

    @inlinable init(code: UInt8) {
        switch code {
        case 0: self = .add
        case 1: self = .subtract
        case 2: self = .multiply
        case 3: self = .divide
        case 4: self = .less
        case 5: self = .lessEqual
        case 6: self = .greater
        case 7: self = .greaterEqual
        case 8: self = .equal
        case 9: self = .notEqual
        case 10: self = .and
        case 11: self = .or
        default: self = .size
        }
    }
}

/// The levels the parser climbs (see `parseBinary`), lowest first, for printing an
/// expression where another stood: a fix-it that replaces `CGFloat(n / 3)` in
/// `a / CGFloat(n / 3)` writes `(n / 3)`, since `a / n / 3` means something else.
public enum Precedence {
    public static let conditional = -2
    public static let range = -1
    public static let unary = 6
    /// Literals, names, calls, members, brackets: nothing binds tighter.
    public static let postfix = 7
    /// Where any expression may stand: an argument, an element, a value.
    public static let any = conditional
}

extension SyntaxTree {
    /// The ``Precedence`` level of `expr` as written.
    public func precedenceLevel(_ expr: Expr) -> Int {
        switch self[expr] {
        case .binary(let op, _, _): return op.precedence
        case .unary: return Precedence.unary
        case .conditional: return Precedence.conditional
        case .range: return Precedence.range
        default: return Precedence.postfix
        }
    }
}

extension BinaryOperator {
    /// The operator's level in ``Precedence``'s order.
    public var precedence: Int {
        switch self {
        case .or: return 0
        case .and: return 1
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual: return 2
        case .size: return 3
        case .add, .subtract: return 4
        case .multiply, .divide: return 5
        }
    }

    /// The least level each operand must have to stay this operator's operand: the left
    /// one may be at the operator's own level where it associates (`a - b - c` is
    /// `(a - b) - c`); comparisons and `x` do not associate.
    public var operandLevels: (left: Int, right: Int) {
        switch self {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual, .size: return (precedence + 1, precedence + 1)
        default: return (precedence, precedence + 1)
        }
    }
}
