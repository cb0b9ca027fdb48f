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

    /// The chart lists the phase only where it samples it (see `Timeline.schedule`);
    /// here every stretch is checked against the phase itself at 20,000 times over the
    /// window (2,000 for the examples), for the examples and for groups that warp, reverse, step, overshoot and
    /// nest. A time within a microsecond of a boundary may show either side.
    @Test func theScheduleAgreesWithThePhaseSampledDensely() throws {
        var timelines: [(String, Timeline)] = try ["schedule", "schedule-groups"].map { ($0, try Self.timeline($0)) }
        for example in Repository.files(in: "examples", withExtension: "anim") {
            let result = Pipeline.compile(SourceFile(name: example, bytes: Repository.bytes(example)))
            timelines.append((example, Timeline(try #require(result.composition))))
        }
        for (name, t) in timelines {
            guard case .success(let plan) = Baker.plan(t, window: t.composition.window ?? TimeWindow(start: 0, end: 10, includesEnd: true)) else {
                Issue.record("\(name): no plan")
                continue
            }
            let (start, end) = (plan.window.start, plan.window.end)
            let schedules = t.schedule(from: start, to: end)
            var wrong: [String] = []
            for info in t.animations {
                let segments = schedules[info.id].segments
                let samples = name.hasPrefix("examples/") ? 2_000 : 20_000
                for k in 0...samples {
                    let time = start + (end - start) * Double(k) / Double(samples)
                    if segments.contains(where: { abs($0.start - time) < 1e-6 || abs($0.end - time) < 1e-6 }) { continue }
                    let listed = segments.first { $0.start <= time && time <= $0.end }?.phase ?? .absent
                    let actual = t.shownPhase(ofAnimation: info.id, at: time)
                    if listed != actual { wrong.append("\(info.path) at \(time): \(listed), not \(actual)") }
                }
            }
            #expect(wrong.count == 0, "\(name): first \(wrong.prefix(3))")
        }
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
        }
    }

    /// The page's data, decoded here by the rules docs/preview.md states, holds the
    /// baked document's values at every frame (to the 1e-9 the page rounds to).
    @Test func thePagesDataIsTheBakedFrames() throws {
        for example in ["splash", "flip-card", "follow-path", "toss"] {
            let result = Pipeline.compile(SourceFile(name: example, bytes: Repository.bytes("examples/\(example).anim")))
            let t = Timeline(try #require(result.composition))
            let plan = try #require(try? Baker.plan(t).get())
            let baked = try JSONParser.parse(Baker.bake(t, plan: plan))
            let page = try JSONParser.parse(PreviewData(Baker.sample(t, plan: plan)).document())
            let n = plan.frameCount
            #expect(page["frames"]?["frameCount"]?.numberValue == Double(n))
            let bakedLayers = try #require(baked["layers"]?.arrayValue)
            let pageLayers = try #require(page["frames"]?["layers"]?.arrayValue)
            #expect(bakedLayers.count == pageLayers.count)
            var mismatches: [String] = []
            for (b, p) in zip(bakedLayers, pageLayers) {
                let id = b["id"]?.stringValue ?? "?"
                for key in ["id", "kind", "parent", "isMask", "mask"] where b[key] != p[key] { mismatches.append("\(id).\(key)") }
                func check(_ what: String, _ want: [JSONValue], _ got: [JSONValue]) {
                    guard want.count == got.count else { return mismatches.append("\(id).\(what): \(got.count) frames") }
                    if let f = (0..<want.count).first(where: { !PreviewTests.nearly(want[$0], got[$0]) }) {
                        mismatches.append("\(id).\(what) at frame \(f): \(got[f]), baked \(want[f])")
                    }
                }
                // A property constant in the bake is constant on the page, or a series of one value.
                var pageAnimated = p["animated"]?.objectValue ?? []
                for member in b["constant"]?.objectValue ?? [] {
                    if let value = p["constant"]?[member.key] {
                        if !Self.nearly(member.value, value) { mismatches.append("\(id).\(member.key)") }
                    } else if let series = p["animated"]?[member.key] {
                        check(member.key, Array(repeating: member.value, count: n), try Self.series(series, n))
                        pageAnimated.removeAll { $0.key == member.key }
                    } else {
                        mismatches.append("\(id).\(member.key) missing")
                    }
                }
                for member in b["animated"]?.objectValue ?? [] {
                    guard let series = p["animated"]?[member.key] else { mismatches.append("\(id).\(member.key) not animated"); continue }
                    check(member.key, member.value.arrayValue ?? [], try Self.series(series, n))
                    pageAnimated.removeAll { $0.key == member.key }
                }
                if !pageAnimated.isEmpty { mismatches.append("\(id): extra \(pageAnimated.map(\.key))") }
                for key in ["matrix", "opacity"] {
                    var want: [JSONValue] = b[key]?["frames"]?.arrayValue ?? []
                    if let constant = b[key]?["constant"] { want = Array(repeating: constant, count: n) }
                    check(key, want, try Self.series(try #require(p[key]), n))
                }
            }
            #expect(mismatches.isEmpty, "\(example): \(mismatches.prefix(5))")
            // Never larger than the baked document; the splash's, whose layers mostly hold
            // still or move in 2D, at most half of it (issue 38 asked for half; it is a
            // third). A perspective flip changes all 16 numbers of its matrix per frame:
            // the flip card's is 53 %.
            let sizes = (PreviewData(Baker.sample(t, plan: plan)).document().count, Baker.bake(t, plan: plan).count)
            #expect(sizes.0 * (example == "splash" ? 2 : 1) <= sizes.1, "\(example): \(sizes)")
        }
    }

    struct BadSeries: Error {}

    /// A series as one JSON value per frame, read as docs/preview.md says.
    static func series(_ s: JSONValue, _ n: Int) throws -> [JSONValue] {
        func column(_ c: JSONValue) throws -> [Double] {
            if case .number(let x) = c { return Array(repeating: x, count: n) }
            var out: [Double] = []
            for item in c.arrayValue ?? [] {
                switch item {
                case .number(let x): out.append(x)
                case .array(let run):
                    guard run.count == 2, case .number(let count) = run[0], case .number(let x) = run[1] else { throw BadSeries() }
                    out += Array(repeating: x, count: Int(count))
                default: throw BadSeries()
                }
            }
            guard out.count == n else { throw BadSeries() }
            return out
        }
        if let c = s["n"] { return try column(c).map(JSONValue.number) }
        if let cs = s["c"]?.arrayValue {
            let columns = try cs.map(column)
            return (0..<n).map { f in .array(columns.map { .number($0[f]) }) }
        }
        var out: [JSONValue] = []
        for run in s["r"]?.arrayValue ?? [] {
            guard let pair = run.arrayValue, pair.count == 2, case .number(let count) = pair[0] else { throw BadSeries() }
            out += Array(repeating: pair[1], count: Int(count))
        }
        guard out.count == n else { throw BadSeries() }
        return out
    }

    static func nearly(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return abs(x - y) <= 1e-9 * max(1, abs(x) / 1e9)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { nearly($0, $1) }
        default: return a == b
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

    /// `animc preview --serve` on a copy of `example`, in a directory of its own: the
    /// process, its port and the directory; nil (skipped) without a built binary.
    /// Serves a copy of `example` as s.anim in a fresh folder, with `besides` (files by
    /// name) written beside it first.
    static func startServer(serving example: String, besides: [String: String] = [:]) throws -> (Process, Int, String)? {
        let binary = Repository.path(".build/debug/animc")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("skipped: build animc first (swift build) to test the preview server")
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("animc-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let source = dir + "/s.anim"
        for (name, text) in besides { try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try Data(Repository.bytes(example)).write(to: URL(fileURLWithPath: source))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["preview", source, "--serve", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // "serving s.anim at http://127.0.0.1:PORT/"
        var banner = ""
        while !banner.contains("/ (") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        // Keep draining its messages, so that the server never blocks on a full pipe.
        errors.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        let port = try #require(banner.components(separatedBy: "127.0.0.1:").last?.split(separator: "/").first.flatMap { Int($0) })
        return (process, port, dir)
    }

    /// The server over real sockets: the page, a reload event after an edit, 404 for
    /// anything else, and a clean stop on SIGINT.
    @Test func theServerReloadsOnSaveAndServesNothingElse() throws {
        guard let (process, port, dir) = try Self.startServer(serving: "examples/scrub.anim") else { return }
        defer { if process.isRunning { process.terminate() } }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = dir + "/s.anim"

        let page = try #require(HTTP.get(port: port, path: "/"))
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("\"events\":\"/events\""))
        for outside in ["/../s.anim", "/s.anim", "/etc/passwd", "/%2e%2e/s.anim"] {
            #expect(HTTP.get(port: port, path: outside)?.hasPrefix("HTTP/1.1 404") == true, "\(outside)")
        }

        let stream = try #require(HTTP.open(port: port, path: "/events"))
        defer { close(stream) }
        #expect(HTTP.read(stream, until: ": animc", seconds: 2))
        var text = String(decoding: Repository.bytes("examples/scrub.anim"), as: UTF8.self)
        text += "\n// edited\nlayer extra { position: (10, 10), bounds: 10 x 10 }\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: source))
        #expect(HTTP.read(stream, until: "event: reload", seconds: 1.5), "no reload event within the time")

        // A page at version 1 is sent what changed: the new layer, not the card.
        func update(from version: Int) throws -> JSONValue {
            let response = try #require(HTTP.get(port: port, path: "/update?from=\(version)"))
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(response.prefix(80))")
            return try JSONParser.parse(String(response.split(separator: "\r\n\r\n", maxSplits: 1).last ?? ""))
        }
        func same(_ data: JSONValue) -> [Bool] {
            (data["frames"]?["layers"]?.arrayValue ?? []).map { $0["same"] != nil }
        }
        let unchanged = try update(from: 1)
        #expect(unchanged["version"]?.numberValue == 2 && unchanged["from"]?.numberValue == 1)
        #expect(same(unchanged) == [true, false], "\(same(unchanged))")
        #expect(unchanged["sameImages"]?.boolValue == true)
        // A page the server knows nothing of gets everything.
        let everything = try update(from: 7)
        #expect(everything["from"] == nil && !same(everything).contains(true))

        // An edit of one layer's value sends that layer alone.
        text = text.replacingOccurrences(of: "backgroundColor: red", with: "backgroundColor: blue")
        try Data(text.utf8).write(to: URL(fileURLWithPath: source))
        #expect(HTTP.read(stream, until: "data: 3", seconds: 1.5), "no reload event within the time")
        let edited = try update(from: 2)
        #expect(same(edited) == [false, true], "\(same(edited))")

        // A broken edit keeps the frames and shows the diagnostics.
        try Data((text + "\nlayer {").utf8).write(to: URL(fileURLWithPath: source))
        #expect(HTTP.read(stream, until: "data: 4", seconds: 1.5), "no reload event within the time")
        let broken = try update(from: 3)
        #expect(same(broken).allSatisfy { $0 })
        #expect(broken["diagnostics"]?.arrayValue?.first?.stringValue?.contains("error") == true)

        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

extension PreviewTests {
    /// A file the served file imports is watched too: saving it rebuilds the page.
    @Test func theServerReloadsWhenAnImportedFileIsSaved() throws {
        let tokens = "let tint = rgb(200, 40, 40)\n"
        guard let (process, port, dir) = try Self.startServer(serving: "Tests/AnimcDriverTests/Fixtures/preview/imports-tokens.anim",
                                                             besides: ["tokens.anim": tokens]) else { return }
        defer { if process.isRunning { process.terminate() } }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = try #require(HTTP.get(port: port, path: "/"))
        #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("\"version\":1"))
        let stream = try #require(HTTP.open(port: port, path: "/events"))
        defer { close(stream) }
        #expect(HTTP.read(stream, until: ": animc", seconds: 2))
        try Data(tokens.replacingOccurrences(of: "200, 40, 40", with: "40, 40, 200").utf8).write(to: URL(fileURLWithPath: dir + "/tokens.anim"))
        #expect(HTTP.read(stream, until: "data: 2", seconds: 1.5), "no reload event after the imported file was saved")
        let update = try #require(HTTP.get(port: port, path: "/update?from=1"))
        #expect(update.contains("\"version\":2"))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }

    /// The server's resident memory, from /proc (Linux), in MiB.
    static func residentMiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 / 1024 }
    }

    /// 250 clients that ask for the page and never read it, and 250 that send their
    /// request a byte a second: the server keeps one copy of the (4 MB) page, drops them
    /// in time, and meanwhile answers a browser's request at once.
    @Test func hostileClientsNeitherStarveNorHoardIt() throws {
        guard let (process, port, dir) = try Self.startServer(serving: "examples/splash.anim") else { return }
        defer { if process.isRunning { process.terminate() } }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<250 {
            guard let fd = HTTP.connectTo(port: port) else { continue }
            var small: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            _ = HTTP.send(fd, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            sockets.append(fd)
        }
        var drips: [Int32] = []
        for _ in 0..<250 {
            guard let fd = HTTP.connectTo(port: port) else { continue }
            _ = HTTP.send(fd, "G")
            drips.append(fd)
        }
        sockets += drips
        #expect(sockets.count == 500)
        let request = Array("ET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        let clock = ContinuousClock()
        let began = clock.now
        var answered = false
        var peak = 0
        for second in 0..<8 {
            for fd in drips where second < request.count { _ = [request[second]].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) } }
            if !answered {
                let page = HTTP.get(port: port, path: "/", seconds: 5)
                answered = page?.hasPrefix("HTTP/1.1 200") == true && page?.contains("</html>") == true
                #expect(clock.now - began < .seconds(6), "a browser's request waited behind the hostile clients")
            }
            peak = max(peak, Self.residentMiB(process.processIdentifier) ?? 0)
            usleep(1_000_000)
        }
        #expect(answered)
        #expect(peak < 300, "the server held \(peak) MiB")
        // The drips never finished their request in time: they got nothing.
        var byte: UInt8 = 0
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        let fed = drips.filter { fd in
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return Glibc.read(fd, &byte, 1) > 0
        }
        #expect(fed.isEmpty, "\(fed.count) slow clients were sent the page")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Requests addressed elsewhere (DNS rebinding) are refused; a request with LF line
    /// ends is answered at once; `HEAD /events` opens no stream.
    @Test func onlyRequestsToThePreviewAreAnswered() throws {
        guard let (process, port, dir) = try Self.startServer(serving: "examples/scrub.anim") else { return }
        defer { if process.isRunning { process.terminate() } }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1"] {
            let answer = HTTP.get(port: port, path: "/", request: "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(answer?.hasPrefix("HTTP/1.1 421") == true, "\(host): \(answer?.prefix(40) ?? "no answer")")
        }
        #expect(HTTP.get(port: port, path: "/", request: "GET / HTTP/1.1\r\n\r\n")?.hasPrefix("HTTP/1.1 421") == true)
        for host in ["localhost:\(port)", "LOCALHOST:\(port)", "127.0.0.1:\(port)"] {
            #expect(HTTP.get(port: port, path: "/", request: "HEAD / HTTP/1.1\r\nHost: \(host)\r\n\r\n")?.hasPrefix("HTTP/1.1 200") == true)
        }
        let clock = ContinuousClock()
        let began = clock.now
        let lf = HTTP.get(port: port, path: "/", request: "GET / HTTP/1.1\nHost: 127.0.0.1:\(port)\n\n", seconds: 4)
        #expect(lf?.hasPrefix("HTTP/1.1 200") == true)
        #expect(clock.now - began < .seconds(2))
        let head = HTTP.get(port: port, path: "/events", request: "HEAD /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", seconds: 4)
        #expect(head?.hasPrefix("HTTP/1.1 200") == true && head?.contains("text/event-stream") == true)
        #expect(head?.contains(": animc") == false)
    }
}

/// Just enough HTTP/1.1 over a socket for the server tests.
enum HTTP {
    static func connectTo(port: Int) -> Int32? {
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
        return fd
    }

    static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends `request` (by default a GET of `path` addressed to the server).
    static func open(port: Int, path: String, request: String? = nil) -> Int32? {
        guard let fd = connectTo(port: port) else { return nil }
        guard send(fd, request ?? "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n") else { close(fd); return nil }
        return fd
    }

    /// The whole response, read until the server closes (or `seconds` pass).
    static func get(port: Int, path: String, request: String? = nil, seconds: Double = 30) -> String? {
        guard let fd = open(port: port, path: path, request: request) else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return String(decoding: out, as: UTF8.self) }
            if n > 0 { out += buffer[0..<n] }
        }
        return nil
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
