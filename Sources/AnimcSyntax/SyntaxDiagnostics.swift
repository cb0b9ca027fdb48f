import AnimcBase
import AnimcDiagnostics

/// The lexical (E01xx) and syntax (E02xx) diagnostic catalogue. Every message the
/// lexer and parser can produce is built here; call sites only pass data.
///
/// Please keep descriptors in code order.
public enum SyntaxDiagnostics {
    // MARK: Descriptors

    public static let invalidUTF8Descriptor = DiagnosticDescriptor(
        "E0101", "invalid-utf8", .error, "The file is not valid UTF-8",
        explanation: """
        `.anim` sources are UTF-8. A byte sequence that is not valid UTF-8 was found; \
        this usually means the file was saved in another encoding (Latin-1, UTF-16) or \
        was corrupted. The compiler keeps going, treating the bad bytes as unknown \
        characters, so later errors are still reported.

        Fix: re-save the file as UTF-8 in your editor.
        """)

    public static let unexpectedCharacterDescriptor = DiagnosticDescriptor(
        "E0102", "unexpected-character", .error, "A character that cannot start a token",
        explanation: """
        Outside strings and comments, `.anim` uses ASCII letters, digits and the \
        punctuation `{ } ( ) [ ] , : ; = . ~ + - * / < > ! ? & | #`. Anything else is \
        reported once and skipped.

        Common causes: `&` or `|` instead of `&&` and `||`; `%` used as a remainder \
        operator (use `mod(a, b)`; `50%` is a percentage only when the `%` touches the \
        digits); single quotes around a string (use double quotes); a typographic \
        character pasted from a document.
        """)

    public static let unterminatedStringDescriptor = DiagnosticDescriptor(
        "E0103", "unterminated-string", .error, "A string literal without its closing quote",
        explanation: """
        A string starts with `"` and must end with `"` on the same line. Strings cannot \
        span lines; use `\\n` for a line break inside one.

        ```
        contents: image("chimes-tile)     // error: missing "
        contents: image("chimes-tile")    // fixed
        ```
        """)

    public static let invalidEscapeDescriptor = DiagnosticDescriptor(
        "E0104", "invalid-escape", .error, "An unknown escape sequence in a string",
        explanation: """
        Inside strings a backslash starts an escape. The valid escapes are `\\n`, `\\t`, \
        `\\r`, `\\0`, `\\"`, `\\\\` and `\\u{...}` with one to eight hex digits naming a \
        Unicode scalar. To write a backslash itself, double it.
        """)

    public static let unterminatedCommentDescriptor = DiagnosticDescriptor(
        "E0105", "unterminated-comment", .error, "A block comment that is never closed",
        explanation: """
        A `/*` comment runs until its matching `*/`. Block comments nest, so every `/*` \
        inside one needs its own `*/`. A comment left open swallows the rest of the file.
        """)

    public static let malformedNumberDescriptor = DiagnosticDescriptor(
        "E0106", "malformed-number", .error, "A number literal that is not well formed",
        explanation: """
        Numbers are digits with an optional fraction and exponent: `12`, `0.5`, `1e-3`, \
        `2.5e2`. A fraction needs digits on both sides of the dot (`0.5`, not `.5` or \
        `5.`); an exponent needs digits after `e`. A unit may follow directly: `3s`, \
        `90deg`, `50%`.
        """)

    public static let unknownUnitDescriptor = DiagnosticDescriptor(
        "E0107", "unknown-unit", .error, "A number with a unit animc does not know",
        explanation: """
        The units are `s` and `ms` (time), `deg`, `rad` and `turn` (angle), `pt` \
        (length; plain numbers are points too) and `%` (a fraction: `50%` is `0.5`). \
        The unit is written directly after the digits with no space.

        A size is written with the `x` operator and spaces: `375 x 667`, not `375x667`.
        """)

