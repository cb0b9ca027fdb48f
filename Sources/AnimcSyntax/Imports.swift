import AnimcBase

/// One `import "path.anim" (as name)?` of a file's top level, as the parser read it.
public struct ImportDeclaration: Sendable, Hashable {
    /// The whole item.
    public let item: Item
    /// The path as written (the string's value), relative to the importing file.
    public let path: String
    /// Where the string is written, quotes included: where a missing or unreadable
    /// file is reported.
    public let pathRange: SourceRange
    /// The `as` name, if written.
    public let alias: Identifier?
    /// The qualifier the file's declarations are used with: the alias, else the file's
    /// stem (`tokens` for `"motion/tokens.anim"`) at the string's range. Nil when there
    /// is no alias and the stem is not a name (`"my-tokens.anim"`).
    public let name: Identifier?
}

/// What the language says about import paths, for every stage that reads them.
public enum ImportPaths {
    /// The extension an imported file must have.
    public static let fileExtension = ".anim"

    /// The stem of `path`: its last component without `.anim` (`tokens` for
    /// `motion/tokens.anim`).
    public static func stem(_ path: String) -> String {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return last.hasSuffix(fileExtension) ? String(last.dropLast(fileExtension.count)) : last
    }

    /// Whether `text` can be written as a name: a letter or `_`, then letters, digits
    /// and `_`, and not a reserved word.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }) else { return false }
        return TokenKind.keywords[text] == nil
    }

    private static func isLetter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
}

extension SyntaxTree {
    /// The file's imports, in order: the `import` items of its top level (an `import`
    /// anywhere else was reported by the parser and imports nothing). Each call walks the
    /// top level again: a check reads them once (``FileFacts``).
    public var imports: [ImportDeclaration] {
        var result: [ImportDeclaration] = []
        // By tag first: decoding each of a large file's items cost more than the walk.
        for item in self[root.items] where tag(item) == .importDecl {
            guard case .importDecl(let path, let alias) = self[item], case .string(let text) = self[path] else { continue }
            var name = alias
            if name == nil {
                let stem = ImportPaths.stem(text)
                if ImportPaths.isName(stem) {
                    name = Identifier(stem, path.range, nameID: arena.names.firstIndex(of: stem).map { UInt32($0) } ?? Identifier.noNameID)
                }
            }
            result.append(ImportDeclaration(item: item, path: text, pathRange: path.range, alias: alias, name: name))
        }
        return result
    }
}
