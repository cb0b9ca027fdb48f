import AnimcBake
import AnimcBase
import AnimcCompiler
import AnimcDiagnostics
import AnimcDriver
import AnimcIR
@testable import AnimcLottie
import AnimcRuntime
import AnimcTestSupport
import Foundation
import Testing

/// The Lottie writer, checked against Lottie's own interpolation written here a second
/// time (``LottiePlayerModel``): handles, holds, and every frame of every example.
@Suite struct LottieExportTests {
    static let folder = "Tests/AnimcBackendTests/Fixtures/lottie"
    static let exact = folder + "/exact.anim"
    static var triggers: [String] { Repository.files(in: folder, withExtension: "anim").filter { $0.split(separator: "/").last?.first == "W" } }

    static func export(_ path: String) throws -> (Timeline, BakePlan, LottieExporter.Result, JSONValue, CompileResult) {
        let result = Pipeline.compile(SourceFile(name: path.split(separator: "/").last.map(String.init) ?? path, bytes: Repository.bytes(path)))
        let ir = try #require(result.composition, "\(path) does not compile")
        let t = Timeline(ir)
        guard case .success(let plan) = Baker.plan(t) else { throw PlanRefused() }
        let export = LottieExporter.export(t, plan: plan)
        return (t, plan, export, try JSONParser.parse(export.bytes), result)
    }

    struct PlanRefused: Error {}

    @Test func theExactFixtureWritesNoSamplesAndNoFindings() throws {
        let (_, _, export, _, _) = try Self.export(Self.exact)
        #expect(export.sampledTracks == 0)
        #expect(export.exactTracks == 7)
        #expect(export.diagnostics.isEmpty, "\(export.diagnostics.map(\.message))")
    }

    @Test func keyframesCarryTheSegmentsHandlesAtTheirFrames() throws {
        let (_, _, _, doc, _) = try Self.export(Self.exact)
        let layer = try #require(doc["layers"]?.arrayValue?.first { $0["nm"] == "eased" })
        let keys = try #require(layer["ks"]?["o"]?["k"]?.arrayValue)
        // 2 s at 30 fps; key times 0, 0.5, 1 → frames 0, 30, 60. The animation is then
        // removed: its end shows at frame 60 (Core Animation's ends are inclusive) and
        // the model value (1) a thousandth of a frame later, held from its keyframe to the
        // end of the window (a last keyframe with the same value would say nothing).
        #expect(keys.compactMap { $0["t"]?.numberValue } == [0, 30, 60, 60.001])
        #expect(keys.map { $0["s"]?.arrayValue?.first?.numberValue } == [0, 100, 20, 100])
        #expect(keys[2]["h"] == .number(1))
        func handles(_ k: JSONValue) -> [Double?] {
            [k["o"]?["x"]?.arrayValue?.first?.numberValue, k["o"]?["y"]?.arrayValue?.first?.numberValue,
             k["i"]?["x"]?.arrayValue?.first?.numberValue, k["i"]?["y"]?.arrayValue?.first?.numberValue]
        }
        #expect(handles(keys[0]) == [0.42, 0, 0.58, 1])
        #expect(handles(keys[1]) == [0.25, 0, 0.2, 1])
        #expect(keys[3]["o"] == nil, "the last keyframe has no easing")
    }

    @Test func discreteKeyframesAreHolds() throws {
        let (_, _, _, doc, _) = try Self.export(Self.exact)
        let layer = try #require(doc["layers"]?.arrayValue?.first { $0["nm"] == "steps" })
        let background = try #require(layer["shapes"]?.arrayValue?.first { $0["nm"] == "background" })
        let fill = try #require(background["it"]?.arrayValue?.first { $0["ty"] == "fl" })
        let keys = try #require(fill["c"]?["k"]?.arrayValue)
        // Key times 0, 0.3, 0.8 of 3 s at 30 fps: frames 0, 27, 72, each held.
        #expect(keys.compactMap { $0["t"]?.numberValue }.prefix(3) == [0, 27, 72])
        #expect(keys.dropLast().allSatisfy { $0["h"] == .number(1) })
    }

