// animc-bench: release-mode measurements, each beside a yardstick from the same run.
// See README.md in this folder and docs/performance.md.
import AnimcBake
import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcDriver
import AnimcLanguageServer
import AnimcIR
import AnimcLottie
import AnimcPreview
import AnimcRender
import AnimcImage
import AnimcRuntime
import AnimcSyntax
import AnimcTimeline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Measuring

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// The best of `repeats` runs of each of two workloads, alternating them so that a
/// burst of load from other processes hits both alike.
func bestInterleaved(_ repeats: Int, _ a: () -> Void, _ b: () -> Void) -> (Double, Double) {
    var fastest = (Double.infinity, Double.infinity)
    for _ in 0..<max(repeats, 1) {
        var start = now()
        a()
        fastest.0 = min(fastest.0, now() - start)
        start = now()
        b()
        fastest.1 = min(fastest.1, now() - start)
    }
    return fastest
}

/// The best (shortest) of `repeats` runs, in seconds: the least disturbed by the other
/// processes on a shared machine.
func best(_ repeats: Int, _ body: () -> Void) -> Double {
    var fastest = Double.infinity
    for _ in 0..<max(repeats, 1) {
        let start = now()
        body()
        fastest = min(fastest, now() - start)
    }
    return fastest
}

/// Keeps results alive so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0.0

/// Resets the peak resident set size (Linux: writing 5 to clear_refs), so each case's
/// peak is its own. The reset lowers the peak to the current size, so memory freed by
/// earlier sections is first handed back to the system; otherwise malloc keeps it
/// resident and every later peak starts from the largest earlier one.
func resetPeakMemory() {
    #if canImport(Glibc)
    // glibc's malloc_trim is not in the Glibc module map; look it up at run time.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
    #endif
    if let h = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        h.write(Data("5".utf8))
        try? h.close()
    }
}

/// Peak resident set size in MiB since the last reset (VmHWM).
func peakMemoryMiB() -> Double { statusMiB("VmHWM:") }

/// Resident set size in MiB now (VmRSS).
func residentMiB() -> Double { statusMiB("VmRSS:") }

func statusMiB(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
    return kb / 1024
}

func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let sections = Set(arguments.filter { !$0.hasPrefix("-") })
func wants(_ s: String) -> Bool { sections.isEmpty || sections.contains(s) }
let repeats = quick ? 3 : 7

func compile(_ text: String, name: String = "bench.anim") -> CompileResult {
    Pipeline.compile(SourceFile(name: name, text: text))
}

/// Stops the benchmark with a message: a broken workload measures nothing.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("animc-bench: \(message)\n".utf8))
    exit(1)
}

/// An example's source; stops the benchmark when it cannot be read, which a figure
/// measured on an empty text (0.00 ms) would hide.
func readExample(_ name: String) -> String {
    guard let text = try? String(contentsOfFile: "examples/\(name).anim", encoding: .utf8) else {
        fail("examples/\(name).anim not found; run animc-bench from the repository root")
    }
    return text
}

// MARK: - Generated inputs

/// A composition of `n` layers, each with properties and a keyframe animation in a
/// loop-free, component-free form (so the cost is proportional to the text). Every
/// layer's keyframes are the same lists unless `distinctValues`, which gives each
/// layer its own first value (the key times and timing functions stay alike): the
/// checker shares lists equal to recent ones, and this shows what a file gets without.
func generatedSource(layers n: Int, distinctValues: Bool = false) -> String {
    var s = "composition Bench {\n  size: 1000 x 1000\n  fps: 60\n  window: 0s ..< 2s\n}\n\n"
    s.reserveCapacity(n * 220)
    for i in 0..<n {
        let x = i % 1000, y = i / 1000
        s += """
        layer l\(i) {
          position: (\(x), \(y))
          bounds: 10 x 10
          backgroundColor: rgb(\(i % 256), 78, 101)
          keyframes opacity {
            duration: 2s
            0   = 0 ~ easeIn
            0.5 = 1 ~ cubic(0.25, 0.1, 0.25, 1)
            1   = 0.25
          }
        }

        """
    }
    guard distinctValues else { return s }
    // Each layer's first value made its own afterwards, so that the plain text costs
    // the same to make as before there was a choice (`profile-compile` counts it).
    let parts = s.components(separatedBy: "  0   = 0 ~ easeIn")
    var distinct = parts[0]
    for (i, part) in parts.dropFirst().enumerated() {
        distinct += "  0   = 0.\(String(i % 1000 + 1000).dropFirst()) ~ easeIn" + part
    }
    return distinct
}

/// The peer scene: a ripple grid like the splash's, `tiles` tiles (laid out as the
/// most nearly square grid with exactly that many), each a layer with opacity, scale
/// and additive position keyframes (5 keys, a cubic timing function per segment) in a
/// repeating group that starts after a delay growing with the distance from the centre.
/// The same scene goes to rlottie through the Lottie export and to the C floor as
/// ``GridScene/tiles``.
struct GridScene {
    static let tileSize = 20.0
    let cols: Int, rows: Int

    init(tiles n: Int) {
        var c = Int(Double(n).squareRoot())
        while c > 1 && n % c != 0 { c -= 1 }
        cols = max(c, 1)
        rows = n / cols
    }

    var count: Int { cols * rows }
    var width: Double { Double(cols + 1) * GridScene.tileSize }
    var height: Double { Double(rows + 1) * GridScene.tileSize }

    var source: String {
        """
        // Generated by animc-bench: the peer benchmark's ripple grid, \(count) tiles.
        composition Grid {
          size: \(Int(width)) x \(Int(height))
          fps: 60
          window: 0s ..< D
        }

        let D = 3s
        let tileSize = \(Int(GridScene.tileSize))
        let cols = \(cols)
        let rows = \(rows)
        timing T = cubic(0.25, 0, 0.2, 1)

        component Tile(at: Point, delay: Time, offset: Point) {
          layer {
            position: at
            bounds: 18 x 18
            backgroundColor: rgb(15, 78, 101)

            group ripple {
              duration: D
              repeatCount: inf
              beginTime: delay
              fillMode: backwards
              timeOffset: 0.35 * D
              keyframes opacity {
                duration: D
                0 = 0 ~ T
                0.61 = 1 ~ T
                0.7 = 0.45 ~ T
                0.887 = 0.6 ~ T
                1 = 0
              }
              keyframes transform.scale {
                duration: D
                0 = 1 ~ T
                0.61 = 1 ~ T
                0.7 = 1.05 ~ T
                0.887 = 1 ~ T
                1 = 1
              }
              keyframes position {
                duration: D
                additive: true
                0 = (0, 0) ~ T
                0.61 = (0, 0) ~ T
                0.7 = offset ~ T
                0.887 = (0, 0) ~ T
                1 = (0, 0)
              }
            }
          }
        }

        layer grid {
          position: (\(Int(width / 2)), \(Int(height / 2)))
          for row in 0 ..< rows, col in 0 ..< cols {
            let c = ((col - (cols - 1) / 2) * tileSize, (row - (rows - 1) / 2) * tileSize)
            let distance = length(c)
            tile[row, col] = Tile(at: c, delay: 0.0006666s * distance, offset: normalize(c) * 0.025 * distance)
          }
        }

        """
    }

