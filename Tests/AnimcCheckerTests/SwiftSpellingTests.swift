import AnimcBase
@testable import AnimcChecker
import AnimcIR
import AnimcPorting
import AnimcSyntax
import Foundation
import Testing

/// `SwiftSpellings.meaning(of:)` and `isFunction(_:)` skip the table for names without a
/// capital letter; that is only right while every pasted spelling has one.
@Suite struct SwiftSpellingTests {
    @Test func everySpellingHasACapital() {
        for name in SwiftSpellings.names.keys {
            #expect(SwiftSpellings.hasCapital(name), "\(name)")
            #expect(SwiftSpellings.meaning(of: name) != nil, "\(name)")
        }
        for name in SwiftSpellings.functions {
            #expect(SwiftSpellings.isFunction(name), "\(name)")
        }
    }

    @Test func animWordsAreNotSpellings() {
        for name in Builtins.constantNames + ["backwards", "rgb", "cubic", "length", "kcafillmodeforwards", "m_pi", "cgpoint"] {
            #expect(SwiftSpellings.meaning(of: name) == nil, "\(name)")
            #expect(!SwiftSpellings.isFunction(name), "\(name)")
        }
        #expect(!SwiftSpellings.hasCapital("éclair"))
        #expect(SwiftSpellings.hasCapital("tileA"))
    }

    /// math.h's constants keep their C values: `M_2_PI` is 2/π, which the table once
    /// took for 2π (`360deg`). Compared with the C library's own definitions.
    @Test func mathConstantsAreTheirCValues() throws {
        let cases: [(String, Double)] = [("M_1_PI", M_1_PI), ("M_2_PI", M_2_PI), ("M_2_SQRTPI", M_2_SQRTPI),
                                         ("M_SQRT2", M_SQRT2), ("M_SQRT1_2", M_SQRT1_2), ("M_E", M_E),
                                         ("M_LOG2E", M_LOG2E), ("M_LOG10E", M_LOG10E), ("M_LN2", M_LN2), ("M_LN10", M_LN10)]
        for (name, expected) in cases {
            guard case .number(let x)? = SwiftSpellings.meaning(of: name) else {
                Issue.record("\(name) is not a plain number")
                continue
            }
            #expect(x == expected, "\(name): \(x), C says \(expected)")
            // Written where a value is expected: reported, with the literal as its fix, and
            // read as that number (an opacity of 2/π, not one out of range).
            let text = "composition { size: 10 x 10 }\nlayer a { zPosition: \(name) }\n"
            let result = check(parse(SourceFile(name: "m.anim", text: text)))
            let d = try #require(result.diagnostics.first)
            #expect(d.code.rawValue == "E0323")
            #expect(d.fixIts.first?.edits.first?.replacement == formatNumber(expected))
        }
    }
}
