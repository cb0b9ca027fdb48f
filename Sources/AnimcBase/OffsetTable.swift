/// A map from source offsets or ranges (packed into 64 bits) to values, for the
/// checker's per-site tables: a hover value per declaration, a flag per animation.
///
/// `Dictionary` hashes each key with SipHash, whose set-up and finalisation were most of
/// the cost of these lookups (every instance of a template asks several). Keys here are
/// offsets into one file, already well spread once multiplied by a Fibonacci constant, so
/// the table probes linearly from that product's top bits. Entries are kept in insertion
/// order; nothing is ever removed.
///
/// Inlinable, as ``NameTable`` is: unspecialised generic code across the module boundary
/// cost more than the hashing it saves.
public struct OffsetTable<Value> {
    /// The keys in insertion order, and their values in the same order.
    @inlinable public var keys: [UInt64] { storedKeys }
    @inlinable public var values: [Value] { storedValues }
    @usableFromInline var storedKeys: [UInt64] = []
    @usableFromInline var storedValues: [Value] = []
    /// One more than the entry's position, 0 for an empty slot; a power of two long.
    @usableFromInline var slots: [Int32] = []
    @usableFromInline var shift = 64

    @inlinable public init() {}

    @inlinable public var count: Int { storedKeys.count }
    @inlinable public var isEmpty: Bool { storedKeys.isEmpty }

    /// The key a range is stored under.
    @inline(__always)
    @inlinable public static func key(_ range: SourceRange) -> UInt64 { UInt64(range.start) << 32 | UInt64(range.end) }

    @inlinable @inline(__always)
    func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift)) }

    /// The position in ``keys`` and ``values`` of `key`, if present.
    @inlinable public func position(_ key: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = home(key)
        while true {
            let s = Int(slots[i])
            if s == 0 { return nil }
            if storedKeys[s - 1] == key { return s - 1 }
            i = (i + 1) & mask
        }
    }

    @inlinable public subscript(key: UInt64) -> Value? {
        guard let p = position(key) else { return nil }
        return storedValues[p]
    }

    @inlinable public subscript(range: SourceRange) -> Value? { self[OffsetTable.key(range)] }

    /// Sets the value of `key`, adding it when absent.
    @inlinable public mutating func set(_ key: UInt64, _ value: Value) {
        if let p = position(key) {
            storedValues[p] = value
            return
        }
        append(key, value)
    }

    @inlinable public mutating func set(_ range: SourceRange, _ value: Value) { set(OffsetTable.key(range), value) }

    /// Changes the value of `key` in place, starting from `initial` when absent.
    @inlinable public mutating func update(_ key: UInt64, initial: Value, _ change: (inout Value) -> Void) {
        if let p = position(key) {
            change(&storedValues[p])
            return
        }
        var v = initial
        change(&v)
        append(key, v)
    }

    /// Adds `key`, known to be absent, without probing for it again.
    @inlinable mutating func append(_ key: UInt64, _ value: Value) {
        // Grown at half full, so a probe meets an empty slot soon.
        if (storedKeys.count + 1) * 2 > slots.count { grow() }
        storedKeys.append(key)
        storedValues.append(value)
        insertSlot(key, Int32(storedKeys.count))
    }

    @inlinable mutating func insertSlot(_ key: UInt64, _ entry: Int32) {
        let mask = slots.count - 1
        var i = home(key)
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = entry
    }

    @usableFromInline mutating func grow() {
        let capacity = max(16, slots.count * 2)
        shift = 64 - capacity.trailingZeroBitCount
        slots = [Int32](repeating: 0, count: capacity)
        for (p, key) in storedKeys.enumerated() { insertSlot(key, Int32(p + 1)) }
    }
}
