import AnimcBase
import AnimcDriver
import AnimcTestSupport
import Foundation
import Testing

/// Inputs that once crashed, hung, exhausted memory or destroyed a file (issue 9 and
/// the fuzzers since). Each goes through every command; each must answer with an exit
/// status of 0, 1 or 2, in bounded time and with bounded output, and `check` must
/// print what its golden shows. `.ci/run` runs the same files through the real binary
/// under a memory and a time cap.
@Suite struct RegressionTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/regressions"
    static let cases = Repository.files(in: folder, withExtension: "anim")

    /// Every command a user can point at a file, as argument lists.
    static func commands(_ path: String) -> [[String]] {
        [["check", path], ["check", "--format", "json", path], ["check", "--format", "sarif", path],
         ["check", "--format", "github", path], ["parse", "--dump", path],
         ["build", path, "-o", "out/t.json"], ["build", path, "--target", "baked", "-o", "out/b.json"],
         ["eval", path, "--at", "0,1,1e300,-1e300"]]
    }

    static func run(_ arguments: [String], _ fs: InMemoryFileSystem) -> (Int32, CapturingConsole) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: fs, console: console).run(arguments)
        return (code, console)
    }

    @Test(arguments: cases)
    func everyCommandAnswers(_ path: String) {
        let bytes = Repository.bytes(path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        for arguments in Self.commands(name) {
            let outcome = withinTime(60) { () -> (Int32, Int, Int) in
                let fs = InMemoryFileSystem([name: bytes])
                let (code, console) = Self.run(arguments, fs)
                return (code, console.out.utf8.count, console.err.utf8.count)
            }
            guard let (code, out, err) = outcome else {
                Issue.record("animc \(arguments.joined(separator: " ")) did not finish within 60 s")
                continue
            }
            #expect([0, 1, 2].contains(code), "animc \(arguments.joined(separator: " ")) exited \(code)")
            // Output is bounded: at most 200 diagnostics per file, each with clipped lines.
            #expect(out + err < 2_000_000, "animc \(arguments.joined(separator: " ")) printed \(out + err) bytes")
        }
    }

    @Test(arguments: cases)
    func checkMatchesGolden(_ path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let fs = InMemoryFileSystem([name: Repository.bytes(path)])
        guard let (code, err) = withinTime(60, { () -> (Int32, String) in
            let (code, console) = Self.run(["check", name], fs)
            return (code, console.err)
        }) else {
            Issue.record("check \(name) did not finish")
            return
        }
        let text = "exit: \(code)\n" + err
        if let problem = Golden.check(text, against: String(path.dropLast(5)) + ".check.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func goldensHaveFixtures() {
        for golden in Repository.files(in: Self.folder, withExtension: "txt") {
            let fixture = String(golden.dropLast(".check.txt".count)) + ".anim"
            #expect(Self.cases.contains(fixture), "orphaned golden \(golden)")
        }
    }
}
