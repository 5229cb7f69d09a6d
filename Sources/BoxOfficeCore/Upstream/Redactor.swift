import FoundationEssentials
import Glibc
import JSONCore

/// Takes the worker's secrets out of text and bytes: the configured API keys (as they are and percent-encoded), any
/// `KakaoAK <credential>` an upstream echoes, and the user information and query strings of the configured base URLs.
///
/// Where it sits: ``LiveFetcher`` passes every upstream body through ``redact(_:)-bytes`` before handing it on, and
/// builds every message it makes from ``redact(_:)-text`` and from URLs that never held a secret. Every byte from an
/// upstream service enters the process through ``HTTPTransport`` called by ``LiveFetcher`` (the API calls) or by
/// ``PosterDownloader`` (images, which send no key and whose URLs come from bodies already redacted), so nothing
/// built later (an answer's message or `upstreamMessage`, MCP content, a log line, the CLI's stderr, a stored body)
/// can hold a secret that was not there first.
package struct Redactor: Sendable, Hashable {
    /// What replaces a secret.
    package static let mark = "REDACTED"
    /// Secrets to take out, longest first (a key that contains another is replaced whole).
    package let secrets: [String]
    /// What ``containsSecret(_:)`` searches bytes for: every secret and `KakaoAK`, as bytes once.
    private let needles: [[UInt8]]

    /// - Parameter secrets: keys, passwords, tokens; empty ones and those under 4 characters are ignored (they would
    ///   match ordinary text; no real key is that short), except a `user:password` pair, which counts whole. Each is
    ///   also taken out percent-encoded (every character but letters and digits, and the URL query's own encoding,
    ///   which leaves `-._~`) and JSON-escaped (`/` as `\/`).
    package init(_ secrets: [String]) {
        var all = Set<String>()
        for secret in secrets where secret.utf8.count >= 4 || (secret.contains(":") && secret.utf8.count >= 2) {
            all.insert(secret)
            for unreserved in ["", "-._~"] {
                let encoded = PercentEncoding.encode(secret, keeping: unreserved)
                if encoded != secret { all.insert(encoded) }
            }
            if secret.contains("/") { all.insert(secret.replacing("/", with: "\\/")) }
        }
        self.secrets = all.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
        needles = (self.secrets + ["KakaoAK"]).map { Array($0.utf8) }
    }

    /// Nothing to take out.
    package static let none = Redactor([])

    /// `text` with every secret replaced by ``mark``, and the credential after any `KakaoAK ` too.
    package func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mark)
        }
        if result.contains("KakaoAK") {
            result = result.replacing(/KakaoAK\s+[^\s"'\\,;]+/, with: "KakaoAK \(Self.mark)")
        }
        return result
    }

    /// `bytes` with every secret replaced by ``mark``; the same array when none occurs, which is nearly always: the
    /// check is a byte search, with no copy.
    ///
    /// A body that is JSON is redacted where a value carries a secret, after decoding, and written again:
    /// - a key echoed with JSON escapes (`\u006b\u006f…`) is a secret once decoded, so the escaped forms count too
    ///   (``containsSecret(_:)`` looks at the body with its ASCII `\u00XX` escapes read);
    /// - member names are never touched: a base URL's password `movieNm` or query value `rank` must not rename
    ///   the members every answer is read by (it once turned every answer into `upstream_malformed`).
    /// A body that is not JSON (an HTML error page) is redacted as text.
    package func redact(_ bytes: [UInt8]) -> [UInt8] {
        guard containsSecret(bytes) else { return bytes }
        if let document = try? JSONParser.parse(bytes) {
            return JSONSerializer.serialize(redactValues(document))
        }
        return Array(redact(String(decoding: Self.unescapingASCII(bytes), as: UTF8.self)).utf8)
    }

    /// `value` with every string value redacted (member names kept).
    private func redactValues(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(redact(text))
        case .array(let items): .array(items.map(redactValues))
        case .object(let members): .object(members.mapValues(redactValues))
        default: value
        }
    }

    /// Whether `bytes` hold a secret or a `KakaoAK` credential, as they are or with their ASCII JSON escapes read.
    package func containsSecret(_ bytes: [UInt8]) -> Bool {
        if holdsSecret(bytes) { return true }
        // `\u00` starts every escape of an ASCII character.
        guard ByteSearch.contains(Self.asciiEscape, in: bytes) else { return false }
        return holdsSecret(Self.unescapingASCII(bytes))
    }

    private func holdsSecret(_ bytes: [UInt8]) -> Bool {
        needles.contains { ByteSearch.contains($0, in: bytes) }
    }

    private static let asciiEscape = Array(#"\u00"#.utf8)

    /// `bytes` with every `\u00XX` escape of a printable ASCII character replaced by the character: what a
    /// secret looks like once the JSON is read. (An escaped backslash, `\\u0041`, is read as an escape too: the
    /// result is only searched, or redacted when the body is not JSON.)
    static func unescapingASCII(_ bytes: [UInt8]) -> [UInt8] {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "0"),
                let high = hex(bytes[index + 4]), let low = hex(bytes[index + 5]),
                (0x20...0x7E).contains(high << 4 | low)
            {
                out.append(high << 4 | low)
                index += 6
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