    public static let invalidColorDescriptor = DiagnosticDescriptor(
        "E0108", "invalid-color", .error, "A colour literal with the wrong number of hex digits",
        explanation: """
        Colour literals are `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` in hexadecimal. \
        Other forms: `rgb(15, 78, 101)`, `rgba(15, 78, 101, 0.5)` and named colours such \
        as `white` or `clear`.
        """)

    public static let numberOutOfRangeDescriptor = DiagnosticDescriptor(
        "E0109", "number-out-of-range", .error, "A number literal too large to represent",
        explanation: """
        Numbers are 64-bit floating point. A literal beyond about 1.8e308 cannot be \
        represented. No animation needs such a value; check for a typo in the exponent.
        """)

    public static let pastedCSyntaxDescriptor = DiagnosticDescriptor(
        "E0110", "pasted-c-syntax", .error, "C or Objective-C syntax that .anim does not have",
        explanation: """
        Core Animation code pasted from C or Objective-C carries syntax `.anim` does not \
        have: a float suffix (`1.0f`, `12.f`), the `@` of an Objective-C literal \
        (`@0.5`, `@(x)`, `@[…]`, `@"…"`, `@YES`) and C casts (`(CGFloat)M_PI`, \
        `(id)path.CGPath`, `(__bridge id)color`). Each is reported where it is, every one \
        on a line, with a fix-it that removes it and keeps the value; checking goes on as \
        if it were not there, so the spellings inside (`M_PI`, `kCAFillModeForwards`) are \
        reported in the same round.

        Fix: `animc check --fix` removes them all, with every other fix that keeps the \
        meaning.
        """)

    public static let expectedItemDescriptor = DiagnosticDescriptor(
        "E0201", "expected-item", .error, "Something that cannot start an item in this block",
        explanation: """
        Blocks hold items, one per line (or separated by `;` or `,`): declarations \
        (`let`, `timing`, `component`, `composition`, `path`), layers (`layer`, \
        `shape`, `image`, `gradient`, `transformLayer`, `replicator`, each optionally preceded by \
        `mask`), properties (`opacity: 0.5`), animations (`basic`, `keyframes`, \
        `motion`, `spring`, `decay`, `group`), keyframe rows (`50% = 1`), component \
        instances (`tile[i] = Tile(...)`), `for` loops and `if` blocks. The parser \
        skips to the next line and goes on.
        """)

    public static let expectedExpressionDescriptor = DiagnosticDescriptor(
        "E0202", "expected-expression", .error, "A value is missing",
        explanation: """
        A value was expected here: after `:` in a property, after `=` in `let`, after \
        an operator, or inside brackets. Values are numbers with units, colours, \
        strings, names, tuples `(x, y)`, lists `[a, b]`, calls `cubic(0.4, 0, 0.2, 1)` \
        and expressions built from them.
        """)

    public static let unclosedDelimiterDescriptor = DiagnosticDescriptor(
        "E0203", "unclosed-delimiter", .error, "A bracket or brace that is never closed",
        explanation: """
        Every `{`, `(` and `[` needs its partner. The diagnostic points at where the \
        closing one was expected and labels where the block was opened. A missing `}` \
        often shows up at the end of the file; the opening label tells you which \
        block it belongs to.
        """)

    public static let expectedNameDescriptor = DiagnosticDescriptor(
        "E0204", "expected-name", .error, "A declaration without its name",
        explanation: """
        Declarations are named: `let D = 3s`, `layer logo { }`, `path infinity { }`, \
        `component Tile(...) { }`, `timing ease = cubic(...)`. Names start with a \
        letter or `_` and continue with letters, digits and `_`. Reserved words (`let`, \
        `timing`, `component`, `composition`, `for`, `in`, `if`, `else`, `true`, \
        `false`) cannot be names.
        """)

