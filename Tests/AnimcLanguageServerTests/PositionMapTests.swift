@testable import AnimcLanguageServer
import AnimcTestSupport
import Testing

/// Editing a ``PositionMap`` in place keeps the line starts a fresh map of the edited
/// text finds, whatever the edit does to `\r`, `\n` and `\r\n` at its edges.
@Suite struct PositionMapTests {
    @Test func editsInPlaceMatchAFreshMap() {
        var rng = SplitMix64(seed: 0x11E5)
        // Line ends of every kind, pieces of pairs, and text around them.
        let pieces: [[UInt8]] = [[0x0D], [0x0A], [0x0D, 0x0A], [0x61], [0x62, 0x63], Array("é".utf8), []]
        for _ in 0..<300 {
            var text: [UInt8] = []
            for _ in 0..<Int(rng.next() % 12) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            var map = PositionMap(bytes: text, encoding: .utf8)
            for _ in 0..<20 {
                let a = text.isEmpty ? 0 : Int(rng.next() % UInt64(text.count + 1))
                let b = a + Int(rng.next() % UInt64(text.count - a + 1))
                var insert: [UInt8] = []
                for _ in 0..<Int(rng.next() % 3) { insert += pieces[Int(rng.next() % UInt64(pieces.count))] }
                text.replaceSubrange(a..<b, with: insert)
                map.replace(a..<b, with: insert)
                let fresh = PositionMap(bytes: text, encoding: .utf8)
                #expect(map.bytes == text)
                #expect(map.lineStarts == fresh.lineStarts, "\(text) after replacing \(a)..<\(b) with \(insert)")
                if map.lineStarts != fresh.lineStarts { return }
            }
        }
    }
}
