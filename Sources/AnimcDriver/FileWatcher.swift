import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says when one of a few files changed: the preview server's trigger.
///
/// A file has changed when its modification stamp (time, size, inode) differs from the
/// one last seen, so an editor's rename-over save, an in-place write and a `touch` all
/// count, and a file that appears or disappears too. On Linux an inotify watch on each
/// file's directory wakes the wait as soon as a write is closed or a file is renamed
/// into place (a save is seen in well under a millisecond, where polling every 150 ms
/// took 75 ms on average); elsewhere, and as a fallback on file systems that send no
/// events, the stamps are compared at each timeout.
final class FileWatcher {
    private var files: [String] = []
    private var stamps: [[Int]] = []
    #if canImport(Glibc)
    private let inotify: Int32
    private var watches: [Int32] = []
    #endif

    init(_ files: [String]) {
        #if canImport(Glibc)
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #endif
        watch(files)
    }

    deinit {
        #if canImport(Glibc)
        if inotify >= 0 { close(inotify) }
        #endif
    }

    /// Watches `files` from now on; what they are now is the baseline.
    func watch(_ files: [String]) {
        self.files = files
        stamps = files.map(FileWatcher.modificationStamp)
        #if canImport(Glibc)
        guard inotify >= 0 else { return }
        for w in watches { inotify_rm_watch(inotify, w) }
        watches = []
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_CREATE)
        for dir in Set(files.map(FileWatcher.directory)) {
            let w = inotify_add_watch(inotify, dir, mask)
            if w >= 0 { watches.append(w) }
        }
        #endif
    }

    /// Waits up to `timeout` seconds for a change; true when a file changed since the
    /// baseline, which then becomes the new baseline.
    func waitForChange(timeout: Double) -> Bool {
        #if canImport(Glibc)
        if inotify >= 0 && !watches.isEmpty {
            var p = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(timeout * 1000)) > 0 {
                // The events only wake the wait; the stamps decide.
                var sink = [UInt8](repeating: 0, count: 4096)
                while read(inotify, &sink, sink.count) > 0 {}
            }
        } else {
            usleep(UInt32(min(timeout, 0.05) * 1e6))
        }
        #else
        usleep(UInt32(min(timeout, 0.05) * 1e6))
        #endif
        let now = files.map(FileWatcher.modificationStamp)
        guard now != stamps else { return false }
        stamps = now
        return true
    }

    static func directory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func modificationStamp(_ path: String) -> [Int] {
        var s = stat()
        guard stat(path, &s) == 0 else { return [-1] }
        #if canImport(Darwin)
        return [Int(s.st_mtimespec.tv_sec), Int(s.st_mtimespec.tv_nsec), Int(s.st_size), Int(s.st_ino)]
        #else
        return [Int(s.st_mtim.tv_sec), Int(s.st_mtim.tv_nsec), Int(s.st_size), Int(s.st_ino)]
        #endif
    }
}
