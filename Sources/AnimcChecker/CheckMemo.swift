import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

/// What one check of a document leaves for the next check of an edited version: the
/// output of each top-level layer, instance, `for` and `if` (``ItemOutput``), with the
/// text of everything it read.
///
/// An editor checks the whole file on every keystroke, and most top-level items did
/// not change. An item is replayed when its text is byte for byte the same and so is the
/// text of every top-level declaration it read (found or not, directly or through other
/// declarations): its output, moved to where the texts now sit, is merged instead of
/// lowering the item again. The result is the same as a check without a memo; an output
/// that read something it cannot vouch for says so (``NotReplayable``) and the item is
/// lowered again.
///
/// This is the checker's one cache, and its one seam is ``Checker/lowerTopLevel(_:_:)``:
/// nothing else knows whether an item was lowered or replayed.
///
/// A memo belongs to one document and one caller at a time.
public final class CheckMemo: @unchecked Sendable {
    /// The records of the last check, by item text.
    var records: [ItemText: [ItemRecord]] = [:]
    /// The records of the check in progress.
    var next: [ItemText: [ItemRecord]] = [:]
    /// Per item text, how many of its records the check in progress has tried: items of
    /// the same text take the records in turn, each tried at most once per check.
    var cursor: [ItemText: Int] = [:]
    /// The top-level names, in order, of the last check.
    var everyName: [String] = []

    /// How many top-level items the last check replayed, lowered, and tried to replay.
    public private(set) var reused = 0
    public private(set) var lowered = 0
    public private(set) var attempted = 0
    var reusedNow = 0, loweredNow = 0, attemptedNow = 0
    /// Why records the last check tried could not be replayed, and why items it lowered
    /// were not kept, by reason (``NotReplayable``'s raw values).
    public private(set) var refusals: [String: Int] = [:]
    public private(set) var unkept: [String: Int] = [:]
    var refusalsNow: [String: Int] = [:], unkeptNow: [String: Int] = [:]

    /// What identified the imported files' contents at the last check.
    var importsFingerprint: [String] = []

    public init() {}

    /// Starts a check of a file whose imports are identified by `fingerprint`: the
    /// records stand only for the same imported files, whose declarations items read
    /// (by the import's text, which does not change when the imported file does).
    func begin(importing fingerprint: [String]) {
        guard fingerprint != importsFingerprint else { return }
        records = [:]
        importsFingerprint = fingerprint
    }

    func finish(topLevelNames: [String]) {
        everyName = topLevelNames
        records = next
        next = [:]
        cursor = [:]
        (reused, lowered, attempted, refusals, unkept) = (reusedNow, loweredNow, attemptedNow, refusalsNow, unkeptNow)
        (reusedNow, loweredNow, attemptedNow, refusalsNow, unkeptNow) = (0, 0, 0, [:], [:])
    }

    /// Ends a cancelled check. Its records (replayed, and lowered to the end) stand for
    /// texts as valid as any; the last check's records it did not try are kept beside
    /// them; those it tried without replaying them are dropped, as a finished check drops
    /// them (a failed replay may have moved part of one). The statistics stay the last
    /// finished check's.
    func abandon() {
        var kept = next
        for (text, list) in records {
            let tried = cursor[text] ?? 0
            if tried < list.count { kept[text, default: []] += list[tried...] }
        }
        records = kept
        next = [:]
        cursor = [:]
        (reusedNow, loweredNow, attemptedNow, refusalsNow, unkeptNow) = (0, 0, 0, [:], [:])
    }
}

/// A top-level item's text, the memo's key. Hashed as one block of bytes: an array of
/// bytes hashes byte by byte, which was 2% of a re-check in the language server.
struct ItemText: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// One item's output, kept for later checks, with what it read. A replay moves its
/// ranges, in place, to where the texts now sit: the record then describes the new
/// check, and the next edit moves it again.
final class ItemRecord {
    struct Dependency {
        let name: String
        /// The declaration's text and where it starts, or nil for a name that was not declared.
        var declaration: (text: [UInt8], start: UInt32)?
    }

    var start: UInt32
    let length: UInt32
    var dependencies: [Dependency]
    /// Whether a suggestion read the list of every top-level name.
    let readsEveryName: Bool
    /// Whether the item's animations were registered for references.
    let registered: Bool
    var output: ItemOutput

    init(start: UInt32, length: UInt32, dependencies: [Dependency], readsEveryName: Bool, registered: Bool, output: ItemOutput) {
        self.start = start
        self.length = length
        self.dependencies = dependencies
        self.readsEveryName = readsEveryName
        self.registered = registered
        self.output = output
    }
}

/// The names read on the top-level scope while an item is lowered: one frame for the
/// item, and one more for each top-level declaration being evaluated inside it. Each
/// frame keeps only the names read directly; what an item depends on is their closure
/// (``Checker/dependencyClosure(_:)``), so a chain of declarations costs its length.
final class DependencyLog {
    /// Stands for "every top-level name": a suggestion read the whole list.
    static let everyName = "*"
    private var frames: [Set<String>] = [[]]

