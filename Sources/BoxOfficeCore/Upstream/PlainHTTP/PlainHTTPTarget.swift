/// Where a plain `http://` URL points, read without a URL parser: the host and port to connect to, the `Host`
/// header, and the request target (path and query) sent as written.
///
/// Only the URLs the worker builds for its API calls are read here (scheme `http`, a host, an optional port, a path
/// and query of the characters RFC 3986 lets stand unencoded there, percent escapes included); anything else —
/// `https`, user information, a fragment, a space, `"{}|^`, a byte outside ASCII — is nil, and the call goes through
/// AsyncHTTPClient as before, which parses, encodes and refuses as it always did.
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
        // Only what a path and query may hold unencoded: nothing a server could read as a second line or another
        // target, nothing a URL parser would have encoded or refused.
        guard rest.utf8.allSatisfy(Self.isURLCharacter) else { return nil }
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
        // Brackets stand only around an IPv6 host; a percent sign only before two hex digits.
        guard !target.contains("["), !target.contains("]"), Self.escapesAreWhole(target) else { return nil }
        requestTarget = target.hasPrefix("/") ? String(target) : "/" + target
    }

    /// RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/`, `?`, `%` (its escapes), and `[` `]` for an
    /// IPv6 literal's brackets (checked where they may stand).
    private static func isURLCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: Array("-._~!$&'()*+,;=:@/?%[]".utf8).contains(byte)
        }
    }

    private static func escapesAreWhole(_ text: Substring) -> Bool {
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else { continue }
            guard let high = bytes.next(), let low = bytes.next(), Character(Unicode.Scalar(high)).isHexDigit,
                Character(Unicode.Scalar(low)).isHexDigit
            else { return false }
        }
        return true
    }

    private static func port(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(digits), number > 0, number <= 65_535
        else { return nil }
        return number
    }
}
