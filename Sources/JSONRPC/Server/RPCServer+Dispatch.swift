import JSONCore
import Logging
import Synchronization

extension RPCServer {
    /// Handles one line on the responder thread, in reading order.
    func handle(_ line: ParsedLine, _ jobs: JobTasks, _ output: ImmediateOutput) {
        if let jobLines = configuration.jobs { return handle(job: line, jobLines, jobs, output) }
        let value: JSONValue
        switch line {
        case .tooLong:
            statistics.bump(.invalidRequests)
            return answerNow(.single(.error(id: .null, .requestTooLarge(limit: configuration.maxLineBytes))), output)
        case .parseError(let error):
            statistics.bump(.lines)
            statistics.bump(.parseErrors)
            return answerNow(.single(.error(id: .null, .parse(error))), output)
        case .message(let message):
            statistics.bump(.lines)
            value = message
        case .blank, .text:
            preconditionFailure("only job lines keep blank and bare lines")
        }
        let rules = configuration.rules
        let classified = MessageClassifier.classify(
            value, maxBatch: configuration.maxBatch, batches: rules.acceptsBatches(), nullID: rules.allowsNullID)
        switch classified {
        case .rejected(let error):
            statistics.bump(.invalidRequests)
            answerNow(.single(.error(id: .null, error)), output)
        case .single(let envelope):
            handle(single: envelope, jobs, output)
        case .batch(let envelopes):
            let items = envelopes.map(prepare)
            let answers = items.contains { item in
                switch item {
                case .answered, .call: true
                case .nothing, .notification: false
                }
            }
            let work = items.contains { item in
                switch item {
                case .call, .notification: true
                case .nothing, .answered: false
                }
            }
            guard work else {
                if answers { answerNow(.batch(items.compactMap(\.response)), output) }
                return
            }
            guard takeSlot(output) else {
                for case .call(let call) in items { abandon(call) }
                for case .notification(let call) in items { abandon(call) }
                return
            }
            submit(.batch(items, answers ? sequencer.takeTicket() : nil), jobs)
        }
    }

    /// Handles one message that is not a batch.
    private func handle(single envelope: Envelope, _ jobs: JobTasks, _ output: ImmediateOutput) {
        switch prepare(envelope) {
        case .nothing:
            break
        case .answered(let response):
            answerNow(.single(response), output)
        case .call(let call):
            guard takeSlot(output) else { return abandon(call) }
            submit(.call(call, sequencer.takeTicket()), jobs)
        case .notification(let call):
            guard takeSlot(output) else { return abandon(call) }
            submit(.notification(call), jobs)
        }
    }

    /// Handles one job line of the filter face: exactly one outcome, in the line's place (the server is ordered).
    private func handle(
        job line: ParsedLine, _ jobLines: JobLines, _ jobs: JobTasks, _ output: ImmediateOutput
    ) {
        let number = jobLinesRead.add(1, ordering: .relaxed).newValue
        statistics.bump(.lines)
        switch line {
        case .tooLong:
            statistics.bump(.invalidRequests)
            answerNow(.single(.error(id: [.int(number)], .requestTooLarge(limit: configuration.maxLineBytes))), output)
        case .parseError(let error):
            statistics.bump(.parseErrors)
            answerNow(.single(.error(id: [.int(number)], .parse(error))), output)
        case .message, .blank, .text:
            switch jobLines.request(for: line, number: number) {
            case (let id, .failure(let error)):
                switch error.code {
                case .parseError: statistics.bump(.parseErrors)
                case .invalidRequest: statistics.bump(.invalidRequests)
                default: statistics.bump(.failed)
                }
                answerNow(.single(.error(id: id, error)), output)
            case (_, .success(let request)):
                handle(single: .request(request), jobs, output)
            }
        }
    }

    /// Starts work as a task of its own, which the call's cancellation signal cancels; its in-flight place is
    /// already taken. (A batch's calls get tasks of their own in ``perform(_:)``.)
    func submit(_ job: Job, _ jobs: JobTasks) {
        let signal: CancellationSignal? =
            switch job {
            case .call(let call, _), .notification(let call): call.registration.signal
            case .batch: nil
            }
        jobs.start({ await self.perform(job) }, cancelledBy: signal)
    }

    /// Forgets a prepared call that shutdown kept from starting.
    private func abandon(_ call: PreparedCall) {
        inFlight.remove(call.registration)
    }

    /// Checks one message and calls its method's one synchronous step: the answer when it is ready (on the spot,
    /// on the responder thread), else the work to hand to the task group.
    func prepare(_ envelope: Envelope) -> Prepared {
        let request: Request
        switch envelope {
        case .invalid(let id, let error):
            statistics.bump(.invalidRequests)
            return .answered(.error(id: id, error))
        case .request(let valid):
            request = valid
        }
        statistics.bump(request.isNotification ? .notifications : .requests)
        func fail(_ error: RPCError) -> Prepared {
            guard let id = request.id else { return .nothing }
            statistics.bump(error.code == .invalidRequest ? .invalidRequests : .failed)
            return .answered(.error(id: id, error))
        }
        if configuration.jobs == nil, request.method == configuration.rules.cancelMethod {
            if let target = request.params[configuration.rules.cancelIDMember] { inFlight.cancel(id: target) }
            guard let id = request.id else { return .nothing }
            statistics.bump(.succeeded)
            return .answered(.result(id: id, .object([:])))
        }
        guard let method = registry.method(named: request.method) else {
            return fail(.methodNotFound(request.method))
        }
        if request.paramsByPosition {
            return fail(.invalidParams(at: .root, "\(request.method) takes named params (an object), not an array"))
        }
        var params = request.params
        let meta = params["_meta"]
        params["_meta"] = nil
        // The one duplicate check: an id still in flight is refused whatever kind of answer the method would give.
        if let id = request.id, inFlight.contains(id: id) { return fail(.duplicateID) }

        let context = RequestContext(
            id: request.id, method: request.method, meta: meta?.objectValue, registry: registry,
            statistics: statistics, progressSink: writer
        )
        let reply: RPCReply
        do {
            reply = try method.enter(params, context)
        } catch {
            context.finish()
            guard let id = request.id else { return .nothing }
            return .answered(response(id: id, method: request.method, outcome: .failure(error), cancelled: nil))
        }
        switch reply {
        case .ready(let result):
            context.finish()
            guard let id = request.id else { return .nothing }
            return .answered(response(id: id, method: request.method, outcome: .success(result), cancelled: nil))
        case .work(let work):
            let registration = inFlight.register(id: request.id)
            let call = PreparedCall(context: context, work: work, registration: registration)
            return request.isNotification ? .notification(call) : .call(call)
        }
    }

    /// The response for a finished handler; counts it. `cancelled` holds the shutdown flag when a
    /// cancellation signal fired before the handler finished.
    func response(id: JSONValue, method: String, outcome: Result<RPCResult, any Error>, cancelled: Bool?) -> Response {
        if let byShutdown = cancelled {
            statistics.bump(.cancelled)
            return .error(id: id, .cancelled(byShutdown: byShutdown))
        }
        switch outcome {
        case .success(let result):
            statistics.bump(.succeeded)
            return Response(id: id, body: .result(result))
        case .failure(let error as RPCError):
            statistics.bump(.failed)
            return .error(id: id, error)
        case .failure(let error):
            statistics.bump(.failed)
            logger.critical("handler failed unexpectedly: \(error)", metadata: ["method": "\(method)", "id": "\(id)"])
            return .error(id: id, .internalError)
        }
    }
}
