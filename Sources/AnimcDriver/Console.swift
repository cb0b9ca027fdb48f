import Foundation

/// Where the tool's output goes and what it knows about its surroundings. The only
/// place the driver reads the environment or asks whether a stream is a terminal.
public protocol Console: AnyObject {
    func writeOut(_ text: String)
    func writeErr(_ text: String)
    var stderrIsTerminal: Bool { get }
    var stdoutIsTerminal: Bool { get }
    var environment: [String: String] { get }
}

/// The process's real streams. Writes go straight to the file descriptors: `print`
/// is block-buffered on a pipe and would interleave badly with stderr.
public final class StandardConsole: Console {
    public init() {}

    public func writeOut(_ text: String) { write(1, text) }
    public func writeErr(_ text: String) { write(2, text) }

    private func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
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
}

/// Captures output for tests.
public final class CapturingConsole: Console {
    public var out = ""
    public var err = ""
    public var stderrIsTerminal = false
    public var stdoutIsTerminal = false
    public var environment: [String: String]

    public init(environment: [String: String] = [:]) { self.environment = environment }

    public func writeOut(_ text: String) { out += text }
    public func writeErr(_ text: String) { err += text }
}
