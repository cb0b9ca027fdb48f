import AnimcBase
import AnimcIR

/// A script of events sent to a composition's inputs, one grammar on the command line
/// and in tests: `tap@0.2s, open=true@0.5s, progress=0.7@1s, drag=(0, 40)@1.2s`.
///
///     script = event { "," event }
///     event  = name [ "=" value ] "@" time
///     value  = number | "true" | "false" | "(" number "," number ")"
///     time   = number [ "s" | "ms" ]
///
/// Events at the same time are sent in the order written.
public struct EventScript: Hashable, Sendable {
    public struct Event: Hashable, Sendable {
        public var input: String
        /// What a value input is set to; nil for a trigger.
        public var value: Interaction.Value?
        /// Seconds, in the composition's time.
        public var time: Double

        public init(input: String, value: Interaction.Value?, time: Double) {
            self.input = input
            self.value = value
            self.time = time
        }
    }

    public var events: [Event]

    public init(events: [Event]) { self.events = events }

    /// A mistake in a script's text, at a byte offset of it.
    public struct SyntaxError: Error, Hashable, Sendable {
        public var offset: Int
        public var message: String
    }

    /// Scripts longer than this are refused: each event adds animations.
    public static let maximumEvents = 10_000

    public static func parse(_ text: String) -> Result<EventScript, SyntaxError> {
        var reader = Reader(bytes: Array(text.utf8))
        var events: [Event] = []
        reader.skipSpaces()
        if reader.atEnd { return .success(EventScript(events: [])) }
        while true {
            guard events.count < maximumEvents else {
                return .failure(SyntaxError(offset: reader.at, message: "more than \(maximumEvents) events"))
            }
            switch reader.event() {
            case .success(let e): events.append(e)
            case .failure(let error): return .failure(error)
            }
            reader.skipSpaces()
            if reader.atEnd { break }
            guard reader.take(UInt8(ascii: ",")) else {
                return .failure(SyntaxError(offset: reader.at, message: "expected ',' between events"))
            }
        }
        return .success(EventScript(events: events))
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        var atEnd: Bool { at >= bytes.count }

        mutating func skipSpaces() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            skipSpaces()
            guard at < bytes.count, bytes[at] == c else { return false }
            at += 1
            return true
        }

        mutating func name() -> String? {
            skipSpaces()
            let start = at
            while at < bytes.count, bytes[at] == 0x5F || (bytes[at] | 0x20) >= 0x61 && (bytes[at] | 0x20) <= 0x7A
                    || at > start && bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
            return at > start ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
        }

        mutating func number() -> Double? {
            skipSpaces()
            let start = at
            if at < bytes.count, bytes[at] == 0x2D || bytes[at] == 0x2B { at += 1 }
            while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 || bytes[at] == 0x2E { at += 1 }
            if at < bytes.count, bytes[at] == 0x65 || bytes[at] == 0x45, at + 1 < bytes.count,
               bytes[at + 1] >= 0x30 && bytes[at + 1] <= 0x39 || bytes[at + 1] == 0x2D || bytes[at + 1] == 0x2B {
                at += 2
                while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
            }
            guard at > start, let x = Double(String(decoding: bytes[start..<at], as: UTF8.self)), x.isFinite else {
                at = start
                return nil
            }
            return x
        }

        mutating func value() -> Interaction.Value? {
            skipSpaces()
            let start = at
            if take(UInt8(ascii: "(")) {
                guard let x = number(), take(UInt8(ascii: ",")), let y = number(), take(UInt8(ascii: ")")) else { at = start; return nil }
                return .point(Point(x, y))
            }
            if let word = name() {
                if word == "true" { return .bool(true) }
                if word == "false" { return .bool(false) }
                at = start
                return nil
            }
            return number().map { .number($0) }
        }

        mutating func event() -> Result<Event, SyntaxError> {
            skipSpaces()
            let start = at
            guard let input = name() else { return .failure(SyntaxError(offset: start, message: "expected an input's name")) }
            var value: Interaction.Value?
            if take(UInt8(ascii: "=")) {
                let here = at
                guard let v = self.value() else {
                    return .failure(SyntaxError(offset: here, message: "expected a value for '\(input)': a number, true, false or (x, y)"))
                }
                value = v
            }
            guard take(UInt8(ascii: "@")) else {
                return .failure(SyntaxError(offset: at, message: "expected '@' and the time of '\(input)'"))
            }
            let here = at
            guard var time = number() else { return .failure(SyntaxError(offset: here, message: "expected a time such as 0.5s")) }
            if at + 1 < bytes.count, bytes[at] == 0x6D, bytes[at + 1] == 0x73 {
                at += 2
                time /= 1000
            } else if at < bytes.count, bytes[at] == 0x73 {
                at += 1
            }
            guard time >= 0 else { return .failure(SyntaxError(offset: here, message: "an event's time is 0 s or later")) }
            return .success(Event(input: input, value: value, time: time))
        }
    }
}

