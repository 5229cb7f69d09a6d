import BoxOfficeCore
import JSONCore
import JSONRPC

/// `boxoffice.daily` and `boxoffice.weekly`: one method type, parameterised by the kind of span it answers.
///
/// Each request is planned once (rules checked, upstream call and key built), looked up at hand in the memory
/// tier, and answered on the spot when its kept text is there; otherwise the work fetches it through the chain,
/// and the cache asks memory again only if memory took a new body since the miss.
struct BoxOfficeMethod: CatalogMethod {
    /// Which box office a method answers.
    enum Kind: String, Sendable, CaseIterable {
        case daily = "boxoffice.daily"
        case weekly = "boxoffice.weekly"

        var summary: String {
            switch self {
            case .daily:
                "A day's box office (default yesterday, Asia/Seoul): ranks, rank changes, audience and sales, display strings."
            case .weekly:
                "A week's (Mon–Sun), weekend's (Fri–Sun, default) or weekdays' (Mon–Thu) box office; default the latest finished one."
            }
        }
    }

    let kind: Kind
    let schemas: MethodSchemas
    let service: BoxOfficeService
    var summary: String { kind.summary }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    init(_ kind: Kind, runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) {
        self.kind = kind
        schemas = try MethodSchemas(for: kind.rawValue)
        service = runtime.service
    }

    func start(_ context: RequestContext) throws -> RPCReply {
        let params = Params(context)
        let date = try params.date()
        let span: BoxOfficeRequest.Span = kind == .daily ? .daily(date) : .weekly(date, params.period)
        let request = BoxOfficeRequest(
            span: span, limit: params.limit, filters: params.filters, refresh: params.refresh)
        var plan = try answering { () throws(BoxOfficeError) in try service.plan(request) }
        let include = params.include
        let atHand = service.atHand(&plan)
        if include.isEmpty, let atHand, let text = BoxOfficeAnswer.keptText(atHand) {
            return .ready(text)
        }
        return .work { [service, plan] in
            let office: Kept<BoxOffice>
            if let atHand {
                office = atHand
            } else {
                office = try await answering { () async throws(BoxOfficeError) in
                    try await service.boxOffice(plan)
                }
            }
            return await BoxOfficeAnswer.answer(office, include: include, service: service, context: context)
        }
    }
}