    /// Per tile, in the order the grid declares them: position in the grid, delay and
    /// ripple offset (what the source's `for` computes).
    var tiles: (x: [Double], y: [Double], delay: [Double], dx: [Double], dy: [Double]) {
        var r: (x: [Double], y: [Double], delay: [Double], dx: [Double], dy: [Double]) = ([], [], [], [], [])
        for row in 0..<rows {
            for col in 0..<cols {
                let x = (Double(col) - Double(cols - 1) / 2) * GridScene.tileSize
                let y = (Double(row) - Double(rows - 1) / 2) * GridScene.tileSize
                let distance = (x * x + y * y).squareRoot()
                r.x.append(x + width / 2)
                r.y.append(y + height / 2)
                r.delay.append(0.0006666 * distance)
                r.dx.append(distance > 0 ? x / distance * 0.025 * distance : 0)
                r.dy.append(distance > 0 ? y / distance * 0.025 * distance : 0)
            }
        }
        return r
    }
}

/// An editor's realistic large file: `blocks` copies of a splash-like grid, each a
/// component (a tile with a repeating ripple group of three keyframe tracks) and a
/// layer that instantiates it in a `for` loop over a 5 × `columns` grid (5 × 5 unless
/// said). About 50 lines and 25 instances per block.
func componentHeavySource(blocks: Int, columns: Int = 5, rows: Int = 5) -> String {
    var s = "composition Grids {\n  size: 1000 x 1000\n  fps: 60\n  window: 0s ..< 3s\n}\n\ntiming T = cubic(0.25, 0, 0.2, 1)\n\n"
    for k in 0..<blocks {
        s += """
        component Tile\(k)(at: Point, delay: Time, offset: Point) {
          layer {
            position: at
            bounds: 18 x 18
            backgroundColor: rgb(\(k % 256), 78, 101)
            group ripple {
              duration: 3s
              repeatCount: inf
              beginTime: delay
              fillMode: backwards
              keyframes opacity {
                duration: 3s
                0 = 0 ~ T
                0.61 = 1 ~ T
                0.7 = 0.45 ~ T
                1 = 0
              }
              keyframes transform.scale {
                duration: 3s
                0 = 1 ~ T
                0.61 = 1 ~ T
                0.7 = 1.05 ~ T
                1 = 1
              }
              keyframes position {
                duration: 3s
                additive: true
                0 = (0, 0) ~ T
                0.61 = (0, 0) ~ T
                0.7 = offset ~ T
                1 = (0, 0)
              }
            }
          }
        }

        layer grid\(k) {
          position: (\(k % 10 * 100 + 50), \(k / 10 * 100 + 50))
          for row in 0 ..< \(rows), col in 0 ..< \(columns) {
            let c = ((col - 2) * 20, (row - 2) * 20)
            tile[row, col] = Tile\(k)(at: c, delay: 0.0006666s * length(c), offset: normalize(c) * 0.5)
          }
        }


        """
    }
    return s
}

/// A JSON document of about `bytes` bytes with a similar shape (objects with numbers,
/// strings and small arrays), for JSONSerialization to parse.
func generatedJSON(bytes: Int) -> Data {
    var s = "{\"layers\": [\n"
    var i = 0
    while s.utf8.count < bytes {
        if i > 0 { s += ",\n" }
        s += "{\"id\": \"l\(i)\", \"position\": [\(i % 1000), \(i / 1000)], \"bounds\": [0, 0, 10, 10], \"backgroundColor\": [\(i % 256), 78, 101, 1], \"opacity\": {\"duration\": 2, \"keyTimes\": [0, 0.5, 1], \"values\": [0, 1, 0.25], \"timing\": [\"easeIn\", [0.25, 0.1, 0.25, 1]]}}"
        i += 1
    }
    s += "\n]}\n"
    return Data(s.utf8)
}

// `profile-compile` and `profile-scene` run one workload once, for callgrind or perf.
if sections.contains("profile-compile") {
    // 1,000 generated layers unless --layers says (massif wants more to see the shares).
    let layers = Int(option("--layers") ?? "") ?? 1_000
    sink += Double(compile(generatedSource(layers: layers)).composition?.layers.count ?? 0)
    exit(0)
}
if sections.contains("profile-check") {
    // The component-heavy file of the check section, checked 10 times. `--columns N`
    // widens each grid: the difference between two widths is what an instance costs.
    // `--rows 1 --columns 1` instantiates each component once, against `--columns 0`
    // what a component's first instance costs.
    let heavy = componentHeavySource(blocks: 100, columns: Int(option("--columns") ?? "") ?? 5,
                                     rows: Int(option("--rows") ?? "") ?? 5)
    for _ in 0..<10 { sink += Double(compile(heavy).diagnostics.count) }
    exit(0)
}
if sections.contains("profile-example") {
    // An example (`--example NAME`, the splash unless said) parsed and checked 50 times.
    let file = SourceFile(name: "example.anim", text: readExample(option("--example") ?? "splash"))
    for _ in 0..<50 { sink += Double(Pipeline.compile(file).diagnostics.count) }
    exit(0)
}
/// The component-heavy file checked with a memo, then `count` edits that replace its
/// first `target` with `edit(k)`, as the language server re-checks on each keystroke.
/// The edited texts are built around one split of the file, so the profile holds the
/// checks and little of the harness.
func profileKeystrokes(_ count: Int, replacing target: String, with edit: (Int) -> String) {
    let heavy = componentHeavySource(blocks: 100)
    guard let at = heavy.range(of: target) else { fail("'\(target)' is not in the component-heavy file") }
    let before = heavy[..<at.lowerBound], after = heavy[at.upperBound...]
    let memo = CheckMemo()
    sink += Double(Pipeline.compile(SourceFile(name: "heavy.anim", bytes: Array(heavy.utf8)), memo: memo).diagnostics.count)
    for k in 0..<count {
        let edited = before + edit(k) + after
        sink += Double(Pipeline.compile(SourceFile(name: "heavy.anim", bytes: Array(edited.utf8)), memo: memo).diagnostics.count)
    }
}
if sections.contains("profile-keystroke") {
    // 40 one-digit edits in one layer.
    profileKeystrokes(40, replacing: "position: (50, 550)") { "position: (5\($0 % 10), 550)" }
    exit(0)
}
if sections.contains("profile-keystroke-shared") {
    // 10 edits to the timing function every tile reads: the language server's worst
    // case, where every item is lowered again.
    profileKeystrokes(10, replacing: "timing T = cubic(0.25, 0, 0.2, 1)") { "timing T = cubic(0.25, 0, 0.2\($0), 1)" }
    exit(0)
}
if sections.contains("profile-grid") {
    // The peer benchmark's grid scene (1,000 tiles unless --tiles says), 10,000 tiles' worth of cycles of 180 frames.
    let tiles = Int(option("--tiles") ?? "") ?? 1_000
    guard let composition = compile(GridScene(tiles: tiles).source).composition else { fail("the grid scene does not compile") }
    let timeline = Timeline(composition)
    var state = timeline.makeState()
    for _ in 0..<max(1, 10_000 / tiles) { for i in 0..<180 { timeline.evaluate(at: Double(i) / 60, into: &state) } }
    sink += state.effectiveOpacity(ofLayer: 1)
    exit(0)
}
if sections.contains("profile-scene") {
    guard let composition = compile(readExample("splash")).composition else { fail("examples/splash.anim does not compile; run from the repository root") }
    let timeline = Timeline(composition)
    var state = timeline.makeState()
    for i in 0..<1800 { timeline.evaluate(at: Double(i) / 60, into: &state) }  // 30 s at 60 fps
    sink += state.effectiveOpacity(ofLayer: 0)
    exit(0)
}

print("animc-bench \(quick ? "(quick)" : "") — best of \(repeats) runs; compare each figure with its yardstick\n")

// MARK: - Parse

