import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import Foundation
import AnimcSyntax

/// Refactorings (`refactor.inline`, `refactor.extract`): inline a constant at its uses,
/// extract the selected expression into a constant. Each is offered only when the file
/// it makes checks clean to the same composition (ranges aside) as the file does now,
/// so a refactoring never changes an animation; a file with errors is not refactored.
extension LanguageServer {
    struct Refactoring {
        var title: String
        var kind: String
        var edits: [TextEdit]
    }

    func refactorings(_ a: Analysis, in range: SourceRange, wants: (String) -> Bool) -> [Refactoring] {
        guard let before = a.result.composition, !a.result.hasErrors else { return [] }
        var found: [Refactoring] = []
        if wants("refactor.inline"), let inline = inlineConstant(a, at: range) { found.append(inline) }
        if wants("refactor.extract"), let extract = extractConstant(a, range) { found.append(extract) }
        return found.filter { keepsMeaning($0.edits, a, before) }
    }

    /// Whether the file with `edits` applied checks clean to `before`, ranges aside.
    private func keepsMeaning(_ edits: [TextEdit], _ a: Analysis, _ before: Composition) -> Bool {
        let after = SourceFile(name: a.file.name, bytes: applyEdits(edits, to: a.file.bytes))
        let result = Pipeline.compile(after, loader: loader(besides: a.uri), cache: modules).main
        guard !result.hasErrors, let composition = result.composition else { return false }
        return Self.withoutRanges(composition) == Self.withoutRanges(before)
    }

    static func withoutRanges(_ c: Composition) -> Composition {
        func strip(_ a: Animation) -> Animation {
            var a = a
            a.range = .empty(at: 0)
            if case .group(let children) = a.kind { a.kind = .group(children.map(strip)) }
            return a
        }
        var c = c
        c.range = .empty(at: 0)
        for i in c.layers.indices {
            c.layers[i].range = .empty(at: 0)
            for j in c.layers[i].properties.indices { c.layers[i].properties[j].range = .empty(at: 0) }
            c.layers[i].animations = c.layers[i].animations.map(strip)
        }
        return c
    }

    /// `let d = 1.5s` at the cursor (its name or a use): every use becomes the value,
    /// parenthesised unless it is one term, and the declaration goes. Not for a
    /// declaration another file of the project reads (`tokens.fast`).
    private func inlineConstant(_ a: Analysis, at range: SourceRange) -> Refactoring? {
        guard let d = a.names.declaration(at: range.start), a.names.declarations[d].kind == .constant else { return nil }
        let declaration = a.names.declarations[d]
        let text = a.file.text(declaration.extent)
        // `let name[: Type] = value`: the value is what follows the first `=` (a type has none).
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let value = text[text.index(after: equals)...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return nil }
        if a.names.exported(declaration.name, in: a.result.tree) == d {
            let exported = ExportedDeclaration(file: ProjectFile(a), declaration: d)
            let listing = projectPaths()
            if listing.truncated || occurrences(of: exported, among: listing.paths.compactMap(projectFile)).count > 1 { return nil }
        }
        let uses = a.names.references.filter { $0.declaration == d && !$0.isArgumentLabel }.map(\.range)
        guard !uses.isEmpty else { return nil }
        let written = Self.isOneTerm(value) ? value : "(" + value + ")"
        var edits = uses.map { TextEdit(range: $0, replacement: written) }
        edits.append(TextEdit.removal(of: declaration.extent, in: a.file.bytes))
        return Refactoring(title: "Inline constant '\(declaration.name)'", kind: "refactor.inline", edits: edits)
    }

    /// The selected expression (exactly one, spaces around it aside) as a new constant
    /// declared on the line before the top-level item holding it, and its name in its place.
    private func extractConstant(_ a: Analysis, _ range: SourceRange) -> Refactoring? {
        guard range.end > range.start else { return nil }
        let bytes = a.file.bytes
        var s = Int(range.start), e = Int(min(range.end, UInt32(bytes.count)))
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        guard s < e, !bytes[s..<e].contains(0x0A) else { return nil }
        let selection = SourceRange(start: UInt32(s), end: UInt32(e))
        let tree = a.result.tree
        guard let item = tree[tree.root.items].first(where: { $0.range.start <= selection.start && selection.end <= $0.range.end }),
              item.range != selection else { return nil }
        let text = a.file.text(selection)
        // Not a name alone, nor something that is not one expression (checked below too).
        guard !Self.isName(text) else { return nil }
        let taken = Set(a.names.declarations.map(\.name))
        var name = "value", k = 2
        while taken.contains(name) || LanguageFacts.isBuiltinName(name) { name = "value\(k)"; k += 1 }
        // At the start of the item's line.
        var lineStart = Int(item.range.start)
        while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        let declaration = TextEdit(range: .empty(at: UInt32(lineStart)), replacement: "let \(name) = \(text)\n")
        return Refactoring(title: "Extract '\(text.count > 30 ? text.prefix(30) + "…" : text)' into a constant",
                           kind: "refactor.extract", edits: [declaration, TextEdit(range: selection, replacement: name)])
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Whether `text` is one term: a literal, a name, a call, or one bracketed whole; such
    /// a value needs no parentheses where it replaces a name. (Anything else gets them;
    /// the check after the edit catches what this misjudges.)
    static func isOneTerm(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var depth = 0, inString = false
        for (k, c) in scalars.enumerated() {
            if inString {
                if c == "\\" { continue }
                if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                // A bracket that closes before the end: `(a) + (b)` is not one term.
                if depth == 0, k != scalars.count - 1, scalars.first == "(" || scalars.first == "[" { return false }
            case " ", "+", "*", "/", "<", ">", "=", "!", "&", "|", "?", ":", ",", "~":
                if depth == 0 { return false }
            case "-":
                if depth == 0, k > 0 { return false }
            default: continue
            }
        }
        return depth == 0 && scalars.first != "-"
    }
}
