/// Where an `image("NAME")` asset is looked for: `NAME.png` (or another image type)
/// beside the source, then in its `assets/` folder. The preview embeds the first that
/// exists; an editor links to it. Pure: callers check which exist.
public enum ImageAssets {
    /// The image types looked for, in order, with their MIME types.
    public static let types = [("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("svg", "image/svg+xml"),
                               ("gif", "image/gif"), ("webp", "image/webp")]

    /// The paths to try for `name`, in order, for a source in `directory`; none for
    /// names that are not plain file names (they are never looked up).
    public static func candidates(for name: String, inDirectory directory: String) -> [(path: String, mime: String)] {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\0") else { return [] }
        return [directory, directory + "/assets"].flatMap { folder in
            types.map { (folder + "/" + name + "." + $0.0, $0.1) }
        }
    }
}
