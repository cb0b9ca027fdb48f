import AnimcBase

/// The kinds of layer, after Core Animation's classes.
public enum LayerKind: String, Hashable, Sendable, CaseIterable {
    /// `CALayer`.
    case layer
    /// `CAShapeLayer`: draws a path.
    case shape
    /// A `CALayer` whose `contents` is an image asset.
    case image
    /// `CAGradientLayer`.
    case gradient
    /// `CATransformLayer`: keeps its sublayers in 3D instead of flattening them into its plane.
    case transformLayer
}

/// The value type of a property or key path.
public enum ValueType: Hashable, Sendable, CustomStringConvertible {
    case number
    /// A number in points. Plain numbers are lengths.
    case length
    /// Radians; written with `deg`, `rad` or `turn`.
    case angle
    case time
    case point
    case size
    case rect
    case color
    case transform
    case path
    case bool
    case image
    case enumeration(EnumerationType)
    case numbers
    case colors

    public var description: String {
        switch self {
        case .number: return "a number"
        case .length: return "a length"
        case .angle: return "an angle"
        case .time: return "a time"
        case .point: return "a point"
        case .size: return "a size"
        case .rect: return "a rect"
        case .color: return "a colour"
        case .transform: return "a transform"
        case .path: return "a path"
        case .bool: return "a boolean"
        case .image: return "an image"
        case .enumeration(let e): return "one of " + e.cases.joined(separator: ", ")
        case .numbers: return "a list of numbers"
        case .colors: return "a list of colours"
        }
    }

    /// Whether values of this type interpolate continuously. Those that do not switch
    /// only in `discrete` keyframes.
    public var interpolates: Bool {
        switch self {
        case .bool, .image, .enumeration: return false
        default: return true
        }
    }

    /// Whether `additive` and `cumulative` make sense (there is a "+" for the type).
    public var isAdditive: Bool {
        switch self {
        case .number, .length, .angle, .time, .point, .size, .rect, .color, .transform: return true
        default: return false
        }
    }

    /// Whether values also subtract (``ValueMath/subtract(_:_:)``): what a state may set
    /// (a transition runs the difference) and a test may check for continuity.
    public var isSubtractable: Bool { isAdditive && self != .transform }
}

/// A closed set of named cases, such as the values of `lineCap`.
public struct EnumerationType: Hashable, Sendable {
    public var name: String
    public var cases: [String]

    public static let lineCap = EnumerationType(name: "lineCap", cases: ["butt", "round", "square"])
    public static let lineJoin = EnumerationType(name: "lineJoin", cases: ["miter", "round", "bevel"])
    public static let fillRule = EnumerationType(name: "fillRule", cases: ["nonZero", "evenOdd"])
    public static let contentsGravity = EnumerationType(
        name: "contentsGravity",
        cases: ["resize", "resizeAspect", "resizeAspectFill", "center", "top", "bottom", "left", "right",
                "topLeft", "topRight", "bottomLeft", "bottomRight"])
    public static let gradientType = EnumerationType(name: "gradientType", cases: ["axial", "radial", "conic"])
}

/// The model properties of a layer. Their key paths, types, defaults and validity
/// live in ``PropertyTable``.
public enum PropertyID: String, Hashable, Sendable, CaseIterable, Comparable {
    case position, zPosition, anchorPoint, anchorPointZ, bounds
    case transform, sublayerTransform
    case opacity, hidden, doubleSided, masksToBounds
    case backgroundColor, cornerRadius, borderWidth, borderColor
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius
    case contents, contentsGravity
    case path, fillColor, strokeColor, lineWidth, strokeStart, strokeEnd
    case lineCap, lineJoin, miterLimit, lineDashPhase, lineDashPattern, fillRule
    case colors, locations, startPoint, endPoint, gradientType

