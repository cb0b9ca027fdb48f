import AnimcBase
import AnimcCompiler
import Foundation

/// What the driver needs from a file system. Tests use ``InMemoryFileSystem``; the
/// tool uses ``LocalFileSystem``.
public protocol FileSystem: Sendable {
    /// The bytes of a regular file. Directories, FIFOs, devices and sockets are refused
    /// before anything is read (reading a FIFO would block forever).
    func readFile(_ path: String) throws(FileSystemError) -> [UInt8]
    func isDirectory(_ path: String) -> Bool
    func exists(_ path: String) -> Bool
    /// Regular files below `path`, recursively, as paths that start with `path`, sorted.
    /// Each directory is walked once even when symbolic links lead back to it, and a
    /// link is followed only when it resolves to a place inside `path`.
    func filesRecursively(under path: String) throws(FileSystemError) -> [String]
    /// Writes `bytes` so that `path` holds either its old contents or all of the new
    /// ones, never a partial file: a temporary file beside it, then a rename. A path
    /// that names something other than a regular file (a device such as `/dev/null`, a
    /// FIFO) is written through instead of being replaced; a symbolic link is followed
    /// and its target replaced.
    func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError)
    /// ``writeFileAtomically(_:_:)`` for a file animc makes (a timeline, a rendered frame,
    /// a snapshot's `.actual.png`): a symbolic link there is refused, not followed, since
    /// animc did not make it (a link planted in `__snapshots__` turned a file outside the
    /// project into a PNG).
    func writeOutputAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError)
    /// Creates a directory and any missing parents; succeeds if it already exists.
    func createDirectory(_ path: String) throws(FileSystemError)
    /// A key that is equal for two paths naming the same file, whether or not it exists
    /// yet: the absolute path with `.`, `..` and symbolic links of existing parts
    /// resolved. Used to refuse an output that would overwrite an input.
    func canonicalPath(_ path: String) -> String
}

/// A file system failure, with the message shown to the user.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

/// The real file system, through POSIX calls so that errors carry `errno`'s meaning.
public struct LocalFileSystem: FileSystem {
    /// Files larger than this are refused before reading. Compiling takes up to about
    /// 60 bytes of memory per source byte on the densest input (a tree node per few
    /// bytes), so this keeps any input within 1 GB; real `.anim` files are kilobytes.
    public static let maxFileSize = Pipeline.maxSourceSize

    public init() {}

    public func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
        // before fstat could say what it is.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw error(path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(path) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileSystemError(path: path, reason: "is a directory")
        default: throw FileSystemError(path: path, reason: "is not a regular file (a FIFO, device or socket)")
        }
        if Int(info.st_size) > LocalFileSystem.maxFileSize {
            throw FileSystemError(path: path, reason: "file is " + Pipeline.sourceTooLarge)
        }
        var result: [UInt8] = []
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw error(path)
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > LocalFileSystem.maxFileSize {
                throw FileSystemError(path: path, reason: "file is " + Pipeline.sourceTooLarge)
            }
        }
        return result
    }

    public func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    public func filesRecursively(under path: String) throws(FileSystemError) -> [String] {
        var result: [String] = []
        var pending = [path]
        // Symbolic links are followed only where they stay inside the directory given: a
        // link to `/` made a walk of the whole file system.
        let root = resolved(path) ?? path
        func inside(_ target: String) -> Bool { target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") }
        // Directories already walked, by device and inode: a link to an ancestor (or a
        // second link to one directory) would otherwise repeat files or never end.
        var visited = Set<FileKey>()
        while let dir = pending.popLast() {
            var info = stat()
            guard stat(dir, &info) == 0 else { throw error(dir) }
            guard visited.insert(FileKey(info)).inserted else { continue }
            guard visited.count < 100_000 else { throw FileSystemError(path: path, reason: "too many directories") }
            guard let handle = opendir(dir) else { throw error(dir) }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                // Read in place up to the terminator: a record holds only as many name
                // bytes as the name has, so copying out the whole 256-byte field read
                // past it (memcheck reported it).
                let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { field in
                    String(cString: UnsafeRawPointer(field).assumingMemoryBound(to: CChar.self))
                }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let child = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var childInfo = stat()
                guard lstat(child, &childInfo) == 0 else { continue }
                if (childInfo.st_mode & S_IFMT) == S_IFLNK {
                    // A link that leads out of the directory, or nowhere, is skipped.
                    guard let target = resolved(child), inside(target), stat(child, &childInfo) == 0 else { continue }
                }
                if (childInfo.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(child)
                } else if (childInfo.st_mode & S_IFMT) == S_IFREG {
                    result.append(child)
                }
            }
        }
        return result.sorted()
    }

    /// The absolute path with every symbolic link resolved, or nil when it names nothing.
    private func resolved(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        var info = stat()
        var target = path
        var mode: mode_t?
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
            // Replace what the link points at and keep the link, as editors do.
            guard let resolved = realpath(path, nil) else {
                throw FileSystemError(path: path, reason: "is a symbolic link to nothing")
            }
            target = String(cString: resolved)
            free(resolved)
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: mode = info.st_mode & 0o7777
            case S_IFDIR: throw FileSystemError(path: path, reason: "is a directory")
            default:
                // /dev/null, /dev/stdout, a FIFO: renaming over it would replace the
                // device node with a file (as root, it did). Write through instead.
                try writeThrough(target, bytes, shownAs: path)
                return
            }
        }
        try AtomicWrite.replace(target, bytes, mode: mode, shownAs: path)
    }

    public func writeOutputAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
            // A link to a device or a FIFO (`-o /dev/stdout`) is written through, as the
            // device itself is; a link to a file, or to nothing yet, is refused.
            var target = stat()
            let special = stat(path, &target) == 0 && (target.st_mode & S_IFMT) != S_IFREG && (target.st_mode & S_IFMT) != S_IFDIR
            guard special else {
                throw FileSystemError(path: path, reason: "is a symbolic link, which animc does not write through for an output it makes; remove it or choose another output")
            }
        }
        try writeFileAtomically(path, bytes)
    }

    private func writeThrough(_ target: String, _ bytes: [UInt8], shownAs path: String) throws(FileSystemError) {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error(path) }
        defer { close(fd) }
        try AtomicWrite.writeAll(fd, bytes, path: path)
    }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + part
            if isDirectory(current) { continue }
            if mkdir(current, 0o777) != 0 && errno != EEXIST { throw error(current) }
        }
    }

    public func canonicalPath(_ path: String) -> String {
        // realpath the longest existing prefix, then append the rest as written.
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
            if parent.isEmpty || parent == head { head = "."; if tail.count > 64 { return path } ; continue }
            head = parent
        }
    }

    private func error(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: String(cString: strerror(errno)).lowercasedFirst)
    }
}

