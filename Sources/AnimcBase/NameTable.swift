/// A map from names to values for the lookups a check makes for every name it meets:
/// scopes, the built-in tables, a layer's sublayers by name.
///
/// `Dictionary<String, _>` hashes each key with SipHash, seeded per process, which is
/// built to resist chosen collisions; for names a few bytes long its set-up and
/// finalisation are most of a lookup's cost. This table hashes with FNV-1a over the
/// UTF-8 bytes and keeps each slot's hash in a plain array, so a probe compares strings
/// only when the hashes agree. Open addressing, linear probing, at most half full. It
/// holds what a source file names, and a file whose names collide costs probes, never
/// wrong answers.
///
/// Insertion only (nothing a check builds removes a name), and entries are listed in
/// insertion order.
public struct NameTable<Value> {
    /// Per slot: the hash of the name there (never 0), or 0 for an empty slot.
    @usableFromInline var hashes: [UInt64] = []
    /// Per slot: where the name's entry is in `items`.
    @usableFromInline var positions: [Int32] = []
    /// The names and their values in insertion order, in one array: a table of a few
    /// names (most of them) is one allocation, not one for names and one for values.
    @usableFromInline var items: [Entry] = []

    @usableFromInline struct Entry {
        @usableFromInline var key: String
        @usableFromInline var value: Value
        @inlinable init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    @inlinable public init() {}

    @inlinable public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        for (key, value) in pairs { self[key] = value }
    }

    /// How many names the table holds.
    @inlinable public var count: Int { items.count }

    /// The value for `name`, or nil. Setting a value adds the name or replaces its
    /// value; setting nil is not supported and is ignored.
    @inlinable public subscript(name: String) -> Value? {
        get {
            guard let p = position(name) else { return nil }
            return items[p].value
        }
        set {
            guard let newValue else { return }
            // Hashed once, for the probe and for the slot: a new name was hashed twice.
            let h = hashes.isEmpty ? 0 : NameTable.hash(name)
            if let p = hashes.isEmpty ? position(name) : position(name, hash: h) {
                items[p].value = newValue
                return
            }
            items.append(Entry(key: name, value: newValue))
            if items.count > NameTable.linearLimit { index(items.count - 1, hash: h) }
        }
    }

    /// Where a name is in the table, if it is, and its hash (0 while the table is small
    /// enough to be searched in order): for a caller that adds a name only when it is
    /// absent, so that the name is hashed once for the search and the insertion.
    public struct Probe {
        @usableFromInline let position: Int?
        @usableFromInline let hash: UInt64

        @inlinable init(position: Int?, hash: UInt64) {
            self.position = position
            self.hash = hash
        }

        /// Whether the name was found.
        @inlinable public var found: Bool { position != nil }
    }

    /// Searches for `name` (see ``Probe``).
    @inlinable public func probe(_ name: String) -> Probe {
        if hashes.isEmpty { return Probe(position: position(name), hash: 0) }
        let h = NameTable.hash(name)
        return Probe(position: position(name, hash: h), hash: h)
    }

    /// The value `probe` found, if it found one.
    @inlinable public func value(at probe: Probe) -> Value? {
        guard let p = probe.position else { return nil }
        return items[p].value
    }

    /// Adds `name`, which `probe` (made by this table, with nothing added since) did not
    /// find, without searching for it again.
    @inlinable public mutating func insert(_ name: String, _ value: Value, absent probe: Probe) {
        precondition(probe.position == nil, "name table: inserting a name the probe found")
        items.append(Entry(key: name, value: value))
        // A hash of 0 says the name was not hashed, the table being small then: `index`
        // hashes every name when it builds the index.
        if items.count > NameTable.linearLimit { index(items.count - 1, hash: probe.hash) }
    }

    /// Up to this many names, a lookup compares them in order and nothing is hashed:
    /// most tables (a layer's sublayers and animations, a block's names) hold a few.
    @inlinable static var linearLimit: Int { 8 }