    /// A plane turning about y passes edge-on: its x scale goes through zero. The
    /// decomposition follows it (a negative scale) rather than turning the layer by half
    /// a turn between two frames; under perspective, where the fitted plane can go from
    /// one negative scale to two, the scales before decide too.
    @Test func aPlaneTurningEdgeOnIsNotTurnedByHalfATurn() throws {
        let mirrored = Affine2D(a: -0.1, b: 0, c: 0, d: 1, tx: 0, ty: 0, near: 0)
        #expect(abs(mirrored.rotation) < 1e-12 && abs(mirrored.scaleX + 0.1) < 1e-12 && abs(mirrored.scaleY - 1) < 1e-12)
        let first = Affine2D(a: -0.1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(abs(abs(first.rotation) - .pi) < 1e-12, "with nothing before, the x scale is positive")
        let both = Affine2D(a: -0.5, b: 0, c: 0, d: -0.2, tx: 0, ty: 0, near: 0, previousScale: (x: -0.45, y: 0.05))
        #expect(abs(both.rotation) < 1e-12 && both.scaleX < 0 && both.scaleY < 0)
        // The plane example: its turn about y under perspective writes no rotation jump.
        let (_, _, _, doc, _) = try Self.export("examples/plane.anim")
        let plane = try #require(doc["layers"]?.arrayValue?.first { $0["nm"] == "spinner.plane" })
        let r = try #require(plane["ks"]?["r"])
        var f = 0.0, previous: Double?
        while f < 72 {
            let now = LottiePlayerModel.value(r, at: f).first ?? 0
            if let previous { #expect(abs(now - previous) < 45, "rotation jumps from \(previous)° to \(now)° at frame \(f)") }
            previous = now
            f += 0.5
        }
    }

    /// The flip card's faces pass edge-on under perspective every 2 s, where the fitted
    /// plane has no area: its position is where the map puts the anchor, not where its
    /// recomposed parts would (353 px away for one frame, drawn 88 px off between frames).
    @Test func aFaceSeenEdgeOnDoesNotJump() throws {
        let (_, plan, _, doc, _) = try Self.export("examples/flip-card.anim")
        for face in ["frame.card.front", "frame.card.back"] {
            let layer = try #require(doc["layers"]?.arrayValue?.first { $0["nm"] == .string(face) })
            let p = try #require(layer["ks"]?["p"])
            var previous: [Double]?
            var f = 0.0
            while f < Double(plan.frameCount) {
                let now = LottiePlayerModel.value(p, at: f)
                if let previous, now.count == 2 {
                    let step = hypot(now[0] - previous[0], now[1] - previous[1])
                    #expect(step < 10, "\(face) moves \(step) px in a quarter frame at frame \(f)")
                }
                previous = now
                f += 0.25
            }
        }
    }

    /// An image whose bounds animate (a launch reveal: 60 → 50 → 2000 points) is drawn
    /// stretched to them: the asset's corners land where the runtime puts the bounds'
    /// corners, at every whole and half frame. It was written at its first size.
    @Test func anImagesAnimatedBoundsStretchIt() throws {
        let (t, plan, _, doc, _) = try Self.export(Self.folder + "/image-bounds.anim")
        let layers = try #require(doc["layers"]?.arrayValue)
        let logo = try #require(layers.first { $0["nm"] == "logo" })
        let asset = try #require(doc["assets"]?.arrayValue?.first { $0["id"] == logo["refId"] })
        let (w, h) = (try #require(asset["w"]?.numberValue), try #require(asset["h"]?.numberValue))
        var byIndex: [Int: JSONValue] = [:]
        for l in layers { if let i = l["ind"]?.numberValue { byIndex[Int(i)] = l } }
        let i = try #require(t.layerIndex("logo"))
        var state = t.makeState()
        var f = 0.0
        while f < Double(plan.frameCount) {
            t.evaluate(at: plan.window.start + f / plan.fps, into: &state)
            let m = state.matrix(ofLayer: i).m
            guard case .rect(let b)? = t.value("bounds", layer: "logo", at: plan.window.start + f / plan.fps),
                  let world = LottiePlayerModel.world(logo, layers: byIndex, at: f) else { Issue.record("no bounds or transform"); return }
            for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let (x, y) = (b.x + u * b.width, b.y + v * b.height)
                let expected = (x * m.0 + y * m.4 + m.12, x * m.1 + y * m.5 + m.13)
                let got = (world[0] * u * w + world[2] * v * h + world[4], world[1] * u * w + world[3] * v * h + world[5])
                #expect(hypot(got.0 - expected.0, got.1 - expected.1) < 0.5, "corner (\(u), \(v)) at frame \(f): \(got) vs \(expected)")
            }
            f += 0.5
        }
    }

    @Test func aRemovedEndShowsAtItsOwnFrameAndTheModelValueAfter() throws {
        // The turn ends at 1 s = frame 30: Core Animation shows the end there (540° ≡ 180°),
        // then the model value (0°). The jump is a thousandth of a frame after frame 30.
        let (_, _, _, doc, _) = try Self.export(Self.exact)
        let layer = try #require(doc["layers"]?.arrayValue?.first { $0["nm"] == "steps" })
        let r = try #require(layer["ks"]?["r"])
        func turned(_ f: Double) -> Double? { LottiePlayerModel.value(r, at: f).first }
        #expect(turned(15).map { abs($0 - 270) < 1e-6 } == true, "linear: half way at frame 15")
        #expect(turned(30).map { abs($0 - 540) < 1e-6 } == true)
        // After it: the model value, 0°, possibly written as a whole number of turns.
        #expect(turned(30.01).map { abs(remainder($0, 360)) < 1e-6 } == true)
        #expect(turned(30.01).map { abs($0 - 540) > 1 } == true)
    }

    /// Every example (and the exact fixture) played by the model: each plane layer's
    /// composed matrix and each drawn layer's opacity equal the runtime's at every
    /// frame and half frame.
    @Test(arguments: Repository.examples + [LottieExportTests.exact, LottieExportTests.folder + "/edge-on.anim"])
    func playsBackWhatTheRuntimeShows(_ path: String) throws {
        let (t, plan, export, doc, _) = try Self.export(path)
        let layers = try #require(doc["layers"]?.arrayValue)
        var byIndex: [Int: JSONValue] = [:]
        for l in layers { if let i = l["ind"]?.numberValue { byIndex[Int(i)] = l } }
        // Every whole and half frame up to the out point: players draw between frames, and
        // a sampled track meets the runtime there within its channel's tolerance (0.05 px,
        // 0.05 % of opacity), an exact one to rounding.
        let step = 0.5
        var state = t.makeState()
        var f = 0.0
        var checked = 0
        while f < Double(plan.frameCount) {
            t.evaluate(at: plan.window.start + f / plan.fps, into: &state)
            for l in layers where l["td"] == nil {
                guard let name = l["nm"]?.stringValue, let i = t.layerIndex(name) else { continue }
                let m = state.matrix(ofLayer: i).m
                // Without perspective the layer's plane lands as an affine map (turned
                // in 3D or not); with it, the export is a fitted plane (W0805).
                let plane = [m.3, m.7].allSatisfy { abs($0) < 1e-12 } && m.15 == 1
                guard plane, let world = LottiePlayerModel.world(l, layers: byIndex, at: f) else { continue }
                let expected = [m.0, m.1, m.4, m.5, m.12, m.13]
                for (a, b) in zip(world, expected) {
                    #expect(abs(a - b) <= 2e-3 * max(1, abs(b)) + (f.rounded() == f ? 0 : 0.06), "\(path) '\(name)' frame \(f): \(world) vs \(expected)")
                }
                if l["ty"] != .number(3), let o = l["ks"]?["o"] {
                    let opacity = LottiePlayerModel.value(o, at: f).first ?? -1
                    #expect(abs(opacity - 100 * state.effectiveOpacity(ofLayer: i)) <= (f.rounded() == f ? 1e-3 : 0.06),
                            "\(path) '\(name)' opacity at frame \(f)")
                }
                checked += 1
            }
            f += step
        }
        // Only compositions drawn wholly in 3D (projected, W0805) have no plane layer.
        #expect(checked > 0 || export.diagnostics.contains { $0.code == "W0805" }, "\(path): no plane layer was checked")
    }

    @Test(arguments: triggers)
    func triggersItsFinding(_ path: String) throws {
        let (_, _, export, _, result) = try Self.export(path)
        let code = String(path.split(separator: "/").last?.prefix(5) ?? "")
        #expect(export.diagnostics.contains { $0.code.rawValue == code }, "\(path): \(export.diagnostics.map(\.code.rawValue))")
        let rendered = HumanRenderer().render(export.diagnostics, in: result.file)
        if let problem = Golden.check(rendered, against: String(path.dropLast(5)) + ".diag.txt") {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func everyTargetCodeHasATriggeringFixtureAndAnExplanation() {
        let covered = Set(Self.triggers.compactMap { $0.split(separator: "/").last.map { String($0.prefix(5)) } })
        for d in LottieDiagnostics.all {
            #expect(covered.contains(d.code.rawValue), "no fixture triggers \(d.code.rawValue)")
            #expect(d.explanation.count > 80)
        }
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let a = try Self.export("examples/splash.anim").2.bytes
        let b = try Self.export("examples/splash.anim").2.bytes
        #expect(a == b)
    }

    /// A part of an easing, rescaled, is the same curve: checked against a direct solve.
    @Test func partsOfACurveAreTheCurve() throws {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<200 {
            let x1 = Double(rng.next() % 1000) / 1000, x2 = Double(rng.next() % 1000) / 1000
            let y1 = Double(rng.next() % 3000) / 1000 - 1, y2 = Double(rng.next() % 3000) / 1000 - 1
            let e = BezierEasing(x1, y1, x2, y2)
            var a = Double(rng.next() % 1000) / 1000, b = Double(rng.next() % 1000) / 1000
            if abs(a - b) < 0.05 { continue }
            if rng.next() % 2 == 0 { swap(&a, &b) }  // backwards too
            guard let part = e.part(from: a, to: b) else { continue }
            let (ya, yb) = (LottiePlayerModel.ease(x1, y1, x2, y2, a), LottiePlayerModel.ease(x1, y1, x2, y2, b))
            guard abs(yb - ya) > 1e-6 else { continue }
            for k in 1..<10 {
                let x = Double(k) / 10
                let expected = (LottiePlayerModel.ease(x1, y1, x2, y2, a + (b - a) * x) - ya) / (yb - ya)
                let got = LottiePlayerModel.ease(part.x1, part.y1, part.x2, part.y2, x)
                #expect(abs(got - expected) < 1e-6, "cubic(\(x1), \(y1), \(x2), \(y2)) from \(a) to \(b) at \(x)")
            }
        }
    }
}

/// Lottie's interpolation and transform, as the specification states them, written
/// without the exporter's code.
enum LottiePlayerModel {
    /// y at x of the easing from (0,0) to (1,1) with handles (x1,y1), (x2,y2): Newton on
    /// the parameter, bisection when it strays.
    static func ease(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func bez(_ s: Double, _ a: Double, _ b: Double) -> Double { 3 * a * s * (1 - s) * (1 - s) + 3 * b * s * s * (1 - s) + s * s * s }
        func slope(_ s: Double, _ a: Double, _ b: Double) -> Double { 3 * a * (1 - s) * (1 - s) + 6 * (b - a) * s * (1 - s) + 3 * (1 - b) * s * s }
        var s = x
        for _ in 0..<20 {
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= (bez(s, x1, x2) - x) / d
        }
        if !(s >= 0 && s <= 1) || abs(bez(s, x1, x2) - x) > 1e-12 {
            var lo = 0.0, hi = 1.0
            for _ in 0..<100 {
                s = (lo + hi) / 2
                if bez(s, x1, x2) < x { lo = s } else { hi = s }
            }
        }
        return bez(s, y1, y2)
    }

    static func numbers(_ v: JSONValue?) -> [Double] {
        if let n = v?.numberValue { return [n] }
        return v?.arrayValue?.compactMap(\.numberValue) ?? []
    }

    static func value(_ property: JSONValue, at f: Double) -> [Double] {
        guard property["a"] == .number(1), let keys = property["k"]?.arrayValue, !keys.isEmpty else { return numbers(property["k"]) }
        let times = keys.map { $0["t"]?.numberValue ?? 0 }
        guard let i = times.lastIndex(where: { $0 <= f }) else { return numbers(keys[0]["s"]) }
        if i == keys.count - 1 { return numbers(keys[i]["s"]) }
        let a = numbers(keys[i]["s"]), b = numbers(keys[i + 1]["s"])
        if keys[i]["h"] == .number(1) { return a }
        let x = (f - times[i]) / (times[i + 1] - times[i])
        let p = ease(numbers(keys[i]["o"]?["x"]).first ?? 0, numbers(keys[i]["o"]?["y"]).first ?? 0,
                     numbers(keys[i]["i"]?["x"]).first ?? 1, numbers(keys[i]["i"]?["y"]).first ?? 1, x)
        return zip(a, b).map { $0 + ($1 - $0) * p }
    }

    /// The layer's matrix to the composition, (a, b, c, d, tx, ty) with x' = a·x + c·y + tx.
    static func world(_ layer: JSONValue, layers: [Int: JSONValue], at f: Double, depth: Int = 0) -> [Double]? {
        guard depth < 64, let ks = layer["ks"] else { return nil }
        let a = value(ks["a"] ?? .null, at: f), p = value(ks["p"] ?? .null, at: f), s = value(ks["s"] ?? .null, at: f)
        let r = (value(ks["r"] ?? .null, at: f).first ?? 0) * Double.pi / 180
        let sk = ks["sk"].map { (value($0, at: f).first ?? 0) * Double.pi / 180 } ?? 0
        guard a.count >= 2, p.count >= 2, s.count >= 2 else { return nil }
        // T(p) · R(r) · skewX(tan(-sk)) · S(s/100) · T(-a)
        let sx = s[0] / 100, sy = s[1] / 100, k = tan(-sk)
        let (cs, sn) = (cos(r), sin(r))
        let la = cs * sx, lb = sn * sx
        let lc = cs * k * sy - sn * sy, ld = sn * k * sy + cs * sy
        let tx = p[0] - (la * a[0] + lc * a[1]), ty = p[1] - (lb * a[0] + ld * a[1])
        var m = [la, lb, lc, ld, tx, ty]
        if let parentIndex = layer["parent"]?.numberValue {
            guard let parent = layers[Int(parentIndex)], let w = world(parent, layers: layers, at: f, depth: depth + 1) else { return nil }
            m = [w[0] * m[0] + w[2] * m[1], w[1] * m[0] + w[3] * m[1], w[0] * m[2] + w[2] * m[3], w[1] * m[2] + w[3] * m[3],
                 w[0] * m[4] + w[2] * m[5] + w[4], w[1] * m[4] + w[3] * m[5] + w[5]]
        }
        return m
    }
}

/// The exporter's sample storage (issue 50: an array per sample was most of a large
/// export's memory): values of one length are kept flat, a change of length (a path
/// gaining points) falls back to one array per sample, and both read back as written.
@Suite struct SampleSeriesTests {
    @Test func readsBackWhatWasAppended() {
        var flat = SampleSeries()
        let rows: [[Double]] = [[1, 2], [3, 4], [3, 4], [5, 6]]
        for r in rows { flat.append(r) }
        #expect(flat.rows == rows && flat.last == [5, 6] && flat.count == 4 && flat.width == 2)
        var ragged = SampleSeries()
        let varying: [[Double]] = [[1], [2], [3, 4, 5], [], [6]]
        for r in varying { ragged.append(r) }
        #expect(ragged.rows == varying && ragged.last == [6] && ragged.width == nil)
        #expect(SampleSeries().last == nil && SampleSeries().rows.isEmpty)
    }
}
