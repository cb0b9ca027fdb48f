import Foundation

/// Where the tool's output goes and what it knows about its surroundings. The only
/// place the driver reads the environment or asks whether a stream is a terminal.
public protocol Console: AnyObject {
    func writeOut(_ text: String)
    /// Writes bytes to standard output as they are (an input passed through unchanged,
    /// which need not be UTF-8).
    func writeOut(bytes: [UInt8])
    func writeErr(_ text: String)
    var stderrIsTerminal: Bool { get }
    var stdoutIsTerminal: Bool { get }
    var environment: [String: String] { get }
    /// All of standard input, or nil when it cannot be read or is larger than `limit`.
    func readInput(limit: Int) -> [UInt8]?
}

/// The process's real streams. Writes go straight to the file descriptors: `print`
/// is block-buffered on a pipe and would interleave badly with stderr.
public final class StandardConsole: Console {
    public init() {}

    public func writeOut(_ text: String) { write(1, Array(text.utf8)) }
    public func writeOut(bytes: [UInt8]) { write(1, bytes) }
    public func writeErr(_ text: String) { write(2, Array(text.utf8)) }

    private func write(_ fd: Int32, _ text: [UInt8]) {
        var bytes = text
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.write(fd, base + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
        bytes.removeAll()
    }

    public var stderrIsTerminal: Bool { isatty(2) != 0 }
    public var stdoutIsTerminal: Bool { isatty(1) != 0 }
    public var environment: [String: String] { ProcessInfo.processInfo.environment }

    public func readInput(limit: Int) -> [UInt8]? {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return result }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit { return nil }
        }
    }
}

/// Captures output for tests.
public final class CapturingConsole: Console {
    /// Everything written to standard output, as bytes and as text.
    public private(set) var outBytes: [UInt8] = []
    public var out: String { String(decoding: outBytes, as: UTF8.self) }
    public var err = ""
    public var stderrIsTerminal = false
    public var stdoutIsTerminal = false
    public var environment: [String: String]

    /// What standard input holds.
    public var input: [UInt8]

    public init(environment: [String: String] = [:], input: [UInt8] = []) {
        self.environment = environment
        self.input = input
    }

    public func readInput(limit: Int) -> [UInt8]? { input.count > limit ? nil : input }

    public func writeOut(_ text: String) { outBytes += text.utf8 }
    public func writeOut(bytes: [UInt8]) { outBytes += bytes }
    public func writeErr(_ text: String) { err += text }
}
