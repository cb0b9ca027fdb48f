import AnimcCompiler
import Foundation

/// Replacing a file atomically: the new bytes go to a file beside the destination,
/// are flushed to disk, and take the destination's name in one `rename`; then the
/// directory is flushed so the rename itself survives a crash. A reader sees the old
/// file or the new one, never a partial one.
///
/// Interruptions leave nothing behind. On Linux the bytes are written to an unnamed
/// file (`O_TMPFILE`), which has a name only for the instant between `linkat` and
/// `rename`, so even SIGKILL leaves no debris; elsewhere (and on file systems without
/// unnamed files) a `mkstemp` file is used, and SIGINT, SIGTERM and SIGHUP remove it
/// before the process dies. The replaced file's permissions are kept.
enum AtomicWrite {
    /// What else a replacement must keep or check (``FileSystem/rewriteSource(_:from:to:)``).
    struct Keep {
        /// The replaced file's owner, given to the new file (only root can give a file
        /// to another user; the replacement is refused when it cannot be kept).
        var owner: (uid: uid_t, gid: gid_t)?
        /// Called just before the new file takes the name: a throw leaves the old file.
        var stillSame: (() throws(FileSystemError) -> Void)?
    }

    static func replace(_ path: String, _ bytes: [UInt8], mode: mode_t?, keep: Keep = Keep(), shownAs shown: String) throws(FileSystemError) {
        let directory = (path as NSString).deletingLastPathComponent
        let dir = directory.isEmpty ? "." : directory
        let base = (path as NSString).lastPathComponent
        let finalMode = mode ?? (0o666 & ~currentUmask())
        let guarded = SignalGuard()
        defer { guarded.restore() }
        #if os(Linux)
        if try replaceThroughUnnamedFile(path, dir: dir, base: base, bytes, mode: finalMode, keep: keep, shownAs: shown) { return }
        #endif
        try replaceThroughNamedFile(path, dir: dir, base: base, bytes, mode: finalMode, keep: keep, shownAs: shown)
    }

    #if os(Linux)
    /// `O_TMPFILE`, spelled out: Glibc defines it as a macro Swift does not import
    /// (`__O_TMPFILE | O_DIRECTORY`, the same value on every Linux architecture Swift
    /// supports).
    private static let openTemporaryFile: Int32 = 0o20_200_000

    /// Returns false when the file system has no unnamed files (or /proc is missing),
    /// so the caller falls back to a named temporary file.
    private static func replaceThroughUnnamedFile(_ path: String, dir: String, base: String, _ bytes: [UInt8], mode: mode_t,
                                                  keep: Keep, shownAs shown: String) throws(FileSystemError) -> Bool {
        let fd = open(dir, openTemporaryFile | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else {
            if errno == ENOENT || errno == EACCES || errno == EROFS || errno == ENOTDIR || errno == ENOSPC {
                throw failure(shown)
            }
            return false  // EOPNOTSUPP, EISDIR, EINVAL: no O_TMPFILE here
        }
        defer { close(fd) }
        try writeAll(fd, bytes, path: shown)
        try give(fd, keep.owner, shownAs: shown)
        if fchmod(fd, mode) != 0 || fsync(fd) != 0 { throw failure(shown) }
        try keep.stillSame?()
        let temporary = "\(dir)/.\(base).animc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else { return false }
        let slot = PendingFiles.register(temporary)
        defer { PendingFiles.unregister(slot) }
        guard rename(temporary, path) == 0 else {
            let e = failure(shown)
            unlink(temporary)
            throw e
        }
        syncDirectory(dir)
        return true
    }
    #endif

    private static func replaceThroughNamedFile(_ path: String, dir: String, base: String, _ bytes: [UInt8], mode: mode_t,
                                                keep: Keep, shownAs shown: String) throws(FileSystemError) {
        var template = Array("\(dir)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw failure(shown) }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slot = PendingFiles.register(temporary)
        defer { PendingFiles.unregister(slot) }
        var done = false
        defer { if !done { unlink(temporary) } }
        do {
            defer { close(fd) }
            try writeAll(fd, bytes, path: shown)
            try give(fd, keep.owner, shownAs: shown)
            // Flush before the rename, or a crash could leave the name on an empty file.
            if fchmod(fd, mode) != 0 || fsync(fd) != 0 { throw failure(shown) }
        }
        try keep.stillSame?()
        guard rename(temporary, path) == 0 else { throw failure(shown) }
        done = true
        syncDirectory(dir)
    }

    /// Gives the new file the replaced file's owner, before its mode (a change of owner
    /// clears set-user-ID bits).
    private static func give(_ fd: Int32, _ owner: (uid: uid_t, gid: gid_t)?, shownAs shown: String) throws(FileSystemError) {
        guard let owner else { return }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(shown) }
        if info.st_uid == owner.uid && info.st_gid == owner.gid { return }
        guard fchown(fd, owner.uid, owner.gid) == 0 else {
            throw FileSystemError(path: shown, reason: "belongs to user \(owner.uid), group \(owner.gid), which the rewritten file could not keep; it is left as it was",
                                  code: FileDiagnostics.sourceOwner.code)
        }
    }

    /// Writes every byte, retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileSystemError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(fd, base + written, raw.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            written += n
        }
    }

    /// Makes the rename durable; failures are ignored (some file systems refuse fsync
    /// on directories, and the data itself is already safe).
    private static func syncDirectory(_ dir: String) {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    private static func failure(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: String(cString: strerror(errno)).lowercasedFirst)
    }
}

/// Temporary files that exist right now, as C strings in fixed slots, so a signal
/// handler can remove them without allocating.
private enum PendingFiles {
    static let capacity = 16
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    static let lock = NSLock()

    static func register(_ path: String) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return i
        }
        return nil
    }

    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        lock.lock()
        defer { lock.unlock() }
        let p = slots[slot]
        slots[slot] = nil
        free(p)
    }

    /// Called from the signal handler: only async-signal-safe work.
    static func removeAll() {
        for i in 0..<capacity {
            if let p = slots[i] { unlink(p) }
        }
    }
}

/// Installs a handler for SIGINT, SIGTERM and SIGHUP that removes pending temporary
/// files and then dies of the signal as before; ``restore()`` puts back whatever was
/// installed (an app embedding the driver keeps its own handlers outside writes).
private struct SignalGuard {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private var previous: [sigaction] = []

    init() {
        _ = PendingFiles.slots  // initialise before any handler can run
        for s in SignalGuard.signals {
            var action = sigaction()
            var old = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = signalHandler
            #else
            action.__sigaction_u.__sa_handler = signalHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(s, &action, &old)
            previous.append(old)
        }
    }

    func restore() {
        for (s, old) in zip(SignalGuard.signals, previous) {
            var action = old
            sigaction(s, &action, nil)
        }
    }
}

private func signalHandler(_ signal: Int32) {
    PendingFiles.removeAll()
    var action = sigaction()
    sigemptyset(&action.sa_mask)
    #if os(Linux)
    action.__sigaction_handler.sa_handler = nil  // SIG_DFL
    #else
    action.__sigaction_u.__sa_handler = nil
    #endif
    sigaction(signal, &action, nil)
    raise(signal)
}
