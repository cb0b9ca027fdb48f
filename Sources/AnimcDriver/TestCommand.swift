import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
import AnimcSyntax

/// `animc test [PATH...] [--update] [--format human|junit|github]`
///
/// Runs the `test` blocks of `.anim` files: each expectation is the layer's value at the
/// test's time, within its tolerance; each snapshot is the frame the renderer draws then,
/// compared with `__snapshots__/FILE-NAME.png` beside the file. A failed snapshot writes
/// the frame drawn (`.actual.png`) and a picture of the differing pixels (`.diff.png`)
/// beside the golden. Files without tests are skipped; a file with errors fails.
struct TestCommand {
    let tool: CommandLineTool
    static let spec = ArgumentSpec(valued: ["format", "color"], flags: ["update"])

    /// One test's outcome.
    struct Outcome {
        var file: String
        var line: Int
        var column: Int
        var name: String
        /// Failure messages; none when it passed.
        var failures: [String] = []
        /// Notes that are not failures ("recorded __snapshots__/x.png").
        var notes: [String] = []
    }

    func run(_ args: ArraySlice<String>) -> Int32 {
        let parsed: ParsedArguments
        let useColor: Bool
        do {
            parsed = try parseArguments(args, spec: TestCommand.spec, command: "test")
            useColor = try tool.useColor(parsed.value("color"))
        } catch {
            return tool.usageError(error.message, command: "test")
        }
        let format = parsed.value("format") ?? "human"
        guard ["human", "junit", "github"].contains(format) else {
            return tool.usageError("invalid value '\(format)' for '--format' (expected human, junit or github)", command: "test")
        }
        let (files, failedPaths) = tool.expandPaths(parsed.positionals.isEmpty ? ["."] : parsed.positionals, command: "test")
        if failedPaths && files.isEmpty { return CommandLineTool.ExitCode.usage }
        let update = parsed.has("update")
        var outcomes: [Outcome] = []
        var broken: [FileReport] = []
        // Each snapshot file of this run, by canonical path (lowercased: a file system
        // that ignores case makes `A` and `a` one file), and whose it is.
        var claimed: [String: String] = [:]
        for path in files {
            guard let file = tool.readSource(path, command: "test") else { return CommandLineTool.ExitCode.usage }
            let project = Pipeline.compile(file, loader: tool.loader(for: path), cache: tool.modules)
            let main = project.main
            // A file without tests is not a test file (libraries, plain animations).
            let hasTestBlocks = main.tree[main.tree.root.items].contains { item in
                if case .layer(_, let kind, _, _, _) = main.tree[item] { return kind.name == ContextualKeywords.test }
                return false
            }
            if !hasTestBlocks { continue }
            let reports = project.reports.filter { !$0.diagnostics.isEmpty }
            guard let composition = main.composition, !reports.contains(where: { $0.diagnostics.contains { $0.severity == .error } }) else {
                broken += reports
                continue
            }
            let timeline = Timeline(composition)
            let index = LineIndex(file)
            let results = ExpectationCheck.run(main.tests, on: timeline, composition: composition, interaction: main.interaction)
            var renderer: SceneRenderer?
            // The file's images, decoded once for every snapshot of the file.
            var renderOptions: RenderOptions?
            func options() -> RenderOptions {
                if let renderOptions { return renderOptions }
                var made = RenderOptions()
                made.images = tool.decodedImages(composition, besides: path, command: "test").images
                renderOptions = made
                return made
            }
            for test in main.tests {
                let at = index.location(of: test.nameRange.start)
                var outcome = Outcome(file: path, line: at.line, column: at.column, name: test.name)
                for r in results where r.test.name == test.name && !r.passed {
                    outcome.failures.append(r.message)
                }
                if let snapshot = test.snapshot {
                    // One test's files must be no other's: a failure would overwrite
                    // the other's golden (a name's `.actual` or `.diff` included).
                    let paths = ["", ".actual", ".diff"].map { tool.fileSystem.canonicalPath(TestCommand.snapshotPath(path, snapshot.name, suffix: $0)).lowercased() }
                    if let clash = paths.lazy.compactMap({ claimed[$0] }).first {
                        outcome.failures.append("snapshot '\(snapshot.name)': \(TestCommand.snapshotPath(path, snapshot.name)) (or its .actual or .diff) is also \(clash)'s; give one of them another snapshot name")
                        outcomes.append(outcome)
                        continue
                    }
                    for p in paths { claimed[p] = "test '\(test.name)' of \(path)" }
                    // The size `render` refuses is refused here too, not recorded smaller.
                    if let oversize = SceneRenderer.oversize(composition.size, scale: 1) {
                        outcome.failures.append("snapshot '\(snapshot.name)': \(oversize); no snapshot is taken of it")
                        outcomes.append(outcome)
                        continue
                    }
                    if let script = test.events {
                        // The frame after the test's events: a renderer of its own.
                        if let played = ExpectationCheck.playing(script, composition, main.interaction) {
                            compareSnapshot(snapshot, of: test, in: path, SceneRenderer(timeline: played, options: options()), update: update,
                                            into: &outcome)
                        }
                        outcomes.append(outcome)
                        continue
                    }
                    if renderer == nil { renderer = SceneRenderer(timeline: timeline, options: options()) }
                    if let renderer { compareSnapshot(snapshot, of: test, in: path, renderer, update: update, into: &outcome) }
                }
                outcomes.append(outcome)
            }
        }
        if !broken.isEmpty {
            DiagnosticOutput(console: tool.console, useColor: useColor).emit(broken, format: format == "github" ? "github" : "human",
                                                                             summaryVerb: nil)
        }
        report(outcomes, format: format, brokenFiles: Set(broken.map(\.file.name)).count)
        if failedPaths { return CommandLineTool.ExitCode.usage }
        return outcomes.contains { !$0.failures.isEmpty } || !broken.isEmpty ? CommandLineTool.ExitCode.findings
            : CommandLineTool.ExitCode.success
    }

