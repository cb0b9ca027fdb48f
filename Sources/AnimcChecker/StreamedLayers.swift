import AnimcBase
import AnimcIR

/// The composition's layers as a check flattens them item by item, and the names of
/// the top-level ones among them, which later items may not take again (see
/// ``Checker/lowerFile()``).
///
/// A name is found through the list it indexes: a top-level layer's id is its name.
/// So the index holds no strings, only where each name's layer is and where the name
/// is written, 4 bytes a slot and 12 an entry. A slot keeps 12 bits of its name's hash
/// beside the entry, so that a search reads an entry and a layer (two cache misses in
/// a large file) only for a name that likely matches. A ``NameTable`` of the same names (a
/// string, a range and a 12-byte hash slot or two each) took 55 bytes a layer at
/// 100,000 layers, and it is kept to the end of the lowering, the check's peak.
///
/// A class, as the checker's other containers are: every layer made asks it, and a
/// struct in the checker was copied out for each question, its three lists retained.
final class StreamedLayers {
    // Unchecked for the reason given on ``Checker``'s containers.
    /// The layers flattened so far, parents before their sublayers.
    @exclusivity(unchecked) var layers: [Layer] = []
    /// Open addressing, linear probing, at most half full: 0 for an empty slot, else
    /// 12 bits of the name's hash above an entry's index + 1 (20 bits: a check makes
    /// at most 250,000 layers, see ``ExpansionLimits/maxLayers``).
    @exclusivity(unchecked) private var slots: [UInt32] = []
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// The node whose children are the top-level layers, once streaming begins.
    private var root: ObjectIdentifier?

    private struct Entry {
        /// Where the layer is in ``layers``.
        let layer: UInt32
        let nameRange: SourceRange
    }

    /// Begins streaming the children of `root`, making room for `layers` layers,
    /// `names` of them at the top level.
    func begin(root node: LayerNode, layers count: Int, names: Int) {
        root = ObjectIdentifier(node)
        layers.reserveCapacity(count)
        entries.reserveCapacity(names)
        if names * 2 > slots.count { resize(minimumSlots: names * 2) }
    }

    /// Where the flattened top-level layer called `name` is written, if there is one
    /// and `parent` is the top level. (Asked for every layer made: an identity compare
    /// before anything, where reading `parent.parent` retained it.)
    func nameRange(of name: String, under parent: LayerNode) -> SourceRange? {
        guard ObjectIdentifier(parent) == root, !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let h = FNV1a.nameHash(name)
        var i = Int(truncatingIfNeeded: h) & mask
        let tag = StreamedLayers.tag(h)
        while slots[i] != 0 {
            if slots[i] & ~StreamedLayers.entryMask == tag {
                let entry = entries[Int(slots[i] & StreamedLayers.entryMask) - 1]
                if layers[Int(entry.layer)].id == name { return entry.nameRange }
            }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Records that the top-level layer at `index` in ``layers``, which no earlier one
    /// shares a name with, is named where `nameRange` is.
    func addName(ofLayerAt index: Int, nameRange: SourceRange) {
        entries.append(Entry(layer: UInt32(truncatingIfNeeded: index), nameRange: nameRange))
        if entries.count * 2 > slots.count {
            resize(minimumSlots: Swift.max(32, slots.count * 2))
        } else {
            place(entries.count - 1)
        }
    }

    /// Hands over the layers, and lets go of the index.
    func takeLayers() -> [Layer] {
        var taken: [Layer] = []
        swap(&taken, &layers)
        slots = []
        entries = []
        root = nil
        return taken
    }

    private func resize(minimumSlots: Int) {
        var size = 32
        while size < minimumSlots { size *= 2 }
        slots = [UInt32](repeating: 0, count: size)
        for e in entries.indices { place(e) }
    }

    private func place(_ e: Int) {
        assert(e + 1 <= Int(StreamedLayers.entryMask), "more top-level layers than a slot can index")
        let mask = slots.count - 1
        let h = FNV1a.nameHash(layers[Int(entries[e].layer)].id)
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = StreamedLayers.tag(h) | UInt32(truncatingIfNeeded: e + 1)
    }

    private static let entryMask: UInt32 = (1 << 20) - 1

    /// Bits of the hash that the slot's position does not use (the table has fewer
    /// than 2³² slots), in the slot's top 12.
    private static func tag(_ h: UInt64) -> UInt32 { (UInt32(truncatingIfNeeded: h >> 32) & 0xFFF) << 20 }
}
