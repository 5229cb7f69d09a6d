package import BoxOfficeCore
import JSONCore
package import JSONRPC

/// `boxoffice.daily` and `boxoffice.weekly`: one method type, parameterised by the kind of span it answers.
///
/// Each request is planned once (rules checked, upstream call and key built), looked up at hand in the memory
/// tier, and answered on the spot when it is there (with the text kept for that body, ``AnswerMemo``); otherwise the
/// work fetches it through the chain, and the cache asks memory again only if memory took a new body since the
/// miss.
package struct BoxOfficeMethod: TypedMethod {
    /// Which box office a method answers.
    package enum Kind: String, Sendable, CaseIterable {
        case daily = "boxoffice.daily"
        case weekly = "boxoffice.weekly"

        package var summary: String {
            switch self {
            case .daily:
                "A day's box office (default yesterday, Asia/Seoul): ranks, rank changes, audience and sales, display strings."
            case .weekly:
                "A week's (Mon–Sun), weekend's (Fri–Sun, default) or weekdays' (Mon–Thu) box office; default the latest finished one."
            }
        }
    }

    /// The params of both methods; `period` is the weekly one's only.
    package struct Input: MethodInput, Hashable {
        package var date: CalendarDate?
        /// The weekly period (nil: the weekend, KOBIS's own default); always nil for a day.
        package var period: WeekPeriod?
        /// How many entries from the top.
        package var limit = 10
        package var filters = BoxOfficeService.Filters()
        package var include: Set<IncludedParts.Part> = []
        /// Bypass the cache for this request's own upstream call, and rewrite it.
        package var refresh = false

        package init(
            date: CalendarDate? = nil, period: WeekPeriod? = nil, limit: Int = 10,
            filters: BoxOfficeService.Filters = .init(), include: Set<IncludedParts.Part> = [], refresh: Bool = false
        ) {
            (self.date, self.period, self.limit, self.filters) = (date, period, limit, filters)
            (self.include, self.refresh) = (include, refresh)
        }

        package static let fields: [InputField<Self>] = [
            .date("date", \.date), .word("period", \.period), .int("limit", \.limit, default: 10),
            .choice("multiMovie", \.filters.multiMovie), .word("nation", \.filters.nation),
            .text("area", \.filters.area),
            .custom(
                "include",
                read: { value, input in
                    input.include = Set(
                        value.arrayValue?.compactMap { $0.stringValue.flatMap(IncludedParts.Part.init) } ?? [])
                },
                write: { input in
                    input.include.isEmpty
                        ? nil
                        : .array(
                            IncludedParts.Part.allCases.filter(input.include.contains).map { .string($0.rawValue) })
                }),
            .flag("refresh", \.refresh),
        ]
        package static let blank = Self()
    }

    package typealias Output = BoxOfficeAnswer

    package let kind: Kind
    package let schemas: MethodSchemas
    package let service: BoxOfficeService
    /// The text of answers without `include`, by the body they were made from.
    package var memo: AnswerMemo { AnswerMemo.shared }
    package var summary: String { kind.summary }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    package init(_ kind: Kind, runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) {
        self.kind = kind
        schemas = try MethodSchemas(for: kind.rawValue)
        service = runtime.service
    }

    /// The one upstream call that answers `input`, after the date rules (the CLI's range export plans with it too).
    package func plan(_ input: Input) throws(RPCError) -> BoxOfficePlan {
        let span: BoxOfficeRequest.Span =
            kind == .daily ? .daily(input.date) : .weekly(input.date, input.period ?? .weekend)
        let request = BoxOfficeRequest(span: span, limit: input.limit, filters: input.filters, refresh: input.refresh)
        return try withWireErrors { () throws(BoxOfficeError) in try service.plan(request) }
    }

    package func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<BoxOfficeAnswer> {
        var plan = try plan(input)
        let include = input.include
        let inMemory = service.inMemory(&plan)
        if include.isEmpty, let inMemory { return .ready(BoxOfficeAnswer(office: inMemory)) }
        return .work { [service, plan] in
            let office: BodyBacked<BoxOffice>
            if let inMemory {
                office = inMemory
            } else {
                office = try await withWireErrors { () async throws(BoxOfficeError) in
                    try await service.boxOffice(plan)
                }
            }
            var answer = BoxOfficeAnswer(office: office)
            if !include.isEmpty {
                answer.include = include
                answer.parts = await IncludedParts.fetch(for: office.value, include: include, service: service) {
                    context.reportProgress($0, total: $1, message: $2)
                }
            }
            return answer
        }
    }

    /// The kept text when the answer has no parts and its body is in memory; else the result built.
    package func result(_ answer: BoxOfficeAnswer) -> RPCResult {
        let office = answer.office.value
        guard answer.include.isEmpty, let body = answer.office.body else {
            return .value(ModelEncoding.boxOffice(office, include: answer.include, parts: answer.parts))
        }
        let key = AnswerMemo.Key(body: body, limit: office.entries.count, source: office.source)
        return .encoded(memo.text(key) { JSONSerializer.serialize(ModelEncoding.boxOffice(office)) })
    }
}

/// The output of a box office method: the box office, and with `include` each entry's parts.
package struct BoxOfficeAnswer: Sendable {
    /// The box office, with the serial of the cached body it was made from (the key of its kept text).
    package let office: BodyBacked<BoxOffice>
    /// The parts asked for (empty: none).
    package var include: Set<IncludedParts.Part> = []
    /// Each entry's parts, in entry order; empty without `include`.
    package var parts: [IncludedParts.Entry] = []

    package init(
        office: BodyBacked<BoxOffice>, include: Set<IncludedParts.Part> = [], parts: [IncludedParts.Entry] = []
    ) {
        (self.office, self.include, self.parts) = (office, include, parts)
    }
}
