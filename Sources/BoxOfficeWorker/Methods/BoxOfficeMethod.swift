import BoxOfficeCore
import JSONCore
import JSONRPC
import Logging

/// `boxoffice.daily` and `boxoffice.weekly`: one method type, parameterised by the kind of span it answers.
///
/// Each request is planned once (rules checked, upstream call and key built), looked up at hand in the memory
/// tier, and answered on the spot when it is there (with the text kept for that body, ``AnswerMemo``); otherwise the
/// work fetches it through the chain, and the cache asks memory again only if memory took a new body since the
/// miss.
struct BoxOfficeMethod: TypedMethod {
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

    /// The params of both methods; `period` is the weekly one's only.
    struct Input: MethodInput, Hashable {
        var date: CalendarDate?
        /// The weekly period (nil: the weekend, KOBIS's own default); always nil for a day.
        var period: WeekPeriod?
        /// How many entries from the top.
        var limit = 10
        var filters = BoxOfficeService.Filters()
        var include: Set<IncludedParts.Part> = []
        /// Bypass the cache for this request's own upstream call, and rewrite it.
        var refresh = false
        /// Also write the result as messages to post (the result's `chat` member).
        var chat: ChatFormat?
        /// Also draw the screen in this layout as a PNG card (the result's `card` member).
        var card: BoxOfficeScreen.Layout?

        var params: JSONObject {
            var params = ParamsWriter()
            params.set("date", date?.description)
            params.set("period", period?.rawValue)
            params.set("limit", limit, default: 10)
            params.set("multiMovie", filters.multiMovie)
            params.set("nation", filters.nation?.rawValue)
            params.set("area", filters.area)
            params.set("include", IncludedParts.Part.allCases.filter(include.contains).map(\.rawValue))
            params.set("refresh", flag: refresh)
            params.set("chat", chat?.rawValue)
            params.set("card", card?.rawValue)
            return params.object
        }
    }

    typealias Output = BoxOfficeAnswer

    let kind: Kind
    let schemas: MethodSchemas
    let service: BoxOfficeService
    /// Downloads the posters a card draws.
    let runtime: WorkerRuntime
    /// The text of answers without `include`, by the body they were made from.
    var memo: AnswerMemo { AnswerMemo.shared }
    var summary: String { kind.summary }

    /// - Throws: when the method's schema files are missing or broken (a build defect).
    init(_ kind: Kind, runtime: WorkerRuntime) throws(SchemaCatalog.LoadError) {
        self.kind = kind
        schemas = try MethodSchemas(for: kind.rawValue)
        service = runtime.service
        self.runtime = runtime
    }

    /// The one upstream call that answers `input`, after the date rules (the CLI's range export plans with it too).
    func plan(_ input: Input) throws(RPCError) -> BoxOfficePlan {
        let span: BoxOfficeRequest.Span =
            kind == .daily ? .daily(input.date) : .weekly(input.date, input.period ?? .weekend)
        let request = BoxOfficeRequest(span: span, limit: input.limit, filters: input.filters, refresh: input.refresh)
        return try withWireErrors { () throws(BoxOfficeError) in try service.plan(request) }
    }

    func start(_ input: Input, in context: RequestContext) throws(RPCError) -> Reply<BoxOfficeAnswer> {
        var plan = try plan(input)
        let include = input.include
        let chat = input.chat
        let card = input.card
        let atHand = service.atHand(&plan)
        if include.isEmpty, card == nil, let atHand { return .ready(BoxOfficeAnswer(office: atHand, chat: chat)) }
        return .work { [service, runtime, plan] in
            let office: Kept<BoxOffice>
            if let atHand {
                office = atHand
            } else {
                office = try await withWireErrors { () async throws(BoxOfficeError) in
                    try await service.boxOffice(plan)
                }
            }
            var answer = BoxOfficeAnswer(office: office, chat: chat)
            if !include.isEmpty {
                answer.include = include
                answer.parts = await IncludedParts.fetch(for: office.value, include: include, service: service) {
                    context.reportProgress($0, total: $1, message: $2)
                }
            }
            if let card {
                answer.card = try await Self.card(answer, layout: card, runtime: runtime)
            }
            return answer
        }
    }

