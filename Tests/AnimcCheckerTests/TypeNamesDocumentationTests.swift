@testable import AnimcChecker
import AnimcTestSupport
import Testing

/// docs/language.md lists every type name an annotation or a parameter accepts (issue
/// 52: the reference named some in examples only).
@Suite struct TypeNamesDocumentationTests {
    @Test func theReferenceListsEveryTypeName() {
        let reference = Repository.read("docs/language.md")
        for name in TypeNames.all { #expect(reference.contains("`\(name)`"), "docs/language.md does not list the type '\(name)'") }
    }
}