if wants("parse") {
    let text = generatedSource(layers: quick ? 2_000 : 20_000)
    let file = SourceFile(name: "bench.anim", text: text)
    let mb = Double(file.bytes.count) / 1e6
    let seconds = best(repeats) { sink += Double(parse(file).root.items.count) }
    let splash = SourceFile(name: "splash.anim", text: readExample("splash"))
    let splashSeconds = best(repeats) { for _ in 0..<100 { sink += Double(parse(splash).root.items.count) } } / 100
    print("## parse")
    print("generated source \(f(mb, 2)) MB: \(f(seconds * 1000)) ms, \(f(mb / seconds)) MB/s")
    let arena = parse(file).arena
    print("syntax tree: \(arena.nodeCount) nodes, \(f(Double(arena.byteCount) / Double(file.bytes.count), 2)) bytes per source byte")
    print("examples/splash.anim \(splash.bytes.count) bytes: \(f(splashSeconds * 1e6)) µs, \(f(Double(splash.bytes.count) / 1e6 / splashSeconds)) MB/s\n")
}

// MARK: - Check

if wants("check") {
    // About 5,000 lines: 500 layers of 10 lines each.
    let text = generatedSource(layers: 500)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let seconds = best(repeats) { sink += Double(compile(text).diagnostics.count) }
    let splash = readExample("splash")
    let splashSeconds = best(repeats) { sink += Double(compile(splash).composition?.layers.count ?? 0) }
    let heavy = componentHeavySource(blocks: 100)
    let heavyLines = heavy.split(separator: "\n", omittingEmptySubsequences: false).count
    guard compile(heavy).composition != nil else { fail("the component-heavy source does not compile") }
    let heavySeconds = best(repeats) { sink += Double(compile(heavy).diagnostics.count) }
    print("## check (parse + check + IR, what `animc check` does per file)")
    print("generated \(lines) lines: \(f(seconds * 1000, 2)) ms")
    print("generated \(heavyLines) lines, 100 components instantiated 25 times each in `for` loops: \(f(heavySeconds * 1000, 2)) ms")
    print("examples/splash.anim (141 layers after expansion): \(f(splashSeconds * 1000, 2)) ms\n")
}

// MARK: - Scalar keyframes

/// The scalar workload: eight keyframes with a cubic timing function per segment,
/// repeating every four seconds.
enum ScalarWorkload {
    static let times: [Double] = [0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1]
    static let values: [Double] = [0, 0.8, 0.3, 1, 0.2, 0.9, 0.4, 1]
    static let curves: [(Double, Double, Double, Double)] = [(0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1),
                                                             (0, 0, 0.58, 1), (0.68, -0.55, 0.265, 1.55), (0.65, 0, 0.4, 1),
                                                             (1, 0, 0.35, 1)]
    static let duration = 4.0

    struct Coefficients { var ax, bx, cx, ay, by, cy: Double }
    static let coefficients: [Coefficients] = curves.map { c in
        let cx = 3 * c.0, bx = 3 * (c.2 - c.0) - cx, cy = 3 * c.1, by = 3 * (c.3 - c.1) - cy
        return Coefficients(ax: 1 - cx - bx, bx: bx, cx: cx, ay: 1 - cy - by, by: by, cy: cy)
    }

    /// The yardstick: the same keyframes and cubic-bezier maths as the runtime in a
    /// plain loop, with precomputed coefficients, a segment cursor and no abstraction.
    /// Returns the sum of `n` samples at times `start + i·dt`.
    static func plainLoop(_ n: Int, start: Double = 0, dt: Double) -> Double {
        values.withUnsafeBufferPointer { v in
            guard let v = v.baseAddress else { return 0 }
            var s = 0.0
            var k = 0
            for i in 0..<n { s += sample(start + Double(i) * dt, v, &k) }
            return s
        }
    }

    /// One sample at time `t` of eight keyframe values at `v`, resuming from segment `k`.
    @inline(__always)
    static func sample(_ t: Double, _ v: UnsafePointer<Double>, _ k: inout Int) -> Double {
        let p = (t - duration * (t / duration).rounded(.down)) / duration
        while k < 6 && times[k + 1] <= p { k += 1 }
        while k > 0 && times[k] > p { k -= 1 }
        let x = (p - times[k]) / (times[k + 1] - times[k])
        let c = coefficients[k]
        // The runtime's solver (safeguarded Newton in a bracket, to 1e-12 in t).
        var u = x, lo = 0.0, hi = 1.0, converged = false
        for _ in 0..<16 {
            let err = ((c.ax * u + c.bx) * u + c.cx) * u - x
            if err == 0 { converged = true; break }
            if err < 0 { lo = u } else { hi = u }
            var next = u - err / ((3 * c.ax * u + 2 * c.bx) * u + c.cx)
            if !(next > lo && next < hi) { next = (lo + hi) * 0.5 }
            if abs(next - u) < 1e-12 { u = next; converged = true; break }
            u = next
        }
        if !converged {
            while hi - lo > 1e-15 {
                let mid = (lo + hi) * 0.5
                if ((c.ax * mid + c.bx) * mid + c.cx) * mid < x { lo = mid } else { hi = mid }
            }
            u = (lo + hi) * 0.5
        }
        let y = ((c.ay * u + c.by) * u + c.cy) * u
        return (1 - y) * v[k] + y * v[k + 1]
    }
}

if wants("scalar") {
    let w = ScalarWorkload.self
    let animation = Animation(name: "o", timing: Timing(duration: w.duration, repeatCount: .infinity),
                              kind: .property(PropertyAnimation(target: AnimationTarget(.opacity), content: .keyframes(Keyframes(
                                values: w.values.map { .number($0) }, keyTimes: w.times,
                                timingFunctions: w.curves.map { .cubic(x1: $0.0, y1: $0.1, x2: $0.2, y2: $0.3) })))),
                              range: .empty(at: 0))
    let composition = Composition(name: "s", size: Size(1, 1), fps: 60, window: nil, backgroundColor: nil,
                                  layers: [Layer(id: "a", kind: .layer, parent: nil, properties: [], animations: [animation], range: .empty(at: 0))],
                                  range: .empty(at: 0))
    let timeline = Timeline(composition)
    let n = quick ? 2_000_000 : 20_000_000
    let dt = 1.0 / 240
    guard var sampler = timeline.sampler(layer: 0, keyPath: "opacity") else { fail("no sampler for the bench's own opacity") }
    var ourSum = 0.0, plainSum = 0.0
    // The runtime is the public single-property sampler, times increasing.
    let (ours, plain) = bestInterleaved(repeats, {
        var s = 0.0
        for i in 0..<n { s += sampler.value(at: Double(i) * dt) }
        ourSum = s
    }, {
        plainSum = ScalarWorkload.plainLoop(n, dt: dt)
    })
    sink += ourSum + plainSum
    print("## scalar keyframes (8 keys, a cubic timing function per segment, increasing times)")
    print("runtime (PropertySampler): \(f(Double(n) / ours / 1e6)) M samples/s (\(f(ours / Double(n) * 1e9, 2)) ns/sample)")
    print("yardstick (plain loop):    \(f(Double(n) / plain / 1e6)) M samples/s (\(f(plain / Double(n) * 1e9, 2)) ns/sample)")
    print("ratio: \(f(ours / plain, 2))× the plain loop; results agree to \(String(format: "%.1e", abs(ourSum - plainSum) / Double(n))) per sample\n")
}

// MARK: - Scenes

