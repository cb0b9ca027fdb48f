import AnimcBase
import AnimcCompiler
import AnimcIR
import AnimcRuntime
import AnimcTimeline
import AnimcTestSupport
import Foundation
import Testing

/// States and transitions played from event scripts, against references written here
/// from the physics and the curves, not from the runtime: a spring retargeted under the
/// additive model is one spring from the value and velocity at each event (the
/// superposition of UIKit's additive animations solves the same linear equation); an
/// eased transition adds the curve's progress times the change.
@Suite struct InteractionTests {
    static let folder = "Tests/AnimcBackendTests/Fixtures/interaction"

    static func compile(_ name: String) -> (Composition, Interaction) {
        let result = Pipeline.compile(SourceFile(name: name, bytes: Repository.bytes(folder + "/" + name)))
        guard let composition = result.composition, let interaction = result.interaction else {
            Issue.record("\(name) does not compile: \(result.diagnostics.map(\.message))")
            return (Composition(name: "", size: Size(0, 0), fps: 60, window: nil, backgroundColor: nil, layers: [], range: .empty(at: 0)),
                    Interaction(inputs: [], states: [], transitions: [], baseValues: []))
        }
        return (composition, interaction)
    }

    static func play(_ composition: Composition, _ interaction: Interaction, _ script: String) -> Timeline? {
        guard case .success(let events) = EventScript.parse(script) else {
            Issue.record("script '\(script)' does not parse")
            return nil
        }
        switch InteractionPlayer.unroll(composition, interaction, events) {
        case .success(let (played, _)): return Timeline(played)
        case .failure(let f):
            Issue.record("\(f.message)")
            return nil
        }
    }

    // MARK: Springs

    /// x'' = −(k/m)(x − target) − (c/m)x', from x0 with velocity v0: the textbook
    /// solution in each damping regime.
    struct Spring {
        let mass = 1.5, stiffness = 180.0, damping = 9.0

        func state(from x0: Double, velocity v0: Double, to target: Double, after t: Double) -> (x: Double, v: Double) {
            let w0 = (stiffness / mass).squareRoot()
            let zeta = damping / (2 * (stiffness * mass).squareRoot())
            let u0 = x0 - target
            precondition(zeta < 1, "the fixture's spring is underdamped")
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let a = u0, b = (v0 + zeta * w0 * u0) / wd
            let e = exp(-zeta * w0 * t)
            let u = e * (a * cos(wd * t) + b * sin(wd * t))
            let du = e * ((-zeta * w0) * (a * cos(wd * t) + b * sin(wd * t)) + (-a * wd * sin(wd * t) + b * wd * cos(wd * t)))
            return (target + u, du)
        }
    }

    /// Where the fixture's guards send each goal value.
    static func stop(for goal: Double) -> Double { goal < 0.5 ? 0 : goal < 1.5 ? 100 : 250 }

    @Test func springRetargetsAreOneSpringFromTheValueAndVelocityAtEachEvent() {
        let (composition, interaction) = Self.compile("spring-retargets.anim")
        guard let layer = composition.layerIndex("dot") else { return }
        var rng = SplitMix64(seed: 0x5EED_5712)
        let spring = Spring()
        let range = 250.0
        var worst = 0.0
        for script in 0..<200 {
            // 1–5 events at increasing times in the first 2.5 s, each a goal value.
            var events: [(time: Double, goal: Double)] = []
            var t = 0.0
            for _ in 0..<(1 + Int(rng.next() % 5)) {
                t += 0.02 + Double(rng.next() % 1000) / 1000 * 0.6
                events.append((t, Double(rng.next() % 2001) / 1000))
            }
            let text = events.map { "goal=\($0.goal)@\($0.time)s" }.joined(separator: ", ")
            guard let timeline = Self.play(composition, interaction, text) else { return }
            // The reference: a piecewise spring, restarted at each event that changes the stop.
            var segments: [(start: Double, x0: Double, v0: Double, target: Double)] = [(0, 0, 0, 0)]
            for e in events {
                let target = Self.stop(for: e.goal)
                let last = segments[segments.count - 1]
                guard target != last.target else { continue }
                let now = spring.state(from: last.x0, velocity: last.v0, to: last.target, after: e.time - last.start)
                segments.append((e.time, now.x, now.v, target))
            }
            let end = (events.last?.time ?? 0) + 3
            var state = timeline.makeState()
            for k in 0..<1000 {
                let time = end * Double(k) / 999
                let segment = segments.last { $0.start <= time } ?? segments[0]
                let expected = spring.state(from: segment.x0, velocity: segment.v0, to: segment.target, after: time - segment.start).x
                timeline.evaluate(at: time, into: &state)
                guard case .number(let x)? = timeline.value("position.x", layer: layer, in: state) else {
                    Issue.record("no position.x")
                    return
                }
                worst = max(worst, abs(x - expected) / range)
                if abs(x - expected) > 1e-9 * range {
                    Issue.record("script \(script) '\(text)' at \(time) s: \(x), expected \(expected)")
                    return
                }
            }
        }
        #expect(worst < 1e-9)
    }

