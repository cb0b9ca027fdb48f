import AnimcDiagnostics

/// What the commands refuse at the file system (E10xx, W10xx): paths outside the
/// project, outputs that would replace an input or go through a link, sources that
/// changed while being fixed. Said on one line by the command (`animc render:
/// warning[W1001]: ...`); `animc explain` tells the rest. See docs/files.md.
public enum FileDiagnostics {
    public static let assetOutsideProject = DiagnosticDescriptor(
        "W1001", "asset-outside-project", .warning, "An image file outside the project",
        explanation: """
        An `image("photo")` asset is `photo.png` (or .jpg, .svg, ...) beside the source or \
        in its `assets/` folder. A file there whose real path lies outside the project \
        root (a symbolic link such as `photo.png -> /proc/self/environ`) is not read: \
        `render` draws the image empty, `preview` and `build --target lottie` leave it \
        out, and this warning names the file. The project root is found as for imports \
        (E0329, docs/files.md). Copy the image into the project instead of linking to it.
        """)

    public static let sourceChanged = DiagnosticDescriptor(
        "E1002", "source-changed", .error, "A source that changed while animc rewrote it",
        explanation: """
        `check --fix` and `fmt` read a file, work, and write it back. If the file no \
        longer holds what was read when the new text is ready (an editor saved it \
        meanwhile), writing would lose that edit, so nothing is written: the file keeps \
        the newer text. It is checked again just before the new file takes the old \
        one's name. Run the command again.
        """)

    public static let sourceReadOnly = DiagnosticDescriptor(
        "E1003", "source-read-only", .error, "A read-only source that would be rewritten",
        explanation: """
        `check --fix` and `fmt` rewrite sources in place. A file without write \
        permission (`chmod a-w`) is left as it was, even when animc runs as root, which \
        could replace it: the mode says the file is not to be changed. Make it writable \
        first, or see the change with `check --fix --dry-run` or `fmt --check`.
        """)

    public static let sourceLinked = DiagnosticDescriptor(
        "E1004", "source-hard-linked", .error, "A source with other names that would be rewritten",
        explanation: """
        A rewritten source is a new file that takes the old one's name, so that a crash \
        leaves the old file or the new one, never half of each. A file with hard links \
        (other names for the same file) would then be split: the other names would keep \
        the old text. Such a file is left as it was. `--dry-run` prints the change; a \
        symbolic link to a source is fine (the file it names is rewritten).
        """)

    public static let sourceOwner = DiagnosticDescriptor(
        "E1005", "source-owner", .error, "A source whose owner a rewrite could not keep",
        explanation: """
        A rewritten source keeps its owner, group and mode. Only root can give a new \
        file to another user, so a source owned by someone else, in a folder you may \
        write, is left as it was rather than made yours.
        """)

    public static let outputIsInput = DiagnosticDescriptor(
        "E1006", "output-is-input", .error, "An output that would replace an input",
        explanation: """
        `build`, `render` and `preview` never write onto a file they read: the source, \
        one of its imports. `animc render F -o F` replaced the source with an image. \
        Choose another output with `-o` (or `--gif`, `--apng`).
        """)

    public static let outputIsLink = DiagnosticDescriptor(
        "E1007", "output-is-link", .error, "An output path that is a symbolic link",
        explanation: """
        An output animc makes (a timeline, a frame, a snapshot's `.actual.png`) is never \
        written through a symbolic link to a file or to nothing: a link planted in a \
        shared folder (`__snapshots__/x.actual.png -> ~/.bashrc`) would turn another \
        file into an image. A link to a device or a FIFO (`-o /dev/stdout`) is written \
        through. Remove the link or choose another output.
        """)

    public static let all = [assetOutsideProject, sourceChanged, sourceReadOnly, sourceLinked, sourceOwner, outputIsInput, outputIsLink]
}
