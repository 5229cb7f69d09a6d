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
/// One read at a time (`maxMessagesPerRead` 1, reads asked for, not automatic), so a sink that asks for a pause is
/// asked for nothing more until it resumes. One exception, NIO's and the kernel's: once the host has closed its end,
/// a pipe reports a hang-up that cannot be masked, and NIO reads what is left to the end at once; those chunks wait
/// in ``Reader`` (at most what the pipe holds: 64 KiB unless the host enlarged it) and reach the sink, and then the
/// end of input, only as it resumes.
///
/// The loop's thread parses and classifies what it reads, recursively for nested JSON; the reader thread has a
/// 16 MiB stack of its own for that, the loop's thread the default a thread gets (from `ulimit -s`; NIO asks for no
/// size). Jansson's deepest document (2,048 levels) needs about 512 KiB there (measured: 256 KiB crashed the
/// worker), so the pump reads only where that default is ``leastStackBytes``, four times as much; below it, the
/// reader thread does.
struct EventLoopInputPump: InputPump {
    let loop: any EventLoop
    static let leastStackBytes = 2 << 20

    /// Whether the loop's threads have the stack the pump needs (``leastStackBytes``).
    static var loopStackSuffices: Bool { cg_default_thread_stack_size() >= leastStackBytes }

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func start(reading fd: Int32, into sink: any InputSink, otherwise: @escaping @Sendable () -> Void)
        -> (any InputValve)?
    {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO, Self.loopStackSuffices else { return nil }
        // Non-blocking: a named pipe's writer may be gone already, and opening one to read would wait for the next.
        let own = open("/proc/self/fd/\(fd)", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard own >= 0 else { return nil }
        let valve = Valve(sink: sink, otherwise: otherwise)
        NIOPipeBootstrap(group: loop)
            .channelOption(.autoRead, value: false)
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let reader = Reader(valve: valve)
                    try channel.pipeline.syncOperations.addHandler(reader)
                    valve.attach(channel, reader)
                }
            }
            .takingOwnershipOfDescriptor(input: own)
            // Not waited for: the loop sets the channel up while the server starts its responder (a worker's first
            // answer waited 0.5–1.5 ms for it). A failure leaves the descriptor open only where NIO gave it back
            // before making a channel, which it does for no pipe; and the same failure can come after NIO made one
            // and closed the descriptor with it, when closing the number again could close another thread's file.
            .whenComplete { valve.setUp(succeeded: (try? $0.get()) != nil) }
        return valve
    }

    /// The hold on the channel, and the one place the sink's end is decided: resume and stop from any thread,
    /// carried out on the loop.
    final class Valve: InputValve {
        private enum Phase {
            /// NIO is setting the channel up; nothing is read yet.
            case settingUp
            /// Reading; the channel's end is the sink's.
            case reading
            /// The sink heard its end (or the reader thread took over).
            case over
        }

        private struct State {
            var phase = Phase.settingUp
            var stopAsked = false
            /// The channel ended before NIO said it was set up (`nil` inside: the end of input, else a read error's
            /// errno): a pipe whose host had closed its end already is read to that end at once, hang-up and all.
            var earlyEnd: Int32??
            var channel: (any Channel)?
            /// The channel's handler, touched only on the loop.
            var reader: NIOLoopBound<Reader>?
        }

        let sink: any InputSink
        private let otherwise: @Sendable () -> Void
        private let state = NIOLockedValueBox(State())

        init(sink: any InputSink, otherwise: @escaping @Sendable () -> Void) {
            self.sink = sink
            self.otherwise = otherwise
        }

        /// In the channel's initializer, on the loop, before it is active.
        func attach(_ channel: any Channel, _ reader: Reader) {
            state.withLockedValue {
                $0.channel = channel
                $0.reader = NIOLoopBound(reader, eventLoop: channel.eventLoop)
            }
        }

        /// On the loop, once NIO set the channel up or failed to. A stop asked for meanwhile ends the sink here (the
        /// channel may have closed while it was being set up, and said nothing then), and so does an end the channel
        /// came to already (its chunks went to the sink as it read them); a failure with neither leaves stdin to the
        /// reader thread (nothing was read).
        func setUp(succeeded: Bool) {
            let (stop, earlyEnd, channel, reader) = state.withLockedValue { state in
                state.phase = state.stopAsked || !succeeded || state.earlyEnd != nil ? .over : .reading
                return (state.stopAsked, state.earlyEnd, state.channel, state.reader)
            }
            if stop {
                channel?.close(promise: nil)
                sink.ended(.stopped)
            } else if let earlyEnd {
                sink.ended(earlyEnd.map { .failed(errno: $0) } ?? .endOfInput)
            } else if succeeded {
                reader?.value.beginReading()
            } else {
                otherwise()
            }
        }

        func resume() {
            let (channel, reader) = state.withLockedValue { ($0.channel, $0.reader) }
            guard let channel, let reader else { return }
            channel.eventLoop.execute { reader.value.resume() }
        }

        func stop() {
            let channel = state.withLockedValue { state -> (any Channel)? in
                state.stopAsked = true
                return state.channel
            }
            channel?.close(promise: nil)
        }

        var stopAsked: Bool { state.withLockedValue { $0.stopAsked } }

        /// On the loop: the channel ended (its input's end, a stop, or a read error). Said to the sink once; an end
        /// while the channel is being set up is kept for ``setUp(succeeded:)`` to say.
        func ended(failure: Int32?) {
            let outcome = state.withLockedValue { state -> InputReader.Outcome? in
                switch state.phase {
                case .settingUp:
                    state.earlyEnd = .some(failure)
                    return nil
                case .reading:
                    state.phase = .over
                    if let failure { return .failed(errno: failure) }
                    return state.stopAsked ? .stopped : .endOfInput
                case .over:
                    return nil
                }
            }
            if let outcome { sink.ended(outcome) }
        }
    }

    /// The channel's one handler: chunks to the sink, a read after each unless the sink paused, and the end.
    final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let valve: Valve
        private var context: ChannelHandlerContext?
        private var paused = false
        /// Chunks NIO read while the sink was paused (the host closed its end: see ``EventLoopInputPump``).
        private var held = CircularBuffer<ByteBuffer>()
        /// The input ended while chunks were held: its end waits for them.
        private var endHeld = false

        init(valve: Valve) {
            self.valve = valve
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
        }

        /// On the loop, once the channel is set up.
        func beginReading() {
            context?.read()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let chunk = unwrapInboundIn(data)
            if paused { return held.append(chunk) }
            deliver(chunk)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            if !paused { context.read() }
        }

        /// On the loop: the sink has room again. The held chunks first, then the held end or the next read.
        func resume() {
            paused = false
            while !paused, let chunk = held.popFirst() { deliver(chunk) }
            guard !paused else { return }
            if endHeld { return valve.ended(failure: nil) }
            context?.read()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            valve.ended(failure: (error as? IOError)?.errnoCode ?? EIO)
            context.close(promise: nil)
        }

        /// The end of input closes the channel (no half-closure: nothing is written on it), as a stop does.
        func channelInactive(context: ChannelHandlerContext) {
            guard held.isEmpty || valve.stopAsked else {
                endHeld = true
                return
            }
            valve.ended(failure: nil)
        }

        private func deliver(_ chunk: ByteBuffer) {
            let more = chunk.withUnsafeReadableBytes { valve.sink.received($0, from: valve) }
            if !more { paused = true }
        }
    }
}
