import AnimcBake
import AnimcBase
import AnimcDiagnostics

/// Diagnostics of the build step (E06xx).
public enum BuildDiagnostics {
    public static let unboundedBake = DiagnosticDescriptor(
        "E0601", "unbounded-bake", .error, "A bake of an animation that never ends, with no window",
        explanation: """
        A baked file holds every frame, so it needs a last frame. Something in the \
        composition repeats forever and the composition has no `window`, so there is \
        none. Add `window: 0s ..< 3s` (for example one cycle) to the composition, or \
        pass `--window 0..3` to `animc build`.
        """)

    public static let bakeTooLarge = DiagnosticDescriptor(
        "E0602", "bake-too-large", .error, "A bake that would be too large",
        explanation: """
        The number of frames times the number of values sampled per frame is beyond \
        the bake limit (\(formatNumber(Double(Baker.defaultSampleLimit) / 1e6)) million samples), which would take \
        gigabytes. Shorten the window, \
        lower `--fps`, or use the timeline target, which stores the animation itself \
        instead of its frames.
        """)

    public static let all = [unboundedBake, bakeTooLarge]
}
