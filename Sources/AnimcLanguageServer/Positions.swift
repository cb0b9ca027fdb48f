import AnimcBase

/// How LSP positions count characters within a line: negotiated at `initialize`
/// (`utf-8` when the client offers it, else the protocol's default, UTF-16).
enum PositionEncoding: String, Sendable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
}

/// Converts between byte offsets in a document and LSP `{line, character}` positions.
/// Lines end at `\n`, `\r\n` or `\r`, as the protocol and ``LineIndex`` count them.
struct PositionMap: Sendable {
    private(set) var bytes: [UInt8]
    let encoding: PositionEncoding
    private(set) var lineStarts: [Int]

    init(bytes: [UInt8], encoding: PositionEncoding) {
        self.bytes = bytes
        self.encoding = encoding
        lineStarts = LineIndex(bytes: bytes).lineStarts
    }

    /// Replaces `range` of the document with `text`, keeping the line starts as
    /// ``LineIndex`` would find them, without scanning the whole document: a change
    /// notification may carry thousands of edits (one per cursor), each in the
    /// coordinates the one before left, and building the map again for each took
    /// seconds for a large document.
    mutating func replace(_ range: Range<Int>, with text: [UInt8]) {
        let a = range.lowerBound, b = range.upperBound
        bytes.replaceSubrange(a..<b, with: text)
        // Whether byte i ends a line depends on it and the byte after it, so only bytes
        // a - 1 ..< a + text.count can change: the starts they give, a ... a + text.count,
        // replace the old ones in a ... b, and the starts after b move by the difference.
        let delta = text.count - (b - a)
        let first = firstStart(atLeast: max(a, 1)), past = firstStart(atLeast: b + 1)
        var fresh: [Int] = []
        for i in max(a - 1, 0)..<min(a + text.count, bytes.count) where LineIndex.endsLine(bytes, at: i) { fresh.append(i + 1) }
        if delta != 0 { for k in past..<lineStarts.count { lineStarts[k] += delta } }
        lineStarts.replaceSubrange(first..<past, with: fresh)
    }

    /// The index of the first line start at or after `offset`.
    private func firstStart(atLeast offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lineStarts[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The end of line `line`'s text (before its line end).
    func lineEnd(_ line: Int) -> Int {
        guard line + 1 < lineStarts.count else { return bytes.count }
        var end = lineStarts[line + 1]
        if end > lineStarts[line] && bytes[end - 1] == 0x0A { end -= 1 }
        if end > lineStarts[line] && bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The length of the UTF-8 sequence `b` starts (1 for a stray continuation byte).
    private static func sequenceLength(_ b: UInt8) -> Int {
        b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 1
    }

    func position(of offset: Int) -> (line: Int, character: Int) {
        let clamped = max(0, min(offset, bytes.count))
        let line = line(of: clamped)
        let start = lineStarts[line]
        switch encoding {
        case .utf8:
            return (line, clamped - start)
        case .utf16:
            var units = 0
            var i = start
            while i < clamped {
                let length = PositionMap.sequenceLength(bytes[i])
                units += length == 4 ? 2 : 1
                i += length
            }
            return (line, units)
        }
    }

    /// The byte offset of an LSP position; positions past a line's end clamp to it, as
    /// the protocol asks.
    func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        let start = lineStarts[line]
        let end = lineEnd(line)
        switch encoding {
        case .utf8:
            var o = min(start + max(0, character), end)
            // Never split a UTF-8 sequence.
            while o > start && o < bytes.count && bytes[o] & 0xC0 == 0x80 { o -= 1 }
            return o
        case .utf16:
            var units = 0
            var i = start
            while i < end && units < character {
                let length = PositionMap.sequenceLength(bytes[i])
                units += length == 4 ? 2 : 1
                i = min(i + length, end)
            }
            return i
        }
    }

    func json(_ offset: Int) -> JSONValue {
        let p = position(of: offset)
        return .object([JSONMember("line", .number(Double(p.line))), JSONMember("character", .number(Double(p.character)))])
    }

    func json(_ range: SourceRange) -> JSONValue {
        .object([JSONMember("start", json(Int(range.start))), JSONMember("end", json(Int(range.end)))])
    }

    /// A `Range` object of the protocol, as byte offsets.
    func range(_ value: JSONValue?) -> SourceRange? {
        guard let value, let start = value["start"], let end = value["end"],
              let a = offset(start), let b = offset(end) else { return nil }
        return SourceRange(start: UInt32(clamping: min(a, b)), end: UInt32(clamping: max(a, b)))
    }

    func offset(_ position: JSONValue?) -> Int? {
        guard let line = position?["line"]?.numberValue, let character = position?["character"]?.numberValue,
              line.isFinite, character.isFinite else { return nil }
        return offset(line: Int(saturating: line), character: Int(saturating: character))
    }
}
