import AnimcBase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A node as the parser passes it around while the arena is being built: its index
/// and range (the range is what the parser asks of a node most).
struct NodeRef {
    var id: UInt32
    var range: SourceRange
}

/// An identifier while parsing: its interned name and range, stored as three words.
struct NameRef {
    var name: UInt32
    var range: SourceRange
}

/// Builds a ``SyntaxArena``: nodes and their fields appended to flat arrays, names
/// interned, list children gathered on one shared stack.
struct SyntaxBuilder {
    private var nodes: PlainBuffer<SyntaxNode>
    private var kinds: PlainBuffer<NodeKind>
    private var extra: PlainBuffer<UInt32>
    private var numbers: [Double] = []
    private var strings: [String] = []
    var names = NameInterner()
    /// The layer declarations made, and whether any is a mask layer (see
    /// ``SyntaxArena/layerDeclarations``).
    var layerDeclarations: (count: Int, anyMask: Bool) = (0, false)
    /// Children of the lists being parsed, innermost list last: lists nest, and one
    /// stack serves them all without an array per list.
    private var pending = PlainBuffer<UInt32>(capacity: 64)

    init(expectedBytes: Int) {
        // Ordinary sources make a node per five bytes and a word of fields per two or
        // three; reserving that spares the copies a growing buffer makes.
        nodes = PlainBuffer(capacity: expectedBytes / 5 + 16)
        kinds = PlainBuffer(capacity: expectedBytes / 5 + 16)
        extra = PlainBuffer(capacity: expectedBytes / 2 + 16)
    }

    func tag(_ id: UInt32) -> NodeTag { kinds[Int(id)].tag }
    /// A leaf's payload (an identifier's interned name).
    func data(_ id: UInt32) -> UInt32 { nodes[Int(id)].data }
    func bits(_ id: UInt32) -> UInt8 { kinds[Int(id)].bits }
    func range(_ id: UInt32) -> SourceRange { SourceRange(start: nodes[Int(id)].start, end: nodes[Int(id)].end) }

    /// Widens or narrows a node's range once its extent is known (an item ends where
    /// the parser stopped reading it).
    mutating func setRange(_ id: UInt32, _ range: SourceRange) {
        nodes.base[Int(id)].start = range.start
        nodes.base[Int(id)].end = range.end
    }

    /// Fills in a field pushed before its value was known.
    mutating func setField(_ offset: UInt32, _ word: UInt32) { extra.base[Int(offset)] = word }

    // MARK: Nodes

    /// Appends a node whose `data` is a payload (or nothing).
    mutating func leaf(_ tag: NodeTag, _ range: SourceRange, bits: UInt8 = 0, data: UInt32 = 0) -> NodeRef {
        let id = UInt32(truncatingIfNeeded: nodes.count)
        nodes.append(SyntaxNode(start: range.start, end: range.end, data: data))
        kinds.append(NodeKind(tag: tag, bits: bits))
        return NodeRef(id: id, range: range)
    }

    /// Where the next node's fields will start in `extra`: call before pushing them,
    /// then pass it to ``node(_:_:bits:fields:)``.
    var fieldStart: UInt32 { UInt32(truncatingIfNeeded: extra.count) }

    /// Appends a node whose fields were pushed from `fields` on.
    mutating func node(_ tag: NodeTag, _ range: SourceRange, bits: UInt8 = 0, fields: UInt32) -> NodeRef {
        leaf(tag, range, bits: bits, data: fields)
    }

    /// Appends a node whose fields `fields` pushes: they start where `extra` ends now.
    mutating func node(_ tag: NodeTag, _ range: SourceRange, bits: UInt8 = 0,
                       _ fields: (inout SyntaxBuilder) -> Void) -> NodeRef {
        let start = fieldStart
        fields(&self)
        return node(tag, range, bits: bits, fields: start)
    }

    mutating func push(_ word: UInt32) { extra.append(word) }
    mutating func push(_ node: NodeRef) { extra.append(node.id) }
    mutating func push(_ node: NodeRef?) { extra.append(node?.id ?? SyntaxArena.none) }

    mutating func push(_ name: NameRef) {
        extra.append(name.name)
        extra.append(name.range.start)
        extra.append(name.range.end)
    }

    mutating func push(_ name: NameRef?) {
        if let name { push(name) } else {
            extra.append(SyntaxArena.none)
            extra.append(0)
            extra.append(0)
        }
    }

