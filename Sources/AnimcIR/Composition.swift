import AnimcBase

/// A whole compiled `.anim` file: the canvas, the time window, and the layer tree
/// with its animations.
public struct Composition: Hashable, Sendable {
    public var name: String
    public var size: Size
    /// Frames per second for baking and frame-based output.
    public var fps: Double
    /// The times a bake samples. `nil` when the source gave none; the build then uses
    /// the end of the last finite animation, or refuses if something repeats forever.
    public var window: TimeWindow?
    public var backgroundColor: Color?
    /// Every layer, parents before children, siblings in declaration (drawing) order.
    public var layers: [Layer]
    public var range: SourceRange

    public init(name: String, size: Size, fps: Double, window: TimeWindow?, backgroundColor: Color?,
                layers: [Layer], range: SourceRange) {
        self.name = name
        self.size = size
        self.fps = fps
        self.window = window
        self.backgroundColor = backgroundColor
        self.layers = layers
        self.range = range
    }

    /// The index of the layer whose ``Layer/id`` is `id`.
    public func layerIndex(_ id: String) -> Int? { layers.firstIndex { $0.id == id } }
}

/// `start ..< end` or `start ... end`, in seconds.
public struct TimeWindow: Hashable, Sendable {
    public var start: Double
    public var end: Double
    /// Whether a frame exactly at `end` belongs to the window (`...` rather than `..<`).
    public var includesEnd: Bool
    public init(start: Double, end: Double, includesEnd: Bool) {
        self.start = start
        self.end = end
        self.includesEnd = includesEnd
    }
}

/// One layer. The tree is flat: ``parent`` points at an earlier index.
public struct Layer: Hashable, Sendable {
    /// The stable address of the layer: dotted names from the root, with instance
    /// indices, e.g. `grid.tile[3,4]`. Used by `animc eval --layer`, outputs and messages.
    public var id: String
    public var kind: LayerKind
    /// The parent layer, or nil for a top-level layer. A mask layer's parent is the
    /// layer it masks.
    public var parent: Int?
    /// Whether this layer is its parent's mask rather than a sublayer.
    public var isMask: Bool
    /// The layer that masks this one (a layer whose ``isMask`` is true).
    public var mask: Int?
    /// Model values the source set explicitly, in property-table order. Everything
    /// else has the table's default.
    public var properties: [PropertyValue]
    /// Animations in the order they are added, which is the order they apply.
    public var animations: [Animation]
    /// The layer's own media timing (`CALayer` adopts `CAMediaTiming`).
    public var timing: LayerTiming
    public var range: SourceRange

    public init(id: String, kind: LayerKind, parent: Int?, isMask: Bool = false, mask: Int? = nil,
                properties: [PropertyValue], animations: [Animation], timing: LayerTiming = LayerTiming(),
                range: SourceRange) {
        self.id = id
        self.kind = kind
        self.parent = parent
        self.isMask = isMask
        self.mask = mask
        self.properties = properties
        self.animations = animations
        self.timing = timing
        self.range = range
    }

    /// The model value of `property`: the explicit one or the table default.
    public func modelValue(_ property: PropertyID) -> Value {
        properties.first { $0.property == property }?.value ?? PropertyTable.info(property).defaultValue
    }

    /// The model value at `target`: a property, or one component of it (`position.y`).
    public func modelValue(of target: AnimationTarget) -> Value? {
        ValueMath.component(target.component, of: modelValue(target.property))
    }

    /// Sets the model value at `target` (a whole property or a component of one),
    /// keeping ``properties`` in property-table order. False when `value` does not fit.
    @discardableResult
    public mutating func setModelValue(_ value: Value, of target: AnimationTarget, range: SourceRange? = nil) -> Bool {
        var whole = value
        if let component = target.component {
            guard let set = ValueMath.setting(component, of: modelValue(target.property), to: value) else { return false }
            whole = set
        }
        if let k = properties.firstIndex(where: { $0.property == target.property }) {
            properties[k].value = whole
        } else {
            let at = properties.firstIndex { $0.property > target.property } ?? properties.count
            properties.insert(PropertyValue(target.property, whole, range: range ?? self.range), at: at)
        }
        return true
    }
}

/// An explicitly set model value.
public struct PropertyValue: Hashable, Sendable {
    public var value: Value
    public var property: PropertyID
    public var range: SourceRange
    public init(_ property: PropertyID, _ value: Value, range: SourceRange) {
        self.property = property
        self.value = value
        self.range = range
    }
}

/// A layer's media timing (a `CALayer` is `CAMediaTiming` too), which maps its parent's
/// time to its own for everything attached to it and below it: `beginTime`, `speed` and
/// `timeOffset`, and, when `duration` is set, the repeats of an animation
/// (`repeatCount`, `repeatDuration`, `autoreverses`).
public struct LayerTiming: Hashable, Sendable {
    public var beginTime: Double
    public var speed: Double
    public var timeOffset: Double
    /// One pass of the layer's time, in seconds; 0 (Core Animation's default) means the
    /// layer's time runs on without passes.
    public var duration: Double
    public var repeatCount: Double
    public var repeatDuration: Double
    public var autoreverses: Bool

    public init(beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0, duration: Double = 0,
                repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false) {
        self.beginTime = beginTime
        self.speed = speed
        self.timeOffset = timeOffset
        self.duration = duration
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
    }

    public var isIdentity: Bool { isAffine && beginTime == 0 && speed == 1 && timeOffset == 0 }

    /// Whether the layer's time is `(parent − beginTime)·speed + timeOffset` throughout:
    /// it has no passes. A layer with a duration repeats, reverses or stops, which no
    /// single affine map describes.
    public var isAffine: Bool { duration == 0 }

    /// The layer's passes as an animation's timing: within its active duration the
    /// layer's time is the animation's pass time; outside it, it holds at the nearest
    /// end (docs/semantics.md, "A layer's own media timing"). Nil when `isAffine`.
    public var passes: Timing? {
        guard duration > 0 else { return nil }
        return Timing(beginTime: beginTime, duration: duration, speed: speed, timeOffset: timeOffset, repeatCount: repeatCount,
                      repeatDuration: repeatDuration, autoreverses: autoreverses, fillMode: .both, removedOnCompletion: false)
    }
}
