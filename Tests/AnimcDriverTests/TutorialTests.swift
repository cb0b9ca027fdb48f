import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcTestSupport
import Testing

/// The diagnostics quoted in docs/tutorial.md are what the checker prints for the
/// mistakes in Fixtures/tutorial, so the tutorial cannot drift from the tool.
@Suite struct TutorialTests {
    /// The ```text blocks of the tutorial that quote diagnostics, without the command
    /// lines (`$ ...`) that introduce them.
    static var quotedDiagnostics: [String] {
        Markdown.fencedBlocks(in: "docs/tutorial.md", language: "text").compactMap { block in
            let body = block.lines.filter { !$0.hasPrefix("$ ") }
            guard let first = body.first, first.hasPrefix("error[") || first.hasPrefix("warning[") else { return nil }
            return body.joined(separator: "\n") + "\n"
        }
    }

    /// Each fixture rendered as the tutorial's reader would see it: checked as `splash.anim`.
    static var renderedFixtures: [String] {
        Repository.files(in: "Tests/AnimcDriverTests/Fixtures/tutorial", withExtension: "anim").map { path in
            let result = Pipeline.compile(SourceFile(name: "splash.anim", bytes: Repository.bytes(path)))
            return HumanRenderer(useColor: false).render(result.diagnostics, in: result.file)
        }
    }

    @Test func everyQuotedDiagnosticIsWhatTheCheckerPrints() {
        let quoted = Self.quotedDiagnostics
        #expect(quoted.count >= 4)
        let rendered = Self.renderedFixtures
        for block in quoted {
            #expect(rendered.contains { $0.contains(block) }, "not printed by any tutorial fixture:\n\(block)")
        }
    }

    @Test func everyFixtureIsQuoted() {
        let quoted = Self.quotedDiagnostics
        for output in Self.renderedFixtures {
            #expect(quoted.contains { output.contains($0) }, "a tutorial fixture whose output the tutorial does not show:\n\(output)")
        }
    }
}
