import AnimcBase
import Foundation

/// JSON-RPC 2.0 over the LSP base protocol: `Content-Length: N\r\n\r\n` then N bytes.
enum JSONRPC {
    /// Frames larger than this are refused (and skipped): a document is at most 8 MiB,
    /// and its JSON escaping at most doubles it... plus the envelope.
    static let maxFrame = 40 << 20

    enum Frame: Equatable {
        case message([UInt8])
        /// A header block that made no sense; the reader skipped it.
        case malformed(String)
        case end
    }

    /// Splits a byte stream into frames. Headers other than Content-Length are
    /// ignored; header names are case-insensitive.
    final class Reader {
        private let read: (inout [UInt8]) -> Int
        private var buffer: [UInt8] = []
        private var start = 0
        private var finished = false

        /// `read` appends what is available to its argument and returns the count
        /// (0 at end of input).
        init(read: @escaping (inout [UInt8]) -> Int) { self.read = read }

        private func fill() -> Bool {
            guard !finished else { return false }
            if start > 1 << 16 {
                buffer.removeFirst(start)
                start = 0
            }
            let n = read(&buffer)
            if n <= 0 { finished = true }
            return n > 0
        }

        func next() -> Frame {
            while true {
                // Find the end of the header block.
                if let headerEnd = findHeaderEnd() {
                    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
                    let bodyStart = headerEnd + 4
                    var length: Int?
                    for line in header.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
                        let parts = line.split(separator: ":", maxSplits: 1)
                        if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                            length = Int(parts[1].trimmingCharacters(in: .whitespaces))
                        }
                    }
                    guard let length, length >= 0 else {
                        start = bodyStart
                        return .malformed("a header without a valid Content-Length")
                    }
                    guard length <= JSONRPC.maxFrame else {
                        // Skip the body without keeping it.
                        var remaining = length
                        start = bodyStart
                        while remaining > 0 {
                            let available = buffer.count - start
                            if available == 0 { if !fill() { return .end }; continue }
                            let take = min(available, remaining)
                            start += take
                            remaining -= take
                        }
                        return .malformed("a message of \(length) bytes, more than the \(JSONRPC.maxFrame >> 20) MiB limit")
                    }
                    while buffer.count - bodyStart < length {
                        if !fill() { return .end }
                    }
                    let body = Array(buffer[bodyStart..<(bodyStart + length)])
                    start = bodyStart + length
                    return .message(body)
                }
                if buffer.count - start > 64 << 10 {
                    // 64 KiB without a header end: not the protocol. Drop it.
                    start = buffer.count
                    return .malformed("64 KiB of input without a header")
                }
                if !fill() { return .end }
            }
        }

        private func findHeaderEnd() -> Int? {
            guard buffer.count - start >= 4 else { return nil }
            var i = start
            while i + 3 < buffer.count {
                if buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A { return i }
                i += 1
            }
            return nil
        }
    }

    static func frame(_ message: JSONValue) -> [UInt8] {
        let body = message.serialized(style: .compact)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    // MARK: Messages

    static func response(id: JSONValue, result: JSONValue) -> JSONValue {
        .object([JSONMember("jsonrpc", "2.0"), JSONMember("id", id), JSONMember("result", result)])
    }

    static func error(id: JSONValue, code: Int, message: String) -> JSONValue {
        .object([JSONMember("jsonrpc", "2.0"), JSONMember("id", id),
                 JSONMember("error", .object([JSONMember("code", .number(Double(code))), JSONMember("message", .string(message))]))])
    }

    static func notification(_ method: String, _ params: JSONValue) -> JSONValue {
        .object([JSONMember("jsonrpc", "2.0"), JSONMember("method", .string(method)), JSONMember("params", params)])
    }

    enum ErrorCode {
        static let parseError = -32700
        static let invalidRequest = -32600
        static let methodNotFound = -32601
        static let invalidParams = -32602
        static let internalError = -32603
        static let serverNotInitialized = -32002
        static let requestCancelled = -32800
        static let invalidatedRequest = -32801
    }
}

/// `.object([...])` with less noise.
func obj(_ members: (String, JSONValue?)...) -> JSONValue {
    .object(members.compactMap { key, value in value.map { JSONMember(key, $0) } })
}
