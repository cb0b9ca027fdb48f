import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview's HTTP/1.1 server: `GET /` is the page, `GET /events` a Server-Sent
/// Events stream that says when the page changed (`event: reload`, `data: VERSION`),
/// `GET /update?from=VERSION` what changed since that version (the page's data as
/// ``PreviewData/update(from:oldVersion:version:events:)`` writes it, or the whole data
/// when the server does not hold that version), anything else 404, on 127.0.0.1 only.
///
/// One thread serves every connection with non-blocking sockets and `poll`, so what one
/// client does never holds up another, and what a connection costs is bounded: the page
/// and its data are immutable arrays every response shares; a request head must arrive
/// whole within ``Limits/headTimeout`` (a client that drips bytes is dropped, unanswered); a response
/// that makes no progress for ``Limits/stallTimeout`` is dropped (a client that never
/// reads); at most ``Limits/maxConnections`` are open at once. Only requests addressed to
/// `127.0.0.1:PORT` or `localhost:PORT` are answered, so a page from another origin
/// cannot read the preview through DNS rebinding.
final class PreviewHTTPServer: @unchecked Sendable {
    struct Limits {
        var maxConnections = 1000
        var headTimeout: Duration = .seconds(5)
        var stallTimeout: Duration = .seconds(10)
        var maxHead = 16 << 10
        /// Event bytes a stream may leave unread before it is dropped.
        var maxStreamBacklog = 64 << 10
    }

    let port: Int
    let limits: Limits
    private let listener: Int32
    /// Written to wake the serving thread when the page changes or the server stops.
    private let wake: (read: Int32, write: Int32)
    private let lock = NSLock()
    private var content = Content(page: [], version: 0)
    private var stopped = false

    /// What is served for one version of the page.
    struct Content {
        /// The page, in pieces written one after another: a page with data is its
        /// shell around the data, so that the data is held once.
        var page: [[UInt8]]
        var version: Int
        /// The page's data, for `/update` from a version the server does not hold; nil
        /// when the page has none (an error page: `/update` is then 404, and the page
        /// reloads).
        var data: [UInt8]? = nil
        /// What changed since the version before, for `/update?from=` that version.
        var update: (from: Int, bytes: [UInt8])? = nil
    }

