import AnimcBase
@testable import AnimcLanguageServer
import AnimcTestSupport
import Foundation
import Testing

/// `animc lsp` as a process sees it: ``LanguageServerLoop`` over real pipes, checks on
/// their own thread.
@Suite struct ServerLoopTests {
    /// A client on the other end of two pipes, reading the server's messages as they come.
    final class PipeClient: @unchecked Sendable {
        private var toServer: [Int32] = [0, 0]
        private var fromServer: [Int32] = [0, 0]
        private let lock = NSCondition()
        private var received: [(message: JSONValue, at: ContinuousClock.Instant)] = []
        private(set) var exitCode: Int32?
        let started = ContinuousClock.now
        private var nextID = 1

        init() {
            _ = pipe(&toServer)
            _ = pipe(&fromServer)
            let loop = LanguageServerLoop(transport: StandardIOTransport(input: toServer[0], output: fromServer[1]))
            let serverOut = fromServer[1]
            nonisolated(unsafe) let unsafeLoop = loop
            let server = Thread { [self] in
                let code = unsafeLoop.run()
                lock.lock(); exitCode = code; lock.broadcast(); lock.unlock()
                close(serverOut)
            }
            server.stackSize = 16 << 20
            server.start()
            let input = fromServer[0]
            Thread { [self] in
                let reader = JSONRPC.Reader { buffer in
                    var chunk = [UInt8](repeating: 0, count: 1 << 16)
                    let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                    if n > 0 { buffer += chunk[0..<n] }
                    return max(n, 0)
                }
                while case .message(let bytes) = reader.next() {
                    guard let m = try? JSONParser.parse(bytes) else { continue }
                    lock.lock(); received.append((m, .now)); lock.broadcast(); lock.unlock()
                }
            }.start()
        }

        func send(_ message: JSONValue) {
            let bytes = JSONRPC.frame(message)
            _ = bytes.withUnsafeBytes { Foundation.write(toServer[1], $0.baseAddress, $0.count) }
        }

        @discardableResult
        func request(_ method: String, _ params: JSONValue) -> Int {
            let id = nextID
            nextID += 1
            send(obj(("jsonrpc", "2.0"), ("id", .number(Double(id))), ("method", .string(method)), ("params", params)))
            return id
        }

        func notify(_ method: String, _ params: JSONValue) {
            send(obj(("jsonrpc", "2.0"), ("method", .string(method)), ("params", params)))
        }

        /// Waits (up to `seconds`) for a message that satisfies `matches`.
        func wait(_ seconds: Double = 60, for matches: (JSONValue) -> Bool) -> (message: JSONValue, at: ContinuousClock.Instant)? {
            lock.lock()
            defer { lock.unlock() }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while true {
                if let found = received.first(where: { matches($0.message) }) { return found }
                if !lock.wait(until: deadline) { return nil }
            }
        }

        func response(_ id: Int, within seconds: Double = 60) -> (message: JSONValue, at: ContinuousClock.Instant)? {
            wait(seconds) { $0["id"] == .number(Double(id)) }
        }

        func diagnostics(version: Int, within seconds: Double = 120) -> (message: JSONValue, at: ContinuousClock.Instant)? {
            wait(seconds) { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["version"] == .number(Double(version)) }
        }

        var messages: [JSONValue] {
            lock.lock()
            defer { lock.unlock() }
            return received.map(\.message)
        }

        func waitForExit(_ seconds: Double = 30) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            let deadline = Date(timeIntervalSinceNow: seconds)
            while exitCode == nil { if !lock.wait(until: deadline) { break } }
            return exitCode
        }

        func closeInput() { close(toServer[1]) }
        func closeOutput() { close(fromServer[0]) }

