import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcRuntime
import AnimcTimeline
import AnimcTestSupport
import Foundation
import Testing

/// Core Animation code pasted as a new user would (Objective-C and Swift, in
/// Fixtures/pastes): one `check --fix` must leave most of them without errors, with
/// fixes that keep the meaning. Each paste's fixed text is a golden
/// (`NAME.fixed.anim`, regenerated with ANIMC_UPDATE_GOLDENS=1), and the values the
/// original code gives, computed by hand or by formulas outside animc, are in
/// `NAME.values` as `layer keyPath time value` lines (`keyPath[i]` reads one element
/// of a list, or channel i of a colour: red, green, blue, alpha, 0...1), compared within
/// 1e-9.
@Suite struct PasteTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/pastes"
    static let cases = Repository.files(in: folder, withExtension: "anim").filter { !$0.hasSuffix(".fixed.anim") && !$0.hasSuffix(".port.anim") }
    /// Pastes with a port written by hand (`NAME.port.anim`), not by the fix-its.
    static let ported = cases.filter { Repository.exists(String($0.dropLast(5)) + ".port.anim") }

    static func fixed(_ path: String) -> FixOutcome {
        Pipeline.fix(SourceFile(name: String(path.split(separator: "/").last ?? ""), bytes: Repository.bytes(path)))
    }

    @Test(arguments: cases)
    func fixedTextMatchesGolden(_ path: String) {
        let outcome = Self.fixed(path)
        #expect(outcome.changed, "a paste with nothing to fix")
        #expect(!outcome.gainedErrors)
        if let problem = Golden.check(String(decoding: outcome.bytes, as: UTF8.self), against: String(path.dropLast(5)) + ".fixed.anim") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// The bar of issue 37: at least 80% of the pastes check without errors after
    /// one `--fix`.
    @Test func mostPastesAreCleanAfterOneFix() {
        let clean = Self.cases.filter { !Self.fixed($0).result.hasErrors }
        #expect(Self.cases.count >= 10)
        #expect(Double(clean.count) >= 0.8 * Double(Self.cases.count),
                "clean after --fix: \(clean.count) of \(Self.cases.count)")
    }

    /// Where a port was written by hand, the fixed paste builds the same timeline, byte
    /// for byte (paths included, which `.values` cannot list).
    @Test(arguments: ported)
    func fixedPastesBuildWhatTheHandWrittenPortBuilds(_ path: String) throws {
        let outcome = Self.fixed(path)
        let fixed = try #require(outcome.result.composition, "\(outcome.result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        let portPath = String(path.dropLast(5)) + ".port.anim"
        let port = Pipeline.compile(SourceFile(name: "port.anim", bytes: Repository.bytes(portPath)))
        #expect(port.diagnostics.isEmpty, "\(portPath): \(port.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        let expected = try #require(port.composition)
        #expect(TimelineWriter.bytes(fixed) == TimelineWriter.bytes(expected), "\(path): the fixed paste builds another timeline than its port")
    }

    @Test(arguments: cases)
    func fixedPastesGiveTheOriginalsValues(_ path: String) throws {
        let values = String(path.dropLast(5)) + ".values"
        let expectations = Repository.read(values).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!expectations.isEmpty, "\(values) lists no values")
        let outcome = Self.fixed(path)
        guard let composition = outcome.result.composition else {
            Issue.record("not clean after --fix: \(outcome.result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
            return
        }
        let timeline = Timeline(composition)
        for line in expectations {
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 4, "malformed line '\(line)'")
            let (layer, keyPath) = (fields[0], fields[1])
            let time = try #require(Double(fields[2])), expected = try #require(Double(fields[3]))
            var element: Int?
            var path = keyPath
            if let open = keyPath.firstIndex(of: "["), keyPath.hasSuffix("]") {
                element = Int(keyPath[keyPath.index(after: open)..<keyPath.index(before: keyPath.endIndex)])
                path = String(keyPath[..<open])
            }
            let actual: Double?
            switch timeline.value(path, layer: layer, at: time) {
            case .number(let x)?: actual = x
            case .numbers(let xs)?: actual = element.flatMap { $0 < xs.count ? xs[$0] : nil }
            case .color(let c)?: actual = element.flatMap { $0 < 4 ? [c.red, c.green, c.blue, c.alpha][$0] : nil }
            case .point(let p)? where path.hasSuffix(".x"): actual = p.x
            case .point(let p)? where path.hasSuffix(".y"): actual = p.y
            default: actual = nil
            }
            let value = try #require(actual, "\(path) of \(layer) at \(time) s in \(path)")
            #expect(abs(value - expected) < 1e-9, "\(line): animc gives \(value)")
        }
    }
}

/// `animc check --fix` as a user runs it: the file is rewritten with the fixes, the
/// summary says what changed, and what is left is reported; `--dry-run` writes nothing.
@Suite struct CheckFixCommandTests {
    static let paste = "Tests/AnimcDriverTests/Fixtures/pastes/objc-checkbox.anim"

    @Test func fixRewritesTheFileAndReportsWhatIsLeft() {
        let fs = InMemoryFileSystem(["paste.anim": Repository.bytes(Self.paste)])
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: fs, console: console).run(["check", "--fix", "paste.anim"])
        #expect(code == 0, "\(console.err)")
        #expect(fs["paste.anim"] == Repository.bytes(String(Self.paste.dropLast(5)) + ".fixed.anim"))
        #expect(console.err.hasPrefix("fixed paste.anim: "), "\(console.err)")
        #expect(console.err.contains("checked 1 file: no problems"))
        // Run again, nothing is left to fix.
        let again = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: again).run(["check", "--fix", "paste.anim"]) == 0)
        #expect(!again.err.contains("fixed"))
    }

    @Test func aDryRunWritesNothing() {
        let original = Repository.bytes(Self.paste)
        let fs = InMemoryFileSystem(["paste.anim": original])
        let console = CapturingConsole()
        _ = CommandLineTool(fileSystem: fs, console: console).run(["check", "--fix", "--dry-run", "paste.anim"])
        #expect(fs["paste.anim"] == original)
        #expect(console.out.contains("+  lineWidth: 2.0\n") && console.out.contains("-  lineWidth: 2.0f\n"))
        #expect(console.err.hasPrefix("would fix paste.anim: "))
    }

    /// Guesses are not applied: a typo stays for the person to choose.
    @Test func guessesAreLeft() {
        let source = "composition C { size: 10 x 10 }\nlayer a {\n  opactiy: 1.0f\n}\n"
        let fs = InMemoryFileSystem(["a.anim": Array(source.utf8)])
        let console = CapturingConsole()
        #expect(CommandLineTool(fileSystem: fs, console: console).run(["check", "--fix", "a.anim"]) == 1)
        #expect(fs["a.anim"] == Array("composition C { size: 10 x 10 }\nlayer a {\n  opactiy: 1.0\n}\n".utf8))
        #expect(console.err.contains("E0302"))
    }
}
