import AnimcBase
import AnimcDiagnostics
import AnimcPorting
import AnimcSyntax

/// Pasted code reads the app's own objects: `self.bounds`, `self.view.center`,
/// `view.frame.size.width`, `self.lineWidth`. No fix can know those values, so they stay
/// errors, but each is told plainly and **once per name** (a paste reads `self.bounds`
/// in every sublayer): the first use carries the error, later uses of the same name add
/// nothing, and the help names a declaration to write once.
enum AppValues {
    /// The members of a view or layer that say a name reads one, when the name itself
    /// is not defined (`view.center`, `containerView.bounds`).
    static let viewMembers: Set<String> = [
        "bounds", "frame", "center", "layer", "size", "origin", "width", "height", "superview", "view",
        "contentView", "safeAreaInsets", "window",
    ]

    /// A view's geometry: what a read is named by (`self.bounds.size.width` reads
    /// `self.bounds`).
    static let geometry: Set<String> = ["bounds", "frame", "center"]

    /// The help: a declaration for a view's geometry, with a plausible value (an
    /// iPhone's screen), else the name to declare.
    static func help(for chain: [String]) -> String {
        let last = chain.last ?? "self"
        let geometry: [String: String] = [
            "bounds": "viewBounds = (0, 0, 375, 667)", "frame": "viewFrame = (0, 0, 375, 667)",
            "center": "viewCenter = (187.5, 333.5)", "width": "viewWidth = 375", "height": "viewHeight = 667",
            "size": "viewSize = (375, 667)", "origin": "viewOrigin = (0, 0)",
        ]
        if let g = geometry[last] { return "declare the value it has in the app once and use that name, for example 'let \(g)'" }
        if last == "self" { return "declare the value it stands for in the app with 'let' and use that name" }
        return "declare '\(last)' once with the value it has in the app ('let \(last) = ...') and use that name"
    }
}

extension Checker {
    /// The dotted names of `expr` when it reads the app: rooted at `self`, or at a name
    /// that is defined nowhere followed by a member views have. Nil otherwise (an
    /// undefined name alone is an ordinary E0301 with a suggestion).
    func appRead(_ expr: Expr, _ scope: Scope) -> [String]? {
        var names: [String] = []
        var e = expr
        while true {
            switch tree[e] {
            case .member(let base, let name):
                names.insert(name.name, at: 0)
                e = base
                continue
            case .identifier(let root):
                if root == "self" { return [root] + names }
                guard let first = names.first, AppValues.viewMembers.contains(first),
                      scope.resolve(Identifier(root, e.range, nameID: tree.nameID(e))) == nil,
                      Builtins.constant(root) == nil, SwiftSpellings.meaning(of: root) == nil,
                      !SwiftSpellings.types.contains(root) else { return nil }
                return [root] + names
            default:
                return nil
            }
        }
    }

    /// `UIColor(named: "Brand")`: a colour of the app's asset catalog, told once per name.
    func reportAppColour(_ name: String, _ range: SourceRange) {
        let d = CheckerDiagnostics.unknownName.at(
            range, "'UIColor(named: \(name))' reads the app's asset catalog, which a .anim file cannot see", label: "the app's value",
            help: "declare the colour it has in the app once and use that name, for example 'let brand = #ff8000'")
        report(d, key: "E0301|app|colour|\(name)")
    }

    /// Reports a read of the app's value once per name (see ``AppValues``).
    func reportAppRead(_ chain: [String], _ range: SourceRange) {
        // `self.bounds.size.width` reads `self.bounds`: one name for both.
        let object = chain.firstIndex { AppValues.geometry.contains($0) }.map { Array(chain[...$0]) } ?? chain
        let name = object.joined(separator: ".")
        let d = CheckerDiagnostics.unknownName.at(
            range, "'\(name)' reads the app's object, which a .anim file cannot see", label: "the app's value",
            help: AppValues.help(for: object))
        report(d, key: "E0301|app|\(name)")
    }
}
