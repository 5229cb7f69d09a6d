import FoundationEssentials
import Glibc
import JSONRPC

/// The write end of the pipe that the signal handler writes to: a global, because a C signal handler captures
/// nothing. Set once, before the handlers are installed.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Turns SIGTERM/SIGINT into a call on a thread of its own instead of the default "die at once".
///
/// The handler is installed with `sigaction` before anything is served and only writes the signal's number to a
/// pipe (async-signal-safe); a thread reads the pipe and calls `handler`. Why not a `DispatchSourceSignal`: its
/// registration completes asynchronously after the disposition is set to ignore, so a signal arriving in between
/// was lost (seen under load: a worker that answered a ping and then ignored SIGINT). Why not
/// swift-service-lifecycle: it uses the same dispatch sources, and its `ServiceGroup` turns a signal into task
/// cancellation, while the worker's stop must stop reading and let the work in flight drain for `--drain-seconds`
/// with answers still written, which the server does itself (`RPCServer.shutdown()`).
///
/// `@unchecked Sendable`: the descriptors are set in `init` and only closed by `cancel()`.
final class SignalWatcher: @unchecked Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let signals: [Int32]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        readEnd = ends[0]
        writeEnd = ends[1]
        signalPipeWrite = writeEnd
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalPipeWrite, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in signals {
            sigaction(number, &action, nil)
        }
        let readEnd = self.readEnd
        DetachedThread.start(name: "signals") {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    handler(Int32(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(readEnd)
        }
    }

    /// Stops watching: further signals are ignored (the session is ending) and the watching thread ends.
    func cancel() {
        for number in signals {
            signal(number, SIG_IGN)
        }
        close(writeEnd)
    }
}
