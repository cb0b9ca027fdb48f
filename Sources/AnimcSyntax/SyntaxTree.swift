import AnimcBase
import AnimcDiagnostics

/// The result of parsing one file: always a tree, plus every syntax error found.
///
/// The nodes live in one ``SyntaxArena`` (flat arrays, children by index), and
/// ``Item``, ``Expr``, ``Block`` and the other node types are small views into it: a
/// tree costs a few arrays however many nodes it has, instead of an allocation per
/// node, and is freed as a few arrays too.
public struct SyntaxTree: Sendable {
    public var file: SourceFile
    public var root: Block
    /// Comment ranges (for `animc-ignore` directives).
    public var comments: [SourceRange]
    /// Lexical and syntax diagnostics, in source order.
    public var diagnostics: [Diagnostic]

    /// The arena every node of the tree lives in.
    public var arena: SyntaxArena { root.arena }
}

/// A name as written, with its range.
public struct Identifier: Hashable, Sendable {
    public var name: String
    public var range: SourceRange
    public init(_ name: String, _ range: SourceRange) {
        self.name = name
        self.range = range
    }
}

// MARK: - Node kinds

/// The syntax's node types as views. Each is an arena and a node index: copying one
/// copies two words, and its fields are read from the arena when asked for.
public protocol SyntaxView: Sendable {
    var arena: SyntaxArena { get }
    var id: UInt32 { get }
    init(arena: SyntaxArena, id: UInt32)
}

/// `{ items }`. `closed` is false when the closing brace was missing (already diagnosed).
public struct Block: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable public var items: SyntaxList<Item> { arena.list(at: arena.data(id)) }
    @inlinable public var closed: Bool { arena.bits(id) != 0 }
}

/// One item of a block. What a block may hold depends on the block; the parser
/// reports misplaced items but keeps them in the tree.
public struct Item: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable public var kind: ItemKind { arena.itemKind(id) }
}

public enum ItemKind: Sendable {
    /// `let name (: Type)? = value`
    case letDecl(name: Identifier, type: Identifier?, value: Expr)
    /// `timing name = value`
    case timingDecl(name: Identifier, value: Expr)
    /// `component Name(params) { body }`
    case component(name: Identifier, params: SyntaxList<Parameter>, body: Block)
    /// `composition Name? { attributes }`
    case composition(name: Identifier?, body: Block)
    /// `path name { commands }`
    case pathDecl(name: Identifier, body: Block)
    /// `mask? kind name[indices]? { body }`, e.g. `shape circle { ... }` or, in a loop,
    /// `layer dot[i] { ... }`. The name is optional only for a component's root layer.
    case layer(mask: SourceRange?, kind: Identifier, name: Identifier?, indices: SyntaxList<Expr>, body: Block)
    /// `name[indices]? = Component(args)`
    case instance(name: Identifier, indices: SyntaxList<Expr>, value: Expr)
    /// `key.path: value`
    case property(key: KeyPathSyntax, value: Expr)
    /// `kind keyPath? (as name)? (along path)? { body }`, e.g. `keyframes strokeEnd { ... }`.
    case animation(kind: Identifier, target: KeyPathSyntax?, alias: Identifier?, along: Expr?, body: Block)
    /// `keyTime = value (~ timing)?`, a row of a keyframes block.
    case keyframe(time: Expr, value: Expr, timing: Expr?)
    /// `for a in range, b in range { body }`
    case forLoop(bindings: SyntaxList<LoopBinding>, body: Block)
    /// `if condition { then } (else { ... } | else if ...)?`
    case ifItem(condition: Expr, then: Block, otherwise: Block?)
    /// `command positional? (label: value)*` inside a path block, e.g. `cubic (1, 2) c1: (0, 0) c2: (1, 1)`.
    case pathCommand(name: Identifier, arguments: SyntaxList<Argument>)
    /// Input that could not be parsed; already diagnosed.
    case error
}

/// A dotted key path such as `transform.rotation.z`, as Core Animation spells it.
public struct KeyPathSyntax: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    /// The whole path as one name, `transform.rotation.z` (interned when parsed).
    @inlinable public var dotted: String { arena.name(arena.word(arena.data(id))) }
    @inlinable public var components: IdentifierList { IdentifierList(arena: arena, offset: arena.data(id) + 1) }
}

