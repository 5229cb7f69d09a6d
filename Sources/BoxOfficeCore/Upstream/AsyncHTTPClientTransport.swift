import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The production transport: one shared AsyncHTTPClient (connection reuse), a size cap on bodies, and redirects
/// followed here — at most three, and only to the same host, so a redirect can never carry a request (or a key)
/// to another service.
package final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    package let maximumBodyBytes: Int

    package init(maximumBodyBytes: Int = 16 << 20) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(5))
        // The default of 8 connections per host would split a fan-out of ten details (or ten posters) into two
        // waves; the per-service bound of the fetcher chain is what limits concurrency.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Closes the client's connections; call once at exit.
    package func shutdown() async {
        try? await client.shutdown()
    }

    package func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportError) -> HTTPResponse {
        var url = request.url
        var redactedURL = request.redactedURL
        for _ in 0...3 {
            var http = HTTPClientRequest(url: url)
            for (name, value) in request.headers { http.headers.add(name: name, value: value) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(
                    http,
                    timeout: .nanoseconds(
                        Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds
                            / 1_000_000_000))
            } catch {
                throw Self.map(error, redactedURL)
            }
            let status = Int(response.status.code)
            if (300..<400).contains(status), let location = response.headers.first(name: "location") {
                let target =
                    request.redirectsToAnyHost
                    ? Self.webTarget(location, from: url) : Self.sameHostTarget(location, from: url)
                guard let next = target else {
                    throw TransportError(
                        .redirect,
                        "\(redactedURL) redirects to \(request.redirectsToAnyHost ? "a URL that is not http or https" : "another host"), which is not followed"
                    )
                }
                url = next
                redactedURL = next.contains("key=") ? String(next.prefix { $0 != "?" }) + "?…" : next
                continue
            }
            let cap = min(request.maximumBytes ?? maximumBodyBytes, maximumBodyBytes)
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > cap {
                throw TransportError(.tooLarge, "the body of \(redactedURL) is larger than \(cap) bytes")
            }
            do {
                let buffer = try await response.body.collect(upTo: cap)
                return HTTPResponse(
                    status: status, contentType: response.headers.first(name: "content-type"),
                    body: Array(buffer.readableBytesView))
            } catch let error as NIOTooManyBytesError {
                _ = error
                throw TransportError(.tooLarge, "the body of \(redactedURL) is larger than \(cap) bytes")
            } catch {
                throw Self.map(error, redactedURL)
            }
        }
        throw TransportError(.redirect, "\(redactedURL) redirects more than 3 times")
    }

    /// The absolute URL of a redirect target when it is http or https (relative targets resolve against `url`),
    /// or nil.
    static func webTarget(_ location: String, from url: String) -> String? {
        guard let base = URL(string: url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        return target.absoluteString
    }

    /// The absolute URL of a redirect target on the same host (http → https upgrades and port changes allowed: a
    /// key may only ever reach the host it was meant for), or nil. Hosts are read by `URLComponents`, which knows
    /// IPv6 literals (`[::1]:8080`) and user information (`user@host`).
    static func sameHostTarget(_ location: String, from url: String) -> String? {
        guard let target = webTarget(location, from: url),
            let from = URLComponents(string: url)?.host?.lowercased(),
            let to = URLComponents(string: target)?.host?.lowercased()
        else { return nil }
        return from == to ? target : nil
    }

    static func map(_ error: any Error, _ redactedURL: String) -> TransportError {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded, .writeTimeout:
                return TransportError(.timeout, "no answer in time from \(redactedURL)")
            case .remoteConnectionClosed, .cancelled:
                return TransportError(.reset, "the connection to \(redactedURL) closed before the answer was complete")
            default:
                return TransportError(.other, "HTTP client error \(error.shortDescription) for \(redactedURL)")
            }
        }
        switch error {
        case is NIOConnectionError, ChannelError.connectTimeout, ChannelError.connectPending:
            return TransportError(.connect, "cannot connect to \(redactedURL)")
        case ChannelError.ioOnClosedChannel, ChannelError.eof, ChannelError.outputClosed, ChannelError.inputClosed:
            return TransportError(.reset, "the connection to \(redactedURL) closed before the answer was complete")
        case let error as IOError:
            return TransportError(.reset, "the connection to \(redactedURL) failed (errno \(error.errnoCode))")
        default:
            break
        }
        return TransportError(.other, "\(type(of: error)) for \(redactedURL)")
    }
}