if wants("scene") {
    print("## whole scene (every layer's every property, matrices, opacities)")
    func measure(_ name: String, _ composition: Composition, frames: Int) -> (Double, Int) {
        let timeline = Timeline(composition)
        var state = timeline.makeState()
        let rounds = quick ? 3 : 20
        let seconds = best(repeats) {
            for r in 0..<rounds {
                for i in 0..<frames { timeline.evaluate(at: Double(i) / 60 + Double(r) * 1e-9, into: &state) }
            }
            sink += state.effectiveOpacity(ofLayer: 0)
        } / Double(rounds * frames)
        var tracks = 0
        func count(_ a: Animation) { if case .group(let c) = a.kind { c.forEach(count) } else { tracks += 1 } }
        composition.layers.forEach { $0.animations.forEach(count) }
        print("\(name): \(composition.layers.count) layers, \(tracks) property animations: \(f(seconds * 1e6, 2)) µs/frame, \(f(1 / seconds)) frames/s")
        return (seconds, tracks)
    }
    /// The practical limit for a frame of a scene: one plain keyframe sample (the
    /// scalar yardstick's maths) per property animation and one plain 4×4 product per
    /// layer, measured here rather than assumed. Like the runtime, it pays for memory
    /// per layer and per track: every track has its own values, cursor and start time
    /// (so no two solve the same curve at the same progress), every layer its own
    /// matrix, and each layer's world matrix is its matrix times its parent's.
    func yardstick(tracks: Int, layers: Int, frames: Int) -> Double {
        var values = [Double](repeating: 0, count: tracks * 8)
        for i in values.indices { values[i] = ScalarWorkload.values[i % 8] + Double(i / 8) * 1e-3 }
        var cursors = [Int](repeating: 0, count: tracks)
        var out = [Double](repeating: 0, count: tracks)
        var local = [Double](repeating: 0, count: layers * 16)
        for i in local.indices { local[i] = i % 5 == 0 ? 1 : 0.001 * Double(i % 16) }
        var world = [Double](repeating: 0, count: layers * 16)
        let rounds = quick ? 3 : 20
        return best(repeats) {
            values.withUnsafeBufferPointer { v in
            cursors.withUnsafeMutableBufferPointer { cursors in
            out.withUnsafeMutableBufferPointer { out in
            local.withUnsafeBufferPointer { m in
            world.withUnsafeMutableBufferPointer { w in
                guard let v = v.baseAddress else { return }
                for r in 0..<rounds {
                    for f in 0..<frames {
                        let t = Double(f) / 60 + Double(r) * 1e-9
                        for k in 0..<tracks { out[k] = ScalarWorkload.sample(t + Double(k) * 1e-4, v + k * 8, &cursors[k]) }
                        for i in 0..<layers {
                            let a = i * 16, parent = i == 0 ? -1 : (i - 1) / 8
                            for row in 0..<4 {
                                for col in 0..<4 {
                                    var x = m[a + row * 4 + col]
                                    if parent >= 0 {
                                        let b = parent * 16
                                        x = m[a + row * 4] * w[b + col] + m[a + row * 4 + 1] * w[b + 4 + col]
                                            + m[a + row * 4 + 2] * w[b + 8 + col] + m[a + row * 4 + 3] * w[b + 12 + col]
                                    }
                                    w[a + row * 4 + col] = x
                                }
                            }
                        }
                        sink += w[0] + out[0]
                    }
                }
            }
            }
            }
            }
            }
        } / Double(rounds * frames)
    }
    for (name, source, frames) in [("examples/splash.anim", readExample("splash"), 180), ("generated, 2,000 layers", generatedSource(layers: 2_000), 120)] {
        guard let composition = compile(source).composition else { continue }
        let (seconds, tracks) = measure(name, composition, frames: frames)
        let limit = yardstick(tracks: tracks, layers: composition.layers.count, frames: frames)
        print("  yardstick (\(tracks) plain keyframe samples + \(composition.layers.count) plain 4×4 products): \(f(limit * 1e6, 2)) µs/frame; ratio \(f(seconds / limit, 1))×")
    }
    print()
}

// MARK: - Peers: rlottie and a plain C floor on the grid scene

/// The C side of the peer benchmark (Benchmarks/peer/peer.c), opened at run time so the
/// package links nothing: rlottie's scene update and the C floor.
struct PeerLibrary {
    typealias HasRlottie = @convention(c) () -> Int32
    typealias Load = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
    typealias FrameCount = @convention(c) (UnsafeMutableRawPointer?) -> Int
    typealias Run = @convention(c) (UnsafeMutableRawPointer?, Int, Int) -> Double
    typealias Destroy = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias MakeFloor = @convention(c) (Int, UnsafePointer<Double>?, UnsafePointer<Double>?, UnsafePointer<Double>?,
                                          UnsafePointer<Double>?, UnsafePointer<Double>?) -> UnsafeMutableRawPointer?
    let hasRlottie: Bool
    let rlottieLoad: Load, rlottieFrameCount: FrameCount, rlottieRun: Run, rlottieDestroy: Destroy
    let floorMake: MakeFloor, floorRun: Run, floorDestroy: Destroy

