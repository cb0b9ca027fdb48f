/// Arithmetic that is exact for decimal inputs: each operand is read as the shortest
/// decimal that round-trips to it (what the author wrote: `0.3` for the double nearest
/// 0.3), the operation is done on those decimals exactly, and the result is rounded
/// once to the nearest double.
///
/// So `1s + 0.3s` is the same double as the literal `1.3s`, and `0.1 + 0.2` is `0.3`,
/// not `0.30000000000000004`. Instants computed in the source (`beginTime: go.end`)
/// then compare equal to instants written in it, as the author meant. When an exact
/// result does not fit (more than 18 digits, or a quotient that does not terminate,
/// such as `1 / 3`), the plain floating-point result is used.
public enum ExactDecimal {
    public static func add(_ a: Double, _ b: Double) -> Double {
        if let r = integral(a, b, { $0.addingReportingOverflow($1) }) { return r }
        guard let x = Parts(a), let y = Parts(b) else { return a + b }
        let e = min(x.exponent, y.exponent)
        guard let mx = x.mantissa(atExponent: e), let my = y.mantissa(atExponent: e) else { return a + b }
        let (sum, overflow) = mx.addingReportingOverflow(my)
        return overflow ? a + b : Parts.double(sum, e) ?? a + b
    }

    public static func subtract(_ a: Double, _ b: Double) -> Double {
        add(a, -b)
    }

    public static func multiply(_ a: Double, _ b: Double) -> Double {
        if let r = integral(a, b, { $0.multipliedReportingOverflow(by: $1) }) { return r }
        // A computed operand (a square root, a third) has 16 or more significant digits,
        // at least 10^15 as digits, and reading them means writing it as text. Times
        // another such, or times 9224 or more digits, the product of the digits overflows
        // whatever they are: the plain product, without the text.
        let sa = Parts(short: a), sb = Parts(short: b)
        let longA = sa == nil && Parts.isLong(a), longB = sb == nil && Parts.isLong(b)
        if (longA && (longB || abs(sb?.digits ?? 0) >= 9224)) || (longB && abs(sa?.digits ?? 0) >= 9224) { return a * b }
        guard let x = sa ?? Parts(a), let y = sb ?? Parts(b) else { return a * b }
        let (product, overflow) = x.digits.multipliedReportingOverflow(by: y.digits)
        return overflow ? a * b : Parts.double(product, x.exponent + y.exponent) ?? a * b
    }

    public static func divide(_ a: Double, _ b: Double) -> Double {
        guard b != 0, let x = Parts(a), let y = Parts(b), y.digits != 0 else { return a / b }
        // a / b = (x.digits · 10^k / y.digits) · 10^(x.exponent − y.exponent − k): find the
        // smallest k that makes the division exact.
        var numerator = x.digits
        var k = 0
        while numerator % y.digits != 0 {
            let (next, overflow) = numerator.multipliedReportingOverflow(by: 10)
            guard !overflow, k < 18 else { return a / b }
            numerator = next
            k += 1
        }
        return Parts.double(numerator / y.digits, x.exponent - y.exponent - k) ?? a / b
    }

    /// Both operands whole and small: plain integer arithmetic, which is exact, skips
    /// the decimal conversion (loop counters and indices are the common case).
    @inline(__always)
    static func integral(_ a: Double, _ b: Double, _ op: (Int64, Int64) -> (partialValue: Int64, overflow: Bool)) -> Double? {
        // Whole when truncating to an integer and back gives it again: two conversion
        // instructions, where `rounded()` was a call into the C library per operand.
        // (The bound first: it keeps NaN and infinities away from the conversion.)
        guard abs(a) < 9.007199254740992e15, abs(b) < 9.007199254740992e15 else { return nil }
        let ia = Int64(a), ib = Int64(b)
        guard Double(ia) == a, Double(ib) == b else { return nil }
        let (r, overflow) = op(ia, ib)
        guard !overflow, abs(r) < 9_007_199_254_740_992 else { return nil }
        return Double(r)
    }

    /// A finite double as digits × 10^exponent, from its shortest round-trip decimal.
    struct Parts {
        var digits: Int64
        var exponent: Int

        init?(_ value: Double) {
            guard value.isFinite else { return nil }
            if value == 0 { self.init(digits: 0, exponent: 0); return }
            if let fast = Parts(short: value) { self = fast; return }
            self.init(describing: value)
        }

        init(digits: Int64, exponent: Int) {
            self.digits = digits
            self.exponent = exponent
        }

