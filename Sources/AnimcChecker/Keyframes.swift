import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// The keyframes of a `keyframes` animation, from rows or from arrays, with every
    /// count, order and range rule checked (E0401–E0405, W0406, E0411–E0413).
    func lowerKeyframes(_ a: AttributeSet, _ rows: [KeyframeRow], _ info: KeyPathInfo, _ item: Item,
                        _ body: Block) -> Keyframes? {
        var mode = CalculationMode.linear
        if let attr = a["calculationMode"] {
            guard let m = enumerationValue(attr.value, attr.scope, cases: CalculationMode.allCases.map(\.rawValue), context: "'calculationMode'"),
                  let cm = CalculationMode(rawValue: m) else { return nil }
            mode = cm
        }
        if !info.type.interpolates && mode != .discrete {
            report(Messages.notInterpolatable(animationNameRange(item), keyPath: info.keyPath, type: info.type, basic: false,
                                              fixIt: a["calculationMode"] == nil
                                                ? attributeInsertion(body, "calculationMode: discrete", message: "use discrete mode") : nil))
            return nil
        }
        if !rows.isEmpty, let first = a["values"] ?? a["keyTimes"] ?? a["timingFunctions"] {
            report(Messages.keyframeForms(first.range, problem: "keyframe rows and '\(first.name):' cannot be mixed"))
            return nil
        }
        var values: [Value] = []
        var valueRanges: [SourceRange] = []
        var keyTimes: [Double]?
        var timingFunctions: [TimingFunction] = []
        var ok = true

        if !rows.isEmpty {
            // A segment's timing function is written only once one is given, the rows
            // before it taking `linear`. Sized once: growing these by doubling was a
            // tenth of an instance's allocations.
            var times: [Double] = []
            times.reserveCapacity(rows.count)
            values.reserveCapacity(rows.count)
            for (i, row) in rows.enumerated() {
                if let v = lowerRowValue(row.value, row.scope, info) { values.append(v) } else { ok = false }
                if let t = keyTime(row.time, row.scope) { times.append(t) } else { ok = false }
                if let e = row.timing {
                    if let f = lowerTimingFunction(e, row.scope, context: "a keyframe's segment") {
                        // One per segment, from a row to the next: the last row's own is
                        // reported below.
                        if timingFunctions.isEmpty {
                            timingFunctions.reserveCapacity(rows.count - 1)
                            timingFunctions.append(contentsOf: repeatElement(.linear, count: i))
                        }
                        timingFunctions.append(f)
                    } else { ok = false }
                } else if !timingFunctions.isEmpty && i < rows.count - 1 {
                    timingFunctions.append(.linear)
                }
            }
            guard ok else { return nil }
            if let last = rows.last, let t = last.timing {
                report(Messages.lastRowTiming(SourceRange(start: lastTildeStart(last) ?? t.range.start, end: t.range.end)))
                return nil
            }
            if mode.isPaced {
                report(Messages.pacedIgnores(rows[0].time.range, attribute: "key times", mode: mode, removable: false))
            } else {
                guard checkKeyTimes(times, mode: mode, valuesCount: values.count, rowsForm: true, range: { rows[$0].time.range })
                else { return nil }
                keyTimes = mode == .discrete ? times + [1] : times
            }
            if !timingFunctions.isEmpty && mode.isPaced {
                if let r = rows.first(where: { $0.timing != nil })?.timing?.range {
                    report(Messages.pacedIgnores(r, attribute: "timing functions", mode: mode, removable: false))
                }
                timingFunctions = []
            }
        } else {
            guard let valuesAttribute = a["values"] else {
                reportMissing(in: item.range, Messages.missingAttribute(animationNameRange(item), what: "a keyframes animation", needs: "values",
                                                 help: "add rows such as '0 = 0' and '1 = 1', or 'values: [0, 1]'"))
                return nil
            }
            let lowered = lowerList(valuesAttribute, as: info.type, context: "'values'")
            guard let (vs, rs) = lowered else {
                // A written-out list still has a count: check the parallel arrays against
                // it, so their mistakes are reported in the same run.
                if case .list(let elements) = tree[valuesAttribute.value] {
                    let n = elements.count
                    var ignoredTimes: [Double]?
                    var ignoredFunctions: [TimingFunction] = []
                    if let kt = a["keyTimes"] {
                        _ = lowerKeyTimes(kt, mode: mode, count: mode == .discrete ? n + 1 : n, valuesCount: n, into: &ignoredTimes,
                                          countMismatch: { Messages.keyTimesCount(kt.value.range, keyTimes: $0, values: n, mode: mode) })
                    }
                    if let tf = a["timingFunctions"] {
                        _ = lowerTimingFunctions(tf, mode: mode, segments: max(n - 1, 0), into: &ignoredFunctions)
                    }
                }
                return nil
            }
            values = vs
            valueRanges = rs
            if let kt = a["keyTimes"] {
                let n = values.count
                guard lowerKeyTimes(kt, mode: mode, count: mode == .discrete ? n + 1 : n, valuesCount: n, into: &keyTimes,
                                    countMismatch: { Messages.keyTimesCount(kt.value.range, keyTimes: $0, values: n, mode: mode) })
                else { return nil }
            } else if !mode.isPaced {
                let n = values.count
                if mode == .discrete {
                    keyTimes = (0...n).map { Double($0) / Double(max(n, 1)) }
                } else {
                    keyTimes = n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
                }
            }
            if let tf = a["timingFunctions"] {
                guard lowerTimingFunctions(tf, mode: mode, segments: max(values.count - 1, 0), into: &timingFunctions) else { return nil }
            }
            guard ok else { return nil }
        }
        guard !values.isEmpty else {
            report(Messages.keyframeForms(animationNameRange(item), problem: "a keyframes animation needs at least one value"))
            return nil
        }
        guard checkSameStructure(values, range: { rows.isEmpty ? valueRanges[$0] : rows[$0].value.range }) else { return nil }
        /// `tensionValues` and its kin: empty when absent, nil after reporting.
        func perKeyNumbers(_ name: String) -> [Double]? {
            guard let attr = a[name] else { return [] }
            guard let (xs, _) = lowerList(attr, as: .number, context: "'\(name)'") else { return nil }
            let numbers = xs.compactMap { if case .number(let x) = $0 { return x } else { return nil } }
            guard numbers.count == values.count else {
                report(Messages.keyTimesCount(attr.value.range, keyTimes: numbers.count, values: values.count, mode: .cubic))
                return nil
            }
            return numbers
        }
        guard let tension = perKeyNumbers("tensionValues"), let continuity = perKeyNumbers("continuityValues"),
              let bias = perKeyNumbers("biasValues") else { return nil }
        return Keyframes(values: values, keyTimes: keyTimes, timingFunctions: timingFunctions, calculationMode: mode,
                         tension: tension, continuity: continuity, bias: bias)
    }

    /// A keyframe row's value; nil after reporting. Not range-checked, as no animated
    /// value is (`lowerEndpoint`).
    func lowerRowValue(_ expr: Expr, _ scope: Scope, _ info: KeyPathInfo) -> Value? {
        lowerValue(expr, scope, as: info.type, context: "'\(info.keyPath)'")
    }

    /// A key time: a fraction (`0.5` or `50%`).
    private func keyTime(_ expr: Expr, _ scope: Scope) -> Double? {
        let v = eval(expr, scope)
        switch v {
        case .number(let x, .none): return x
        case .number(_, .time):
            report(CheckerDiagnostics.unitMismatch.at(expr.range, "key times are fractions of the duration, not times",
                                                      label: "this is a time",
                                                      help: "write a fraction such as 0.5 or 50%, or divide by the duration"))
            return nil
        case .poison: return nil
        default:
            report(Messages.typeMismatch(expr.range, expected: "a fraction of the duration", found: v.typeName, context: "a key time"))
            return nil
        }
    }

    private func lastTildeStart(_ row: KeyframeRow) -> UInt32? {
        let bytes = tree.file.bytes
        var i = Int(row.value.range.end)
        while i < bytes.count, i < Int(row.range.end) {
            if bytes[i] == 0x7E { return UInt32(i) }
            i += 1
        }
        return nil
    }

    /// Range, order and end checks on key times.
    /// A `keyTimes:` attribute of a keyframe or motion animation. Paced modes ignore it,
    /// as Core Animation does (a warning; `keyTimes` stays nil). Otherwise it needs
    /// `count` numbers that pass ``checkKeyTimes``. Returns false after reporting an error.
    private func lowerKeyTimes(_ kt: Attribute, mode: CalculationMode, count: Int, valuesCount: Int, into keyTimes: inout [Double]?,
                               countMismatch: (Int) -> Diagnostic) -> Bool {
        if mode.isPaced {
            report(Messages.pacedIgnores(kt.range, attribute: "keyTimes", mode: mode))
            return true
        }
        guard let (ts, trs) = lowerList(kt, as: .number, context: "'keyTimes'") else { return false }
        let times = ts.compactMap { if case .number(let x) = $0 { return x } else { return nil } }
        guard times.count == count else {
            report(countMismatch(times.count))
            return false
        }
        guard checkKeyTimes(times, mode: mode, valuesCount: valuesCount, rowsForm: false, range: { trs[$0] }) else { return false }
        keyTimes = times
        return true
    }

    /// A `timingFunctions:` attribute: one timing function per segment, ignored (with a
    /// warning) in paced modes. Returns false after reporting an error.
    private func lowerTimingFunctions(_ tf: Attribute, mode: CalculationMode, segments: Int,
                                      into functions: inout [TimingFunction]) -> Bool {
        if mode.isPaced {
            report(Messages.pacedIgnores(tf.range, attribute: "timingFunctions", mode: mode))
            return true
        }
        let v = eval(tf.value, tf.scope)
        guard case .list(let items) = v else {
            if !v.isPoison { report(Messages.typeMismatch(tf.value.range, expected: "a list of timing functions", found: v.typeName)) }
            return false
        }
        for item in items {
            guard case .timing(let f) = item else {
                report(Messages.typeMismatch(tf.value.range, expected: "a list of timing functions", found: "a list holding \(item.typeName)"))
                return false
            }
            functions.append(f)
        }
        if functions.count != segments {
            // Core Animation accepts any count (real sources have one too many or too
            // few): extra curves are ignored and segments without one are linear, the
            // pacing of a segment when there are no timing functions at all.
            report(Messages.timingFunctionsCountMismatch(tf.value, in: tree, count: functions.count, segments: segments))
            if functions.count > segments {
                functions.removeLast(functions.count - segments)
            } else {
                functions += [TimingFunction](repeating: .linear, count: segments - functions.count)
            }
        }
        return true
    }

    /// `range(i)` is where key time `i` is written.
    private func checkKeyTimes(_ times: [Double], mode: CalculationMode, valuesCount: Int, rowsForm: Bool,
                               range ranges: (Int) -> SourceRange) -> Bool {
        for (i, t) in times.enumerated() where t < 0 || t > 1 {
            report(Messages.keyTimesRange(ranges(i), value: t))
            return false
        }
        for i in 1..<max(times.count, 1) where times[i] < times[i - 1] {
            report(Messages.keyTimesOrder(ranges(i), previous: ranges(i - 1)))
            return false
        }
        guard let first = times.first, let last = times.last else { return true }
        let lastMustBeOne = mode != .discrete || !rowsForm
        let lastIsShort = lastMustBeOne && last != 1 && (times.count > 1 || mode == .discrete)
        if !rowsForm {
            // Pasted `keyTimes: [0, 0.7]`: Core Animation plays them, holding the first
            // value before the first key time and the last after the last.
            if first != 0 { report(Messages.keyTimesShort(ranges(0), first: true, at: first)) }
            if lastIsShort { report(Messages.keyTimesShort(ranges(times.count - 1), first: false, at: last)) }
            return true
        }
        if first != 0 {
            report(Messages.keyTimesEnds(ranges(0), first: true, mode: mode))
            return false
        }
        if lastIsShort {
            report(Messages.keyTimesEnds(ranges(times.count - 1), first: false, mode: mode))
            return false
        }
        return true
    }

    /// A list attribute: element ranges come from the literal when it is one.
    func lowerList(_ attr: Attribute, as type: ValueType, context: @autoclosure () -> String) -> ([Value], [SourceRange])? {
        if case .list(let elements) = tree[attr.value] {
            // Every element is checked, so each mistake in a pasted list is reported in
            // one run (each element is independent: no cascade).
            var values: [Value] = []
            var ok = true
            for e in tree[elements] {
                if let v = lowerValue(e, attr.scope, as: type, context: context()) { values.append(v) } else { ok = false }
            }
            return ok ? (values, tree[elements].map(\.range)) : nil
        }
        let v = eval(attr.value, attr.scope)
        guard case .list(let items) = v else {
            if !v.isPoison { report(Messages.typeMismatch(attr.value.range, expected: "a list", found: v.typeName, context: context())) }
            return nil
        }
        var values: [Value] = []
        for item in items {
            guard let x = convert(item, to: type, at: attr.value.range, context: context(), literal: false) else { return nil }
            values.append(x)
        }
        return (values, Array(repeating: attr.value.range, count: values.count))
    }

    /// Paths, dash patterns and colour lists interpolate element by element, so every
    /// value must have the first one's shape (E0412).
    /// `range(i)` is where value `i` is written.
    func checkSameStructure(_ values: [Value], range ranges: (Int) -> SourceRange) -> Bool {
        guard let first = values.first else { return true }
        for (i, v) in values.enumerated().dropFirst() {
            switch (first, v) {
            case (.path(let p), .path(let q)) where !p.hasSameStructure(as: q):
                report(Messages.pathStructure(ranges(i), what: "this path", first: ranges(0)))
                return false
            case (.numbers(let p), .numbers(let q)) where p.count != q.count:
                report(Messages.pathStructure(ranges(i), what: "this list of \(q.count)", first: ranges(0)))
                return false
            case (.colors(let p), .colors(let q)) where p.count != q.count:
                report(Messages.pathStructure(ranges(i), what: "this list of \(q.count) colours", first: ranges(0)))
                return false
            default: continue
            }
        }
        return true
    }

    /// A motion along a path (CAKeyframeAnimation with `path`).
    func lowerMotion(_ a: AttributeSet, _ along: Expr?, _ info: KeyPathInfo, _ item: Item) -> Motion? {
        guard info.type == .point else {
            report(Messages.motionTarget(animationNameRange(item), keyPath: info.keyPath, type: info.type))
            return nil
        }
        let pathExpr: (Expr, Scope)
        if let along {
            if let p = a["path"] {
                report(Messages.duplicateProperty(p.range, name: "path", previous: along.range))
                return nil
            }
            pathExpr = (along, a.values.first?.scope ?? global)
        } else if let p = a["path"] {
            pathExpr = (p.value, p.scope)
        } else {
            reportMissing(in: item.range, Messages.missingAttribute(animationNameRange(item), what: "a motion", needs: "a path",
                                             help: "write 'motion \(info.keyPath) along somePath { ... }'"))
            return nil
        }
        // The modes are read whatever the path gives: a path's mistake must not hide theirs.
        let pathValue = lowerValue(pathExpr.0, pathExpr.1, as: .path, context: "the motion path")
        var mode: CalculationMode? = .linear
        if let attr = a["calculationMode"] {
            mode = enumerationValue(attr.value, attr.scope, cases: CalculationMode.allCases.map(\.rawValue), context: "'calculationMode'")
                .flatMap(CalculationMode.init(rawValue:))
        }
        var rotationMode: RotationMode? = RotationMode.none
        if let attr = a["rotationMode"] {
            rotationMode = enumerationValue(attr.value, attr.scope, cases: RotationMode.allCases.map(\.rawValue), context: "'rotationMode'")
                .flatMap(RotationMode.init(rawValue:))
        }
        guard case .path(let path)? = pathValue, let mode, let rotation = rotationMode else { return nil }
        let geometry = PathGeometry(path)
        guard !geometry.segments.isEmpty else {
            reportMissing(in: pathExpr.0.range, Messages.missingAttribute(pathExpr.0.range, what: "a motion path", needs: "at least one line or curve"))
            return nil
        }
        let vertices = geometry.vertexCount
        var keyTimes: [Double]?
        var timings: [TimingFunction] = []
        if let kt = a["keyTimes"] {
            guard lowerKeyTimes(kt, mode: mode, count: vertices, valuesCount: vertices, into: &keyTimes, countMismatch: {
                CheckerDiagnostics.keyTimesCount.at(kt.value.range, "\($0) key times for a path with \(vertices) vertices",
                                                    label: "expected \(vertices)",
                                                    notes: [Note("a path's vertices are its start and the end of each line or curve")])
            }) else { return nil }
        }
        if let tf = a["timingFunctions"] {
            guard lowerTimingFunctions(tf, mode: mode, segments: vertices - 1, into: &timings) else { return nil }
        }
        if keyTimes == nil && !mode.isPaced {
            keyTimes = (0..<vertices).map { Double($0) / Double(max(vertices - 1, 1)) }
        }
        return Motion(path: path, keyTimes: keyTimes, timingFunctions: timings, calculationMode: mode, rotationMode: rotation)
    }

    /// A fix-it that adds an attribute line to an animation's block, indented like the
    /// block's first item.
    func attributeInsertion(_ block: Block, _ text: String, message: String) -> FixIt? {
        // `name: value` where the block already sets `name` (an explicit `fillMode:
        // forwards`, `removedOnCompletion: true`): the value is replaced, so the fix never
        // writes an attribute twice.
        if let colon = text.firstIndex(of: ":") {
            let name = text[..<colon], value = text[text.index(after: colon)...].drop { $0 == " " }
            for item in tree[block.items] {
                if case .property(let key, let written) = tree[item], key.dotted == name {
                    return .replace(written.range, with: String(value), message)
                }
            }
        }
        let bytes = tree.file.bytes
        let open = Int(block.range.start)
        guard open < bytes.count, bytes[open] == 0x7B else { return nil }
        guard let first = tree[block.items].first else {
            return .insert(" \(text) ", at: UInt32(open + 1), message)
        }
        var lineStart = Int(first.range.start)
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
        let prefix = bytes[lineStart..<Int(first.range.start)]
        if lineStart <= open || !prefix.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return .insert("\(text); ", at: first.range.start, message)
        }
        return .insert(text + "\n" + String(decoding: prefix, as: UTF8.self), at: first.range.start, message)
    }
}
