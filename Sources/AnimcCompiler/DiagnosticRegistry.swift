import AnimcChecker
import AnimcDiagnostics
import AnimcLottie
import AnimcSyntax

/// Every diagnostic code animc can emit, in code order: what `explain --list` prints
/// and what SARIF's rule table holds.
public enum DiagnosticRegistry {
    public static let all: [DiagnosticDescriptor] = {
        (SyntaxDiagnostics.all + CheckerDiagnostics.all + Suppressions.all + BuildDiagnostics.all + LottieDiagnostics.all + TestDiagnostics.all + FileDiagnostics.all).sorted { $0.code < $1.code }
    }()

    public static let codes: Set<String> = Set(all.map(\.code.rawValue))

    public static func descriptor(_ code: String) -> DiagnosticDescriptor? {
        all.first { $0.code.rawValue.lowercased() == code.lowercased() }
    }
}
