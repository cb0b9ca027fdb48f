// A real language-server client for the benchmark: it starts `animc lsp` as a child
// process and speaks LSP to it over stdio, as an editor does, so the figures include
// framing, JSON and the process boundary, not only the handler.
import AnimcBase
import Foundation

/// One `animc lsp` process and the messages it sent, timestamped as they arrive.
final class EditorSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    /// Messages received, with the monotonic time each arrived.
    private var received: [(time: Double, message: JSONValue)] = []
    private var nextID = 1

    /// Starts `animc lsp` from `executable`; nil when it cannot be started.
    init?(executable: String) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["lsp"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let handle = output.fileHandleForReading
        let thread = Thread { [self] in readLoop(handle) }
        thread.start()
    }

    private func readLoop(_ handle: FileHandle) {
        var buffer: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            buffer.append(contentsOf: chunk)
            while let (body, consumed) = EditorSession.frame(buffer) {
                buffer.removeFirst(consumed)
                guard let message = try? JSONParser.parse(body) else { continue }
                condition.lock()
                received.append((now(), message))
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// The first complete frame's body and the bytes it took, if the buffer holds one.
    private static func frame(_ buffer: [UInt8]) -> ([UInt8], Int)? {
        guard buffer.count >= 4 else { return nil }
        var i = 0
        while i + 3 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { break }
            i += 1
        }
        guard i + 3 < buffer.count else { return nil }
        let header = String(decoding: buffer[0..<i], as: UTF8.self)
        guard let line = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        let start = i + 4
        guard buffer.count >= start + length else { return nil }
        return (Array(buffer[start..<(start + length)]), start + length)
    }

    /// Sends a request and returns its id.
    @discardableResult
    func request(_ method: String, _ params: JSONValue) -> Int {
        let id = nextID
        nextID += 1
        send(.object([JSONMember("jsonrpc", "2.0"), JSONMember("id", .number(Double(id))), JSONMember("method", .string(method)),
                      JSONMember("params", params)]))
        return id
    }

    func notify(_ method: String, _ params: JSONValue) {
        send(.object([JSONMember("jsonrpc", "2.0"), JSONMember("method", .string(method)), JSONMember("params", params)]))
    }

    private func send(_ message: JSONValue) {
        let body = message.serialized(style: .compact)
        input.fileHandleForWriting.write(Data(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body))
    }

    /// Waits (at most `timeout` seconds) for a message that `matches`, received after
    /// message number `from`; its arrival time and its place.
    func wait(from: Int = 0, timeout: Double = 60, _ matches: (JSONValue) -> Bool) -> (time: Double, index: Int)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var checked = from
        while true {
            while checked < received.count {
                if matches(received[checked].message) { return (received[checked].time, checked) }
                checked += 1
            }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// How many messages have arrived so far.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return received.count
    }

    /// Asks the server to shut down and waits for it to exit.
    func close() {
        let id = request("shutdown", .null)
        _ = wait { $0["id"]?.numberValue == Double(id) }
        notify("exit", .null)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// A publishDiagnostics for `uri` at `version`.
    static func diagnostics(_ uri: String, version: Int) -> (JSONValue) -> Bool {
        { m in
            m["method"]?.stringValue == "textDocument/publishDiagnostics" && m["params"]?["uri"]?.stringValue == uri
                && m["params"]?["version"]?.numberValue == Double(version)
        }
    }
}

/// A document an author might keep open: the examples' constructs (constants and
/// timing functions, a component with a group of keyframe animations instantiated in
/// a loop, layers with groups, keyframe rows and basic animations) repeated with
/// fresh names until the text is about `bytes` long. Every block checks clean.
func editorDocument(bytes: Int) -> String {
    var s = "composition Screens {\n  size: 375 x 667\n  fps: 60\n  window: 0s ..< 3s\n}\n\n"
    s += "let D = 3s\nlet gap = 0.0006666s\ntiming T = cubic(0.25, 0, 0.2, 1)\ntiming out = cubic(0.65, 0.0, 0.40, 1.0)\n\n"
    var k = 0
    while s.utf8.count < bytes {
        s += """
        let size\(k) = \(20 + k % 30)
        let tint\(k) = rgb(\(k % 256), 78, 101)

        component Dot\(k)(at: Point, delay: Time) {
          layer {
            position: at
            bounds: size\(k) x size\(k)
            cornerRadius: size\(k) / 2
            backgroundColor: tint\(k)
            group pulse {
              duration: D
              repeatCount: inf
              beginTime: delay
              fillMode: backwards
              keyframes transform.scale {
                0 = 1 ~ T
                0.5 = 1.2 ~ T
                1 = 1
              }
              keyframes opacity {
                values: [1, 0.4, 1]
                keyTimes: [0, 0.5, 1]
                timingFunctions: [T, T]
              }
            }
          }
        }

        layer row\(k) {
          position: (187.5, \(40 + k % 12 * 50))
          for i in 0 ..< 5 {
            dot[i] = Dot\(k)(at: ((i - 2) * 40, 0), delay: gap * i * 100)
          }
          shape badge {
            path: arc(center: (0, 0), radius: 12, from: -90deg, to: 270deg, clockwise: true)
            strokeColor: white
            fillColor: clear
            lineWidth: 3
            group draw {
              duration: D
              repeatCount: inf
              keyframes strokeEnd {
                duration: D - 0.5s
                timingFunction: out
                0 = 0
                1 = 1
              }
              basic transform {
                duration: D - 0.5s
                from: rotate(-45deg) scale(0.25)
                to: identity
              }
            }
          }
        }


        """
        k += 1
    }
    return s
}
