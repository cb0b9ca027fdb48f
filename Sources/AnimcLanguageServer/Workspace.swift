import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcSyntax
import Foundation

/// A file of the project as navigation across files reads it: the open document's text
/// (and its analysis) when it is open, else the disk's, parsed and indexed.
struct ProjectFile {
    let path: String
    let uri: String
    let tree: SyntaxTree
    let names: NameIndex
    let positions: PositionMap
    /// The analysis of an open document (its check, when there is one).
    let analysis: Analysis?

    /// An open document as a project file.
    init(_ a: Analysis) {
        self.init(path: a.file.name, uri: a.uri, tree: a.result.tree, names: a.names, positions: a.positions, analysis: a)
    }

    init(path: String, uri: String, tree: SyntaxTree, names: NameIndex, positions: PositionMap, analysis: Analysis?) {
        self.path = path
        self.uri = uri
        self.tree = tree
        self.names = names
        self.positions = positions
        self.analysis = analysis
    }

    /// The import that declares `module` (a declaration of the `.module` kind).
    func importDeclaration(of module: Int) -> ImportDeclaration? {
        let extent = names.declarations[module].extent
        return tree.imports.first { $0.item.range.start == extent.start }
    }

    /// The path the import that declares `module` names.
    func importedPath(of module: Int) -> String? {
        importDeclaration(of: module).flatMap { ImportResolution.resolve($0.path, from: tree.file.name) }
    }
}

/// A declaration another file may read, in the file that makes it.
struct ExportedDeclaration {
    let file: ProjectFile
    let declaration: Int
    var name: String { file.names.declarations[declaration].name }
}

extension LanguageServer {
    /// The most files a request reads from the workspace's folders.
    static let projectFileLimit = 5_000
    /// Files on disk larger than this are left out of project-wide searches (references,
    /// rename, workspace symbols) unless open or imported: they are generated, nobody
    /// names into them, and parsing them on every search cost seconds.
    static let projectScanSizeLimit = 1 << 20

    /// The project file at `path`: the open document, else the disk's (nil when it
    /// cannot be read or is over the input cap).
    func projectFile(_ path: String) -> ProjectFile? {
        if let uri = openURI(ofPath: path), let doc = documents[uri], !doc.tooLarge {
            return ProjectFile(currentAnalysis(doc))
        }
        // Read again only when the file changed: the one cache of files on disk.
        let stamp = LanguageServer.stamp(path)
        if let stamp, let cached = diskFiles[path], cached.stamp == stamp { return cached.file }
        guard case .success(let file) = WorkspaceLoader(open: [:], root: projectRoot(of: LanguageServer.uri(forPath: path))).load(path) else { return nil }
        let tree = parse(file)
        let project = ProjectFile(path: path, uri: LanguageServer.uri(forPath: path), tree: tree, names: NameIndex.build(tree),
                                  positions: PositionMap(bytes: file.bytes, encoding: encoding), analysis: nil)
        if let stamp { diskFiles[path] = (stamp, project) }
        return project
    }

