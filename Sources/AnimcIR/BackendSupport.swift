/// How a backend shows a property: as Core Animation does, with a stated
/// approximation, or not at all. Each drawing backend (the renderer, the preview, the
/// Lottie export) classifies every property in a ``SupportTable``; docs/properties.md
/// is generated from the tables, and a test fails on a property a table leaves out, so
/// a new property is classified where it is added. (The timeline, the baked frames and
/// the runtime carry every property's values exactly; they draw nothing.)
public enum Support: Sendable, Equatable {
    case exact
    /// Shown, with this approximation.
    case approximate(String)
    /// Not shown, for this reason (with the warning that says so, if any).
    case leftOut(String)
}

/// One backend's ``Support`` of every property.
public struct SupportTable: Sendable {
    public let backend: String
    public let entries: [PropertyID: Support]
    /// Properties classified more than once (a mistake the test reports).
    public let repeated: [PropertyID]

    /// `exact` lists the properties shown as Core Animation shows them; the others are
    /// listed with their approximation or the reason they are left out.
    public init(backend: String, exact: [PropertyID], approximate: [PropertyID: String] = [:], leftOut: [PropertyID: String] = [:]) {
        self.backend = backend
        var entries: [PropertyID: Support] = [:]
        var repeated: [PropertyID] = []
        for p in exact {
            if entries[p] != nil { repeated.append(p) }
            entries[p] = .exact
        }
        for (p, note) in approximate {
            if entries[p] != nil { repeated.append(p) }
            entries[p] = .approximate(note)
        }
        for (p, note) in leftOut {
            if entries[p] != nil { repeated.append(p) }
            entries[p] = .leftOut(note)
        }
        self.entries = entries
        self.repeated = repeated
    }

    public subscript(property: PropertyID) -> Support? { entries[property] }

    /// The properties the table does not classify.
    public var unclassified: [PropertyID] { PropertyID.allCases.filter { entries[$0] == nil } }
}
