import AnimcBase
import AnimcSyntax
import AnimcTestSupport
import Testing

/// `SyntaxList<Argument>.parts(_:)` reads an argument without making its label: what it
/// gives must be what decoding the whole argument gives, for every argument list of
/// every shape (labelled or not, nested, recovered from errors) in the fixture and the
/// examples.
@Suite struct ArgumentPartsTests {
    static let sources = ["Tests/AnimcSyntaxTests/Fixtures/arguments/calls.anim"] + Repository.examples

    @Test(arguments: sources)
    func partsAgreeWithTheWholeArgument(_ path: String) {
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        var lists = 0, labelled = 0, unlabelled = 0

        func check(_ arguments: Children<Argument>) {
            let list = tree[arguments]
            lists += 1
            for position in list.indices {
                let whole = list[position], parts = list.parts(position)
                #expect(parts.isLabelled == (whole.label != nil))
                #expect(parts.labelID == (whole.label?.nameID ?? Identifier.noNameID))
                #expect(parts.value == whole.value)
                #expect(parts.range == whole.range)
                if parts.isLabelled { labelled += 1 } else { unlabelled += 1 }
                expr(whole.value)
            }
        }
        func expr(_ e: Expr) {
            switch tree[e] {
            case .call(_, let arguments), .qualifiedCall(_, _, let arguments): check(arguments)
            case .paren(let inner), .unary(_, let inner), .member(let inner, _): expr(inner)
            case .tuple(let items), .list(let items), .sequence(let items): tree[items].forEach(expr)
            case .binary(_, let l, let r), .range(let l, let r, _): expr(l); expr(r)
            case .conditional(let c, let a, let b): expr(c); expr(a); expr(b)
            case .index(let base, let indices): expr(base); tree[indices].forEach(expr)
            default: break
            }
        }
        func block(_ b: Block) { tree[b.items].forEach(item) }
        func item(_ i: Item) {
            switch tree[i] {
            case .letDecl(_, _, let value), .timingDecl(_, let value), .property(_, let value): expr(value)
            case .instance(_, let indices, let value): tree[indices].forEach(expr); expr(value)
            case .keyframe(let time, let value, let timing): expr(time); expr(value); timing.map(expr)
            case .pathCommand(_, let arguments): check(arguments)
            case .component(_, _, let body), .composition(_, let body), .pathDecl(_, let body), .forLoop(_, let body): block(body)
            case .layer(_, _, _, let indices, let body): tree[indices].forEach(expr); block(body)
            case .animation(_, _, _, let along, let body, _): along.map(expr); block(body)
            case .ifItem(let condition, let then, let otherwise): expr(condition); block(then); otherwise.map(block)
            case .importDecl(let path, _): expr(path)
            case .inputDecl(_, _, let range, let value): range.map(expr); value.map(expr)
            case .stateDecl(_, let body): block(body)
            case .transition(_, let condition, _, _, let duration, let timing, _): condition.map(expr); duration.map(expr); timing.map(expr)
            case .error: break
            }
        }
        block(tree.root)
        // The walk reaches argument lists, or the test compares nothing.
        #expect(lists > 0 && labelled + unlabelled > 0, "no arguments found in \(path)")
        if path.hasSuffix("calls.anim") { #expect(labelled >= 10 && unlabelled >= 10) }
    }
}
