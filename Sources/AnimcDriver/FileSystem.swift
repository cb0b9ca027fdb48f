import Foundation

/// What the driver needs from a file system. Tests use ``InMemoryFileSystem``; the
/// tool uses ``LocalFileSystem``.
public protocol FileSystem: Sendable {
    func readFile(_ path: String) throws(FileSystemError) -> [UInt8]
    func isDirectory(_ path: String) -> Bool
    func exists(_ path: String) -> Bool
    /// Regular files below `path`, recursively, as paths that start with `path`, sorted.
    func filesRecursively(under path: String) throws(FileSystemError) -> [String]
    /// Writes `bytes` so that `path` holds either its old contents or all of the new
    /// ones, never a partial file: a temporary file beside it, then a rename.
    func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError)
    /// Creates a directory and any missing parents; succeeds if it already exists.
    func createDirectory(_ path: String) throws(FileSystemError)
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
    /// Files larger than this are refused before reading: no `.anim` is that big, and
    /// reading a multi-gigabyte file by mistake should not exhaust memory.
    public static let maxFileSize = 256 << 20

    public init() {}

    public func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw error(path) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileSystemError(path: path, reason: "is a directory") }
        if Int(info.st_size) > LocalFileSystem.maxFileSize {
            throw FileSystemError(path: path, reason: "file is larger than \(LocalFileSystem.maxFileSize >> 20) MiB")
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw error(path) }
        defer { close(fd) }
        var result: [UInt8] = []
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error(path)
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > LocalFileSystem.maxFileSize {
                throw FileSystemError(path: path, reason: "file is larger than \(LocalFileSystem.maxFileSize >> 20) MiB")
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
        var visited = 0
        while let dir = pending.popLast() {
            visited += 1
            guard visited < 100_000 else { throw FileSystemError(path: path, reason: "too many directories") }
            guard let handle = opendir(dir) else { throw error(dir) }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let child = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var info = stat()
                // stat (not lstat): a link to a file counts, a link loop fails and is skipped.
                guard stat(child, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(child)
                } else if (info.st_mode & S_IFMT) == S_IFREG {
                    result.append(child)
                }
            }
        }
        return result.sorted()
    }

    public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(FileSystemError) {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let dir = directory.isEmpty ? "." : directory
        var template = Array("\(dir)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw error(path) }
        let temp = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(temp) }
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(fd, base + written, raw.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let e = error(path)
                close(fd)
                throw e
            }
            written += n
        }
        // Flush to disk before the rename, or a crash could leave the new name pointing
        // at an empty file.
        if fsync(fd) != 0 {
            let e = error(path)
            close(fd)
            throw e
        }
        close(fd)
        fchmodDefault(temp)
        guard rename(temp, path) == 0 else { throw error(path) }
        ok = true
    }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + part
            if isDirectory(current) { continue }
            if mkdir(current, 0o777) != 0 && errno != EEXIST { throw error(current) }
        }
    }

    /// mkstemp creates files with mode 0600; outputs should be readable like any file
    /// the user creates, so apply the usual 0666 & ~umask.
    private func fchmodDefault(_ path: String) {
        let mask = umask(0)
        umask(mask)
        chmod(path, 0o666 & ~mask)
    }

    private func error(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: String(cString: strerror(errno)).lowercasedFirst)
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

    /// Directories exist implicitly (as prefixes of file paths).
    public func createDirectory(_ path: String) throws(FileSystemError) {}
}
