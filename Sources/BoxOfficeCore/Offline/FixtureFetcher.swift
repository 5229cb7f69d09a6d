import JSONCore
import NIOConcurrencyHelpers

/// Offline mode's upstream: the recorded responses in `Fixtures/`, looked up by the call's canonical key and
/// decoded by the same code as live bodies.
package struct FixtureFetcher: Fetcher {
    /// Each call's fixture file, by the call's key; the file is read (and copied into bytes) when a call asks for it,
    /// not at start: the first answer of a worker that is only pinged, or asked for one day, reads one file or none.
    private let files: [String: String]
    private let file: @Sendable (String) -> String?
    /// Each body parsed once, on first use: fixtures never change, so re-parsing them per request is waste.
    private let documents = ParsedDocuments()
    /// When the fixtures were written (RFC 3339): their `source.fetchedAt`.
    package let recordedAt: String
    /// What the fixtures cover, for `offline_unavailable` and for the offline defaults.
    package let coverage: OfflineCoverage

    /// `index` is `Fixtures/index.json` (`{"recordedAt", "calls": [[service, path, file, parameters], …]}`, read at
    /// every start, so as few values as a call needs); `file` reads a fixture file by its path relative to
    /// `Fixtures/`.
    package init(index: String, file: @escaping @Sendable (String) -> String?) throws(BoxOfficeError) {
        let root = try UpstreamReader.parse(.kobis, Array(index.utf8))
        recordedAt = try root.member("recordedAt").string()
        var files: [String: String] = [:]
        var coverage = OfflineCoverage()
        for entry in try root.member("calls").elements() {
            guard case .array(let fields) = entry.value, fields.count == 4,
                let service = fields[0].stringValue.flatMap(Service.init(rawValue:)),
                let path = fields[1].stringValue, let name = fields[2].stringValue,
                case .object(let object) = fields[3]
            else {
                throw entry.fail("expected [service, path, file, parameters]")
            }
            var parameters: [String: String] = [:]
            for member in object { parameters[member.key] = member.value.stringValue ?? member.value.description }
            let call = UpstreamCall(service: service, path: path, parameters: parameters)
            guard file(name) != nil else { throw entry.fail("the fixture file \(name) is missing") }
            files[call.key] = name
            coverage.record(call)
        }
        self.files = files
        self.file = file
        self.coverage = coverage
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        guard let name = files[key], let text = file(name) else { throw coverage.unavailable(call) }
        let body = Array(text.utf8)
        return Fetched(
            body: body, source: Source(origin: .fixture, fetchedAt: recordedAt), document: documents.parsed(key, body))
    }
}

/// Parsed fixture bodies by call key, filled on first use; a body that does not parse is left to the decoder,
/// which reports it as it would a live one.
final class ParsedDocuments: Sendable {
    private let table = NIOLockedValueBox<[String: JSONValue]>([:])

    func parsed(_ key: String, _ body: [UInt8]) -> JSONValue? {
        if let known = table.withLockedValue({ $0[key] }) { return known }
        guard let document = try? JSONParser.parse(body) else { return nil }
        table.withLockedValue { $0[key] = document }
        return document
    }
}
