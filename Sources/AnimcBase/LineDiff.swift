/// Line differences between two texts (Myers' O(ND) algorithm), for `animc fmt
/// --check`'s unified diff and the language server's minimal formatting edits.
public enum LineDiff {
    /// A run of lines of `old` (`oldStart..<oldStart+oldCount`, 0-based) replaced by
    /// lines of `new`.
    public struct Hunk: Equatable, Sendable {
        public var oldStart: Int
        public var oldCount: Int
        public var newStart: Int
        public var newCount: Int
    }

    /// Splits text into lines, each without its line end. A final line end does not
    /// start another line.
    public static func lines(_ text: String) -> [Substring] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// The changed runs, in order. Past `maxEdits` differing lines the search stops and
    /// the whole differing middle is one hunk: still correct, only less minimal.
    public static func hunks(_ a: [Substring], _ b: [Substring], maxEdits: Int = 2000) -> [Hunk] {
        // Common prefix and suffix first: a formatter changes few lines of many.
        let (prefix, suffix) = commonEnds(a, b)
        let x = Array(a[prefix..<(a.count - suffix)])
        let y = Array(b[prefix..<(b.count - suffix)])
        if x.isEmpty && y.isEmpty { return [] }
        guard let script = myers(x, y, maxEdits: maxEdits) else {
            return [Hunk(oldStart: prefix, oldCount: x.count, newStart: prefix, newCount: y.count)]
        }
        // Group consecutive non-matching lines into hunks.
        var result: [Hunk] = []
        var i = 0, j = 0
        var k = 0
        while k < script.count {
            if script[k] == .keep { i += 1; j += 1; k += 1; continue }
            var hunk = Hunk(oldStart: prefix + i, oldCount: 0, newStart: prefix + j, newCount: 0)
            while k < script.count && script[k] != .keep {
                if script[k] == .delete { hunk.oldCount += 1; i += 1 } else { hunk.newCount += 1; j += 1 }
                k += 1
            }
            result.append(hunk)
        }
        return result
    }

    enum Step: Equatable { case keep, delete, insert }

    /// The shortest edit script from `a` to `b`, or nil past `maxEdits`.
    static func myers(_ a: [Substring], _ b: [Substring], maxEdits: Int) -> [Step]? {
        let n = a.count, m = b.count
        let maxD = min(n + m, maxEdits)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        for d in 0...maxD {
            // Only the diagonals -d-1...d+1 matter at this depth: O(D²) memory in all.
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m {
                    return backtrack(trace, d: d, n: n, m: m)
                }
                k += 2
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int]], d: Int, n: Int, m: Int) -> [Step] {
        var steps: [Step] = []
        var x = n, y = m
        var depth = d
        while depth > 0 {
            let slice = trace[depth]
            let v = { (k: Int) in slice[k + depth + 1] }
            let k = x - y
            let prevK = (k == -depth || (k != depth && v(k - 1) < v(k + 1))) ? k + 1 : k - 1
            let prevX = v(prevK)
            let prevY = prevX - prevK
            while x > prevX && y > prevY { steps.append(.keep); x -= 1; y -= 1 }
            steps.append(x == prevX ? .insert : .delete)
            x = prevX; y = prevY
            depth -= 1
        }
        while x > 0 && y > 0 { steps.append(.keep); x -= 1; y -= 1 }
        return steps.reversed()
    }

    /// A unified diff (`diff -u` style, 3 lines of context) from `old` to `new`, empty
    /// when they are equal.
    public static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = lines(old), b = lines(new)
        let changes = hunks(a, b)
        guard !changes.isEmpty else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < changes.count {
            // Merge hunks whose contexts touch.
            var last = index
            while last + 1 < changes.count
                    && changes[last + 1].oldStart - (changes[last].oldStart + changes[last].oldCount) <= 2 * context {
                last += 1
            }
            let first = changes[index]
            let oldFrom = max(0, first.oldStart - context)
            let newFrom = max(0, first.newStart - context)
            let end = changes[last]
            let oldTo = min(a.count, end.oldStart + end.oldCount + context)
            let newTo = min(b.count, end.newStart + end.newCount + context)
            out += "@@ -\(range(oldFrom, oldTo - oldFrom)) +\(range(newFrom, newTo - newFrom)) @@\n"
            var i = oldFrom
            for h in changes[index...last] {
                while i < h.oldStart { out += " \(a[i])\n"; i += 1 }
                for line in a[h.oldStart..<(h.oldStart + h.oldCount)] { out += "-\(line)\n" }
                for line in b[h.newStart..<(h.newStart + h.newCount)] { out += "+\(line)\n" }
                i = h.oldStart + h.oldCount
            }
            while i < oldTo { out += " \(a[i])\n"; i += 1 }
            index = last + 1
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        // diff -u numbers lines from 1; an empty range names the line before it.
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }
}

/// How many elements `a` and `b` share at their start and, after that, at their end
/// (the suffix never reaches into the prefix): what a diff, a token delta or a minimal
/// edit keeps before looking at the middle.
@inlinable
public func commonEnds<T: Equatable>(_ a: [T], _ b: [T]) -> (prefix: Int, suffix: Int) {
    var prefix = 0
    while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
        suffix += 1
    }
    return (prefix, suffix)
}
