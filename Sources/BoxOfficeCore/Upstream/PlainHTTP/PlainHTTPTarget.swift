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
        var url = url
        guard let target = url.withUTF8({ Self.read($0) }) else { return nil }
        self = target
    }

    private init(host: String, port: Int, bracketed: Bool, requestTarget: String) {
        self.host = host
        self.port = port
        let shownHost = bracketed ? "[\(host)]" : host
        hostHeader = port == 80 ? shownHost : "\(shownHost):\(port)"
        self.requestTarget = requestTarget
    }

    /// Reads the URL's bytes: every check on bytes, never on `Character`s (a grapheme walk per character was most of
    /// this reading's cost).
    private static func read(_ url: UnsafeBufferPointer<UInt8>) -> PlainHTTPTarget? {
        // The scheme in any case, as URL parsers read it.
        let lowered = url.prefix(7).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        guard url.count > 7, lowered.elementsEqual("http://".utf8) else { return nil }
        let rest = url[7...]
        // Only what a path and query may hold unencoded: nothing a server could read as a second line or another
        // target, nothing a URL parser would have encoded or refused.
        guard rest.allSatisfy(urlCharacters.contains) else { return nil }
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
        let hostPart: Slice<UnsafeBufferPointer<UInt8>>
        var port = 80
        let bracketed = authority.first == UInt8(ascii: "[")
        if bracketed {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":"), let number = Self.port(after.dropFirst()) else { return nil }
                port = number
            }
            guard !hostPart.isEmpty,
                hostPart.allSatisfy({ ASCIISet.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostPart = authority[..<colon]
                guard let number = Self.port(authority[(colon + 1)...]) else { return nil }
                port = number
            } else {
                hostPart = authority
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy(hostCharacters.contains) else { return nil }
        }
        let target = rest[authorityEnd...]
        // Brackets stand only around an IPv6 host; a percent sign only before two hex digits.
        guard !target.contains(UInt8(ascii: "[")), !target.contains(UInt8(ascii: "]")), escapesAreWhole(target)
        else { return nil }
        let path = String(decoding: target, as: UTF8.self)
        return PlainHTTPTarget(
            host: String(decoding: hostPart, as: UTF8.self), port: port, bracketed: bracketed,
            requestTarget: target.first == UInt8(ascii: "/") ? path : "/" + path)
    }

    /// RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/`, `?`, `%` (its escapes), and `[` `]` for an
    /// IPv6 literal's brackets (checked where they may stand).
    private static let urlCharacters = ASCIISet(lettersDigitsAnd: "-._~!$&'()*+,;=:@/?%[]")
    /// A registered name's: letters, digits, hyphens and dots.
    private static let hostCharacters = ASCIISet(lettersDigitsAnd: "-.")

    private static func escapesAreWhole(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var bytes = text.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else { continue }
            guard let high = bytes.next(), let low = bytes.next(), ASCIISet.isHexDigit(high), ASCIISet.isHexDigit(low)
            else { return false }
        }
        return true
    }

    private static func port(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard number > 0, number <= 65_535 else { return nil }
        return number
    }
}