    /// The case's position in declaration order, which is also the order of `allCases`
    /// and of ``PropertyTable/properties`` (a test checks both). Tables indexed by it
    /// replace dictionaries: hashing a String-backed enum hashes its raw string.
    @inline(__always)
    public var index: Int {
        switch self {
        case .position: return 0
        case .zPosition: return 1
        case .anchorPoint: return 2
        case .anchorPointZ: return 3
        case .bounds: return 4
        case .transform: return 5
        case .sublayerTransform: return 6
        case .opacity: return 7
        case .hidden: return 8
        case .doubleSided: return 9
        case .masksToBounds: return 10
        case .backgroundColor: return 11
        case .cornerRadius: return 12
        case .borderWidth: return 13
        case .borderColor: return 14
        case .shadowColor: return 15
        case .shadowOpacity: return 16
        case .shadowOffset: return 17
        case .shadowRadius: return 18
        case .contents: return 19
        case .contentsGravity: return 20
        case .path: return 21
        case .fillColor: return 22
        case .strokeColor: return 23
        case .lineWidth: return 24
        case .strokeStart: return 25
        case .strokeEnd: return 26
        case .lineCap: return 27
        case .lineJoin: return 28
        case .miterLimit: return 29
        case .lineDashPhase: return 30
        case .lineDashPattern: return 31
        case .fillRule: return 32
        case .colors: return 33
        case .locations: return 34
        case .startPoint: return 35
        case .endPoint: return 36
        case .gradientType: return 37
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(index) }

    public static func == (a: PropertyID, b: PropertyID) -> Bool { a.index == b.index }

    public static func < (a: PropertyID, b: PropertyID) -> Bool { a.index < b.index }
}

/// A part of a property that a key path selects, such as the `z` rotation of
/// `transform` in `transform.rotation.z`.
public enum KeyPathComponent: String, Hashable, Sendable, CaseIterable {
    case x, y, width, height, origin, size, originX, originY
    case rotationX, rotationY, rotationZ
    case scale, scaleX, scaleY, scaleZ
    /// `transform.scale.xy`: x and y together, z untouched (Core Animation accepts it,
    /// and Objective-C code uses it for 2D pops).
    case scaleXY
    case translation, translationX, translationY, translationZ
}

/// What an animation targets: a property, optionally narrowed to one component.
public struct AnimationTarget: Hashable, Sendable, CustomStringConvertible {
    public var property: PropertyID
    public var component: KeyPathComponent?

    public init(_ property: PropertyID, _ component: KeyPathComponent? = nil) {
        self.property = property
        self.component = component
    }

    /// The key path as Core Animation spells it.
    public var keyPath: String {
        PropertyTable.keyPaths.first { $0.target == self }?.keyPath ?? property.rawValue
    }

    public var description: String { keyPath }
}

/// The static facts about one property.
///
/// A class, though immutable: the checker reads the table for every property and
/// animation it meets, and handing out a reference costs one count where copying the
/// fields retained its summary, kinds and default value each time.
public final class PropertyInfo: Sendable {
    public let id: PropertyID
    public let type: ValueType
    /// The model value when the source does not set one (Core Animation's default).
    public let defaultValue: Value
    /// Valid numeric range, for numbers and for each component of sizes and rects
    /// where that applies (width and height ≥ 0). A value written on a layer must lie in
    /// it (E0313); an animated value need not, as in Core Animation, and is clamped into
    /// it only where it is shown (``shown(_:)``).
    public let minimum: Double?
    public let maximum: Double?
    /// The layer kinds that have the property; `nil` means every kind.
    public let kinds: Set<LayerKind>?
    public let summary: String

    public init(id: PropertyID, type: ValueType, defaultValue: Value, minimum: Double?, maximum: Double?, kinds: Set<LayerKind>?,
                summary: String) {
        self.id = id
        self.type = type
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.kinds = kinds
        self.summary = summary
    }

    public var interpolates: Bool { type.interpolates }

    public func applies(to kind: LayerKind) -> Bool { kinds?.contains(kind) ?? true }

