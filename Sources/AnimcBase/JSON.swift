/// A JSON document as a value, with object members kept in insertion order so that
/// writing is deterministic and reading preserves what the file said.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [JSONMember]? { if case .object(let o) = self { return o } else { return nil } }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

// MARK: - Writing

/// How ``JSONValue/serialized(style:)`` lays out a document.
public enum JSONStyle: Sendable {
    /// No whitespace at all.
    case compact
    /// Two-space indentation; arrays that hold only scalars stay on one line, so
    /// per-frame arrays and vectors read as rows and diff line by line.
    case pretty
}

extension JSONValue {
    /// The document as UTF-8 bytes, ending with a newline in the pretty style.
    public func serialized(style: JSONStyle = .pretty) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, style: style, depth: 0)
        if style == .pretty { out.append(0x0A) }
        return out
    }

    /// The value laid out as it would be `depth` levels inside a pretty document, with
    /// no trailing newline: for writers that stream a document one element at a time.
    public func serialized(style: JSONStyle, depth: Int) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, style: style, depth: depth)
        return out
    }

    public func serializedString(style: JSONStyle = .pretty) -> String {
        String(decoding: serialized(style: style), as: UTF8.self)
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(to out: inout [UInt8], style: JSONStyle, depth: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): appendNumber(n, to: &out)
        case .string(let s): appendJSONString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            let inline = style == .compact || items.allSatisfy { $0.isScalar }
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C); if inline && style == .pretty { out.append(0x20) } }
                if !inline { newline(&out, depth + 1) }
                item.write(to: &out, style: style, depth: depth + 1)
            }
            if !inline { newline(&out, depth) }
            out.append(0x5D)
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(0x7B)
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(0x2C) }
                if style == .pretty { newline(&out, depth + 1) }
                appendJSONString(member.key, to: &out)
                out.append(0x3A)
                if style == .pretty { out.append(0x20) }
                member.value.write(to: &out, style: style, depth: depth + 1)
            }
            if style == .pretty { newline(&out, depth) }
            out.append(0x7D)
        }
    }

    private func newline(_ out: inout [UInt8], _ depth: Int) {
        out.append(0x0A)
        for _ in 0..<(depth * 2) { out.append(0x20) }
    }
}

/// Appends `s` as a JSON string literal: quotes, backslash and control characters
/// escaped, everything else (including non-ASCII) written as UTF-8.
@inlinable
public func appendJSONString(_ s: String, to out: inout [UInt8]) {
    out.append(0x22)
    for byte in s.utf8 {
        switch byte {
        case 0x22: out.append(0x5C); out.append(0x22)
        case 0x5C: out.append(0x5C); out.append(0x5C)
        case 0x0A: out.append(0x5C); out.append(0x6E)
        case 0x0D: out.append(0x5C); out.append(0x72)
        case 0x09: out.append(0x5C); out.append(0x74)
        case 0x00..<0x20:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        default: out.append(byte)
        }
    }
    out.append(0x22)
}

// MARK: - Reading

/// Why a JSON document could not be read, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// Byte offset of the problem.
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 reader over UTF-8 bytes. It never traps: malformed input, deep
/// nesting (beyond ``maxDepth``) and numbers that overflow a `Double` are errors.
public struct JSONParser {
    public static let maxDepth = 512

    private let bytes: [UInt8]
    private var i = 0

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw parser.error("unexpected data after the document") }
        return value
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: i) }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        guard i < bytes.count else { throw error("unexpected end of data") }
        switch bytes[i] {
        case 0x7B: return try parseObject(depth: depth)
        case 0x5B: return try parseArray(depth: depth)
        case 0x22: return .string(try parseString())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw error("unexpected end of data") }
        for k in 0..<count where bytes[i + k] != word.utf8Start[k] { throw error("invalid literal") }
        i += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == 0x7D { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == 0x22 else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == 0x3A else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of data") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x7D { i += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == 0x5D { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of data") }
            if bytes[i] == 0x2C { i += 1; continue }
            if bytes[i] == 0x5D { i += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = i
        if bytes[i] == 0x2D { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == 0x30 { i += 1 } else { while i < bytes.count, isDigit(bytes[i]) { i += 1 } }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw error("invalid number") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            i = start
            throw error("number out of range")
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func parseString() throws(JSONParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == 0x22 { i += 1; break }
            if b < 0x20 { throw error("control character in string") }
            if b != 0x5C { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x2F: out.append(0x2F)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else {
                        throw error("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape")
            }
        }
        guard let string = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in string") }
        return string
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("invalid escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error("invalid escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}
