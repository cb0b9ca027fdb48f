import AnimcBase
import Foundation
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Where a language server's bytes come from and go to: standard input and output for
/// `animc lsp` (``StandardIOTransport``), memory in the tests.
public protocol ServerTransport: AnyObject, Sendable {
    /// Waits for input and appends it to `buffer`; returns how many bytes it appended,
    /// 0 at the end of input.
    func read(into buffer: inout [UInt8]) -> Int
    /// Writes `bytes` whole; false once the client is gone.
    func write(_ bytes: [UInt8]) -> Bool
}

/// Standard input and output. A client that closes its end makes writes fail with
/// EPIPE rather than kill the process (SIGPIPE is ignored once one is made).
public final class StandardIOTransport: ServerTransport {
    private let input: Int32
    private let output: Int32

    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
        signal(SIGPIPE, SIG_IGN)
    }

    public func read(into buffer: inout [UInt8]) -> Int {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
            return max(n, 0)
        }
    }

    public func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemWrite(output, base + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}

/// Runs a ``LanguageServer`` over a ``ServerTransport``, with its checks on a thread of
/// their own.
///
/// A reader thread frames and decodes messages into the hub; the main loop takes
/// everything queued at once, so a burst of edits typed during a check is applied
/// together and checked once, and a request cancelled before it ran is answered with
/// RequestCancelled without being run. Checks run on a checker thread: a newer version
/// of a document cancels the check of the older one between items, and requests are
/// answered meanwhile from what the parser knows (see ``LanguageServer``).
public final class LanguageServerLoop {
    private let transport: ServerTransport
    private let hub = Hub()
    private let server: LanguageServer
    private var outputClosed = false

    public init(transport: ServerTransport) {
        self.transport = transport
        server = LanguageServer(checks: .background(hub))
    }

    /// How a document's preview is served (see ``LanguageServer/previews``).
    public var previews: ((_ path: String) -> String?)? {
        get { server.previews }
        set { server.previews = newValue }
    }

    /// Serves until `exit`, the end of input or the client going away; returns the
    /// process exit code.
    public func run() -> Int32 {
        let hub = self.hub
        let transport = self.transport
        let reader = Thread {
            let reader = JSONRPC.Reader { buffer in transport.read(into: &buffer) }
            while true {
                let frame = reader.next()
                hub.post(.frame(frame))
                if frame == .end { return }
            }
        }
        reader.stackSize = 8 << 20
        reader.start()
        // A clock for clients that do not watch files: every two seconds the imported files
        // of open documents are compared with what their checks read.
        let clock = Thread {
            while !hub.isStopped {
                Thread.sleep(forTimeInterval: LanguageServerLoop.pollInterval)
                hub.post(.tick)
            }
        }
        clock.start()
        let checker = Thread { hub.checkUntilStopped() }
        // The checker recurses as deep as the parser allows, as the CLI's main thread does.
        checker.stackSize = 64 << 20
        checker.start()
        defer { hub.stop() }
        while true {
            let batch = hub.takeAll()
            var messages: [JSONValue] = []
            var ended = false
            for event in batch {
                switch event {
                case .checked(let analysis): server.accept(analysis)
                case .tick: if !server.client.watchedFilesRegistration { server.refreshStaleImports() }
                case .frame(.end): ended = true
                case .frame(.malformed(let why)):
                    send(JSONRPC.error(id: .null, code: JSONRPC.ErrorCode.parseError, message: "malformed frame: \(why)"))
                case .frame(.message(let bytes)):
                    do {
                        messages.append(try JSONParser.parse(bytes))
                    } catch {
                        send(JSONRPC.error(id: .null, code: JSONRPC.ErrorCode.parseError, message: "the message is not JSON"))
                    }
                }
            }
            let cancelled = Set(messages.compactMap { m -> String? in
                m["method"]?.stringValue == "$/cancelRequest" ? m["params"]?["id"].map(Self.key) : nil
            })
            for message in messages {
                if let id = message["id"], message["method"] != nil, cancelled.contains(Self.key(id)) {
                    send(JSONRPC.error(id: id, code: JSONRPC.ErrorCode.requestCancelled, message: "cancelled"))
                    continue
                }
                // Before shutting down, the checks in flight finish and are published:
                // every version opened or changed gets its diagnostics.
                if message["method"]?.stringValue == "shutdown" {
                    server.flushDiagnostics().forEach(send)
                    hub.finishChecks().forEach(server.accept)
                }
                // Diagnostics due before a request are sent first, so a client sees them
                // in order with the answers that depend on the same text.
                if message["id"] != nil { server.flushDiagnostics().forEach(send) }
                for reply in server.handle(message) { send(reply) }
                if let code = server.exitCode { return code }
            }
            server.flushDiagnostics().forEach(send)
            if ended { return server.exitCode ?? 1 }
            // A client that closed its end is gone: nothing it asks can be answered.
            if outputClosed { return 1 }
        }
    }

