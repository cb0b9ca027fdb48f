import AnimcBase

/// A `test` block of a `.anim` file: values expected at a time, and optionally a snapshot
/// of the frame compared with a PNG kept beside the file (`animc test`).
public struct TestCase: Hashable, Sendable {
    public var name: String
    /// The whole `test` block, and its name.
    public var range: SourceRange
    public var nameRange: SourceRange
    /// The composition time the test looks at.
    public var time: Double
    public var expectations: [Expectation]
    /// How far a number (each component of a point, size, rect, colour or matrix) may be
    /// from the expected one.
    public var tolerance: Double
    public var snapshot: Snapshot?
    /// `events: "tap@0.2s"`: sent to the composition's inputs first, and where written.
    public var events: EventScript?
    public var eventsRange: SourceRange?
    /// `continuous: card.position`: key paths whose value and velocity must not jump at
    /// any of the events (with `events:`).
    public var continuous: [Expectation] = []

    public init(name: String, range: SourceRange, nameRange: SourceRange, time: Double, expectations: [Expectation],
                tolerance: Double, snapshot: Snapshot?, events: EventScript? = nil, eventsRange: SourceRange? = nil) {
        self.name = name
        self.range = range
        self.nameRange = nameRange
        self.time = time
        self.expectations = expectations
        self.tolerance = tolerance
        self.snapshot = snapshot
        self.events = events
        self.eventsRange = eventsRange
    }

    /// The tolerance when a test gives none.
    public static let defaultTolerance = 0.001
}

/// `layer.keyPath: value` in a test: the layer's presentation value at the test's time.
public struct Expectation: Hashable, Sendable {
    /// The layer's id (its dotted path) and the key path on it.
    public var layer: String
    public var keyPath: String
    public var value: Value
    public var range: SourceRange
    public init(layer: String, keyPath: String, value: Value, range: SourceRange) {
        self.layer = layer
        self.keyPath = keyPath
        self.value = value
        self.range = range
    }
}

/// The frame at the test's time, compared with `__snapshots__/FILE-NAME.png` beside the file.
public struct Snapshot: Hashable, Sendable {
    public var name: String
    /// How far a channel may be off (0–255) before the pixel counts as different.
    public var pixelTolerance: Int
    /// The share of pixels (0–1) that may differ.
    public var maxDiffering: Double
    public var range: SourceRange
    public init(name: String, pixelTolerance: Int, maxDiffering: Double, range: SourceRange) {
        self.name = name
        self.pixelTolerance = pixelTolerance
        self.maxDiffering = maxDiffering
        self.range = range
    }
    public static let defaultPixelTolerance = 2
}
