import AnimcBase
import AnimcCompiler
import Foundation

/// Reads the files a document imports: an open document's text first (what the user
/// sees, saved or not), else the disk, with the input cap of every source.
struct WorkspaceLoader: SourceLoader {
    let open: [String: [UInt8]]
    /// Where every imported file must lie, open or not (``ProjectRoot``); nil for a
    /// document that is not a file (`untitled:`), which imports nothing: it has no
    /// folder (its imports were read from the server's working directory).
    var root: ProjectRoot?

    /// The real path of a file on disk (an open document is its own path): a file reached
    /// through a link to its own folder is one import, so the import phase ends (it
    /// doubled at every level and never published).
    func identity(of path: String) -> String? {
        if open[path] != nil { return path }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func load(_ path: String) -> Result<SourceFile, ImportFailure> {
        guard let root else {
            return .failure(ImportFailure("the document is not a file, so it has no folder to import from; save it first"))
        }
        let real = LocalPaths.canonical(path)
        guard root.contains(real) else { return .failure(.outside(root, realPath: real)) }
        if let bytes = open[path] {
            guard bytes.count <= Pipeline.maxSourceSize else { return .failure(ImportFailure("file is " + Pipeline.sourceTooLarge)) }
            return .success(SourceFile(name: path, bytes: bytes))
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return .failure(ImportFailure("no such file"))
        }
        let type = attributes[.type] as? FileAttributeType
        if type == .typeDirectory { return .failure(ImportFailure("is a directory")) }
        // A FIFO or device would block or never end.
        guard type == .typeRegular else { return .failure(ImportFailure("is not a regular file")) }
        if let size = attributes[.size] as? Int, size > Pipeline.maxSourceSize {
            return .failure(ImportFailure("file is " + Pipeline.sourceTooLarge))
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(ImportFailure("cannot be read")) }
        guard data.count <= Pipeline.maxSourceSize else { return .failure(ImportFailure("file is " + Pipeline.sourceTooLarge)) }
        return .success(SourceFile(name: path, bytes: [UInt8](data)))
    }
}

/// Real paths on the local disk, for the project root's checks here and in the
/// command-line tool's file system.
public enum LocalPaths {
    /// `path` made absolute with `.`, `..` and the links of its existing part resolved
    /// (realpath of the longest existing prefix, the rest appended as written): equal
    /// for two paths naming the same file, whether or not it exists yet.
    public static func canonical(_ path: String) -> String {
        var head = path.isEmpty ? "." : path
        var tail: [String] = []
        while true {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return ([base] + tail.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            }
            let parent = (head as NSString).deletingLastPathComponent
            tail.append((head as NSString).lastPathComponent)
            if parent.isEmpty || parent == head {
                head = "."
                if tail.count > 64 { return path }
                continue
            }
            head = parent
        }
    }
}
