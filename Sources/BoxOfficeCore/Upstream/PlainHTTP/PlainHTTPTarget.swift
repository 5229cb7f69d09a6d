/// Where a plain `http://` URL points, read without a URL parser: the host and port to connect to, the `Host`
/// header, and the request target (path and query) sent as written.
///
/// Only the URLs the worker builds for its API calls are read here (scheme `http`, a host, an optional port, a path
/// and query of printable ASCII); anything else — `https`, user information, a fragment, a space, a byte outside
/// ASCII — is nil, and the call goes through AsyncHTTPClient as before, which parses and refuses as it always did.
/// Why not `URLComponents`: reading the URL was 5 µs of every uncached call in AsyncHTTPClient (issue 43), and
/// these URLs have one shape.
struct PlainHTTPTarget: Equatable, Sendable {
    var host: String
    var port: Int
    /// `host`, or `host:port` when the port is not 80 (IPv6 literals in brackets), as AsyncHTTPClient writes it.
    var hostHeader: String
    /// The path and query, `/` when the URL has none.
    var requestTarget: String

    /// The pool's key: one set of idle connections per host and port.
    var origin: String { "\(host):\(port)" }

    init?(_ url: String) {
        var rest = Substring(url)
        guard rest.count > 7, rest.prefix(7).lowercased() == "http://" else { return nil }
        rest = rest.dropFirst(7)
        // Printable ASCII only, nothing the server could read as a second line or another target.
        guard rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !rest.contains("#"), !rest.contains("\\") else {
            return nil
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        let hostPart: Substring
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Self.port(after.dropFirst()) else { return nil }
                port = number
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                hostPart = authority[..<colon]
                guard let number = Self.port(authority[authority.index(after: colon)...]) else { return nil }
                port = number
            } else {
                hostPart = authority
            }
            guard !hostPart.isEmpty,
                hostPart.utf8.allSatisfy({ byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                        || byte == 0x2D || byte == 0x2E
                })
            else { return nil }
        }
        host = String(hostPart)
        self.port = port
        let shownHost = authority.hasPrefix("[") ? "[\(host)]" : host
        hostHeader = port == 80 ? shownHost : "\(shownHost):\(port)"
        let target = rest[authorityEnd...]
        requestTarget = target.hasPrefix("/") ? String(target) : "/" + target
    }

    private static func port(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(digits), number > 0, number <= 65_535
        else { return nil }
        return number
    }
}
