/// A half-open range of UTF-8 byte offsets `[start, end)` into one source file.
///
/// Ranges are the only position type the compiler stores; line and column numbers are
/// derived from them by ``LineIndex`` when something is rendered for a person.
public struct SourceRange: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var start: UInt32
    public var end: UInt32

    @inlinable
    public init(start: UInt32, end: UInt32) {
        precondition(start <= end, "range start after end")
        self.start = start
        self.end = end
    }

    @inlinable
    public init(_ start: Int, _ end: Int) {
        self.init(start: UInt32(clamping: start), end: UInt32(clamping: max(start, end)))
    }

    /// An empty range at `offset`, used for "insert here" fix-its and missing tokens.
    @inlinable
    public static func empty(at offset: UInt32) -> SourceRange { SourceRange(start: offset, end: offset) }

    /// A range covering both operands.
    @inlinable
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }

    @inlinable public var isEmpty: Bool { start == end }
    @inlinable public var length: Int { Int(end - start) }
    @inlinable public func contains(_ offset: UInt32) -> Bool { offset >= start && offset < end }

    public static func < (lhs: SourceRange, rhs: SourceRange) -> Bool {
        lhs.start != rhs.start ? lhs.start < rhs.start : lhs.end < rhs.end
    }

    public var description: String { "\(start)..<\(end)" }
}

/// A source file: a display name and its raw bytes, which need not be valid UTF-8.
public struct SourceFile: Sendable {
    /// The path as the user gave it (relative paths stay relative so output is reproducible).
    public let name: String
    public let bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The text of `range`, with invalid UTF-8 repaired, for messages and dumps.
    public func text(_ range: SourceRange) -> String {
        let lower = min(Int(range.start), bytes.count)
        let upper = min(Int(range.end), bytes.count)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}

/// A 1-based line and column (in Unicode scalars) plus the 0-based byte offset.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(line):\(column)" }
}

/// Maps byte offsets to lines and columns. Built once per file, only when needed.
///
/// Line ends are LF, CRLF and CR, the same three the Language Server Protocol counts;
/// `Character.isNewline` would also count U+2028 and NEL, which editors do not.
public struct LineIndex: Sendable {
    /// The byte offset at which each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    public let bytes: [UInt8]
    /// Per line, whether it is all ASCII: a column there is its byte offset from the
    /// line's start, where counting scalars took each location time proportional to its
    /// column (a dump of a 730 KB line of 60,000 parameters: 28 s).
    private let asciiLines: [Bool]

    public init(_ file: SourceFile) { self.init(bytes: file.bytes) }

    public init(bytes: [UInt8]) {
        var starts = [0]
        var ascii: [Bool] = []
        var lineIsASCII = true
        for i in bytes.indices {
            if bytes[i] >= 0x80 { lineIsASCII = false }
            if LineIndex.endsLine(bytes, at: i) {
                starts.append(i + 1)
                ascii.append(lineIsASCII)
                lineIsASCII = true
            }
        }
        ascii.append(lineIsASCII)
        self.lineStarts = starts
        self.asciiLines = ascii
        self.bytes = bytes
    }

    /// Whether the byte at `i` ends a line: `\n`, or `\r` not followed by `\n` (so
    /// `\r\n` ends once, at its `\n`). The next line starts at `i + 1`.
    @inlinable
    public static func endsLine(_ bytes: [UInt8], at i: Int) -> Bool {
        let b = bytes[i]
        return b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A))
    }

    public var lineCount: Int { lineStarts.count }

    /// The 0-based line containing `offset` (offsets past the end map to the last line).
    public func lineNumber(ofOffset offset: Int) -> Int {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    public func location(of offset: UInt32) -> SourceLocation { location(of: Int(offset)) }

    public func location(of offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, bytes.count))
        let line = lineNumber(ofOffset: clamped)
        let start = lineStarts[line]
        let column = asciiLines[line] ? clamped - start : scalarCount(from: start, to: clamped)
        return SourceLocation(line: line + 1, column: column + 1, offset: clamped)
    }

    /// The bytes of 0-based line `line`, without its line end.
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        let range = lineByteRange(line)
        return bytes[range.lowerBound..<range.upperBound]
    }

    /// The byte range of 0-based line `line`, without its line end.
    public func lineByteRange(_ line: Int) -> Range<Int> {
        guard line >= 0, line < lineStarts.count else { return bytes.count..<bytes.count }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// Unicode scalars in `bytes[from..<to]`; an invalid byte counts as one.
    public func scalarCount(from: Int, to: Int) -> Int {
        var count = 0
        var i = from
        while i < to {
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }
}