    /// How often imported files are compared with what checks read, when the client
    /// does not watch files for the server.
    static let pollInterval = 2.0

    private static func key(_ id: JSONValue) -> String { String(decoding: id.serialized(style: .compact), as: UTF8.self) }

    private func send(_ message: JSONValue) {
        guard !outputClosed else { return }
        if !transport.write(JSONRPC.frame(message)) { outputClosed = true }
    }
}

/// What the reader and checker threads hand the main loop, and the checks it hands the
/// checker thread, under one lock.
final class Hub: BackgroundChecks, @unchecked Sendable {
    enum Event {
        case frame(JSONRPC.Frame)
        case checked(Analysis)
        /// The polling clock (``LanguageServerLoop/pollInterval``).
        case tick
    }

    private let condition = NSCondition()
    private var events: [Event] = []
    /// Jobs not started, oldest first, at most one per document.
    private var pending: [CheckJob] = []
    /// The job the checker thread runs, and whether it was told to stop.
    private var running: (job: CheckJob, cancelled: Flag)?
    private var stopped = false

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    func post(_ event: Event) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for at least one event, then takes every event queued.
    func takeAll() -> [Event] {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty { condition.wait() }
        let taken = events
        events.removeAll()
        return taken
    }

    func submit(_ job: CheckJob) {
        condition.lock()
        pending.removeAll { $0.uri == job.uri }
        pending.append(job)
        if let running, running.job.uri == job.uri { running.cancelled.set() }
        condition.broadcast()
        condition.unlock()
    }

    func cancel(uri: String) {
        condition.lock()
        pending.removeAll { $0.uri == uri }
        if let running, running.job.uri == uri { running.cancelled.set() }
        condition.unlock()
    }

    func wait(uri: String, revision: Int) -> Analysis? { wait(uri: uri, revision: revision, until: nil) }

    func wait(uri: String, revision: Int, atMost seconds: Double) -> Analysis? {
        wait(uri: uri, revision: revision, until: Date(timeIntervalSinceNow: seconds))
    }

    private func wait(uri: String, revision: Int, until deadline: Date?) -> Analysis? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let i = events.firstIndex(where: { if case .checked(let a) = $0 { a.uri == uri && a.revision == revision } else { false } }),
               case .checked(let a) = events.remove(at: i) {
                return a
            }
            let due = pending.contains { $0.uri == uri && $0.revision == revision }
                || running.map { $0.job.uri == uri && $0.job.revision == revision && !$0.cancelled.isSet } ?? false
            guard due, !stopped else { return nil }
            if let deadline {
                guard condition.wait(until: deadline) else { return nil }
            } else {
                condition.wait()
            }
        }
    }

    /// Waits until every job submitted has run, and takes their results.
    func finishChecks() -> [Analysis] {
        condition.lock()
        defer { condition.unlock() }
        while (!pending.isEmpty || running != nil) && !stopped { condition.wait() }
        var results: [Analysis] = []
        events.removeAll { event in
            guard case .checked(let a) = event else { return false }
            results.append(a)
            return true
        }
        return results
    }

    /// The checker thread: runs jobs one at a time until ``stop()``.
    func checkUntilStopped() {
        while true {
            condition.lock()
            while pending.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let job = pending.removeFirst()
            let flag = Flag()
            running = (job, flag)
            condition.unlock()
            let analysis = job.run(until: { flag.isSet })
            condition.lock()
            running = nil
            if let analysis, !flag.isSet { events.append(.checked(analysis)) }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Whether ``stop()`` was called (the clock thread ends then).
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    func stop() {
        condition.lock()
        stopped = true
        if let running { running.cancelled.set() }
        condition.broadcast()
        condition.unlock()
    }
}
