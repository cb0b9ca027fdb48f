import AnimcBase
import AnimcChecker
import AnimcCompiler
import AnimcIR
import AnimcSyntax
import Foundation

extension LanguageServer {
    static let previewCommand = "animc.preview"

    // MARK: Inlay hints

    /// What only this language can show inline: where each animation plays on the
    /// composition's timeline (`⟨1.3 s → 1.6 s⟩`) and its repeat period, through its
    /// layers' and groups' time maps, and each constant's folded value at its uses.
    func inlayHints(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (_, a) = try checkedAnalysis(r)
        let range = a.positions.range(r["range"]) ?? SourceRange(start: 0, end: UInt32(clamping: a.file.bytes.count))
        var hints: [(offset: UInt32, label: String, kind: Int)] = []
        let tree = a.result.tree
        forEachAnimation(in: tree, overlapping: range, intoGroups: true) { item in
            guard case .animation(let kind, let target, let alias, _, _, _) = tree[item] else { return }
            let head = alias?.range.end ?? target?.range.end ?? kind.range.end
            if head >= range.start && head <= range.end, let label = timingLabel(placements(of: item.range, a)) {
                hints.append((head, label, 1))
            }
        }
        for ref in a.names.references where ref.range.start >= range.start && ref.range.end <= range.end {
            let d = a.names.declarations[ref.declaration]
            guard d.kind == .constant, let value = a.folded[d.range.start], value != "varies", value.count <= 32,
                  value != a.file.text(ref.range) else { continue }
            hints.append((ref.range.end, "= " + value, 2))
        }
        hints.sort { $0.offset < $1.offset }
        return .array(hints.map { h in
            obj(("position", a.positions.json(Int(h.offset))), ("label", .string(h.label)), ("kind", .number(Double(h.kind))),
                ("paddingLeft", true))
        })
    }

    /// `⟨0.2 s → 0.5 s⟩ ↻ 0.3 s` for an animation's placements (the first, and how many
    /// more when a loop or component repeats it at other times).
    func timingLabel(_ placements: [Placement]) -> String? {
        guard let first = placements.first, let start = first.start, let end = first.end else { return nil }
        var label = "⟨\(Placement.time(min(start, end))) → \(Placement.time(max(start, end)))⟩"
        if let period = first.period { label += " ↻ \(Placement.time(period))" }
        let others = placements.dropFirst().filter { $0.start != first.start || $0.end != first.end }.count
        if others > 0 { label += " (+\(others) more)" }
        return label
    }

    // MARK: Code lens

    /// Above each top-level animation placement: "▶ preview at 1.3 s", which opens the
    /// preview at that time.
    func codeLenses(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try checkedAnalysis(r)
        let tree = a.result.tree
        var lenses: [JSONValue] = []
        forEachAnimation(in: tree, overlapping: nil, intoGroups: false) { item in
            guard case .animation(let kind, let target, _, _, _, _) = tree[item],
                  let start = placements(of: item.range, a).first?.start, start.isFinite else { return }
            let head = SourceRange(start: kind.range.start, end: target?.range.end ?? kind.range.end)
            let seconds = max(0, start)
            lenses.append(obj(("range", a.positions.json(head)),
                              ("command", obj(("title", .string("▶ preview at \(formatNumber(seconds)) s")),
                                              ("command", .string(Self.previewCommand)),
                                              ("arguments", [.string(doc.uri), .number(seconds)])))))
        }
        return .array(lenses)
    }

    /// Calls `visit` with every animation item of the document, through layers,
    /// components, loops and `if`s (and a group's children with `intoGroups`), skipping
    /// the items outside `range` and what they hold; at most 100,000 items are looked at.
    func forEachAnimation(in tree: SyntaxTree, overlapping range: SourceRange?, intoGroups: Bool, _ visit: (Item) -> Void) {
        var blocks = [tree.root]
        var visited = 0
        while let block = blocks.popLast(), visited < 100_000 {
            for item in tree[block.items] where range.map({ item.range.end >= $0.start && item.range.start <= $0.end }) ?? true {
                visited += 1
                switch tree[item] {
                case .animation(_, _, _, _, let body, _):
                    visit(item)
                    if intoGroups { blocks.append(body) }
                case .composition(_, let b), .component(_, _, let b), .layer(_, _, _, _, let b), .forLoop(_, let b):
                    blocks.append(b)
                case .ifItem(_, let t, let o):
                    blocks.append(t)
                    if let o { blocks.append(o) }
                default:
                    break
                }
            }
        }
    }

    /// `animc.preview URI SECONDS`: opens the document's preview at that time, through
    /// the preview server the host provides (``previews``), in the client's browser.
    func preview(_ arguments: [JSONValue], _ r: inout Request) throws(RequestError) -> JSONValue {
        guard arguments.count == 2, let uri = arguments[0].stringValue, let seconds = arguments[1].numberValue else {
            throw RequestError(code: JSONRPC.ErrorCode.invalidParams, message: "animc.preview takes a document URI and a time")
        }
        let path = Self.displayName(uri)
        let time = formatNumber(seconds)
        guard let previews, let base = previews(path) else {
            r.show("Run `animc preview --serve \(path)` and open its page at #t=\(time)")
            return .null
        }
        let url = base + "#t=" + time
        if client.showDocument {
            nextRequestID += 1
            r.notifications.append(obj(("jsonrpc", "2.0"), ("id", .string("animc-\(nextRequestID)")), ("method", "window/showDocument"),
                                       ("params", obj(("uri", .string(url)), ("external", true)))))
        } else {
            r.show("The preview of \(path) at \(time) s: \(url)")
        }
        return .null
    }

    // MARK: Links

    /// `image("logo")` links to the file the preview embeds for it, an import's path to
    /// the file it imports.
    func documentLinks(_ r: inout Request) throws(RequestError) -> JSONValue {
        let (doc, a) = try currentAnalysis(r)
        guard doc.uri.hasPrefix("file://") else { return .array([]) }
        let path = Self.displayName(doc.uri)
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let tokens = a.lexTokens()
        let root = projectRoot(of: doc.uri)
        var links: [JSONValue] = []
        // `import "motion/tokens.anim"`: the file it names, when it is there and inside
        // the project (E0329 otherwise).
        for declaration in a.result.tree.imports {
            guard let target = ImportResolution.resolve(declaration.path, from: path), FileManager.default.fileExists(atPath: target),
                  root?.contains(LocalPaths.canonical(target)) == true else { continue }
            links.append(obj(("range", a.positions.json(declaration.pathRange)), ("target", .string(Self.fileURI(target))),
                             ("tooltip", .string(target))))
        }
        for i in tokens.indices.dropLast(2) where tokens[i].kind == .identifier && tokens[i + 1].kind == .lParen && tokens[i + 2].kind == .string {
            guard a.file.text(tokens[i].range) == "image" else { continue }
            let literal = a.file.text(tokens[i + 2].range)
            guard literal.count >= 2 else { continue }
            let name = String(literal.dropFirst().dropLast())
            // A link out of the project is not offered (W1001 in the commands).
            guard let found = ImageAssets.candidates(for: name, inDirectory: directory.isEmpty ? "." : directory)
                .first(where: { FileManager.default.fileExists(atPath: $0.path) }),
                  root?.contains(LocalPaths.canonical(found.path)) == true else { continue }
            links.append(obj(("range", a.positions.json(tokens[i + 2].range)), ("target", .string(Self.fileURI(found.path))),
                             ("tooltip", .string(found.path))))
        }
        return .array(links)
    }

    static func fileURI(_ path: String) -> String {
        "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }
}