/// Plays an event script on a composition's states: the script's meaning is an
/// ordinary composition, so every backend plays it unchanged.
///
/// Events are taken in time order. An event sets its input (a number clamped to the
/// input's range), then the first transition on that input, from the current state,
/// whose condition holds, fires: the model moves to the target state's values at once
/// and, for each key path whose value changes, an additive animation from zero to
/// (new − old) runs with the transition's timing from the event on, holding its end
/// (UIKit's additive model: what is shown is the old model value plus the new
/// animation's progress of the difference, plus whatever earlier transitions still
/// add, so value and velocity stay continuous). A transition without timing jumps.
public enum InteractionPlayer {
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

    /// `composition` (which shows the interaction's first state) with the animations
    /// the script's transitions add, and the transitions that fired.
    public static func unroll(_ composition: Composition, _ interaction: Interaction,
                              _ script: EventScript) -> Result<(Composition, [Fired]), Failure> {
        var result = composition
        var values = interaction.inputs.map(\.initial)
        var current = 0
        var fired: [Fired] = []
        // The model at every key path a state sets; the layers hold the first state's.
        var model = interaction.baseValues.map { interaction.value(inState: 0, at: $0) }
        let ordered = script.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var sequence = 0
        for event in ordered {
            guard let i = interaction.input(named: event.input) else {
                let names = interaction.inputs.map(\.name)
                return .failure(Failure(message: "no input '\(event.input)'" + (closestMatch(to: event.input, in: names).map { "; did you mean '\($0)'?" }
                                                                                ?? "; inputs are " + names.joined(separator: ", "))))
            }
            let input = interaction.inputs[i]
            switch (input.kind, event.value) {
            case (.trigger, nil): break
            case (.trigger, _?): return .failure(Failure(message: "'\(input.name)' is a trigger: send it without a value"))
            case (_, nil): return .failure(Failure(message: "'\(input.name)' is a \(input.kind.rawValue) input: send a value ('\(input.name)=...@t')"))
            case (.bool, .bool(let b)?): values[i] = .bool(b)
            case (.number, .number(let x)?):
                values[i] = .number(input.allowed.map { min(max(x, $0.lowerBound), $0.upperBound) } ?? x)
            case (.point, .point(let p)?): values[i] = .point(p)
            case (_, let v?):
                return .failure(Failure(message: "'\(input.name)' is a \(input.kind.rawValue) input, not \(v.description)"))
            }
            guard let k = interaction.transitions.firstIndex(where: { t in
                t.input == i && t.from.contains(current) && (t.condition.map { $0.evaluate(values) == .bool(true) } ?? true)
            }) else { continue }
            let transition = interaction.transitions[k]
            for (n, key) in interaction.baseValues.enumerated() {
                let new = interaction.value(inState: transition.to, at: key)
                guard new != model[n], let delta = ValueMath.subtract(new, model[n]), let zero = ValueMath.subtract(delta, delta) else { continue }
                guard let begin = localTime(of: event.time, layer: key.layer, in: result) else {
                    return .failure(Failure(message: "layer '\(result.layers[key.layer].id)' (or a layer above it) repeats its own time: "
                                            + "its transitions cannot be placed yet"))
                }
                let timing: Timing
                let from: Value
                if let animation = transition.animation {
                    timing = Timing(beginTime: begin, duration: animation.duration, fillMode: .forwards, removedOnCompletion: false,
                                    timingFunction: animation.timingFunction)
                    from = zero
                } else {
                    timing = Timing(beginTime: begin, duration: 1, fillMode: .forwards, removedOnCompletion: false)
                    from = delta
                }
                sequence += 1
                let content = PropertyAnimation(target: key.target, additive: true, content: .basic(from: .value(from), to: .value(delta)))
                result.layers[key.layer].animations.append(
                    Animation(name: "transition#\(sequence)", timing: timing, kind: .property(content), range: transition.range))
                model[n] = new
            }
            fired.append(Fired(time: event.time, transition: k, from: current, to: transition.to))
            current = transition.to
        }
        return .success((result, fired))
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
