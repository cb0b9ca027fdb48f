import AnimcBase
import AnimcIR

/// Plays an event script on a composition's states: the script's meaning is an
/// ordinary composition, so every backend plays it unchanged.
///
/// Events are taken in time order. An event sets its input (a number clamped to the
/// input's range), then the first transition on that input, from the current state,
/// whose condition holds, fires: the model moves to the target state's values at once
/// and each key path whose value changes gets one animation, by the transition's
/// interruption model (docs/semantics.md, Interruption). By default an additive one from
/// zero to (new − old), holding its end (UIKit's model: what is shown is the old model
/// value plus its progress of the difference, plus whatever earlier transitions still
/// add, so value and velocity stay continuous); `replace` and `reverse` run from the
/// presentation value under the key path's key, `finish` waits for the running one. A
/// transition without timing jumps.
public struct InteractionPlayer: Sendable {
    /// One transition that fired.
    public struct Fired: Hashable, Sendable {
        public var time: Double
        public var transition: Int
        public var from: Int
        public var to: Int
    }

    public struct Failure: Error, Hashable, Sendable {
        public var message: String
    }

    public let interaction: Interaction
    /// The composition with every animation the events so far added.
    public private(set) var composition: Composition
    /// The inputs' values and the current state, after the events so far.
    public private(set) var values: [Interaction.Value?]
    public private(set) var current = 0
    public private(set) var fired: [Fired] = []
    /// The time of the last event sent: later ones may not come before it.
    public private(set) var time = -Double.infinity
    /// The model at every key path a state sets; the layers hold the first state's.
    var model: [Value]
    var keys: [KeyHistory]
    var sequence = 0

    /// A player of `interaction` on `composition`, which shows its first state.
    public init(_ composition: Composition, _ interaction: Interaction) {
        self.composition = composition
        self.interaction = interaction
        values = interaction.inputs.map(\.initial)
        model = interaction.baseValues.map { interaction.value(inState: 0, at: $0) }
        keys = [KeyHistory](repeating: KeyHistory(), count: interaction.baseValues.count)
    }

    /// `composition` (which shows the interaction's first state) with the animations
    /// the script's transitions add, and the transitions that fired.
    public static func unroll(_ composition: Composition, _ interaction: Interaction,
                              _ script: EventScript) -> Result<(Composition, [Fired]), Failure> {
        // Every event is checked before any is played: a script that names no input is
        // refused whatever its times.
        if let problem = interaction.problem(with: script) { return .failure(Failure(message: problem)) }
        var player = InteractionPlayer(composition, interaction)
        let ordered = script.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        for event in ordered {
            if case .failure(let f) = player.send(event) { return .failure(f) }
        }
        return .success((player.composition, player.fired))
    }

    /// Sends one event, at or after the last one's time: sets its input and fires the
    /// first enabled transition, if any (returned), adding its animations.
    @discardableResult
    public mutating func send(_ event: EventScript.Event) -> Result<Fired?, Failure> {
        if let problem = interaction.problem(with: event) { return .failure(Failure(message: problem)) }
        guard event.time >= time else {
            return .failure(Failure(message: "an event at \(formatNumber(event.time)) s comes before the last one, at \(formatNumber(time)) s"))
        }
        guard let i = interaction.input(named: event.input) else { return .success(nil) }  // found by `problem`
        time = event.time
        switch event.value {
        case .number(let x)?:
            values[i] = .number(interaction.inputs[i].allowed.map { min(max(x, $0.lowerBound), $0.upperBound) } ?? x)
        case let v?: values[i] = v
        case nil: break
        }
        let state = current, inputValues = values
        guard let k = interaction.transitions.firstIndex(where: { t in
            t.input == i && t.from.contains(state) && (t.condition.map { $0.evaluate(inputValues) == .bool(true) } ?? true)
        }) else { return .success(nil) }
        let transition = interaction.transitions[k]
        for (n, key) in interaction.baseValues.enumerated() {
            let new = interaction.value(inState: transition.to, at: key)
            guard new != model[n], let delta = ValueMath.subtract(new, model[n]) else { continue }
            sequence += 1
            guard InteractionPlayer.place(transition, key: key, keys: &keys[n], old: model[n], new: new, delta: delta, at: event.time,
                                          name: "transition#\(sequence)", into: &composition) else {
                return .failure(Failure(message: "layer '\(composition.layers[key.layer].id)' (or a layer above it) repeats its own time: "
                                        + "its transitions cannot be placed yet"))
            }
            model[n] = new
        }
        let f = Fired(time: event.time, transition: k, from: current, to: transition.to)
        fired.append(f)
        current = transition.to
        return .success(f)
    }

    /// What earlier transitions left on one key path.
    struct KeyHistory {
        /// Where their animations are: (layer, index in its animations).
        var animations: [Int] = []
        /// When the last of them ends, in composition time.
        var end = -Double.infinity
        /// The last `reverse` transition, for the next one's shortening.
        var reversal: Reversal?
    }

