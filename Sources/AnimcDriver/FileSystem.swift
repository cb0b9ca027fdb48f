import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcLanguageServer
import Foundation

/// What the driver needs from a file system. Tests use ``InMemoryFileSystem``; the
/// tool uses ``LocalFileSystem``.
public protocol FileSystem: Sendable {
    /// The bytes of a regular file. Directories, FIFOs, devices and sockets are refused
    /// before anything is read (reading a FIFO would block forever).
    func readFile(_ path: String) throws(FileSystemError) -> [UInt8]
    /// ``readFile(_:)`` of a file that must lie inside `root`: the file actually opened
    /// (links resolved, as the descriptor names it, so a link swapped between a check
    /// and the read changes nothing) is refused, unread, when it lies outside, with
    /// ``FileSystemError/outside`` set.
    func readFile(_ path: String, inside root: ProjectRoot) throws(FileSystemError) -> [UInt8]
    func isDirectory(_ path: String) -> Bool
    func exists(_ path: String) -> Bool
    /// Regular files below `path`, recursively, as paths that start with `path`, sorted.
    /// Each directory is walked once even when symbolic links lead back to it, and a
    /// link is followed only when it resolves to a place inside `path`.
    func filesRecursively(under path: String) throws(FileSystemError) -> [String]
    /// ``filesRecursively(under:)``, and in `unnamed` the entries whose names are not
    /// UTF-8, as `\xFF` escapes: a path animc cannot spell is said, not skipped.
    func filesRecursively(under path: String, unnamed: inout [String]) throws(FileSystemError) -> [String]
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
    /// Rewrites a source in place (`check --fix`, `fmt`), atomically, keeping its mode,
    /// its owner and a link to it (the file it names is rewritten). Refused, leaving the
    /// file as it was, with the refusal's code: when it no longer holds `original` (an
    /// edit saved while animc worked, checked again just before the new file takes its
    /// name), when it is read-only, when it has other names (hard links the new file
    /// would split from), when its owner cannot be kept.
    func rewriteSource(_ path: String, from original: [UInt8], to bytes: [UInt8]) throws(FileSystemError)
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
    /// Set when the file was refused for lying outside this project root.
    public var outside: ProjectRoot?
    /// The refusal's code (``FileDiagnostics``), for a refusal rather than a failure.
    public var code: DiagnosticCode?
    public init(path: String, reason: String, outside: ProjectRoot? = nil, code: DiagnosticCode? = nil) {
        self.path = path
        self.reason = reason
        self.outside = outside
        self.code = code
    }
    public var description: String { "\(path): \(reason)" }

    /// A source that no longer holds what was read (E1002).
    static func changed(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: "changed since animc read it (saved from an editor?); the newer text is kept and nothing was written: run the command again",
                        code: FileDiagnostics.sourceChanged.code)
    }
}

/// The real file system, through POSIX calls so that errors carry `errno`'s meaning.
public struct LocalFileSystem: FileSystem {
    /// Files larger than this are refused before reading. Compiling takes up to about
    /// 60 bytes of memory per source byte on the densest input (a tree node per few
    /// bytes), so this keeps any input within 1 GB; real `.anim` files are kilobytes.
    public static let maxFileSize = Pipeline.maxSourceSize

    public init() {}