    public static let missingSeparatorDescriptor = DiagnosticDescriptor(
        "E0205", "missing-separator", .error, "Two items on one line without a separator",
        explanation: """
        Items end at a line break. To put several on one line, separate them with `;` \
        or `,`:

        ```
        spring position { mass: 1, stiffness: 100, damping: 10 }
        ```

        This error also appears when a value is followed by something that cannot \
        continue it, such as `opacity: 0.5 1`.
        """)

    public static let expectedTokenDescriptor = DiagnosticDescriptor(
        "E0206", "expected-token", .error, "A required piece of punctuation or keyword is missing",
        explanation: """
        The construct needs a specific token here: `:` after a property name, `=` \
        in `let` and keyframe rows, `in` in a `for` loop, `,` or `)` in an argument \
        list, and so on. The message names what was expected and what was found.
        """)

    public static let nestingTooDeepDescriptor = DiagnosticDescriptor(
        "E0207", "nesting-too-deep", .error, "Blocks or expressions nested beyond the limit",
        explanation: """
        The parser accepts up to 256 levels of nested blocks, brackets and operators. \
        Deeper input is almost certainly generated or corrupted; it is skipped with \
        this one diagnostic instead of exhausting the stack.
        """)

    public static let misplacedItemDescriptor = DiagnosticDescriptor(
        "E0208", "misplaced-item", .error, "An item in a block that cannot hold it",
        explanation: """
        Each block holds certain items: the file holds declarations and layers; \
        layers hold properties, sublayers, animations and instances; animations hold \
        timing attributes, keyframe rows and (in groups) other animations; \
        compositions hold only attributes; paths hold path commands. For example a \
        keyframe row `50% = 1` belongs in a `keyframes` block, and a property at the \
        top level has no layer to belong to.
        """)

    public static let unexpectedClosingDescriptor = DiagnosticDescriptor(
        "E0209", "unexpected-closing-delimiter", .error, "A closing bracket with nothing to close",
        explanation: """
        A `}`, `)` or `]` appeared where no block or bracket was open. Often a block \
        was closed twice, or its opening brace was deleted.
        """)

    public static let chainedComparisonDescriptor = DiagnosticDescriptor(
        "E0210", "chained-comparison", .error, "Comparison operators used in a chain",
        explanation: """
        `a < b < c` is ambiguous, so comparisons do not chain. Write \
        `a < b && b < c`.
        """)

    public static let badRangeOperatorDescriptor = DiagnosticDescriptor(
        "E0211", "bad-range-operator", .error, "`..` is not an operator",
        explanation: """
        Ranges are half-open `a ..< b` (b excluded) or closed `a ... b` (b included), \
        as in Swift. `..` alone is not an operator.
        """)

    public static let emptyFileDescriptor = DiagnosticDescriptor(
        "W0212", "empty-file", .warning, "The file declares nothing",
        explanation: """
        The file holds no declarations, only whitespace or comments, so it produces \
        no composition. This is usually a file that was created and never filled, \
        or one that a tool truncated.
        """)

    public static let tooManyDiagnosticsDescriptor = DiagnosticDescriptor(
        "E0213", "too-many-diagnostics", .error, "So many problems that animc stopped recording them",
        explanation: """
        animc records at most 1,000 diagnostics per file in each stage (syntax, then \
        checking); past that it says so once and stops recording, because thousands \
        of messages help nobody and a corrupt or generated file can produce one per \
        line, millions in all. Fix the first problems, often one mistake repeated, and \
        check again. When none of the problems left out is an error (a thousand \
        unused constants, say), this is a warning and the file still builds.
        """)

    /// How many diagnostics a stage records per file before it stops (E0213).
    public static let recordedLimit = 1000

