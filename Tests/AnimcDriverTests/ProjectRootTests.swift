import AnimcBase
import AnimcDriver
import AnimcImage
import AnimcTestSupport
import Foundation
import Testing

/// Every file a source names lies inside its project root (issue 50, docs/files.md):
/// imports and image assets by real path, whatever the spelling (`..`, an absolute path,
/// a link to a file or to a folder). Each case is a file tree in a temporary folder: a
/// project marked with `.animc-root` beside a folder `outside/` that holds a secret.
@Suite struct ProjectRootTests {
    /// `base/project/.animc-root`, `base/outside/lib.anim` (which declares `secret`).
    func layout() throws -> (base: String, project: String) {
        let base = NSTemporaryDirectory() + "animc-root-\(UUID().uuidString)"
        let project = base + "/project", outside = base + "/outside"
        for dir in [project + "/screens", outside] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        FileManager.default.createFile(atPath: project + "/.animc-root", contents: Data())
        try "let secret = 0.5\n".write(toFile: outside + "/lib.anim", atomically: true, encoding: .utf8)
        return (base, project)
    }

    func write(_ text: String, _ path: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = CommandLineTool(fileSystem: LocalFileSystem(), console: console).run(arguments)
        return (code, console.out, console.err)
    }

    static func importing(_ path: String) -> String {
        "import \"\(path)\" as lib\ncomposition C { size: 10 x 10 }\nlayer a { opacity: lib.secret }\n"
    }

    /// `..`, an absolute path, a link to the file, a link to its folder: each is E0329,
    /// said before the file is read, with the root and how it was found.
    @Test func importsThatLeaveTheProjectAreRefused() throws {
        let (base, project) = try layout()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createSymbolicLink(atPath: project + "/lib-link.anim", withDestinationPath: base + "/outside/lib.anim")
        try FileManager.default.createSymbolicLink(atPath: project + "/shared", withDestinationPath: "../outside")
        for spelling in ["../../outside/lib.anim", base + "/outside/lib.anim", "../lib-link.anim", "../shared/lib.anim"] {
            try write(Self.importing(spelling), project + "/screens/main.anim")
            let result = run(["check", project + "/screens/main.anim"])
            #expect(result.code == 1, "\(spelling): \(result.err)")
            #expect(result.err.contains("error[E0329]") && result.err.contains("outside the project root"), "\(spelling): \(result.err)")
            #expect(result.err.contains("the folder holding .animc-root"), "\(spelling): \(result.err)")
            // Nothing else is said about the file: it was not read.
            #expect(!result.err.contains("E0326") && !result.err.contains("E0301"), "\(spelling): \(result.err)")
        }
        // The same files, with a root that holds both: the imports are read.
        try write(Self.importing("../../outside/lib.anim"), project + "/screens/main.anim")
        #expect(run(["check", "--root", base, project + "/screens/main.anim"]).code == 0)
        #expect(run(["check", project + "/screens/main.anim", "--root=" + base]).code == 0)
        #expect(run(["eval", project + "/screens/main.anim", "--root", base, "--at", "0"]).code == 0)
    }

    /// Inside the project, `..` and links that stay inside are imports like any other.
    @Test func importsInsideTheProjectAreRead() throws {
        let (base, project) = try layout()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try write("let secret = 0.25\n", project + "/tokens.anim")
        try FileManager.default.createSymbolicLink(atPath: project + "/screens/tokens-link.anim", withDestinationPath: "../tokens.anim")
        for spelling in ["../tokens.anim", "tokens-link.anim", project + "/tokens.anim"] {
            try write(Self.importing(spelling), project + "/screens/main.anim")
            let result = run(["check", project + "/screens/main.anim"])
            #expect(result.code == 0, "\(spelling): \(result.err)")
        }
    }

    /// With no marker above the file, the root is the file's own folder, and the message
    /// says so and how to widen it.
    @Test func withoutAMarkerTheRootIsTheFilesFolder() throws {
        let (base, project) = try layout()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.removeItem(atPath: project + "/.animc-root")
        try write("let secret = 0.25\n", project + "/tokens.anim")
        try write(Self.importing("../tokens.anim"), project + "/screens/main.anim")
        let result = run(["check", project + "/screens/main.anim"])
        // (A marker above the temporary folder would make this case moot.)
        if result.err.contains("the folder holding") { return }
        #expect(result.code == 1)
        #expect(result.err.contains("E0329") && result.err.contains("the file's own folder"), "\(result.err)")
        #expect(result.err.contains(".animc-root"), "\(result.err)")
    }

    /// `--root` must name a folder.
    @Test func aRootThatIsNotAFolderIsAUsageError() throws {
        let (base, project) = try layout()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try write(Self.importing("../tokens.anim"), project + "/screens/main.anim")
        let missing = run(["check", "--root", base + "/nothing", project + "/screens/main.anim"])
        #expect(missing.code == 2 && missing.err.contains("not a directory"), "\(missing.err)")
        #expect(run(["check", project + "/screens/main.anim", "--root"]).code == 2)
    }

