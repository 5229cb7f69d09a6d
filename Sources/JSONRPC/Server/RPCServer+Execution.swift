import JSONCore
import Logging

extension RPCServer {
    /// Runs one job in the task group and hands its answer to the sequencer.
    func perform(_ job: Job) async {
        switch job {
        case .call(let call, let ticket):
            let response = await execute(call)
            sequencer.deliver(ticket, line: response.map { bytes(of: .single($0)) })
        case .notification(let call):
            _ = await execute(call)
            statistics.inFlight.leave()
        case .batch(let items, let ticket):
            let responses = await withTaskGroup(of: Response?.self, returning: [Response].self) { group in
                var responses: [Response] = []
                for item in items {
                    switch item {
                    case .nothing: break
                    case .answered(let response): responses.append(response)
                    case .call(let call), .notification(let call): group.addTask { await self.execute(call) }
                    }
                }
                for await response in group {
                    if let response { responses.append(response) }
                }
                return responses
            }
            if let ticket {
                sequencer.deliver(ticket, line: responses.isEmpty ? nil : OutputLine.batch(responses).line)
            } else {
                statistics.inFlight.leave()
            }
        }
    }

    private enum Outcome: Sendable {
        case finished(Result<RPCResult, any Error>)
        case cancelled
    }

    /// Runs a handler, racing it against its cancellation signal; the response, or `nil` for a notification.
    ///
    /// When the signal fires first, the handler's task is cancelled (so its upstream calls stop) and the request is
    /// answered with `-32800`.
    func execute(_ call: PreparedCall) async -> Response? {
        let signal = call.registration.signal
        let outcome: Outcome
        if signal.isFired {
            outcome = .cancelled
        } else {
            outcome = await withTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    do {
                        return .finished(.success(try await call.work()))
                    } catch {
                        return .finished(.failure(error))
                    }
                }
                group.addTask {
                    await signal.wait()
                    return .cancelled
                }
                let first = await group.next() ?? .cancelled
                group.cancelAll()
                return first
            }
        }
        call.context.finish()
        inFlight.remove(call.registration)
        guard let id = call.context.id else {
            if case .finished(.failure(let error)) = outcome, !(error is RPCError) {
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
        switch outcome {
        case .cancelled:
            return response(
                id: id, method: call.context.method, outcome: .success(.value(.null)), cancelled: signal.firedByShutdown
            )
        case .finished(let result):
            if case .failure = result, signal.isFired {
                return response(id: id, method: call.context.method, outcome: result, cancelled: signal.firedByShutdown)
            }
            return response(id: id, method: call.context.method, outcome: result, cancelled: nil)
        }
    }
}
