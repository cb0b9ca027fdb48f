// animc-fuzz: in-process fuzz targets for libFuzzer.
//
//   animc-fuzz TARGET [libFuzzer options] [CORPUS...]   with libFuzzer linked in
//   animc-fuzz TARGET FILE...                           replay: run each file once
//
// TARGET is `parse` (lexer and parser), `pipeline` (parse, check, validate, timeline
// round trip, evaluation at extreme times, every diagnostic renderer), `loops` (the
// pipeline on programs generated from the input: loops whose bodies declare and make
// every kind of thing), `edit` (an editor's re-checks with a check memo, against
// checking from scratch) or `timeline` (the timeline JSON loader on arbitrary bytes,
// then evaluation). Fuzz/README.md says how to build it with libFuzzer and
// AddressSanitizer; a plain `swift build` gives the replay mode, which CI uses to run
// the corpus of past findings. `animc-fuzz loops --emit FILE` prints the program a
// `loops` input stands for. `png` and `jpeg` are the image decoders on arbitrary bytes; `pipeline` and
// `timeline` also render what they compile, small.

import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
import AnimcImage
import AnimcRender
import AnimcRuntime
import AnimcSyntax
import AnimcTestSupport
import AnimcTimeline
import Foundation

enum Target: String, CaseIterable {
    case parse, pipeline, loops, edit, timeline, png, jpeg, respell
}

/// The checker's limits divided by 100: any input is checked within a fraction of the
/// targets' 2 s limit under AddressSanitizer, so an input past it does work no limit
/// counts, which is a finding (a `timing` declared in a loop once was).
let fuzzLimits = ExpansionLimits.standard.scaled(down: 100)

nonisolated(unsafe) var selected = Target.parse

/// Lexer and parser: the fast target, for millions of executions.
func fuzzParse(_ bytes: [UInt8]) {
    let tree = parse(SourceFile(name: "fuzz.anim", bytes: bytes))
    precondition(tree.root.range.end == UInt32(bytes.count), "the file block covers the file")
}

/// Everything a user or an editor can make happen with one source file.
func fuzzPipeline(_ bytes: [UInt8]) {
    let result = Pipeline.compile(SourceFile(name: "fuzz.anim", bytes: bytes), limits: fuzzLimits)
    _ = SyntaxDump.dump(result.tree).utf8.count
    let report = result.report
    _ = HumanRenderer(useColor: true).render(report).utf8.count
    _ = JSONLinesRenderer.render([report]).utf8.count
    _ = SARIFRenderer.render([report], rules: DiagnosticRegistry.all, toolVersion: "fuzz").serialized(style: .compact).count
    guard let composition = result.composition else { return }
    let problems = IRValidation.problems(composition)
    precondition(problems.isEmpty, "the checker produced invalid IR: \(problems)")
    // The timeline round trip: what is written loads back, states included.
    let written = TimelineWriter.bytes(composition, interaction: result.interaction)
    let loaded: Composition
    let interaction: Interaction?
    do { (loaded, interaction) = try TimelineLoader.loadInteractive(written) } catch { preconditionFailure("a written timeline does not load: \(error)") }
    precondition((interaction == nil) == (result.interaction == nil), "the states did not round-trip")
    evaluateEverywhere(Timeline(loaded))
    renderSmall(Timeline(loaded))
    // States: every input sent twice, in turns, and the played composition is valid IR.
    if let interaction {
        var events: [EventScript.Event] = []
        for round in 0..<2 {
            for (k, input) in interaction.inputs.enumerated() {
                let value: Interaction.Value? = switch input.kind {
                case .trigger: nil
                case .bool: .bool(round == 0)
                case .number: .number(Double(round) - 0.5)
                case .point: .point(Point(Double(k), Double(round)))
                }
                events.append(EventScript.Event(input: input.name, value: value, time: Double(events.count) * 0.1))
            }
        }
        if case .success(let (played, _)) = InteractionPlayer.unroll(loaded, interaction, EventScript(events: events)) {
            let problems = IRValidation.problems(played)
            precondition(problems.isEmpty, "playing events made invalid IR: \(problems)")
            evaluateEverywhere(Timeline(played))
        }
    }
}

