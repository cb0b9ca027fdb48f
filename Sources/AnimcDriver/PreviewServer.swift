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
        var served = rebuild(server, after: nil)
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
        watch(server, from: &served, until: { stop.isSet })
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
        let first = rebuild(server, after: nil)
        Thread { server.serve() }.start()
        // The tool's console and file system are used by this thread alone from now on.
        nonisolated(unsafe) let session = self
        Thread {
            var served = first
            session.watch(server, from: &served, until: { false })
        }.start()
        return "http://127.0.0.1:\(server.port)/"
    }

    /// What the server shows: the files it was made from, the data on the page and
    /// the last data made without errors.
    struct Served {
        var files: [String]
        var shown: PreviewData?
        var good: PreviewData?
    }

    /// Rebuilds the page whenever a file it was made from changes.
    private func watch(_ server: PreviewHTTPServer, from served: inout Served, until stop: () -> Bool) {
        let watcher = FileWatcher(served.files)
        while !stop() {
            guard watcher.waitForChange(timeout: 0.25) else { continue }
            served = rebuild(server, after: served)
            watcher.watch(served.files)
        }
    }

    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Rebuilds the page; on errors, the last good frames with the diagnostics over
    /// them. Pages that show the previous version are sent what changed.
    private func rebuild(_ server: PreviewHTTPServer, after previous: Served?) -> Served {
        let builder = PreviewBuilder(tool: tool, settings: settings)
        guard let file = tool.readSource(input, command: "preview") else {
            return Served(files: [input], shown: previous?.shown, good: previous?.good)
        }
        let built = builder.build(file, input: input)
        if built.hasDiagnostics {
            DiagnosticOutput(console: tool.console, useColor: useColor)
                .emit(built.reports.filter { !$0.diagnostics.isEmpty }, format: "human", summaryVerb: nil)
        }
        var good = previous?.good
        let shown: PreviewData
        if let data = built.data {
            shown = data
            good = data
        } else if let last = good {
            shown = last.with(diagnostics: [built.diagnosticsText])
        } else {
            server.setPage(PreviewServer.errorPage(built.diagnosticsText))
            return Served(files: built.inputs, shown: nil, good: nil)
        }
        let old = server.version
        let version = old + 1
        let data = PreviewPage.scriptSafe(shown.document(version: version, events: "/events"))
        let shell = PreviewPage.shell(title: PreviewBuilder.title(of: input))
        var content = PreviewHTTPServer.Content(page: [shell.before, data, shell.after], version: version, data: data)
        if let before = previous?.shown {
            content.update = (old, shown.update(from: before, oldVersion: old, version: version, events: "/events"))
        }
        server.setContent(content)
        if built.data != nil { tool.console.writeErr("built \(input)\n") }
        return Served(files: built.inputs, shown: shown, good: good)
    }

    static func errorPage(_ text: String) -> [UInt8] {
        Array("""
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>animc preview</title></head>
        <body><pre id="diagnostics">\(PreviewPage.escapeHTML(text))</pre>
        <script>new EventSource("/events").addEventListener("reload", () => location.reload());</script></body></html>

        """.utf8)
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
