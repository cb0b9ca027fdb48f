/// The one number printer behind every output: the shortest decimal that reads back
/// as the same `Double` (Swift's `description` is shortest-round-trip), with the
/// integral `.0` dropped and negative zero printed as `0`, so equal values always
/// print as equal bytes.
///
/// Non-finite values print as `.anim` spells them (`inf`, `-inf`, `nan`), for messages
/// and fix-its. They have no JSON spelling: ``appendNumber(_:to:)``, the JSON writers'
/// printer, writes `null` so that a bug can never produce an unparsable file.
public func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// Appends ``formatNumber(_:)`` of `value` to `out` without an intermediate allocation
/// for the common integral case.
@inlinable
public func appendNumber(_ value: Double, to out: inout [UInt8]) {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        if value == 0 { out.append(0x30); return }
        var n = Int64(value)
        if n < 0 { out.append(0x2D); n = -n }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while n > 0 {
                buffer[count] = UInt8(truncatingIfNeeded: n % 10) + 0x30
                n /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
        return
    }
    out.append(contentsOf: (value.isFinite ? formatNumber(value) : "null").utf8)
}
