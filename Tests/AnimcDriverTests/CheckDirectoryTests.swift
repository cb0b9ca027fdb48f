import AnimcDriver
import AnimcTestSupport
import Testing

/// `animc check DIR` compiles its files on every core; what it reports must not depend
/// on which finishes first: the same bytes as checking each file alone, in path order.
@Suite struct CheckDirectoryTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/inputs"

    func check(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let status = CommandLineTool(console: console).run(["check"] + arguments)
        return (status, console.out, console.err)
    }

    @Test(arguments: ["json", "human", "sarif"])
    func aDirectoryReportsAsItsFilesInOrder(format: String) {
        let files = Repository.files(in: Self.folder, withExtension: "anim")
        #expect(files.count >= 5)
        let whole = check([Repository.path(Self.folder), "--format", format, "--color", "never"])
        for _ in 0..<3 {
            let again = check([Repository.path(Self.folder), "--format", format, "--color", "never"])
            #expect(again.out == whole.out && again.err == whole.err && again.status == whole.status)
        }
        // Each file's findings, as that file alone gives them, one file after another
        // (without each run's closing summary).
        func withoutSummary(_ text: String) -> String {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            if !lines.isEmpty { lines.removeLast() }
            return lines.map { $0 + "\n" }.joined()
        }
        if format == "json" {
            let alone = files.map { withoutSummary(check([Repository.path($0), "--format", "json"]).out) }.joined()
            #expect(withoutSummary(whole.out) == alone)
        }
        if format == "human" {
            let alone = files.map { withoutSummary(check([Repository.path($0), "--color", "never"]).err) }.joined()
            #expect(withoutSummary(whole.err) == alone)
        }
        #expect(whole.status == 1)
    }
}
