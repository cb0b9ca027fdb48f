import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcTestSupport
import Testing

/// The scenario examples check clean, produce valid IR, and match their IR goldens.
@Suite struct ExampleTests {
    @Test(arguments: Repository.examples)
    func checksCleanAndMatchesIRGolden(_ path: String) {
        let result = Pipeline.compile(SourceFile(name: path, bytes: Repository.bytes(path)))
        #expect(result.diagnostics.isEmpty, "\(path): \(result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        guard let c = result.composition else {
            Issue.record("\(path) produced no IR")
            return
        }
        #expect(IRValidation.problems(c).isEmpty, "\(IRValidation.problems(c))")
        let name = path.split(separator: "/").last.map { String($0.dropLast(5)) } ?? path
        if let problem = Golden.check(IRDump.dump(c), against: "Tests/AnimcCheckerTests/Fixtures/ir/\(name).ir.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// The five scenarios, two ports of real open-source indicators, and a switch driven
    /// by taps (states and transitions).
    @Test func theExamplesAreTheScenariosAndThePorts() {
        #expect(Repository.examples.map { $0.split(separator: "/").last.map(String.init) ?? "" }.sorted()
            == ["flip-card.anim", "follow-path.anim", "plane.anim", "ripple.anim", "scrub.anim", "splash.anim", "switch.anim", "toss.anim"])
    }

    @Test func theSplashGridHasOneLayerPerTileWithItsOwnDelay() {
        let result = Pipeline.compile(SourceFile(name: "splash", bytes: Repository.bytes("examples/splash.anim")))
        guard let c = result.composition else { Issue.record("no IR"); return }
        let tiles = c.layers.filter { $0.id.hasPrefix("grid.tile[") }
        #expect(tiles.count == 9 * 15)
        let delays = Set(tiles.compactMap { $0.animations.first?.timing.beginTime })
        #expect(delays.count > 20, "tiles at different distances start at different times")
    }

    /// A single misspelled layer name yields exactly one diagnostic: no cascade.
    @Test func oneTypoInALayerNameIsOneDiagnostic() {
        var text = Repository.read("examples/splash.anim")
        let original = "mask: logoMask"
        #expect(text.contains(original))
        text = text.replacingFirst(original, with: "mask: logoMsk")
        let result = Pipeline.compile(SourceFile(name: "splash.anim", text: text))
        #expect(result.diagnostics.map(\.code.rawValue) == ["E0317"], "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.first?.help == "did you mean 'logoMask'?")
    }

    @Test func oneTypoInAConstantIsOneDiagnostic() {
        let text = Repository.read("examples/splash.anim").replacingFirst("timeOffset: gridOffset", with: "timeOffset: gridOfset")
        let result = Pipeline.compile(SourceFile(name: "splash.anim", text: text))
        #expect(result.diagnostics.map(\.code.rawValue) == ["E0301"], "\(result.diagnostics.map(\.message))")
    }
}

extension String {
    func replacingFirst(_ a: String, with b: String) -> String {
        guard let r = range(of: a) else { return self }
        return replacingCharacters(in: r, with: b)
    }
}
