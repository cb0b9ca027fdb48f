import AnimcBase
import AnimcChecker
import AnimcDiagnostics
import AnimcSyntax

/// Where the files a compilation imports come from: the command line reads the disk,
/// an editor its open documents first (their unsaved text wins).
public protocol SourceLoader: Sendable {
    /// The file at `path` (as ``ImportResolution/resolve(_:from:)`` made it), or why it
    /// cannot be read ("no such file", "is a directory", too large): said at the import.
    func load(_ path: String) -> Result<SourceFile, ImportFailure>
    /// What names the file at `path` whatever the spelling (its real path, links
    /// resolved): two spellings of one file are one import. Nil when unknown.
    func identity(of path: String) -> String?
}

extension SourceLoader {
    public func identity(of path: String) -> String? { nil }
}

/// Why an imported file could not be read, in the words of the message at the import.
public struct ImportFailure: Error, Sendable, Equatable {
    public var reason: String
    /// Set when the file lies outside the project root (E0329): the file was not read.
    public var outside: ProjectRoot?
    public init(_ reason: String) { self.reason = reason }
    /// A file whose real path, `realPath` (the reason), lies outside `root`.
    public static func outside(_ root: ProjectRoot, realPath: String) -> ImportFailure {
        var failure = ImportFailure(realPath)
        failure.outside = root
        return failure
    }
}

/// How an import's path becomes a file's path: relative to the importing file's
/// directory, `.` and `..` resolved, so that one file imported along two spellings of
/// its path is one file.
public enum ImportResolution {
    /// The path `path`, as written in an import of the file named `importer`, names; nil
    /// when the importer has no directory (standard input).
    public static func resolve(_ path: String, from importer: String) -> String? {
        guard !importer.hasPrefix("<") else { return nil }
        if path.hasPrefix("/") { return normalize(path) }
        let directory = importer.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return normalize(directory.isEmpty ? path : directory + "/" + path)
    }

    /// `path` with `.` and empty components removed and each `..` taking away the
    /// component before it (a leading `..` stays: the path leaves the starting directory).
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

/// What compiling a file and everything it imports produced.
public struct ProjectResult: Sendable {
    /// The file compiled.
    public var main: CompileResult
    /// Every file it imports, directly or not, each checked once, those imported first
    /// before those that import them.
    public var imported: [CompileResult]

    /// The reports of every file, the compiled one first: an imported file's findings
    /// are reported at its own path.
    public var reports: [FileReport] { [main.report] + imported.map(\.report) }
    /// Whether any file has errors (the compiled one cannot be built then).
    public var hasErrors: Bool { main.hasErrors || imported.contains { $0.hasErrors } }
    /// Every file the compilation read, the compiled one first: what a watcher watches.
    public var files: [SourceFile] { [main.file] + imported.map(\.file) }
}

extension Pipeline {
    /// Compiles `file` with its imports, which `loader` reads; each imported file is
    /// checked once, before the files that import it, and keeps its own diagnostics.
    /// Without a loader an import is an error at its string (the source has no place
    /// to import from). With a `cache`, an imported file is checked only when the cache
    /// holds no check of the same text against the same imports (see ``ModuleCache``).
    public static func compile(_ file: SourceFile, loader: (any SourceLoader)?, memo: CheckMemo? = nil,
                               limits: ExpansionLimits = .standard, cache: ModuleCache? = nil) -> ProjectResult {
        var project = ProjectCompiler(loader: loader, limits: limits, cache: cache)
        let tree = parse(file)
        var (imports, extra) = project.resolveImports(of: tree, chain: [project.spelling(of: ImportResolution.normalize(file.name))])
        imports.fingerprint = project.fingerprint
        let main = assemble(tree, check(tree, imports: imports, memo: memo, limits: limits), extra: extra)
        return ProjectResult(main: main, imported: project.results)
    }

