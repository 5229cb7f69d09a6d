import CGlibcGNU
import Glibc
import JSONRPC
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Reads stdin on the event loop the jobs and their upstream exchanges run on (``InputPump``): a request that
/// arrives while the worker waits is read, parsed, started and sent upstream in one turn of the loop, where a
/// reader thread took two wake-ups to get it there (issue 43).
///
/// Only a pipe, the stdin every host that spawns the worker gives it; a terminal, a socket or a regular file is
/// read by the server's reader thread as before. The pipe is opened again (`/proc/self/fd/0`), so the
/// non-blocking mode NIO sets is on an open file description of the worker's own: set on stdin's, it would be set on
/// the host's end too, and a host's shell or a sibling sharing it would see `EAGAIN`. Without `/proc`, or when NIO
/// cannot take the pipe, the reader thread reads.
///
/// One read at a time (`maxMessagesPerRead` 1, reads asked for, not automatic), so a sink that asks for a pause gets
/// no further chunk until it resumes.
///
/// The loop's thread parses and classifies what it reads, recursively for nested JSON; the reader thread has a
/// 16 MiB stack of its own for that, the loop's thread the default a thread gets (from `ulimit -s`; NIO asks for no
/// size). Jansson's deepest document (2,048 levels) needs about 512 KiB there (measured: 256 KiB crashed the
/// worker), so the pump reads only where that default is ``leastStackBytes``, four times as much; below it, the
/// reader thread does.
struct EventLoopInputPump: InputPump {
    let loop: any EventLoop
    static let leastStackBytes = 2 << 20

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func start(reading fd: Int32, into sink: any InputSink, otherwise: @escaping @Sendable () -> Void)
        -> (any InputValve)?
    {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO,
            cg_default_thread_stack_size() >= Self.leastStackBytes
        else { return nil }
        // Non-blocking: a named pipe's writer may be gone already, and opening one to read would wait for the next.
        let own = open("/proc/self/fd/\(fd)", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard own >= 0 else { return nil }
        let valve = Valve()
        let started = NIOPipeBootstrap(group: loop)
            .channelOption(.autoRead, value: false)
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Before the channel is active: a chunk read at once can already be refused and resumed.
                    valve.attach(channel)
                    try channel.pipeline.syncOperations.addHandler(Reader(sink: sink, valve: valve))
                }
            }
            .takingOwnershipOfDescriptor(input: own)
        // Not waited for: the loop sets the channel up while the server starts its responder. A failure leaves
        // the descriptor open only where NIO gave it back before making a channel, which it does for no pipe;
        // closing a number another thread may have been given since would be worse than that.
        started.whenFailure { _ in otherwise() }
        return valve
    }

    /// The hold on the channel: resume and stop from any thread, carried out on the loop.
    final class Valve: InputValve {
        private let channel = NIOLockedValueBox<(any Channel)?>(nil)
        /// Set once ``stop()`` was asked for: the channel's end is then a stop, not the end of input.
        let stopping = NIOLockedValueBox(false)
        /// The sink refused more after its last chunk; read again only at ``resume()``. The loop's only.
        let paused = NIOLockedValueBox(false)

        func attach(_ channel: any Channel) {
            self.channel.withLockedValue { $0 = channel }
        }

        func resume() {
            guard let channel = channel.withLockedValue({ $0 }) else { return }
            channel.eventLoop.execute {
                self.paused.withLockedValue { $0 = false }
                channel.read()
            }
        }

        func stop() {
            stopping.withLockedValue { $0 = true }
            channel.withLockedValue { $0 }?.close(promise: nil)
        }
    }

    /// The channel's one handler: chunks to the sink, a read after each unless the sink paused, and one end.
    final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let sink: any InputSink
        private let valve: Valve
        private var ended = false

        init(sink: any InputSink, valve: Valve) {
            self.sink = sink
            self.valve = valve
        }

        func channelActive(context: ChannelHandlerContext) {
            context.read()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let chunk = unwrapInboundIn(data)
            let more = chunk.withUnsafeReadableBytes { sink.received($0, from: valve) }
            if !more { valve.paused.withLockedValue { $0 = true } }
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            if !valve.paused.withLockedValue({ $0 }) { context.read() }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            end(.failed(errno: (error as? IOError)?.errnoCode ?? EIO))
            context.close(promise: nil)
        }

        /// The end of input closes the channel (no half-closure: nothing is written on it), as a stop does.
        func channelInactive(context: ChannelHandlerContext) {
            end(valve.stopping.withLockedValue { $0 } ? .stopped : .endOfInput)
        }

        private func end(_ outcome: InputReader.Outcome) {
            guard !ended else { return }
            ended = true
            sink.ended(outcome)
        }
    }
}
