package import FoundationEssentials
import Glibc

package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String?
    package var body: [UInt8]
    /// `Retry-After`, as seconds from now (from seconds or an HTTP date), when the server sent one.
    package var retryAfter: Double?

    package init(status: Int, contentType: String?, body: [UInt8], retryAfter: Double? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.retryAfter = retryAfter
    }

    /// Seconds from now that a `Retry-After` value asks for (digits, or an HTTP date), between 0 and a day (a
    /// longer ask is a day: the call fails at once either way); nil when it is neither.
    package static func retryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let trimmed = value?.trimmingSpaces, !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return trimmed.utf8.count > 6 ? 86_400 : min(86_400, Double(trimmed) ?? 86_400)
        }
        return HTTPDate.seconds(trimmed[...]).map { min(86_400, max(0, $0 - now.timeIntervalSince1970)) }
    }
}
