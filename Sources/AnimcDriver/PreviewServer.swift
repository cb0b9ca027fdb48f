import AnimcBase
import AnimcDiagnostics
import AnimcPreview
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `animc preview FILE --serve`: the preview page on 127.0.0.1 (``PreviewHTTPServer``),
/// rebuilt when the source or one of its images changes, and open pages told to reload
/// (they keep their playhead). While the source has errors the page keeps the last good
/// frames and shows the diagnostics over the stage.
struct PreviewServer {
    let tool: CommandLineTool
    let input: String
    let settings: PreviewSettings
    let useColor: Bool

    func run(port: Int) -> Int32 {
        guard tool.fileSystem.exists(input), !tool.fileSystem.isDirectory(input) else {
            tool.console.writeErr("animc preview: error: \(input): no such file\n")
            return CommandLineTool.ExitCode.usage
        }
        guard let server = PreviewHTTPServer(port: port) else {
            tool.console.writeErr("animc preview: error: cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))\n")
            return CommandLineTool.ExitCode.usage
        }
        var watched = rebuild(server, lastGood: nil)
        tool.console.writeErr("serving \(input) at http://127.0.0.1:\(server.port)/ (Ctrl-C stops)\n")
        signal(SIGPIPE, SIG_IGN)
        let serving = Thread { server.serve() }
        serving.start()
        // Ctrl-C (and TERM) end the loop below; the process then exits normally.
        let stop = StopFlag()
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        watch(server, from: &watched, until: { stop.isSet })
        sources.forEach { $0.cancel() }
        server.stop()
        tool.console.writeErr("\nstopped\n")
        return CommandLineTool.ExitCode.success
    }

    /// Serves the preview in the background, for as long as the process runs (the
    /// language server's "preview at this animation's start"); the page's address, or
    /// nil when no port could be opened.
    func start() -> String? {
        guard let server = PreviewHTTPServer(port: 0) else { return nil }
        let first = rebuild(server, lastGood: nil)
        Thread { server.serve() }.start()
        // The tool's console and file system are used by this thread alone from now on.
        nonisolated(unsafe) let session = self
        Thread {
            var watched = first
            session.watch(server, from: &watched, until: { false })
        }.start()
        return "http://127.0.0.1:\(server.port)/"
    }

    /// Rebuilds the page whenever a file it was made from changes.
    private func watch(_ server: PreviewHTTPServer, from watched: inout (files: [String], lastGood: SourceFile?), until stop: () -> Bool) {
        var stamps = watched.files.map(PreviewServer.modificationStamp)
        while !stop() {
            usleep(150_000)
            let now = watched.files.map(PreviewServer.modificationStamp)
            if now != stamps {
                watched = rebuild(server, lastGood: watched.lastGood)
                stamps = watched.files.map(PreviewServer.modificationStamp)
            }
        }
    }

    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Rebuilds the page; on errors, the last good source's page with the diagnostics.
    private func rebuild(_ server: PreviewHTTPServer, lastGood: SourceFile?) -> (files: [String], lastGood: SourceFile?) {
        let builder = PreviewBuilder(tool: tool, settings: settings)
        guard let file = tool.readSource(input, command: "preview") else { return ([input], lastGood) }
        let page = builder.page(for: file, input: input, eventsPath: "/events")
        if !page.report.diagnostics.isEmpty {
            DiagnosticOutput(console: tool.console, useColor: useColor).emit([page.report], format: "human", summaryVerb: nil)
        }
        if let bytes = page.bytes {
            server.setPage(bytes)
            tool.console.writeErr("built \(input)\n")
            return (page.inputs, file)
        }
        let text = HumanRenderer().render(page.report.diagnostics, in: file)
        if let good = lastGood, let bytes = builder.page(for: good, input: input, diagnosticsOverStage: [text], eventsPath: "/events").bytes {
            server.setPage(bytes)
        } else {
            server.setPage(PreviewServer.errorPage(text))
        }
        return (page.inputs, lastGood)
    }

    static func errorPage(_ text: String) -> [UInt8] {
        Array("""
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>animc preview</title></head>
        <body><pre id="diagnostics">\(PreviewPage.escapeHTML(text))</pre>
        <script>new EventSource("/events").addEventListener("reload", () => location.reload());</script></body></html>

        """.utf8)
    }

    static func modificationStamp(_ path: String) -> [Int] {
        var s = stat()
        guard stat(path, &s) == 0 else { return [-1] }
        #if canImport(Darwin)
        return [Int(s.st_mtimespec.tv_sec), Int(s.st_mtimespec.tv_nsec), Int(s.st_size), Int(s.st_ino)]
        #else
        return [Int(s.st_mtim.tv_sec), Int(s.st_mtim.tv_nsec), Int(s.st_size), Int(s.st_ino)]
        #endif
    }
}

/// The previews the language server has started, one per file, each served for as long
/// as the process runs.
final class Previews: @unchecked Sendable {
    private let tool: CommandLineTool
    private let lock = NSLock()
    private var addresses: [String: String] = [:]

    init(tool: CommandLineTool) { self.tool = tool }

    /// The address of `path`'s preview, started now if it was not running.
    func address(of path: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = addresses[path] { return known }
        guard tool.fileSystem.exists(path), !tool.fileSystem.isDirectory(path),
              let address = PreviewServer(tool: tool, input: path, settings: PreviewSettings(), useColor: false).start() else { return nil }
        addresses[path] = address
        return address
    }
}
