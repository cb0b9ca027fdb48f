#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimcBase
import AnimcChecker
import AnimcDiagnostics
import AnimcSyntax

/// Imported files, parsed and checked, kept by content for the compilations of one
/// process: the language server's, `check DIR`'s, `preview --serve`'s. A library that
/// fifty files import is checked once while its text and its imports' are the same,
/// instead of once per importer and per keystroke.
///
/// An entry is used only when it is exactly what checking again would make: the file's
/// name and bytes are equal, each import resolved to the identical interface (which is
/// itself an entry's, so equality runs down the whole import graph), what loading its
/// imports reported is equal, and the limits are. Nothing is compared by a hash alone.
///
/// The compiler reads it in one place (the project loader, ``Pipeline/compile(_:loader:memo:limits:cache:)``);
/// it is safe to share between threads. It holds at most ``versionsPerFile`` versions of
/// each file (an editor makes one per keystroke) and ``capacityBytes`` of sources in all,
/// least recently used first out.
public final class ModuleCache: @unchecked Sendable {
    // Unchecked: every stored property is read and written under `mutex`.
    private var entries: [String: [Entry]] = [:]
    private var sourceBytes = 0
    private var clock: UInt64 = 0
    private let mutex = CacheMutex()
    private var hits = 0, misses = 0
    /// How often a lookup found the check it asked for, and how often not (for the
    /// benchmark and tests: the cache's effect is observable).
    public var statistics: (hits: Int, misses: Int) { mutex.locked { (hits, misses) } }

    /// Versions of one file kept: the current text and the one before (an undo).
    public static let versionsPerFile = 2
    /// Source bytes kept in all; a checked file holds many times its size in trees and
    /// values.
    public let capacityBytes: Int

    public init(capacityBytes: Int = 32 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// A checked file, and what it was checked against.
    struct Entry {
        let file: SourceFile
        let tree: SyntaxTree
        let imports: [UInt32: ModuleInterface?]
        let extra: [Diagnostic]
        let limits: ExpansionLimits
        let result: CompileResult
        let module: ModuleInterface
        var lastUse: UInt64
    }

    /// The tree of `file` if a version with its bytes is kept: parsing is the same
    /// whatever the imports.
    func tree(of file: SourceFile) -> SyntaxTree? {
        mutex.locked {
            entries[file.name]?.first { $0.file.bytes == file.bytes }?.tree
        }
    }

    /// The check of `file` against exactly these imports, if kept.
    func checked(_ file: SourceFile, imports: ResolvedImports, extra: [Diagnostic], limits: ExpansionLimits)
        -> (result: CompileResult, module: ModuleInterface)? {
        mutex.locked {
            clock += 1
            guard var versions = entries[file.name],
                  let i = versions.firstIndex(where: { $0.matches(file, imports.modules, extra, limits) }) else {
                misses += 1
                return nil
            }
            hits += 1
            versions[i].lastUse = clock
            entries[file.name] = versions
            return (versions[i].result, versions[i].module)
        }
    }

    /// Keeps a check made because ``checked(_:imports:extra:limits:)`` found none. When
    /// another thread kept the same check meanwhile, that one is returned, so every
    /// importer shares one interface (and its importers' entries stay valid).
    func keep(_ file: SourceFile, tree: SyntaxTree, imports: ResolvedImports, extra: [Diagnostic], limits: ExpansionLimits,
              result: CompileResult, module: ModuleInterface) -> (result: CompileResult, module: ModuleInterface) {
        mutex.locked {
            clock += 1
            var versions = entries[file.name] ?? []
            if let same = versions.first(where: { $0.matches(file, imports.modules, extra, limits) }) { return (same.result, same.module) }
            guard file.bytes.count <= capacityBytes else { return (result, module) }
            versions.insert(Entry(file: file, tree: tree, imports: imports.modules, extra: extra, limits: limits, result: result,
                                  module: module, lastUse: clock), at: 0)
            sourceBytes += file.bytes.count
            while versions.count > Self.versionsPerFile, let last = versions.popLast() { sourceBytes -= last.file.bytes.count }
            entries[file.name] = versions
            evictPastCapacity()
            return (result, module)
        }
    }

    /// How many checked files are kept.
    public var count: Int { mutex.locked { entries.values.reduce(0) { $0 + $1.count } } }

    private func evictPastCapacity() {
        while sourceBytes > capacityBytes {
            var oldest: (name: String, index: Int, use: UInt64)?
            for (name, versions) in entries {
                for (i, e) in versions.enumerated() where e.lastUse < oldest?.use ?? .max { oldest = (name, i, e.lastUse) }
            }
            guard let oldest, var versions = entries[oldest.name] else { return }
            sourceBytes -= versions.remove(at: oldest.index).file.bytes.count
            entries[oldest.name] = versions.isEmpty ? nil : versions
        }
    }
}

extension ModuleCache.Entry {
    func matches(_ file: SourceFile, _ modules: [UInt32: ModuleInterface?], _ extra: [Diagnostic], _ limits: ExpansionLimits) -> Bool {
        guard self.limits == limits, imports.count == modules.count, self.file.bytes == file.bytes, self.extra == extra else { return false }
        for (offset, module) in modules {
            guard let kept = imports[offset] else { return false }
            switch (kept, module) {
            case (nil, nil): continue
            case (let a?, let b?) where a === b: continue
            default: return false
            }
        }
        return true
    }
}

/// The C library's mutex: AnimcCompiler has no Foundation (`NSLock` wraps the same).
private final class CacheMutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
