import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDriver
import AnimcTestSupport
import AnimcTimeline
import Testing

/// Files that import each other (Fixtures/projects, examples/motion-system): an import
/// changes nothing a file means, each file is checked once per compilation, and an
/// editor's memo never replays what an imported file's change invalidated.
@Suite struct ProjectTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/projects"

    static func fileSystem() -> InMemoryFileSystem {
        let fs = InMemoryFileSystem()
        for path in Repository.filesRecursively(in: folder, withExtension: "anim") + Repository.exampleFiles {
            fs[path] = Repository.bytes(path)
        }
        return fs
    }

    static func compile(_ path: String, in fs: InMemoryFileSystem, memo: CheckMemo? = nil) -> ProjectResult {
        Pipeline.compile(SourceFile(name: path, bytes: fs[path] ?? []), loader: FileSystemLoader(fileSystem: fs), memo: memo)
    }

    /// A file that reads its tokens and components from libraries builds the same
    /// timeline, byte for byte, as the same file with every value written in place.
    @Test func importingChangesNothingTheFileMeans() throws {
        let fs = Self.fileSystem()
        let imported = Self.compile(Self.folder + "/tokens/a.anim", in: fs)
        let inlined = Self.compile(Self.folder + "/tokens/inlined.anim", in: fs)
        #expect(!imported.hasErrors && !inlined.hasErrors)
        var a = try #require(imported.main.composition), b = try #require(inlined.main.composition)
        a.name = "same"
        b.name = "same"
        #expect(TimelineWriter.bytes(a) == TimelineWriter.bytes(b))
        #expect(a.layers.map(\.id) == ["first", "row", "row.dot[0]", "row.dot[1]"])
    }

    /// Every file of the example project checks and builds, and each library once.
    @Test func theExampleProjectBuilds() throws {
        let fs = Self.fileSystem()
        for app in ["examples/motion-system/loading.anim", "examples/motion-system/toast.anim"] {
            let project = Self.compile(app, in: fs)
            #expect(project.reports.allSatisfy { $0.diagnostics.isEmpty }, "\(app): \(project.reports.flatMap(\.diagnostics).map(\.message))")
            #expect(project.main.composition != nil)
            #expect(project.imported.map(\.file.name) == ["examples/motion-system/motion/tokens.anim", "examples/motion-system/motion/components.anim"])
        }
    }

    /// An editor's memo replays an item only for the same imported files: after the
    /// library changes, the check with the memo equals a fresh one (here, a value that
    /// only the library's text holds).
    @Test func aMemoDoesNotOutliveTheFilesItImported() throws {
        let fs = Self.fileSystem()
        let app = Self.folder + "/tokens/b.anim", tokens = Self.folder + "/tokens/motion/tokens.anim"
        let memo = CheckMemo()
        _ = Self.compile(app, in: fs, memo: memo)
        _ = Self.compile(app, in: fs, memo: memo)
        #expect(memo.reused > 0)
        fs[tokens] = Array(String(decoding: fs[tokens] ?? [], as: UTF8.self).replacingOccurrences(of: "let slow = 0.6s", with: "let slow = 0.9s").utf8)
        let withMemo = try #require(Self.compile(app, in: fs, memo: memo).main.composition)
        let fresh = try #require(Self.compile(app, in: fs).main.composition)
        #expect(TimelineWriter.bytes(withMemo) == TimelineWriter.bytes(fresh))
        #expect(TimelineWriter.bytes(fresh).count > 0 && String(decoding: TimelineWriter.bytes(fresh), as: UTF8.self).contains("0.9"))
    }

    /// A file imported along two paths (directly and through another library) is
    /// checked once, and its findings are reported once.
    @Test func aFileImportedTwiceIsCheckedOnce() {
        let fs = Self.fileSystem()
        let project = Self.compile(Self.folder + "/tokens/a.anim", in: fs)
        #expect(project.imported.map(\.file.name) == [Self.folder + "/tokens/motion/tokens.anim", Self.folder + "/tokens/motion/shapes.anim"])
        #expect(project.reports.flatMap(\.diagnostics).filter { $0.code.rawValue == "W0310" }.count == 1)
    }

    /// Compiled alone (from standard input, or by a caller without a loader), an import
    /// is an error at its string: never a silent hole in the output.
    @Test func withoutALoaderAnImportIsAnError() {
        let fs = Self.fileSystem()
        let alone = Pipeline.compile(SourceFile(name: "<stdin>", bytes: fs[Self.folder + "/tokens/b.anim"] ?? []))
        #expect(alone.composition == nil)
        #expect(alone.diagnostics.contains { $0.code.rawValue == "E0324" && $0.message.contains("standard input") })
    }

    /// A file with a composition may be imported: its declarations are visible, its
    /// layers and composition are not (the importer's layers are its own).
    @Test func importingAnAnimationTakesOnlyItsDeclarations() throws {
        let fs = InMemoryFileSystem([
            "app/other.anim": Array("composition { size: 50 x 50 }\nlet inset = 12\nlayer theirs { bounds: 10 x 10 }\n".utf8),
            "app/main.anim": Array("import \"other.anim\"\ncomposition { size: 100 x 100 }\nlayer mine { position: (other.inset, 0) }\n".utf8),
        ])
        let project = Self.compile("app/main.anim", in: fs)
        let c = try #require(project.main.composition)
        #expect(c.layers.map(\.id) == ["mine"])
        #expect(c.size.width == 100)
        // Its layers are not a name to read through the import.
        fs["app/main.anim"] = Array("import \"other.anim\"\ncomposition { size: 100 x 100 }\nlayer mine { opacity: other.theirs }\n".utf8)
        let wrong = Self.compile("app/main.anim", in: fs)
        #expect(wrong.main.diagnostics.map(\.code.rawValue) == ["E0327"])
    }

    /// An imported file over the input cap is refused at the import, as any source is.
    @Test func anImportedFileOverTheCapIsAnErrorAtTheImport() {
        let fs = InMemoryFileSystem([
            "big.anim": Array(repeating: 0x20, count: Pipeline.maxSourceSize + 1),
            "main.anim": Array("import \"big.anim\"\ncomposition { size: 10 x 10 }\n".utf8),
        ])
        let project = Self.compile("main.anim", in: fs)
        let d = project.main.diagnostics.first
        #expect(d?.code.rawValue == "E0324" && d?.message.contains("larger than 8 MiB") == true, "\(project.main.diagnostics.map(\.message))")
        #expect(d?.range == SourceRange(start: 7, end: 17))
        #expect(project.imported.isEmpty && project.main.composition == nil)
    }
}

