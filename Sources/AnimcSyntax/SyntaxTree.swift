import AnimcBase
import AnimcDiagnostics

/// The result of parsing one file: always a tree, plus every syntax error found.
public struct SyntaxTree: Sendable {
    public var file: SourceFile
    public var root: Block
    /// Comment ranges (for `animc-ignore` directives).
    public var comments: [SourceRange]
    /// Lexical and syntax diagnostics, in source order.
    public var diagnostics: [Diagnostic]
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

/// A dotted key path such as `transform.rotation.z`, as Core Animation spells it.
public struct KeyPathSyntax: Hashable, Sendable {
    public var components: [Identifier]
    public var range: SourceRange
    public var dotted: String {
        components.count == 1 ? components[0].name : components.map(\.name).joined(separator: ".")
    }
}

/// `{ items }`. `closed` is false when the closing brace was missing (already diagnosed).
public struct Block: Hashable, Sendable {
    public var items: [Item]
    public var range: SourceRange
    public var closed: Bool
}

/// One item of a block. What a block may hold depends on the block; the parser
/// reports misplaced items but keeps them in the tree.
public struct Item: Hashable, Sendable {
    public var kind: ItemKind
    public var range: SourceRange
}

public indirect enum ItemKind: Hashable, Sendable {
    /// `let name (: Type)? = value`
    case letDecl(name: Identifier, type: Identifier?, value: Expr)
    /// `timing name = value`
    case timingDecl(name: Identifier, value: Expr)
    /// `component Name(params) { body }`
    case component(name: Identifier, params: [Parameter], body: Block)
    /// `composition Name? { attributes }`
    case composition(name: Identifier?, body: Block)
    /// `path name { commands }`
    case pathDecl(name: Identifier, body: Block)
    /// `mask? kind name[indices]? { body }`, e.g. `shape circle { ... }` or, in a loop,
    /// `layer dot[i] { ... }`. The name is optional only for a component's root layer.
    case layer(mask: SourceRange?, kind: Identifier, name: Identifier?, indices: [Expr], body: Block)
    /// `name[indices]? = Component(args)`
    case instance(name: Identifier, indices: [Expr], value: Expr)
    /// `key.path: value`
    case property(key: KeyPathSyntax, value: Expr)
    /// `kind keyPath? (as name)? (along path)? { body }`, e.g. `keyframes strokeEnd { ... }`.
    case animation(kind: Identifier, target: KeyPathSyntax?, alias: Identifier?, along: Expr?, body: Block)
    /// `keyTime = value (~ timing)?`, a row of a keyframes block.
    case keyframe(time: Expr, value: Expr, timing: Expr?)
    /// `for a in range, b in range { body }`
    case forLoop(bindings: [LoopBinding], body: Block)
    /// `if condition { then } (else { ... } | else if ...)?`
    case ifItem(condition: Expr, then: Block, otherwise: Block?)
    /// `command positional? (label: value)*` inside a path block, e.g. `cubic (1, 2) c1: (0, 0) c2: (1, 1)`.
    case pathCommand(name: Identifier, arguments: [Argument])
    /// Input that could not be parsed; already diagnosed.
    case error
}

/// `name: Type (= default)?` in a component's parameter list.
public struct Parameter: Hashable, Sendable {
    public var name: Identifier
    public var type: Identifier?
    public var defaultValue: Expr?
    public var range: SourceRange
}

/// `name in sequence` in a `for` loop.
public struct LoopBinding: Hashable, Sendable {
    public var name: Identifier
    public var sequence: Expr
    public var range: SourceRange
}

/// `label: value` or `value` in a call.
public struct Argument: Hashable, Sendable {
    public var label: Identifier?
    public var value: Expr
    public var range: SourceRange
}

public struct Expr: Hashable, Sendable {
    public var kind: ExprKind
    public var range: SourceRange
    public init(_ kind: ExprKind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

public enum UnaryOperator: String, Hashable, Sendable {
    case negate = "-", plus = "+", not = "!"
}

public enum BinaryOperator: String, Hashable, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">=", equal = "==", notEqual = "!="
    case and = "&&", or = "||"
    /// `w x h`: a size.
    case size = "x"
}

// Only the cases that hold an expression (or a large payload) are indirect: boxing
// every case cost a heap allocation for every number and name in the source.
public enum ExprKind: Hashable, Sendable {
    /// `12`, `0.5s`, `45deg`, `50%`.
    case number(Double, NumberUnit?)
    case string(String)
    /// `#RRGGBB(AA)` as straight-alpha sRGB components in 0...1.
    indirect case color(red: Double, green: Double, blue: Double, alpha: Double)
    case bool(Bool)
    case identifier(String)
    /// `( e )`
    indirect case paren(Expr)
    /// `( a, b, ... )` with two or more elements: a point, size, rect or vector.
    case tuple([Expr])
    /// `[ a, b, ... ]`
    case list([Expr])
    indirect case unary(UnaryOperator, Expr)
    indirect case binary(BinaryOperator, Expr, Expr)
    /// `c ? a : b`
    indirect case conditional(Expr, Expr, Expr)
    /// `a ..< b` or `a ... b`
    indirect case range(Expr, Expr, inclusive: Bool)
    /// `f(args)`
    indirect case call(callee: Identifier, arguments: [Argument])
    /// `e[i, j]`
    indirect case index(Expr, [Expr])
    /// `e.name`
    indirect case member(Expr, Identifier)
    /// `.name`: Swift's implicit member (`.pi`, `.forwards`), which `.anim` does not
    /// have; parsed so that pasted code gets its `.anim` spelling as a fix-it.
    case implicitMember(Identifier)
    /// Transform functions written side by side: `rotate(-45deg) scale(0.25)`.
    case sequence([Expr])
    /// `path { commands }` used as a value.
    indirect case pathLiteral(Block)
    /// Missing or unparsable; already diagnosed.
    case error
}
