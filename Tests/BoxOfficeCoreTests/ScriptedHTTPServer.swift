import Foundation
import NIOConcurrencyHelpers
import Synchronization
import TestSupport

/// A loopback HTTP/1.1 server for the transport's tests: each request head it reads is answered with the bytes
/// `reply` gives for the request's number (counted across connections from 0), and the connection is then kept,
/// closed, or left silent, as the reply says. It counts the connections it accepted and keeps every request head.
final class ScriptedHTTPServer: Sendable {
    struct Reply: Sendable {
        var bytes: [UInt8]
        /// Close the connection after writing.
        var close = false
        /// Write `bytes`, then say nothing more and keep the connection open until the server stops.
        var stall = false

        static func ok(_ body: String, headers: String = "") -> Reply {
            Reply(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)".utf8))
        }
    }

    let port: Int
    private let listener: Int32
    private let reply: @Sendable (Int) -> Reply
    private let state = NIOLockedValueBox<(requests: [String], accepted: Int, open: [Int32])>(([], 0, []))
    private let stopped = Atomic<Bool>(false)

    init(reply: @escaping @Sendable (Int) -> Reply) {
        self.reply = reply
        guard let (fd, port) = LoopbackSocket.make(listening: 16) else { preconditionFailure("no loopback socket") }
        listener = fd
        self.port = port
        Thread { [self] in acceptLoop() }.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var accepted: Int { state.withLockedValue { $0.accepted } }
    var requests: [String] { state.withLockedValue { $0.requests } }

    /// Stops accepting and ends every connection still open. A connection's descriptor is closed (and forgotten)
    /// under the same lock this shuts them down under: a number closed and reused meanwhile (by another test's
    /// server or client) is never shut down here, which once reset a connection of a test running beside this one.
    func stop() {
        stopped.store(true, ordering: .releasing)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        state.withLockedValue { state in
            for fd in state.open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            state.withLockedValue {
                $0.accepted += 1
                $0.open.append(fd)
            }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            state.withLockedValue { state in
                state.open.removeAll { $0 == fd }
                close(fd)
            }
        }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return }
                pending += buffer[..<count]
                continue
            }
            let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<end.upperBound)
            let number = state.withLockedValue { state -> Int in
                state.requests.append(head)
                return state.requests.count - 1
            }
            let answer = reply(number)
            _ = answer.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if answer.stall {
                while read(fd, &buffer, buffer.count) > 0 {}
                return
            }
            if answer.close { return }
        }
    }
}
