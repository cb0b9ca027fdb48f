import AnimcBase

/// An animation with its media timing: a property animation or a group.
public struct Animation: Hashable, Sendable {
    /// The animation's key (`add(_:forKey:)`): the `as` name, else the key path or the
    /// group's name. Unique among its siblings.
    public var name: String
    public var timing: Timing
    public var range: SourceRange
    public var kind: AnimationKind

    public init(name: String, timing: Timing, kind: AnimationKind, range: SourceRange) {
        self.name = name
        self.timing = timing
        self.kind = kind
        self.range = range
    }
}

public enum AnimationKind: Hashable, Sendable {
    /// Boxed: a property animation holds a key path and six arrays, and animations are
    /// copied as values; a copy then counts one reference, not each array.
    indirect case property(PropertyAnimation)
    /// `CAAnimationGroup`: children run in the group's time and are clipped to it.
    case group([Animation])
}

/// CAMediaTiming plus the animation's timing function, fully resolved.
public struct Timing: Hashable, Sendable {
    /// Seconds in the parent's time (the layer's, or the group's for a child).
    public var beginTime: Double
    /// One pass in seconds; always positive here (defaults were applied).
    public var duration: Double
    public var speed: Double
    public var timeOffset: Double
    /// Cycles; fractional allowed; `.infinity` repeats forever. 0 means one cycle.
    public var repeatCount: Double
    /// Seconds; 0 means unset. Never both this and `repeatCount`.
    public var repeatDuration: Double
    public var timingFunction: TimingFunction
    public var autoreverses: Bool
    public var fillMode: FillMode
    /// Ignored for group children, as Core Animation ignores it.
    public var removedOnCompletion: Bool
    /// When the animation is added to its layer (`add(_:forKey:)`), in the layer's time:
    /// before it the animation does not exist, not even as a fill. −∞ for an animation
    /// that is there from the start, and for every group child (a group adds its
    /// children with itself).
    public var added: Double
    /// When a later animation added under the same key replaces it, in the layer's time:
    /// from then on it does not exist. +∞ when nothing replaces it.
    public var replaced: Double

    public init(beginTime: Double = 0, duration: Double, speed: Double = 1, timeOffset: Double = 0,
                repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                fillMode: FillMode = .removed, removedOnCompletion: Bool = true, timingFunction: TimingFunction = .linear,
                added: Double = -.infinity, replaced: Double = .infinity) {
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
        self.removedOnCompletion = removedOnCompletion
        self.timingFunction = timingFunction
        self.added = added
        self.replaced = replaced
    }

    /// The active duration in the animation's local time (semantics.md §2): one cycle is
    /// `duration`, or twice that with `autoreverses`; `repeatDuration` wins when set.
    public var activeDuration: Double {
        let cycle = autoreverses ? 2 * duration : duration
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite || repeatCount >= Double(Float.greatestFiniteMagnitude) ? .infinity : repeatCount * cycle }
        return cycle
    }
}

public enum FillMode: String, Hashable, Sendable, CaseIterable {
    case removed, forwards, backwards, both

    public var fillsBackwards: Bool { self == .backwards || self == .both }
    public var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Maps time progress to value progress.
public enum TimingFunction: Hashable, Sendable {
    case linear
    /// A cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2);
    /// x1 and x2 in [0, 1]. The named functions are cubics with Core Animation's points.
    case cubic(x1: Double, y1: Double, x2: Double, y2: Double)
    /// CSS `steps(n, position)`; Core Animation has no step easing, so exports bake it.
    case steps(count: Int, position: StepPosition)
    /// The progress of a damped spring (CASpringAnimation), evaluated at the animation's
    /// elapsed seconds rather than normalised time.
    case spring(SpringParameters)

    public static let easeIn = TimingFunction.cubic(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = TimingFunction.cubic(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInEaseOut = TimingFunction.cubic(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    public static let `default` = TimingFunction.cubic(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
}

public enum StepPosition: String, Hashable, Sendable, CaseIterable {
    case start, end, jumpNone, jumpBoth

    /// Number of jumps for `count` steps (CSS Easing).
    public func jumps(_ count: Int) -> Int {
        switch self {
        case .start, .end: return count
        case .jumpNone: return count - 1
        case .jumpBoth: return count + 1
        }
    }
}

/// CASpringAnimation's parameters.
public struct SpringParameters: Hashable, Sendable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    /// In units of the distance from `from` to `to` per second; positive moves toward `to`.
    public var initialVelocity: Double
    /// Without it, an overdamped spring behaves as critically damped (CA's default).
    public var allowsOverdamping: Bool

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
                allowsOverdamping: Bool = false) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
    }
}

/// An animation of one key path.
public struct PropertyAnimation: Hashable, Sendable {
    public var target: AnimationTarget
    /// Add to the value below instead of replacing it.
    public var additive: Bool
    /// Each repeat cycle continues from the previous cycle's end value.
    public var cumulative: Bool
    /// How a whole `transform` or `sublayerTransform` interpolates between its values.
    public var transformInterpolation: TransformInterpolation
    public var content: AnimationContent

