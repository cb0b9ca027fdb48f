@testable import AnimcBase
import AnimcTestSupport
import Testing

/// Exact decimal arithmetic: the results authors expect, and the fast paths against
/// the text-based reference they stand for.
@Suite struct ExactDecimalTests {
    /// The definition, written independently of the implementation: the digits and
    /// exponent of the value's shortest round-trip text, read with string operations.
    static func referenceParts(_ value: Double) -> (digits: Int64, exponent: Int)? {
        guard value.isFinite else { return nil }
        if value == 0 { return (0, 0) }
        var text = Substring(value.description)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let power = Int(text[text.index(after: e)...]) else { return nil }
            exponent = power
            text = text[..<e]
        }
        let whole = text.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = whole.count > 1 ? whole[1] : ""
        guard let digits = Int64(whole[0] + fraction) else { return nil }
        return (negative ? -digits : digits, exponent - fraction.count)
    }

    /// Decimals as authors write them (1 to 17 significant digits at every scale), awkward
    /// values at the edges of the fast path, and random bit patterns.
    static let inputs: [Double] = {
        var xs: [Double] = [0, -0.0, 1, -1, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.3, 1e-3, 1e-4, 9.99e-4, 0.0009999999999999998,
                            1e15, 1e15 - 1, 999_999_999_999_999.9, 0x1p52, 0x1p52 - 0.5, 0x1p52 - 1, 0x1p53, 0x1p53 + 2,
                            123.456, 1200, -1200, 5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude, 1.0 / 3.0,
                            2.0 / 3.0, 0.30000000000000004, 0.7 * 3, 1e22, 1e23, .infinity, -.infinity, .nan,
                            0.0006666, 6.666e-5, 1e-7, 1.5e-7, 9.999999e-8, 1.23456789012345e-7, 0.000123456789012345,
                            // Computed values (16 and 17 digits) and the digit counts around
                            // the product's overflow with them.
                            28.284271247461902, 0.7071067811865476, -0.4472135954999579, 2.0.squareRoot(), 9223, 0.9223,
                            9224, 0.9224, 92.24, 9.2233720368547, 1.0000000000000002, 0.1 + 0.7]
        var rng = SplitMix64(seed: 1_311)
        for _ in 0..<40_000 {
            let digits = 1 + Int(rng.next() % 17)
            var m: Int64 = 0
            for _ in 0..<digits { m = m * 10 + Int64(rng.next() % 10) }
            let scale = Int(rng.next() % 30) - 20
            let text = "\(rng.next() % 2 == 0 ? "-" : "")\(m)e\(scale)"
            if let x = Double(text) { xs.append(x) }
            let bits = rng.next()
            xs.append(Double(bitPattern: bits % 3 == 0 ? bits : (bits & 0x800F_FFFF_FFFF_FFFF) | (UInt64(1000 + bits % 70) << 52)))
        }
        return xs
    }()

    @Test func fastPartsAreTheDescribedParts() {
        var fast = 0
        for x in Self.inputs {
            let reference = Self.referenceParts(x)
            let parts = ExactDecimal.Parts(x)
            let described = ExactDecimal.Parts(describing: x)
            #expect(described?.digits == reference?.digits && described?.exponent == reference?.exponent, "\(x)")
            #expect(parts?.digits == reference?.digits && parts?.exponent == reference?.exponent,
                    "\(x): \(String(describing: parts)) vs \(String(describing: reference))")
            if let short = ExactDecimal.Parts(short: x) {
                fast += 1
                #expect(short.digits == reference?.digits && short.exponent == reference?.exponent, "\(x)")
            }
        }
        // The fast path must actually serve the common case, not decline everything.
        #expect(fast > Self.inputs.count / 5)
    }

    @Test func fastRoundingIsCorrectRounding() {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<40_000 {
            let digits = Int64(bitPattern: rng.next()) % 9_007_199_254_740_993
            let exponent = Int(rng.next() % 45) - 22
            let reference = Double("\(digits)e\(exponent)")
            #expect(ExactDecimal.Parts.double(digits, exponent) == reference, "\(digits)e\(exponent)")
        }
        #expect(ExactDecimal.Parts.double(1, 400) == .infinity)
        #expect(ExactDecimal.Parts.double(-3, -400) == 0)
    }

    @Test func decimalsComeOutAsWritten() {
        #expect(ExactDecimal.add(0.1, 0.2) == 0.3)
        #expect(ExactDecimal.add(1, 0.3) == 1.3)
        #expect(ExactDecimal.subtract(1.3, 0.3) == 1)
        #expect(ExactDecimal.multiply(0.1, 3) == 0.3)
        #expect(ExactDecimal.multiply(1.1, 1.1) == 1.21)
        #expect(ExactDecimal.divide(0.3, 0.1) == 3)
        #expect(ExactDecimal.divide(1, 0.3) == 1 / 0.3, "a quotient that does not terminate is the plain one")
        #expect(ExactDecimal.divide(2.5, 4) == 0.625)
        #expect(ExactDecimal.add(1e300, 1e300) == 2e300)
        #expect(ExactDecimal.divide(1, 0) == .infinity)
        #expect(ExactDecimal.add(.nan, 1).isNaN)
    }

    /// Every operation on random operands equals the operation computed through the
    /// described parts and the standard library's parser (the definition of exact).
    @Test func operationsAgreeWithTheTextReference() {
        func reference(_ op: Character, _ a: Double, _ b: Double) -> Double {
            let plain: Double = op == "+" ? a + b : op == "*" ? a * b : a / b
            guard let (xd, xe) = Self.referenceParts(a), let (yd, ye) = Self.referenceParts(b) else { return plain }
            let x = ExactDecimal.Parts(digits: xd, exponent: xe), y = ExactDecimal.Parts(digits: yd, exponent: ye)
            func text(_ d: Int64, _ e: Int) -> Double { Double("\(d)e\(e)")! }
            switch op {
            case "+":
                let e = min(x.exponent, y.exponent)
                guard let mx = x.mantissa(atExponent: e), let my = y.mantissa(atExponent: e) else { return plain }
                let (s, o) = mx.addingReportingOverflow(my)
                return o ? plain : text(s, e)
            case "*":
                let (p, o) = x.digits.multipliedReportingOverflow(by: y.digits)
                return o ? plain : text(p, x.exponent + y.exponent)
            default:
                guard b != 0, y.digits != 0 else { return plain }
                var n = x.digits, k = 0
                while n % y.digits != 0 {
                    let (next, o) = n.multipliedReportingOverflow(by: 10)
                    guard !o, k < 18 else { return plain }
                    n = next; k += 1
                }
                return text(n / y.digits, x.exponent - y.exponent - k)
            }
        }
        var rng = SplitMix64(seed: 5)
        let xs = Self.inputs.filter { $0.isFinite && abs($0) < 1e12 && abs($0) > 1e-6 }
        for _ in 0..<20_000 {
            let a = xs[Int(rng.next() % UInt64(xs.count))], b = xs[Int(rng.next() % UInt64(xs.count))]
            // The integral shortcut answers whole operands without parts; the reference agrees there.
            let sum = ExactDecimal.add(a, b), product = ExactDecimal.multiply(a, b), quotient = ExactDecimal.divide(a, b)
            #expect(sum == reference("+", a, b), "\(a) + \(b)")
            #expect(product == reference("*", a, b), "\(a) * \(b)")
            #expect(quotient == reference("/", a, b), "\(a) / \(b)")
        }
    }
}
