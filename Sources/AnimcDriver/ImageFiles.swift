import AnimcCompiler
import AnimcIR
import AnimcImage

extension CommandLineTool {
    /// The file of each image asset `names` name: `NAME.png` (or .jpg, .svg, ...) beside
    /// `input` or in its `assets/` folder, the first that exists and is at most `limit`
    /// bytes (ImageAssets). Names without a file are left out. The preview embeds these;
    /// the renderer decodes them.
    ///
    /// A file whose real path lies outside the project root (`photo.png ->
    /// /proc/self/environ`) is not read: `command` warns (W1001) and the name is left
    /// out, as a name without a file is.
    func imageFiles(_ names: [String], besides input: String, limit: Int, command: String) -> [(name: String, path: String, mime: String, bytes: [UInt8])] {
        imageLookup(names, besides: input, limit: limit, command: command).found
    }

    /// ``imageFiles(_:besides:limit:command:)`` and the names refused for lying outside
    /// the project (already warned about).
    func imageLookup(_ names: [String], besides input: String, limit: Int, command: String)
        -> (found: [(name: String, path: String, mime: String, bytes: [UInt8])], refused: Set<String>) {
        let dir = directoryPart(input) ?? "."
        let root = projectRoot(for: input)
        var found: [(name: String, path: String, mime: String, bytes: [UInt8])] = []
        var refused = Set<String>()
        for name in names {
            for (path, mime) in ImageAssets.candidates(for: name, inDirectory: dir) {
                guard fileSystem.exists(path), !fileSystem.isDirectory(path) else { continue }
                let bytes: [UInt8]
                do {
                    bytes = try fileSystem.readFile(path, inside: root)
                } catch {
                    if error.outside != nil {
                        console.writeErr("animc \(command): warning[\(FileDiagnostics.assetOutsideProject.code)]: \(error.path) \(error.reason); image '\(name)' is not read\n")
                        refused.insert(name)
                        break
                    }
                    continue
                }
                guard bytes.count <= limit else { continue }
                found.append((name, path, mime, bytes))
                break
            }
        }
        return (found, refused)
    }

    /// The composition's image assets decoded for the renderer: PNG and JPEG files; a
    /// name without a file, a file in another format or one that does not decode draws
    /// nothing, and a warning says so.
    func decodedImages(_ composition: Composition, besides path: String, command: String) -> [String: Bitmap] {
        let names = PreviewBuilder.imageNames(composition)
        let (files, refused) = imageLookup(names, besides: path, limit: PreviewBuilder.imageLimit, command: command)
        var decoded: [String: Bitmap] = [:]
        for found in files {
            if found.mime == "image/png" || found.mime == "image/jpeg" {
                do {
                    let image = found.mime == "image/png" ? try PNG.decode(found.bytes) : try JPEG.decode(found.bytes)
                    decoded[found.name] = image.premultiplied()
                } catch {
                    console.writeErr("animc \(command): warning: \(found.path): \(error); the image is drawn empty\n")
                }
            } else {
                console.writeErr("animc \(command): warning: \(found.path): only PNG and JPEG images are drawn yet; '\(found.name)' is drawn empty\n")
            }
        }
        for name in names where !files.contains(where: { $0.name == name }) && !refused.contains(name) {
            console.writeErr("animc \(command): warning: no file for image '\(name)' (\(name).png beside the source or in assets/); it is drawn empty\n")
        }
        return decoded
    }
}
