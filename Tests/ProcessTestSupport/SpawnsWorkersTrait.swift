import Foundation
import NIOConcurrencyHelpers
package import Testing

/// At most as many tests of the suites that carry it run at once as the machine has cores.
///
/// Each such test starts worker processes (and fake upstreams) and holds them to per-call timeouts of a second or
/// less. Without a bound, Swift Testing started all of them together: some forty workers at once, which under
/// ThreadSanitizer on two cores ran the live path's timeouts out (a fresh-clone `--full` run). Waiting for a place
/// is a continuation, not a blocked thread.
package struct SpawnsWorkersTrait: SuiteTrait, TestTrait, TestScoping {
    private static let places = Places(ProcessInfo.processInfo.activeProcessorCount)

    /// Each test of the suite, and each case of a parameterized test, takes a place of its own.
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope, and a test's around its cases, only pass through: a place is taken per case, never
        // twice by one test.
        guard testCase != nil, !test.isSuite else { return try await function() }
        await Self.places.take()
        defer { Self.places.give() }
        try await function()
    }

    /// A counting semaphore for tasks: first come, first served.
    final class Places: Sendable {
        private let state: NIOLockedValueBox<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

        init(_ count: Int) {
            state = NIOLockedValueBox((max(1, count), []))
        }

        func take() async {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state -> Bool in
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func give() {
            let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty {
                    state.free += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
    }
}

extension Trait where Self == SpawnsWorkersTrait {
    /// The suite's tests start worker processes; see ``SpawnsWorkersTrait``.
    package static var spawnsWorkers: Self { SpawnsWorkersTrait() }
}