    @Test func valueAndVelocityAreContinuousAtEveryEvent() {
        let (composition, interaction) = Self.compile("spring-retargets.anim")
        guard let layer = composition.layerIndex("dot"),
              let timeline = Self.play(composition, interaction, "goal=2@0.3s, goal=0@0.45s, goal=1@0.9s, goal=2@1.0s") else { return }
        func x(_ t: Double) -> Double {
            if case .number(let v)? = timeline.value("position.x", layer: "dot", at: t) { return v }
            return .nan
        }
        _ = layer
        let h = 1e-4
        for event in [0.3, 0.45, 0.9, 1.0] {
            // Second-order one-sided differences on each side (the acceleration itself
            // jumps at an event, which a first-order difference would read as h/2 of it).
            let before = (3 * x(event) - 4 * x(event - h) + x(event - 2 * h)) / (2 * h)
            let after = (-3 * x(event) + 4 * x(event + h) - x(event + 2 * h)) / (2 * h)
            #expect(abs(x(event - 1e-9) - x(event + 1e-9)) < 1e-5, "value jumps at \(event) s")
            #expect(abs(before - after) < 1e-3 * max(1, abs(before)), "velocity jumps at \(event) s: \(before) then \(after)")
        }
    }

    // MARK: Curves and jumps

    /// CSS's cubic-bezier: y at the x the curve reaches, x solved by bisection.
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func coordinate(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if coordinate(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return coordinate(y1, y2, (lo + hi) / 2)
    }

    @Test func easedTransitionsAddTheCurvesProgressOfTheChange() {
        let (composition, interaction) = Self.compile("eased-toggle.anim")
        guard let timeline = Self.play(composition, interaction, "tap@0.2s, tap@0.5s") else { return }
        func point(_ t: Double) -> Point? {
            if case .point(let p)? = timeline.value("position", layer: "knob", at: t) { return p }
            return nil
        }
        // Off → on at 0.2 s over 0.5 s (easeInEaseOut), then on → off at 0.5 s over 0.3 s.
        for k in 0...200 {
            let t = Double(k) / 100
            var x = 20.0, y = 50.0
            if t >= 0.2 {
                let p = Self.bezier(0.42, 0, 0.58, 1, min((t - 0.2) / 0.5, 1))
                x += 60 * p
                y += -10 * p
            }
            if t >= 0.5 {
                let p = Self.bezier(0.2, 0.8, 0.3, 1, min((t - 0.5) / 0.3, 1))
                x += -60 * p
                y += 10 * p
            }
            guard let shown = point(t) else { Issue.record("no position at \(t)"); return }
            #expect(abs(shown.x - x) < 1e-6 * 60 && abs(shown.y - y) < 1e-6 * 60, "at \(t) s: \(shown), expected (\(x), \(y))")
        }
    }

    @Test func aTransitionWithoutTimingJumpsAndTheFirstEnabledOneFires() {
        let (composition, interaction) = Self.compile("eased-toggle.anim")
        guard case .success(let events) = EventScript.parse("jam@0.1s, tap@0.4s, tap@1s, jam@1.2s"),
              case .success(let (played, fired)) = InteractionPlayer.unroll(composition, interaction, events) else {
            Issue.record("the script does not play")
            return
        }
        // jam: off → stuck (a jump); tap: stuck → off (a jump, the only transition on tap
        // from stuck); tap: off → on; jam: on → stuck.
        #expect(fired.map { interaction.states[$0.to].name } == ["stuck", "off", "on", "stuck"])
        let timeline = Timeline(played)
        func opacity(_ t: Double) -> Double {
            if case .number(let x)? = timeline.value("opacity", layer: "knob", at: t) { return x }
            return .nan
        }
        #expect(opacity(0.05) == 1)
        #expect(abs(opacity(0.1) - 0.25) < 1e-12)
        #expect(abs(opacity(0.3) - 0.25) < 1e-12)
        #expect(abs(opacity(0.4) - 1) < 1e-12)
        // At 1.2 s the jump to 'stuck' moves the model at once while the curve to 'on'
        // (from 1 s, 0.5 s) still adds what it has left: 1 − 0.5 × progress − 0.25.
        #expect(abs(opacity(1.2) - (1 - 0.5 * Self.bezier(0.42, 0, 0.58, 1, 0.4) - 0.25)) < 1e-6)
        #expect(abs(opacity(1.6) - 0.25) < 1e-12)
    }

    // MARK: Interruption models

    static func positionX(_ timeline: Timeline, _ t: Double) -> Double {
        if case .number(let x)? = timeline.value("position.x", layer: "knob", at: t) { return x }
        return .nan
    }

    static func ease(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, min(max(x, 0), 1)) }

