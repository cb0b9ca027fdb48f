import AnimcBase
import AnimcTestSupport
import Testing

/// `LineIndex.location(of:)` against a walk of the bytes from the file's start: lines
/// end at LF, CRLF (once) and a lone CR, and a column counts Unicode scalars. A line of
/// ASCII takes a shortcut (the column is the byte offset into it), so lines of ASCII,
/// of multi-byte UTF-8 and of invalid bytes are all mixed in.
@Suite struct LineIndexTests {
    static func walked(_ bytes: [UInt8], _ offset: Int) -> AnimcBase.SourceLocation {
        var line = 1, column = 1, i = 0
        while i < offset {
            let b = bytes[i]
            if b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b == 0x0D {
                // The CR of a CRLF: the LF after it ends the line.
                column += 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return AnimcBase.SourceLocation(line: line, column: column, offset: offset)
    }

    @Test func locationsAgreeWithAWalkOfTheBytes() {
        var rng = SplitMix64(seed: 2611)
        let pieces: [[UInt8]] = [Array("ab".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x0A], [0x0D],
                                 [0x0D, 0x0A], [0xFF], [0x80], Array(" = 1".utf8)]
        var compared = 0
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 40) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let index = LineIndex(bytes: bytes)
            for offset in 0...bytes.count {
                let expected = Self.walked(bytes, offset)
                let found = index.location(of: offset)
                #expect(found.line == expected.line && found.column == expected.column,
                        "\(bytes) at \(offset): \(found.line):\(found.column), walked \(expected.line):\(expected.column)")
                compared += 1
            }
        }
        #expect(compared > 3_000)
    }
}