    public func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        try readChecked(path, inside: nil)
    }

    public func readFile(_ path: String, inside root: ProjectRoot) throws(FileSystemError) -> [UInt8] {
        // Refused before opening when the path already resolves outside: opening a
        // device or FIFO outside the project is itself a side effect.
        let before = canonicalPath(path)
        guard root.contains(before) else { throw outside(path, before, root) }
        return try readChecked(path, inside: root)
    }

    private func outside(_ path: String, _ real: String, _ root: ProjectRoot) -> FileSystemError {
        FileSystemError(path: path, reason: "is \(real), outside the project root \(root)", outside: root)
    }

    private func readChecked(_ path: String, inside root: ProjectRoot?) throws(FileSystemError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
        // before fstat could say what it is.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw error(path) }
        defer { close(fd) }
        if let root, let opened = openedPath(fd), !root.contains(opened) {
            // A link changed between the check above and the open.
            throw outside(path, opened, root)
        }
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

    /// The real path of the file `fd` is open on, as the kernel names it; nil where
    /// there is no /proc (the check before opening stands alone there).
    private func openedPath(_ fd: Int32) -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return nil
        #endif
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
        var unnamed: [String] = []
        return try filesRecursively(under: path, unnamed: &unnamed)
    }

    public func filesRecursively(under path: String, unnamed: inout [String]) throws(FileSystemError) -> [String] {
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
                let bytes = withUnsafeMutablePointer(to: &entry.pointee.d_name) { field -> [UInt8] in
                    let start = UnsafeRawPointer(field).assumingMemoryBound(to: UInt8.self)
                    return Array(UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(field).assumingMemoryBound(to: CChar.self))))
                }
                if bytes.first == UInt8(ascii: ".") { continue }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    // Only a name that may be a source is worth a word.
                    if bytes.count > 5, bytes.suffix(5).elementsEqual(".anim".utf8) {
                        unnamed.append((dir.hasSuffix("/") ? dir : dir + "/") + escaped(bytes))
                    }
                    continue
                }
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

    /// A name's bytes with each one that is not printable ASCII as `\xFF`.
    private func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
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
                throw FileSystemError(path: path, reason: "is a symbolic link, which animc does not write through for an output it makes; remove it or choose another output",
                                      code: FileDiagnostics.outputIsLink.code)
            }
        }
        try writeFileAtomically(path, bytes)
    }

    public func rewriteSource(_ path: String, from original: [UInt8], to bytes: [UInt8]) throws(FileSystemError) {
        var target = path
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = resolved(path) else { throw FileSystemError(path: path, reason: "is a symbolic link to nothing") }
            target = resolved
        }
        guard stat(target, &info) == 0 else { throw error(path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileSystemError(path: path, reason: "is not a regular file") }
        // Root may write any file: the mode bits say what its owner meant.
        if (info.st_mode & 0o222) == 0 || (geteuid() != 0 && access(target, W_OK) != 0) {
            throw FileSystemError(path: path, reason: "is read-only (mode \(String(info.st_mode & 0o7777, radix: 8))); it is left as it was",
                                  code: FileDiagnostics.sourceReadOnly.code)
        }
        if info.st_nlink > 1 {
            throw FileSystemError(path: path, reason: "has \(info.st_nlink) names (hard links), which a rewritten file would split; it is left as it was (--dry-run prints the change)",
                                  code: FileDiagnostics.sourceLinked.code)
        }
        let changed = { () throws(FileSystemError) -> Void in
            let now = (try? self.readFile(target)) ?? []
            if now != original {
                throw FileSystemError.changed(path)
            }
        }
        try changed()
        try AtomicWrite.replace(target, bytes, mode: info.st_mode & 0o7777,
                                keep: AtomicWrite.Keep(owner: (info.st_uid, info.st_gid), stillSame: changed), shownAs: path)
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

    public func canonicalPath(_ path: String) -> String { LocalPaths.canonical(path) }

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

    public func readFile(_ path: String, inside root: ProjectRoot) throws(FileSystemError) -> [UInt8] {
        let real = canonicalPath(path)
        guard root.contains(real) else {
            throw FileSystemError(path: path, reason: "is \(real), outside the project root \(root)", outside: root)
        }
        return try readFile(path)
    }

    public func isDirectory(_ path: String) -> Bool {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return lock.withLock { files.keys.contains { $0.hasPrefix(prefix) } }
    }

    public func exists(_ path: String) -> Bool { self[path] != nil || isDirectory(path) }

    /// Every name here is a Swift string, so UTF-8.
    public func filesRecursively(under path: String, unnamed: inout [String]) throws(FileSystemError) -> [String] {
        try filesRecursively(under: path)
    }

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

    /// Refuses a file that no longer holds `original` (there are no modes or links here).
    public func rewriteSource(_ path: String, from original: [UInt8], to bytes: [UInt8]) throws(FileSystemError) {
        guard self[path] == original else {
            throw FileSystemError.changed(path)
        }
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
    /// Where every imported file must lie (``ProjectRoot``); nil reads anywhere (tests
    /// of the loading itself).
    public var root: ProjectRoot?

    public init(fileSystem: any FileSystem, root: ProjectRoot? = nil) {
        self.fileSystem = fileSystem
        self.root = root
    }

    /// The real path (links resolved) of a file that exists.
    public func identity(of path: String) -> String? {
        fileSystem.exists(path) ? fileSystem.canonicalPath(path) : nil
    }

    public func load(_ path: String) -> Result<SourceFile, ImportFailure> {
        // Outside the root is said before whether the file exists: nothing about the
        // rest of the disk is told.
        if let root {
            let real = fileSystem.canonicalPath(path)
            guard root.contains(real) else { return .failure(.outside(root, realPath: real)) }
        }
        // (`readFile` refuses a directory in its own words.)
        guard fileSystem.exists(path) else { return .failure(ImportFailure("no such file")) }
        do throws(FileSystemError) {
            let bytes = if let root { try fileSystem.readFile(path, inside: root) } else { try fileSystem.readFile(path) }
            return .success(SourceFile(name: path, bytes: bytes))
        } catch {
            if let outside = error.outside {
                return .failure(.outside(outside, realPath: fileSystem.canonicalPath(path)))
            }
            return .failure(ImportFailure(error.reason))
        }
    }
}
