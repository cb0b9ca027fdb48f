import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcTestSupport
import AnimcTimeline
import Foundation
import Testing

/// The module cache (issue 52): an imported file is checked once per content and read
/// as an immutable interface by every importer, on any thread; a compilation with the
/// cache, warm or cold, is the compilation without it.
@Suite struct ModuleCacheTests {
    /// Everything a compilation says, as text: each file's diagnostics with their ranges
    /// and notes, the imported files in order, the timeline's bytes.
    static func said(_ p: ProjectResult) -> [String] {
        var lines = p.reports.flatMap { report in
            [report.file.name] + report.diagnostics.map { d in
                "\(d.code) \(d.range.start)-\(d.range.end) \(d.message) | " + d.notes.map(\.message).joined(separator: " | ")
            }
        }
        lines += p.imported.map { "imports \($0.file.name)" }
        if let c = p.main.composition { lines.append(String(decoding: TimelineWriter.bytes(c), as: UTF8.self)) }
        return lines
    }

    static func compile(_ path: String, in fs: InMemoryFileSystem, cache: ModuleCache?) -> ProjectResult {
        Pipeline.compile(SourceFile(name: path, bytes: fs[path] ?? []), loader: FileSystemLoader(fileSystem: fs), cache: cache)
    }

    /// Every file of the repository that imports: compiled with a cold cache, then with
    /// the warm one, each says exactly what it says without a cache (the libraries'
    /// reports, their errors at the importers, the timeline).
    @Test func aCachedCheckIsTheCheck() {
        let fs = ProjectTests.fileSystem()
        let importers = fs.allPaths.filter { path in
            path.hasSuffix(".anim") && String(decoding: fs[path] ?? [], as: UTF8.self).contains("import \"")
        }.sorted()
        #expect(importers.count >= 10)
        let cache = ModuleCache()
        for path in importers {
            let plain = Self.said(Self.compile(path, in: fs, cache: nil))
            #expect(Self.said(Self.compile(path, in: fs, cache: cache)) == plain, "\(path), cold")
            #expect(Self.said(Self.compile(path, in: fs, cache: cache)) == plain, "\(path), warm")
        }
        #expect(cache.statistics.hits > 0)
    }