    /// `DIR/__snapshots__/STEM-NAME.png` for a test file `DIR/STEM.anim`.
    static func snapshotPath(_ file: String, _ name: String, suffix: String = "") -> String {
        let dir = directoryPart(file) ?? "."
        let stem = String(file.split(separator: "/").last ?? "test").replacingSuffix(".anim", with: "")
        return dir + "/__snapshots__/" + stem + "-" + name + suffix + ".png"
    }

    func compareSnapshot(_ snapshot: Snapshot, of test: TestCase, in path: String, _ renderer: SceneRenderer, update: Bool,
                         into outcome: inout Outcome) {
        let golden = TestCommand.snapshotPath(path, snapshot.name)
        let actual = renderer.render(at: test.time).straightened()
        func write(_ target: String, _ image: Bitmap) -> Bool {
            do {
                try tool.fileSystem.createDirectory(directoryPart(target) ?? ".")
                try tool.fileSystem.writeOutputAtomically(target, PNG.encode(image))
                return true
            } catch {
                outcome.failures.append("cannot write \(error.path): \(error.reason)")
                return false
            }
        }
        if update {
            if write(golden, actual) { outcome.notes.append("recorded \(golden)") }
            return
        }
        guard tool.fileSystem.exists(golden) else {
            outcome.failures.append("snapshot '\(snapshot.name)': no \(golden) (run 'animc test --update' to record it)")
            return
        }
        let expected: Bitmap
        do { expected = try PNG.decode(tool.fileSystem.readFile(golden)) } catch {
            outcome.failures.append("snapshot '\(snapshot.name)': \(golden) does not decode: \(error)")
            return
        }
        guard expected.width == actual.width, expected.height == actual.height else {
            outcome.failures.append("snapshot '\(snapshot.name)': the frame is \(actual.width)×\(actual.height), \(golden) is \(expected.width)×\(expected.height)")
            return
        }
        // A pixel differs when a channel is off by more than the tolerance; the diff image
        // shows those in red over a faded copy of the expected frame.
        var differing = 0
        var diff = Bitmap(width: actual.width, height: actual.height, alpha: .straight)
        for p in 0..<(actual.width * actual.height) {
            let i = p * 4
            var off = false
            for c in 0..<4 where abs(Int(actual.pixels[i + c]) - Int(expected.pixels[i + c])) > snapshot.pixelTolerance { off = true }
            if off {
                differing += 1
                diff.pixels[i] = 255; diff.pixels[i + 1] = 0; diff.pixels[i + 2] = 0; diff.pixels[i + 3] = 255
            } else {
                let grey = UInt8((Int(expected.pixels[i]) + Int(expected.pixels[i + 1]) + Int(expected.pixels[i + 2])) / 3)
                let faded = UInt8(255 - (255 - Int(grey)) / 4)
                diff.pixels[i] = faded; diff.pixels[i + 1] = faded; diff.pixels[i + 2] = faded; diff.pixels[i + 3] = 255
            }
        }
        let share = Double(differing) / Double(max(actual.width * actual.height, 1))
        guard share > snapshot.maxDiffering else { return }
        let actualPath = TestCommand.snapshotPath(path, snapshot.name, suffix: ".actual")
        let diffPath = TestCommand.snapshotPath(path, snapshot.name, suffix: ".diff")
        _ = write(actualPath, actual)
        _ = write(diffPath, diff)
        outcome.failures.append("snapshot '\(snapshot.name)': \(differing) pixels (\(formatNumber((share * 10000).rounded() / 100))%) differ by more than \(snapshot.pixelTolerance)/255 from \(golden), at most \(formatNumber(snapshot.maxDiffering * 100))% may; the frame drawn is \(actualPath), the differences \(diffPath)")
    }

