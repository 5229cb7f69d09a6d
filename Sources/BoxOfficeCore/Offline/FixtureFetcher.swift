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

    /// The recorded runs' own index (`runs.index`: every daily list of the films whose runs are recorded), read
    /// on the first call the main index does not cover, so a start reads only the main index.
    private let runs: RunFixtures?

    /// `index` is `Fixtures/index.json` (`{"recordedAt", "calls": [[service, path, file, parameters], …], "runs"?:
    /// {"index", "through"}}`, read at every start, so as few values as a call needs); `file` reads a fixture file by
    /// its path relative to `Fixtures/`.
    package init(index: String, file: @escaping @Sendable (String) -> String?) throws(BoxOfficeError) {
        let root = try UpstreamReader.parse(.kobis, Array(index.utf8))
        recordedAt = try root.member("recordedAt").string()
        var coverage = OfflineCoverage()
        files = try Self.files(root, file: file) { coverage.record($0) }
        if let runs = root.optionalMember("runs") {
            let through = try runs.member("through").string()
            guard let date = CalendarDate(through) else { throw runs.fail("expected a date as through") }
            coverage.runsThrough = date
            self.runs = RunFixtures(index: try runs.member("index").string(), file: file)
        } else {
            self.runs = nil
        }
        self.file = file
        self.coverage = coverage
    }

    /// Each call's file by the call's key, from an index's `calls`.
    fileprivate static func files(
        _ root: UpstreamReader, file: (String) -> String?, record: (UpstreamCall) -> Void
    ) throws(BoxOfficeError) -> [String: String] {
        var files: [String: String] = [:]
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
            record(call)
        }
        return files
    }

    package func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
        let key = call.key
        var name = files[key]
        if name == nil, let runs { name = try runs.file(for: key) }
        guard let name, let text = file(name) else {
            throw coverage.unavailable(call)
        }
        let body = Array(text.utf8)
        return Fetched(
            body: body, source: Source(origin: .fixture, fetchedAt: recordedAt), document: documents.parsed(key, body))
    }
}

/// The recorded runs' index, read once on first use.
private final class RunFixtures: Sendable {
    private let index: String
    private let file: @Sendable (String) -> String?
    private let table = NIOLockedValueBox<Result<[String: String], BoxOfficeError>?>(nil)

    init(index: String, file: @escaping @Sendable (String) -> String?) {
        (self.index, self.file) = (index, file)
    }

    /// The file of the call with `key`; nil when the runs do not record it. - Throws: when the index is broken.
    func file(for key: String) throws(BoxOfficeError) -> String? {
        let files = table.withLockedValue { table in
            if let table { return table }
            let read = Result { () throws(BoxOfficeError) -> [String: String] in
                guard let text = file(index) else {
                    throw BoxOfficeError(.offlineUnavailable, "the recorded runs' index \(index) is missing")
                }
                let root = try UpstreamReader.parse(.kobis, Array(text.utf8))
                return try FixtureFetcher.files(root, file: file) { _ in }
            }
            table = read
            return read
        }
        return try files.get()[key]
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
