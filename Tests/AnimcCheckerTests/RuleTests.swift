import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcTestSupport
import Foundation
import Testing

/// One fixture per rule that triggers it (its rendered output is the golden) and one
/// that does not (and is clean).
@Suite struct RuleTests {
    static let folder = "Tests/AnimcCheckerTests/Fixtures/rules"
    static let all = Repository.files(in: folder, withExtension: "anim")
    static let triggers = all.filter { !$0.hasSuffix(".ok.anim") }
    static let clean = all.filter { $0.hasSuffix(".ok.anim") }

    static func code(of path: String) -> String {
        String(path.split(separator: "/").last?.prefix(5) ?? "")
    }

    static func compile(_ path: String) -> CompileResult {
        Pipeline.compile(SourceFile(name: path.split(separator: "/").last.map(String.init) ?? path, bytes: Repository.bytes(path)),
                         loader: FolderLoader(folder: folder)).main
    }

    @Test(arguments: triggers)
    func triggersItsRule(_ path: String) {
        let result = Self.compile(path)
        let code = Self.code(of: path)
        #expect(result.diagnostics.contains { $0.code.rawValue == code }, "\(path) did not report \(code): \(result.diagnostics.map(\.code.rawValue))")
        let rendered = HumanRenderer().render(result.diagnostics, in: result.file)
        let golden = String(path.dropLast(5)) + ".diag.txt"
        if let problem = Golden.check(rendered, against: golden) { Issue.record(Comment(rawValue: problem)) }
    }

    @Test(arguments: clean)
    func theCounterExampleIsClean(_ path: String) {
        let result = Self.compile(path)
        #expect(result.diagnostics.isEmpty, "\(path): \(result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        if let c = result.composition {
            #expect(IRValidation.problems(c).isEmpty, "\(path): \(IRValidation.problems(c))")
        }
    }

    /// Applying a rule's fix-it removes that finding (fix-its are mechanical fixes).
    @Test(arguments: triggers)
    func fixItsRemoveTheFinding(_ path: String) {
        let result = Self.compile(path)
        let code = Self.code(of: path)
        guard let d = result.diagnostics.first(where: { $0.code.rawValue == code }), let fix = d.fixIts.first else { return }
        let fixed = Pipeline.compile(SourceFile(name: "fixed.anim", bytes: applyEdits(fix.edits, to: result.file.bytes)),
                                     loader: FolderLoader(folder: Self.folder)).main
        #expect(!fixed.diagnostics.contains { $0.code.rawValue == code && $0.range.start == d.range.start },
                "\(path): fix-it '\(fix.message)' left \(code) in place")
        #expect(!fixed.diagnostics.contains { $0.severity == .error && $0.code.rawValue.hasPrefix("E02") },
                "\(path): fix-it '\(fix.message)' broke the syntax")
    }

    @Test func everyCheckerAndSuppressionCodeHasATriggeringFixtureAndAnExplanation() {
        let covered = Set(Self.triggers.map(Self.code))
        for d in CheckerDiagnostics.all + Suppressions.all {
            #expect(covered.contains(d.code.rawValue), "no fixture triggers \(d.code.rawValue) (\(d.name))")
            #expect(d.explanation.count > 80, "\(d.code.rawValue) needs a real explanation")
        }
    }

    @Test func codesAreUniqueAndWellFormed() {
        let codes = DiagnosticRegistry.all.map(\.code.rawValue)
        #expect(Set(codes).count == codes.count)
        for d in DiagnosticRegistry.all {
            let prefix = d.severity == .error ? "E" : "W"
            #expect(d.code.rawValue.hasPrefix(prefix) && d.code.rawValue.count == 5, "\(d.code.rawValue) does not match its severity")
            #expect(!d.summary.hasSuffix("."), "\(d.code.rawValue): summaries have no trailing period")
        }
        #expect(CheckerDiagnostics.all.count >= 25)
    }

    @Test func goldensHaveFixtures() {
        for g in Repository.files(in: Self.folder, withExtension: "txt") {
            #expect(Self.triggers.contains(String(g.dropLast(9)) + ".anim"), "orphaned golden \(g)")
        }
    }
}

/// Reads the files a fixture imports from a repository folder (paths relative to it;
/// to the repository with no folder).
/// The fixtures' folder as a project: its root is the folder, so an import that
/// leaves it (by `..` or an absolute path) is refused as the command line's loader
/// refuses it (E0329).
struct FolderLoader: SourceLoader {
    var folder = ""

    func load(_ path: String) -> Result<SourceFile, ImportFailure> {
        if path.hasPrefix("/") || path.hasPrefix("..") {
            return .failure(.outside(ProjectRoot(path: "/project", origin: .marker(".animc-root")), realPath: path))
        }
        let relative = folder.isEmpty ? path : folder + "/" + path
        guard FileManager.default.fileExists(atPath: Repository.path(relative)) else { return .failure(ImportFailure("no such file")) }
        return .success(SourceFile(name: path, bytes: Repository.bytes(relative)))
    }
}
