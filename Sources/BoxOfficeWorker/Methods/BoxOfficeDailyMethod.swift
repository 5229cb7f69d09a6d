import BoxOfficeCore
import JSONCore
import JSONRPC

/// `boxoffice.daily`: a day's top 10 (default yesterday in Seoul), with rank changes and display strings.
struct BoxOfficeDailyMethod: DomainMethod {
    static let methodName = "boxoffice.daily"
    let summary = "A day's box office (default yesterday, Asia/Seoul): ranks, rank changes, audience and sales, display strings."
    let base: DomainMethodBase

    func call(_ context: RequestContext) async throws -> JSONValue {
        try await respond(context).value()
    }

    func respondAtOnce(_ context: RequestContext) -> RPCResult? {
        BoxOfficeAnswer.atOnce(Params(context)) { params, date in
            service.dailyInMemory(date: date, limit: params.limit, filters: params.filters)
        }
    }

    func respond(_ context: RequestContext) async throws -> RPCResult {
        let params = Params(context)
        let date = try params.date()
        let office = try await answering { () async throws(BoxOfficeError) in
            try await service.daily(date: date, limit: params.limit, filters: params.filters, refresh: params.refresh)
        }
        return await BoxOfficeAnswer.answer(office, include: params.include, service: service, context: context)
    }
}
