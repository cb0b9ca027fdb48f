/// Optimal string alignment distance (Levenshtein plus adjacent transpositions), on
/// Unicode scalars, case-sensitive; a case-only difference costs one edit.
public func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
    // Names are nearly always ASCII: bytes then stand for scalars and lowercasing is a
    // bit, where the general path below allocates arrays of scalars and two strings
    // per differing pair of characters (a file of many names and typos spent seconds
    // suggesting).
    var a = a, b = b
    let ascii = a.withUTF8 { x in b.withUTF8 { y in
        isASCII(x) && isASCII(y) ? asciiDistance(x, y, limit: limit) : nil
    } }
    if let ascii { return ascii }
    let x = Array(a.unicodeScalars)
    let y = Array(b.unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    if abs(x.count - y.count) > limit { return limit + 1 }
    var prev2 = [Int](repeating: 0, count: y.count + 1)
    var prev = Array(0...y.count)
    var cur = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        cur[0] = i
        var rowMin = cur[0]
        for j in 1...y.count {
            let same = x[i - 1] == y[j - 1]
            let caseOnly = !same && String(x[i - 1]).lowercased() == String(y[j - 1]).lowercased()
            var best = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1))
            if caseOnly { best = min(best, prev[j - 1] + 1) }
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                best = min(best, prev2[j - 2] + 1)
            }
            cur[j] = best
            rowMin = min(rowMin, best)
        }
        if rowMin > limit { return limit + 1 }
        swap(&prev2, &prev)
        swap(&prev, &cur)
    }
    return prev[y.count]
}

private func isASCII<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    bytes.allSatisfy { $0 < 0x80 }
}

/// ASCII's lowercase: what `String.lowercased()` does to an ASCII character.
@inline(__always)
private func lower(_ c: UInt8) -> UInt8 {
    c >= 0x41 && c <= 0x5A ? c | 0x20 : c
}

/// ``editDistance(_:_:limit:)`` for two ASCII texts, where a byte is a scalar. The same
/// recurrence, on three rows of one stack buffer.
private func asciiDistance(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    if abs(x.count - y.count) > limit { return limit + 1 }
    let width = y.count + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows -> Int in
        var prev2 = 0, prev = width, cur = 2 * width  // offsets of the three rows
        for j in 0..<width {
            rows[prev2 + j] = 0
            rows[prev + j] = j
            rows[cur + j] = 0
        }
        for i in 1...x.count {
            rows[cur] = i
            var rowMin = i
            let xi = x[i - 1]
            for j in 1...y.count {
                let yj = y[j - 1]
                let same = xi == yj
                var best = min(rows[prev + j] + 1, rows[cur + j - 1] + 1, rows[prev + j - 1] + (same ? 0 : 1))
                if !same && lower(xi) == lower(yj) { best = min(best, rows[prev + j - 1] + 1) }
                if i > 1, j > 1, xi == y[j - 2], x[i - 2] == yj {
                    best = min(best, rows[prev2 + j - 2] + 1)
                }
                rows[cur + j] = best
                rowMin = min(rowMin, best)
            }
            if rowMin > limit { return limit + 1 }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return rows[prev + y.count]
    }
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo.
///
/// The threshold follows Elm's: roughly a third of the name's length, at least one
/// edit; a candidate that differs only by case always qualifies. Ties go to the
/// candidate that sorts first, so suggestions are deterministic.
public func closestMatch<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
    let threshold = max(1, name.unicodeScalars.count / 3)
    let lowercasedName = name.lowercased()
    let nameIsASCII = isASCII(name.utf8)
    let nameLength = name.utf8.count
    var best: (distance: Int, name: String)?
    for candidate in candidates where candidate != name {
        if nameIsASCII && isASCII(candidate.utf8) {
            // Lowercasing ASCII keeps the length, so a candidate longer or shorter by more
            // than the threshold is neither a case variant nor close enough.
            guard abs(candidate.utf8.count - nameLength) <= threshold else { continue }
            if candidate.utf8.count == nameLength && zip(candidate.utf8, name.utf8).allSatisfy({ lower($0) == lower($1) }) {
                return candidate
            }
        } else if candidate.lowercased() == lowercasedName {
            return candidate
        }
        let d = editDistance(name, candidate, limit: threshold)
        guard d <= threshold else { continue }
        if let current = best, d > current.distance || (d == current.distance && candidate >= current.name) {
            continue
        }
        best = (d, candidate)
    }
    return best?.name
}