        func initialize() {
            let id = request("initialize", obj(("capabilities", obj(("textDocument", obj(("hover", obj(("contentFormat", ["markdown"])))))))))
            _ = response(id)
            notify("initialized", obj())
        }
    }

    static let uri = "file:///work/slow.anim"
    static let slow = Repository.read("Tests/AnimcLanguageServerTests/Fixtures/lsp/slow.anim")

    static func open(_ client: PipeClient, _ text: String, version: Int = 1) {
        client.notify("textDocument/didOpen", obj(("textDocument", obj(("uri", .string(uri)), ("languageId", "anim"),
                                                                      ("version", .number(Double(version))), ("text", .string(text))))))
    }

    static func change(_ client: PipeClient, _ text: String, version: Int) {
        client.notify("textDocument/didChange", obj(("textDocument", obj(("uri", .string(uri)), ("version", .number(Double(version))))),
                                                   ("contentChanges", .array([obj(("text", .string(text)))]))))
    }

    /// While a slow check runs, a hover is answered from what the parser knows, long
    /// before the check's diagnostics come; edits typed meanwhile cancel the check of
    /// the version they replace, which is never published.
    @Test func aSlowCheckDoesNotHoldUpRequests() throws {
        let client = PipeClient()
        client.initialize()
        Self.open(client, Self.slow)
        let sent = ContinuousClock.now
        // `_t` in the loop's body.
        let lines = Self.slow.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("timing _t") })
        let column = try #require(lines[line].range(of: "_t")).lowerBound.utf16Offset(in: lines[line])
        let hover = client.request("textDocument/hover", obj(("textDocument", obj(("uri", .string(Self.uri)))),
                                                             ("position", obj(("line", .number(Double(line))), ("character", .number(Double(column)))))))
        let answer = try #require(client.response(hover))
        #expect(answer.message["result"]?["contents"]?["value"]?.stringValue?.contains("timing function _t") == true)
        let published = try #require(client.diagnostics(version: 1))
        #expect(answer.at < published.at, "the hover waited for the check")
        #expect(answer.at - sent < .milliseconds(1000))
        // Three versions typed at once: the last is checked and published. Each one
        // changes the loop, so none can be answered from the memo the check before it
        // left (a version that checks in a millisecond could be published before the
        // next one arrives, and rightly so).
        for version in 2...4 {
            Self.change(client, Self.slow.replacingOccurrences(of: "150000", with: "15000\(version)"), version: version)
        }
        #expect(client.diagnostics(version: 4) != nil)
        #expect(!client.messages.contains { $0["params"]?["version"] == 2 || $0["params"]?["version"] == 3 })
        let shutdown = client.request("shutdown", .null)
        _ = client.response(shutdown)
        client.notify("exit", .null)
        #expect(client.waitForExit() == 0)
    }

    /// A hover right after the text it asks about arrives waits briefly for the check
    /// (issue 52): a check of a few milliseconds was answered from the parser, "timing
    /// shown once the check finishes".
    @Test func aHoverWaitsBrieflyForAQuickCheck() throws {
        let client = PipeClient()
        client.initialize()
        let text = "composition { size: 100 x 100 }\ntiming ease = cubic(0.2, 0, 0, 1)\n"
            + "layer a { basic opacity { from: 0, to: 1, duration: 1s, timingFunction: ease } }\n"
        Self.open(client, text)
        // On `basic`: the animation's interval on the timeline, which the check knows.
        let hover = client.request("textDocument/hover", obj(("textDocument", obj(("uri", .string(Self.uri)))),
                                                             ("position", obj(("line", 2), ("character", 12)))))
        let answer = try #require(client.response(hover))
        let value = try #require(answer.message["result"]?["contents"]?["value"]?.stringValue)
        #expect(value.contains("basic opacity"))
        #expect(!value.contains("once the check finishes"), "\(value)")
        let shutdown = client.request("shutdown", .null)
        _ = client.response(shutdown)
        client.notify("exit", .null)
        #expect(client.waitForExit() == 0)
    }

    /// A client that goes away (its end of the server's output closed) ends the server,
    /// which neither dies of SIGPIPE nor keeps running.
    @Test func aClientThatGoesAwayEndsTheServer() {
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        #expect(pipe(&toServer) == 0 && pipe(&fromServer) == 0)
        close(fromServer[0])  // nobody will read what the server writes
        nonisolated(unsafe) let loop = LanguageServerLoop(transport: StandardIOTransport(input: toServer[0], output: fromServer[1]))
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var exitCode: Int32 = -1
        Thread {
            exitCode = loop.run()
            done.signal()
        }.start()
        let initialize = JSONRPC.frame(obj(("jsonrpc", "2.0"), ("id", 1), ("method", "initialize"), ("params", obj(("capabilities", obj())))))
        _ = initialize.withUnsafeBytes { Foundation.write(toServer[1], $0.baseAddress, $0.count) }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(exitCode == 1)
        for fd in [toServer[0], toServer[1], fromServer[1]] { close(fd) }
    }

    /// Every document opened or changed before `shutdown` gets its diagnostics first.
    @Test func shutdownPublishesWhatIsPending() {
        let client = PipeClient()
        client.initialize()
        Self.open(client, "composition { size: 10 x 10 }\nlayer a { opactiy: 1 }\n")
        let shutdown = client.request("shutdown", .null)
        let answer = client.response(shutdown)
        let published = client.diagnostics(version: 1, within: 5)
        #expect(published != nil && answer != nil)
        if let published, let answer { #expect(published.at <= answer.at) }
        client.notify("exit", .null)
        #expect(client.waitForExit() == 0)
    }
}
