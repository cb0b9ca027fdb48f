import Foundation

/// Locates test data in the repository through `#filePath`, so goldens can be
/// rewritten in place (SwiftPM resources would be copies in the build folder).
public enum Repository {
    /// Every `.anim` in the repository under 16 KB but the runaway loops, for tests that
    /// check each file several ways: the long regression chains and the loops that stop
    /// at an expansion limit (`regressions/limits/`) cost minutes in a debug build.
    public static let checkCorpus: [String] = examples
        + ["Tests/AnimcDriverTests/Fixtures", "Tests/AnimcCheckerTests/Fixtures", "Tests/AnimcSyntaxTests/Fixtures",
           "Tests/AnimcBackendTests/Fixtures"]
            .flatMap { filesRecursively(in: $0, withExtension: "anim") }
            .filter { bytes($0).count < 16 * 1024 && !$0.hasSuffix("nested-loops-1e5-squared.anim") && !$0.contains("/regressions/limits/") }

    /// The package root: the nearest ancestor of this file holding `Package.swift`.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }()

    public static func path(_ relative: String) -> String { root + "/" + relative }

    public static func read(_ relative: String) -> String {
        (try? String(contentsOfFile: path(relative), encoding: .utf8)) ?? ""
    }

    public static func bytes(_ relative: String) -> [UInt8] {
        (FileManager.default.contents(atPath: path(relative))).map { [UInt8]($0) } ?? []
    }

    /// Whether a repository file exists.
    public static func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// Files in a repository folder with the extension, sorted, as repository-relative paths.
    public static func files(in folder: String, withExtension ext: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { folder + "/" + $0 }
    }

    /// Files with the extension anywhere under a repository folder, sorted.
    public static func filesRecursively(in folder: String, withExtension ext: String) -> [String] {
        let found = FileManager.default.enumerator(atPath: path(folder))?.compactMap { $0 as? String } ?? []
        // A fixture directory may be named like a file (an import of `x.anim` that is a directory).
        return found.filter { $0.hasSuffix("." + ext) && !isDirectory(folder + "/" + $0) }.sorted().map { folder + "/" + $0 }
    }

    /// Whether a repository path is a directory.
    public static func isDirectory(_ relative: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path(relative), isDirectory: &directory) && directory.boolValue
    }

    /// The examples: the five scenarios and two ported indicators.
    public static var examples: [String] { files(in: "examples", withExtension: "anim") }

    /// Every `.anim` under examples/: the examples and the files of the example project
    /// (examples/motion-system/), whose files import each other.
    public static var exampleFiles: [String] { filesRecursively(in: "examples", withExtension: "anim") }
}

/// Golden files: compare, or rewrite with `ANIMC_UPDATE_GOLDENS=1 swift test`.
public enum Golden {
    public static var updating: Bool { ProcessInfo.processInfo.environment["ANIMC_UPDATE_GOLDENS"] == "1" }

    /// Nil when `actual` matches the golden at `relative` (or it was just rewritten);
    /// otherwise a message with a line diff and the command that updates goldens.
    public static func check(_ actual: String, against relative: String) -> String? {
        let path = Repository.path(relative)
        if updating {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            let existing = try? String(contentsOfFile: path, encoding: .utf8)
            if existing != actual { try? actual.write(toFile: path, atomically: true, encoding: .utf8) }
            return nil
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            return "missing golden \(relative); create it with: ANIMC_UPDATE_GOLDENS=1 swift test"
        }
        if expected == actual { return nil }
        return "\(relative) differs (- expected, + actual); if the change is intended, run: ANIMC_UPDATE_GOLDENS=1 swift test\n"
            + lineDiff(expected, actual)
    }

    /// A compact diff: the differing region with two lines of context.
    public static func lineDiff(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var prefix = 0
        while prefix < x.count && prefix < y.count && x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < x.count - prefix && suffix < y.count - prefix && x[x.count - 1 - suffix] == y[y.count - 1 - suffix] { suffix += 1 }
        var out = ""
        let start = max(0, prefix - 2)
        for i in start..<prefix { out += "  \(x[i])\n" }
        for i in prefix..<(x.count - suffix) { out += "- \(x[i])\n" }
        for i in prefix..<(y.count - suffix) { out += "+ \(y[i])\n" }
        for i in (x.count - suffix)..<min(x.count, x.count - suffix + 2) { out += "  \(x[i])\n" }
        return out
    }
}

/// SplitMix64: a tiny seeded generator, so mutation tests reproduce exactly.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `body` on a background thread and returns its result if it finished within
/// `seconds`, nil otherwise: the guard that turns a hang into a test failure instead
/// of a stuck run.
public func withinTime<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.set(body())
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.get()
}

/// Whether `body` finished within `seconds`.
public func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    withinTime(seconds) { body(); return true } ?? false
}

private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T?
    func set(_ v: T) { lock.withLock { value = v } }
    func get() -> T? { lock.withLock { value } }
}

/// Edits as a person makes them while typing, chosen by a seeded generator: text that
/// moves, digits and names that change, deleted and duplicated lines, stray characters.
public enum SourceEdits {
    /// One random edit of `text`.
    public static func random(_ text: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var t = text
        guard !t.isEmpty else { return Array("// empty\n".utf8) }
        let lineStarts = [0] + t.indices.filter { t[$0] == 0x0A }.map { $0 + 1 }.filter { $0 < t.count }
        switch rng.next() % 7 {
        case 0:  // move everything
            t.insert(contentsOf: Array("// a comment that moves the file\n".utf8), at: 0)
        case 1, 2:  // another digit
            let digits = t.indices.filter { (0x30...0x39).contains(t[$0]) }
            if let i = digits.isEmpty ? nil : digits[Int(rng.next() % UInt64(digits.count))] {
                t[i] = 0x30 + UInt8((Int(t[i]) - 0x30 + 1 + Int(rng.next() % 8)) % 10)
            }
        case 3:  // delete a line
            let s = lineStarts[Int(rng.next() % UInt64(lineStarts.count))]
            var e = s
            while e < t.count && t[e] != 0x0A { e += 1 }
            t.removeSubrange(s..<min(t.count, e + 1))
        case 4:  // duplicate a line
            let s = lineStarts[Int(rng.next() % UInt64(lineStarts.count))]
            var e = s
            while e < t.count && t[e] != 0x0A { e += 1 }
            t.insert(contentsOf: Array(t[s..<min(t.count, e + 1)]), at: s)
        case 5:  // a stray character, as while typing
            let stray: [UInt8] = Array("x{}(=.1 ".utf8)
            t.insert(stray[Int(rng.next() % UInt64(stray.count))], at: Int(rng.next() % UInt64(t.count + 1)))
        default:  // rename: one letter of an identifier changes
            let letters = t.indices.filter { (0x61...0x7A).contains(t[$0]) }
            if let i = letters.isEmpty ? nil : letters[Int(rng.next() % UInt64(letters.count))] {
                t[i] = t[i] == 0x7A ? 0x61 : t[i] + 1
            }
        }
        return t
    }
}