    /// CSS Transitions' reversing, from the specification: each tap starts a transition
    /// from the value shown; one back toward where the running one started is shortened
    /// by the reversing shortening factor.
    static func cssReference(taps: [Double], at t: Double) -> Double {
        struct Running { var start, duration, from, to, adjustedStart, factor: Double }
        var running: Running?
        var target = 0.0
        func value(_ r: Running?, _ t: Double) -> Double {
            guard let r else { return target }
            if r.duration <= 0 { return r.to }
            return r.from + (r.to - r.from) * ease((t - r.start) / r.duration)
        }
        for tap in taps where tap <= t {
            let shown = value(running, tap)
            let next = target == 0 ? 100.0 : 0.0
            if let r = running, tap < r.start + r.duration, next == r.adjustedStart {
                let factor = min(max(abs(ease((tap - r.start) / r.duration) * r.factor + (1 - r.factor)), 0), 1)
                running = Running(start: tap, duration: factor, from: shown, to: next, adjustedStart: r.to, factor: factor)
            } else {
                running = Running(start: tap, duration: 1, from: shown, to: next, adjustedStart: shown, factor: 1)
            }
            target = next
        }
        return value(running, t)
    }

    @Test func reverseShortensAsCSSTransitionsDo() {
        let (composition, interaction) = Self.compile("toggle-reverse.anim")
        for taps in [[0, 0.3], [0, 0.3, 0.4], [0, 0.5, 0.6, 0.65], [0.2, 1.5, 1.7], [0, 0.9, 1.2, 1.25, 2.0]] {
            guard let timeline = Self.play(composition, interaction, taps.map { "tap@\($0)s" }.joined(separator: ", ")) else { return }
            for k in 0...300 {
                let t = Double(k) / 100
                let expected = Self.cssReference(taps: taps, at: t), shown = Self.positionX(timeline, t)
                #expect(abs(shown - expected) < 1e-6 * 100, "taps \(taps) at \(t) s: \(shown), expected \(expected)")
            }
        }
    }

