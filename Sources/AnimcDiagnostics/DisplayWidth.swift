import AnimcBase

/// Terminal cells a scalar occupies: 0 for combining marks and zero-width joiners, 2 for
/// East Asian wide and most emoji, 1 otherwise. A small table, not full UAX #11: it is
/// only used to place carets under the right characters.
func displayWidth(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    switch v {
    case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
         0x200B...0x200F, 0xFE00...0xFE0F:
        return 0
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
         0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
         0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF, 0x1FA70...0x1FAFF,
         0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}

/// A source line prepared for display: printable text plus the display column at
/// which each byte starts, so byte ranges map to caret positions.
struct DisplayLine {
    var text: String
    /// `columns[k]` is the display column of byte `k` of the line; one extra entry
    /// for the end of the line.
    var columns: [Int]

    /// Tabs become four spaces and unprintable or invalid bytes become U+FFFD, so the
    /// caret line always lines up with what was printed.
    init(_ bytes: ArraySlice<UInt8>) {
        var text = ""
        var columns: [Int] = []
        columns.reserveCapacity(bytes.count + 1)
        var col = 0
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let (scalar, length) = decodeScalar(bytes, at: i)
            for _ in 0..<length { columns.append(col) }
            if let s = scalar, s == "\t" {
                text += "    "; col += 4
            } else if let s = scalar, s.value >= 0x20, s.value != 0x7F, !(0x80...0x9F).contains(s.value) {
                text.unicodeScalars.append(s); col += displayWidth(s)
            } else {
                text += "\u{FFFD}"; col += 1
            }
            i += length
        }
        columns.append(col)
        self.text = text
        self.columns = columns
    }

    func column(ofByte k: Int) -> Int { columns[max(0, min(k, columns.count - 1))] }

    /// The display width of the whole line.
    var width: Int { columns.last ?? 0 }

    /// The line cut to at most `limit` display columns around column `focus`, with
    /// "..." where text was cut, and the number of columns to subtract from a column of
    /// the full line to place it under the clipped text. One diagnostic on a 50 KB line
    /// must not print 50 KB, let alone once per diagnostic.
    func clipped(around focus: Int, limit: Int) -> (text: String, shift: Int) {
        guard width > limit else { return (text, 0) }
        let ellipsis = "..."
        let context = limit / 4
        var start = max(0, min(focus - context, width - (limit - ellipsis.count)))
        if start <= ellipsis.count { start = 0 }
        let prefix = start > 0 ? ellipsis : ""
        let room = limit - prefix.count
        let end = start + room >= width ? width : start + room - ellipsis.count
        var out = prefix
        var col = 0
        for scalar in text.unicodeScalars {
            let w = displayWidth(scalar)
            if col >= start && col + w <= end { out.unicodeScalars.append(scalar) }
            col += w
            if col >= end { break }
        }
        if end < width { out += ellipsis }
        return (out, start - prefix.count)
    }
}

/// Decodes one UTF-8 scalar at `i`; an invalid sequence yields `nil` and length 1.
func decodeScalar(_ bytes: ArraySlice<UInt8>, at i: Int) -> (Unicode.Scalar?, Int) {
    let b0 = bytes[i]
    if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
    let length: Int
    var value: UInt32
    switch b0 {
    case 0xC2...0xDF: length = 2; value = UInt32(b0 & 0x1F)
    case 0xE0...0xEF: length = 3; value = UInt32(b0 & 0x0F)
    case 0xF0...0xF4: length = 4; value = UInt32(b0 & 0x07)
    default: return (nil, 1)
    }
    guard i + length <= bytes.endIndex else { return (nil, 1) }
    for k in 1..<length {
        let b = bytes[i + k]
        guard b & 0xC0 == 0x80 else { return (nil, 1) }
        value = value << 6 | UInt32(b & 0x3F)
    }
    let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
    return (scalar, length)
}