    /// Every lexical and syntax descriptor, in code order.
    public static let all: [DiagnosticDescriptor] = [
        invalidUTF8Descriptor, unexpectedCharacterDescriptor, unterminatedStringDescriptor,
        invalidEscapeDescriptor, unterminatedCommentDescriptor, malformedNumberDescriptor,
        unknownUnitDescriptor, invalidColorDescriptor, numberOutOfRangeDescriptor, pastedCSyntaxDescriptor,
        expectedItemDescriptor, expectedExpressionDescriptor, unclosedDelimiterDescriptor,
        expectedNameDescriptor, missingSeparatorDescriptor, expectedTokenDescriptor,
        nestingTooDeepDescriptor, misplacedItemDescriptor, unexpectedClosingDescriptor,
        chainedComparisonDescriptor, badRangeOperatorDescriptor, emptyFileDescriptor,
        tooManyDiagnosticsDescriptor,
    ]

    // MARK: Lexical factories

    static func invalidUTF8(_ range: SourceRange) -> Diagnostic {
        invalidUTF8Descriptor.at(range, "invalid UTF-8 byte sequence", label: "not valid UTF-8",
                                 help: "save the file as UTF-8")
    }

    static func unexpectedCharacter(_ range: SourceRange, _ scalar: Unicode.Scalar) -> Diagnostic {
        let shown = scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F
            ? "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            : "'\(Character(scalar))'"
        var help: String?
        var fixIts: [FixIt] = []
        switch scalar {
        case "&": help = "logical and is written '&&'"; fixIts = [.replace(range, with: "&&", "use '&&'")]
        case "|": help = "logical or is written '||'"; fixIts = [.replace(range, with: "||", "use '||'")]
        case "%": help = "for a remainder use mod(a, b); a percentage touches its digits, as in 50%"
        case "'": help = "strings are written with double quotes"
        case "\u{201C}", "\u{201D}": help = "this is a typographic quote; strings use the ASCII '\"'"
            fixIts = [.replace(range, with: "\"", "use '\"'")]
        case "\u{2212}": help = "this is a typographic minus; use the ASCII '-'"
            fixIts = [.replace(range, with: "-", "use '-'")]
        case "\u{00D7}": help = "sizes use the letter x with spaces around it, as in 375 x 667"
            fixIts = [.replace(range, with: "x", "use 'x'")]
        default: break
        }
        return unexpectedCharacterDescriptor.at(range, "unexpected character \(shown)", help: help, fixIts: fixIts)
    }

    static func wrongQuotes(_ range: SourceRange, openLength: Int, closeLength: Int) -> Diagnostic {
        let open = SourceRange(start: range.start, end: range.start + UInt32(openLength))
        let close = SourceRange(start: range.end - UInt32(closeLength), end: range.end)
        return unexpectedCharacterDescriptor.at(
            open, "strings are written with double quotes", label: "not a string quote",
            secondary: [Label(close, "closing quote")],
            fixIts: [FixIt("use double quotes", edits: [TextEdit(range: open, replacement: "\""), TextEdit(range: close, replacement: "\"")])])
    }

    static func unterminatedString(_ opening: SourceRange, end: UInt32) -> Diagnostic {
        unterminatedStringDescriptor.at(
            SourceRange(start: opening.start, end: max(opening.end, end)), "unterminated string literal",
            label: "this string is never closed", notes: [],
            fixIts: [.insert("\"", at: end, "close the string")])
    }

    static func invalidEscape(_ range: SourceRange, text: String) -> Diagnostic {
        invalidEscapeDescriptor.at(range, "invalid escape sequence '\(text)' in string",
                                   help: "valid escapes are \\n, \\t, \\r, \\0, \\\", \\\\ and \\u{hex}")
    }

    static func unterminatedComment(_ opening: SourceRange, end: UInt32) -> Diagnostic {
        unterminatedCommentDescriptor.at(opening, "unterminated block comment", label: "comment opened here",
                                         fixIts: [.insert("*/", at: end, "close the comment")])
    }

    static func missingFractionDigits(_ range: SourceRange) -> Diagnostic {
        malformedNumberDescriptor.at(range, "expected digits after the decimal point",
                                     fixIts: [.insert("0", at: range.end, "add a digit")])
    }