    public init(target: AnimationTarget, additive: Bool = false, cumulative: Bool = false,
                transformInterpolation: TransformInterpolation = .matrix, content: AnimationContent) {
        self.target = target
        self.additive = additive
        self.cumulative = cumulative
        self.transformInterpolation = transformInterpolation
        self.content = content
    }
}

/// How an animation of a whole transform goes from one value to the next.
public enum TransformInterpolation: String, Hashable, Sendable, CaseIterable {
    /// As Core Animation: the values are matrices (CATransform3D), decomposed into
    /// translation, scale, skew, perspective and a rotation, the parts interpolated and
    /// the rotation slerped, which turns the short way. Whatever functions wrote them.
    case matrix
    /// As CSS Transforms: lists whose functions match pair by pair interpolate each
    /// function's arguments (`rotate(0deg)` to `rotate(270deg)` turns 270°); other
    /// pairs fall back to matrices. Only when asked for (`interpolation: functions`).
    case functions
}

/// A start or end value of a basic, spring or decay animation.
public enum AnimatedValue: Hashable, Sendable {
    case value(Value)
    /// The value the property shows just before the animation begins, as
    /// `layer.presentation()` would report it (written `from: presentation`).
    case presentation
    /// The layer's model value: what Core Animation uses for an end the animation
    /// leaves out (`to` only, or `from` only).
    case model
    /// The model value plus an offset: the far end of a `by`-only animation.
    case modelPlus(Value)
}

public enum CalculationMode: String, Hashable, Sendable, CaseIterable {
    case linear, discrete, paced, cubic, cubicPaced

    public var isPaced: Bool { self == .paced || self == .cubicPaced }
}

public enum RotationMode: String, Hashable, Sendable, CaseIterable {
    case none, auto, autoReverse
}

public enum AnimationContent: Hashable, Sendable {
    /// CABasicAnimation from → to (`by` forms are resolved to these).
    case basic(from: AnimatedValue, to: AnimatedValue)
    /// CAKeyframeAnimation over values.
    case keyframes(Keyframes)
    /// CAKeyframeAnimation along a path (point-valued key paths only).
    case motion(Motion)
    /// CASpringAnimation: from → to with spring progress. Boxed, as `decay` is: inline,
    /// the largest case sets the size of every property animation, and these two are
    /// the rarest (a keyframes animation's box was 32 bytes larger for them).
    indirect case spring(from: AnimatedValue, to: AnimatedValue, parameters: SpringParameters)
    /// An inertial toss: starts at `from` with `velocity` (property units per second)
    /// and slows by `deceleration` per millisecond, as UIScrollView's deceleration rate.
    indirect case decay(from: AnimatedValue, velocity: Value, deceleration: Double)
}

public struct Keyframes: Hashable, Sendable {
    public var values: [Value]
    /// One per value (n + 1 in discrete mode), non-decreasing in [0, 1]. `nil` only in
    /// paced modes, where the runtime computes them from distances.
    public var keyTimes: [Double]?
    /// One per segment; empty means linear everywhere.
    public var timingFunctions: [TimingFunction]
    public var calculationMode: CalculationMode
    /// Kochanek–Bartels parameters per keyframe for cubic modes; empty means 0.
    public var tension: [Double]
    public var continuity: [Double]
    public var bias: [Double]

    public init(values: [Value], keyTimes: [Double]?, timingFunctions: [TimingFunction] = [],
                calculationMode: CalculationMode = .linear, tension: [Double] = [], continuity: [Double] = [],
                bias: [Double] = []) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.tension = tension
        self.continuity = continuity
        self.bias = bias
    }
}

public struct Motion: Hashable, Sendable {
    public var path: Path
    /// One per path vertex (every line or curve end point), when not paced.
    public var keyTimes: [Double]?
    public var timingFunctions: [TimingFunction]
    public var calculationMode: CalculationMode
    public var rotationMode: RotationMode

    public init(path: Path, keyTimes: [Double]?, timingFunctions: [TimingFunction] = [],
                calculationMode: CalculationMode = .linear, rotationMode: RotationMode = .none) {
        self.path = path
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.rotationMode = rotationMode
    }
}