    /// ``compile(_:loader:memo:limits:)`` that gives up, returning nil, once
    /// `isCancelled` returns true: between imported files (200 files importing each other
    /// took seconds to load, and a keystroke could not stop it) and during the compiled
    /// file's check.
    public static func compile(_ file: SourceFile, loader: (any SourceLoader)?, memo: CheckMemo?, cache: ModuleCache? = nil,
                               until isCancelled: @escaping () -> Bool) -> ProjectResult? {
        var project = ProjectCompiler(loader: loader, limits: .standard, cache: cache)
        project.isCancelled = isCancelled
        let tree = parse(file)
        var (imports, extra) = project.resolveImports(of: tree, chain: [project.spelling(of: ImportResolution.normalize(file.name))])
        if project.cancelled { return nil }
        imports.fingerprint = project.fingerprint
        guard let checked = check(tree, imports: imports, memo: memo, until: isCancelled) else { return nil }
        return ProjectResult(main: assemble(tree, checked, extra: extra), imported: project.results)
    }
}

/// `U+0000`'s digits: four hex digits at least.
private func hex4(_ v: UInt32) -> String {
    let digits = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Loads, parses and checks the files one compilation imports, depth first.
private struct ProjectCompiler {
    let loader: (any SourceLoader)?
    let limits: ExpansionLimits
    /// Checks of imported files kept between compilations, if any.
    let cache: ModuleCache?
    /// Each file checked so far, by its resolved path.
    var modules: [String: ModuleInterface] = [:]
    /// Their results, dependencies first.
    var results: [CompileResult] = []
    /// The first spelling of each file, by its identity (``SourceLoader/identity(of:)``):
    /// a file reached through a link to its own folder (`d -> .`) is the file, not a new
    /// one (a 3-line file importing itself through two such links doubled its tree at
    /// every level: 2.2 GB and growing at 30 s).
    var spellings: [String: String] = [:]
    /// For each file of a cycle found, the file after it in the cycle and the cycle (its
    /// files, and the line of each one's import of the next), told from it: the cycle is
    /// reported at every import that closes it, in each file. The arrays are shared
    /// between the members; a cycle's text is made only when it is reported (200 files
    /// importing each other made 20,000 cycles of up to 200 notes each: 84 MB, 45 s).
    var cycles: [String: Cycle] = [:]

    struct Cycle {
        var next: String
        var members: [String]
        var edges: [ImportSite]
        /// Where in `members` the cycle starts when told from this file.
        var from: Int
    }

    /// The most files a cycle's message lists, and the most cycles one file reports in
    /// full; past them a message says how many more there are.
    static let listedFiles = 12
    static let cyclesPerFile = 10

    /// Asked before each imported file is loaded; once it says yes, loading stops and
    /// ``cancelled`` is set (what was loaded is thrown away).
    var isCancelled: (() -> Bool)?
    private(set) var cancelled = false

    /// How many files deep imports may nest (a file importing a file importing ...).
    static let maxImportDepth = 256

    init(loader: (any SourceLoader)?, limits: ExpansionLimits, cache: ModuleCache?) {
        self.loader = loader
        self.limits = limits
        self.cache = cache
    }

    /// `path` as the file it names was first spelled in this compilation.
    mutating func spelling(of path: String) -> String {
        guard let id = loader?.identity(of: path) else { return path }
        if let first = spellings[id] { return first }
        spellings[id] = path
        return path
    }

    /// What each import of `tree` resolves to, checking every file it names first, and
    /// the diagnostics of the imports that failed (to report in `tree`'s file). `chain`
    /// is the files being checked, outermost first, `tree`'s last: an import of one of
    /// them is a cycle.
    mutating func resolveImports(of tree: SyntaxTree, chain: [String], links: [ImportSite] = []) -> (ResolvedImports, [Diagnostic]) {
        var resolved = ResolvedImports()
        var diagnostics: [Diagnostic] = []
        var seenHere: [String: SourceRange] = [:]
        var cyclesReported = 0
        let me = chain.last ?? tree.file.name
        for declaration in tree.imports {
            if cancelled || isCancelled?() == true {
                cancelled = true
                break
            }
            let key = declaration.pathRange.start
            resolved.modules[key] = .some(nil)
            func fail(_ message: String, label: String? = nil, help: String? = nil, notes: [Note] = []) {
                diagnostics.append(CheckerDiagnostics.badImport.at(declaration.pathRange, message, label: label, notes: notes, help: help))
            }
            // A NUL ends the path where the file is opened (`/etc/passwd\0.anim` passed the
            // .anim check, then read /etc/passwd); no control character names a source.
            if let bad = declaration.path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                fail("cannot import this path: it holds a control character (U+\(hex4(bad.value)))",
                     label: "not a file name")
                continue
            }
            guard declaration.path.hasSuffix(ImportPaths.fileExtension) else {
                fail("cannot import '\(declaration.path)': only .anim files can be imported", label: "not an .anim file")
                continue
            }
            guard let spelled = ImportResolution.resolve(declaration.path, from: tree.file.name) else {
                fail("cannot import '\(declaration.path)' into \(tree.file.name): a source read from standard input has no directory to import from",
                     help: "give the file's path instead")
                continue
            }
            let path = spelling(of: spelled)
            if let first = seenHere[path] {
                diagnostics.append(CheckerDiagnostics.misplacedDeclaration.at(
                    declaration.pathRange, "'\(declaration.path)' is imported twice", label: "imported again",
                    secondary: [Label(first, "first imported here")], help: "remove this import"))
                continue
            }
            seenHere[path] = declaration.pathRange
            let here = ImportSite(file: tree.file, offset: declaration.pathRange.start)
            func reportCycle(_ cycle: Cycle) {
                cyclesReported += 1
                guard cyclesReported <= Self.cyclesPerFile else { return }
                let (files, notes) = Self.told(cycle)
                diagnostics.append(CheckerDiagnostics.importCycle.at(
                    declaration.pathRange, "import cycle: " + files.joined(separator: " → "), label: "part of an import cycle",
                    notes: notes, help: "move what the files share into a file that imports neither"))
            }
            if let start = chain.firstIndex(of: path) {
                // The cycle's files, each importing the next (the last imports the first)
                // at the line `edges` says; told from each file, it starts there.
                let members = Array(chain[start...]), edges = Array(links[start...]) + [here], m = members.count
                for j in 0..<(m - 1) {
                    cycles[members[j]] = Cycle(next: members[j + 1], members: members, edges: edges, from: j)
                }
                reportCycle(Cycle(next: members[0], members: members, edges: edges, from: m - 1))
                continue
            }
            if let module = modules[path] {
                // Checked for another importer, or on a cycle through this file.
                if let cycle = cycles[me], cycle.next == path {
                    cycles[me] = nil
                    reportCycle(cycle)
                    continue
                }
                resolved.modules[key] = module
                continue
            }
            guard let loader else {
                fail("cannot import '\(declaration.path)': this source is not compiled with its files")
                continue
            }
            // Each level of imports is a level of recursion here and in the checker.
            guard chain.count < Self.maxImportDepth else {
                fail("cannot import '\(declaration.path)': imports nest more than \(Self.maxImportDepth) files deep",
                     label: "too deep")
                continue
            }
            switch loader.load(path) {
            case .failure(let failure) where failure.outside != nil:
                let real = failure.reason == path ? "\(path) is" : "\(path) is \(failure.reason),"
                diagnostics.append(CheckerDiagnostics.importOutsideProject.at(
                    declaration.pathRange, "cannot import '\(declaration.path)': \(real) outside the project root \(failure.outside?.description ?? "")",
                    label: "outside the project", help: failure.outside?.help))
            case .failure(let failure):
                fail("cannot import '\(declaration.path)': \(path): \(failure.reason)", label: failure.reason)
            case .success(let file) where file.bytes.count > Pipeline.maxSourceSize:
                // The cap of every source, whatever the loader checked.
                fail("cannot import '\(declaration.path)': \(path): file is \(Pipeline.sourceTooLarge)", label: "too large")
            case .success(let file):
                let imported = cache?.tree(of: file) ?? parse(file)
                let (its, extra) = resolveImports(of: imported, chain: chain + [path], links: links + [here])
                let (result, module) = checked(file, imported, imports: its, extra: extra)
                modules[path] = module
                results.append(result)
                // This import is part of a cycle found further in: reported here too, and
                // nothing is read through it (uses would repeat the cycle's error).
                if let cycle = cycles[me], cycle.next == path {
                    cycles[me] = nil
                    reportCycle(cycle)
                    continue
                }
                resolved.modules[key] = module
            }
        }
        if cyclesReported > Self.cyclesPerFile, let first = diagnostics.first(where: { $0.code == CheckerDiagnostics.importCycle.code }) {
            let more = cyclesReported - Self.cyclesPerFile
            diagnostics.append(CheckerDiagnostics.importCycle.at(
                first.range, "\(more) more import\(more == 1 ? "" : "s") of this file close\(more == 1 ? "s" : "") import cycles",
                label: "and more cycles", help: "break the cycles above first; the rest are reported when they are the first"))
        }
        return (resolved, diagnostics)
    }

    /// The check of an imported file, from the cache when it holds one made against the
    /// same imports, else made now (and kept).
    func checked(_ file: SourceFile, _ tree: SyntaxTree, imports: ResolvedImports, extra: [Diagnostic]) -> (CompileResult, ModuleInterface) {
        if let kept = cache?.checked(file, imports: imports, extra: extra, limits: limits) { return kept }
        let library = checkModule(tree, imports: imports, limits: limits)
        let result = Pipeline.assemble(tree, library.result, extra: extra)
        let module = library.interface(errorCount: result.diagnostics.filter { $0.severity == .error }.count)
        guard let cache else { return (result, module) }
        return cache.keep(file, tree: tree, imports: imports, extra: extra, limits: limits, result: result, module: module)
    }

    /// An import's place, told as `file:line` only when a cycle is reported: finding the
    /// line reads the whole importing file, which every compilation would otherwise do
    /// for every file it imports.
    struct ImportSite {
        let file: SourceFile
        let offset: UInt32
        var place: String { "\(file.name):\(LineIndex(file).location(of: offset).line)" }
    }

    /// A cycle told from its `from`th file: the files in order, back to the first, and
    /// each one's import of the next; a long one lists its first and last files.
    static func told(_ cycle: Cycle) -> (files: [String], notes: [Note]) {
        let m = cycle.members.count
        let shown: [Int] = m <= listedFiles ? Array(0..<m) : Array(0..<(listedFiles / 2)) + Array((m - listedFiles / 2 + 1)..<m)
        var files: [String] = [], notes: [Note] = []
        for (k, step) in shown.enumerated() {
            if k > 0, step != shown[k - 1] + 1 {
                files.append("… \(step - shown[k - 1] - 1) more files …")
                notes.append(Note("… \(step - shown[k - 1] - 1) more imports"))
            }
            let j = (cycle.from + step) % m
            files.append(cycle.members[j])
            notes.append(Note("\(cycle.edges[j].place): imports \(cycle.members[(j + 1) % m])"))
        }
        files.append(cycle.members[cycle.from])
        return (files, notes)
    }

    /// What identifies every file the compilation imported, directly or not: a memo's
    /// records stand only while it is the same (``ResolvedImports/fingerprint``).
    var fingerprint: [String] {
        results.map { result in
            var hasher = Hasher()
            // As one buffer: combining the array hashes it a byte at a time.
            result.file.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            return "\(result.file.name):\(result.file.bytes.count):\(hasher.finalize())"
        }
    }
}
