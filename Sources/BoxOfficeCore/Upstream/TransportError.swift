/// Why an HTTP exchange failed below the HTTP level. Messages never hold a URL with a key.
package struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        case connect, timeout, reset, tooLarge, redirect, other
        /// The destination is not allowed (a download to a private address).
        case refused
        /// The whole exchange took longer than the deadline (not retried: the deadline is the call's, not an
        /// attempt's).
        case deadline
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether trying again may help (the connection or the time failed, not the request).
    package var isTransient: Bool {
        switch kind {
        case .connect, .timeout, .reset: true
        case .tooLarge, .redirect, .other, .refused, .deadline: false
        }
    }

    package var description: String { "\(kind.rawValue): \(message)" }
}