/// A file's identity: device and inode.
private struct FileKey: Hashable {
    let device: UInt64
    let inode: UInt64
    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
}

extension String {
    var lowercasedFirst: String { isEmpty ? self : prefix(1).lowercased() + dropFirst() }
}

/// An in-memory file system for tests; `failWrites` simulates a disk that fails
/// part-way through writing.
public final class InMemoryFileSystem: FileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: [UInt8]]
    public var failWrites = false

    public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

    public subscript(path: String) -> [UInt8]? {
        get { lock.withLock { files[path] } }
        set { lock.withLock { files[path] = newValue } }
    }

    public var allPaths: [String] { lock.withLock { files.keys.sorted() } }

    public func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        if isDirectory(path) { throw FileSystemError(path: path, reason: "is a directory") }
        guard let bytes = self[path] else { throw FileSystemError(path: path, reason: "no such file or directory") }
        return bytes
    }

    public func isDirectory(_ path: String) -> Bool {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return lock.withLock { files.keys.contains { $0.hasPrefix(prefix) } }
    }

    public func exists(_ path: String) -> Bool { self[path] != nil || isDirectory(path) }

    public func filesRecursively(under path: String) throws(FileSystemError) -> [String] {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return lock.withLock { files.keys.filter { $0.hasPrefix(prefix) }.sorted() }
    }

    public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        if failWrites { throw FileSystemError(path: path, reason: "no space left on device") }
        self[path] = bytes
    }

    /// There are no links here.
    public func writeOutputAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        try writeFileAtomically(path, bytes)
    }

    /// Directories exist implicitly (as prefixes of file paths).
    public func createDirectory(_ path: String) throws(FileSystemError) {}

    /// The path with `.`, `..` and repeated slashes removed (there are no links here).
    public func canonicalPath(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty, parts.last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

/// Reads imported files from a ``FileSystem``, with the input cap of every source.
public struct FileSystemLoader: SourceLoader {
    public let fileSystem: any FileSystem

    public init(fileSystem: any FileSystem) { self.fileSystem = fileSystem }

    /// The real path (links resolved) of a file that exists.
    public func identity(of path: String) -> String? {
        fileSystem.exists(path) ? fileSystem.canonicalPath(path) : nil
    }

    public func load(_ path: String) -> Result<SourceFile, ImportFailure> {
        // (`readFile` refuses a directory in its own words.)
        guard fileSystem.exists(path) else { return .failure(ImportFailure("no such file")) }
        do {
            return .success(SourceFile(name: path, bytes: try fileSystem.readFile(path)))
        } catch {
            return .failure(ImportFailure(error.reason))
        }
    }
}
