import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcSyntax
import AnimcTestSupport
import Foundation
import Testing

/// Checking with a memo (what the language server does on every keystroke) against
/// checking from scratch: after every edit of a series, on every `.anim` the repository
/// keeps (valid files and broken ones), the two must give the same diagnostics, IR,
/// partial IR and hover values. The edits move text (so reused items are replayed at
/// new offsets), change digits and names inside items and inside the declarations they
/// read, delete lines, duplicate items and type stray characters.
@Suite struct IncrementalCheckTests {
    /// The memo never records an item that hits a limit, so the corpus leaves out the
    /// files that do (see ``Repository/checkCorpus``).
    static let corpus = Repository.checkCorpus

    struct Totals { var reused = 0, lowered = 0 }

    /// Checks `text` fresh and with `memo`, and says how they differ (nil when they do not).
    static func compare(_ text: [UInt8], name: String, memo: CheckMemo) -> String? {
        let file = SourceFile(name: name, bytes: text)
        let fresh = Pipeline.compile(file)
        let reused = Pipeline.compile(file, memo: memo)
        if fresh.diagnostics != reused.diagnostics {
            let a = fresh.diagnostics.map { "\($0.code) \($0.range.start)-\($0.range.end) \($0.message)" }
            let b = reused.diagnostics.map { "\($0.code) \($0.range.start)-\($0.range.end) \($0.message)" }
            if a == b { return "diagnostics differ in notes, labels or fix-its" }
            return "diagnostics differ:\n" + Golden.lineDiff(a.joined(separator: "\n"), b.joined(separator: "\n"))
        }
        if fresh.composition != reused.composition { return "the IR differs" }
        if fresh.partialComposition != reused.partialComposition { return "the partial IR differs" }
        if fresh.foldedValues != reused.foldedValues { return "hover values differ" }
        return nil
    }

    @Test func aMemoChangesNothingAcrossEdits() {
        var totals = Totals()
        var failures: [String] = []
        for path in Self.corpus {
            let original = Repository.bytes(path)
            var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: original.count) &* 7919 &+ 17)
            let memo = CheckMemo()
            var text = original
            for step in 0..<10 {
                // Every fourth step goes back to the original, which the memo has seen.
                text = step % 4 == 3 ? original : SourceEdits.random(text, &rng)
                if let problem = Self.compare(text, name: path, memo: memo) {
                    failures.append("\(path), edit \(step): \(problem)")
                    break
                }
                totals.reused += memo.reused
                totals.lowered += memo.lowered
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        // Not vacuous. Most files here have one to three items and many have syntax
        // errors (an item near one is never reused), so a third of the checks that follow
        // an edit reusing something is what to expect.
        #expect(Self.corpus.count > 200)
        #expect(totals.reused * 4 > totals.lowered, "reused \(totals.reused), lowered \(totals.lowered)")
    }