/// An editor's re-checks: the input, then edits derived from it (a character removed
/// or changed, its line removed, the whole text moved), then the input again, each
/// checked with one memo and from scratch. The two must agree exactly.
func fuzzEdit(_ bytes: [UInt8]) {
    var versions = [bytes]
    if !bytes.isEmpty {
        let hash = bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let p = Int(hash % UInt64(bytes.count))
        var removed = bytes
        removed.remove(at: p)
        var changed = bytes
        changed[p] = changed[p] == 0x30 ? 0x31 : 0x30
        var lineStart = p, lineEnd = p
        while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
        var withoutLine = bytes
        withoutLine.removeSubrange(lineStart..<min(bytes.count, lineEnd + 1))
        versions += [removed, changed, withoutLine, Array("// moved\n".utf8) + bytes, bytes]
    }
    let memo = CheckMemo()
    for (k, version) in versions.enumerated() {
        let file = SourceFile(name: "fuzz.anim", bytes: version)
        let fresh = Pipeline.compile(file, limits: fuzzLimits)
        // A file that runs into an expansion limit takes about a second per check, and
        // the memo never records what hits one: checking it again would only time out.
        if fresh.diagnostics.contains(where: { $0.code == CheckerDiagnostics.expansionTooLarge.code }) { return }
        let reused = Pipeline.compile(file, memo: memo, limits: fuzzLimits)
        precondition(fresh.diagnostics == reused.diagnostics, "version \(k): the memo changed the diagnostics")
        precondition(fresh.composition == reused.composition, "version \(k): the memo changed the IR")
        precondition(fresh.partialComposition == reused.partialComposition, "version \(k): the memo changed the partial IR")
        precondition(fresh.foldedValues == reused.foldedValues, "version \(k): the memo changed the hover values")
    }
}

/// A program made from the input's bytes: loops of up to a million iterations, nested
/// up to three deep, whose bodies hold every kind of declaration and item (constants,
/// timing functions, paths, components, layers, instances, animations, conditions),
/// chosen and parameterised byte by byte. Whatever the body holds, the work limits must
/// stop the check in time.
func loopProgram(_ bytes: [UInt8]) -> String {
    var input = bytes.makeIterator()
    func next() -> Int { Int(input.next() ?? 0) }
    let counts = [1, 3, 10, 1000, 100_000, 999_999]
    var out = "composition C {\n  size: 100 x 100\n  window: 0s ..< 1s\n}\n"
    out += "component Dot(at: Point, level: Number = 1) {\n  layer {\n    position: at\n    opacity: level / 2\n  }\n}\n"
    out += "path route {\n  move (0, 0)\n  line (10, 10)\n}\n"
    let depth = 1 + next() % 3
    var indent = ""
    var variables: [String] = []
    for d in 0..<depth {
        let v = "i\(d)"
        out += indent + "for \(v) in 0 ..< \(counts[next() % counts.count]) {\n"
        variables.append(v)
        indent += "  "
    }
    let index = variables.joined(separator: ", ")
    let v = variables.last ?? "0"
    var k = 0
    while k < 24, let byte = input.next() {
        k += 1
        let n = Int(byte) % 16
        let p = next() % 7
        switch n {
        case 0: out += indent + "let _c\(k) = \(v) * \(p) + 1\n"
        case 1: out += indent + "timing _t\(k) = cubic(0.\(p), 0.5, 0.5, 0.8)\n"
        case 2: out += indent + "timing _s\(k) = steps(\(p + 1), start)\n"
        case 3: out += indent + "path _p\(k) {\n\(indent)  move (\(v), 0)\n\(indent)  line (\(p), \(v))\n\(indent)}\n"
        case 4: out += indent + "component _K\(k)(x: Number) {\n\(indent)  layer { opacity: x / 10 }\n\(indent)}\n"
        case 5: out += indent + "layer l\(k)[\(index)] {\n\(indent)  opacity: 0.5\n\(indent)}\n"
        case 6: out += indent + "d\(k)[\(index)] = Dot(at: (\(v), \(p)), level: \(p % 2))\n"
        case 7:
            out += indent + "layer a\(k)[\(index)] {\n\(indent)  basic opacity { from: 0, to: 1, duration: 0.\(p + 1)s, repeatCount: \(p) }\n\(indent)}\n"
        case 8:
            out += indent + "layer k\(k)[\(index)] {\n\(indent)  keyframes position.x { values: [0, \(p), \(v)], duration: 1s }\n\(indent)}\n"
        case 9: out += indent + "if mod(\(v), \(p + 2)) == 0 {\n\(indent)  let _q\(k) = \(v)\n\(indent)} else {\n\(indent)  timing _r\(k) = easeIn\n\(indent)}\n"
        case 10: out += indent + "for j\(k) in 0 ..< \(counts[p % counts.count]) {\n\(indent)  let _n\(k) = j\(k)\n\(indent)}\n"
        case 11:
            out += indent + "layer g\(k)[\(index)] {\n\(indent)  group go\(k) {\n\(indent)    duration: 1s\n"
            out += indent + "    basic opacity { to: 0.5 }\n\(indent)    spring position.y { by: \(p) }\n\(indent)  }\n\(indent)}\n"
        case 12: out += indent + "mask layer m\(k)[\(index)] { bounds: 10 x 10 }\n"
        case 13: out += indent + "shape s\(k)[\(index)] {\n\(indent)  path: circle(center: (\(v), 0), radius: \(p + 1))\n\(indent)  motion position along route { duration: 1s }\n\(indent)}\n"
        case 14: out += indent + "let _l\(k) = [\(v), \(p), \(v) + \(p)]\n"
        default: out += indent + "let _u\(k) = min(\(v), \(p)) + max(\(p), 1)\n"
        }
    }
    for _ in 0..<depth {
        indent = String(indent.dropLast(2))
        out += indent + "}\n"
    }
    return out
}

