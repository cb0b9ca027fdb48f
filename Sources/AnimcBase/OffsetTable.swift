/// A map from source offsets or ranges (packed into 64 bits) to values, for the
/// checker's per-site tables: a hover value per declaration, a flag per animation.
///
/// `Dictionary` hashes each key with SipHash, whose set-up and finalisation were most of
/// the cost of these lookups (every instance of a template asks several). Keys here are
/// offsets into one file, already well spread once multiplied by a Fibonacci constant, so
/// the table probes linearly from that product's top bits. Entries are kept in insertion
/// order; nothing is ever removed.
public struct OffsetTable<Value> {
    public private(set) var keys: [UInt64] = []
    public private(set) var values: [Value] = []
    /// One more than the entry's position, 0 for an empty slot; a power of two long.
    private var slots: [Int32] = []
    private var shift = 64

    public init() {}

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The key a range is stored under.
    @inline(__always)
    public static func key(_ range: SourceRange) -> UInt64 { UInt64(range.start) << 32 | UInt64(range.end) }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift)) }

    /// The position in ``keys`` and ``values`` of `key`, if present.
    public func position(_ key: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = home(key)
        while true {
            let s = Int(slots[i])
            if s == 0 { return nil }
            if keys[s - 1] == key { return s - 1 }
            i = (i + 1) & mask
        }
    }

    public subscript(key: UInt64) -> Value? {
        guard let p = position(key) else { return nil }
        return values[p]
    }

    public subscript(range: SourceRange) -> Value? { self[OffsetTable.key(range)] }

    /// Sets the value of `key`, adding it when absent.
    public mutating func set(_ key: UInt64, _ value: Value) {
        if let p = position(key) {
            values[p] = value
            return
        }
        // Grown at half full, so a probe meets an empty slot soon.
        if (keys.count + 1) * 2 > slots.count { grow() }
        keys.append(key)
        values.append(value)
        insertSlot(key, Int32(keys.count))
    }

    public mutating func set(_ range: SourceRange, _ value: Value) { set(OffsetTable.key(range), value) }

    /// Changes the value of `key` in place, starting from `initial` when absent.
    public mutating func update(_ key: UInt64, initial: Value, _ change: (inout Value) -> Void) {
        if let p = position(key) {
            change(&values[p])
            return
        }
        var v = initial
        change(&v)
        set(key, v)
    }

    private mutating func insertSlot(_ key: UInt64, _ entry: Int32) {
        let mask = slots.count - 1
        var i = home(key)
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = entry
    }

    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        shift = 64 - capacity.trailingZeroBitCount
        slots = [Int32](repeating: 0, count: capacity)
        for (p, key) in keys.enumerated() { insertSlot(key, Int32(p + 1)) }
    }
}
