import JSONCore
import Logging

extension RPCServer {
    /// Runs one job in its task and hands its answer to the sequencer.
    func perform(_ job: Job) async {
        switch job {
        case .call(let call, let ticket):
            let response = await execute(call)
            sequencer.deliver(ticket, line: response.map { bytes(of: .single($0)) })
        case .notification(let call):
            _ = await execute(call)
            statistics.inFlight.leave()
        case .batch(let items, let ticket):
            // Each call a task of its own, which its cancellation signal cancels; answered in the batch's order.
            // On the jobs' executor, as lines' jobs are.
            var tasks: [Task<Response?, Never>] = []
            var responses: [Response] = []
            for item in items {
                switch item {
                case .nothing: break
                case .answered(let response): responses.append(response)
                case .call(let call), .notification(let call):
                    let task = Task(executorPreference: configuration.jobExecutor) { await self.execute(call) }
                    call.registration.signal.whenFired { task.cancel() }
                    tasks.append(task)
                }
            }
            for task in tasks {
                if let response = await task.value { responses.append(response) }
            }
            if let ticket {
                sequencer.deliver(ticket, line: responses.isEmpty ? nil : OutputLine.batch(responses).line)
            } else {
                statistics.inFlight.leave()
            }
        }
    }

    /// Runs a handler in the calling task, which the call's cancellation signal cancels (``JobTasks``); the
    /// response, or `nil` for a notification.
    ///
    /// A handler that fails after the signal fired (its upstream calls stopped) is answered with `-32800`; one that
    /// finished its work all the same is answered with its result.
    func execute(_ call: PreparedCall) async -> Response? {
        let signal = call.registration.signal
        let outcome: Result<RPCResult, any Error>?
        if signal.isFired {
            outcome = nil
        } else {
            do {
                outcome = .success(try await call.work())
            } catch {
                outcome = .failure(error)
            }
        }
        call.context.finish()
        inFlight.remove(call.registration)
        guard let id = call.context.id else {
            if case .failure(let error)? = outcome, !(error is RPCError) {
                logger.critical(
                    "notification handler failed unexpectedly: \(error)", metadata: ["method": "\(call.context.method)"]
                )
            }
            return nil
        }
        // A request its client cancelled gets nothing further when the protocol says so (MCP).
        if signal.isFired, !signal.firedByShutdown, !configuration.rules.answersCancelled {
            statistics.bump(.cancelled)
            return nil
        }
        guard let result = outcome else {
            return response(
                id: id, method: call.context.method, outcome: .success(.value(.null)), cancelled: signal.firedByShutdown
            )
        }
        if case .failure = result, signal.isFired {
            return response(id: id, method: call.context.method, outcome: result, cancelled: signal.firedByShutdown)
        }
        return response(id: id, method: call.context.method, outcome: result, cancelled: nil)
    }
}
