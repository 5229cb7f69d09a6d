import FoundationEssentials
import Glibc

/// Answers calls from the real services over an ``HTTPTransport``.
///
/// - The KOBIS key goes into the query string last, and only into the URL that is sent: every URL in an error or a
///   log is the redacted one. The Kakao key goes into `Authorization: KakaoAK <key>`.
/// - Transient failures (connect errors, timeouts, resets, HTTP 429 and 5xx) are retried per ``RetryPolicy``;
///   other 4xx answers and KOBIS `faultInfo` never are.
package struct LiveFetcher: Fetcher {
    /// One service's base URL and key.
    ///
    /// A base URL may carry user information (`http://user:pw@host/…`) and a query (`?token=…`), which a private
    /// mirror may need: the user information is sent as HTTP Basic authentication to KOBIS (AsyncHTTPClient does not
    /// send a URL's; Kakao's `Authorization` holds its key), the query with every request, and both are secrets.
    /// ``baseURL`` is the form shown everywhere (errors, `worker.status`, logs): scheme, host, port and path only; a
    /// base URL that cannot be read is shown as `(unreadable base URL)`, never as written.
    package struct Endpoint: Sendable {
        /// The base URL as it may be shown: no user information, no query.
        package var baseURL: String
        /// The base URL requests are made to (user information kept), without its query.
        package var requestBase: String
        /// The base URL's own query, sent first in every request's query.
        package var baseQuery: String?
        package var key: String?
        /// The environment variable that sets the key, named in `not_configured` errors.
        package var setting: String
        /// The key, and the user information and query values of the base URL: what ``Redactor`` takes out.
        package var secrets: [String]
        /// `Authorization: Basic …` for the base URL's user information, when it has any.
        package var basicAuthorization: String?

        package init(baseURL: String, key: String?, setting: String) {
            var text = baseURL
            var query: String?
            if let mark = text.firstIndex(of: "?") {
                query = String(text[text.index(after: mark)...])
                text = String(text[..<mark])
            }
            while text.hasSuffix("/") { text.removeLast() }
            baseQuery = query?.isEmpty == false ? query : nil
            var secrets: [String] = key.map { [$0] } ?? []
            var shown = "(unreadable base URL)"
            var authorization: String?
            var requestBase = text
            if let components = URLComponents(string: text), components.host != nil {
                var plain = components
                if components.user != nil || components.password != nil {
                    let user = components.user ?? ""
                    let password = components.password ?? ""
                    // The whole pair always counts, however short its parts (a two-letter password is still one).
                    secrets += ["\(user):\(password)", password, user]
                    secrets += [components.percentEncodedUser, components.percentEncodedPassword].compactMap { $0 }
                    let credential = Data("\(user):\(password)".utf8).base64EncodedString()
                    authorization = "Basic " + credential
                    // A mirror that echoes the request's headers echoes this too.
                    secrets.append(credential)
                    plain.user = nil
                    plain.password = nil
                }
                if let plainText = plain.string {
                    shown = plainText
                    requestBase = plainText
                }
            }
            self.requestBase = requestBase
            basicAuthorization = authorization
            for item in baseQuery.flatMap({ URLComponents(string: "x:/?" + $0)?.queryItems }) ?? [] {
                if let value = item.value, !value.isEmpty { secrets.append(value) }
            }
            if let baseQuery { secrets.append(baseQuery) }
            self.baseURL = shown
            self.key = key
            self.setting = setting
            self.secrets = secrets
        }
    }

    package var kobis: Endpoint
    package var kakao: Endpoint
    package var transport: any HTTPTransport
    /// Per attempt: to the head, and the longest silence within the body (the transport's read timeout).
    package var timeout: Duration
    /// The whole call, every attempt and every wait between them included (`--deadline`): a retry that cannot
    /// start and end before it is not made, and the last attempt is cut when it comes. A body trickled a byte a
    /// second once kept a call with `--deadline 15` for 39 s: three attempts, each within its own limit.
    package var deadline: Duration
    package var retry: RetryPolicy
    package var counters: UpstreamCounters
    /// Takes both services' secrets out of every body and message (see ``Redactor``).
    package let redactor: Redactor

    package init(
        kobis: Endpoint, kakao: Endpoint, transport: any HTTPTransport, timeout: Duration,
        deadline: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(),
        counters: UpstreamCounters = UpstreamCounters()
    ) {
        self.kobis = kobis
        self.kakao = kakao
        self.transport = transport
        self.timeout = timeout
        self.deadline = deadline
        self.retry = retry
        self.counters = counters
        redactor = Redactor(kobis.secrets + kakao.secrets)
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let endpoint = call.service == .kobis ? kobis : kakao
        guard let key = endpoint.key, !key.isEmpty else {
            var error = BoxOfficeError(
                .notConfigured,
                "\(call.service == .kobis ? "KOBIS" : "Kakao image search") needs a key: set \(endpoint.setting)",
                service: call.service)
            error.setting = endpoint.setting
            throw error
        }
        var request = Self.request(call, endpoint: endpoint, key: key)
        let ends = ContinuousClock.now.advanced(by: deadline)
        request.callEnds = ends
        var lastProblem = ""
        var made = 0
        var lastStatus: Int?
        var askedWait: Double?
        for attempt in 1...max(1, retry.attempts) {
            if attempt > 1 {
                let backoff = retry.delay(after: attempt - 1, random: Double.random(in: 0...1))
                let wait = askedWait.map { Duration.milliseconds(Int64($0 * 1000)) } ?? backoff
                // No retry that could not have a second (or its --timeout, when shorter) before the call's deadline:
                // it would spend a call of the quota to be cut at once.
                guard ContinuousClock.now.advanced(by: wait + min(timeout, .seconds(1))) < ends else { break }
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw BoxOfficeError(
                        .upstreamUnavailable, "cancelled while waiting to retry \(request.redactedURL)",
                        service: call.service)
                }
            }
            counters.record(call.service)
            made = attempt
            askedWait = nil
            var response: HTTPResponse
            do {
                response = try await transport.send(request, timeout: timeout)
            } catch {
                lastProblem = redactor.redact(error.message)
                lastStatus = nil
                if error.isTransient && !Task.isCancelled { continue }
                throw unavailable(
                    call.service, Self.naming(redactor.redact(error.message), request.redactedURL), status: nil)
            }
            // The one door from the services into the process: no body goes on with a secret in it.
            response.body = redactor.redact(LoneSurrogates.repaired(response.body))
            switch response.status {
            case 200..<300:
                return Fetched(body: response.body, source: Source(origin: .kobis, fetchedAt: Self.now()))
            case 429, 500..<600:
                lastStatus = response.status
                lastProblem = "HTTP \(response.status)"
                askedWait = response.retryAfter
                // Retry-After is honoured up to the cap; a longer wait fails the call now, saying when to retry.
                if let wait = response.retryAfter, wait > Self.longestRetryAfter {
                    var error = unavailable(
                        call.service,
                        Self.naming(
                            "HTTP \(response.status), asking to wait \(Int(wait.rounded(.up))) s before trying again (Retry-After)",
                            request.redactedURL),
                        status: response.status)
                    error.retryAfterSeconds = Int(wait.rounded(.up))
                    throw error
                }
                continue
            default:
                throw rejected(call.service, response, request)
            }
        }
        let attempts = made == 1 ? "1 attempt" : "\(made) attempts"
        let within = made < retry.attempts ? ", the most the call's deadline (--deadline) left time for" : ""
        var error = unavailable(
            call.service, Self.naming("\(lastProblem) after \(attempts)\(within)", request.redactedURL),
            status: lastStatus)
        error.retryAfterSeconds = askedWait.map { Int($0.rounded(.up)) }
        throw error
    }

    /// `problem`, naming the (redacted) URL once: transport messages already name it, HTTP statuses do not.
    static func naming(_ problem: String, _ redactedURL: String) -> String {
        problem.contains(redactedURL) ? problem : "\(problem) (\(redactedURL))"
    }

    /// The most one API answer may be: 1 MiB, 16 times the largest recorded (a movie's detail of 62 KB), room for a
    /// filmography of 10,000 films. A larger body is refused as it arrives: one hostile 100,000-film answer held
    /// and parsed by each of twenty concurrent calls once took a worker to 730 MB.
    package static let largestAnswer = 1 << 20

    static func request(_ call: UpstreamCall, endpoint: Endpoint, key: String) -> HTTPRequest {
        let own = UpstreamCall.query(call.parameters.sorted { $0.key < $1.key })
        let query = [endpoint.baseQuery, own.isEmpty ? nil : own].compactMap { $0 }.joined(separator: "&")
        let shownQuery = [endpoint.baseQuery == nil ? nil : "…", own.isEmpty ? nil : own].compactMap { $0 }
            .joined(separator: "&")
        switch call.service {
        case .kobis:
            let url = endpoint.requestBase + call.path + "?" + (query.isEmpty ? "" : query + "&")
            let shown = endpoint.baseURL + call.path + "?" + (shownQuery.isEmpty ? "" : shownQuery + "&")
            return HTTPRequest(
                url: url + "key=" + UpstreamCall.percentEncoded(key), redactedURL: shown + "key=REDACTED",
                headers: endpoint.basicAuthorization.map { [("Authorization", $0)] } ?? [], maximumBytes: largestAnswer)
        case .kakao:
            let url = endpoint.requestBase + call.path + (query.isEmpty ? "" : "?" + query)
            let shown = endpoint.baseURL + call.path + (shownQuery.isEmpty ? "" : "?" + shownQuery)
            return HTTPRequest(
                url: url, redactedURL: shown, headers: [("Authorization", "KakaoAK " + key)],
                maximumBytes: largestAnswer)
        }
    }

    private func unavailable(_ service: Service, _ detail: String, status: Int?) -> BoxOfficeError {
        var error = BoxOfficeError(
            .upstreamUnavailable, "\(service == .kobis ? "KOBIS" : "Kakao") is unavailable: \(detail)", service: service
        )
        error.status = status
        return error
    }

    private func rejected(_ service: Service, _ response: HTTPResponse, _ request: HTTPRequest) -> BoxOfficeError {
        if service == .kakao, let error = KakaoDecoder.errorBody(response.body, status: response.status) {
            return error
        }
        let hint =
            switch response.status {
            case 401, 403: "the key was refused"
            case 404: "no such endpoint (check the base URL)"
            default: "the request was refused"
            }
        var error = BoxOfficeError(
            .upstreamRejected,
            "\(service == .kobis ? "KOBIS" : "Kakao") answered HTTP \(response.status): \(hint) (\(request.redactedURL))",
            service: service)
        error.status = response.status
        error.upstreamCode = String(response.status)
        return error
    }

    /// The longest `Retry-After` waited for before a retry, in seconds; a longer one fails the call at once.
    static let longestRetryAfter = 5.0

    static func now() -> String {
        UTCTimestamp.now()
    }
}