        /// The common case without formatting text: a value of moderate magnitude whose
        /// shortest decimal has at most 15 significant digits. Gives exactly what
        /// `init(describing:)` gives (the same digits and exponent, not merely the same
        /// value, since overflow in the callers depends on the representation), or nil
        /// where it cannot be sure, which the caller answers the slow way.
        ///
        /// `description` writes such a value with its shortest round-trip digits: a whole
        /// number as `1200.0` (digits 12000, exponent −1), any other as the fewest
        /// fraction digits that read back as the value, in positional notation from 1e-4
        /// up (`0.0006666`: 6666 × 10^−7) and in exponential notation below, which gives
        /// the same digits and exponent (`6.666e-05`: 6666 × 10^−8). With at most
        /// 15 significant digits the decimals at that precision are more than four ulps
        /// apart, so at most one of them reads back as the value: the fewest fraction
        /// digits k and that one decimal are the shortest and the closest.
        init?(short value: Double) {
            let magnitude = abs(value)
            // Up to 2^52, where every whole number still has a ".0" in its text; down to
            // where 15 digits fit in the powers of ten that are exact (10^22).
            guard magnitude >= 1e-7, magnitude < 4.503599627370496e15 else { return nil }
            if value == value.rounded(.towardZero) {
                self.init(digits: Int64(value) * 10, exponent: -1)
                return
            }
            var k = 1
            while k <= 22 {
                let scaled = value * Self.powersOfTen[k]
                // Beyond 15 digits more than one decimal can read back as the value.
                guard abs(scaled) < 1e15 else { return nil }
                let m = scaled.rounded()
                if m / Self.powersOfTen[k] == value {
                    self.init(digits: Int64(m), exponent: -k)
                    return
                }
                k += 1
            }
            return nil
        }

        /// Whether ``init(short:)`` declined `value` for its digits rather than its
        /// magnitude: its shortest decimal then has 16 or more significant digits.
        static func isLong(_ value: Double) -> Bool {
            let magnitude = abs(value)
            return magnitude >= 1e-7 && magnitude < 4.503599627370496e15 && value != value.rounded(.towardZero)
        }

        /// The definition, for the values the fast path declines: the digits of the value's
        /// shortest round-trip text.
        init?(describing value: Double) {
            guard value.isFinite else { return nil }
            if value == 0 { digits = 0; exponent = 0; return }
            // One pass over the text's bytes: sign, digits with an optional point, and an
            // optional exponent (`-1.25e-07`).
            var digits: Int64 = 0
            var exponent = 0
            var negative = false
            var seenPoint = false
            var power: Int?
            var powerNegative = false
            for c in value.description.utf8 {
                if var p = power {
                    if c == 0x2D { powerNegative = true; continue }
                    if c == 0x2B { continue }
                    guard c >= 0x30, c <= 0x39, p < 100_000 else { return nil }
                    p = p * 10 + Int(c - 0x30)
                    power = p
                    continue
                }
                switch c {
                case 0x2D: negative = true
                case 0x2E: seenPoint = true
                case 0x65, 0x45: power = 0
                case 0x30...0x39:
                    let (shifted, o1) = digits.multipliedReportingOverflow(by: 10)
                    let (next, o2) = shifted.addingReportingOverflow(Int64(c - 0x30))
                    guard !o1, !o2 else { return nil }
                    digits = next
                    if seenPoint { exponent -= 1 }
                default: return nil
                }
            }
            if let p = power { exponent += powerNegative ? -p : p }
            self.digits = negative ? -digits : digits
            self.exponent = exponent
        }

        /// The mantissa scaled to `e` ≤ exponent, or nil on overflow.
        func mantissa(atExponent e: Int) -> Int64? {
            var m = digits
            var k = exponent
            while k > e {
                let (next, overflow) = m.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                m = next
                k -= 1
            }
            return m
        }

        /// digits × 10^exponent, correctly rounded (the standard library parses decimal
        /// text with correct rounding).
        static func double(_ digits: Int64, _ exponent: Int) -> Double? {
            // Clinger's fast path: the digits and the power of ten are both exact doubles,
            // so one IEEE multiplication or division rounds the exact decimal correctly.
            if abs(digits) <= 9_007_199_254_740_992, exponent >= -22, exponent <= 22 {
                let d = Double(digits)
                return exponent < 0 ? d / Self.powersOfTen[-exponent] : d * Self.powersOfTen[exponent]
            }
            return Double("\(digits)e\(exponent)")
        }

        /// 10^0 through 10^22, each exact as a double.
        static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ]
    }
}
