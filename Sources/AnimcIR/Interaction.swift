import AnimcBase

/// A composition's inputs, states and transitions: what an app (or an event script)
/// drives. The composition's layers hold the first state's values; each transition an
/// event fires moves the model to the next state's values, the change running as the
/// transition's animation (``InteractionPlayer`` unrolls a script of events into
/// ordinary animations, so every backend plays it unchanged).
public struct Interaction: Hashable, Sendable {
    public var inputs: [Input]
    /// The first is the initial state.
    public var states: [State]
    /// In declaration order: of those an event enables, the first fires.
    public var transitions: [Transition]
    /// The layers' own values (as their blocks set them, or the defaults) at every key
    /// path a state sets: what a state that leaves one out shows there.
    public var baseValues: [Setting]

    public init(inputs: [Input], states: [State], transitions: [Transition], baseValues: [Setting]) {
        self.inputs = inputs
        self.states = states
        self.transitions = transitions
        self.baseValues = baseValues
    }

    /// What state `k` shows at `key`: its own setting, else the layer's base value.
    public func value(inState k: Int, at key: Setting) -> AnimcIR.Value {
        states[k].values.first { $0.layer == key.layer && $0.target == key.target }?.value ?? key.value
    }

    public func input(named name: String) -> Int? { inputs.firstIndex { $0.name == name } }

    /// A value an input holds: triggers hold none.
    public enum Value: Hashable, Sendable {
        case bool(Bool)
        case number(Double)
        case point(Point)

        public var description: String {
            switch self {
            case .bool(let b): return b ? "true" : "false"
            case .number(let x): return formatNumber(x)
            case .point(let p): return "(\(formatNumber(p.x)), \(formatNumber(p.y)))"
            }
        }
    }

    /// `input name: type (in lo ... hi)? (= default)?`
    public struct Input: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// An event with no value (a tap): it fires the transitions on it.
            case trigger
            case bool, number, point
        }

        public var name: String
        public var kind: Kind
        /// A number input's allowed values; values sent outside it are clamped.
        public var allowed: ClosedRange<Double>?
        /// What the input holds before any event; nil for a trigger.
        public var initial: Value?
        public var range: SourceRange

        public init(name: String, kind: Kind, allowed: ClosedRange<Double>? = nil, initial: Value?, range: SourceRange) {
            self.name = name
            self.kind = kind
            self.allowed = allowed
            self.initial = initial
            self.range = range
        }
    }

    /// `state name { layer.keyPath: value ... }`
    public struct State: Hashable, Sendable {
        public var name: String
        public var values: [Setting]
        public var range: SourceRange

        public init(name: String, values: [Setting], range: SourceRange) {
            self.name = name
            self.values = values
            self.range = range
        }
    }

    /// One `layer.keyPath: value` of a state.
    public struct Setting: Hashable, Sendable {
        /// The index of the layer in the composition's ``Composition/layers``.
        public var layer: Int
        public var target: AnimationTarget
        public var value: AnimcIR.Value
        public var range: SourceRange

        public init(layer: Int, target: AnimationTarget, value: AnimcIR.Value, range: SourceRange) {
            self.layer = layer
            self.target = target
            self.value = value
            self.range = range
        }
    }

    /// `on input (if condition)? from a, b -> c (with duration? timing)?`
    public struct Transition: Hashable, Sendable {
        /// Index in ``Interaction/inputs``.
        public var input: Int
        public var condition: Condition?
        /// Indices in ``Interaction/states``.
        public var from: [Int]
        public var to: Int
        /// How the change runs; nil for a jump.
        public var animation: TransitionTiming?
        public var interruption: Interruption
        public var range: SourceRange

        public init(input: Int, condition: Condition?, from: [Int], to: Int, animation: TransitionTiming?,
                    interruption: Interruption = .additive, range: SourceRange) {
            self.input = input
            self.condition = condition
            self.from = from
            self.to = to
            self.animation = animation
            self.interruption = interruption
            self.range = range
        }
    }

    /// How a transition meets one still running on the same key path.
    public enum Interruption: String, Hashable, Sendable, CaseIterable {
        /// UIKit's since iOS 8: the model moves at once and the change runs as an additive
        /// animation from zero to (new − old), on top of whatever still runs.
        case additive
        /// Core Animation's `add(_:forKey:)` under the same key: the running animation is
        /// removed and the new one runs from the presentation value read just before.
        case replace
        /// CSS transitions': from the value shown, and back toward where a running
        /// transition started it is shortened by how far that one had come.
        case reverse
        /// The new change starts when the running one ends (Rive's exit time).
        case finish
    }

    /// A transition's duration and timing function. A spring runs until it has settled
    /// to a billionth of its distance (not to Core Animation's settling duration, whose
    /// cut would leave the rest of the distance as a jump when the animation ends).
    public struct TransitionTiming: Hashable, Sendable {
        public var duration: Double
        public var timingFunction: TimingFunction

        public init(duration: Double, timingFunction: TimingFunction) {
            self.duration = duration
            self.timingFunction = timingFunction
        }
    }

    /// A guard over the inputs' values, evaluated when the event arrives (after it set
    /// its input).
    public indirect enum Condition: Hashable, Sendable {
        case input(Int)
        case constant(Value)
        case not(Condition)
        case and(Condition, Condition)
        case or(Condition, Condition)
        case compare(Comparison, Condition, Condition)

        public enum Comparison: String, Hashable, Sendable {
            case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">=", equal = "==", notEqual = "!="
        }

        /// The condition's value for the inputs' values `values`; nil when the operands
        /// do not compare (the checker refuses such conditions).
        public func evaluate(_ values: [Value?]) -> Value? {
            switch self {
            case .input(let i): return i < values.count ? values[i] : nil
            case .constant(let v): return v
            case .not(let c):
                guard case .bool(let b)? = c.evaluate(values) else { return nil }
                return .bool(!b)
            case .and(let a, let b):
                guard case .bool(let x)? = a.evaluate(values) else { return nil }
                if !x { return .bool(false) }
                guard case .bool(let y)? = b.evaluate(values) else { return nil }
                return .bool(y)
            case .or(let a, let b):
                guard case .bool(let x)? = a.evaluate(values) else { return nil }
                if x { return .bool(true) }
                guard case .bool(let y)? = b.evaluate(values) else { return nil }
                return .bool(y)
            case .compare(let op, let a, let b):
                guard let l = a.evaluate(values), let r = b.evaluate(values) else { return nil }
                switch (l, r, op) {
                case (_, _, .equal): return .bool(l == r)
                case (_, _, .notEqual): return .bool(l != r)
                case (.number(let x), .number(let y), .less): return .bool(x < y)
                case (.number(let x), .number(let y), .lessEqual): return .bool(x <= y)
                case (.number(let x), .number(let y), .greater): return .bool(x > y)
                case (.number(let x), .number(let y), .greaterEqual): return .bool(x >= y)
                default: return nil
                }
            }
        }
    }
}
