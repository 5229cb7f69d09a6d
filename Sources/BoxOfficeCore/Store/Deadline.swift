import NIOConcurrencyHelpers
import Synchronization

/// Runs an operation with a time limit that holds even when the operation ignores cancellation (a query on a
/// connection whose peer vanished): the caller gets an error at the deadline and the operation is cancelled and
/// left to end on its own.
///
/// Swift's task groups wait for every child, so a child stuck in a socket read would hold the caller past any
/// deadline; this races the operation and a timer in two unstructured tasks and resumes the caller with the first.
enum Deadline {
    static func run<T: Sendable>(
        _ limit: Duration, onExpiry: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = Once()
        return try await withCheckedThrowingContinuation { continuation in
            let work = Task {
                do {
                    let value = try await operation()
                    if once.claim() { continuation.resume(returning: value) }
                } catch {
                    if once.claim() { continuation.resume(throwing: error) }
                }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, once.claim() else { return }
                work.cancel()
                continuation.resume(throwing: onExpiry())
            }
            once.onClaimed { timer.cancel() }
        }
    }

    /// Lets exactly one of two racers resume the continuation.
    private final class Once: Sendable {
        private let claimed = Atomic<Bool>(false)
        private let after = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

        func claim() -> Bool {
            guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            after.withLockedValue { $0 }?()
            return true
        }

        /// Runs `action` once claimed (now, if already).
        func onClaimed(_ action: @escaping @Sendable () -> Void) {
            let now = after.withLockedValue { stored -> Bool in
                if claimed.load(ordering: .acquiring) { return true }
                stored = action
                return false
            }
            if now { action() }
        }
    }
}