    func report(_ outcomes: [Outcome], format: String, brokenFiles: Int) {
        let failed = outcomes.filter { !$0.failures.isEmpty }
        switch format {
        case "junit":
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            xml += "<testsuites tests=\"\(outcomes.count)\" failures=\"\(failed.count)\" errors=\"\(brokenFiles)\">\n"
            var byFile: [String: [Outcome]] = [:]
            var order: [String] = []
            for o in outcomes {
                if byFile[o.file] == nil { order.append(o.file) }
                byFile[o.file, default: []].append(o)
            }
            for file in order {
                let cases = byFile[file] ?? []
                let failures = cases.filter { !$0.failures.isEmpty }.count
                xml += "  <testsuite name=\"\(xmlEscaped(file))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
                for o in cases {
                    xml += "    <testcase classname=\"\(xmlEscaped(file))\" name=\"\(xmlEscaped(o.name))\" file=\"\(xmlEscaped(file))\" line=\"\(o.line)\""
                    if o.failures.isEmpty {
                        xml += "/>\n"
                    } else {
                        xml += ">\n      <failure message=\"\(xmlEscaped(o.failures[0]))\">\(xmlEscaped(o.failures.joined(separator: "\n")))</failure>\n    </testcase>\n"
                    }
                }
                xml += "  </testsuite>\n"
            }
            xml += "</testsuites>\n"
            tool.console.writeOut(xml)
        case "github":
            for o in failed {
                for f in o.failures {
                    // Properties escaped as properties: a newline in a file's name once
                    // ended the command and started another.
                    let file = GitHubRenderer.escapeProperty(o.file), title = GitHubRenderer.escapeProperty("animc test '\(o.name)'")
                    tool.console.writeOut("::error file=\(file),line=\(o.line),col=\(o.column),title=\(title)::\(GitHubRenderer.escapeData(f))\n")
                }
            }
        default:
            for o in outcomes {
                tool.console.writeErr("\(o.failures.isEmpty ? "PASS" : "FAIL") \(o.file):\(o.line):\(o.column): test '\(o.name)'\n")
                for f in o.failures { tool.console.writeErr("  \(f)\n") }
                for n in o.notes { tool.console.writeErr("  \(n)\n") }
            }
        }
        var summary = "\(outcomes.count) test\(outcomes.count == 1 ? "" : "s"): \(outcomes.count - failed.count) passed, \(failed.count) failed"
        if brokenFiles > 0 { summary += "; \(brokenFiles) file\(brokenFiles == 1 ? "" : "s") with errors" }
        tool.console.writeErr(summary + "\n")
    }

    func xmlEscaped(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default:
                // XML 1.0 allows no other control characters, nor U+FFFE and U+FFFF (a
                // U+FFFE in a message made the report invalid).
                if (ch.value < 0x20 && ch != "\t") || ch.value == 0xFFFE || ch.value == 0xFFFF { out += "?" } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }

}