    init?(path: String) {
        guard let handle = dlopen(path, RTLD_NOW) else { return nil }
        func symbol<T>(_ name: String, _ type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let has = symbol("peer_has_rlottie", HasRlottie.self),
              let load = symbol("peer_rlottie_load", Load.self), let count = symbol("peer_rlottie_frame_count", FrameCount.self),
              let run = symbol("peer_rlottie_run", Run.self), let destroy = symbol("peer_rlottie_destroy", Destroy.self),
              let make = symbol("peer_floor_make", MakeFloor.self), let floorRun = symbol("peer_floor_run", Run.self),
              let floorDestroy = symbol("peer_floor_destroy", Destroy.self) else { return nil }
        hasRlottie = has() != 0
        rlottieLoad = load; rlottieFrameCount = count; rlottieRun = run; rlottieDestroy = destroy
        floorMake = make; self.floorRun = floorRun; self.floorDestroy = floorDestroy
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func option(_ name: String) -> String? {
    guard let i = CommandLine.arguments.firstIndex(of: name), i + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[i + 1]
}

if sections.contains("peer") {
    guard let libraryPath = option("--peer-lib") else { fail("peer: pass --peer-lib PATH (Benchmarks/peer/run.sh builds it)") }
    guard let peers = PeerLibrary(path: libraryPath) else { fail("peer: cannot open \(libraryPath): \(String(cString: dlerror()))") }
    let directory = option("--peer-dir") ?? NSTemporaryDirectory()
    let sizes = (option("--tiles") ?? "9,135,1000,2000").split(separator: ",").compactMap { Int($0) }
    let runs = quick ? 5 : 11
    print("## peers: the grid scene per frame (median of \(runs) interleaved runs, 180 frames at 60 fps)")
    print("animc: Timeline.evaluate(at:into:) on the .anim; rlottie: lottie_animation_render_tree (no raster) on the same")
    print("scene exported to Lottie by animc; floor: the same maths in plain C over flat arrays (Benchmarks/peer/peer.c).\n")
    print("| tiles | animc µs/frame | animc ns/layer | rlottie µs/frame | floor µs/frame | animc/rlottie | animc/floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes {
        let scene = GridScene(tiles: n)
        let source = scene.source
        try? source.write(toFile: "\(directory)/grid-\(scene.count).anim", atomically: true, encoding: .utf8)
        guard let composition = compile(source, name: "grid-\(scene.count).anim").composition else { fail("the grid scene does not compile") }
        let timeline = Timeline(composition)
        var rlottie: UnsafeMutableRawPointer?
        if peers.hasRlottie {
            guard case .success(let plan) = Baker.plan(timeline, sampleLimit: .max) else { fail("the grid scene has no bake plan") }
            let export = LottieExporter.export(timeline, plan: plan)
            let path = "\(directory)/grid-\(scene.count).json"
            guard FileManager.default.createFile(atPath: path, contents: Data(export.bytes)) else { fail("cannot write \(path)") }
            rlottie = path.withCString { peers.rlottieLoad($0) }
            guard rlottie != nil, peers.rlottieFrameCount(rlottie) == 180 else { fail("rlottie cannot load \(path)") }
        }
        let t = scene.tiles
        let floor = peers.floorMake(scene.count, t.x, t.y, t.delay, t.dx, t.dy)
        let frames = 180
        // Enough rounds that one run takes tens of milliseconds.
        let rounds = max(1, 4_000 / scene.count)
        var state = timeline.makeState()
        var ours: [Double] = [], theirs: [Double] = [], floors: [Double] = []
        for _ in 0..<runs {
            var start = now()
            for _ in 0..<rounds {
                for i in 0..<frames { timeline.evaluate(at: Double(i) / 60, into: &state) }
            }
            ours.append((now() - start) / Double(rounds * frames))
            sink += state.effectiveOpacity(ofLayer: scene.count)
            if rlottie != nil {
                start = now()
                sink += peers.rlottieRun(rlottie, frames, rounds)
                theirs.append((now() - start) / Double(rounds * frames))
            }
            start = now()
            sink += peers.floorRun(floor, frames, rounds)
            floors.append((now() - start) / Double(rounds * frames))
        }
        peers.floorDestroy(floor)
        peers.rlottieDestroy(rlottie)
        let a = median(ours), r = median(theirs), fl = median(floors)
        let rl = rlottie == nil ? "(no rlottie)" : f(r * 1e6, 1)
        let ratio = rlottie == nil ? "" : "\(f(a / r, 2))×"
        print("| \(scene.count) | \(f(a * 1e6, 1)) | \(f(a / Double(timeline.layerCount) * 1e9, 0)) | \(rl) | \(f(fl * 1e6, 1)) | \(ratio) | \(f(a / fl, 2))× |")
    }
    print()
}

// MARK: - Compile throughput

if wants("compile") {
    print("## compile throughput (parse + check + IR) vs JSONSerialization parsing the same number of bytes")
    print("Both start from bytes in memory, as `animc build` does after reading its file. Peak: the resident size at the")
    print("compile's peak; per source byte: that peak less the process's size before the source was made, so the source")
    print("counts once and the process's own code and libraries not at all. \"distinct\": each layer's keyframe values")
    print("differ from the others', so that only the key times and timing functions are shared (see `generatedSource`).")
    print("| layers | source | animc | MB/s | peak memory | per source byte | JSONSerialization MB/s | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    let sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]
    for (n, distinct) in sizes.map({ ($0, false) }) + [(sizes.last ?? 10_000, true)] {
        resetPeakMemory()
        let baseline = residentMiB()
        // Made from a string that is gone before the compile: the command line reads the
        // file's bytes, and a second copy as a string is no part of what it holds.
        let file = SourceFile(name: "bench.anim", bytes: Array(generatedSource(layers: n, distinctValues: distinct).utf8))
        let bytes = file.bytes.count
        let r = n >= 100_000 ? max(2, repeats / 3) : repeats
        resetPeakMemory()
        let layers = Pipeline.compile(file).composition?.layers.count ?? -1
        let peak = peakMemoryMiB()
        guard layers == n else { fail("the generated source of \(n) layers does not compile cleanly") }
        let json = generatedJSON(bytes: bytes)
        let (seconds, jsonSeconds) = bestInterleaved(r, { sink += Double(Pipeline.compile(file).composition?.layers.count ?? 0) },
                                                        { sink += Double((try? JSONSerialization.jsonObject(with: json)) != nil ? 1 : 0) })
        let mb = Double(bytes) / 1e6
        let perByte = (peak - baseline) * 1_048_576 / Double(bytes)
        print("| \(n)\(distinct ? ", distinct" : "") | \(f(mb, 2)) MB | \(f(seconds * 1000)) ms | \(f(mb / seconds)) | \(f(peak)) MiB | \(f(perByte)) | \(f(Double(json.count) / 1e6 / jsonSeconds)) | \(f(jsonSeconds / seconds * Double(bytes) / Double(json.count), 2))× |")
    }
    // Which phase peaks: a compile's peak is the larger of the parse's (the tree and
    // every token) and the check's (the tree and the IR), and lowering one alone moves
    // the figure above only while it is the larger.
    do {
        let n = sizes.last ?? 10_000
        let file = SourceFile(name: "bench.anim", bytes: Array(generatedSource(layers: n).utf8))
        let bytes = Double(file.bytes.count)
        resetPeakMemory()
        let baseline = residentMiB()
        let tree = parse(file)
        let parsePeak = peakMemoryMiB()
        resetPeakMemory()
        let checked = check(tree)
        let checkPeak = peakMemoryMiB()
        guard checked.composition?.layers.count == n else { fail("the generated source of \(n) layers does not check cleanly") }
        print("Peaks by phase at \(n) layers, above the source: the parse \(f((parsePeak - baseline) * 1_048_576 / bytes)) bytes per "
              + "source byte, the check \(f((checkPeak - baseline) * 1_048_576 / bytes)).")
    }
    print()
}

// MARK: - Timeline JSON: size and loading

if wants("timeline") {
    print("## timeline JSON: size against the source, writing and loading")
    print("| layers | source | timeline | ratio | write | load (parse + check) | load MB/s | JSONSerialization MB/s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
        let text = generatedSource(layers: n)
        guard let composition = compile(text).composition else { fail("the generated source of \(n) layers does not compile") }
        let r = n >= 100_000 ? max(2, repeats / 3) : repeats
        var bytes: [UInt8] = []
        let write = best(r) { bytes = TimelineWriter.bytes(composition) }
        let data = Data(bytes)
        let (load, json) = bestInterleaved(r, { sink += Double((try? TimelineLoader.load(bytes))?.layers.count ?? -1) },
                                              { sink += Double((try? JSONSerialization.jsonObject(with: data)) != nil ? 1 : 0) })
        let mb = Double(bytes.count) / 1e6
        print("| \(n) | \(f(Double(text.utf8.count) / 1e6, 2)) MB | \(f(mb, 2)) MB | \(f(Double(bytes.count) / Double(text.utf8.count), 2))× "
              + "| \(f(write * 1000)) ms | \(f(load * 1000)) ms | \(f(mb / load)) | \(f(mb / json)) |")
    }
    print()
}

// MARK: - Bake throughput

if wants("bake") {
    print("## bake throughput vs JSONSerialization writing the same document")
    for (name, text) in [("examples/splash.anim", readExample("splash")), ("generated, 500 layers", generatedSource(layers: 500))] {
        guard let composition = compile(text).composition else { fail("\(name) does not compile") }
        let timeline = Timeline(composition)
        guard case .success(let plan) = Baker.plan(timeline) else { continue }
        resetPeakMemory()
        var output: [UInt8] = []
        let seconds = best(repeats) { output = Baker.bake(timeline, plan: plan) }
        let peak = peakMemoryMiB()
        let object = try! JSONSerialization.jsonObject(with: Data(output))
        let jsonSeconds = best(repeats) { sink += Double((try? JSONSerialization.data(withJSONObject: object))?.count ?? 0) }
        let mb = Double(output.count) / 1e6
        print("\(name): \(plan.frameCount) frames, \(f(mb, 2)) MB")
        print("  animc bake (sampling + writing): \(f(seconds * 1000)) ms, \(f(Double(plan.frameCount) / seconds)) frames/s, \(f(mb / seconds)) MB/s, peak \(f(peak)) MiB")
        print("  JSONSerialization (writing only): \(f(jsonSeconds * 1000)) ms, \(f(mb / jsonSeconds)) MB/s")
        print("  ratio: animc is \(f(jsonSeconds / seconds, 2))× as fast")
    }
    print()
}

// MARK: - Preview rebuilds

if wants("preview") {
    // What `animc preview --serve` does between a save and the page's request for what
    // changed, stage by stage, in process; the browser's part is measured by
    // Benchmarks/preview/save_to_frame.py.
    print("## preview: a rebuild after a save, in process (best of \(repeats))")
    print("| example | compile | sample | chart | encode layers | page | update | page size | update size | baked size |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in ["splash", "ripple", "flip-card", "toss"] {
        let text = readExample(name)
        guard let composition = compile(text, name: name + ".anim").composition else { fail("\(name) does not compile") }
        let timeline = Timeline(composition)
        guard case .success(let plan) = Baker.plan(timeline) else { continue }
        let compileTime = best(repeats) { sink += Double(compile(text, name: name + ".anim").composition?.layers.count ?? 0) }
        var frames = Baker.sample(timeline, plan: plan)
        let sampleTime = best(repeats) { frames = Baker.sample(timeline, plan: plan) }
        let chartTime = best(repeats) { sink += Double(timeline.schedule(from: plan.window.start, to: plan.window.end).count) }
        var data = PreviewData(frames)
        let dataTime = best(repeats) { data = PreviewData(frames) }
        var page: [UInt8] = []
        let pageTime = best(repeats) { page = PreviewPage.render(data, title: name, version: 2, eventsPath: "/events") }
        // An edit that changes nothing drawn (the worst case for the data is an edit
        // that changes every layer: then the update is the document).
        let edited = data.with(diagnostics: [])
        var update: [UInt8] = []
        let updateTime = best(repeats) { update = edited.update(from: data, oldVersion: 1, version: 2, events: "/events") }
        let baked = Baker.write(frames).count
        print("| \(name) | \(f(compileTime * 1000, 2)) ms | \(f(sampleTime * 1000, 2)) ms | \(f(chartTime * 1000, 2)) ms "
              + "| \(f((dataTime - chartTime) * 1000, 2)) ms | \(f(pageTime * 1000, 2)) ms | \(f(updateTime * 1000, 2)) ms "
              + "| \(f(Double(page.count) / 1e6, 2)) MB | \(f(Double(update.count) / 1e3, 1)) KB | \(f(Double(baked) / 1e6, 2)) MB |")
    }
    print()
}

// MARK: - Keystrokes in the language server

if wants("keystroke") {
    print("## language server: re-check after a one-character edit")
    /// Opens `text`, then types and deletes a digit at (`line`, `character`) 40 times,
    /// timing each change until its diagnostics are published.
    func keystrokes(_ name: String, _ text: String, line: Int, character: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let server = LanguageServer()
        let uri = "file:///bench.anim"
        func send(_ method: String, _ params: JSONValue, id: Int? = nil) {
            var members = [JSONMember("jsonrpc", "2.0"), JSONMember("method", .string(method)), JSONMember("params", params)]
            if let id { members.append(JSONMember("id", .number(Double(id)))) }
            _ = server.handle(.object(members))
        }
        send("initialize", .object([JSONMember("capabilities", .object([]))]), id: 1)
        send("initialized", .object([]))
        resetPeakMemory()
        send("textDocument/didOpen", .object([JSONMember("textDocument", .object([
            JSONMember("uri", .string(uri)), JSONMember("languageId", "anim"), JSONMember("version", 1), JSONMember("text", .string(text))]))]))
        _ = server.flushDiagnostics()
        var times: [Double] = []
        for k in 0..<(quick ? 10 : 40) {
            let insert = k % 2 == 0
            let range = JSONValue.object([
                JSONMember("start", .object([JSONMember("line", .number(Double(line))), JSONMember("character", .number(Double(character)))])),
                JSONMember("end", .object([JSONMember("line", .number(Double(line))),
                                           JSONMember("character", .number(Double(insert ? character : character + 1)))]))])
            let start = now()
            send("textDocument/didChange", .object([
                JSONMember("textDocument", .object([JSONMember("uri", .string(uri)), JSONMember("version", .number(Double(k + 2)))])),
                JSONMember("contentChanges", .array([.object([JSONMember("range", range), JSONMember("text", insert ? "7" : "")])]))]))
            let published = server.flushDiagnostics()
            times.append(now() - start)
            sink += Double(published.count)
        }
        times.sort()
        let json = generatedJSON(bytes: text.utf8.count)
        let jsonSeconds = best(repeats) { sink += Double(((try? JSONSerialization.jsonObject(with: json)) as? [Any])?.count ?? 0) }
        print("\(name): \(lines) lines, \(f(Double(text.utf8.count) / 1e6, 2)) MB: median \(f(times[times.count / 2] * 1000)) ms, "
              + "worst \(f((times.last ?? 0) * 1000)) ms per edit (diagnostics published); peak \(f(peakMemoryMiB())) MiB")
        print("  yardstick: JSONSerialization parses a JSON document of the same size in \(f(jsonSeconds * 1000)) ms")
    }
    let plain = generatedSource(layers: 460)
    let plainLines = plain.split(separator: "\n", omittingEmptySubsequences: false).count
    keystrokes("generated layers", plain, line: plainLines / 2 - plainLines / 2 % 11 + 8, character: 13)  // a `position: (x, y)` line
    let heavy = componentHeavySource(blocks: 100)
    let heavyLines = heavy.split(separator: "\n", omittingEmptySubsequences: false)
    let gridLine = (heavyLines.firstIndex { $0.hasPrefix("layer grid50 ") } ?? 0) + 1  // its `position: (x, y)` line
    keystrokes("100 components × 25 instances", heavy, line: gridLine, character: 13)
    // The worst case: the timing function every tile of every grid reads, so nothing is reused.
    let timingLine = heavyLines.firstIndex { $0.hasPrefix("timing T = cubic(0.25") } ?? 0
    keystrokes("the same, an edit in the timing function all of it reads", heavy, line: timingLine, character: 19)
    print()
}

// MARK: - The examples, checked in process

if wants("examples") {
    print("## the examples: parse and check in process (best of \(repeats * 3))")
    print("| example | bytes | check |")
    print("|---|---:|---:|")
    for name in ["splash", "ripple", "flip-card", "plane", "toss", "follow-path", "scrub"] {
        let text = readExample(name)
        let file = SourceFile(name: "\(name).anim", text: text)
        guard Pipeline.compile(file).composition != nil else { fail("examples/\(name).anim does not compile") }
        let seconds = best(repeats * 3) { sink += Double(Pipeline.compile(file).diagnostics.count) }
        print("| \(name) | \(text.utf8.count) | \(f(seconds * 1000, 2)) ms |")
    }
    print()
}

// MARK: - An editor's traffic, over stdio

if wants("lsp") {
    print("## language server over stdio: a real client, as an editor drives `animc lsp`")
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("animc").path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        fail("lsp: \(executable) not found; build it first (swift build -c release --product animc)")
    }
    print("| document | lines | initialize → first diagnostics | edit → diagnostics p50 | p95 | worst | edits |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kilobytes in [20, 100] {
        let text = editorDocument(bytes: kilobytes * 1000)
        guard compile(text).diagnostics.isEmpty else { fail("lsp: the generated \(kilobytes) KB document has diagnostics") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // A keyframe row in the middle block: a digit typed after `1.2`, then deleted.
        let rows = lines.indices.filter { lines[$0].contains("0.5 = 1.2 ~ T") }
        let line = rows[rows.count / 2]
        let character = lines[line].utf16.count - " ~ T".utf16.count
        var firsts: [Double] = [], edits: [Double] = []
        for _ in 0..<(quick ? 2 : 5) {
            guard let session = EditorSession(executable: executable) else { fail("lsp: cannot start \(executable)") }
            let uri = "file:///bench/screens.anim"
            let start = now()
            let initialize = session.request("initialize", .object([
                JSONMember("processId", .null), JSONMember("rootUri", .null),
                JSONMember("capabilities", .object([JSONMember("textDocument", .object([
                    JSONMember("publishDiagnostics", .object([JSONMember("relatedInformation", true)]))]))]))]))
            guard session.wait({ $0["id"]?.numberValue == Double(initialize) }) != nil else { fail("lsp: no answer to initialize") }
            session.notify("initialized", .object([]))
            session.notify("textDocument/didOpen", .object([JSONMember("textDocument", .object([
                JSONMember("uri", .string(uri)), JSONMember("languageId", "anim"), JSONMember("version", 1),
                JSONMember("text", .string(text))]))]))
            guard let first = session.wait(EditorSession.diagnostics(uri, version: 1)) else { fail("lsp: no diagnostics after didOpen") }
            firsts.append(first.time - start)
            for k in 0..<(quick ? 20 : 60) {
                let insert = k % 2 == 0
                let from = session.count
                let position = { (c: Int) in JSONValue.object([JSONMember("line", .number(Double(line))), JSONMember("character", .number(Double(c)))]) }
                let sent = now()
                session.notify("textDocument/didChange", .object([
                    JSONMember("textDocument", .object([JSONMember("uri", .string(uri)), JSONMember("version", .number(Double(k + 2)))])),
                    JSONMember("contentChanges", .array([.object([
                        JSONMember("range", .object([JSONMember("start", position(character)),
                                                     JSONMember("end", position(insert ? character : character + 1))])),
                        JSONMember("text", insert ? "7" : "")])]))]))
                guard let published = session.wait(from: from, EditorSession.diagnostics(uri, version: k + 2)) else {
                    fail("lsp: no diagnostics after edit \(k)")
                }
                edits.append(published.time - sent)
            }
            session.close()
        }
        edits.sort()
        let p95 = edits[min(edits.count - 1, Int((Double(edits.count) * 0.95).rounded(.up)) - 1)]
        print("| \(kilobytes) KB | \(lines.count) | \(f(median(firsts) * 1000)) ms | \(f(median(edits) * 1000)) ms | \(f(p95 * 1000)) ms "
              + "| \(f((edits.last ?? 0) * 1000)) ms | \(edits.count) |")
    }
    print()
}

// MARK: - Imported libraries (issue 52)

if wants("modules") || sections.contains("profile-modules") {
    // A design-system library of growing size imported by 50 animations: how much a
    // compilation of the folder and a keystroke in one importer cost with the module
    // cache (each library checked once per content) and without it (checked for every
    // importer, every time: what animc did before the cache).
    print("## imported libraries: 50 importers of one library")
    print("| library | alone | 50 importers, no cache | 50 importers, one cache | importer keystroke, no cache | importer keystroke, warm cache |")
    print("|---:|---:|---:|---:|---:|---:|")
    for components in quick ? [8, 80] : sections.contains("profile-modules") ? [800] : [8, 80, 800] {
        var library = "let base = 8\ntiming ease = cubic(0.2, 0, 0, 1)\n"
        for c in 0..<components {
            library += """
                component C\(c)(at: Point, side: Number = base * 2, delay: Time = 0s) {
                  layer {
                    position: at
                    bounds: side x side
                    cornerRadius: side / 4
                    backgroundColor: rgb(\(c % 256), 120, 200)
                    basic opacity { from: 0, to: 1, duration: 0.3s, beginTime: delay, fillMode: backwards, timingFunction: ease }
                    basic transform.scale { from: 0.5, to: 1, duration: 0.4s, beginTime: delay, timingFunction: ease }
                  }
                }

                """
        }
        let fs = InMemoryFileSystem(["p/lib.anim": Array(library.utf8)])
        func importer(_ k: Int, digit: Int = 0) -> String {
            var s = "import \"lib.anim\"\ncomposition { size: 375 x 667 }\nlayer row {\n  position: (187, 300)\n  bounds: 375 x 60\n"
            s += "  for i in 0 ..< 4 { dot[i] = lib.C\((k * 7) % components)(at: (40 + 60 * i, 30), delay: 0.05s * i) }\n}\n"
            s += "big = lib.C\((k * 13) % components)(at: (187, 500), side: 4\(digit))\n"
            return s
        }
        let apps = (0..<50).map { "p/app\($0).anim" }
        for (k, app) in apps.enumerated() { fs[app] = Array(importer(k).utf8) }
        let loader = FileSystemLoader(fileSystem: fs)
        func compileApp(_ path: String, _ cache: ModuleCache?) -> ProjectResult {
            Pipeline.compile(SourceFile(name: path, bytes: fs[path] ?? []), loader: loader, cache: cache)
        }
        guard !compileApp(apps[0], nil).hasErrors else { fail("modules: the generated importer does not check clean") }
        let libraryFile = SourceFile(name: "p/lib.anim", bytes: Array(library.utf8))
        let alone = best(repeats) { sink += Double(Pipeline.compile(libraryFile).diagnostics.count) }
        let uncached = best(quick ? 1 : 3) { for app in apps { sink += Double(compileApp(app, nil).imported.count) } }
        let cached = best(quick ? 1 : 3) {
            let cache = ModuleCache()
            for app in apps { sink += Double(compileApp(app, cache).imported.count) }
        }
        // Keystrokes: a digit typed and typed again in one importer.
        let warm = ModuleCache()
        _ = compileApp(apps[0], warm)
        func keystrokes(_ cache: ModuleCache?) -> Double {
            var times: [Double] = []
            for d in 0..<(quick ? 6 : 20) {
                fs[apps[0]] = Array(importer(0, digit: d % 10).utf8)
                let start = now()
                sink += Double(compileApp(apps[0], cache).imported.count)
                times.append(now() - start)
            }
            return median(times)
        }
        if sections.contains("profile-modules") {
            for _ in 0..<20 { sink += keystrokes(warm) }
            continue
        }
        let coldKey = keystrokes(nil), warmKey = keystrokes(warm)
        print("| \(f(Double(library.utf8.count) / 1000)) KB | \(f(alone * 1000, 2)) ms | \(f(uncached * 1000)) ms (\(f(uncached / alone))×) "
              + "| \(f(cached * 1000)) ms (\(f(cached / alone))×) | \(f(coldKey * 1000, 2)) ms | \(f(warmKey * 1000, 2)) ms |")
    }
    print()
}

// MARK: - A project of many files

if wants("project") {
    print("## a project: 200 animations importing a tokens file and a components file")
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("animc").path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
        fail("project: \(executable) not found; build it first (swift build -c release --product animc)")
    }
    let root = writeProject(files: 200)
    defer { try? FileManager.default.removeItem(atPath: root) }
    func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("project: cannot run \(executable)") }
        process.waitUntilExit()
        return process.terminationStatus
    }
    guard run(["check", root]) == 0 else { fail("project: the generated project does not check clean") }
    let check = best(repeats) { sink += Double(run(["check", root])) }
    let one = best(repeats) { sink += Double(run(["check", root + "/screen0.anim"])) }
    print("| command | files | wall time |")
    print("|---|---:|---:|")
    print("| `animc check DIR` (every file, libraries once each) | 202 | \(f(check * 1000)) ms |")
    print("| `animc check screen0.anim` (one file and its two imports) | 3 | \(f(one * 1000)) ms |")
    print()

    // An editor with 20 importers open and the tokens file: an edit to a token, and the
    // time until every importer's diagnostics are published again.
    print("| editor: edit to the tokens file → all 20 open importers re-published | p50 | worst | edits |")
    print("|---|---:|---:|---:|")
    guard let session = EditorSession(executable: executable) else { fail("project: cannot start \(executable) lsp") }
    let initialize = session.request("initialize", .object([
        JSONMember("processId", .null), JSONMember("rootUri", .string("file://" + root)),
        JSONMember("capabilities", .object([JSONMember("workspace", .object([JSONMember("didChangeWatchedFiles", .object([
            JSONMember("dynamicRegistration", true)]))]))]))]))
    guard session.wait({ $0["id"]?.numberValue == Double(initialize) }) != nil else { fail("project: no answer to initialize") }
    session.notify("initialized", .object([]))
    func open(_ path: String) -> String {
        let uri = "file://" + path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        session.notify("textDocument/didOpen", .object([JSONMember("textDocument", .object([
            JSONMember("uri", .string(uri)), JSONMember("languageId", "anim"), JSONMember("version", 1), JSONMember("text", .string(text))]))]))
        guard session.wait(EditorSession.diagnostics(uri, version: 1)) != nil else { fail("project: no diagnostics for \(path)") }
        return uri
    }
    let importers = (0..<20).map { open(root + "/screen\($0).anim") }
    let tokensPath = root + "/motion/tokens.anim"
    let tokensURI = open(tokensPath)
    let tokensText = (try? String(contentsOfFile: tokensPath, encoding: .utf8)) ?? ""
    var times: [Double] = []
    for k in 0..<(quick ? 6 : 20) {
        // A token's value changes (a digit typed into a duration), and back.
        let text = k % 2 == 0 ? tokensText.replacingOccurrences(of: "= 100ms", with: "= 1005ms") : tokensText
        let from = session.count
        let sent = now()
        session.notify("textDocument/didChange", .object([
            JSONMember("textDocument", .object([JSONMember("uri", .string(tokensURI)), JSONMember("version", .number(Double(k + 2)))])),
            JSONMember("contentChanges", .array([.object([JSONMember("text", .string(text))])]))]))
        var last = sent
        for uri in importers {
            guard let published = session.wait(from: from, EditorSession.diagnostics(uri, version: 1)) else {
                fail("project: \(uri) was not re-published after edit \(k)")
            }
            last = max(last, published.time)
        }
        times.append(last - sent)
    }
    times.sort()
    print("| 21 open documents | \(f(median(times) * 1000)) ms | \(f((times.last ?? 0) * 1000)) ms | \(times.count) |")
    print()

    // Workspace requests with every screen open (issue 50): a symbol search walks the
    // folder once and keeps the listing while the client watches files; a batch of
    // 10,000 watched-file changes is absorbed before the next answer.
    let others = (20..<200).map { open(root + "/screen\($0).anim") }
    func answered(_ method: String, _ params: JSONValue) -> Double {
        let from = session.count
        let sent = now()
        let id = session.request(method, params)
        guard let reply = session.wait(from: from, { $0["id"]?.numberValue == Double(id) }) else { fail("project: no answer to \(method)") }
        return reply.time - sent
    }
    let everything = JSONValue.object([JSONMember("query", "")])
    let firstSearch = answered("workspace/symbol", everything)
    let againSearch = answered("workspace/symbol", everything)
    let changes = JSONValue.array((0..<10_000).map { k in
        .object([JSONMember("uri", .string("file://\(root)/generated/file\(k).anim")), JSONMember("type", .number(2))])
    })
    let from = session.count
    let sent = now()
    session.notify("workspace/didChangeWatchedFiles", .object([JSONMember("changes", changes)]))
    let id = session.request("workspace/symbol", .object([JSONMember("query", "screen")]))
    guard let reply = session.wait(from: from, { $0["id"]?.numberValue == Double(id) }) else { fail("project: no answer after the changes") }
    let afterChanges = reply.time - sent
    session.close()
    print("| editor with \(others.count + 21) open documents | time to answer |")
    print("|---|---:|")
    print("| `workspace/symbol` \"\" (walks the folder, 1,000 kept) | \(f(firstSearch * 1000)) ms |")
    print("| `workspace/symbol` \"\" again (listing kept) | \(f(againSearch * 1000)) ms |")
    print("| 10,000 watched-file changes, then `workspace/symbol` | \(f(afterChanges * 1000)) ms |")
    print()
}

if wants("render") {
    // The splash at 375 × 667: one frame rendered (the scene evaluated beforehand, as a
    // player has it), its PNG encoding, and the 3 s GIF `animc render --gif` writes
    // (150 frames at 50 fps: evaluation, rendering, palette, LZW). `--frames-only N` prints
    // only N single-frame timings in ms, one per line, for Benchmarks/render/thorvg.py.
    guard let composition = compile(readExample("splash")).composition else { fail("render: the splash does not compile") }
    let timeline = Timeline(composition)
    // With its pictures, as `animc render` draws it and as the Lottie export ThorVG plays
    // embeds them (the first figures compared no tiles here with placeholders there).
    var renderOptions = RenderOptions()
    let assets = (try? FileManager.default.contentsOfDirectory(atPath: "examples/assets")) ?? []
    for file in assets where file.hasSuffix(".png") {
        guard let data = FileManager.default.contents(atPath: "examples/assets/" + file),
              let bitmap = try? PNG.decode([UInt8](data)) else { fail("render: examples/assets/\(file) does not decode") }
        renderOptions.images[String(file.dropLast(4))] = bitmap.premultiplied()
    }
    guard renderOptions.images["chimes-tile"] != nil else { fail("render: examples/assets/chimes-tile.png is missing") }
    let renderer = SceneRenderer(timeline: timeline, options: renderOptions)
    var state = timeline.makeState()
    timeline.evaluate(at: 1, into: &state)
    if let text = option("--frames-only"), let n = Int(text) {
        for _ in 0..<n {
            let start = now()
            let image = renderer.render(state)
            let elapsed = now() - start
            sink += Double(image.pixels[0])
            print(f(elapsed * 1000, 3))
        }
        exit(0)
    }
    print("## render: the splash at 375 × 667 (median of \(repeats * 3) runs)")
    var frame: [Double] = [], png: [Double] = []
    var image = renderer.render(state)
    for _ in 0..<(repeats * 3) {
        let a = now()
        image = renderer.render(state)
        let b = now()
        let bytes = PNG.encode(image)
        let c = now()
        frame.append(b - a); png.append(c - b)
        sink += Double(bytes.count)
    }
    print("| one frame (t = 1 s) | \(f(median(frame) * 1000, 2)) ms |")
    print("| its PNG encoding | \(f(median(png) * 1000, 2)) ms |")
    var gif: [Double] = []
    for _ in 0..<(quick ? 1 : 3) {
        let a = now()
        var frames: [Bitmap] = []
        var s = timeline.makeState()
        for k in 0..<150 {
            timeline.evaluate(at: Double(k) / 50, into: &s)
            frames.append(renderer.render(s))
        }
        let bytes = (try? GIF.encode(frames, delays: [Int](repeating: 2, count: 150))) ?? []
        gif.append(now() - a)
        sink += Double(bytes.count)
    }
    print("| 3 s GIF (150 frames at 50 fps, encoded) | \(f(median(gif) * 1000, 0)) ms |")
    print()
}

if sink == 42.4242 { print("") }
