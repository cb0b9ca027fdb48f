import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDriver
import AnimcIR
import AnimcPreview
import AnimcRuntime
import AnimcTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `animc preview`: the timing chart's schedule against intervals computed by hand,
/// the page's self-containment and escaping, and the live server over real sockets.
/// (The page in a real browser is checked by `.ci/run`, Tests/browser/check_preview.py.)
@Suite struct PreviewTests {
    static let folder = "Tests/AnimcDriverTests/Fixtures/preview"

    static func timeline(_ name: String) throws -> Timeline {
        let result = Pipeline.compile(SourceFile(name: name + ".anim", bytes: Repository.bytes(folder + "/" + name + ".anim")))
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
        return Timeline(try #require(result.composition))
    }

    @Test func theScheduleIsTheRuntimesIntervalsOnTheCompositionsTimeline() throws {
        let t = try Self.timeline("schedule")
        let schedules = t.schedule(from: 0, to: 6)
        func segments(_ path: String) -> [[Double]] {
            guard let info = t.animations.first(where: { $0.path == path }) else { return [] }
            return schedules[info.id].segments.map { [$0.start, $0.end, $0.phase == .active ? 0 : $0.phase == .fillingBackwards ? -1 : 1] }
        }
        func close(_ a: [[Double]], _ b: [[Double]]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { x, y in zip(x, y).allSatisfy { abs($0 - $1) < 1e-9 } }
        }
        // The layer begins at 0.5 s; fade at 1 s in it for 0.5 s, then holds.
        #expect(close(segments("fade"), [[1.5, 2, 0], [2, 6, 1]]), "\(segments("fade"))")
        // Two passes of 2 s; the child 0.5 s into each for 1 s.
        #expect(close(segments("twice"), [[0, 4, 0]]), "\(segments("twice"))")
        #expect(close(segments("twice/slide"), [[0.5, 1.5, 0], [2.5, 3.5, 0]]), "\(segments("twice/slide"))")
        // Speed −1 from 5 s: active 4–5 s, its backwards fill after 5 s.
        #expect(close(segments("backwards"), [[4, 5, 0], [5, 6, -1]]), "\(segments("backwards"))")
    }

    @Test func aChildOfAFillingGroupIsShownFilling() throws {
        let t = try Self.timeline("schedule")
        let slide = try #require(t.animations.first { $0.path == "twice/slide" })
        #expect(t.shownPhase(ofAnimation: slide.id, at: 1) == .active)
        #expect(t.shownPhase(ofAnimation: slide.id, at: 2) == .absent)
    }

    static func page(_ name: String, images: [String: String] = [:]) throws -> String {
        let t = try timeline(name)
        let plan = try #require(try? Baker.plan(t).get())
        return String(decoding: PreviewPage.render(t, plan: plan, options: .init(title: name + ".anim", images: images)), as: UTF8.self)
    }

    @Test func thePageNeedsNothingFromTheNetwork() throws {
        for example in ["splash", "follow-path", "plane"] {
            let result = Pipeline.compile(SourceFile(name: example, bytes: Repository.bytes("examples/\(example).anim")))
            let t = Timeline(try #require(result.composition))
            let plan = try #require(try? Baker.plan(t).get())
            let html = String(decoding: PreviewPage.render(t, plan: plan, options: .init(title: example)), as: UTF8.self)
            for reference in ["src=\"http", "href=\"http", "url(http", "@import", "<link", "<script src"] {
                #expect(!html.contains(reference), "\(example): \(reference)")
            }
            // The embedded data is the baked document, byte for byte.
            #expect(html.contains(String(decoding: Baker.bake(t, plan: plan), as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")))
        }
    }

    @Test func namesNeverBecomeMarkup() throws {
        let html = try Self.page("hostile")
        // The image's name reaches the page only inside the JSON, with `<` escaped, so
        // it can neither close the script element nor start a tag.
        #expect(!html.contains("<img src=x"))
        #expect(html.components(separatedBy: "</script>").count == 3)  // the data and the player
        #expect(html.contains("\\u003c/script>\\u003cimg src=x onerror=alert(1)>"))
        #expect(PreviewPage.escapeHTML("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    @Test func imagesBesideTheSourceAreEmbedded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("animc-preview-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/assets", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Repository.bytes("examples/follow-path.anim")).write(to: URL(fileURLWithPath: dir + "/fp.anim"))
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>"
        try Data(svg.utf8).write(to: URL(fileURLWithPath: dir + "/assets/airplane.svg"))
        let console = CapturingConsole()
        let status = CommandLineTool(console: console).run(["preview", dir + "/fp.anim", "-o", dir + "/fp.html"])
        #expect(status == 0, "\(console.err)")
        let html = try String(contentsOfFile: dir + "/fp.html", encoding: .utf8)
        #expect(html.contains("\"airplane\":\"data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString() + "\""))
    }

    /// The server over real sockets: the page, a reload event after an edit, 404 for
    /// anything else, and a clean stop on SIGINT.
    @Test func theServerReloadsOnSaveAndServesNothingElse() throws {
        let binary = Repository.path(".build/debug/animc")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("skipped: build animc first (swift build) to test the preview server")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("animc-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = dir + "/s.anim"
        try Data(Repository.bytes("examples/scrub.anim")).write(to: URL(fileURLWithPath: source))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["preview", source, "--serve", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // "serving s.anim at http://127.0.0.1:PORT/"
        var banner = ""
        while !banner.contains("/ (") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(banner.components(separatedBy: "127.0.0.1:").last?.split(separator: "/").first.flatMap { Int($0) })

        let page = try #require(HTTP.get(port: port, path: "/"))
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("\"events\": \"/events\""))
        for outside in ["/../s.anim", "/s.anim", "/etc/passwd", "/%2e%2e/s.anim"] {
            #expect(HTTP.get(port: port, path: outside)?.hasPrefix("HTTP/1.1 404") == true, "\(outside)")
        }

        let stream = try #require(HTTP.open(port: port, path: "/events"))
        defer { close(stream) }
        #expect(HTTP.read(stream, until: ": animc", seconds: 2))
        var text = String(decoding: Repository.bytes("examples/scrub.anim"), as: UTF8.self)
        text += "\n// edited\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: source))
        #expect(HTTP.read(stream, until: "event: reload", seconds: 1.5), "no reload event within the time")

        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Just enough HTTP/1.1 over a socket for the server test.
enum HTTP {
    static func open(port: Int, path: String) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else { close(fd); return nil }
        return fd
    }

    static func get(port: Int, path: String) -> String? {
        guard let fd = open(port: port, path: path) else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func read(_ fd: Int32, until marker: String, seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { text += String(decoding: buffer[0..<n], as: UTF8.self) }
            if text.contains(marker) { return true }
            if n == 0 { return false }
        }
        return false
    }
}
