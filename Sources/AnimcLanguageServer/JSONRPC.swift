import AnimcBase
import Foundation

/// JSON-RPC 2.0 over the LSP base protocol: `Content-Length: N\r\n\r\n` then N bytes.
enum JSONRPC {
    /// Frames larger than this are refused (and skipped): a document is at most
    /// ``Pipeline/maxSourceSize`` (8 MiB), and JSON's escapes make most text at most
    /// a few times larger.
    static let maxFrame = 40 << 20

    enum Frame: Equatable {
        case message([UInt8])
        /// Input that was not a well-formed frame; the reader skipped to the next
        /// `Content-Length` header, so later messages are read as usual.
        case malformed(String)
        case end
    }

    /// Splits a byte stream into frames.
    ///
    /// A header block is lines of `Name: value` ending with an empty line (CRLF as the
    /// protocol says, LF alone accepted). `Content-Length` is required, once, in decimal;
    /// other headers (`Content-Type`) are allowed and ignored; names are
    /// case-insensitive. Anything else is reported once as ``Frame/malformed(_:)`` and
    /// skipped up to the next `Content-Length` header: one bad frame must not make the
    /// server deaf to the rest of the session.
    final class Reader {
        private let read: (inout [UInt8]) -> Int
        private var buffer: [UInt8] = []
        /// Where the unread input starts in `buffer`.
        private var start = 0
        /// How far past `start` the search for the header's end has looked.
        private var scanned = 0
        /// Whether malformed input was reported and is being skipped.
        private var resynchronising = false
        private var finished = false

        /// Header blocks are a few dozen bytes; past this without an end, it is not one.
        static let maxHeader = 8 << 10

        /// `read` appends what is available to its argument and returns the count
        /// (0 at end of input).
        init(read: @escaping (inout [UInt8]) -> Int) { self.read = read }

        /// Reads more input; false at its end.
        private func fill() -> Bool {
            guard !finished else { return false }
            let n = read(&buffer)
            if n <= 0 { finished = true }
            return n > 0
        }

        /// Drops what was read: only between frames, when no offset into the buffer is held.
        private func compact() {
            guard start > 1 << 16, start * 2 > buffer.count else { return }
            buffer.removeSubrange(0..<start)
            start = 0
        }

        func next() -> Frame {
            while true {
                compact()
                if resynchronising {
                    if let found = Reader.find(Reader.contentLength, in: buffer, from: start) {
                        start = found
                        scanned = 0
                        resynchronising = false
                    } else {
                        // Keep a tail that may be the start of the header.
                        start = max(start, buffer.count - Reader.contentLength.count)
                        if !fill() { return .end }
                        continue
                    }
                }
                guard let (headerEnd, bodyStart) = findHeaderEnd() else {
                    if buffer.count - start > Reader.maxHeader {
                        return malformed("\(Reader.maxHeader >> 10) KiB of input without the end of a header")
                    }
                    if !fill() {
                        if buffer.count > start { return malformed("input ended inside a header") }
                        return .end
                    }
                    continue
                }
                let length: Int
                switch Reader.contentLength(of: buffer[start..<headerEnd]) {
                case .failure(let why):
                    // Header lines with a bad value are skipped whole; a line that is not
                    // a header may have one inside it (after a body cut short).
                    return malformed(why.description, resumeAt: why.structural ? nil : bodyStart)
                case .success(let l): length = l
                }
                guard length <= JSONRPC.maxFrame else {
                    // No client sends this much (a document is at most 8 MiB): more
                    // likely a corrupt length, which would swallow what follows. The
                    // search for the next header skips a real one just the same.
                    return malformed("a Content-Length of \(length) bytes, more than the \(JSONRPC.maxFrame >> 20) MiB limit",
                                     resumeAt: bodyStart)
                }
                start = bodyStart
                scanned = 0
                while buffer.count - start < length {
                    if !fill() { return .end }
                }
                let body = Array(buffer[start..<(start + length)])
                start += length
                return .message(body)
            }
        }

        /// Reports malformed input at `start` and skips it: the search for the next
        /// header starts at `resumeAt`, else one byte on, so the bad header itself is not
        /// found again.
        private func malformed(_ why: String, resumeAt: Int? = nil) -> Frame {
            start = min(resumeAt ?? start + 1, buffer.count)
            scanned = 0
            resynchronising = true
            return .malformed(why)
        }

        /// Where the header at `start` ends (its empty line) and its body starts.
        private func findHeaderEnd() -> (Int, Int)? {
            var i = start + scanned
            while i < buffer.count {
                if buffer[i] == 0x0A {
                    // The line before ends at i; an empty line (or a lone CR) ends the header.
                    if i == start { return (start, i + 1) }
                    if buffer[i - 1] == 0x0A { return (i - 1, i + 1) }
                    if buffer[i - 1] == 0x0D && (i - 1 == start || buffer[i - 2] == 0x0A) { return (i - 1, i + 1) }
                }
                i += 1
            }
            scanned = max(0, buffer.count - start)
            return nil
        }

        static let contentLength = Array("content-length".utf8)

        /// The `Content-Length` a header block gives, or why it gives none.
        static func contentLength(of header: ArraySlice<UInt8>) -> Result<Int, HeaderError> {
            var length: Int?
            for rawLine in header.split(separator: 0x0A, omittingEmptySubsequences: true) {
                let line = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
                guard let colon = line.firstIndex(of: 0x3A) else {
                    return .failure(HeaderError("a header line without a colon", structural: true))
                }
                let name = line[line.startIndex..<colon]
                guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                    return .failure(HeaderError("a header name that is not a token", structural: true))
                }
                guard name.count == contentLength.count, zip(name, contentLength).allSatisfy({ lowercased($0) == $1 }) else {
                    continue  // Content-Type and others
                }
                let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                guard !value.isEmpty, value.count <= 10, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return .failure(HeaderError("a Content-Length that is not a decimal number"))
                }
                let parsed = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                if let length, length != parsed {
                    return .failure(HeaderError("two different Content-Length headers"))
                }
                length = parsed
            }
            guard let length else { return .failure(HeaderError("a header without Content-Length")) }
            return .success(length)
        }

        struct HeaderError: Error, CustomStringConvertible {
            let description: String
            /// Whether a line was not a header at all (rather than a header with a bad value).
            var structural = false
            init(_ description: String, structural: Bool = false) {
                self.description = description
                self.structural = structural
            }
        }

        /// RFC 9110's token characters.
        private static func isTokenByte(_ b: UInt8) -> Bool {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
            }
        }

        private static func lowercased(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

        /// Where `needle` (lowercase) starts in `haystack` at or after `from`, ignoring case.
        static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
            guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
            for i in from...(haystack.count - needle.count) where lowercased(haystack[i]) == needle[0] {
                var j = 1
                while j < needle.count && lowercased(haystack[i + j]) == needle[j] { j += 1 }
                if j == needle.count { return i }
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
        static let requestFailed = -32803
        static let requestCancelled = -32800
        static let invalidatedRequest = -32801
    }
}

/// `.object([...])` with less noise.
func obj(_ members: (String, JSONValue?)...) -> JSONValue {
    .object(members.compactMap { key, value in value.map { JSONMember(key, $0) } })
}