    /// What tells one version of a file on disk from another: its size and modification time.
    static func stamp(_ path: String) -> String? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path), let size = a[.size] as? Int,
              let date = a[.modificationDate] as? Date else { return nil }
        return "\(size):\(date.timeIntervalSince1970)"
    }

    /// Every `.anim` file of the project: the open documents and the files under the
    /// workspace's folders (build and version-control folders left out), each once.
    func projectFiles() -> [ProjectFile] {
        projectPaths().paths.compactMap(projectFile)
    }

    /// The paths of ``projectFiles()``, sorted, and whether the folders hold more `.anim`
    /// files than ``projectFileLimit`` (a rename is refused then: it could not be whole).
    func projectPaths() -> (paths: [String], truncated: Bool) {
        let listing = workspaceListing()
        var paths = documents.keys.map(LanguageServer.displayName)
        var seen = Set(paths)
        for path in listing.paths where seen.insert(path).inserted { paths.append(path) }
        return (paths.sorted(), listing.truncated || paths.count > Self.projectFileLimit)
    }

    /// The `.anim` files under the workspace's folders. Walked once and kept while the
    /// client watches files for the server (a created or deleted file drops it, see
    /// ``filesChanged(_:)``): the walk took 0.45 s in an app repository of 30,000 other
    /// files, on every references, rename and symbol request. For a client that does
    /// not watch, a walk stands for the server's polling interval (two seconds), so
    /// requests in a row do not walk again.
    func workspaceListing() -> (paths: [String], truncated: Bool) {
        if let listing = listedFiles,
           client.watchedFilesRegistration || Date().timeIntervalSince(listing.at) < LanguageServerLoop.pollInterval {
            return (listing.paths, listing.truncated)
        }
        var paths: [String] = []
        var truncated = false
        walk: for root in workspaceRoots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                let last = relative.split(separator: "/").last.map(String.init) ?? relative
                if last.hasPrefix(".") || last == "node_modules" {
                    walker.skipDescendants()
                    continue
                }
                guard relative.hasSuffix(".anim") else { continue }
                if let size = walker.fileAttributes?[.size] as? Int, size > Self.projectScanSizeLimit { continue }
                guard paths.count < Self.projectFileLimit else {
                    truncated = true
                    break walk
                }
                paths.append(ImportResolution.normalize(root + "/" + relative))
            }
        }
        listedFiles = (paths, truncated, Date())
        return (paths, truncated)
    }

    /// The declaration at `offset` of `file` that other files may read, whether the
    /// offset is on the declaration, on a use in its own file, or on a qualified use
    /// in a file that imports it (`tokens.fast`).
    func exportedDeclaration(at offset: UInt32, in file: ProjectFile) -> ExportedDeclaration? {
        if let q = file.names.qualifiedReference(at: offset) {
            guard let path = file.importedPath(of: q.module), let target = projectFile(path),
                  let d = target.names.exported(q.name, in: target.tree) else { return nil }
            return ExportedDeclaration(file: target, declaration: d)
        }
        guard let d = file.names.declaration(at: offset), file.names.exported(file.names.declarations[d].name, in: file.tree) == d
        else { return nil }
        return ExportedDeclaration(file: file, declaration: d)
    }

    /// Where `exported` is named, by file: its declaration and uses in its own file,
    /// then each qualified use in the project's files that import it.
    func occurrences(of exported: ExportedDeclaration, among files: [ProjectFile]) -> [(file: ProjectFile, ranges: [SourceRange])] {
        let own = exported.file
        var result = [(own, ([own.names.declarations[exported.declaration].range] + own.names.uses(of: exported.declaration))
            .sorted { $0.start < $1.start })]
        for file in files where file.path != own.path {
            let ranges = file.names.qualified.filter { $0.name == exported.name && file.importedPath(of: $0.module) == own.path }.map(\.range)
            if !ranges.isEmpty { result.append((file, ranges)) }
        }
        return result
    }

    /// The folders of the workspace, from `initialize` (its folders, else its root).
    static func workspaceRoots(_ params: JSONValue) -> [String] {
        let folders = params["workspaceFolders"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        let root = params["rootUri"]?.stringValue ?? params["rootPath"]?.stringValue.map { "file://" + $0 }
        return (folders.isEmpty ? root.map { [$0] } ?? [] : folders).filter { $0.hasPrefix("file://") }.map(displayName)
    }

    /// The `file:` URI of a path.
    static func uri(forPath path: String) -> String {
        "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }
}

// MARK: Moving files

extension LanguageServer {
    /// `workspace/willRenameFiles`: before files or folders are moved or renamed, the
    /// edits that keep every import naming the same file: an import of a moved file
    /// names its new path, and a moved file's own imports are written from its new
    /// folder. An import that took its name from the file's old name (`import
    /// "motion/tokens.anim"` reads as `tokens`) keeps that name with `as`, so no use of
    /// it changes. Edits are to the files as they are now (the client applies them
    /// before it moves them). All or nothing, as a rename: refused when the project holds
    /// more files than the server reads.
    func willRenameFiles(_ r: inout Request) throws(RequestError) -> JSONValue {
        guard let files = r["files"]?.arrayValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "missing files")
        }
        let moves: [(old: String, new: String)] = files.compactMap { f in
            guard let old = f["oldUri"]?.stringValue, let new = f["newUri"]?.stringValue, old.hasPrefix("file://"), new.hasPrefix("file://")
            else { return nil }
            return (ImportResolution.normalize(Self.displayName(old)), ImportResolution.normalize(Self.displayName(new)))
        }
        guard !moves.isEmpty else { return .null }
        func moved(_ path: String) -> String {
            for m in moves {
                if path == m.old { return m.new }
                if path.hasPrefix(m.old + "/") { return m.new + path.dropFirst(m.old.count) }
            }
            return path
        }
        let listing = projectPaths()
        if listing.truncated {
            throw RequestError(code: JSONRPC.ErrorCode.requestFailed, message: "the project holds more .anim files than the \(formatNumber(Double(Self.projectFileLimit))) the server reads, so the imports of a moved file could not all be updated")
        }
        var edits: [(uri: String, edits: [JSONValue])] = []
        for path in listing.paths where path.hasPrefix("/") {
            guard let file = projectFile(path) else { continue }
            let after = moved(path)
            var fileEdits: [JSONValue] = []
            for declaration in file.tree.imports {
                guard let target = ImportResolution.resolve(declaration.path, from: path) else { continue }
                let targetAfter = moved(target)
                guard targetAfter != target || after != path else { continue }
                let written = Self.relativePath(to: targetAfter, fromFolderOf: after)
                var text = "\"" + written.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
                if declaration.alias == nil, let name = declaration.name, ImportPaths.stem(written) != name.name { text += " as " + name.name }
                guard written != declaration.path || text.contains(" as ") else { continue }
                fileEdits.append(obj(("range", file.positions.json(declaration.pathRange)), ("newText", .string(text))))
            }
            if !fileEdits.isEmpty { edits.append((file.uri, fileEdits)) }
        }
        return edits.isEmpty ? .null : workspaceEdit(edits)
    }

    /// `target` as an import in a file at `importer` writes it: relative to the
    /// importer's folder (both paths absolute and normalized).
    static func relativePath(to target: String, fromFolderOf importer: String) -> String {
        let from = importer.split(separator: "/").dropLast(), to = target.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[from.startIndex + common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/")
    }
}