    /// A `reverse` transition as CSS keeps it: when it started and for how long, its
    /// ends, the start it is reversed toward, and its shortening factor.
    struct Reversal {
        var start: Double
        var duration: Double
        var from: Value
        var to: Value
        var adjustedStart: Value
        var factor: Double
        var function: CompiledTimingFunction
    }

    /// Adds the animation that moves `key` from `old` to `new` at composition time `t`
    /// as `transition`'s interruption model says; false when the layer's time cannot
    /// place it.
    static func place(_ transition: Interaction.Transition, key: Interaction.Setting, keys history: inout KeyHistory,
                      old: Value, new: Value, delta: Value, at t: Double, name: String, into result: inout Composition) -> Bool {
        var start = t
        if transition.interruption == .finish { start = max(t, history.end) }
        guard let begin = localTime(of: start, layer: key.layer, in: result) else { return false }
        var duration = transition.animation?.duration ?? 0
        let function = transition.animation?.timingFunction ?? .linear
        var additive = true
        var from: AnimatedValue, to: AnimatedValue
        switch transition.interruption {
        case .additive, .finish:
            // From zero to the change; a jump is the change from the start.
            from = .value(duration > 0 ? (ValueMath.subtract(delta, delta) ?? delta) : delta)
            to = .value(delta)
        case .replace:
            additive = false
            from = duration > 0 ? .presentation : .value(new)
            to = .value(new)
        case .reverse:
            additive = false
            // What is shown now, by the last reverse transition's curve, or the model.
            var current = old
            var adjusted = old
            var factor = 1.0
            if let r = history.reversal, t < r.start + r.duration, r.duration > 0 {
                let p = r.function.apply((t - r.start) / r.duration)
                if let change = ValueMath.subtract(r.to, r.from), let part = ValueMath.scale(change, by: p),
                   let shown = ValueMath.add(r.from, part) { current = shown }
                adjusted = current
                if new == r.adjustedStart {
                    // CSS Transitions §3: shortened by how far the running one had come.
                    factor = min(max(abs(p * r.factor + (1 - r.factor)), 0), 1)
                    adjusted = r.to
                }
            }
            duration *= factor
            from = duration > 0 ? .presentation : .value(new)
            to = .value(new)
            history.reversal = Reversal(start: t, duration: duration, from: current, to: new, adjustedStart: adjusted, factor: factor,
                                        function: CompiledTimingFunction(function, duration: duration))
        }
        if !additive {
            // Added under the same key: what ran there is removed as this one is added.
            for i in history.animations where result.layers[key.layer].animations[i].timing.replaced == .infinity {
                result.layers[key.layer].animations[i].timing.replaced = begin
            }
        }
        var timing = Timing(beginTime: begin, duration: duration > 0 ? duration : 1, fillMode: .forwards, removedOnCompletion: false,
                            timingFunction: duration > 0 ? function : .linear)
        if !additive { timing.added = begin }
        let content = PropertyAnimation(target: key.target, additive: additive, content: .basic(from: from, to: to))
        history.animations.append(result.layers[key.layer].animations.count)
        result.layers[key.layer].animations.append(Animation(name: name, timing: timing, kind: .property(content), range: transition.range))
        history.end = max(history.end, start + duration)
        return true
    }

    /// The time of layer `index` at composition time `t`: through every layer above
    /// it, each an affine map; nil when one of them repeats or stops its time.
    static func localTime(of t: Double, layer index: Int, in composition: Composition) -> Double? {
        var chain: [Int] = []
        var k: Int? = index
        while let i = k {
            chain.append(i)
            k = composition.layers[i].parent
        }
        var time = t
        for i in chain.reversed() {
            let clock = LayerClock(composition.layers[i].timing)
            guard clock.passes == nil, clock.timing.speed != 0 else { return nil }
            time = clock.local(time)
        }
        return time
    }
}

/// An interaction played as events arrive, for an app that embeds the runtime: send
/// events as they happen, evaluate frames in between. What it shows is the unrolled
/// composition of the events so far, bit for bit (the timeline is rebuilt when a
/// transition fires, never while frames are evaluated, which allocate nothing).
public final class LiveInteraction: @unchecked Sendable {
    public private(set) var player: InteractionPlayer
    public private(set) var timeline: Timeline
    private var state: SceneState

    public init(_ composition: Composition, _ interaction: Interaction) {
        player = InteractionPlayer(composition, interaction)
        timeline = Timeline(composition)
        state = timeline.makeState()
    }

    /// Sends an event; the transition it fired, if any.
    @discardableResult
    public func send(_ event: EventScript.Event) -> Result<InteractionPlayer.Fired?, InteractionPlayer.Failure> {
        let result = player.send(event)
        if case .success(.some) = result {
            timeline = Timeline(player.composition)
            state = timeline.makeState()
        }
        return result
    }

    /// Evaluates the scene at `t` (composition time) and lends it to `body` with its
    /// timeline (for ``Timeline/value(_:layer:in:)`` and the like).
    public func evaluate<R>(at t: Double, _ body: (Timeline, SceneState) -> R) -> R {
        timeline.evaluate(at: t, into: &state)
        return body(timeline, state)
    }
}
