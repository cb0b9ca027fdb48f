extension Int {
    /// `x` rounded toward zero and clamped to `Int`'s range, with NaN as 0.
    ///
    /// `Int(someDouble)` traps on NaN, infinities and magnitudes past 2⁶³, and counts
    /// computed from input (frames of a window, repeat cycles, list sizes) reach all
    /// three. Every conversion of such a value goes through here.
    @inlinable
    public init(saturating x: Double) {
        if x.isNaN {
            self = 0
        } else if x >= 9.223372036854775e18 {
            self = .max
        } else if x <= -9.223372036854775e18 {
            self = .min
        } else {
            self = Int(x)
        }
    }
}

extension String {
    /// The string without the spaces and tabs at either end (no Foundation).
    public var trimmingSpacesAround: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