    /// The card of `answer`'s box office, its downloadable posters drawn. - Throws: `not_configured` when the
    /// drawing libraries or a Hangul font are missing (``CardError``).
    private static func card(_ answer: BoxOfficeAnswer, layout: BoxOfficeScreen.Layout, runtime: WorkerRuntime)
        async throws(RPCError) -> CardImage
    {
        let content = ChatContent(answer.office.value, posters: answer.parts.map { $0.poster?.image?.url })
        let posters = await runtime.downloadedPosters(content) { runtime.logger.warning("card: \($0)") }
        let png: [UInt8]
        do {
            png = try CardRenderer.load().render(
                content, screen: .list(kind: "boxoffice", layout: layout), posters: posters,
                warn: { runtime.logger.warning("card: \($0)") })
        } catch {
            throw BoxOfficeError(.notConfigured, error.message).rpcError
        }
        guard let files = runtime.cardFiles else { return CardImage(png: png) }
        let file = try withWireErrors { () throws(BoxOfficeError) in try files.keep(png, mimeType: "image/png") }
        return CardImage(png: png, file: file)
    }

    /// The kept text when the answer has no parts and its body is in memory; else the result built (with its
    /// chat messages when asked for).
    func result(_ answer: BoxOfficeAnswer) -> RPCResult {
        let office = answer.office.value
        if answer.chat != nil || answer.card != nil {
            var result = ModelEncoding.boxOffice(office, include: answer.include, parts: answer.parts)
            if let chat = answer.chat {
                let content = ChatContent(office, posters: answer.parts.map { $0.poster?.image?.url })
                result = ChatEncoding.adding(chat, content, to: result)
            }
            if let card = answer.card, case .object(var object) = result {
                object["card"] = card.json
                result = .object(object)
            }
            return .value(result)
        }
        guard answer.include.isEmpty, let body = answer.office.body else {
            return .value(ModelEncoding.boxOffice(office, include: answer.include, parts: answer.parts))
        }
        let key = AnswerMemo.Key(body: body, limit: office.entries.count, source: office.source)
        return .encoded(memo.text(key) { JSONSerializer.serialize(ModelEncoding.boxOffice(office)) })
    }
}

// Outside the type, so the struct keeps its memberwise initializer (the CLI builds inputs with it).
extension BoxOfficeMethod.Input {
    init(params object: JSONObject) throws(RPCError) {
        let params = ParamsReader(object: object)
        self.init(
            date: try params.date(), period: params.string("period").flatMap(WeekPeriod.init(rawValue:)),
            limit: params.int("limit") ?? 10,
            filters: BoxOfficeService.Filters(
                multiMovie: params.bool("multiMovie"),
                nation: params.string("nation").flatMap(BoxOfficeService.Filters.Nation.init(rawValue:)),
                area: params.string("area")),
            include: Set(
                object["include"]?.arrayValue?.compactMap { $0.stringValue.flatMap(IncludedParts.Part.init) } ?? []),
            refresh: params.bool("refresh") == true, chat: params.string("chat").flatMap(ChatFormat.init(rawValue:)),
            card: params.string("card").flatMap(BoxOfficeScreen.Layout.init(rawValue:)))
    }
}

/// The output of a box office method: the box office, and with `include` each entry's parts.
struct BoxOfficeAnswer: Sendable {
    /// The box office, with the serial of the cached body it was made from (the key of its kept text).
    let office: Kept<BoxOffice>
    /// The parts asked for (empty: none).
    var include: Set<IncludedParts.Part> = []
    /// Each entry's parts, in entry order; empty without `include`.
    var parts: [IncludedParts.Entry] = []
    /// The chat format the params asked for: the result then carries its messages.
    var chat: ChatFormat?
    /// The card the params asked for, drawn.
    var card: CardImage?
}
