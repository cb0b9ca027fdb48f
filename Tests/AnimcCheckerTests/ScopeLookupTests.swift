import AnimcBase
@testable import AnimcChecker
import AnimcSyntax
import Testing

/// A scope answers a lookup by interned name id (``Identifier/nameID``) exactly as it
/// answers one by name: the id path is only a faster way to the same binding.
@Suite struct ScopeLookupTests {
    /// Every declared name of a parsed file, and names it never declares.
    static func names(count: Int) -> (tree: SyntaxTree, declared: [Identifier]) {
        var source = "composition { size: 10 x 10 }\n"
        for i in 0..<count { source += "let v\(i) = \(i)\n" }
        // Read after the declarations so the arena interns names no binding has.
        source += "layer probe { position: (w0, missing) }\n"
        let tree = parse(SourceFile(name: "scope.anim", bytes: Array(source.utf8)))
        var declared: [Identifier] = []
        for item in tree[tree.root.items] {
            if case .letDecl(let name, _, _) = tree[item] { declared.append(name) }
        }
        return (tree, declared)
    }

    // Each scope gets half the names: counts around 8 put either scope's last binding
    // in or just past the list's four slots (see ``BindingList``).
    @Test(arguments: [1, 2, 5, 7, 8, 9, 10, 12, 13, 14, 40, 300])
    func byIDAndByNameAgree(count: Int) {
        let (tree, declared) = Self.names(count: count)
        #expect(declared.count == count)
        #expect(declared.allSatisfy { $0.nameID != Identifier.noNameID })
        let outer = Scope(parent: nil)
        // Every other name in the outer scope, the rest in an inner one, so lookups
        // cross scopes of both sizes (the outer one past the index threshold).
        let inner = Scope(parent: outer)
        var bindings: [String: Binding] = [:]
        for (i, name) in declared.enumerated() {
            let scope = i % 2 == 0 ? outer : inner
            let b = Binding(name: name, kind: .constant, value: .number(Double(i), .none))
            scope.insert(b)
            bindings[name.name] = b
        }
        for name in declared {
            let byName = inner.lookup(name.name)
            let byID = inner.lookup(name)
            #expect(byName === byID, "\(name.name)")
            #expect(byID === bindings[name.name])
            #expect(outer.local(name.name) === outer.local(name.name, id: name.nameID))
        }
        // Names the arena interned that no scope binds resolve to nothing either way.
        let probeNames = tree.arena.names.enumerated().filter { bindings[$0.element] == nil }
        for (id, name) in probeNames {
            #expect(inner.lookup(name) == nil)
            #expect(inner.lookup(name, id: UInt32(id)) == nil)
        }
    }