    /// Empties the table and keeps its list's storage, for a table refilled many times
    /// (a layer body's animation keys, one body after another).
    @inlinable public mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        if !hashes.isEmpty {
            hashes = []
            positions = []
        }
    }

    /// Where `name` is in the order names were added (0 for the first), or nil: for a
    /// table that runs beside a list filled in the same order.
    @inlinable public func ordinal(of name: String) -> Int? { position(name) }

    /// Every name and its value, in the order they were added.
    @inlinable public var entries: [(key: String, value: Value)] {
        items.map { (key: $0.key, value: $0.value) }
    }

    /// Changes every value in place, stopping at the first for which `body` returns
    /// false; returns whether none did.
    @inlinable public mutating func updateValues(_ body: (inout Value) -> Bool) -> Bool {
        for i in items.indices where !body(&items[i].value) { return false }
        return true
    }

    @inlinable func position(_ name: String) -> Int? {
        guard !hashes.isEmpty else {
            let length = name.utf8.count
            for p in items.indices where items[p].key.utf8.count == length && items[p].key == name { return p }
            return nil
        }
        return position(name, hash: NameTable.hash(name))
    }

    /// ``position(_:)`` in the hash index, `h` being the name's hash.
    @inlinable func position(_ name: String, hash h: UInt64) -> Int? {
        let mask = hashes.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let stored = hashes[i]
            if stored == 0 { return nil }
            if stored == h {
                let p = Int(positions[i])
                if items[p].key == name { return p }
            }
            i = (i + 1) & mask
        }
    }

    /// Adds the entry at `p` to the hash index, building or growing the index first
    /// when it would be more than half full. `h` is its name's hash, or 0 when the
    /// index was empty and the name is not hashed yet.
    @inlinable mutating func index(_ p: Int, hash h: UInt64) {
        if items.count * 2 > hashes.count {
            let size = Swift.max(32, hashes.count * 2)
            let oldHashes = hashes, oldPositions = positions
            hashes = [UInt64](repeating: 0, count: size)
            positions = [Int32](repeating: 0, count: size)
            if oldHashes.isEmpty {
                for q in items.indices { place(q, hash: NameTable.hash(items[q].key)) }
            } else {
                // Grown from the old slots' hashes: each name was hashed again.
                for i in oldHashes.indices where oldHashes[i] != 0 { place(Int(oldPositions[i]), hash: oldHashes[i]) }
                place(p, hash: h)
            }
        } else {
            place(p, hash: h)
        }
    }

    @inlinable mutating func place(_ p: Int, hash h: UInt64) {
        let mask = hashes.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while hashes[i] != 0 { i = (i + 1) & mask }
        hashes[i] = h
        positions[i] = Int32(truncatingIfNeeded: p)
    }

    @inlinable @inline(__always)
    static func hash(_ name: String) -> UInt64 { FNV1a.nameHash(name) }
}

/// FNV-1a, 64-bit: a byte at a time, for keys that are a few bytes long or hashed once
/// (names, a memo's item texts). Not resistant to chosen collisions; its users compare
/// the keys in full, so a collision costs a comparison, never a wrong answer.
public enum FNV1a {
    @inlinable @inline(__always)
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// A name's hash for an open-addressing table: FNV-1a over its UTF-8 bytes, with
    /// the high bits folded into the low ones that pick a slot. Never 0, which marks
    /// an empty slot: the top bit is set, not the lowest, which (set in every hash)
    /// left every other slot no name's first choice.
    @inlinable @inline(__always)
    public static func nameHash(_ name: String) -> UInt64 {
        let h = name.utf8.withContiguousStorageIfAvailable { hash($0) } ?? hash(name.utf8)
        return (h ^ (h >> 29) ^ (h >> 47)) | 1 << 63
    }
}

extension NameTable: Sendable where Value: Sendable {}
extension NameTable.Entry: Sendable where Value: Sendable {}
