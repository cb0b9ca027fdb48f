import AnimcDiagnostics

/// The Lottie target's findings (W08xx): each names something that the export could
/// not write exactly and says what it did instead. `--strict-lottie` makes them errors.
public enum LottieDiagnostics {
    public static let sampledPhysics = DiagnosticDescriptor(
        "W0801", "lottie-sampled-physics", .warning, "A spring or decay sampled at the frame rate",
        explanation: """
        Lottie has no springs and no decay: a keyframe eases along a cubic Bézier, and a \
        spring's progress is not one. The export samples the animation at every frame and \
        writes linear keyframes between the samples, so every frame shows exactly what \
        `animc eval` shows, and players that draw between frames interpolate linearly. \
        To make the track exact, replace the spring with keyframes and a \
        `cubic(...)` timing function that approximates it.
        """)

    public static let sampledCombination = DiagnosticDescriptor(
        "W0802", "lottie-sampled-combination", .warning, "Animations combined into one Lottie property are sampled",
        explanation: """
        A Lottie layer has one track per property, while Core Animation adds up animations: \
        several animations of one key path, `additive` or `cumulative` animations over another \
        animation, or different key paths that end up in the same Lottie property (`position` \
        and `transform.translation.x` both move Lottie's `p`; `transform` and \
        `transform.rotation.z` both turn `r`). The export samples the combined value at every \
        frame. A single animation per Lottie property (after the mapping in docs/formats.md) \
        is written exactly.
        """)

    public static let sampledInterpolation = DiagnosticDescriptor(
        "W0803", "lottie-sampled-interpolation", .warning, "An interpolation Lottie cannot express is sampled",
        explanation: """
        Lottie keyframes interpolate linearly in value with one cubic easing per segment, or \
        hold. Paced and cubic calculation modes, `steps(...)` timing functions, a timing \
        function over a whole keyframe animation with more than one segment, a group with a \
        timing function, `from: presentation`, whole transforms that are not a rotation and a \
        scale, and values that are not numbers, points, sizes, rects or colours have no such \
        form. The export samples them at every frame (exact at frames, linear between). \
        Per-segment `~ cubic(...)` timing functions and `keyTimes` are exact.
        """)

    public static let sampledMotion = DiagnosticDescriptor(
        "W0804", "lottie-sampled-motion", .warning, "Motion along a path sampled at the frame rate",
        explanation: """
        Core Animation moves a layer along a path at a speed set by key times or pacing and \
        can turn it with the tangent; Lottie's spatial keyframes apply the easing to arc \
        length per keyframe and its auto-orient differs at the ends. The export samples the \
        layer's position and rotation at every frame instead, which shows the same frames.
        """)

    public static let projected3D = DiagnosticDescriptor(
        "W0805", "lottie-projected-3d", .warning, "A 3D transform projected to 2D at every frame",
        explanation: """
        Lottie layers are flat (`ddd: 0`; rlottie and ThorVG do not draw 3D layers the way \
        Core Animation does). A layer whose matrix has perspective or leaves the plane is \
        exported without a Lottie parent, with the plane transform closest to where its \
        corners land, computed at every frame. A perspective trapezoid becomes a \
        parallelogram: positions and sizes match at the layer's centre, the shape is \
        approximate. Layers that face away (not `doubleSided`) are hidden.
        """)

    public static let dropped = DiagnosticDescriptor(
        "W0806", "lottie-dropped", .warning, "Something Lottie cannot show is left out",
        explanation: """
        Some Core Animation features have no Lottie counterpart that the players draw: \
        shadows, `zPosition` reordering of siblings, `contentsGravity` other than `resize`, \
        conic gradients, a second mask on a layer already masked, and images that are not \
        found beside the source (a grey placeholder of the layer's size is embedded instead, \
        so the file still plays). The export leaves them out and says so here.
        """)

    public static let sampledUnverified = DiagnosticDescriptor(
        "W0807", "lottie-sampled-unverified", .warning, "Exact keyframes that did not reproduce the animation are sampled",
        explanation: """
        Every exact Lottie track is evaluated at every frame and half frame and compared \
        with the runtime before it is written. When the two differ (a value another \
        property feeds, such as an ancestor's animated opacity, which Lottie does not \
        inherit, or a timing the mapping does not cover), the export samples the track \
        instead, so the file never shows different frames. Please report the input: the \
        mapping should cover it.
        """)

    public static let all = [sampledPhysics, sampledCombination, sampledInterpolation, sampledMotion, projected3D, dropped,
                             sampledUnverified]
}
