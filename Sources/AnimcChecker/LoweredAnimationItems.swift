import AnimcBase
import AnimcSyntax

/// The animation items a check has lowered, by node, and by range once asked: the rules
/// read an animation's body (for fix-its that add attributes) and the range naming it
/// from its item, but only for a message.
///
/// A table by range for every item lowered (a key, a value and a slot or two each) was
/// 22 bytes a layer of a file of plain layers at the check's peak, for the few that
/// are ever reported. Here a bit per node of the tree says which items were lowered,
/// and a list holds those not yet in the table; the table is filled from the list when
/// first asked, and again whenever more were lowered since.
final class LoweredAnimationItems {
    // Unchecked for the reason given on ``Checker``'s containers.
    @exclusivity(unchecked) private var lowered: [UInt64]
    @exclusivity(unchecked) private var pending: [UInt32] = []
    @exclusivity(unchecked) private var byRange = OffsetTable<UInt32>()
    private let arena: SyntaxArena

    init(_ arena: SyntaxArena) {
        self.arena = arena
        lowered = [UInt64](repeating: 0, count: (arena.nodeCount + 63) / 64)
    }

    /// Records `item` as lowered; whether it was not before in this check.
    func insert(_ item: Item) -> Bool {
        let word = Int(item.id / 64), bit = UInt64(1) << UInt64(item.id % 64)
        guard lowered[word] & bit == 0 else { return false }
        lowered[word] |= bit
        pending.append(item.id)
        return true
    }

    /// The item lowered at `range`, if any.
    subscript(range: SourceRange) -> Item? {
        if !pending.isEmpty {
            for id in pending { byRange.set(OffsetTable<UInt32>.key(Item.make(arena, id).range), id) }
            pending.removeAll()
        }
        return byRange[range].map { Item.make(arena, $0) }
    }
}