    @Test func replaceStartsFromThePresentationValue() {
        let (composition, interaction) = Self.compile("toggle-replace.anim")
        guard let timeline = Self.play(composition, interaction, "tap@0s, tap@0.4s") else { return }
        // Core Animation's add under the same key: from what was shown at 0.4 s, back to
        // 0 over a whole second, the first animation gone.
        let shown = 100 * Self.ease(0.4)
        for k in 0...200 {
            let t = Double(k) / 100
            let expected = t < 0.4 ? 100 * Self.ease(t) : shown * (1 - Self.ease(t - 0.4))
            #expect(abs(Self.positionX(timeline, t) - expected) < 1e-6 * 100, "at \(t) s")
        }
    }

    @Test func finishWaitsForTheRunningTransition() {
        let (composition, interaction) = Self.compile("toggle-finish.anim")
        guard let timeline = Self.play(composition, interaction, "tap@0s, tap@0.4s") else { return }
        // The second tap's change starts when the first ends, at 1 s.
        for k in 0...250 {
            let t = Double(k) / 100
            let expected = t < 1 ? 100 * Self.ease(t) : 100 * (1 - Self.ease(t - 1))
            #expect(abs(Self.positionX(timeline, t) - expected) < 1e-6 * 100, "at \(t) s")
        }
    }

    @Test func theLivePlayerShowsTheUnrolledCompositionBitForBit() {
        for (name, script) in [("spring-retargets.anim", "goal=2@0.3s, goal=0@0.45s, goal=1@0.9s"),
                               ("toggle-reverse.anim", "tap@0s, tap@0.3s, tap@0.4s"), ("eased-toggle.anim", "tap@0.2s, jam@0.3s, tap@0.6s")] {
            let (composition, interaction) = Self.compile(name)
            guard case .success(let events) = EventScript.parse(script), let unrolled = Self.play(composition, interaction, script),
                  let layer = composition.layers.indices.last else { return }
            let live = LiveInteraction(composition, interaction)
            var pending = events.events[...]
            var state = unrolled.makeState()
            for k in 0...240 {
                let t = Double(k) / 120
                // Events are sent as their time comes, as an app would.
                while let e = pending.first, e.time <= t {
                    _ = live.send(e)
                    pending = pending.dropFirst()
                }
                unrolled.evaluate(at: t, into: &state)
                let expected = PropertyTable.keyPaths.map { unrolled.value($0.keyPath, layer: layer, in: state) }
                let shown = live.evaluate(at: t) { timeline, s in PropertyTable.keyPaths.map { timeline.value($0.keyPath, layer: layer, in: s) } }
                #expect(shown == expected, "\(name) at \(t) s")
            }
        }
    }

    @Test func aLivePlayerRefusesEventsOutOfOrder() {
        let (composition, interaction) = Self.compile("eased-toggle.anim")
        let live = LiveInteraction(composition, interaction)
        _ = live.send(.init(input: "tap", value: nil, time: 1))
        guard case .failure(let f) = live.send(.init(input: "tap", value: nil, time: 0.5)) else {
            Issue.record("an event before the last one was sent")
            return
        }
        #expect(f.message.contains("comes before"))
    }

    // MARK: The timeline file

    static let fixtures = Repository.files(in: folder, withExtension: "anim")

