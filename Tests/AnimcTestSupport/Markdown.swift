import Foundation

/// The fenced code blocks of the repository's Markdown documents, for tests that
/// check what the documents show (examples parse, transcripts are what the tool
/// prints, quoted diagnostics are real).
public enum Markdown {
    public struct Block {
        /// What follows the opening fence: `anim`, `sh`, `text`, or empty.
        public var language: String
        /// The 1-based line number of the block's first line in the document.
        public var firstLine: Int
        public var lines: [String]

        /// The block's lines as one text ending in a newline.
        public var text: String { lines.joined(separator: "\n") + "\n" }
    }

    /// Every fenced block of the document at `relative` (repository-relative), in order;
    /// with `language`, only the blocks in that language.
    public static func fencedBlocks(in relative: String, language: String? = nil) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (i, line) in Repository.read(relative).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("```") else {
                current?.lines.append(String(line))
                continue
            }
            if let block = current {
                blocks.append(block)
                current = nil
            } else {
                current = Block(language: line.dropFirst(3).trimmingCharacters(in: .whitespaces), firstLine: i + 2, lines: [])
            }
        }
        return language.map { l in blocks.filter { $0.language == l } } ?? blocks
    }
}
