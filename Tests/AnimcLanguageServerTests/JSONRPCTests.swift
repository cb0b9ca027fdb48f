import AnimcBase
@testable import AnimcLanguageServer
import Testing

/// The base protocol's framing: every well-formed message is read whole, whatever the
/// headers beside `Content-Length` and however the bytes are split; one bad frame is
/// reported once and the reader finds the next message.
@Suite struct JSONRPCTests {
    /// Bytes handed out in the chunk sizes given (cycled), as pipes do.
    final class Chunks {
        let bytes: [UInt8]
        var sizes: [Int]
        var offset = 0
        var turn = 0
        init(_ bytes: [UInt8], sizes: [Int]) {
            self.bytes = bytes
            self.sizes = sizes
        }
        func read(into buffer: inout [UInt8]) -> Int {
            guard offset < bytes.count else { return 0 }
            let n = min(sizes[turn % sizes.count], bytes.count - offset)
            turn += 1
            buffer += bytes[offset..<(offset + n)]
            offset += n
            return n
        }
    }

    static func frames(_ bytes: [UInt8], sizes: [Int]) -> [JSONRPC.Frame] {
        let chunks = Chunks(bytes, sizes: sizes)
        let reader = JSONRPC.Reader { chunks.read(into: &$0) }
        var out: [JSONRPC.Frame] = []
        while true {
            let f = reader.next()
            if f == .end { return out }
            out.append(f)
            if out.count > 100_000 { return out }
        }
    }

    static func frame(_ body: String, headers: String = "") -> [UInt8] {
        Array("\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    static func message(_ i: Int, padding: Int = 0) -> String {
        #"{"jsonrpc":"2.0","method":"m","params":{"i":\#(i),"pad":"\#(String(repeating: "x", count: padding))"}}"#
    }

    @Test func contentTypeAndOtherHeadersAreAllowed() {
        let body = Self.message(1)
        var bytes = Self.frame(body, headers: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
        bytes += Array("content-length: \(body.utf8.count)\r\nX-Other:  yes \r\n\r\n\(body)".utf8)
        bytes += Array("Content-Length: \(body.utf8.count)\n\n\(body)".utf8)  // LF alone
        #expect(Self.frames(bytes, sizes: [1 << 16]) == Array(repeating: .message(Array(body.utf8)), count: 3))
    }

    /// A megabyte of messages in one burst, cut at random places (and at the reader's
    /// 64 KiB boundaries): every message comes out whole and in order.
    @Test(arguments: [[1 << 16], [1], [7, 4093, 65_536, 3], [1 << 20], [65_535, 65_537]])
    func burstsSplitAnywhereComeOutWhole(_ sizes: [Int]) {
        var bytes: [UInt8] = []
        var bodies: [String] = []
        var i = 0
        while bytes.count < 1 << 20 {
            let body = Self.message(i, padding: (i * 7919) % 3000)
            bodies.append(body)
            bytes += Self.frame(body)
            i += 1
        }
        let frames = Self.frames(bytes, sizes: sizes.count == 1 && sizes[0] == 1 ? [1] : sizes)
        #expect(frames == bodies.map { .message(Array($0.utf8)) })
    }

    @Test func randomSplitPointsNeverLoseAMessage() {
        var generator = SplitMix(seed: 42)
        for _ in 0..<20 {
            var bytes: [UInt8] = []
            var bodies: [String] = []
            for i in 0..<200 {
                let body = Self.message(i, padding: Int(generator.next() % 2000))
                bodies.append(body)
                bytes += Self.frame(body)
            }
            let sizes = (0..<50).map { _ in 1 + Int(generator.next() % 100_000) }
            #expect(Self.frames(bytes, sizes: sizes) == bodies.map { .message(Array($0.utf8)) })
        }
    }

    /// After each kind of bad frame, the next good message is read: one report each.
    @Test(arguments: ["Content-Length: -5\r\n\r\n{}", "Content-Length: 0x2\r\n\r\n{}", "Content-Type: x\r\n\r\n{}",
                      "Content-Length: 5\r\nContent-Length: 7\r\n\r\n{}", "garbage without a colon\r\n\r\n",
                      "Content-Length: 99999999999\r\n\r\n", "{\"jsonrpc\":\"2.0\"}\r\n\r\n", "Content-Length: \r\n\r\n"])
    func aBadFrameIsReportedOnceAndSkipped(_ bad: String) {
        let before = Self.message(1), after = Self.message(2)
        let bytes = Self.frame(before) + Array(bad.utf8) + Self.frame(after) + Self.frame(after)
        for sizes in [[1 << 16], [1], [3, 5]] {
            let frames = Self.frames(bytes, sizes: sizes)
            #expect(frames.first == .message(Array(before.utf8)))
            #expect(frames.filter { if case .malformed = $0 { true } else { false } }.count == 1, "\(bad): \(frames)")
            #expect(frames.suffix(2) == [.message(Array(after.utf8)), .message(Array(after.utf8))], "\(bad)")
        }
    }

    /// A length too short makes the next header start inside the body: the reader finds
    /// the header after it.
    @Test func aWrongLengthResynchronises() {
        let body = Self.message(1), next = Self.message(2)
        let bytes = Array("Content-Length: 10\r\n\r\n\(body)".utf8) + Self.frame(next)
        let frames = Self.frames(bytes, sizes: [1 << 16])
        #expect(frames.last == .message(Array(next.utf8)))
        #expect(frames.count <= 3)
    }

    @Test func endOfInputInsideAMessageEnds() {
        #expect(Self.frames(Array("Content-Length: 100\r\n\r\n{\"a\":".utf8), sizes: [8]) == [])
        #expect(Self.frames(Array("Content-Len".utf8), sizes: [8]).allSatisfy { if case .malformed = $0 { true } else { false } })
    }
}

/// A small deterministic generator for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
