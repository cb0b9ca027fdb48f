import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcTestSupport
import AnimcTimeline
import Testing

/// Issue 49's meaning test, independent of hand-written pastes: every valid file the
/// repository keeps (the examples, the fixed pastes, the public ports, the porting and
/// Lottie fixtures) is respelled the way Swift and Objective-C write it
/// (``Respeller``), then put through one `check --fix`. The fixed file must check clean
/// and its timeline must be the original's, byte for byte: a fix-it that changes the
/// meaning, or a paste it cannot fix, shows up whoever wrote the file.
@Suite struct RespellingTests {
    static let corpus: [String] = (Repository.examples
        + ["Tests/AnimcDriverTests/Fixtures/pastes", "Tests/AnimcDriverTests/Fixtures/ports-public",
           "Tests/AnimcDriverTests/Fixtures/porting", "Tests/AnimcBackendTests/Fixtures/lottie",
           "Tests/AnimcDriverTests/Fixtures/inputs"]
            .flatMap { Repository.files(in: $0, withExtension: "anim") })
        .filter { !$0.contains("/rounds/") && !($0.contains("/pastes/") && !$0.hasSuffix(".fixed.anim") && !$0.hasSuffix(".port.anim")) }

    /// The seeds each file is respelled with; a failure names its seed.
    static let seeds: [UInt64] = [1, 2, 3]

    @Test(arguments: corpus)
    func fixingARespelledFileGivesTheSameTimeline(_ path: String) throws {
        let bytes = Repository.bytes(path)
        let original = Pipeline.compile(SourceFile(name: "f.anim", bytes: bytes))
        // Files that import others, and the fixtures that are meant to fail, are not respelled.
        guard let composition = original.composition, !original.hasErrors else { return }
        let expected = TimelineWriter.bytes(composition)
        var respelled = 0
        for seed in Self.seeds {
            guard let text = Respeller.respell(SourceFile(name: "f.anim", bytes: bytes), seed: seed),
                  text != String(decoding: bytes, as: UTF8.self) else { continue }
            respelled += 1
            let outcome = Pipeline.fix(SourceFile(name: "f.anim", text: text))
            let left = outcome.result.diagnostics.filter { $0.severity == .error }
            guard left.isEmpty, let fixed = outcome.result.composition else {
                Issue.record("\(path), seed \(seed): errors left after --fix: \(left.map { "\($0.code.rawValue) \($0.message)" })\n\(text)")
                continue
            }
            if TimelineWriter.bytes(fixed) != expected {
                Issue.record("\(path), seed \(seed): the fixed file's timeline differs from the original's\n--- respelled\n\(text)\n--- fixed\n\(String(decoding: outcome.bytes, as: UTF8.self))")
            }
        }
        #expect(respelled > 0 || text(bytes).count < 80, "\(path): nothing to respell")
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The respeller writes Swift and Objective-C: on the corpus it rewrites most files.
    @Test func theRespellerRewritesTheCorpus() {
        let rewritten = Self.corpus.filter { path in
            let bytes = Repository.bytes(path)
            return Respeller.respell(SourceFile(name: "f.anim", bytes: bytes), seed: 1).map { $0 != String(decoding: bytes, as: UTF8.self) } ?? false
        }
        #expect(Self.corpus.count >= 40)
        #expect(rewritten.count * 10 >= Self.corpus.count * 9, "respelled \(rewritten.count) of \(Self.corpus.count)")
    }

    /// Path blocks are written as UIBezierPath, CGMutablePath and Core Graphics build
    /// them, in every style, somewhere in the corpus.
    @Test func pathBlocksAreRespelledAsPathBuilding() {
        let respelled = Self.corpus.flatMap { path in
            (1...8).compactMap { Respeller.respell(SourceFile(name: "f.anim", bytes: Repository.bytes(path)), seed: $0) }
        }.joined()
        for statement in ["[path moveToPoint:", "[path addLineToPoint:", "path.addLine(to:", "CGPathAddLineToPoint(path, NULL,",
                          "[path addArcWithCenter:", "path.addArc(withCenter:", "path.addArc(center:", "CGPathAddArc(path, NULL,",
                          "path.addCurve(to:", "close"] {
            #expect(respelled.contains(statement), "no respelling writes '\(statement)'")
        }
    }
}
