import AnimcTestSupport
import Foundation
import Testing

/// The prose maps of the code stay true (issue 52: ARCHITECTURE.md named a file deleted
/// since, and a module README missed three of its files within hours of each change).
@Suite struct CodeMapTests {
    /// The folders whose Swift files the maps describe.
    static let folders: [String] = {
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources"))) ?? []
        return sources.sorted().map { "Sources/" + $0 } + ["Benchmarks/animc-bench"]
    }()

    static func swiftFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Repository.path(folder))) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The `Name.swift` a text names, in backticks or not.
    static func named(in text: String) -> Set<String> {
        var names: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == ".", scalars.count > i + 5,
                  String(String.UnicodeScalarView(scalars[(i + 1)..<(i + 6)])) == "swift",
                  i + 6 == scalars.count || !CharacterSet.alphanumerics.contains(scalars[i + 6]) else { i += 1; continue }
            var start = i
            while start > 0, CharacterSet.alphanumerics.contains(scalars[start - 1]) || "_-+".unicodeScalars.contains(scalars[start - 1]) { start -= 1 }
            if start < i { names.insert(String(String.UnicodeScalarView(scalars[start..<(i + 6)]))) }
            i += 6
        }
        return names
    }

    static let everySwiftFile: Set<String> = {
        var all: Set<String> = []
        for root in ["Sources", "Tests", "Benchmarks", "Fuzz", "Package.swift"] {
            if root.hasSuffix(".swift") { all.insert(root); continue }
            let enumerator = FileManager.default.enumerator(atPath: Repository.path(root))
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix(".swift") { all.insert((path as NSString).lastPathComponent) }
            }
        }
        return all
    }()

    /// ARCHITECTURE.md's code map names every source file of every module and of the
    /// benchmark.
    @Test func theCodeMapNamesEverySourceFile() {
        let map = Self.named(in: Repository.read("ARCHITECTURE.md"))
        for folder in Self.folders {
            for file in Self.swiftFiles(in: folder) {
                let named = map.contains(file)
                #expect(named, "ARCHITECTURE.md does not name \(folder)/\(file)")
            }
        }
    }

    /// No map names a Swift file that does not exist, and a module README that lists its
    /// files lists every one of them.
    @Test func theMapsNameNoFileThatIsGone() {
        var documents = ["ARCHITECTURE.md", "README.md"]
        documents += Self.folders.map { $0 + "/README.md" }.filter { FileManager.default.fileExists(atPath: Repository.path($0)) }
        for document in documents {
            for name in Self.named(in: Repository.read(document)).sorted() {
                let exists = Self.everySwiftFile.contains(name)
                #expect(exists, "\(document) names \(name), which does not exist")
            }
        }
        for folder in Self.folders {
            let readme = folder + "/README.md"
            guard FileManager.default.fileExists(atPath: Repository.path(readme)) else { continue }
            let named = Self.named(in: Repository.read(readme))
            let files = Self.swiftFiles(in: folder)
            guard files.contains(where: named.contains) else { continue }
            for file in files {
                let listed = named.contains(file)
                #expect(listed, "\(readme) lists its files but not \(file)")
            }
        }
    }

    /// The reader finds names as they are written in the maps.
    @Test func namesAreReadAsWritten() {
        #expect(Self.named(in: "`Checker.swift` (state), Modules.swift, Parser+Items.swift and a-b_c.swift; not X.swiftinterface")
                == ["Checker.swift", "Modules.swift", "Parser+Items.swift", "a-b_c.swift"])
    }
}
