import AnimcBase

/// A small JSON Schema validator for the subset our schemas use (draft 2020-12
/// keywords: type, properties, required, additionalProperties, items, prefixItems,
/// minItems, maxItems, minProperties, maxProperties, enum, const, minimum, maximum,
/// exclusiveMinimum, oneOf, anyOf, $ref to $defs).
/// Enough to validate outputs structurally inside `swift test`; CI also validates with
/// check-jsonschema.
public struct SchemaValidator {
    let root: JSONValue

    public init(schema: JSONValue) { root = schema }

    /// The first few violations, each with its JSON path; empty when valid.
    public func validate(_ value: JSONValue) -> [String] {
        var errors: [String] = []
        check(value, root, "$", &errors)
        return errors
    }

    private func resolve(_ schema: JSONValue) -> JSONValue {
        if let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/$defs/") {
            let name = String(ref.dropFirst("#/$defs/".count))
            return root["$defs"]?[name] ?? schema
        }
        return schema
    }

    private func typeMatches(_ v: JSONValue, _ type: String) -> Bool {
        switch (type, v) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): return true
        case ("number", .number): return true
        case ("integer", .number(let x)): return x == x.rounded()
        default: return false
        }
    }

    private func check(_ v: JSONValue, _ s: JSONValue, _ path: String, _ errors: inout [String]) {
        guard errors.count < 20 else { return }
        let schema = resolve(s)
        if let type = schema["type"] {
            let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            if !types.contains(where: { typeMatches(v, $0) }) {
                errors.append("\(path): expected \(types.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(v) { errors.append("\(path): not one of the allowed values") }
        if let c = schema["const"], c != v { errors.append("\(path): expected \(c.serializedString(style: .compact))") }
        if case .number(let x) = v {
            if let m = schema["minimum"]?.numberValue, x < m { errors.append("\(path): below \(m)") }
            if let m = schema["maximum"]?.numberValue, x > m { errors.append("\(path): above \(m)") }
            if let m = schema["exclusiveMinimum"]?.numberValue, x <= m { errors.append("\(path): not above \(m)") }
        }
        if let options = schema["oneOf"]?.arrayValue {
            let matching = options.filter { option in
                var e: [String] = []
                check(v, option, path, &e)
                return e.isEmpty
            }
            if matching.count != 1 { errors.append("\(path): matches \(matching.count) of oneOf's schemas, not exactly one") }
        }
        if let options = schema["anyOf"]?.arrayValue {
            let any = options.contains { option in
                var e: [String] = []
                check(v, option, path, &e)
                return e.isEmpty
            }
            if !any { errors.append("\(path): matches none of anyOf's schemas") }
        }
        if case .object(let members) = v {
            if let n = schema["minProperties"]?.numberValue, Double(members.count) < n { errors.append("\(path): fewer than \(Int(n)) members") }
            if let n = schema["maxProperties"]?.numberValue, Double(members.count) > n { errors.append("\(path): more than \(Int(n)) members") }
            for key in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !members.contains(where: { $0.key == key }) {
                errors.append("\(path): missing '\(key)'")
            }
            let properties = schema["properties"]?.objectValue ?? []
            for m in members {
                if let sub = properties.first(where: { $0.key == m.key }) {
                    check(m.value, sub.value, "\(path).\(m.key)", &errors)
                } else if let extra = schema["additionalProperties"] {
                    if extra == .bool(false) {
                        errors.append("\(path): unexpected '\(m.key)'")
                    } else if case .object = extra {
                        check(m.value, extra, "\(path).\(m.key)", &errors)
                    }
                }
            }
        }
        if case .array(let items) = v {
            if let n = schema["minItems"]?.numberValue, Double(items.count) < n { errors.append("\(path): fewer than \(Int(n)) items") }
            if let n = schema["maxItems"]?.numberValue, Double(items.count) > n { errors.append("\(path): more than \(Int(n)) items") }
            let prefix = schema["prefixItems"]?.arrayValue ?? []
            for (i, item) in items.enumerated() {
                if i < prefix.count {
                    check(item, prefix[i], "\(path)[\(i)]", &errors)
                } else if let each = schema["items"], each != .bool(true) {
                    if each == .bool(false) { errors.append("\(path)[\(i)]: no more items allowed") } else { check(item, each, "\(path)[\(i)]", &errors) }
                }
            }
        }
    }
}
