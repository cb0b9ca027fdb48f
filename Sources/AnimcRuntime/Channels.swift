import AnimcIR

/// One property of one layer as it sits in a ``SceneState``: where its doubles are.
/// Backends that write every value of every frame (the bake) read through these
/// instead of decoding ``Value``s, which would allocate per sample.
public struct PropertyChannel: Hashable, Sendable {
    public let layer: Int
    public let property: PropertyID
    /// Offset of the first double in ``SceneState/rawValues``.
    public let offset: Int
    /// Doubles reserved for it (lists and paths: the widest value they take).
    public let width: Int
    public var type: ValueType { PropertyTable.info(property).type }
}

extension Timeline {
    /// Every property of every layer, layers in order, properties in table order.
    public var propertyChannels: [PropertyChannel] {
        layers.flatMap { layer in
            PropertyTable.properties.compactMap { info in
                layer.slot(info.id).map { PropertyChannel(layer: layer.index, property: info.id, offset: $0.offset, width: $0.width) }
            }
        }
    }

    /// Total doubles in ``SceneState/rawValues``.
    public var rawValueCount: Int { model.count }

    /// Decodes a channel's doubles (as read from ``SceneState/rawValues``).
    public func decode(_ channel: PropertyChannel, _ doubles: UnsafeBufferPointer<Double>) -> Value {
        symbols.decode(channel.type, doubles)
    }

    /// The string a discrete channel's double stands for (an enumeration case or an
    /// image name), or nil (no image).
    public func symbol(_ x: Double) -> String? { symbols.string(x) }

    /// The layers' ids, kinds and structure, in order.
    public func layerInfo(_ i: Int) -> (id: String, kind: LayerKind, parent: Int?, isMask: Bool, mask: Int?) {
        let l = composition.layers[i]
        return (l.id, l.kind, l.parent, l.isMask, l.mask)
    }

    /// The end of the last animation that ends, in composition time, or nil when some
    /// animation never ends (it repeats forever or runs at speed 0). Layers with their
    /// own timing are mapped through it.
    public var naturalEnd: (end: Double?, unbounded: AnimationInfo?) {
        var end = 0.0
        for info in animations where info.ancestors.isEmpty {
            guard let layerEnd = MediaTiming(info.timing, topLevel: true).endInParent,
                  let root = settledTime(info.layer, fromLayerTime: layerEnd) else { return (nil, info) }
            end = max(end, root)
        }
        return (end, nil)
    }
}

extension SceneState {
    /// Every property value as doubles; see ``Timeline/propertyChannels``.
    public var rawValues: [Double] { values }
    /// 16 doubles per layer: the composed matrices.
    public var rawMatrices: [Double] { world }
    /// One per layer: effective opacity.
    public var rawOpacities: [Double] { opacity }
}
