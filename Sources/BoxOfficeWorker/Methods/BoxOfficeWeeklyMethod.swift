import BoxOfficeCore
import JSONCore
import JSONRPC

/// `boxoffice.weekly`: a week's, weekend's (default) or weekdays' top 10; default the latest finished period.
struct BoxOfficeWeeklyMethod: DomainMethod {
    static let methodName = "boxoffice.weekly"
    let summary = "A week's (Mon–Sun), weekend's (Fri–Sun, default) or weekdays' (Mon–Thu) box office; default the latest finished one."
    let base: DomainMethodBase

    func call(_ context: RequestContext) async throws -> JSONValue {
        try await respond(context).value()
    }

    func respondAtOnce(_ context: RequestContext) -> RPCResult? {
        BoxOfficeAnswer.atOnce(Params(context)) { params, date in
            service.weeklyInMemory(date: date, period: params.period, limit: params.limit, filters: params.filters)
        }
    }

    func respond(_ context: RequestContext) async throws -> RPCResult {
        let params = Params(context)
        let date = try params.date()
        let office = try await answering { () async throws(BoxOfficeError) in
            try await service.weekly(date: date, period: params.period, limit: params.limit, filters: params.filters, refresh: params.refresh)
        }
        return await BoxOfficeAnswer.answer(office, include: params.include, service: service, context: context)
    }
}
