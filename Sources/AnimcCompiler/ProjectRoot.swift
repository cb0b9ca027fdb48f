/// The folder inside which every file a source names must lie: its imports and its
/// image assets, by real path (symbolic links resolved), so that neither
/// `import "/etc/passwd.anim"`, `import "../../../x.anim"` nor `photo.png ->
/// /proc/self/environ` reads outside the project (issue 50).
///
/// How it is found, first that applies (docs/files.md):
/// 1. `--root DIR` on the command line;
/// 2. in the language server, the workspace folder that holds the document;
/// 3. the nearest folder, from the compiled file's own up, that holds one of
///    ``markers`` (`.animc-root`, an empty file that says "this is the project", or
///    a version-control or package folder);
/// 4. the compiled file's own folder.
///
/// Pure: the caller says which paths exist and what their real paths are.
public struct ProjectRoot: Sendable, Equatable, CustomStringConvertible {
    /// The folder, as a real path without a trailing slash (`/` for the root).
    public var path: String
    /// How it was found, for messages.
    public var origin: Origin

    public enum Origin: Sendable, Equatable {
        /// `--root DIR`.
        case option
        /// The editor's workspace folder.
        case workspace
        /// The nearest folder holding this marker.
        case marker(String)
        /// No marker above the compiled file: its own folder.
        case sourceFolder
    }

    /// What marks a project's folder, in the order looked for in each folder.
    public static let markers = [".animc-root", ".git", ".hg", ".jj", ".svn", "Package.swift"]

    public init(path: String, origin: Origin) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.origin = origin
    }

    /// The root for a file whose folder's real path is `folder`: the nearest folder from
    /// it up holding a marker, else `folder` itself.
    public static func find(fromFolder folder: String, exists: (String) -> Bool) -> ProjectRoot {
        var current = folder
        while true {
            for marker in markers where exists(join(current, marker)) {
                return ProjectRoot(path: current, origin: .marker(marker))
            }
            guard let parent = parent(of: current) else { break }
            current = parent
        }
        return ProjectRoot(path: folder, origin: .sourceFolder)
    }

    /// Whether the file or folder whose real path is `realPath` lies inside the root.
    public func contains(_ realPath: String) -> Bool {
        path == "/" || realPath == path || realPath.hasPrefix(path + "/")
    }

    /// The root and how it was found, as messages say it.
    public var description: String {
        switch origin {
        case .option: return "\(path) (given by --root)"
        case .workspace: return "\(path) (the editor's workspace folder)"
        case .marker(let marker): return "\(path) (the folder holding \(marker))"
        case .sourceFolder: return "\(path) (the file's own folder: no \(ProjectRoot.markers[0]), .git or other project marker above it)"
        }
    }

    /// What to do about a refused path, said once in each refusal.
    public var help: String {
        switch origin {
        case .option, .workspace: return "move the file into \(path), or choose a wider root"
        case .marker, .sourceFolder:
            return "move the file into the project, or mark the folder that holds both with an empty '\(ProjectRoot.markers[0])' file (or pass --root DIR)"
        }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func parent(of folder: String) -> String? {
        guard folder != "/", !folder.isEmpty, let slash = folder.lastIndex(of: "/") else { return nil }
        return slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
}
