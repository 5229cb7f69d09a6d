import JSONCore
import NIOConcurrencyHelpers

/// Offline mode's upstream: the recorded responses in `Fixtures/`, looked up by the call's canonical key and
/// decoded by the same code as live bodies.
package struct FixtureFetcher: Fetcher {
    /// Each call's fixture file and what the recordings cover, parsed from the index on first use (the first
    /// offline call, or the first look at ``coverage``): a start reads only ``summary``.
    private let index: FixtureIndex
    private let file: @Sendable (String) -> String?
    /// Each body parsed once, on first use: fixtures never change, so re-parsing them per request is waste.
    private let documents = ParsedDocuments()
    /// What a start needs (the notice, the offline defaults), summarised at build time.
    package let summary: OfflineSummary

    /// When the fixtures were written (RFC 3339): their `source.fetchedAt`.
    package var recordedAt: String { summary.recordedAt }

    /// What the fixtures cover, for `offline_unavailable` and MCP's resources; parses the index the first time.
    package var coverage: OfflineCoverage {
        (try? index.parsed().coverage) ?? OfflineCoverage()
    }

    /// `summary` is `Fixtures/summary.json` (``OfflineSummary``); `index` is `Fixtures/index.json` (`{"recordedAt",
    /// "calls": [[service, path, file, parameters], …], "runs"?: {"index", "through"}}`, as few values as a call
    /// needs), parsed on first use; `file` reads a fixture file by its path relative to `Fixtures/`.
    package init(summary: String, index: String, file: @escaping @Sendable (String) -> String?) throws(BoxOfficeError) {
        self.summary = try OfflineSummary(summary)
        self.index = FixtureIndex(index: index, file: file)
        self.file = file
    }

    /// Parses the index now (a test's check that it is whole; the worker never needs to).
    package func parseIndex() throws(BoxOfficeError) {
        _ = try index.parsed()
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
        let parsed = try index.parsed()
        var name = parsed.files[key]
        if name == nil, let runs = parsed.runs { name = try runs.file(for: key) }
        guard let name, let text = file(name) else {
            throw parsed.coverage.unavailable(call)
        }
        let body = Array(text.utf8)
        return Fetched(
            body: body, source: Source(origin: .fixture, fetchedAt: recordedAt), document: documents.parsed(key, body))
    }
}

/// The main index, parsed once on first use: each call's file, the coverage, the runs' own index.
private final class FixtureIndex: Sendable {
    struct Parsed: Sendable {
        let files: [String: String]
        let coverage: OfflineCoverage
        let runs: RunFixtures?
    }

    private let index: String
    private let file: @Sendable (String) -> String?
    private let table = NIOLockedValueBox<Result<Parsed, BoxOfficeError>?>(nil)

    init(index: String, file: @escaping @Sendable (String) -> String?) {
        (self.index, self.file) = (index, file)
    }

    func parsed() throws(BoxOfficeError) -> Parsed {
        try table.withLockedValue { table in
            if let table { return table }
            let read = Result { () throws(BoxOfficeError) -> Parsed in
                let root = try UpstreamReader.parse(.kobis, Array(index.utf8))
                var coverage = OfflineCoverage()
                let files = try FixtureFetcher.files(root, file: file) { coverage.record($0) }
                var runs: RunFixtures?
                if let recorded = root.optionalMember("runs") {
                    let through = try recorded.member("through").string()
                    guard let date = CalendarDate(through) else { throw recorded.fail("expected a date as through") }
                    coverage.runsThrough = date
                    runs = RunFixtures(index: try recorded.member("index").string(), file: file)
                }
                return Parsed(files: files, coverage: coverage, runs: runs)
            }
            table = read
            return read
        }.get()
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
        guard let document = try? JSONParser.parseBody(body) else { return nil }
        table.withLockedValue { $0[key] = document }
        return document
    }
}
