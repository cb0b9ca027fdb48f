import AnimcCompiler
import AnimcIR
import AnimcImage
import AnimcRender

/// An image asset's file, as every command that uses it decided it: read inside the
/// project, within the size limit, and (a PNG or a JPEG) decoded.
struct ImageFile {
    var name: String
    var path: String
    var mime: String
    var bytes: [UInt8]
    /// The pixels of a PNG or a JPEG (premultiplied, for the renderer); nil for the
    /// types only a browser draws (SVG, GIF, WebP).
    var bitmap: Bitmap?
}

extension CommandLineTool {
    /// The file of each image asset `names` name: `NAME.png` (or .jpg, .svg, ...) beside
    /// `input` or in its `assets/` folder, the first that exists (ImageAssets). One
    /// decision per asset, the same for every command (issue 51: the preview and the
    /// Lottie export embedded files `render` refused, a zlib bomb among them):
    ///
    /// - a file whose real path lies outside the project root (`photo.png ->
    ///   /proc/self/environ`) is not read (W1001);
    /// - a file over `limit` bytes is not read;
    /// - a PNG or JPEG that does not decode (truncated, a bomb, not what its name says)
    ///   is not used.
    ///
    /// Each refusal is a warning of `command` naming the file, and the name is then
    /// treated as one with no file: every backend draws ``Color/missingImage`` over the
    /// layer's bounds (the renderer says so for names without a file; the Lottie export's
    /// W0806 does).
    func imageFiles(_ names: [String], besides input: String, limit: Int, command: String) -> [ImageFile] {
        // Decoded to be judged, one at a time, and not kept: these commands embed the bytes.
        imageLookup(names, besides: input, limit: limit, command: command, keep: { _, _ in nil }).found
    }

    /// ``imageFiles(_:besides:limit:command:)`` and the names refused (already warned
    /// about). `keep` is handed each decoded picture (premultiplied) as soon as it is
    /// decoded and returns what to keep of it, so that only one file's full-size pixels
    /// are held at a time.
    func imageLookup(_ names: [String], besides input: String, limit: Int, command: String,
                     keep: (String, Bitmap) -> Bitmap?) -> (found: [ImageFile], refused: Set<String>) {
        let dir = directoryPart(input) ?? "."
        let root = projectRoot(for: input)
        var found: [ImageFile] = []
        var refused = Set<String>()
        for name in names {
            for (path, mime) in ImageAssets.candidates(for: name, inDirectory: dir) {
                guard fileSystem.exists(path), !fileSystem.isDirectory(path) else { continue }
                func refuse(_ why: String, code: String? = nil) {
                    console.writeErr("animc \(command): warning\(code.map { "[\($0)]" } ?? ""): \(path) \(why); image '\(name)' is drawn as a grey placeholder\n")
                    refused.insert(name)
                }
                let bytes: [UInt8]
                do {
                    bytes = try fileSystem.readFile(path, inside: root)
                } catch {
                    if error.outside != nil {
                        refuse(error.reason, code: FileDiagnostics.assetOutsideProject.code.rawValue)
                    } else {
                        refuse("cannot be read: \(error.reason)")
                    }
                    break
                }
                guard bytes.count <= limit else {
                    refuse("is larger than \(limit >> 20) MiB, the most an image may be")
                    break
                }
                var file = ImageFile(name: name, path: path, mime: mime, bytes: bytes)
                if mime == "image/png" || mime == "image/jpeg" {
                    do {
                        var decoded = mime == "image/png" ? try PNG.decode(bytes) : try JPEG.decode(bytes)
                        decoded.premultiply()
                        file.bitmap = keep(name, decoded)
                    } catch {
                        refuse("does not decode: \(error)")
                        break
                    }
                }
                found.append(file)
                break
            }
        }
        return (found, refused)
    }

    /// The composition's image assets decoded for the renderer: PNG and JPEG files; a
    /// name without a file, a file in another format or one that was refused is drawn
    /// grey, and a warning says so. With a `demand` (what the frames to be drawn show of
    /// each image), a picture shown at under half its size is kept that many times
    /// smaller (``ImageDemand/reduction(for:width:height:)``), with its size in points
    /// in `pointSizes`; without one, every picture is kept whole (`test`'s snapshots).
    func decodedImages(_ composition: Composition, besides path: String, command: String,
                       demand: ImageDemand? = nil) -> (images: [String: Bitmap], pointSizes: [String: Size]) {
        let names = PreviewBuilder.imageNames(composition)
        var pointSizes: [String: Size] = [:]
        let (files, refused) = imageLookup(names, besides: path, limit: PreviewBuilder.imageLimit, command: command) { name, bitmap in
            let factor = demand?.reduction(for: name, width: bitmap.width, height: bitmap.height) ?? 1
            guard factor > 1 else { return bitmap }
            pointSizes[name] = Size(Double(bitmap.width), Double(bitmap.height))
            return bitmap.reduced(by: factor)
        }
        var decoded: [String: Bitmap] = [:]
        for found in files {
            if let bitmap = found.bitmap {
                decoded[found.name] = bitmap
            } else {
                console.writeErr("animc \(command): warning: \(found.path): only PNG and JPEG images are drawn yet; '\(found.name)' is drawn as a grey placeholder\n")
            }
        }
        for name in names where !files.contains(where: { $0.name == name }) && !refused.contains(name) {
            console.writeErr("animc \(command): warning: no file for image '\(name)' (\(name).png beside the source or in assets/); it is drawn as a grey placeholder\n")
        }
        return (decoded, pointSizes)
    }
}