    /// Listens on 127.0.0.1:`port` (0 for any free port); nil when that fails.
    init?(port: Int, limits: Limits = Limits()) {
        guard let (fd, actual) = PreviewHTTPServer.listen(port: port) else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(fd)
            return nil
        }
        for f in [fd, fds[0], fds[1]] { _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK) }
        listener = fd
        self.port = actual
        wake = (fds[0], fds[1])
        self.limits = limits
    }

    /// Serves `content` from now on and tells every open page that it changed; its
    /// version is newer than ``version`` (the number its page and data carry).
    func setContent(_ content: Content) {
        lock.lock()
        self.content = content
        lock.unlock()
        poke()
    }

    /// Serves a page without data (an error page) from now on.
    func setPage(_ bytes: [UInt8]) {
        lock.lock()
        content = Content(page: [bytes], version: content.version + 1)
        lock.unlock()
        poke()
    }

    /// The version being served.
    var version: Int {
        lock.lock()
        defer { lock.unlock() }
        return content.version
    }

    /// Ends ``serve()``; its connections are closed.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func snapshot() -> (content: Content, stopped: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (content, stopped)
    }

    // MARK: Connections

    private final class Connection {
        let fd: Int32
        let opened: ContinuousClock.Instant
        var head: [UInt8] = []
        /// What is still to be written: chunks (the page among them, shared) and how far
        /// into the first one.
        var output: [[UInt8]] = []
        var written = 0
        var lastProgress: ContinuousClock.Instant
        var isStream = false
        var closeWhenWritten = false
        /// The client closed its side: nothing more to read.
        var inputEnded = false

        init(fd: Int32, now: ContinuousClock.Instant) {
            self.fd = fd
            opened = now
            lastProgress = now
        }

        var pending: Int { output.reduce(0) { $0 + $1.count } - written }
        var answered: Bool { isStream || closeWhenWritten }
    }

    /// Serves until ``stop()``.
    func serve() {
        let clock = ContinuousClock()
        var connections: [Int32: Connection] = [:]
        var announced = snapshot().content.version
        func drop(_ c: Connection) {
            close(c.fd)
            connections[c.fd] = nil
        }
        while true {
            let state = snapshot()
            if state.stopped { break }
            if state.content.version != announced {
                announced = state.content.version
                let event = Array("event: reload\ndata: \(announced)\n\n".utf8)
                for c in connections.values where c.isStream {
                    c.output.append(event)
                    if c.pending > limits.maxStreamBacklog { drop(c) }
                }
            }
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if connections.count < limits.maxConnections { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            for c in connections.values {
                var events = c.inputEnded ? Int16(0) : Int16(POLLIN)
                if c.pending > 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: c.fd, events: events, revents: 0))
            }
            // Wake at least every 250 ms to apply the timeouts.
            let ready = poll(&fds, nfds_t(fds.count), 250)
            if ready < 0 && errno != EINTR { break }
            let now = clock.now
            for p in fds where p.revents != 0 {
                if p.fd == wake.read {
                    var sink = [UInt8](repeating: 0, count: 64)
                    while read(wake.read, &sink, sink.count) > 0 {}
                } else if p.fd == listener {
                    acceptAll(&connections, now: now)
                } else if let c = connections[p.fd] {
                    if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !readFrom(c, state.content) { drop(c); continue }
                    if p.revents & Int16(POLLOUT) != 0 || c.pending > 0, !writeTo(c, now: now) { drop(c); continue }
                    if c.closeWhenWritten && c.pending == 0 { drop(c) }
                }
            }
            for c in Array(connections.values) {
                if !c.answered && now - c.opened > limits.headTimeout {
                    drop(c)  // a head that drips in is never answered: it would hold the page
                } else if c.pending > 0 && now - c.lastProgress > limits.stallTimeout {
                    drop(c)  // a client that does not read
                }
            }
        }
        for c in connections.values { close(c.fd) }
        close(listener)
        close(wake.read)
        close(wake.write)
    }

    private func acceptAll(_ connections: inout [Int32: Connection], now: ContinuousClock.Instant) {
        while connections.count < limits.maxConnections {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            connections[fd] = Connection(fd: fd, now: now)
        }
    }

    /// Reads what the client sent; false when it is gone (or sent too much).
    private func readFrom(_ c: Connection, _ content: Content) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(c.fd, $0.baseAddress, $0.count) }
            if n == 0 {
                // A client may close its side once it has asked; the answer still goes out.
                c.inputEnded = true
                return c.closeWhenWritten && c.pending > 0
            }
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            // After the head, what a client sends (a stream's keep-alives) is ignored.
            if c.answered { continue }
            c.head += buffer[0..<n]
            if let end = PreviewHTTPServer.headEnd(c.head) {
                respond(c, head: Array(c.head[0..<end]), content: content)
            } else if c.head.count > limits.maxHead {
                c.output = [PreviewHTTPServer.response(431, "text/plain", Array("request head too large\n".utf8))]
                c.closeWhenWritten = true
            }
        }
    }

    /// Writes what it can; false when the client is gone.
    private func writeTo(_ c: Connection, now: ContinuousClock.Instant) -> Bool {
        while let first = c.output.first {
            let n = first.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.send(c.fd, base + c.written, raw.count - c.written, Int32(MSG_NOSIGNAL))
                #else
                return Darwin.send(c.fd, base + c.written, raw.count - c.written, 0)
                #endif
            }
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            if n > 0 { c.lastProgress = now }
            c.written += n
            if c.written == first.count {
                c.output.removeFirst()
                c.written = 0
            } else {
                return true
            }
        }
        return true
    }

    // MARK: Requests

    private func respond(_ c: Connection, head: [UInt8], content: Content) {
        let lines = String(decoding: head, as: UTF8.self).split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        let requestLine = lines.first?.split(separator: " ") ?? []
        func answer(_ status: Int, _ text: String, head isHead: Bool = false) {
            c.output = [PreviewHTTPServer.response(status, "text/plain; charset=utf-8", Array((text + "\n").utf8), head: isHead)]
            c.closeWhenWritten = true
        }
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return answer(400, "bad request") }
        let method = requestLine[0]
        let target = requestLine[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = target.first.map(String.init) ?? "", query = target.count > 1 ? String(target[1]) : ""
        let host = lines.dropFirst().first { $0.lowercased().hasPrefix("host:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
        guard let host, allowedHosts.contains(host.lowercased()) else {
            return answer(421, "animc preview answers requests to http://127.0.0.1:\(port)/ and http://localhost:\(port)/ only")
        }
        guard method == "GET" || method == "HEAD" else { return answer(405, "method not allowed") }
        let isHead = method == "HEAD"
        switch path {
        case "/", "/index.html":
            // The page is shared, not copied: every response holds the same arrays.
            let page = content.page
            c.output = [PreviewHTTPServer.header(200, "text/html; charset=utf-8", length: page.reduce(0) { $0 + $1.count })] + (isHead ? [] : page)
            c.closeWhenWritten = true
        case "/update":
            guard let data = content.data else { return answer(404, "no data: reload the page", head: isHead) }
            let from = query.split(separator: "&").first { $0.hasPrefix("from=") }.flatMap { Int($0.dropFirst(5)) }
            let body = content.update.flatMap { $0.from == from ? $0.bytes : nil } ?? data
            c.output = [PreviewHTTPServer.header(200, "application/json", length: body.count)] + (isHead ? [] : [body])
            c.closeWhenWritten = true
        case "/events":
            if isHead {
                c.output = [Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n".utf8)]
                c.closeWhenWritten = true
            } else {
                let headers = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n: animc\n\n"
                c.output = [Array(headers.utf8)]
                c.isStream = true
            }
        default:
            // Nothing but the page and its events: no file is served, so no path can
            // reach outside the preview.
            answer(404, "not found", head: isHead)
        }
    }

    /// The Host values that name this server.
    private var allowedHosts: Set<String> {
        var hosts: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)"]
        if port == 80 { hosts.formUnion(["127.0.0.1", "localhost"]) }
        return hosts
    }

    /// Where the head ends (after its empty line, CRLF or LF alone), if it has.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                if i >= 1 && bytes[i - 1] == 0x0A { return i + 1 }
                if i >= 2 && bytes[i - 1] == 0x0D && bytes[i - 2] == 0x0A { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    static func header(_ status: Int, _ type: String, length: Int) -> [UInt8] {
        let reasons = [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 421: "Misdirected Request",
                       431: "Request Header Fields Too Large"]
        return Array(("HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n"
            + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n").utf8)
    }

    static func response(_ status: Int, _ type: String, _ body: [UInt8], head: Bool = false) -> [UInt8] {
        header(status, type, length: body.count) + (head ? [] : body)
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
        guard bound == 0, systemListen(fd, 128) == 0 else { close(fd); return nil }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }
}

/// `listen(2)` under a name that does not clash with the type's own `listen(port:)`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.listen(fd, backlog)
    #else
    return Darwin.listen(fd, backlog)
    #endif
}