/// `name: Type (= default)?` in a component's parameter list.
public struct Parameter: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable public var name: Identifier { arena.identifier(at: arena.data(id)) }
    @inlinable public var type: Identifier? { arena.optionalIdentifier(at: arena.data(id) + 3) }
    @inlinable public var defaultValue: Expr? { arena.optionalExpr(arena.word(arena.data(id) + 6)) }
}

/// `name in sequence` in a `for` loop.
public struct LoopBinding: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable public var name: Identifier { arena.identifier(at: arena.data(id)) }
    @inlinable public var sequence: Expr { Expr(arena: arena, id: arena.word(arena.data(id) + 3)) }
}

/// `label: value` or `value` in a call. An argument without a label is its value's node.
public struct Argument: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable var isLabelled: Bool { arena.tag(id) == .argument }
    @inlinable public var label: Identifier? { isLabelled ? arena.identifier(at: arena.data(id)) : nil }
    @inlinable public var value: Expr { isLabelled ? Expr(arena: arena, id: arena.word(arena.data(id) + 3)) : Expr(arena: arena, id: id) }
}

public struct Expr: SyntaxView {
    public let arena: SyntaxArena
    public let id: UInt32
    @inlinable public init(arena: SyntaxArena, id: UInt32) { self.arena = arena; self.id = id }

    @inlinable public var range: SourceRange { arena.range(id) }
    @inlinable public var kind: ExprKind { arena.exprKind(id) }
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
    case tuple(SyntaxList<Expr>)
    /// `[ a, b, ... ]`
    case list(SyntaxList<Expr>)
    case unary(UnaryOperator, Expr)
    case binary(BinaryOperator, Expr, Expr)
    /// `c ? a : b`
    case conditional(Expr, Expr, Expr)
    /// `a ..< b` or `a ... b`
    case range(Expr, Expr, inclusive: Bool)
    /// `f(args)`
    case call(callee: Identifier, arguments: SyntaxList<Argument>)
    /// `e[i, j]`
    case index(Expr, SyntaxList<Expr>)
    /// `e.name`
    case member(Expr, Identifier)
    /// `.name`: Swift's implicit member (`.pi`, `.forwards`), which `.anim` does not
    /// have; parsed so that pasted code gets its `.anim` spelling as a fix-it.
    case implicitMember(Identifier)
    /// Transform functions written side by side: `rotate(-45deg) scale(0.25)`.
    case sequence(SyntaxList<Expr>)
    /// `path { commands }` used as a value.
    case pathLiteral(Block)
    /// Missing or unparsable; already diagnosed.
    case error
}

// MARK: - Lists

/// The children of a node in order (a block's items, a call's arguments): a view of
/// node indices in the arena, so listing them allocates nothing.
public struct SyntaxList<Element: SyntaxView>: RandomAccessCollection, Sendable {
    public let arena: SyntaxArena
    /// Where the first child's index sits in ``SyntaxArena/extra``.
    @usableFromInline let offset: UInt32
    public let count: Int

    @inlinable init(arena: SyntaxArena, offset: UInt32, count: Int) {
        self.arena = arena
        self.offset = offset
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "syntax list index out of range")
        return Element(arena: arena, id: arena.word(offset + UInt32(truncatingIfNeeded: position)))
    }
}

/// The components of a key path, each stored as three words (name, start, end).
public struct IdentifierList: RandomAccessCollection, Sendable {
    public let arena: SyntaxArena
    /// Where the count sits in ``SyntaxArena/extra``; the identifiers follow it.
    @usableFromInline let offset: UInt32

    @inlinable init(arena: SyntaxArena, offset: UInt32) {
        self.arena = arena
        self.offset = offset
    }

    @inlinable public var count: Int { Int(arena.word(offset)) }
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }
    @inlinable public subscript(position: Int) -> Identifier {
        precondition(position >= 0 && position < count, "key path component index out of range")
        return arena.identifier(at: offset + 1 + 3 * UInt32(truncatingIfNeeded: position))
    }
}

// MARK: - The arena

