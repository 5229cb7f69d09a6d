/// Sends HTTP requests; injected so tests and offline mode never touch the network.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportError) -> HTTPResponse
}
