import JSONCore
import NIOConcurrencyHelpers

/// The requests being worked on, for duplicate ids, `$/cancelRequest` and the shutdown drain.
///
/// Requests are registered on the responder thread in reading order, so "still in flight" means exactly: read earlier
/// and not yet answered. Work without a usable id (notifications, `"id": null`) is tracked anonymously: it cannot be
/// named by `$/cancelRequest`, but shutdown still cancels it.
final class InFlightRequests: Sendable {
    /// How a registered piece of work is found again.
    enum Key: Sendable, Hashable {
        case id(JSONValue)
        case anonymous(UInt64)
    }

    /// One piece of work in flight.
    struct Registration: Sendable {
        let key: Key
        let signal: CancellationSignal
    }

    private struct State {
        var byKey: [Key: CancellationSignal] = [:]
        var nextAnonymous: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Registers work. The caller checked ``contains(id:)`` first, on the same (responder) thread, which is the
    /// only one that registers: an id cannot be taken in between.
    func register(id: JSONValue?) -> Registration {
        state.withLockedValue { state in
            let key: Key
            if let id, !id.isNull {
                key = .id(id)
            } else {
                state.nextAnonymous += 1
                key = .anonymous(state.nextAnonymous)
            }
            let signal = CancellationSignal()
            state.byKey[key] = signal
            return Registration(key: key, signal: signal)
        }
    }

    /// Whether a request with `id` is in flight (a `null` id never is).
    func contains(id: JSONValue) -> Bool {
        !id.isNull && state.withLockedValue { $0.byKey[.id(id)] != nil }
    }

    func remove(_ registration: Registration) {
        _ = state.withLockedValue { $0.byKey.removeValue(forKey: registration.key) }
    }

    /// Cancels request `id`; an unknown or finished id is ignored, as the protocol says.
    func cancel(id: JSONValue) {
        state.withLockedValue { $0.byKey[.id(id)] }?.fire(byShutdown: false)
    }

    /// Cancels everything in flight (the end of a shutdown drain).
    func cancelAll() {
        for signal in state.withLockedValue({ Array($0.byKey.values) }) {
            signal.fire(byShutdown: true)
        }
    }
}
