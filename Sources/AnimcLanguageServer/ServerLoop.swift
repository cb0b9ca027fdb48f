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

/// Runs a ``LanguageServer`` over a ``ServerTransport``.
///
/// A reader thread frames and decodes messages into a queue; the main loop takes
/// everything queued at once, so a burst of edits typed during a long check is
/// applied together and checked once (a newer change supersedes an older one), and a
/// request cancelled before it ran is answered with RequestCancelled without being run.
public final class LanguageServerLoop {
    private let server = LanguageServer()
    private let transport: ServerTransport

    public init(transport: ServerTransport) {
        self.transport = transport
    }

    /// Serves until `exit` or the end of input; returns the process exit code.
    public func run() -> Int32 {
        let queue = MessageQueue()
        let transport = self.transport
        let thread = Thread {
            let reader = JSONRPC.Reader { buffer in transport.read(into: &buffer) }
            while true {
                let frame = reader.next()
                queue.push(frame)
                if frame == .end { return }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        while true {
            let batch = queue.takeAll()
            var messages: [JSONValue] = []
            var ended = false
            for frame in batch {
                switch frame {
                case .end: ended = true
                case .malformed(let why):
                    send(JSONRPC.error(id: .null, code: JSONRPC.ErrorCode.parseError, message: "malformed frame: \(why)"))
                case .message(let bytes):
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
                // Diagnostics due before a request are sent first, so a client sees them
                // in order with the answers that depend on the same text.
                if message["id"] != nil { server.flushDiagnostics().forEach(send) }
                for reply in server.handle(message) { send(reply) }
                if let code = server.exitCode { return code }
            }
            server.flushDiagnostics().forEach(send)
            if ended { return server.exitCode ?? 1 }
        }
    }

    private static func key(_ id: JSONValue) -> String { String(decoding: id.serialized(style: .compact), as: UTF8.self) }

    private func send(_ message: JSONValue) {
        // A client that is gone is noticed at the end of its input, which follows.
        _ = transport.write(JSONRPC.frame(message))
    }
}

/// Frames from the reader thread to the main loop.
private final class MessageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [JSONRPC.Frame] = []

    func push(_ frame: JSONRPC.Frame) {
        condition.lock()
        frames.append(frame)
        condition.signal()
        condition.unlock()
    }

    /// Waits for at least one frame, then takes every frame queued.
    func takeAll() -> [JSONRPC.Frame] {
        condition.lock()
        defer { condition.unlock() }
        while frames.isEmpty { condition.wait() }
        let taken = frames
        frames.removeAll()
        return taken
    }
}