    /// The states travel in the timeline JSON: what a runtime loads plays every script as
    /// the compiled file does, and the file validates against its schema.
    @Test(arguments: fixtures)
    func theTimelineCarriesTheStatesAndPlaysTheSame(_ path: String) throws {
        let (composition, interaction) = Self.compile(String(path.split(separator: "/").last ?? ""))
        let json = TimelineWriter.json(composition, interaction: interaction)
        let schema = try JSONParser.parse(Repository.bytes("docs/schemas/animc.timeline.schema.json"))
        let errors = SchemaValidator(schema: schema).validate(json)
        #expect(errors.isEmpty, "\(errors)")
        let (loaded, loadedInteraction) = try TimelineLoader.loadInteractive(json.serialized(style: .compact))
        let back = try #require(loadedInteraction)
        #expect(back.inputs.map(\.name) == interaction.inputs.map(\.name) && back.states.map(\.values.count) == interaction.states.map(\.values.count))
        let inputs = interaction.inputs
        var rng = SplitMix64(seed: 0xB0A7)
        for _ in 0..<20 {
            // Random events of the fixture's own inputs.
            var t = 0.0
            let script = (0..<4).map { _ -> String in
                t += Double(rng.next() % 500) / 1000
                let input = inputs[Int(rng.next() % UInt64(inputs.count))]
                switch input.kind {
                case .trigger: return "\(input.name)@\(t)s"
                case .bool: return "\(input.name)=\(rng.next() % 2 == 0)@\(t)s"
                case .number: return "\(input.name)=\(Double(rng.next() % 2001) / 1000)@\(t)s"
                case .point: return "\(input.name)=(\(rng.next() % 100), 3)@\(t)s"
                }
            }.joined(separator: ", ")
            guard let compiled = Self.play(composition, interaction, script), let played = Self.play(loaded, back, script) else { return }
            for layer in composition.layers.indices {
                for k in 0...40 {
                    let time = Double(k) / 20
                    let a = PropertyTable.keyPaths.map { compiled.value($0.keyPath, layer: composition.layers[layer].id, at: time) }
                    let b = PropertyTable.keyPaths.map { played.value($0.keyPath, layer: composition.layers[layer].id, at: time) }
                    #expect(a == b, "\(path) '\(script)' at \(time) s")
                }
            }
        }
    }

    @Test func theLoaderRefusesBrokenStatesWithAPath() throws {
        let (composition, interaction) = Self.compile("eased-toggle.anim")
        let text = TimelineWriter.json(composition, interaction: interaction).serializedString(style: .compact)
        for (broken, expected) in [
            (text.replacingOccurrences(of: "\"to\":1", with: "\"to\":9"), "interaction.transitions[0].to: expected an index below 3"),
            (text.replacingOccurrences(of: "\"interruption\":\"additive\"", with: "\"interruption\":\"bounce\""), "interaction.transitions[0].interruption"),
            (text.replacingOccurrences(of: "\"keyPath\":\"position\",\"value\"", with: "\"keyPath\":\"hidden\",\"value\""), "is not a key path a state can set"),
            (text.replacingOccurrences(of: "\"baseValues\":[", with: "\"baseValues\":[] ,\"x\":["), "no base value"),
        ] {
            #expect(broken != text, "the replacement for \(expected) matched nothing")
            do {
                _ = try TimelineLoader.loadInteractive(Array(broken.utf8))
                Issue.record("a broken interaction loaded: \(expected)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }

    // MARK: Scripts

    @Test func scriptsParseAndSayWhereTheyAreWrong() {
        guard case .success(let script) = EventScript.parse(" tap@0.2s, progress=0.5@1s ,drag=(0, -40.5)@1200ms,on=true@2") else {
            Issue.record("a valid script was refused")
            return
        }
        #expect(script.events == [
            .init(input: "tap", value: nil, time: 0.2), .init(input: "progress", value: .number(0.5), time: 1),
            .init(input: "drag", value: .point(Point(0, -40.5)), time: 1.2), .init(input: "on", value: .bool(true), time: 2),
        ])
        #expect(EventScript.parse("") == .success(EventScript(events: [])))
        for (bad, offset) in [("tap", 3), ("tap@", 4), ("tap@-1s", 4), ("tap@1s tap@2s", 7), ("x=@1", 2), ("=1@1", 0), ("p=(1,)@1", 2)] {
            guard case .failure(let error) = EventScript.parse(bad) else {
                Issue.record("'\(bad)' was accepted")
                continue
            }
            #expect(error.offset == offset, "'\(bad)': \(error.message) at \(error.offset)")
        }
    }

    @Test func eventsForUnknownInputsOrOfTheWrongKindAreRefused() {
        let (composition, interaction) = Self.compile("eased-toggle.anim")
        for (script, message) in [("tapp@1s", "did you mean 'tap'"), ("tap=1@1s", "is a trigger")] {
            guard case .success(let events) = EventScript.parse(script),
                  case .failure(let failure) = InteractionPlayer.unroll(composition, interaction, events) else {
                Issue.record("'\(script)' was played")
                continue
            }
            #expect(failure.message.contains(message), "\(failure.message)")
        }
    }
}