    func read(_ name: String) { frames[frames.count - 1].insert(name) }

    func readEveryName() { read(DependencyLog.everyName) }

    func push() { frames.append([]) }

    /// Ends a declaration's evaluation: the names it read directly.
    func pop() -> Set<String> {
        guard frames.count > 1, let top = frames.popLast() else { return [] }
        return top
    }

    var itemNames: Set<String> { frames[0] }
}

extension Checker {
    /// Lowers the top-level item `item` with `lower` into an output of its own and merges
    /// it, or merges the memo's output for it when nothing it read changed; with a memo,
    /// keeps the output for the next check.
    func lowerTopLevel(_ item: Item, _ lower: () -> Void) {
        itemNumber += 1
        let text = ItemText(memo == nil ? [] : Array(tree.file.bytes[Int(item.range.start)..<Int(item.range.end)]))
        if let memo, let candidates = memo.records[text] {
            var next = memo.cursor[text] ?? 0
            defer { memo.cursor[text] = next }
            while next < candidates.count {
                let record = candidates[next]
                next += 1
                memo.attemptedNow += 1
                if let blocker = replay(record, item) {
                    memo.refusalsNow[blocker.rawValue, default: 0] += 1
                    continue
                }
                memo.next[text, default: []].append(record)
                memo.reusedNow += 1
                return
            }
        }
        memo?.loweredNow += 1
        let log = memo == nil ? nil : DependencyLog()
        global.observer = log
        let before = (work: work, roots: root.children.count)
        let outside = output
        output = ItemOutput()
        lower()
        global.observer = nil
        output.work = work - before.work
        output.layers = Array(root.children[before.roots...])
        let finished = output
        output = outside
        merge(finished)
        // An item cut short by cancellation is incomplete: it is not kept.
        guard !cancelled, let memo, let log else { return }
        keep(finished, item: item, text: text, log: log, in: memo)
    }

    /// Keeps an item's output for the next check, with the texts of what it read.
    private func keep(_ finished: ItemOutput, item: Item, text: ItemText, log: DependencyLog, in memo: CheckMemo) {
        var output = finished
        if recordingStopped { output.cannotReplay(.diagnosticCap) }
        let (names, everyName) = dependencyClosure(log.itemNames)
        var dependencies: [ItemRecord.Dependency] = []
        for name in names.sorted() {
            let declaration = facts.topLevelDeclarations[name].map { decl in
                (text: Array(tree.file.bytes[Int(decl.range.start)..<Int(decl.range.end)]), start: decl.range.start)
            }
            dependencies.append(.init(name: name, declaration: declaration))
        }
        let regions = [item.range] + dependencies.compactMap { d in
            d.declaration.map { SourceRange(start: $0.start, end: $0.start + UInt32($0.text.count)) }
        }
        if regions.contains(where: spansSyntaxError) { output.cannotReplay(.nearSyntaxError) }
        guard output.notReplayable.isEmpty else {
            for reason in output.notReplayable { memo.unkeptNow[reason.rawValue, default: 0] += 1 }
            return
        }
        for animation in output.animations { output.animationNames[animation.range] = animationNameRange(animation) }
        output.animations = []
        let record = ItemRecord(start: item.range.start, length: item.range.end - item.range.start, dependencies: dependencies,
                                readsEveryName: everyName, registered: facts.registersLowered, output: output)
        memo.next[text, default: []].append(record)
    }

    /// The top-level names read by an item that read `names`: those, and what the
    /// declarations they name read when they were evaluated, recursively; and whether
    /// any of them read the list of every name.
    func dependencyClosure(_ names: Set<String>) -> (Set<String>, everyName: Bool) {
        var seen = Set<String>()
        var everyName = false
        var pending = Array(names)
        while let name = pending.popLast() {
            if name == DependencyLog.everyName {
                everyName = true
                continue
            }
            guard seen.insert(name).inserted else { continue }
            if let direct = global.local(name)?.dependencies { pending += direct }
        }
        return (seen, everyName)
    }

