import AnimcBase
@testable import AnimcChecker
import AnimcSyntax
import AnimcTestSupport
import Testing

/// A check flattens its top-level layers item by item when nothing can look a layer up
/// later (no masks, no `go.end` references, no memo), and lets their nodes go. That must
/// change nothing: the same layers in the same order with the same ids, and the same
/// diagnostics, among them the duplicate names that an earlier item's flattened layers
/// still take.
@Suite struct LayerStreamingTests {
    static let fixture = "Tests/AnimcCheckerTests/Fixtures/streaming/top-level-items.anim"

    static func check(_ path: String, streaming: Bool) -> (CheckResult, streamed: Bool) {
        let tree = parse(SourceFile(name: path, bytes: Repository.bytes(path)))
        let (result, counts) = checkCounting(tree, streamingLayers: streaming)
        return (result, counts.streamedLayers)
    }

    @Test func topLevelItemsKeepTheirOrderIdsAndNames() {
        let (result, streamed) = Self.check(Self.fixture, streaming: true)
        #expect(streamed)
        // Read off the fixture: each item's layers after the earlier items', parents
        // before their sublayers; the later items' names that were taken make no layer.
        #expect(result.partialComposition?.layers.map(\.id) == [
            "first", "first.inner", "row[0]", "row[1]", "row[2]", "dot", "dot.shine", "shown", "row[3]", "last",
        ])
        #expect(result.partialComposition?.layers.map(\.parent) == [nil, 0, nil, nil, nil, nil, 5, nil, nil, nil])
        let duplicates = result.diagnostics.filter { $0.code.rawValue == "E0308" }
        #expect(duplicates.map(\.message) == ["a sibling layer is already named 'first'", "a sibling layer is already named 'row[1]'",
                                              "a sibling layer is already named 'dot'", "a sibling layer is already named 'row[2]'"])
        let (unstreamed, _) = Self.check(Self.fixture, streaming: false)
        #expect(result.diagnostics == unstreamed.diagnostics)
        #expect(result.partialComposition == unstreamed.partialComposition)
    }

    /// Loops make more top-level layers than the check made room for, so the index of
    /// flattened names grows; names are still found after it has.
    @Test func namesAreFoundAfterTheIndexGrows() {
        let path = "Tests/AnimcCheckerTests/Fixtures/streaming/many-names.anim"
        let (result, streamed) = Self.check(path, streaming: true)
        #expect(streamed)
        #expect(result.diagnostics.map(\.message) == ["a[7]", "a[299]", "b[0]", "b[100]", "b[200]"].map {
            "a sibling layer is already named '\($0)'"
        })
        #expect(result.partialComposition?.layers.count == 300 + 200 + 2)
        let (unstreamed, _) = Self.check(path, streaming: false)
        #expect(result.diagnostics == unstreamed.diagnostics)
        #expect(result.partialComposition == unstreamed.partialComposition)
    }

    /// Every file of the corpus, valid and broken, checked both ways.
    @Test func everyFileChecksAlikeStreamedOrNot() {
        var streamedFiles = 0
        var failures: [String] = []
        for path in Repository.checkCorpus {
            let (a, streamed) = Self.check(path, streaming: true)
            let (b, _) = Self.check(path, streaming: false)
            if streamed { streamedFiles += 1 }
            if a.diagnostics != b.diagnostics { failures.append("\(path): diagnostics differ") }
            if a.composition != b.composition { failures.append("\(path): the IR differs") }
            if a.partialComposition != b.partialComposition { failures.append("\(path): the partial IR differs") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        // Not vacuous: most of the corpus has neither masks nor references.
        #expect(streamedFiles * 2 > Repository.checkCorpus.count, "\(streamedFiles) of \(Repository.checkCorpus.count) streamed")
    }
}