func fuzzLoops(_ bytes: [UInt8]) {
    fuzzPipeline(Array(loopProgram(bytes).utf8))
}

/// The timeline loader on arbitrary bytes: an app loads timelines it did not compile.
func fuzzTimeline(_ bytes: [UInt8]) {
    guard let composition = try? TimelineLoader.load(bytes) else { return }
    evaluateEverywhere(Timeline(composition))
    renderSmall(Timeline(composition))
}

/// The PNG decoder on arbitrary bytes (images an animation embeds come from anywhere):
/// it throws or decodes, within a megapixel; what decodes re-encodes to the same pixels.
func fuzzPNG(_ bytes: [UInt8]) {
    guard let image = try? PNG.decode(bytes, limits: DecodeLimits(maxPixels: 1 << 20)) else { return }
    let again: Bitmap
    do { again = try PNG.decode(PNG.encode(image, effort: .fast)) } catch { preconditionFailure("a PNG written here does not decode: \(error)") }
    precondition(again == image, "a decoded PNG re-encodes to other pixels")
}

/// The renderer at a few times, scaled so the frame is at most 64 pixels a side.
func renderSmall(_ timeline: Timeline) {
    let size = timeline.composition.size
    let side = max(size.width.isFinite ? size.width : 1, size.height.isFinite ? size.height : 1, 1)
    let renderer = SceneRenderer(timeline: timeline, options: RenderOptions(scale: min(1, 64 / side)))
    for t in [0.0, 1, .nan, 1e300] { _ = renderer.render(at: t) }
}

/// Samples at ordinary and extreme times, and every animation at a few fractions.
func evaluateEverywhere(_ timeline: Timeline) {
    var state = timeline.makeState()
    let times: [Double] = [0, 0.5, 1, 2.999, 3, -1, 1e9, -1e300, 1e300, .infinity, -.infinity, .nan,
                           Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]
    for t in times {
        timeline.evaluate(at: t, into: &state)
        for i in 0..<timeline.layerCount {
            _ = state.matrix(ofLayer: i)
            _ = state.effectiveOpacity(ofLayer: i)
        }
    }
    for info in timeline.animations.prefix(16) {
        for f in [0.0, 0.5, 1.0] {
            _ = timeline.state(atFraction: f, ofAnimation: info.id, scrub: .timing)
            _ = timeline.state(atFraction: f, ofAnimation: info.id, scrub: .linear)
        }
    }
}

