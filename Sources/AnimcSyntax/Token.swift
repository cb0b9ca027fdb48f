import AnimcBase

/// The kinds of token the lexer produces. Comments and whitespace are trivia and
/// never appear; newlines are recorded as a flag on the token that follows them.
public enum TokenKind: UInt8, Sendable, CaseIterable {
    case eof
    case identifier
    case number
    case string
    case color
    /// Bytes the lexer could not make sense of; already diagnosed.
    case invalid

    // Reserved words.
    case kwLet, kwTiming, kwComponent, kwComposition, kwFor, kwIn, kwIf, kwElse, kwTrue, kwFalse

    // Punctuation.
    case lBrace, rBrace, lParen, rParen, lBracket, rBracket
    case comma, colon, semicolon, equal, dot, tilde
    case plus, minus, star, slash
    case less, lessEqual, greater, greaterEqual, equalEqual, bangEqual
    case andAnd, orOr, bang, question
    case dotDotLess, dotDotDot

    /// How the token is named in messages ("expected '}'", "expected an identifier").
    public var displayName: String {
        switch self {
        case .eof: return "end of file"
        case .identifier: return "an identifier"
        case .number: return "a number"
        case .string: return "a string"
        case .color: return "a colour"
        case .invalid: return "an invalid token"
        default: return "'\(spelling)'"
        }
    }

    /// The fixed spelling of keywords and punctuation; empty for the others.
    public var spelling: String {
        switch self {
        case .kwLet: return "let"
        case .kwTiming: return "timing"
        case .kwComponent: return "component"
        case .kwComposition: return "composition"
        case .kwFor: return "for"
        case .kwIn: return "in"
        case .kwIf: return "if"
        case .kwElse: return "else"
        case .kwTrue: return "true"
        case .kwFalse: return "false"
        case .lBrace: return "{"
        case .rBrace: return "}"
        case .lParen: return "("
        case .rParen: return ")"
        case .lBracket: return "["
        case .rBracket: return "]"
        case .comma: return ","
        case .colon: return ":"
        case .semicolon: return ";"
        case .equal: return "="
        case .dot: return "."
        case .tilde: return "~"
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .equalEqual: return "=="
        case .bangEqual: return "!="
        case .andAnd: return "&&"
        case .orOr: return "||"
        case .bang: return "!"
        case .question: return "?"
        case .dotDotLess: return "..<"
        case .dotDotDot: return "..."
        default: return ""
        }
    }

    /// The reserved words, by spelling. `grammar/anim.ebnf` lists the same set.
    public static let keywords: [String: TokenKind] = [
        "let": .kwLet, "timing": .kwTiming, "component": .kwComponent, "composition": .kwComposition,
        "for": .kwFor, "in": .kwIn, "if": .kwIf, "else": .kwElse, "true": .kwTrue, "false": .kwFalse,
    ]

    public var isKeyword: Bool { rawValue >= TokenKind.kwLet.rawValue && rawValue <= TokenKind.kwFalse.rawValue }
}

/// One token: its kind, byte range and layout flags. Values (a number's magnitude,
/// a string's contents) are decoded from the source text when the parser needs them.
public struct Token: Hashable, Sendable {
    // Declared in this order so the two one-byte fields share the first word: 12 bytes
    // a token instead of 16, and a file holds a token per three or four bytes.
    public var kind: TokenKind
    public var flags: Flags
    public var range: SourceRange

    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A line end occurs between the previous token and this one.
        public static let newlineBefore = Flags(rawValue: 1)
        /// No whitespace or comment separates this token from the previous one
        /// (`f(` is a call, `f (` in a path command is an argument).
        public static let attached = Flags(rawValue: 2)
        /// The lexer reported a problem inside this token.
        public static let hasError = Flags(rawValue: 4)
    }

    public init(kind: TokenKind, range: SourceRange, flags: Flags) {
        self.kind = kind
        self.range = range
        self.flags = flags
    }
}

/// The units a number literal may carry. Lengths are in points and need no unit.
public enum NumberUnit: String, Sendable, CaseIterable, Hashable {
    case s, ms, deg, rad, turn, percent = "%", pt

    /// The spelling a user writes after the digits.
    public var spelling: String { rawValue }

    public static func from(spelling: String) -> NumberUnit? {
        NumberUnit(rawValue: spelling)
    }

    /// ``from(spelling:)`` for the spelling's UTF-8 bytes, without making a string: the
    /// lexer checks every unit it meets and the parser reads it again. Compared byte by
    /// byte with each case's spelling.
    public static func from(bytes: UnsafeBufferPointer<UInt8>) -> NumberUnit? {
        for unit in allCases {
            var spelling = unit.rawValue
            if spelling.withUTF8({ $0.elementsEqual(bytes) }) { return unit }
        }
        return nil
    }
}
