import Foundation

/// Answers calls from the real services over an ``HTTPTransport``.
///
/// - The KOBIS key goes into the query string last, and only into the URL that is sent: every URL in an error or a
///   log is the redacted one. The Kakao key goes into `Authorization: KakaoAK <key>`.
/// - Transient failures (connect errors, timeouts, resets, HTTP 429 and 5xx) are retried per ``RetryPolicy``;
///   other 4xx answers and KOBIS `faultInfo` never are.
package struct LiveFetcher: Fetcher {
    /// One service's base URL and key.
    package struct Endpoint: Sendable {
        package var baseURL: String
        package var key: String?
        /// The environment variable that sets the key, named in `not_configured` errors.
        package var setting: String

        package init(baseURL: String, key: String?, setting: String) {
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            self.key = key
            self.setting = setting
        }
    }

    package var kobis: Endpoint
    package var kakao: Endpoint
    package var transport: any HTTPTransport
    /// Per attempt.
    package var timeout: Duration
    package var retry: RetryPolicy
    package var counters: UpstreamCounters

    package init(
        kobis: Endpoint, kakao: Endpoint, transport: any HTTPTransport, timeout: Duration,
        retry: RetryPolicy = RetryPolicy(), counters: UpstreamCounters = UpstreamCounters()
    ) {
        self.kobis = kobis
        self.kakao = kakao
        self.transport = transport
        self.timeout = timeout
        self.retry = retry
        self.counters = counters
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
        let request = Self.request(call, endpoint: endpoint, key: key)
        var lastProblem = ""
        var lastStatus: Int?
        for attempt in 1...max(1, retry.attempts) {
            if attempt > 1 {
                do {
                    try await Task.sleep(for: retry.delay(after: attempt - 1, random: Double.random(in: 0...1)))
                } catch {
                    throw BoxOfficeError(
                        .upstreamUnavailable, "cancelled while waiting to retry \(request.redactedURL)",
                        service: call.service)
                }
            }
            counters.record(call.service)
            let response: HTTPResponse
            do {
                response = try await transport.send(request, timeout: timeout)
            } catch {
                lastProblem = error.message
                lastStatus = nil
                if error.isTransient && !Task.isCancelled { continue }
                throw unavailable(call.service, Self.naming(error.message, request.redactedURL), status: nil)
            }
            switch response.status {
            case 200..<300:
                return Fetched(body: response.body, source: Source(origin: .kobis, fetchedAt: Self.now()))
            case 429, 500..<600:
                lastStatus = response.status
                lastProblem = "HTTP \(response.status)"
                continue
            default:
                throw rejected(call.service, response, request)
            }
        }
        throw unavailable(
            call.service, Self.naming("\(lastProblem) after \(retry.attempts) attempts", request.redactedURL),
            status: lastStatus)
    }

    /// `problem`, naming the (redacted) URL once: transport messages already name it, HTTP statuses do not.
    static func naming(_ problem: String, _ redactedURL: String) -> String {
        problem.contains(redactedURL) ? problem : "\(problem) (\(redactedURL))"
    }

    static func request(_ call: UpstreamCall, endpoint: Endpoint, key: String) -> HTTPRequest {
        let query = UpstreamCall.query(call.parameters.sorted { $0.key < $1.key })
        let base = endpoint.baseURL + call.path + (query.isEmpty ? "?" : "?" + query + "&")
        switch call.service {
        case .kobis:
            return HTTPRequest(
                url: base + "key=" + UpstreamCall.percentEncoded(key), redactedURL: base + "key=REDACTED")
        case .kakao:
            let url = endpoint.baseURL + call.path + (query.isEmpty ? "" : "?" + query)
            return HTTPRequest(url: url, redactedURL: url, headers: [("Authorization", "KakaoAK " + key)])
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

    static func now() -> String {
        Date().formatted(.iso8601)
    }
}
