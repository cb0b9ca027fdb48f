/// CRC-32 as PNG and zlib's gzip use it (polynomial 0xEDB88320, reflected).
public struct CRC32: Sendable {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF
    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var c = state
        CRC32.table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        state = c
    }

    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// Adler-32, the checksum ending a zlib stream.
public struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0
    public init() {}

    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        // 5552 is the most bytes before b can overflow 32 bits (zlib's NMAX).
        while i < bytes.count {
            let end = min(i + 5552, bytes.count)
            while i < end {
                a &+= UInt32(bytes[i])
                b &+= a
                i += 1
            }
            a %= 65521
            b %= 65521
        }
    }

    public var value: UInt32 { (b << 16) | a }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        bytes.withUnsafeBufferPointer { adler.update($0) }
        return adler.value
    }
}