    // MARK: Lists

    /// Where a new list's children begin on the shared stack.
    var listMark: Int { pending.count }

    mutating func addToList(_ node: NodeRef) { pending.append(node.id) }

    /// How many children were added since `mark`.
    func listCount(since mark: Int) -> Int { pending.count - mark }

    /// The child added at `index` since `mark`.
    func listElement(_ index: Int, since mark: Int) -> UInt32 { pending[mark + index] }

    /// Drops the children added since `mark` from `count` on (recovery gives them back).
    mutating func truncateList(since mark: Int, to count: Int) { pending.removeLast(pending.count - (mark + count)) }

    /// Pushes the children added since `mark` as a list field (count, then indices) and
    /// takes them off the stack.
    mutating func pushList(since mark: Int) {
        extra.append(UInt32(truncatingIfNeeded: pending.count - mark))
        for k in mark..<pending.count { extra.append(pending[k]) }
        pending.removeLast(pending.count - mark)
    }

    /// Pushes an empty list field.
    mutating func pushEmptyList() { extra.append(0) }

    // MARK: Values

    mutating func number(_ value: Double, _ unit: NumberUnit?, _ range: SourceRange) -> NodeRef {
        let bits = unit?.code ?? 0
        // Whole numbers that fit in the node's payload need no slot of their own: most
        // literals in a file (coordinates, sizes, key times 0 and 1).
        if value.sign == .plus, let small = UInt32(exactly: value) {
            return leaf(.smallNumber, range, bits: bits, data: small)
        }
        // Most other literals are a few decimal places (0.5, 0.25, 1.75): their digits
        // fit the payload too, kept only when they give the value back bit for bit.
        if value.sign == .plus, value < 4_294_967_295 {
            var power = 1.0
            for e in UInt8(1)...9 {
                power *= 10
                let scaled = (value * power).rounded()
                guard scaled <= 4_294_967_295 else { break }
                let digits = UInt32(scaled)
                if SyntaxArena.decimal(digits, bits | e << 4).bitPattern == value.bitPattern {
                    return leaf(.number, range, bits: bits | e << 4, data: digits)
                }
            }
        }
        numbers.append(value)
        return leaf(.number, range, bits: bits, data: UInt32(truncatingIfNeeded: numbers.count - 1))
    }

    mutating func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double, _ range: SourceRange) -> NodeRef {
        let index = UInt32(truncatingIfNeeded: numbers.count)
        numbers.append(r)
        numbers.append(g)
        numbers.append(b)
        numbers.append(a)
        return leaf(.color, range, data: index)
    }

    mutating func string(_ value: String, _ range: SourceRange) -> NodeRef {
        strings.append(value)
        return leaf(.string, range, data: UInt32(truncatingIfNeeded: strings.count - 1))
    }

    /// The arena, once every node is in. The builder is spent: the arena owns its buffers.
    mutating func finish() -> SyntaxArena {
        pending.deallocate()
        return SyntaxArena(nodes: nodes.take(), kinds: kinds.take(), extra: extra.take(), names: names.strings, numbers: numbers,
                           strings: strings, layerDeclarations: layerDeclarations)
    }
}

