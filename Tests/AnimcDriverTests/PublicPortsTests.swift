import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcTestSupport
import Testing

/// Ten animations from public iOS projects (Fixtures/ports-public, copied from the
/// workplace's corpus): each raw paste (`rounds/NAME.r0.anim`) as a new user pastes it,
/// and its finished port (`NAME.anim`). These were written by other hands than the
/// fix-its, which is the point: one `check --fix` must leave a paste without errors but
/// the ones that read the app's own values (`self.bounds`), which no fix can know. The
/// finished ports' 152 hand-computed values are checked by `calc/expected2.py` in CI.
@Suite struct PublicPortsTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/ports-public"
    static let pastes = Repository.files(in: folder + "/rounds", withExtension: "anim")
    static let ports = Repository.files(in: folder, withExtension: "anim").filter { !$0.contains("/rounds/") }

    static func fixed(_ path: String) -> FixOutcome {
        Pipeline.fix(SourceFile(name: String(path.split(separator: "/").last ?? ""), bytes: Repository.bytes(path)))
    }

    /// An error that names a value of the app the code was pasted from.
    static func readsTheApp(_ d: Diagnostic) -> Bool {
        d.code.rawValue == "E0301" && (d.message.contains("the app's object") || d.message.contains("the app's asset catalog"))
    }

    /// Issue 49's bar is 8 of 10; all 10 hold (Shimmer's `fmod` is `rem`, and its
    /// presentation read is a message send to a parenthesized receiver).
    @Test func pastesAreCleanAfterOneFixButForTheAppsValues() {
        #expect(Self.pastes.count == 10)
        var clean: [String] = []
        var left: [String] = []
        for path in Self.pastes {
            let outcome = Self.fixed(path)
            #expect(!outcome.gainedErrors, "\(path): the fix made new errors")
            let errors = outcome.result.diagnostics.filter { $0.severity == .error && !Self.readsTheApp($0) }
            if errors.isEmpty { clean.append(path) } else { left += errors.map { "\(path): \($0.code.rawValue) \($0.message)" } }
        }
        #expect(clean.count == Self.pastes.count, "clean after one --fix: \(clean.count) of \(Self.pastes.count); left: \(left)")
    }

    @Test(arguments: ports)
    func finishedPortsCheckClean(_ path: String) {
        let result = Pipeline.compile(SourceFile(name: String(path.split(separator: "/").last ?? ""), bytes: Repository.bytes(path)))
        #expect(!result.hasErrors, "\(result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
    }
}
