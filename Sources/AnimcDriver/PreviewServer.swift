import AnimcBase
import AnimcDiagnostics
import AnimcPreview
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `animc preview FILE --serve`: the preview page on 127.0.0.1, rebuilt when the source
/// or one of its images changes, with a Server-Sent Events stream that tells open
/// pages to reload (they keep their playhead). While the source has errors the page
/// keeps the last good frames and shows the diagnostics over the stage.
///
/// A small HTTP/1.1 server on POSIX sockets: `GET /` is the page, `GET /events` the
/// event stream, anything else 404; one thread per connection, `Connection: close`.
struct PreviewServer {
    let tool: CommandLineTool
    let input: String
    let settings: PreviewSettings
    let useColor: Bool

    /// The page being served and the streams to notify, shared by the threads.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var page: [UInt8] = []
        private var streams: [Int32] = []
        private var version = 0

        func setPage(_ bytes: [UInt8]) {
            lock.lock()
            page = bytes
            version += 1
            let listeners = streams
            lock.unlock()
            let event = Array("event: reload\ndata: \(version)\n\n".utf8)
            for fd in listeners where !PreviewServer.send(fd, event) { removeStream(fd) }
        }

        func currentPage() -> [UInt8] {
            lock.lock(); defer { lock.unlock() }
            return page
        }

        func addStream(_ fd: Int32) {
            lock.lock(); defer { lock.unlock() }
            streams.append(fd)
        }

        func removeStream(_ fd: Int32) {
            lock.lock()
            let known = streams.contains(fd)
            streams.removeAll { $0 == fd }
            lock.unlock()
            if known { close(fd) }
        }
    }

    func run(port: Int) -> Int32 {
        guard tool.fileSystem.exists(input), !tool.fileSystem.isDirectory(input) else {
            tool.console.writeErr("animc preview: error: \(input): no such file\n")
            return CommandLineTool.ExitCode.usage
        }
        let state = State()
        var watched = rebuild(state, lastGood: nil)
        guard let listener = PreviewServer.listen(port: port) else {
            tool.console.writeErr("animc preview: error: cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))\n")
            return CommandLineTool.ExitCode.usage
        }
        tool.console.writeErr("serving \(input) at http://127.0.0.1:\(listener.port)/ (Ctrl-C stops)\n")
        signal(SIGPIPE, SIG_IGN)
        let acceptor = Thread {
            while true {
                let fd = accept(listener.fd, nil, nil)
                if fd < 0 { if errno == EINTR { continue }; return }
                Thread.detachNewThread { PreviewServer.handle(fd, state) }
            }
        }
        acceptor.start()
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
        var stamps = watched.files.map(PreviewServer.modificationStamp)
        while !stop.isSet {
            usleep(150_000)
            let now = watched.files.map(PreviewServer.modificationStamp)
            if now != stamps {
                watched = rebuild(state, lastGood: watched.lastGood)
                stamps = watched.files.map(PreviewServer.modificationStamp)
            }
        }
        sources.forEach { $0.cancel() }
        close(listener.fd)
        tool.console.writeErr("\nstopped\n")
        return CommandLineTool.ExitCode.success
    }

    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.lock(); value = true; lock.unlock() }
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    }

    /// Rebuilds the page; on errors, the last good source's page with the diagnostics.
    private func rebuild(_ state: State, lastGood: SourceFile?) -> (files: [String], lastGood: SourceFile?) {
        let builder = PreviewBuilder(tool: tool, settings: settings)
        guard let file = tool.readSource(input, command: "preview") else { return ([input], lastGood) }
        let page = builder.page(for: file, input: input, eventsPath: "/events")
        if !page.report.diagnostics.isEmpty {
            DiagnosticOutput(console: tool.console, useColor: useColor).emit([page.report], format: "human", summaryVerb: nil)
        }
        if let bytes = page.bytes {
            state.setPage(bytes)
            tool.console.writeErr("built \(input)\n")
            return (page.inputs, file)
        }
        let text = HumanRenderer().render(page.report.diagnostics, in: file)
        if let good = lastGood, let bytes = builder.page(for: good, input: input, diagnosticsOverStage: [text], eventsPath: "/events").bytes {
            state.setPage(bytes)
        } else {
            state.setPage(PreviewServer.errorPage(text))
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

    // MARK: Sockets

    static func listen(port: Int) -> (fd: Int32, port: Int)? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1 only
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc_listen(fd) == 0 else { close(fd); return nil }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Reads the request head (up to 16 KiB), answers, and closes, except for the
    /// event stream, which stays open until the page goes away.
    static func handle(_ fd: Int32, _ state: State) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16384 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            head += buffer[0..<n]
            if findHeadEnd(head) { break }
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        guard requestLine.count >= 2 else { _ = send(fd, response(400, "text/plain", Array("bad request\n".utf8))); close(fd); return }
        let method = requestLine[0], target = requestLine[1]
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard method == "GET" || method == "HEAD" else {
            _ = send(fd, response(405, "text/plain", Array("method not allowed\n".utf8)))
            close(fd)
            return
        }
        switch path {
        case "/", "/index.html":
            _ = send(fd, response(200, "text/html; charset=utf-8", state.currentPage(), head: method == "HEAD"))
            close(fd)
        case "/events":
            let headers = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n: animc\n\n"
            guard send(fd, Array(headers.utf8)) else { close(fd); return }
            state.addStream(fd)
            // Wait for the page to go away (the read returns 0) and then forget it;
            // the timeout set above only shortens each wait.
            var timeout = timeval(tv_sec: 0, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            while true {
                let n = read(fd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
            }
            state.removeStream(fd)
        default:
            // Nothing but the page and its events: no file is served, so no path can
            // reach outside the preview.
            _ = send(fd, response(404, "text/plain", Array("not found\n".utf8), head: method == "HEAD"))
            close(fd)
        }
    }

    static func findHeadEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return true }
        return false
    }

    static func response(_ status: Int, _ type: String, _ body: [UInt8], head: Bool = false) -> [UInt8] {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"][status] ?? "Error"
        let header = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        return Array(header.utf8) + (head ? [] : body)
    }
}

/// `listen(2)` under a name that does not clash with the type's own `listen(port:)`.
private func Glibc_listen(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.listen(fd, 64)
    #else
    return Darwin.listen(fd, 64)
    #endif
}