    static func missingExponentDigits(_ range: SourceRange, marker: SourceRange) -> Diagnostic {
        malformedNumberDescriptor.at(range, "expected digits in the exponent", label: "exponent has no digits")
    }

    static func leadingDotNumber(_ range: SourceRange, digits: String) -> Diagnostic {
        malformedNumberDescriptor.at(range, "a number cannot start with '.'",
                                     fixIts: [.insert("0", at: range.start, "write 0.\(digits)", applicability: .machineApplicable)])
    }

    /// The `#` of Swift's `#colorLiteral(...)`.
    static func colorLiteral(_ hash: SourceRange) -> Diagnostic {
        pastedCSyntaxDescriptor.at(hash, "'#colorLiteral' is Xcode's colour literal: .anim writes rgba(...)", label: "Swift literal",
                                   fixIts: [.replace(hash, with: "", "remove '#'", applicability: .machineApplicable)])
    }

    /// `t.1` (Swift's tuple element), where `.1` is `range`.
    static func tupleElement(_ range: SourceRange, digits: String) -> Diagnostic {
        malformedNumberDescriptor.at(range, "'.\(digits)' reads a Swift tuple's element: .anim indexes it",
                                     label: "Swift tuple element",
                                     fixIts: [.replace(range, with: "[\(digits)]", "write [\(digits)]", applicability: .machineApplicable)])
    }

    /// `1.0f`, `12.f`: `suffix` is the `f` (with the dot before it when no digit follows).
    static func floatSuffix(_ suffix: SourceRange, written: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(suffix, "'\(written)' is C's float suffix: .anim numbers have none", label: "C float suffix",
                                   fixIts: [.replace(suffix, with: "", "remove it", applicability: .machineApplicable)])
    }

    /// `0xFF8000`: a hexadecimal integer, written in decimal.
    static func hexLiteral(_ range: SourceRange, written: String, decimal: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(range, "'\(written)' is a hexadecimal literal: .anim writes numbers in decimal", label: "hexadecimal",
                                   fixIts: [.replace(range, with: decimal, "write it in decimal", applicability: .machineApplicable)])
    }

    /// `@0.5`, `@"forwards"`, `@[...]`: the `@` of an Objective-C literal.
    /// `@0.5`, `@(x + 1)`; `boxedOperand` is the `)` of `@(x)` around one number or
    /// name, removed with the `@` and the `(`.
    static func objectiveCLiteral(_ at: SourceRange, boxedOperand: Int?) -> Diagnostic {
        guard let close = boxedOperand.map(UInt32.init) else {
            return pastedCSyntaxDescriptor.at(at, "'@' marks an Objective-C literal: .anim writes the value alone", label: "Objective-C",
                                              fixIts: [.replace(at, with: "", "remove '@'", applicability: .machineApplicable)])
        }
        return pastedCSyntaxDescriptor.at(
            at, "'@(...)' boxes a value in Objective-C: .anim writes the value alone", label: "Objective-C",
            fixIts: [FixIt("remove '@(' and ')'", edits: [TextEdit(range: SourceRange(start: at.start, end: at.end + 1), replacement: ""),
                                                        TextEdit(range: SourceRange(start: close, end: close + 1), replacement: "")],
                           applicability: .machineApplicable)])
    }

    /// `(CGFloat)M_PI`: `removed` runs from the opening parenthesis to the operand.
    static func cCast(_ cast: SourceRange, removed: SourceRange, type: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(cast, "'(\(type))' is a C cast: .anim values need none", label: "C cast",
                                   fixIts: [.replace(removed, with: "", "remove the cast", applicability: .machineApplicable)])
    }

    /// `[0, 1] as [NSNumber]`: `removed` runs from the end of the value to the type's.
    static func swiftCast(_ cast: SourceRange, removed: SourceRange, written: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(cast, "'\(written)' is a Swift cast: .anim values need none", label: "Swift cast",
                                   fixIts: [.replace(removed, with: "", "remove the cast", applicability: .machineApplicable)])
    }

