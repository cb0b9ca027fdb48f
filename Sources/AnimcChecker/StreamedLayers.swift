import AnimcBase
import AnimcIR

/// The composition's layers as a check flattens them item by item, and the names of
/// the top-level ones among them, which later items may not take again (see
/// ``Checker/lowerFile()``).
///
/// A name is found through the list it indexes: a top-level layer's id is its name.
/// So the index holds no strings, only where each name's layer is and where the name
/// is written, 4 bytes a slot and 12 an entry. A ``NameTable`` of the same names (a
/// string, a range and a 12-byte hash slot or two each) took 55 bytes a layer at
/// 100,000 layers, and it is kept to the end of the lowering, the check's peak.
struct StreamedLayers {
    /// The layers flattened so far, parents before their sublayers.
    var layers: [Layer] = []
    /// Open addressing, linear probing, at most half full: 0 for an empty slot, else
    /// an entry's index + 1.
    private var slots: [UInt32] = []
    private var entries: [Entry] = []

    private struct Entry {
        /// Where the layer is in ``layers``.
        let layer: UInt32
        let nameRange: SourceRange
    }

    /// Makes room for `layers` layers, `names` of them at the top level.
    mutating func reserve(layers count: Int, names: Int) {
        layers.reserveCapacity(count)
        entries.reserveCapacity(names)
        if names * 2 > slots.count { resize(minimumSlots: names * 2) }
    }

    /// Where the flattened top-level layer called `name` is written, if there is one.
    func nameRange(of name: String) -> SourceRange? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = StreamedLayers.slot(name) & mask
        while slots[i] != 0 {
            let entry = entries[Int(slots[i] - 1)]
            if layers[Int(entry.layer)].id == name { return entry.nameRange }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Records that the top-level layer at `index` in ``layers``, which no earlier one
    /// shares a name with, is named where `nameRange` is.
    mutating func addName(ofLayerAt index: Int, nameRange: SourceRange) {
        entries.append(Entry(layer: UInt32(truncatingIfNeeded: index), nameRange: nameRange))
        if entries.count * 2 > slots.count {
            resize(minimumSlots: Swift.max(32, slots.count * 2))
        } else {
            place(entries.count - 1)
        }
    }

    /// Hands over the layers, leaving the index empty.
    mutating func takeLayers() -> [Layer] {
        var taken: [Layer] = []
        swap(&taken, &layers)
        self = StreamedLayers()
        return taken
    }

    private mutating func resize(minimumSlots: Int) {
        var size = 32
        while size < minimumSlots { size *= 2 }
        slots = [UInt32](repeating: 0, count: size)
        for e in entries.indices { place(e) }
    }

    private mutating func place(_ e: Int) {
        let mask = slots.count - 1
        var i = StreamedLayers.slot(layers[Int(entries[e].layer)].id) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = UInt32(truncatingIfNeeded: e + 1)
    }

    private static func slot(_ name: String) -> Int {
        var name = name
        let h = name.withUTF8 { FNV1a.hash($0) }
        return Int(truncatingIfNeeded: h ^ (h >> 29) ^ (h >> 47))
    }
}