    /// `photo.png -> /proc/self/environ` was embedded in the preview page as base64. A
    /// link out of the project is not read by any command: W1001, and the image is
    /// empty (render), left out (preview, Lottie).
    @Test func anImageLinkedFromOutsideTheProjectIsNotRead() throws {
        let (base, project) = try layout()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let secret = Array("SECRET-PIXELS-\(UUID().uuidString)".utf8)
        FileManager.default.createFile(atPath: base + "/outside/photo.png", contents: Data(secret))
        try FileManager.default.createSymbolicLink(atPath: project + "/photo.png", withDestinationPath: "../outside/photo.png")
        try write("composition C { size: 10 x 10 }\nimage p { bounds: (0, 0, 10, 10), position: (5, 5), contents: image(\"photo\") }\n",
                  project + "/main.anim")
        let encoded = Data(secret).base64EncodedString().prefix(16)
        let preview = run(["preview", project + "/main.anim", "-o", project + "/page.html"])
        #expect(preview.code == 0, "\(preview.err)")
        #expect(preview.err.contains("warning[W1001]"), "\(preview.err)")
        let page = (try? String(contentsOfFile: project + "/page.html", encoding: .utf8)) ?? ""
        #expect(!page.isEmpty && !page.contains(encoded))
        let lottie = run(["build", project + "/main.anim", "--target", "lottie", "-o", project + "/main.json"])
        #expect(lottie.err.contains("warning[W1001]"), "\(lottie.err)")
        let json = (try? String(contentsOfFile: project + "/main.json", encoding: .utf8)) ?? ""
        #expect(!json.contains(encoded))
        let render = run(["render", project + "/main.anim", "--at", "0", "-o", project + "/frame.png"])
        #expect(render.code == 0 && render.err.contains("warning[W1001]") && !render.err.contains("no file for image"), "\(render.err)")
        // Copied into the project, it is read (and, not being a PNG, said so).
        try FileManager.default.removeItem(atPath: project + "/photo.png")
        FileManager.default.createFile(atPath: project + "/photo.png", contents: Data(secret))
        let inside = run(["render", project + "/main.anim", "--at", "0", "-o", project + "/frame.png"])
        #expect(!inside.err.contains("W1001"), "\(inside.err)")
    }
}

/// One decision per image asset, the same in every command (issue 51): the preview and
/// the Lottie export embedded files `render` refused; a file over the size limit was
/// "no file for image"; a truncated JPEG was drawn half grey without a word.
@Suite struct ImageDecisionTests {
    func run(_ arguments: [String]) -> (code: Int32, err: String) { runOnDisk(arguments) }

    @Test(arguments: ["truncated", "oversize"])
    func everyCommandRefusesTheSameImage(_ kind: String) throws {
        let dir = NSTemporaryDirectory() + "animc-images-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = Repository.bytes("Tests/AnimcRenderTests/Fixtures/jpeg/ycc420-q90.jpg")
        let bytes = kind == "truncated" ? Array(good.prefix(good.count * 2 / 3)) : good + [UInt8](repeating: 0, count: 9 << 20)
        FileManager.default.createFile(atPath: dir + "/photo.jpg", contents: Data(bytes))
        try "composition C { size: 10 x 10 }\nimage p { bounds: (0, 0, 10, 10), position: (5, 5), contents: image(\"photo\") }\n"
            .write(toFile: dir + "/main.anim", atomically: true, encoding: .utf8)
        let why = kind == "truncated" ? "truncated" : "larger than 8 MiB"
        let render = run(["render", dir + "/main.anim", "--at", "0", "-o", dir + "/f.png"])
        #expect(render.err.contains(why) && render.err.contains("is drawn as a grey placeholder") && !render.err.contains("no file for image"), "\(render.err)")
        // A refused image is drawn as one with no file, in every backend: systemGray.
        let frame = try PNG.decode([UInt8](FileManager.default.contents(atPath: dir + "/f.png") ?? Data()))
        #expect(Array(frame.pixels[(5 * 10 + 5) * 4 ..< (5 * 10 + 5) * 4 + 4]) == [0x8E, 0x8E, 0x93, 0xFF])
        let preview = run(["preview", dir + "/main.anim", "-o", dir + "/page.html"])
        #expect(preview.err.contains(why) && preview.err.contains("is drawn as a grey placeholder"), "\(preview.err)")
        let page = (try? String(contentsOfFile: dir + "/page.html", encoding: .utf8)) ?? ""
        #expect(!page.contains("data:image/jpeg"))
        let lottie = run(["build", dir + "/main.anim", "--target", "lottie", "-o", dir + "/main.json"])
        #expect(lottie.err.contains(why), "\(lottie.err)")
        let json = (try? String(contentsOfFile: dir + "/main.json", encoding: .utf8)) ?? ""
        #expect(!json.contains("data:image/jpeg") && json.contains("data:image/png"), "the grey placeholder is embedded")
    }
}