    /// Why `record` cannot be replayed for `item` in this check, or nil when it can:
    /// everything it read is unchanged and the result is what lowering would give.
    func replayBlocker(_ record: ItemRecord, for item: Item) -> NotReplayable? {
        for d in record.dependencies {
            switch (d.declaration, facts.topLevelDeclarations[d.name]) {
            case (nil, nil):
                continue
            case (let old?, let now?):
                guard now.range.end - now.range.start == UInt32(old.text.count),
                      tree.file.bytes[Int(now.range.start)..<Int(now.range.end)].elementsEqual(old.text) else { return .dependencyChanged }
            default:
                return .dependencyChanged
            }
        }
        if let memo, record.readsEveryName, memo.everyName != global.bindings.map(\.name.name) { return .everyNameChanged }
        if facts.registersLowered && !record.registered { return .registration }
        if spansSyntaxError(item.range) { return .nearSyntaxError }
        for d in record.dependencies {
            guard let now = facts.topLevelDeclarations[d.name] else { continue }
            if spansSyntaxError(now.range) { return .nearSyntaxError }
        }
        let after = work + record.output.work
        guard after.layers <= limits.layers, after.iterations <= limits.loopIterations,
              after.evaluations <= evaluationLimit, after.suggestions <= suggestionBudget,
              diagnostics.count + record.output.diagnostics.count < SyntaxDiagnostics.recordedLimit else { return .noRoom }
        if record.output.layers.contains(where: { root.child(named: $0.name) != nil }) { return .nameClash }
        return nil
    }

    /// Replays `record` for `item`, or says why it cannot (having changed nothing).
    private func replay(_ record: ItemRecord, _ item: Item) -> NotReplayable? {
        if let blocker = replayBlocker(record, for: item) { return blocker }
        var moves = [(from: record.start, length: record.length, to: item.range.start)]
        for d in record.dependencies {
            guard let old = d.declaration, let now = facts.topLevelDeclarations[d.name] else { continue }
            moves.append((old.start, UInt32(old.text.count), now.range.start))
        }
        if moves.contains(where: { $0.from != $0.to }) {
            // A record that cannot be moved whole is dropped: the next check keeps only
            // the records this one replayed or made.
            guard record.output.move(RangeShift(moves)) else { return .dependencyChanged }
            record.start = item.range.start
            for i in record.dependencies.indices {
                guard let old = record.dependencies[i].declaration, let now = facts.topLevelDeclarations[record.dependencies[i].name] else { continue }
                record.dependencies[i].declaration = (old.text, now.range.start)
            }
        }
        // The declarations it read first are evaluated as lowering it would have: a later
        // item then finds them evaluated, as it would without the memo.
        let outside = output
        output = ItemOutput()
        global.observer = DependencyLog()  // each declaration's own reads, for later items
        for d in record.dependencies {
            if let binding = global.local(d.name), binding.value == nil { _ = value(of: binding, in: global, at: binding.name.range) }
        }
        global.observer = nil
        let firstUses = output
        output = outside
        let replayed = record.output
        masksWritten = true
        for node in replayed.layers {
            node.resetMasks()
            root.adopt(node)
        }
        for a in replayed.lowered {
            a.item = itemNumber
            appendLowered(a)
        }
        unrecognisedAttributeItems.formUnion(replayed.unrecognised)
        work = work + (replayed.work - Work(evaluations: replayed.firstUseEvaluations))
        merge(firstUses)
        merge(replayed)
        return nil
    }
}

/// Moves ranges of a recorded check to where their text sits now. Each range must lie
/// inside one of the moved spans (the item, or a declaration it read); one that does not
/// gives nil, and the record is not used.
struct RangeShift {
    private let moves: [(from: UInt32, length: UInt32, to: UInt32)]
    /// Where every range goes, for a shift that moves all of them to one place.
    private var everything: SourceRange?

    init(_ moves: [(from: UInt32, length: UInt32, to: UInt32)]) { self.moves = moves }

    /// A shift that moves every range to `range`: for what another file lowered (an
    /// imported component's layers), which has no place in this one but its instance.
    static func everything(to range: SourceRange) -> RangeShift {
        var shift = RangeShift([])
        shift.everything = range
        return shift
    }

    func callAsFunction(_ r: SourceRange) -> SourceRange? {
        if let everything { return everything }
        for m in moves where r.start >= m.from && r.end <= m.from + m.length && r.start <= r.end {
            return SourceRange(start: r.start - m.from + m.to, end: r.end - m.from + m.to)
        }
        return nil
    }

    func diagnostic(_ d: Diagnostic) -> Diagnostic? {
        var moved = d
        guard let primary = self(d.primary.range) else { return nil }
        moved.primary.range = primary
        for i in moved.secondary.indices {
            guard let r = self(moved.secondary[i].range) else { return nil }
            moved.secondary[i].range = r
        }
        for i in moved.notes.indices {
            guard let old = moved.notes[i].range else { continue }
            guard let r = self(old) else { return nil }
            moved.notes[i].range = r
        }
        for i in moved.fixIts.indices {
            for j in moved.fixIts[i].edits.indices {
                guard let r = self(moved.fixIts[i].edits[j].range) else { return nil }
                moved.fixIts[i].edits[j].range = r
            }
        }
        return moved
    }
}

extension Animation {
    /// Moves this animation's ranges (its children's too); false if one cannot be moved.
    mutating func move(_ shift: RangeShift) -> Bool {
        guard let r = shift(range) else { return false }
        range = r
        guard case .group(var children) = kind else { return true }
        for i in children.indices where !children[i].move(shift) { return false }
        kind = .group(children)
        return true
    }
}