    /// Two importers of one library: the library is checked for the first only; an edit
    /// to it is a new check whose values reach the importer, and undoing the edit finds
    /// the first check again.
    @Test func aLibraryIsCheckedOncePerContent() throws {
        let fs = ProjectTests.fileSystem()
        let tokens = "examples/motion-system/motion/tokens.anim"
        let apps = ["examples/motion-system/loading.anim", "examples/motion-system/toast.anim"]
        let cache = ModuleCache()
        _ = Self.compile(apps[0], in: fs, cache: cache)
        let cold = cache.statistics
        #expect(cold.hits == 0 && cold.misses == 2, "tokens and components, each checked once: \(cold)")
        _ = Self.compile(apps[1], in: fs, cache: cache)
        #expect(cache.statistics.misses == cold.misses, "the second importer checked a library again")

        let original = try #require(fs[tokens])
        fs[tokens] = Array(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "let quick = 150ms", with: "let quick = 170ms").utf8)
        #expect(fs[tokens] != original)
        let edited = Self.compile(apps[0], in: fs, cache: cache)
        #expect(Self.said(edited) == Self.said(Self.compile(apps[0], in: fs, cache: nil)))
        // tokens changed, and components, which imports it, is checked against the new one.
        #expect(cache.statistics.misses == cold.misses + 2)
        fs[tokens] = original
        let before = cache.statistics
        #expect(Self.said(Self.compile(apps[0], in: fs, cache: cache)) == Self.said(Self.compile(apps[0], in: fs, cache: nil)))
        #expect(cache.statistics.misses == before.misses, "undoing the edit checked the libraries again")
    }

    /// A library whose own import changed is checked again though its text did not: a
    /// component's default read from the changed file reaches the importer.
    @Test func aChangeInALibrarysImportReachesItsImporters() throws {
        let fs = InMemoryFileSystem([
            "p/tokens.anim": Array("let size = 10\n".utf8),
            "p/kit.anim": Array("import \"tokens.anim\"\ncomponent Dot(at: Point, side: Number = tokens.size) {\n  layer { position: at, bounds: side x side }\n}\n".utf8),
            "p/app.anim": Array("import \"kit.anim\"\ncomposition { size: 100 x 100 }\nd = kit.Dot(at: (50, 50))\n".utf8),
        ])
        let cache = ModuleCache()
        let first = Self.compile("p/app.anim", in: fs, cache: cache)
        #expect(first.main.composition != nil)
        fs["p/tokens.anim"] = Array("let size = 24\n".utf8)
        let second = Self.compile("p/app.anim", in: fs, cache: cache)
        #expect(Self.said(second) == Self.said(Self.compile("p/app.anim", in: fs, cache: nil)))
        #expect(Self.said(second) != Self.said(first), "the new size did not reach the importer")
    }

    /// Checks on many threads share one cache and the interfaces in it: each says what a
    /// check alone says (an interface read while another thread lowers from it).
    @Test func checksOnManyThreadsShareOneInterface() {
        let fs = InMemoryFileSystem()
        fs["p/kit.anim"] = Array("""
            let base = 8
            timing ease = cubic(0.2, 0, 0, 1)
            component Dot(at: Point, side: Number = base * 2, delay: Time = 0s) {
              layer {
                position: at
                bounds: side x side
                basic opacity { from: 0, to: 1, duration: 0.3s, beginTime: delay, fillMode: backwards, timingFunction: ease }
              }
            }

            """.utf8)
        let apps = (0..<24).map { "p/app\($0).anim" }
        for (k, app) in apps.enumerated() {
            fs[app] = Array("""
                import "kit.anim"
                composition { size: 200 x 200 }
                layer row {
                  position: (100, 100)
                  bounds: 200 x 40
                  for i in 0 ..< \(3 + k % 5) { dot[i] = kit.Dot(at: (20 * i, 20), delay: 0.05s * i) }
                }
                big = kit.Dot(at: (10, 10), side: \(k + 1))

                """.utf8)
        }
        let expected = apps.map { Self.said(Self.compile($0, in: fs, cache: nil)) }
        let cache = ModuleCache()
        let results = Slots(count: apps.count * 4)
        DispatchQueue.concurrentPerform(iterations: apps.count * 4) { i in
            results.set(i, Self.said(Self.compile(apps[i % apps.count], in: fs, cache: cache)))
        }
        for i in 0..<(apps.count * 4) { #expect(results.value(i) == expected[i % apps.count], "\(apps[i % apps.count])") }
        #expect(cache.count == 1)
    }

    /// An editor's keystrokes in a library keep two versions of it, and a cache smaller
    /// than a file keeps nothing and still answers right.
    @Test func theCacheIsBounded() {
        let fs = InMemoryFileSystem(["p/app.anim": Array("import \"lib.anim\"\ncomposition { size: 10 x 10 }\nlayer a { opacity: lib.o }\n".utf8)])
        let cache = ModuleCache()
        for k in 0..<20 {
            fs["p/lib.anim"] = Array("let o = 0.\(k)\n".utf8)
            _ = Self.compile("p/app.anim", in: fs, cache: cache)
        }
        #expect(cache.count == ModuleCache.versionsPerFile)
        let tiny = ModuleCache(capacityBytes: 4)
        let result = Self.compile("p/app.anim", in: fs, cache: tiny)
        #expect(tiny.count == 0)
        #expect(Self.said(result) == Self.said(Self.compile("p/app.anim", in: fs, cache: nil)))
    }
}

extension ModuleCacheTests {
    /// An import nothing reads is W0310 with a fix that removes its line, offered one at
    /// a time (issue 52); the file means the same without it.
    @Test func anUnusedImportHasAFixThatRemovesIt() throws {
        let fs = InMemoryFileSystem([
            "p/lib.anim": Array("let o = 0.5\n".utf8),
            "p/app.anim": Array("import \"lib.anim\" as lib\ncomposition { size: 10 x 10 }\nlayer a { opacity: 0.5 }\n".utf8),
        ])
        let before = Self.compile("p/app.anim", in: fs, cache: nil)
        let warning = try #require(before.main.diagnostics.first { $0.code == "W0310" })
        #expect(warning.message == "import 'lib' is never used")
        let fix = try #require(warning.fixIts.first)
        #expect(fix.applicability == .maybeIncorrect)
        let fixed = applyEdits(fix.edits, to: fs["p/app.anim"] ?? [])
        #expect(String(decoding: fixed, as: UTF8.self) == "composition { size: 10 x 10 }\nlayer a { opacity: 0.5 }\n")
        fs["p/app.anim"] = fixed
        let after = Self.compile("p/app.anim", in: fs, cache: nil)
        #expect(after.main.diagnostics.isEmpty)
        let a = try #require(before.main.composition), b = try #require(after.main.composition)
        #expect(TimelineWriter.bytes(a) == TimelineWriter.bytes(b))
    }
}

/// Results written by many threads, one slot each.
private final class Slots: @unchecked Sendable {
    private var values: [[String]]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: [], count: count) }
    func set(_ i: Int, _ v: [String]) { lock.withLock { values[i] = v } }
    func value(_ i: Int) -> [String] { lock.withLock { values[i] } }
}
