import AnimcBase
import AnimcDiagnostics
import AnimcIR
import AnimcSyntax

extension Checker {
    /// The options a `test` block takes besides its expectations.
    static let testOptions = ["at", "tolerance", "snapshot", "pixelTolerance", "maxDifferingPixels", "events", "continuous"]

    /// `test name { at: TIME, LAYER.KEYPATH: VALUE, ... }` blocks at the file's top level,
    /// read against the finished composition: each expectation names a layer by its id
    /// (`logo.square`) and a key path on it (`backgroundColor`, `transform.rotation.z`),
    /// and its value is checked as that key path's type. Options: `tolerance` (a number,
    /// default 0.001), `snapshot` (true, or a name for the PNG; default none),
    /// `pixelTolerance` (0–255, default 2) and `maxDifferingPixels` (a share, 0–1 or a
    /// percentage, default 0).
    func lowerTests(_ composition: Composition) -> [TestCase] {
        var tests: [TestCase] = []
        var names: [String: SourceRange] = [:]
        let layerIDs = composition.layers.map(\.id)
        let layerSet = Set(layerIDs)
        for item in tree[tree.root.items] {
            guard case .layer(let mask, let kind, let nameIdentifier, let indices, let body) = tree[item],
                  kind.name == ContextualKeywords.test else { continue }
            guard let name = nameIdentifier, mask == nil, tree[indices].isEmpty else {
                report(Messages.misplaced(kind.range, problem: nameIdentifier == nil ? "a test needs a name" : "a test is not a mask or indexed",
                                          help: "write 'test name { at: 1s, layer.property: value }'"))
                continue
            }
            if let previous = names[name.name] {
                report(Messages.duplicate(name.range, name: name.name, what: "test", previous: previous))
                continue
            }
            names[name.name] = name.range
            var time: Double?
            var tolerance = TestCase.defaultTolerance
            var snapshotName: String?
            var snapshotRange = name.range
            var pixelTolerance = Snapshot.defaultPixelTolerance
            var maxDiffering = 0.0
            var events: EventScript?
            var eventsRange: SourceRange?
            var continuous: [Expectation] = []
            var expectations: [Expectation] = []
            var keys: [String: SourceRange] = [:]
            var reported = false
            for entry in tree[body.items] {
                guard case .property(let key, let value) = tree[entry] else {
                    report(Messages.misplaced(entry.range, problem: "a test holds 'at:', its options and 'layer.property: value' expectations",
                                              help: "write what the layer shows at that time, such as 'logo.opacity: 1'"))
                    continue
                }
                let path = key.dotted
                if let previous = keys[path] {
                    report(Messages.duplicateProperty(key.range, name: path, previous: previous))
                    continue
                }
                keys[path] = key.range
                switch path {
                case "at":
                    if case .number(let t)? = lowerValue(value, global, as: .time, context: "'at'") { time = t }
                case "tolerance":
                    if case .number(let x)? = lowerValue(value, global, as: .number, context: "'tolerance'") {
                        if x >= 0 { tolerance = x } else {
                            report(Messages.outOfRange(value.range, what: "the tolerance", value: formatNumber(x), valid: "0 and above"))
                        }
                    }
                case "snapshot":
                    snapshotRange = entry.range
                    if case .string(let s) = tree[value] {
                        if ImageName.isPlainFileName(s) { snapshotName = s } else {
                            report(Messages.outOfRange(value.range, what: "the snapshot's name", value: "'\(s)'",
                                                       valid: "names usable in a file name (no '/', not starting with '.')"))
                        }
                    } else if case .bool(let b)? = lowerValue(value, global, as: .bool, context: "'snapshot' (true, or a name)") {
                        snapshotName = b ? name.name : nil
                    }
                case "events":
                    // The script is text, as on the command line; its inputs are checked
                    // once the file's inputs are known (`checkTestEvents`).
                    guard case .string(let text) = tree[value] else {
                        report(Messages.typeMismatch(value.range, expected: "an event script in quotes, such as \"tap@0.2s\"",
                                                     found: "an expression", context: "'events'"))
                        reported = true
                        continue
                    }
                    switch EventScript.parse(text) {
                    case .success(let script):
                        events = script
                        eventsRange = value.range
                    case .failure(let error):
                        report(CheckerDiagnostics.badInteraction.at(value.range, "invalid event script: \(error.message) (at character \(error.offset + 1))",
                                                                    label: "not an event script",
                                                                    help: "write events such as \"tap@0.2s, progress=0.5@1s\""))
                        reported = true
                    }
                case "continuous":
                    // `continuous: (card.position, knob.opacity)`: layers' key paths, written as
                    // in expectations; the value is their text.
                    let parts: [Expr]
                    if case .tuple(let items) = tree[value] { parts = Array(tree[items]) } else { parts = [value] }
                    for part in parts {
                        let written = text(part.range)
                        guard let (layer, keyPath, info) = Checker.expectationTarget(written, layers: layerSet),
                              info.type.isSubtractable else {
                            report(CheckerDiagnostics.unknownLayer.at(
                                part.range, "no layer and key path of numbers '\(written)' in this composition", label: "not a layer's key path",
                                help: "write a layer's id and a key path of numbers, points, sizes, rects or colours, such as 'card.position'"))
                            reported = true
                            continue
                        }
                        continuous.append(Expectation(layer: layer, keyPath: keyPath, value: info.type == .point ? .point(.zero) : .number(0),
                                                      range: part.range))
                    }
                case "pixelTolerance":
                    if case .number(let x)? = lowerValue(value, global, as: .number, context: "'pixelTolerance'") {
                        if x >= 0, x <= 255 { pixelTolerance = Int(x.rounded()) } else {
                            report(Messages.outOfRange(value.range, what: "the pixel tolerance", value: formatNumber(x), valid: "0...255"))
                        }
                    }
                case "maxDifferingPixels":
                    // A share: 0.001, or 0.1% (the percentage unit divides by 100).
                    if case .number(let x)? = lowerValue(value, global, as: .number, context: "'maxDifferingPixels'") {
                        if x >= 0, x <= 1 { maxDiffering = x } else {
                            report(Messages.outOfRange(value.range, what: "the share of differing pixels", value: formatNumber(x),
                                                       valid: "0...1 (or 0%...100%)"))
                        }
                    }
                default:
                    guard let (layer, keyPath, info) = Checker.expectationTarget(path, layers: layerSet) else {
                        reported = true
                        reportUnknownKeyPath(key.range, path, among: Checker.testOptions + layerIDs.flatMap { id in
                            ["opacity", "position", "transform"].map { id + "." + $0 }
                        }, example: "logo.opacity")
                        continue
                    }
                    if let v = lowerValue(value, global, as: info.type, context: "'\(path)'") {
                        expectations.append(Expectation(layer: layer, keyPath: keyPath, value: v, range: entry.range))
                    } else {
                        reported = true
                    }
                }
            }
            guard let t = time else {
                report(Messages.missingAttribute(name.range, what: "test '\(name.name)'", needs: "a time",
                                                 help: "add 'at: 1s', the time its expectations are read at"))
                continue
            }
            if expectations.isEmpty && snapshotName == nil && continuous.isEmpty && !reported {
                report(Messages.missingAttribute(name.range, what: "test '\(name.name)'", needs: "something to check",
                                                 help: "add an expectation such as 'logo.opacity: 1', or 'snapshot: true'"))
                continue
            }
            let snapshot = snapshotName.map { Snapshot(name: $0, pixelTolerance: pixelTolerance, maxDiffering: maxDiffering, range: snapshotRange) }
            var test = TestCase(name: name.name, range: item.range, nameRange: name.range, time: t, expectations: expectations,
                                tolerance: tolerance, snapshot: snapshot, events: events, eventsRange: eventsRange)
            test.continuous = continuous
            if !continuous.isEmpty && events == nil {
                report(Messages.missingAttribute(name.range, what: "test '\(name.name)'", needs: "events for 'continuous'",
                                                 help: "add 'events: \"tap@0.2s\"': continuity is checked at each event"))
            }
            tests.append(test)
        }
        return tests
    }