/// What a node is. Items, blocks, expressions and the parts of items (key paths,
/// parameters, loop bindings, labelled arguments) share one numbering.
@usableFromInline
enum NodeTag: UInt8, Sendable {
    // Items.
    case letDecl, timingDecl, component, composition, pathDecl, layer, instance, property, animation, keyframe
    case forLoop, ifItem, pathCommand, errorItem
    case block
    // Expressions.
    case number, smallNumber, string, color, boolean, identifier, paren, tuple, list, unary, binary, conditional
    case range, call, index, member, implicitMember, sequence, pathLiteral, errorExpr
    // Parts of items.
    case keyPath, parameter, loopBinding, argument
}

/// One node: 16 bytes. `data` is a payload (a child's index, an interned name, a small
/// number) or the offset in ``SyntaxArena/extra`` where the node's fields are, as
/// ``SyntaxArena`` lays out per tag.
@usableFromInline
struct SyntaxNode: Sendable {
    @usableFromInline var tag: NodeTag
    /// A small field: a unit, an operator, `closed`, `inclusive`, whether a layer is a mask.
    @usableFromInline var bits: UInt8
    @usableFromInline var start: UInt32
    @usableFromInline var end: UInt32
    @usableFromInline var data: UInt32

    @inlinable init(tag: NodeTag, bits: UInt8, start: UInt32, end: UInt32, data: UInt32) {
        self.tag = tag
        self.bits = bits
        self.start = start
        self.end = end
        self.data = data
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
/// | animation | offset | kind, target, alias, along, body |
/// | keyframe | offset | time, value, timing |
/// | forLoop | offset | body, list of bindings |
/// | ifItem | offset | condition, then, otherwise |
/// | pathCommand | offset | name, list of arguments |
/// | number | index in `numbers` | — ; `bits` = unit |
/// | smallNumber | the value (a whole number below 2³²) | — ; `bits` = unit |
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
/// | index | offset | base, list of indices |
/// | member | offset | base, name |
/// | implicitMember | offset | name |
/// | pathLiteral | the block | — |
/// | keyPath | offset | dotted name, count, components |
/// | parameter | offset | name, type, default |
/// | loopBinding | offset | name, sequence |
/// | argument (labelled) | offset | label, value |
public final class SyntaxArena: Sendable {
    @usableFromInline let nodes: [SyntaxNode]
    @usableFromInline let extra: [UInt32]
    @usableFromInline let names: [String]
    @usableFromInline let numbers: [Double]
    @usableFromInline let strings: [String]

    @usableFromInline static let none = UInt32.max

    init(nodes: [SyntaxNode], extra: [UInt32], names: [String], numbers: [Double], strings: [String]) {
        self.nodes = nodes
        self.extra = extra
        self.names = names
        self.numbers = numbers
        self.strings = strings
    }

    /// How many nodes the parse made (some may be unreachable: recovery can drop what it
    /// parsed).
    public var nodeCount: Int { nodes.count }

    /// The bytes the arena's arrays hold, for the benchmarks' memory figures.
    public var byteCount: Int {
        nodes.count * MemoryLayout<SyntaxNode>.stride + extra.count * 4 + numbers.count * 8
            + names.reduce(0) { $0 + $1.utf8.count + 16 } + strings.reduce(0) { $0 + $1.utf8.count + 16 }
    }

    // MARK: Reading nodes

    @inlinable func node(_ id: UInt32) -> SyntaxNode { nodes[Int(id)] }
    @inlinable func tag(_ id: UInt32) -> NodeTag { nodes[Int(id)].tag }
    @inlinable func bits(_ id: UInt32) -> UInt8 { nodes[Int(id)].bits }
    @inlinable func data(_ id: UInt32) -> UInt32 { nodes[Int(id)].data }
    @inlinable func word(_ offset: UInt32) -> UInt32 { extra[Int(offset)] }
    @inlinable func name(_ index: UInt32) -> String { names[Int(index)] }

    @inlinable func range(_ id: UInt32) -> SourceRange {
        let n = nodes[Int(id)]
        return SourceRange(start: n.start, end: n.end)
    }

    @inlinable func identifier(at offset: UInt32) -> Identifier {
        let o = Int(offset)
        return Identifier(names[Int(extra[o])], SourceRange(start: extra[o + 1], end: extra[o + 2]))
    }

    @inlinable func optionalIdentifier(at offset: UInt32) -> Identifier? {
        extra[Int(offset)] == SyntaxArena.none ? nil : identifier(at: offset)
    }

    @inlinable func optionalExpr(_ id: UInt32) -> Expr? {
        id == SyntaxArena.none ? nil : Expr(arena: self, id: id)
    }

    @inlinable func list<Element>(at offset: UInt32) -> SyntaxList<Element> {
        SyntaxList(arena: self, offset: offset + 1, count: Int(extra[Int(offset)]))
    }

    @inlinable func expr(_ id: UInt32) -> Expr { Expr(arena: self, id: id) }
    @inlinable func block(_ id: UInt32) -> Block { Block(arena: self, id: id) }

    @inlinable func itemKind(_ id: UInt32) -> ItemKind {
        let n = nodes[Int(id)]
        let x = n.data
        switch n.tag {
        case .letDecl:
            return .letDecl(name: identifier(at: x), type: optionalIdentifier(at: x + 3), value: expr(word(x + 6)))
        case .timingDecl:
            return .timingDecl(name: identifier(at: x), value: expr(word(x + 3)))
        case .component:
            return .component(name: identifier(at: x), params: list(at: x + 4), body: block(word(x + 3)))
        case .composition:
            return .composition(name: optionalIdentifier(at: x), body: block(word(x + 3)))
        case .pathDecl:
            return .pathDecl(name: identifier(at: x), body: block(word(x + 3)))
        case .layer:
            let mask = n.bits != 0 ? SourceRange(start: word(x + 7), end: word(x + 8)) : nil
            return .layer(mask: mask, kind: identifier(at: x), name: optionalIdentifier(at: x + 3), indices: list(at: x + 9),
                          body: block(word(x + 6)))
        case .instance:
            return .instance(name: identifier(at: x), indices: list(at: x + 4), value: expr(word(x + 3)))
        case .property:
            return .property(key: KeyPathSyntax(arena: self, id: word(x)), value: expr(word(x + 1)))
        case .animation:
            let target = word(x + 3)
            return .animation(kind: identifier(at: x), target: target == SyntaxArena.none ? nil : KeyPathSyntax(arena: self, id: target),
                              alias: optionalIdentifier(at: x + 4), along: optionalExpr(word(x + 7)), body: block(word(x + 8)))
        case .keyframe:
            return .keyframe(time: expr(word(x)), value: expr(word(x + 1)), timing: optionalExpr(word(x + 2)))
        case .forLoop:
            return .forLoop(bindings: list(at: x + 1), body: block(word(x)))
        case .ifItem:
            let otherwise = word(x + 2)
            return .ifItem(condition: expr(word(x)), then: block(word(x + 1)),
                           otherwise: otherwise == SyntaxArena.none ? nil : block(otherwise))
        case .pathCommand:
            return .pathCommand(name: identifier(at: x), arguments: list(at: x + 3))
        default:
            return .error
        }
    }

    @inlinable func exprKind(_ id: UInt32) -> ExprKind {
        let n = nodes[Int(id)]
        let x = n.data
        switch n.tag {
        case .smallNumber: return .number(Double(x), NumberUnit(code: n.bits))
        case .number: return .number(numbers[Int(x)], NumberUnit(code: n.bits))
        case .identifier: return .identifier(names[Int(x)])
        case .binary: return .binary(BinaryOperator(code: n.bits), expr(word(x)), expr(word(x + 1)))
        case .call: return .call(callee: identifier(at: x), arguments: list(at: x + 3))
        case .tuple: return .tuple(list(at: x))
        case .string: return .string(strings[Int(x)])
        case .color:
            let i = Int(x)
            return .color(red: numbers[i], green: numbers[i + 1], blue: numbers[i + 2], alpha: numbers[i + 3])
        case .boolean: return .bool(n.bits != 0)
        case .paren: return .paren(expr(x))
        case .list: return .list(list(at: x))
        case .unary: return .unary(UnaryOperator(code: n.bits), expr(x))
        case .conditional: return .conditional(expr(word(x)), expr(word(x + 1)), expr(word(x + 2)))
        case .range: return .range(expr(word(x)), expr(word(x + 1)), inclusive: n.bits != 0)
        case .index: return .index(expr(word(x)), list(at: x + 1))
        case .member: return .member(expr(word(x)), identifier(at: x + 1))
        case .implicitMember: return .implicitMember(identifier(at: x))
        case .sequence: return .sequence(list(at: x))
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

    @inlinable init?(code: UInt8) {
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
