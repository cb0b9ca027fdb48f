import AnimcBase
import AnimcCompiler
import Foundation

/// Reads the files a document imports: an open document's text first (what the user
/// sees, saved or not), else the disk, with the input cap of every source.
struct WorkspaceLoader: SourceLoader {
    let open: [String: [UInt8]]

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
