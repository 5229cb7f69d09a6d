package import Foundation

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

    /// Seconds from now that a `Retry-After` value asks for (`120`, or an HTTP date), never below 0; nil when it
    /// is neither.
    package static func retryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite { return max(0, seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