    /// Files written to exercise what an item reads beyond its own text: top-level
    /// declarations read through others, components, sequencing across layers, masks,
    /// duplicate names, suggestions, loops and `if`s, warnings counted over all instances.
    @Test(arguments: Repository.files(in: "Tests/AnimcDriverTests/Fixtures/incremental", withExtension: "anim"))
    func everyEditOfEveryLine(_ path: String) {
        let original = Repository.bytes(path)
        let memo = CheckMemo()
        #expect(Self.compare(original, name: path, memo: memo) == nil)
        // Each line in turn: a digit changed, then a letter, then the line removed, each
        // checked against the original's memo and then restored.
        let lines = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var failures: [String] = []
        for (i, line) in lines.enumerated() {
            var variants: [String] = []
            if let d = line.firstIndex(where: \.isNumber) {
                variants.append(line.replacingCharacters(in: d...d, with: line[d] == "7" ? "3" : "7"))
            }
            if let l = line.lastIndex(where: \.isLetter) {
                variants.append(line.replacingCharacters(in: l...l, with: line[l] == "q" ? "r" : "q"))
            }
            variants.append("")
            for v in variants {
                var edited = lines
                edited[i] = v
                let text = Array(edited.joined(separator: "\n").utf8)
                if let problem = Self.compare(text, name: path, memo: memo) { failures.append("line \(i + 1) as '\(v)': \(problem)") }
                if let problem = Self.compare(original, name: path, memo: memo) { failures.append("line \(i + 1) restored: \(problem)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// A re-check of many identical top-level items tries each record once. Items of one
    /// text share a list of records, and trying the whole list for every item made the
    /// re-check quadratic: 37 s for 32,000 items whose first check took 37 ms.
    @Test func identicalItemsAreReplayedOnceEach() throws {
        let path = "Tests/AnimcDriverTests/Fixtures/memo-scale/identical-items.anim"
        let fixture = Repository.read(path)
        let marker = try #require(fixture.range(of: "// --- repeated ---\n"))
        let unit = String(fixture[marker.upperBound...])
        let copies = 2_000
        let text = String(fixture[..<marker.upperBound]) + String(repeating: unit, count: copies)
        let memo = CheckMemo()
        _ = Pipeline.compile(SourceFile(name: path, bytes: Array(text.utf8)), memo: memo)
        #expect(memo.lowered == 2 * copies)
        let edited = Array(text.replacingOccurrences(of: "size: 100 x 100", with: "size: 120 x 100").utf8)
        #expect(Self.compare(edited, name: path, memo: memo) == nil)
        #expect(memo.reused == 2 * copies && memo.lowered == 0)
        #expect(memo.attempted == 2 * copies, "\(memo.attempted) replay attempts for \(2 * copies) items")
    }

    /// A file without a reference (`go.end`) registers no lowered animations, so its
    /// memo's records hold none. When an edit adds a reference, the items it may read
    /// must be lowered again, not replayed without them: the reference finds the
    /// animation, as a fresh check does, and an item whose text did not change counts
    /// as lowered.
    @Test func aReferenceAddedByAnEditFindsAnimationsOfUnchangedItems() {
        let before = """
        composition C {
          size: 100 x 100
        }

        layer card {
          basic opacity as go { duration: 1s, from: 0, to: 1 }
        }

        layer other {
          position: (1, 1)
        }

        """
        let after = before.replacingOccurrences(
            of: "  position: (1, 1)", with: "  basic opacity { beginTime: card.go.end, duration: 1s, from: 0, to: 1 }")
        let memo = CheckMemo()
        #expect(Self.compare(Array(before.utf8), name: "before.anim", memo: memo) == nil)
        #expect(memo.reused == 0)
        #expect(Self.compare(Array(after.utf8), name: "before.anim", memo: memo) == nil)
        #expect(memo.reused == 0, "the record of 'card' was made without registrations")
        let result = Pipeline.compile(SourceFile(name: "after.anim", bytes: Array(after.utf8)), memo: memo)
        #expect(result.diagnostics.allSatisfy { $0.severity != .error }, "\(result.diagnostics.map(\.message))")
        #expect(memo.reused > 0, "with registrations, the records are replayed again")
    }

    /// In the editor's large file, an edit inside one layer lowers that layer again and
    /// nothing else.
    @Test func anEditLowersOnlyTheItemItIsIn() throws {
        let path = "Tests/AnimcDriverTests/Fixtures/incremental/grids.anim"
        let original = Repository.read(path)
        let memo = CheckMemo()
        _ = Pipeline.compile(SourceFile(name: path, bytes: Array(original.utf8)), memo: memo)
        let edited = original.replacingOccurrences(of: "position: (150, 50)", with: "position: (151, 50)")
        #expect(edited != original)
        let result = Pipeline.compile(SourceFile(name: path, bytes: Array(edited.utf8)), memo: memo)
        #expect(!result.hasErrors)
        #expect(memo.lowered == 1)
        #expect(memo.reused == 3)
        // Editing the component its instances read lowers the layer that uses it.
        let component = edited.replacingOccurrences(of: "rgb(2, 78, 101)", with: "rgb(2, 79, 101)")
        #expect(component != edited)
        _ = Pipeline.compile(SourceFile(name: path, bytes: Array(component.utf8)), memo: memo)
        #expect(memo.lowered == 1 && memo.reused == 3)
        // Editing the timing function every tile reads lowers every layer.
        let timing = component.replacingOccurrences(of: "cubic(0.25, 0, 0.2, 1)", with: "cubic(0.25, 0, 0.3, 1)")
        _ = Pipeline.compile(SourceFile(name: path, bytes: Array(timing.utf8)), memo: memo)
        #expect(memo.lowered == 4 && memo.reused == 0)
    }
}
