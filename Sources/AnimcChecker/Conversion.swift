import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// Evaluates `expr` as a value of `type`. `context` names the destination in
    /// messages ("'opacity'"). Returns nil after reporting. Only timing attributes may be
    /// infinite (`finite: false`): a property's value, written or animated, may lie
    /// outside its range (``PropertyInfo/shown(_:)``) but not at infinity, which no
    /// output format can carry.
    func lowerValue(_ expr: Expr, _ scope: Scope, as type: ValueType, context: @autoclosure () -> String,
                    finite: Bool = true) -> Value? {
        if case .enumeration(let e) = type {
            return enumerationValue(expr, scope, cases: e.cases, context: context()).map { .enumeration($0) }
        }
        let v = evaluating(expr, scope, expecting: type)
        if case .presentation = v {
            report(Messages.presentationMisuse(expr.range))
            return nil
        }
        if type == .time || type == .angle, case .number(let x, .none) = v, !isLiteralNumber(expr) {
            let expected: Dimension = type == .time ? .time : .angle
            if case .identifier = tree[expr], let declared = literalConstant(expr, scope), declarationTakesUnit(expr, expected) {
                // `let d = 1.5` … `duration: d`, as pasted code declares a CFTimeInterval: the
                // unit goes where the number is written.
                report(Messages.missingUnitInDeclaration(expr.range, name: text(expr.range), expected: expected,
                                                         value: x, declaration: declared, context: context()))
            } else {
                report(Messages.missingUnit(expr.range, expected: expected, literal: false, value: x, context: context(),
                                            edits: unitEdits(expr, unit: expected == .time ? "s" : "rad")))
            }
            return nil
        }
        guard let value = convert(v, to: type, at: expr.range, context: context(), literal: isLiteralNumber(expr)) else { return nil }
        if finite, !value.isFinite {
            report(Messages.infiniteValue(expr.range, context: context()))
            return nil
        }
        return value
    }

    /// Whether a unit written at the declaration of the constant `use` names keeps
    /// every other use meaning what it did: each use is the whole value of an attribute
    /// that takes a time (for a time), or `use` is its only use. Otherwise the unit goes
    /// where it is needed (``unitEdits(_:unit:)``): `let d = 1.5` read as `d * 60`
    /// elsewhere would be a time times a number after the fix.
    private func declarationTakesUnit(_ use: Expr, _ expected: Dimension) -> Bool {
        guard let index = nameIndex, let d = index.declaration(at: use.range.start) else { return false }
        let uses = index.uses(of: d)
        if uses.count <= 1 { return true }
        guard expected == .time else { return false }
        return uses.allSatisfy { wholeValueOfTimeAttribute($0) }
    }

    /// Whether `range` is all of a `name: value` whose name takes a time (`duration:`,
    /// `beginTime:`, ...): the colon and the name before it, and the value's end after.
    private func wholeValueOfTimeAttribute(_ range: SourceRange) -> Bool {
        let bytes = tree.file.bytes
        var k = Int(range.start) - 1
        while k >= 0, bytes[k] == 0x20 || bytes[k] == 0x09 { k -= 1 }
        guard k >= 0, bytes[k] == 0x3A else { return false }
        k -= 1
        while k >= 0, bytes[k] == 0x20 { k -= 1 }
        let end = k + 1
        while k >= 0, Lexer.isIdentContinue(bytes[k]) { k -= 1 }
        let name = String(decoding: bytes[(k + 1)..<end], as: UTF8.self)
        // (A layer's time attributes are these names too.)
        guard LanguageFacts.expectation(ofAttribute: name) == .time else { return false }
        var e = Int(range.end)
        while e < bytes.count, bytes[e] == 0x20 || bytes[e] == 0x09 { e += 1 }
        if e + 1 < bytes.count, bytes[e] == 0x2F { return bytes[e + 1] == 0x2F }  // a comment, not a division
        return e >= bytes.count || [0x2C, 0x7D, 0x0A, 0x0D].contains(bytes[e])
    }

    /// The edits that give `expr`, a plain number, a unit where it stands: each literal
    /// of a sum of literals gets it (`0.99 + 0.33` → `0.99s + 0.33s`), anything else is
    /// multiplied by one of it (`(a + b) * 1s`). Core Animation's times are seconds and
    /// its angles radians, so the value is what the paste meant.
    func unitEdits(_ expr: Expr, unit: String) -> [TextEdit] {
        var literals: [Expr] = []
        func sumOfLiterals(_ e: Expr) -> Bool {
            switch tree[e] {
            case .number(_, nil): literals.append(e); return true
            case .binary(let op, let l, let r) where op == .add || op == .subtract: return sumOfLiterals(l) && sumOfLiterals(r)
            case .paren(let inner): return sumOfLiterals(inner)
            default: return false
            }
        }
        if sumOfLiterals(expr) { return literals.map { TextEdit(range: .empty(at: $0.range.end), replacement: unit) } }
        let product = " * 1" + unit
        if tree.precedenceLevel(expr) < BinaryOperator.multiply.operandLevels.left {
            return [TextEdit(range: .empty(at: expr.range.start), replacement: "("), TextEdit(range: .empty(at: expr.range.end), replacement: ")" + product)]
        }
        return [TextEdit(range: .empty(at: expr.range.end), replacement: product)]
    }

    /// The literal a name's `let` gives without a type or a unit (`let d = 1.5`), if so.
    private func literalConstant(_ expr: Expr, _ scope: Scope) -> SourceRange? {
        guard case .identifier(let name) = tree[expr], let (binding, _) = scope.resolve(name), binding.kind == .constant,
              binding.declaredType == nil, let value = binding.expr, isLiteralNumber(value) else { return nil }
        return value.range
    }

    /// Like ``lowerValue(_:_:as:context:)`` but also accepts `presentation`.
    func lowerAnimatedValue(_ expr: Expr, _ scope: Scope, as type: ValueType, context: @autoclosure () -> String) -> AnimatedValue? {
        if case .identifier(let name) = tree[expr], name == "presentation", scope.lookup(name) == nil {
            return .presentation
        }
        return lowerValue(expr, scope, as: type, context: context()).map { .value($0) }
    }

    /// A bare case name of an enumeration (`fillMode: backwards`).
    func enumerationValue(_ expr: Expr, _ scope: Scope, cases: [String], context: @autoclosure () -> String) -> String? {
        // Pasted `.forwards`, `kCAFillModeForwards`, `CAMediaTimingFillMode.forwards`:
        // reported with the .anim word as a fix-it, and read as that word.
        if let word = swiftWord(expr), cases.contains(word) {
            _ = swiftMember(expr, scope) ?? swiftName(text(expr.range), expr.range, scope)
            return word
        }
        // `fillMode = @"forwards"`: Core Animation's constants are these strings.
        if case .string(let word) = tree[expr], cases.contains(word) {
            report(CheckerDiagnostics.swiftSpelling.at(
                expr.range, "'\(text(expr.range))' is the string Core Animation's constant stands for: .anim writes '\(word)'",
                label: "pasted string", fixIts: [.replace(expr.range, with: word, "write it the .anim way", applicability: .machineApplicable)]))
            return word
        }
        guard case .identifier(let name) = tree[expr] else {
            let v = eval(expr, scope)
            if !v.isPoison {
                report(Messages.typeMismatch(expr.range, expected: "one of " + cases.joined(separator: ", "), found: v.typeName, context: context()))
            }
            return nil
        }
        if cases.contains(name) { return name }
        let message = "'\(name)' is not a valid value for \(context())"
        reportSuggesting(name, among: cases.count, { cases }) { suggestion in
            CheckerDiagnostics.typeMismatch.at(
                expr.range, message, label: "unknown value",
                help: suggestion.map { "did you mean '\($0)'?" } ?? "valid values are " + cases.joined(separator: ", "),
                fixIts: suggestion.map { [.replace(expr.range, with: $0, "replace with '\($0)'")] } ?? [])
        }
        return nil
    }

    func isLiteralNumber(_ expr: Expr) -> Bool {
        switch tree[expr] {
        case .number(_, nil): return true
        case .unary(.negate, let inner): return isLiteralNumber(inner)
        default: return false
        }
    }

    /// Converts an evaluated value to the IR type, reporting mismatches.
    func convert(_ v: SemaValue, to type: ValueType, at range: SourceRange, context: @autoclosure () -> String, literal: Bool) -> Value? {
        if v.isPoison { return nil }
        func mismatch(_ help: String? = nil) -> Value? {
            report(Messages.typeMismatch(range, expected: type.description, found: v.typeName, context: context(), help: help))
            return nil
        }
        switch type {
        case .number, .length:
            guard case .number(let x, let d) = v else { return mismatch() }
            guard d == .none else {
                report(Messages.dimensionMismatch(range, expected: .none, found: d, context: context()))
                return nil
            }
            return .number(x)
        case .time, .angle:
            let want: Dimension = type == .time ? .time : .angle
            guard case .number(let x, let d) = v else { return mismatch() }
            if d == want { return .number(x) }
            if d == .none {
                report(Messages.missingUnit(range, expected: want, literal: literal, value: x, context: context()))
            } else {
                report(Messages.dimensionMismatch(range, expected: want, found: d, context: context()))
            }
            return nil
        case .point, .size:
            guard let (x, y) = v.plainPair else {
                // Two components with units: the shape was right, the units are not.
                if case .tuple(let items, _) = v, items.count == 2 {
                    return mismatch("the \(type == .point ? "coordinates of a point" : "width and height of a size") are plain numbers (points), without units")
                }
                return mismatch(type == .point ? "a point is written (x, y)" : "a size is written width x height")
            }
            return type == .point ? .point(Point(x, y)) : .size(Size(x, y))
        case .rect:
            // Read in place, as points and sizes are: every layer's `bounds` is one.
            if case .tuple(let items, let isSize) = v {
                if items.count == 4, case .number(let x, .none) = items[0], case .number(let y, .none) = items[1],
                   case .number(let w, .none) = items[2], case .number(let h, .none) = items[3] {
                    return .rect(Rect(x, y, w, h))
                }
                if isSize, let (w, h) = v.plainPair { return .rect(Rect(0, 0, w, h)) }
            }
            return mismatch("a rect is written (x, y, width, height), or width x height at the origin")
        case .color:
            guard case .color(let c) = v else { return mismatch() }
            return .color(c)
        case .transform:
            guard case .transform(let fs) = v else { return mismatch("transforms are lists such as rotate(-45deg) scale(0.25), or identity") }
            return .transform(Transform(fs))
        case .path:
            guard case .path(let elements) = v else { return mismatch() }
            return .path(Path(elements))
        case .bool:
            guard case .bool(let b) = v else { return mismatch() }
            return .bool(b)
        case .image:
            guard case .image(let name) = v else { return mismatch("images are written image(\"asset-name\")") }
            return .image(name)
        case .enumeration:
            return mismatch()
        case .numbers:
            guard case .list(let items) = v else { return mismatch() }
            var xs: [Double] = []
            for item in items {
                guard case .number(let x, .none) = item else { return mismatch() }
                xs.append(x)
            }
            return .numbers(xs)
        case .colors:
            guard case .list(let items) = v else { return mismatch() }
            var cs: [Color] = []
            for item in items {
                guard case .color(let c) = item else { return mismatch() }
                cs.append(c)
            }
            return .colors(cs)
        }
    }

    /// Checks `value` against the property's valid range (E0313).
    func checkRange(_ value: Value, _ info: PropertyInfo, component: KeyPathComponent?, at range: SourceRange) -> Bool {
        func bad(_ what: String, _ x: Double) -> Bool {
            let valid: String
            switch (info.minimum, info.maximum) {
            case let (lo?, hi?): valid = "\(formatNumber(lo))...\(formatNumber(hi))"
            case let (lo?, nil): valid = "\(formatNumber(lo)) or more"
            case let (nil, hi?): valid = "\(formatNumber(hi)) or less"
            default: valid = "its range"
            }
            report(Messages.outOfRange(range, what: what, value: formatNumber(x), valid: valid))
            return false
        }
        func inRange(_ x: Double) -> Bool {
            (info.minimum.map { x >= $0 } ?? true) && (info.maximum.map { x <= $0 } ?? true)
        }
        switch value {
        case .number(let x):
            // Components of bounds: only the size has a minimum.
            if info.id == .bounds, let c = component, c != .width, c != .height, c != .size { return true }
            if !inRange(x) { return bad("'\(info.id.rawValue)'", x) }
        case .rect(let r):
            if let lo = info.minimum {
                if r.width < lo { return bad("the width of '\(info.id.rawValue)'", r.width) }
                if r.height < lo { return bad("the height of '\(info.id.rawValue)'", r.height) }
            }
        case .size(let s) where info.id == .bounds:
            if s.width < 0 { return bad("the width of 'bounds'", s.width) }
            if s.height < 0 { return bad("the height of 'bounds'", s.height) }
        case .numbers(let xs):
            for x in xs where !inRange(x) { return bad("an entry of '\(info.id.rawValue)'", x) }
        default:
            break
        }
        return true
    }
}
