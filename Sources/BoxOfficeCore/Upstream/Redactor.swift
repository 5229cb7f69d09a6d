import Foundation

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

    /// - Parameter secrets: keys, passwords, tokens; empty ones and those under 4 characters are ignored (they would
    ///   match ordinary text; no real key is that short), except a `user:password` pair, which counts whole. Each is
    ///   also taken out percent-encoded (every character but letters and digits, and the URL query's own encoding,
    ///   which leaves `-._~`) and JSON-escaped (`/` as `\/`).
    package init(_ secrets: [String]) {
        var all = Set<String>()
        let query = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        for secret in secrets where secret.utf8.count >= 4 || (secret.contains(":") && secret.utf8.count >= 2) {
            all.insert(secret)
            for allowed in [CharacterSet.alphanumerics, query] {
                if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed), encoded != secret {
                    all.insert(encoded)
                }
            }
            if secret.contains("/") { all.insert(secret.replacingOccurrences(of: "/", with: "\\/")) }
        }
        self.secrets = all.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    }

    /// Nothing to take out.
    package static let none = Redactor([])

    /// `text` with every secret replaced by ``mark``, and the credential after any `KakaoAK ` too.
    package func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mark)
        }
        if result.contains("KakaoAK") {
            result = result.replacing(/KakaoAK\s+[^\s"'\\,;]+/, with: "KakaoAK \(Self.mark)")
        }
        return result
    }

    /// `bytes` with every secret replaced by ``mark`` (the same rule over UTF-8); the same array when none occurs,
    /// which is nearly always: the check is a byte search, with no copy.
    package func redact(_ bytes: [UInt8]) -> [UInt8] {
        guard containsSecret(bytes) else { return bytes }
        return Array(redact(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Whether `bytes` hold a secret or a `KakaoAK` credential.
    package func containsSecret(_ bytes: [UInt8]) -> Bool {
        for secret in secrets + ["KakaoAK"] where Self.find(Array(secret.utf8), in: bytes) {
            return true
        }
        return false
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