/// A growable buffer of plain values (no references to count): appending is a capacity
/// check and a store, where an array's append also asks the runtime whether its storage
/// is shared. Owned by one builder; ``take()`` hands the storage on, to be let go with
/// ``release(_:)``.
///
/// The storage comes from `malloc` and changes size with `realloc`, not `allocate`: a
/// large block then grows, or shrinks to its exact size at the end, with its pages
/// moved rather than copied, where a new block held the old and the new copies
/// together (at the parse's peak, beside every token).
struct PlainBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = PlainBuffer.resize(nil, to: self.capacity)
    }

    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "plain buffer index out of range")
        return base[index]
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func removeLast(_ n: Int) {
        precondition(n >= 0 && n <= count, "plain buffer has fewer elements")
        count -= n
    }

    @inline(never)
    private mutating func grow() {
        base = PlainBuffer.resize(base, to: capacity * 2)
        capacity *= 2
    }

    /// The elements, in storage the caller now owns, at their exact size unless the
    /// slack is under a sixty-fourth: an arena keeps no reserve it did not use (the
    /// node buffer's, sized from the source, was up to a quarter too large), and
    /// `realloc` shrinks a block where it is, without a copy.
    mutating func take() -> UnsafeBufferPointer<Element> {
        if capacity - count > capacity / 64 {
            capacity = max(count, 1)
            base = PlainBuffer.resize(base, to: capacity)
        }
        return UnsafeBufferPointer(start: base, count: count)
    }

    func deallocate() { free(base) }

    /// Lets go of storage that ``take()`` handed on.
    static func release(_ storage: UnsafeBufferPointer<Element>) {
        free(UnsafeMutableRawPointer(mutating: storage.baseAddress))
    }

    /// `block` (nil for a new one) resized to `count` elements, its contents kept.
    private static func resize(_ block: UnsafeMutablePointer<Element>?, to count: Int) -> UnsafeMutablePointer<Element> {
        // malloc's blocks are aligned for any plain value; the elements here need 4 bytes.
        let bytes = max(count, 1) * MemoryLayout<Element>.stride
        // As `allocate` does, a failed allocation stops the process: there is no tree
        // to give without the memory for it.
        guard let raw = realloc(block, bytes) else { preconditionFailure("out of memory for \(bytes) bytes of syntax tree") }
        return raw.bindMemory(to: Element.self, capacity: max(count, 1))
    }
}

/// Interns names: each distinct name is one `String`, and every identifier refers to it
/// by index. Keyed by the name's UTF-8 bytes (after repairing invalid UTF-8, so two
/// spellings that read the same are one name), hashed with FNV-1a into an open
/// addressing table that is at most half full.
struct NameInterner {
    private(set) var strings: [String] = []
    /// Every name's bytes, one after the other; name `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
    private var bytes: [UInt8] = []
    private var offsets: [UInt32] = [0]
    /// Per slot: 0 when empty, else the name's index plus one.
    private var slots: [UInt32] = Array(repeating: 0, count: 64)
    /// Per slot: the hash of the name there, so a probe compares bytes only when the
    /// hashes agree.
    private var hashes: [UInt32] = Array(repeating: 0, count: 64)

    /// The name spelled by `source[range]` (bytes that need not be valid UTF-8).
    mutating func intern(_ source: [UInt8], _ range: SourceRange) -> UInt32 {
        let lower = min(Int(range.start), source.count), upper = min(Int(range.end), source.count)
        var ascii = true
        for k in lower..<upper where source[k] >= 0x80 { ascii = false; break }
        if ascii {
            return source.withUnsafeBufferPointer { intern(UnsafeBufferPointer(rebasing: $0[lower..<upper])) }
        }
        return intern(String(decoding: source[lower..<upper], as: UTF8.self))
    }

    mutating func intern(_ name: String) -> UInt32 {
        var copy = name
        return copy.withUTF8 { intern($0) }
    }

    /// The index of `name`'s bytes (valid UTF-8), adding it when new.
    mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for b in name { hash = (hash ^ UInt32(b)) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if hashes[slot] == hash {
                let index = Int(slots[slot] - 1)
                let start = Int(offsets[index]), end = Int(offsets[index + 1])
                if end - start == name.count && bytes.withUnsafeBufferPointer({ stored in
                    name.isEmpty || memcmp(stored.baseAddress! + start, name.baseAddress!, name.count) == 0
                }) {
                    return UInt32(truncatingIfNeeded: index)
                }
            }
            slot = (slot + 1) & mask
        }
        let index = UInt32(truncatingIfNeeded: strings.count)
        strings.append(String(decoding: name, as: UTF8.self))
        bytes.append(contentsOf: name)
        offsets.append(UInt32(truncatingIfNeeded: bytes.count))
        slots[slot] = index + 1
        hashes[slot] = hash
        if strings.count * 2 > slots.count { grow() }
        return index
    }

    func string(_ index: UInt32) -> String { strings[Int(index)] }

    @inline(never)
    private mutating func grow() {
        let capacity = slots.count * 2
        var newSlots = [UInt32](repeating: 0, count: capacity)
        var newHashes = [UInt32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for s in slots.indices where slots[s] != 0 {
            var slot = Int(hashes[s]) & mask
            while newSlots[slot] != 0 { slot = (slot + 1) & mask }
            newSlots[slot] = slots[s]
            newHashes[slot] = hashes[s]
        }
        slots = newSlots
        hashes = newHashes
    }
}