extension ProjectTests {
    /// Files that all import each other (issue 50): 200 of them printed 84 MB of cycles
    /// in 45 s, each import closing one reported with the whole cycle, and every import
    /// of a file with errors said so. Now each file reports its first cycles in full (a
    /// long one by its first and last files) and says how many more there are.
    @Test func filesThatAllImportEachOtherReportBoundedCycles() throws {
        let n = 40
        let fs = InMemoryFileSystem()
        for i in 0..<n {
            let imports = (0..<n).filter { $0 != i }.map { "import \"f\($0).anim\"\n" }.joined()
            fs["p/f\(i).anim"] = Array((imports + "let v\(i) = 1\n").utf8)
        }
        let project = Self.compile("p/f0.anim", in: fs)
        #expect(project.imported.count == n - 1)
        for result in [project.main] + project.imported {
            let cycles = result.diagnostics.filter { $0.code == CheckerDiagnostics.importCycle.code }
            let imported = result.diagnostics.filter { $0.code == CheckerDiagnostics.importedErrors.code }
            #expect(!cycles.isEmpty, "\(result.file.name) is on cycles")
            #expect(cycles.count <= 11 && imported.count <= 11, "\(result.file.name): \(cycles.count) cycles, \(imported.count) E0326")
            for d in cycles {
                #expect(d.notes.count <= 13 && d.message.components(separatedBy: " → ").count <= 14, "\(d.message)")
            }
        }
        // Told once and completely when short: a cycle of two files.
        let pair = InMemoryFileSystem(["q/a.anim": Array("import \"b.anim\"\n".utf8), "q/b.anim": Array("import \"a.anim\"\n".utf8)])
        let both = Self.compile("q/a.anim", in: pair)
        #expect(both.main.diagnostics.filter { $0.code == CheckerDiagnostics.importCycle.code }.map(\.message) == ["import cycle: q/a.anim → q/b.anim → q/a.anim"])
    }
}

extension ProjectTests {
    /// Loading imports stops when the check is cancelled (issue 50): an editor's
    /// keystroke could not stop 200 files importing each other from loading.
    @Test func loadingImportsStopsWhenCancelled() {
        let fs = InMemoryFileSystem()
        for i in 0..<40 {
            fs["p/f\(i).anim"] = Array(((0..<40).filter { $0 != i }.map { "import \"f\($0).anim\"\n" }.joined()).utf8)
        }
        final class Counting: SourceLoader, @unchecked Sendable {
            let inner: FileSystemLoader
            var loads = 0
            init(_ inner: FileSystemLoader) { self.inner = inner }
            func load(_ path: String) -> Result<SourceFile, ImportFailure> {
                loads += 1
                return inner.load(path)
            }
        }
        let loader = Counting(FileSystemLoader(fileSystem: fs))
        var asked = 0
        let result = Pipeline.compile(SourceFile(name: "p/f0.anim", bytes: fs["p/f0.anim"] ?? []), loader: loader, memo: nil,
                                      until: { asked += 1; return asked > 5 })
        #expect(result == nil)
        #expect(loader.loads <= 5, "\(loader.loads) files loaded after the cancel")
        // Not cancelled, the same project loads every file once.
        let whole = Counting(FileSystemLoader(fileSystem: fs))
        #expect(Pipeline.compile(SourceFile(name: "p/f0.anim", bytes: fs["p/f0.anim"] ?? []), loader: whole, memo: nil, until: { false }) != nil)
        #expect(whole.loads == 39)
    }
}
