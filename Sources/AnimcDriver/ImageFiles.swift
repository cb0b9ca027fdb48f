import AnimcCompiler

extension CommandLineTool {
    /// The file of each image asset `names` name: `NAME.png` (or .jpg, .svg, ...) beside
    /// `input` or in its `assets/` folder, the first that exists and is at most `limit`
    /// bytes (ImageAssets). Names without a file are left out. The preview embeds these;
    /// the renderer decodes them.
    func imageFiles(_ names: [String], besides input: String, limit: Int) -> [(name: String, path: String, mime: String, bytes: [UInt8])] {
        let dir = directoryPart(input) ?? "."
        var found: [(name: String, path: String, mime: String, bytes: [UInt8])] = []
        for name in names {
            for (path, mime) in ImageAssets.candidates(for: name, inDirectory: dir) {
                guard fileSystem.exists(path), !fileSystem.isDirectory(path),
                      let bytes = try? fileSystem.readFile(path), bytes.count <= limit else { continue }
                found.append((name, path, mime, bytes))
                break
            }
        }
        return found
    }
}
