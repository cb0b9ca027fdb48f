@testable import AnimcChecker
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
}
