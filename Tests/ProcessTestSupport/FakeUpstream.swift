import Foundation
import TestSupport

/// A tiny HTTP/1.1 server on 127.0.0.1 for the live-path tests: it answers what the test's handler says, including
/// faults (resets, truncated bodies, slow answers), and records every request it gets.
///
/// Each connection gets a thread and one exchange (`Connection: close`). It listens on loopback only and stops
/// when the test drops it. Nothing here reaches beyond this machine.
package final class FakeUpstream: @unchecked Sendable {
    // @unchecked: `stopped` is guarded by `lock`; the socket is only closed once, in stop().

    package struct Request: Sendable {
        package let method: String
        package let path: String
        package let query: [String: String]
        package let headers: [String: String]
        /// The request line's target, exactly as received (to check what a URL carried).
        package let target: String
        /// When it arrived.
        package var received = ContinuousClock.now
    }

    package enum Reply: Sendable {
        case respond(
            status: Int, contentType: String = "application/json;charset=UTF-8", body: [UInt8], delay: Double = 0)
        /// Closes the connection without answering.
        case reset
        /// Declares `declared` bytes, sends `body`, and closes.
        case truncated(body: [UInt8], declared: Int)
        /// `302 Found` to `location`.
        case redirect(location: String)
        /// `status` with a `Retry-After: value` header and an empty JSON body.
        case retryAfter(status: Int, value: String)
        /// Declares `declared` bytes, sends `body`, then sends nothing more and keeps the connection open until the
        /// client closes it (a stalled body).
        case stalled(body: [UInt8], declared: Int)

        package static func json(_ text: String, status: Int = 200, delay: Double = 0) -> Reply {
            .respond(status: status, body: Array(text.utf8), delay: delay)
        }
    }

    private let handler: @Sendable (Request) -> Reply
    private let socket: Int32
    package let port: Int
    private let lock = NSLock()
    private let recorded = Watched<[Request]>([])
    private var stopped = false

    package init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        guard let (listener, port) = LoopbackSocket.make(listening: 64) else { throw POSIXError(.EADDRINUSE) }
        socket = listener
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    package var requests: [Request] { recorded.value }

    /// Waits until a request that `matches` has arrived; whether one did within `timeout` seconds.
    package func waitForRequest(timeout: Double = 20, where matches: @escaping @Sendable (Request) -> Bool) async
        -> Bool
    {
        await recorded.wait(timeout: timeout) { $0.contains(where: matches) }
    }

    package func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first {
            shutdown(socket, Int32(SHUT_RDWR))
            close(socket)
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done || errno == EBADF || errno == EINVAL { return }
                continue
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while !buffer.containsHeaderEnd {
            let count = read(client, &chunk, chunk.count)
            if count <= 0 { return }
            buffer += chunk[..<count]
        }
        guard let request = Self.parse(buffer) else { return }
        recorded.update { $0.append(request) }
        switch handler(request) {
        case .reset:
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        case .truncated(let body, let declared):
            write(client, Self.head(status: 200, contentType: "application/json", length: declared) + body)
        case .stalled(let body, let declared):
            write(client, Self.head(status: 200, contentType: "application/json", length: declared) + body)
            var scratch = [UInt8](repeating: 0, count: 1024)
            while read(client, &scratch, scratch.count) > 0 {}
        case .retryAfter(let status, let value):
            write(
                client,
                Array(
                    "HTTP/1.1 \(status) Status\r\nRetry-After: \(value)\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                        .utf8))
        case .redirect(let location):
            write(
                client,
                Array(
                    "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8
                ))
        case .respond(let status, let contentType, let body, let delay):
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }  // sleep-ok: an upstream that answers slowly
            write(client, Self.head(status: status, contentType: contentType, length: body.count) + body)
        }
    }

    private func write(_ client: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return }
            offset += written
        }
    }

    static func head(status: Int, contentType: String, length: Int) -> [UInt8] {
        Array(
            "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
                .utf8)
    }

    static func parse(_ bytes: [UInt8]) -> Request? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let target = String(parts[1])
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [String: String] = [:]
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).removingPercentEncoding ?? String($0)
                }
                query[keyValue[0]] = keyValue.count > 1 ? keyValue[1] : ""
            }
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let name = line.prefix { $0 != ":" }.lowercased()
            headers[name] = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
        }
        return Request(
            method: String(parts[0]), path: String(target[..<pathEnd]), query: query, headers: headers, target: target)
    }
}

extension [UInt8] {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4)
        where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
