import AnimcBase
import AnimcCompiler
import AnimcDriver
import AnimcIR
import AnimcTestSupport
import Testing

/// Lowering drops a layer or an animation only after reporting why. Every `name: value`
/// line of the clean rule fixtures is given values of other types; each result must
/// either keep every layer and animation or report an error. (A motion animation with a
/// non-list `timingFunctions` once vanished from the IR while the file checked clean.)
@Suite struct NothingDroppedSilentlyTests {
    static let fixtures = Repository.files(in: "Tests/AnimcCheckerTests/Fixtures/rules", withExtension: "anim")
        .filter { $0.hasSuffix(".ok.anim") }
    /// One value of each kind the language has, none of them right for most attributes.
    static let replacements = ["easeIn", "1", "1s", "45deg", "(1, 2)", "10 x 10", "\"text\"", "[1, 2]", "[easeIn]", "true",
                               "red", "identity", "backwards"]

    static func shape(_ c: Composition) -> [Int] {
        func count(_ a: Animation) -> Int {
            if case .group(let children) = a.kind { return 1 + children.map(count).reduce(0, +) }
            return 1
        }
        return c.layers.map { $0.animations.map(count).reduce(0, +) }
    }

    @Test(arguments: fixtures)
    func aChangedValueIsKeptOrReported(_ path: String) {
        let original = Repository.read(path)
        guard let clean = Pipeline.compile(SourceFile(name: path, text: original), loader: FolderLoader()).main.composition else {
            Issue.record("\(path) does not compile")
            return
        }
        let expected = Self.shape(clean)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            // A replicator's instanceCount is the number of copies: another value makes
            // another number of layers, by design.
            guard let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter || $0 == "." }),
                  !trimmed.hasPrefix("//"), !trimmed.hasPrefix("instanceCount") else { continue }
            let indent = String(repeating: " ", count: line.count - trimmed.count)
            for replacement in Self.replacements {
                var mutated = lines
                mutated[i] = indent + trimmed[...colon] + " " + replacement
                let result = Pipeline.compile(SourceFile(name: path, text: mutated.joined(separator: "\n")), loader: FolderLoader()).main
                guard !result.hasErrors else { continue }
                #expect(result.composition.map(Self.shape) == expected,
                        "\(path):\(i + 1) '\(mutated[i].drop { $0 == " " })' dropped a layer or animation without an error")
            }
        }
    }
}