/// Porting fix-its against random respellings (issue 49): a source that checks clean is
/// respelled the way Swift and Objective-C write it (``Respeller``, seeded from the
/// input), and one `check --fix` must give back a clean file with the same timeline.
func fuzzRespell(_ bytes: [UInt8]) {
    let original = Pipeline.compile(SourceFile(name: "fuzz.anim", bytes: bytes), limits: fuzzLimits)
    guard let composition = original.composition, !original.hasErrors, bytes.count < 16_384 else { return }
    var seed: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { seed = (seed ^ UInt64(b)) &* 0x100_0000_01B3 }
    guard let text = Respeller.respell(SourceFile(name: "fuzz.anim", bytes: bytes), seed: seed) else { return }
    let outcome = Pipeline.fix(SourceFile(name: "fuzz.anim", text: text))
    // What the fixes cannot port is a finding only when they made it worse; a clean
    // fixed file must mean what the original meant.
    guard let fixed = outcome.result.composition, !outcome.result.hasErrors else { return }
    precondition(TimelineWriter.bytes(fixed) == TimelineWriter.bytes(composition),
                 "a fix-it changed the meaning of a respelled file:\n\(text)")
}

func run(_ bytes: [UInt8]) {
    switch selected {
    case .parse: fuzzParse(bytes)
    case .pipeline: fuzzPipeline(bytes)
    case .loops: fuzzLoops(bytes)
    case .edit: fuzzEdit(bytes)
    case .timeline: fuzzTimeline(bytes)
    case .png: fuzzPNG(bytes)
    case .jpeg: _ = try? JPEG.decode(bytes, limits: DecodeLimits(maxPixels: 1 << 20))
    case .respell: fuzzRespell(bytes)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    run(bytes)
    return 0
}

typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
typealias RunDriver = @convention(c) (UnsafeMutablePointer<Int32>,
                                      UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                      TestOneInput) -> Int32

// The target is the first argument. It is also put in the environment, because
// libFuzzer re-runs this program for -jobs and -minimize_crash with its own options
// and without that argument.
var arguments = CommandLine.arguments
if arguments.count >= 2, let target = Target(rawValue: arguments[1]) {
    setenv("ANIMC_FUZZ_TARGET", target.rawValue, 1)
    arguments.remove(at: 1)
}
guard let name = ProcessInfo.processInfo.environment["ANIMC_FUZZ_TARGET"], let target = Target(rawValue: name) else {
    FileHandle.standardError.write(Data("usage: animc-fuzz \(Target.allCases.map(\.rawValue).joined(separator: "|")) [libFuzzer options | FILE...]\n".utf8))
    exit(2)
}
selected = target

// With libFuzzer linked in (the fuzz build exports it), hand over to its driver with
// the target name removed from the arguments. Without it, replay the given files.
if let symbol = dlsym(nil, "LLVMFuzzerRunDriver") {
    let driver = unsafeBitCast(symbol, to: RunDriver.self)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var argc = Int32(argv.count - 1)
    let status = argv.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var base = buffer.baseAddress!
        return driver(&argc, &base, fuzzOneInput)
    }
    exit(status)
}
var failures = 0
// `animc-fuzz loops --emit FILE`: the program the input stands for, to keep as a fixture.
if selected == .loops, arguments.count == 3, arguments[1] == "--emit" {
    guard let data = FileManager.default.contents(atPath: arguments[2]) else { exit(2) }
    print(loopProgram([UInt8](data)), terminator: "")
    exit(0)
}
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("animc-fuzz: cannot read \(path)\n".utf8))
        failures += 1
        continue
    }
    run([UInt8](data))
}
print("replayed \(arguments.count - 1 - failures) input(s) through \(target.rawValue)")
exit(failures == 0 ? 0 : 2)
