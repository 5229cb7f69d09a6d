import Dispatch
import Foundation

/// Turns SIGTERM/SIGINT into a call on a dispatch queue instead of the default "die at once".
///
/// Why not swift-service-lifecycle: its `ServiceGroup` runs services that end when their task is cancelled, and
/// turns a signal into that cancellation. The worker's stop is not a cancellation: SIGTERM must stop reading and
/// let the work in flight drain for `--drain-seconds` while answers are still written, which the server does
/// itself (``RPCServer/shutdown()``); wrapping it as a service would add a task tree and a dependency for the
/// twenty lines here.
///
/// `@unchecked Sendable`: the sources are created in `init`, never replaced, and `cancel()` is thread-safe in
/// libdispatch; the only reason the compiler cannot see it is that `DispatchSourceSignal` is not marked Sendable.
final class SignalWatcher: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "boxoffice-worker.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
