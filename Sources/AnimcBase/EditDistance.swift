/// Optimal string alignment distance (Levenshtein plus adjacent transpositions), on
/// Unicode scalars, case-sensitive; a case-only difference costs one edit.
public func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
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

/// The candidate closest to `name`, if it is close enough to be a plausible typo.
///
/// The threshold follows Elm's: roughly a third of the name's length, at least one
/// edit; a candidate that differs only by case always qualifies. Ties go to the
/// candidate that sorts first, so suggestions are deterministic.
public func closestMatch<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
    let threshold = max(1, name.unicodeScalars.count / 3)
    var best: (distance: Int, name: String)?
    for candidate in candidates where candidate != name {
        if candidate.lowercased() == name.lowercased() { return candidate }
        let d = editDistance(name, candidate, limit: threshold)
        guard d <= threshold else { continue }
        if let current = best, d > current.distance || (d == current.distance && candidate >= current.name) {
            continue
        }
        best = (d, candidate)
    }
    return best?.name
}