    /// `color!.cgColor`, `view?.center`: Swift's unwrapping, before a member.
    static func swiftUnwrap(_ mark: SourceRange, written: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(mark, "'\(written)' unwraps a Swift optional: .anim values are never nil", label: "Swift optional",
                                   fixIts: [.replace(mark, with: "", "remove it", applicability: .machineApplicable)])
    }

    /// `a ?? b`, `a ?: b` other than a read of the presentation layer.
    static func fallbackOperator(_ range: SourceRange, written: String) -> Diagnostic {
        pastedCSyntaxDescriptor.at(range, "'\(written)' gives a value for nil: .anim values are never nil", label: "pasted fallback",
                                   help: "write the value meant; 'from: presentation' reads what the layer shows")
    }

    static func malformedNumber(_ range: SourceRange, text: String) -> Diagnostic {
        malformedNumberDescriptor.at(range, "malformed number '\(text)'", label: "more than one decimal point")
    }

    static func numberOutOfRange(_ range: SourceRange) -> Diagnostic {
        numberOutOfRangeDescriptor.at(range, "number literal is too large to represent",
                                      label: "beyond the range of a 64-bit float")
    }

    static func unknownUnit(_ range: SourceRange, unit: String, looksLikeSize: Bool) -> Diagnostic {
        let known = NumberUnit.allCases.map(\.spelling)
        if looksLikeSize {
            return unknownUnitDescriptor.at(range, "unknown unit '\(unit)'",
                                            help: "a size is written with spaces around 'x', as in 375 x 667",
                                            fixIts: [.replace(range, with: " x ", "add spaces around 'x'")])
        }
        let aliases = ["sec": "s", "secs": "s", "second": "s", "seconds": "s", "msec": "ms",
                       "degrees": "deg", "degree": "deg", "radians": "rad", "px": "pt", "turns": "turn"]
        let suggestion = aliases[unit] ?? closestMatch(to: unit, in: known)
        let help = "units are " + known.joined(separator: ", ")
        return unknownUnitDescriptor.at(range, "unknown unit '\(unit)'", help: help,
                                        fixIts: suggestion.map { [.replace(range, with: $0, "use '\($0)'")] } ?? [])
    }

    static func invalidColor(_ range: SourceRange, text: String) -> Diagnostic {
        invalidColorDescriptor.at(range, "invalid colour literal '\(text)'",
                                  help: "colours are #RGB, #RGBA, #RRGGBB or #RRGGBBAA in hexadecimal")
    }

    static func halfOpenRangeOperator(_ range: SourceRange) -> Diagnostic {
        badRangeOperatorDescriptor.at(range, "'..' is not an operator",
                                      help: "use '..<' for a half-open range or '...' for a closed one",
                                      fixIts: [.replace(range, with: "..<", "use '..<'")])
    }

    // MARK: Syntax factories

    static func expectedItem(_ range: SourceRange, found: String, context: String) -> Diagnostic {
        expectedItemDescriptor.at(range, "expected \(context), found \(found)")
    }

    static func unknownKind(_ range: SourceRange, name: String, suggestion: String?) -> Diagnostic {
        expectedItemDescriptor.at(range, "unknown kind '\(name)'", label: "not a layer or animation kind",
                                  help: suggestion.map { "did you mean '\($0)'?" }
                                    ?? "layers are layer, shape, image, gradient, transformLayer, replicator; animations are basic, keyframes, motion, spring, decay, group",
                                  fixIts: suggestion.map { [.replace(range, with: $0, "replace with '\($0)'")] } ?? [])
    }

    static func expectedExpression(_ range: SourceRange, found: String, after: String?) -> Diagnostic {
        let what = after.map { "expected a value after \($0)" } ?? "expected a value"
        return expectedExpressionDescriptor.at(range, "\(what), found \(found)", label: "value expected here")
    }