    /// A test's `events:` against the file's inputs: each event names one, with a value
    /// of its kind.
    func checkTestEvents(_ tests: [TestCase], _ interaction: Interaction?) {
        for test in tests {
            guard let script = test.events, let range = test.eventsRange else { continue }
            guard let interaction else {
                report(CheckerDiagnostics.badInteraction.at(range, "test '\(test.name)' sends events to a file without inputs",
                                                            label: "no input to send to",
                                                            help: "declare inputs, states and transitions ('input tap: trigger', 'state ...', 'on tap ...')"))
                continue
            }
            if let problem = interaction.problem(with: script) {
                report(CheckerDiagnostics.badInteraction.at(range, "test '\(test.name)': \(problem)", label: "cannot be sent"))
            }
        }
    }

    /// E0317 for a `layer.keyPath` key (a test's, a state's) that names no layer's key
    /// path, suggesting the closest of `candidates`.
    func reportUnknownKeyPath(_ range: SourceRange, _ path: String, among candidates: [String], example: String) {
        report(CheckerDiagnostics.unknownLayer.at(
            range, "no layer and property '\(path)' in this composition", label: "not a layer's key path",
            help: closestMatch(to: path, in: candidates).map { "did you mean '\($0)'?" }
                ?? "write a layer's id and a key path on it, such as '\(example)'"))
    }

    /// `logo.square.transform.rotation.z` → layer `logo.square`, key path
    /// `transform.rotation.z`: the longest layer id that leaves a key path.
    static func expectationTarget(_ path: String, layers ids: Set<String>) -> (String, String, KeyPathInfo)? {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        for k in stride(from: parts.count - 1, through: 1, by: -1) {
            let id = parts[0..<k].joined(separator: "."), rest = parts[k...].joined(separator: ".")
            if ids.contains(id), let info = PropertyTable.keyPath(rest) { return (id, rest, info) }
        }
        return nil
    }
}

/// Names usable in a file name: no path separators, not hidden, not empty.
enum ImageName {
    static func isPlainFileName(_ s: String) -> Bool {
        !s.isEmpty && !s.contains("/") && !s.contains("\\") && !s.hasPrefix(".") && !s.contains("\0") && s.utf8.count <= 100
    }
}
