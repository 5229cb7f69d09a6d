import DequeModule

extension LineQueue {
    /// The queue's bound, finish and close without threads or a condition variable: ``LineQueue`` runs each
    /// transition with its condition locked, waits when told to and wakes the other side when told to, so "a full
    /// queue holds the pusher", "a pop from a full queue wakes it" and "close drops what waits" are tested with plain
    /// values (`Line` is an `Int` there).
    struct StateMachine<Line> {
        /// What a pusher does next.
        enum PushStep: Equatable {
            /// The queue is full: wait on the condition, then push again.
            case wait
            /// Nothing: the batch was empty, or the queue is closed.
            case dropped
            /// Queued; wake the responder when it may be waiting for a batch (the queue was empty).
            case pushed(wakeResponder: Bool)
        }

        /// What the responder does next.
        enum PopStep {
            /// The queue is empty and not finished: wait on the condition, then pop again.
            case wait
            /// Finished and drained: no batch will come.
            case end
            /// This batch; wake the pusher when it may be waiting for room (the queue was full); resume a pusher
            /// that stopped reading when its offer filled the queue (``offer(_:)``), once.
            case popped([Line], wakePusher: Bool, resumePusher: Bool = false)
        }

        /// What a pusher that must never wait learns from an offer.
        enum OfferStep: Equatable {
            /// Nothing: the batch was empty, or the queue is closed.
            case dropped
            /// Queued (past the bound, if it was full already); wake the responder when it may be waiting for a
            /// batch. `full`: stop reading until a pop says `resumePusher`.
            case pushed(wakeResponder: Bool, full: Bool)
        }

        let capacity: Int
        /// Batches leave this storage when taken (a `Deque`): see ``LineQueue``.
        private var batches = Deque<[Line]>()
        private var finished = false
        private var closed = false
        /// The responder is answering the batch it took last (until it asks for the next).
        private var responderAnswering = false
        /// The reader is answering a batch itself (``claim()`` to ``endClaim()``).
        private var readerAnswering = false
        /// An offer filled the queue and its pusher stopped reading until a pop makes room.
        private var pusherPaused = false
        /// Batches the reader answered itself (for tests).
        private(set) var claims = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Batches held now.
        var stored: Int { batches.count }

        mutating func push(_ batch: [Line]) -> PushStep {
            guard !batch.isEmpty, !closed else { return .dropped }
            guard batches.count < capacity else { return .wait }
            batches.append(batch)
            return .pushed(wakeResponder: batches.count == 1)
        }

        /// Queues a batch without ever waiting (the event loop reading stdin, which runs the work a wait would wait
        /// for): a full queue takes it all the same, once, since the pusher stops reading when told `full`.
        mutating func offer(_ batch: [Line]) -> OfferStep {
            guard !batch.isEmpty, !closed else { return .dropped }
            batches.append(batch)
            let full = batches.count >= capacity
            if full { pusherPaused = true }
            return .pushed(wakeResponder: batches.count == 1, full: full)
        }

        mutating func pop() -> PopStep {
            responderAnswering = false
            guard let batch = batches.popFirst() else { return finished && !readerAnswering ? .end : .wait }
            responderAnswering = true
            let resume = pusherPaused && batches.count < capacity
            if resume { pusherPaused = false }
            return .popped(batch, wakePusher: batches.count + 1 >= capacity, resumePusher: resume)
        }

        /// Whether the reader may answer its batch itself instead of pushing it: only while the responder has nothing
        /// to do (nothing queued, nothing being answered), so lines are still answered one at a time in reading
        /// order. The responder cannot get work meanwhile (only the reader pushes); ``endClaim()`` must follow.
        mutating func claim() -> Bool {
            guard batches.isEmpty, !responderAnswering, !finished else { return false }
            readerAnswering = true
            claims += 1
            return true
        }

        /// The reader answered its batch; true when the responder may be waiting for it to end (the input finished
        /// or was closed meanwhile: the responder's end waits for the reader's last answers to be handed on).
        mutating func endClaim() -> Bool {
            readerAnswering = false
            return finished
        }

        /// No more batches will come; what is queued is still taken.
        mutating func finish() {
            finished = true
        }

        /// Shutdown: queued batches are dropped, and every waiter is to be released.
        mutating func close() {
            closed = true
            finished = true
            batches.removeAll()
        }
    }
}

extension LineQueue.StateMachine.PopStep: Equatable where Line: Equatable {}