    /// What a renderer draws for the number `x` of this property: Core Animation keeps an
    /// out-of-range presentation value (an opacity animated from -1, a spring's overshoot
    /// past 1) and clamps it when it composites, so `eval` reports `x` and the preview,
    /// the Lottie export and the opacity a layer is drawn with use this.
    @inlinable public func shown(_ x: Double) -> Double {
        var y = x
        if let lo = minimum, !(y >= lo) { y = lo }
        if let hi = maximum, y > hi { y = hi }
        return y
    }
}

/// One animatable key path: its spelling, target and the type of its values. A class
/// for the reason ``PropertyInfo`` is one.
public final class KeyPathInfo: Sendable {
    public let keyPath: String
    public let target: AnimationTarget
    public let type: ValueType

    public init(keyPath: String, target: AnimationTarget, type: ValueType) {
        self.keyPath = keyPath
        self.target = target
        self.type = type
    }
}

/// The one table of layer properties and animatable key paths. The checker validates
/// against it, the runtime takes defaults from it, and `docs/properties.md` is
/// generated from it.
public enum PropertyTable {
    private static let shapeOnly: Set<LayerKind> = [.shape]
    private static let gradientOnly: Set<LayerKind> = [.gradient]

    public static let properties: [PropertyInfo] = [
        PropertyInfo(id: .position, type: .point, defaultValue: .point(.zero), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Where the layer's anchor point sits in its parent's coordinates"),
        PropertyInfo(id: .zPosition, type: .length, defaultValue: .number(0), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Position on the z axis; also orders sublayers"),
        PropertyInfo(id: .anchorPoint, type: .point, defaultValue: .point(Point(0.5, 0.5)), minimum: nil, maximum: nil, kinds: nil,
                     summary: "The point in unit coordinates of the bounds that position refers to and transforms turn about"),
        PropertyInfo(id: .anchorPointZ, type: .length, defaultValue: .number(0), minimum: nil, maximum: nil, kinds: nil,
                     summary: "The anchor point's z coordinate"),
        PropertyInfo(id: .bounds, type: .rect, defaultValue: .rect(.zero), minimum: 0, maximum: nil, kinds: nil,
                     summary: "The layer's own coordinate rectangle; its size is the layer's size"),
        PropertyInfo(id: .transform, type: .transform, defaultValue: .transform(.identity), minimum: nil, maximum: nil, kinds: nil,
                     summary: "A 3D transform applied about the anchor point"),
        PropertyInfo(id: .sublayerTransform, type: .transform, defaultValue: .transform(.identity), minimum: nil, maximum: nil, kinds: nil,
                     summary: "A transform applied to the sublayers, about the anchor point (used for shared perspective)"),
        PropertyInfo(id: .opacity, type: .number, defaultValue: .number(1), minimum: 0, maximum: 1, kinds: nil,
                     summary: "Opacity from 0 (transparent) to 1"),
        PropertyInfo(id: .hidden, type: .bool, defaultValue: .bool(false), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Whether the layer and its sublayers are hidden"),
        PropertyInfo(id: .doubleSided, type: .bool, defaultValue: .bool(true), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Whether the layer is drawn when its back faces the viewer"),
        PropertyInfo(id: .masksToBounds, type: .bool, defaultValue: .bool(false), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Whether sublayers are clipped to the bounds"),
        PropertyInfo(id: .backgroundColor, type: .color, defaultValue: .color(.clear), minimum: nil, maximum: nil, kinds: nil,
                     summary: "The fill behind the contents"),
        PropertyInfo(id: .cornerRadius, type: .length, defaultValue: .number(0), minimum: 0, maximum: nil, kinds: nil,
                     summary: "Radius of the rounded corners of the background and border"),
        PropertyInfo(id: .borderWidth, type: .length, defaultValue: .number(0), minimum: 0, maximum: nil, kinds: nil,
                     summary: "Width of the border, drawn inside the bounds"),
        PropertyInfo(id: .borderColor, type: .color, defaultValue: .color(.black), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Colour of the border"),
        PropertyInfo(id: .shadowColor, type: .color, defaultValue: .color(.black), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Colour of the shadow"),
        PropertyInfo(id: .shadowOpacity, type: .number, defaultValue: .number(0), minimum: 0, maximum: 1, kinds: nil,
                     summary: "Opacity of the shadow"),
        PropertyInfo(id: .shadowOffset, type: .size, defaultValue: .size(Size(0, -3)), minimum: nil, maximum: nil, kinds: nil,
                     summary: "Offset of the shadow"),
        PropertyInfo(id: .shadowRadius, type: .length, defaultValue: .number(3), minimum: 0, maximum: nil, kinds: nil,
                     summary: "Blur radius of the shadow"),
        PropertyInfo(id: .contents, type: .image, defaultValue: .image(nil), minimum: nil, maximum: nil, kinds: nil,
                     summary: "An image asset drawn in the bounds"),
        PropertyInfo(id: .contentsGravity, type: .enumeration(.contentsGravity), defaultValue: .enumeration("resize"),
                     minimum: nil, maximum: nil, kinds: nil, summary: "How the contents fit the bounds"),
        PropertyInfo(id: .path, type: .path, defaultValue: .path(.empty), minimum: nil, maximum: nil, kinds: shapeOnly,
                     summary: "The shape to draw"),
        PropertyInfo(id: .fillColor, type: .color, defaultValue: .color(.black), minimum: nil, maximum: nil, kinds: shapeOnly,
                     summary: "Colour that fills the path"),
        PropertyInfo(id: .strokeColor, type: .color, defaultValue: .color(.clear), minimum: nil, maximum: nil, kinds: shapeOnly,
                     summary: "Colour of the path's stroke"),
        PropertyInfo(id: .lineWidth, type: .length, defaultValue: .number(1), minimum: 0, maximum: nil, kinds: shapeOnly,
                     summary: "Width of the stroke"),
        PropertyInfo(id: .strokeStart, type: .number, defaultValue: .number(0), minimum: 0, maximum: 1, kinds: shapeOnly,
                     summary: "Where the stroke starts, as a fraction of the path's length"),
        PropertyInfo(id: .strokeEnd, type: .number, defaultValue: .number(1), minimum: 0, maximum: 1, kinds: shapeOnly,
                     summary: "Where the stroke ends, as a fraction of the path's length"),
        PropertyInfo(id: .lineCap, type: .enumeration(.lineCap), defaultValue: .enumeration("butt"), minimum: nil, maximum: nil,
                     kinds: shapeOnly, summary: "Shape of the stroke's ends"),
        PropertyInfo(id: .lineJoin, type: .enumeration(.lineJoin), defaultValue: .enumeration("miter"), minimum: nil, maximum: nil,
                     kinds: shapeOnly, summary: "Shape of the stroke's corners"),
        PropertyInfo(id: .miterLimit, type: .number, defaultValue: .number(10), minimum: 0, maximum: nil, kinds: shapeOnly,
                     summary: "Limit on the length of mitred corners"),
        PropertyInfo(id: .lineDashPhase, type: .length, defaultValue: .number(0), minimum: nil, maximum: nil, kinds: shapeOnly,
                     summary: "Offset into the dash pattern"),
        PropertyInfo(id: .lineDashPattern, type: .numbers, defaultValue: .numbers([]), minimum: 0, maximum: nil, kinds: shapeOnly,
                     summary: "Alternating dash and gap lengths; empty for a solid line"),
        PropertyInfo(id: .fillRule, type: .enumeration(.fillRule), defaultValue: .enumeration("nonZero"), minimum: nil, maximum: nil,
                     kinds: shapeOnly, summary: "Which regions of a self-intersecting path are filled"),
        PropertyInfo(id: .colors, type: .colors, defaultValue: .colors([]), minimum: nil, maximum: nil, kinds: gradientOnly,
                     summary: "The gradient's colour stops"),
        PropertyInfo(id: .locations, type: .numbers, defaultValue: .numbers([]), minimum: 0, maximum: 1, kinds: gradientOnly,
                     summary: "Where each colour stop sits, from 0 to 1; empty for even spacing"),
        PropertyInfo(id: .startPoint, type: .point, defaultValue: .point(Point(0.5, 0)), minimum: nil, maximum: nil, kinds: gradientOnly,
                     summary: "Start of the gradient in unit coordinates"),
        PropertyInfo(id: .endPoint, type: .point, defaultValue: .point(Point(0.5, 1)), minimum: nil, maximum: nil, kinds: gradientOnly,
                     summary: "End of the gradient in unit coordinates"),
        PropertyInfo(id: .gradientType, type: .enumeration(.gradientType), defaultValue: .enumeration("axial"), minimum: nil,
                     maximum: nil, kinds: gradientOnly, summary: "Axial, radial or conic gradient"),
    ]

    public static func info(_ id: PropertyID) -> PropertyInfo {
        // `properties` lists every case in declaration order; a test enforces it.
        let i = id.index
        return i < properties.count ? properties[i] : properties[0]
    }

    public static func property(named name: String) -> PropertyInfo? {
        PropertyID(rawValue: name).map(info)
    }

    /// Every key path an animation may target, with the type of its values.
    public static let keyPaths: [KeyPathInfo] = {
        var paths = properties.map { KeyPathInfo(keyPath: $0.id.rawValue, target: AnimationTarget($0.id), type: $0.type) }
        func add(_ path: String, _ id: PropertyID, _ c: KeyPathComponent, _ type: ValueType) {
            paths.append(KeyPathInfo(keyPath: path, target: AnimationTarget(id, c), type: type))
        }
        for id in [PropertyID.position, .anchorPoint, .startPoint, .endPoint] {
            add("\(id.rawValue).x", id, .x, id == .position ? .length : .number)
            add("\(id.rawValue).y", id, .y, id == .position ? .length : .number)
        }
        add("bounds.origin", .bounds, .origin, .point)
        add("bounds.origin.x", .bounds, .originX, .length)
        add("bounds.origin.y", .bounds, .originY, .length)
        add("bounds.size", .bounds, .size, .size)
        add("bounds.size.width", .bounds, .width, .length)
        add("bounds.size.height", .bounds, .height, .length)
        add("shadowOffset.width", .shadowOffset, .width, .length)
        add("shadowOffset.height", .shadowOffset, .height, .length)
        for id in [PropertyID.transform, .sublayerTransform] {
            let p = id.rawValue
            add("\(p).rotation.x", id, .rotationX, .angle)
            add("\(p).rotation.y", id, .rotationY, .angle)
            add("\(p).rotation.z", id, .rotationZ, .angle)
            add("\(p).rotation", id, .rotationZ, .angle)
            add("\(p).scale", id, .scale, .number)
            add("\(p).scale.x", id, .scaleX, .number)
            add("\(p).scale.y", id, .scaleY, .number)
            add("\(p).scale.z", id, .scaleZ, .number)
            add("\(p).scale.xy", id, .scaleXY, .number)
            add("\(p).translation", id, .translation, .size)
            add("\(p).translation.x", id, .translationX, .length)
            add("\(p).translation.y", id, .translationY, .length)
            add("\(p).translation.z", id, .translationZ, .length)
        }
        return paths
    }()

    private static let byKeyPath: NameTable<KeyPathInfo> = {
        var map = NameTable<KeyPathInfo>()
        for k in keyPaths where map[k.keyPath] == nil { map[k.keyPath] = k }
        return map
    }()

    public static func keyPath(_ path: String) -> KeyPathInfo? { byKeyPath[path] }

    /// The value type of an animation target.
    public static func type(of target: AnimationTarget) -> ValueType {
        keyPaths.first { $0.target == target }?.type ?? info(target.property).type
    }
}
