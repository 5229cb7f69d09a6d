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
            /// This batch; wake the pusher when it may be waiting for room (the queue was full).
            case popped([Line], wakePusher: Bool)
        }

        let capacity: Int
        /// Batches leave this storage when taken (a `Deque`): see ``LineQueue``.
        private var batches = Deque<[Line]>()
        private var finished = false
        private var closed = false

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

        mutating func pop() -> PopStep {
            guard let batch = batches.popFirst() else { return finished ? .end : .wait }
            return .popped(batch, wakePusher: batches.count + 1 >= capacity)
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