    /// Reading an evaluated binding's value in place (``Scope/evaluatedValue(id:)``,
    /// ``Scope/isEvaluatedBelowTopLevel(id:)``, ``Scope/resolves(id:to:)``) answers what a lookup and the binding's
    /// value answer: the nearest scope's binding wins, one without a value says so, and
    /// a name no scope binds is found nowhere. Three scopes, the top one past the
    /// index threshold for the larger counts; every third binding has no value yet.
    @Test(arguments: [1, 3, 5, 8, 9, 13, 14, 40])
    func inPlaceReadsAgreeWithLookups(count: Int) {
        let (tree, declared) = Self.names(count: count)
        let top = Scope(parent: nil), middle = Scope(parent: top), inner = Scope(parent: middle)
        for (i, name) in declared.enumerated() {
            // Every name at the top; every other one again in the middle and every
            // fourth in the inner scope, with other values, so they shadow it.
            top.insert(Binding(name: name, kind: .constant, value: .number(Double(i), .none)))
            if i % 2 == 0 { middle.insert(Binding(name: name, kind: .loopVariable, value: .number(Double(100 + i), .none))) }
            if i % 4 == 0 {
                let b = Binding(name: name, kind: .parameter, value: .number(Double(200 + i), .none))
                if i % 3 == 0 { b.value = nil }
                inner.insert(b)
            }
        }
        let probes = tree.arena.names.indices.map { UInt32($0) }
        let stranger = Binding(name: declared[0], kind: .constant, value: .number(-1, .none))
        for id in probes {
            let name = tree.arena.names[Int(id)]
            for scope in [inner, middle, top] {
                let binding = scope.lookup(name, id: id)
                switch scope.evaluatedValue(id: id) {
                case .notHere: #expect(binding == nil, "\(name)")
                case .unevaluated: #expect(binding != nil && binding?.value == nil, "\(name)")
                case .value(let v):
                    #expect(binding?.value.map { $0.isSame(as: v) } == true, "\(name)")
                }
                let below = scope.bindingBelowTopLevel(name, id: id)
                #expect(scope.isEvaluatedBelowTopLevel(id: id) == (below?.value != nil), "\(name)")
                // Resolving to the binding a lookup finds, and to no other (nor to
                // nothing, unless the lookup finds nothing).
                #expect(scope.resolves(id: id, to: binding) == true, "\(name)")
                #expect(scope.resolves(id: id, to: stranger) == false, "\(name)")
                #expect(scope.resolves(id: id, to: nil) == (binding == nil), "\(name)")
            }
        }
        // While a template's lowering logs lookups, each read is logged with its binding,
        // so none is answered in place; nor is a name without an interned id.
        if let first = declared.first {
            top.templateReads.active = TemplateReads.Log()
            #expect(inner.evaluatedValue(id: first.nameID).isUnevaluated)
            #expect(inner.resolves(id: first.nameID, to: inner.lookup(first)) == nil)
            top.templateReads.active = nil
            #expect(inner.evaluatedValue(id: Identifier.noNameID).isUnevaluated)
            #expect(inner.resolves(id: Identifier.noNameID, to: nil) == nil)
            #expect(inner.isEvaluatedBelowTopLevel(id: Identifier.noNameID) == nil)
        }
        // While the top level logs its lookups, only the binding itself answers there.
        top.observer = DependencyLog()
        if let first = declared.first {
            #expect(top.evaluatedValue(id: first.nameID).isUnevaluated)
            #expect(top.resolves(id: first.nameID, to: top.local(first.name)) == nil)
        }
    }

    /// A scope's list gives its bindings back in declaration order, however many it
    /// holds, and nothing past its end.
    @Test(arguments: [0, 1, 3, 4, 5, 9, 13, 30])
    func bindingsKeepTheirOrder(count: Int) {
        let (_, declared) = Self.names(count: max(count, 1))
        let scope = Scope(parent: nil, capacity: count / 2)
        let made = declared.prefix(count).map { Binding(name: $0, kind: .constant, value: .number(0, .none)) }
        for b in made { scope.insert(b) }
        #expect(scope.bindings.count == count)
        #expect(scope.bindings.all.map(ObjectIdentifier.init) == made.map(ObjectIdentifier.init))
        for (i, b) in made.enumerated() { #expect(scope.bindings.at(i) === b) }
        #expect(scope.bindings.at(count) == nil)
        #expect(scope.bindings.at(-1) == nil)
        // The first match, as a linear search from the start finds it.
        let third = made.count > 2 ? made[2] : nil
        #expect(scope.bindings.first { $0 === third } === third)
        #expect(scope.bindings.first { _ in false } == nil)
        // Emptied in place (a recycled scope's), it holds nothing, then fills again.
        var list = scope.bindings
        list.removeAll()
        #expect(list.count == 0 && list.at(0) == nil && list.all.isEmpty)
        for b in made { #expect(list.position(id: b.name.nameID) == nil) }
        for b in made.reversed() { list.append(b) }
        #expect(list.all.map(ObjectIdentifier.init) == made.reversed().map(ObjectIdentifier.init))
        for b in made { #expect(list.position(id: b.name.nameID).flatMap { list.at($0) } === b) }
    }

    /// An identifier made outside a tree carries no id: it is looked up by name.
    @Test func identifiersWithoutAnIDAreLookedUpByName() {
        let (_, declared) = Self.names(count: 20)
        let scope = Scope(parent: nil)
        for name in declared { scope.insert(Binding(name: name, kind: .constant, value: .number(0, .none))) }
        for name in declared {
            let made = Identifier(name.name, name.range)
            #expect(made.nameID == Identifier.noNameID)
            #expect(scope.lookup(made) === scope.lookup(name))
            #expect(made == name)
        }
    }
}

extension Scope.Evaluated {
    var isUnevaluated: Bool { if case .unevaluated = self { return true } else { return false } }
}