    static func unclosedDelimiter(at range: SourceRange, closing: TokenKind, opened: SourceRange, what: String,
                                  found: String, insertAt: UInt32, insertText: String? = nil) -> Diagnostic {
        unclosedDelimiterDescriptor.at(
            range, "expected \(closing.displayName) to close \(what), found \(found)",
            secondary: [Label(opened, "opened here")],
            fixIts: [.insert(insertText ?? closing.spelling, at: insertAt, "insert \(closing.displayName)")])
    }

    static func expectedName(_ range: SourceRange, after: String, found: String) -> Diagnostic {
        expectedNameDescriptor.at(range, "expected a name after \(after), found \(found)", label: "name expected here")
    }

    static func missingSeparator(_ range: SourceRange, found: String, previousEnd: UInt32) -> Diagnostic {
        missingSeparatorDescriptor.at(range, "expected a line break or ';' before \(found)",
                                      label: "a new item starts here",
                                      fixIts: [.insert(";", at: previousEnd, "insert ';'")])
    }

    static func unexpectedAfterValue(_ range: SourceRange, found: String) -> Diagnostic {
        missingSeparatorDescriptor.at(range, "unexpected \(found) after the value", label: "the value ended before this")
    }

    static func expectedToken(_ range: SourceRange, expected: String, context: String, found: String,
                              fixIt: FixIt? = nil) -> Diagnostic {
        expectedTokenDescriptor.at(range, "expected \(expected) \(context), found \(found)",
                                   fixIts: fixIt.map { [$0] } ?? [])
    }

    static func nestingTooDeep(_ range: SourceRange, limit: Int) -> Diagnostic {
        nestingTooDeepDescriptor.at(range, "nesting is deeper than \(limit) levels", label: "the limit is reached here",
                                    notes: [Note("the nested content is skipped")])
    }

    static func misplacedItem(_ range: SourceRange, item: String, block: String, hint: String?) -> Diagnostic {
        misplacedItemDescriptor.at(range, "\(item) cannot appear in \(block)", help: hint)
    }

    static func unexpectedClosing(_ range: SourceRange, _ kind: TokenKind) -> Diagnostic {
        unexpectedClosingDescriptor.at(range, "unexpected \(kind.displayName) with nothing to close",
                                       fixIts: [.replace(range, with: "", "remove it")])
    }

    static func chainedComparison(_ range: SourceRange, first: SourceRange) -> Diagnostic {
        chainedComparisonDescriptor.at(range, "comparison operators cannot be chained",
                                       secondary: [Label(first, "first comparison")],
                                       help: "combine comparisons with '&&', as in a < b && b < c")
    }

    /// The one message a stage gives when it stops recording diagnostics.
    public static func tooManyDiagnostics(_ range: SourceRange, stage: String) -> Diagnostic {
        tooManyDiagnosticsDescriptor.at(range, "too many \(stage) problems: stopped recording after \(recordedLimit)",
                                        label: "not checked from here on",
                                        help: "fix the first problems (often one mistake repeated) and check again")
    }

    /// ``tooManyDiagnostics(_:stage:)`` when none of those left out is an error: a
    /// warning, so a file of a thousand warnings still builds.
    public static func tooManyWarnings(_ range: SourceRange, stage: String) -> Diagnostic {
        var d = tooManyDiagnosticsDescriptor.at(range, "too many \(stage) problems: stopped recording after \(recordedLimit); no error was left out",
                                                label: "nothing more recorded from here on",
                                                help: "fix the first problems (often one mistake repeated) and check again")
        d.severity = .warning
        return d
    }

    static func emptyFile(_ range: SourceRange) -> Diagnostic {
        emptyFileDescriptor.at(range, "the file is empty", help: "declare a composition and at least one layer")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
