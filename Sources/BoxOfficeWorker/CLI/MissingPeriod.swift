import BoxOfficeCore
import BoxOfficeViews
import JSONCore

/// A period a range export did not write, and why: what a job needs to know before it trusts the file.
struct MissingPeriod {
    enum Why {
        /// Its call failed (the error says how: not found, upstream down, the quota spent mid-run, …).
        case failed(BoxOfficeError)
        /// Never asked for: `--max-calls` or the day's quota left no call for it.
        case notFetched
        /// Asked for, and SIGINT/SIGTERM came first.
        case interrupted
    }

    let request: BoxOfficeRequest
    let why: Why

    /// The days the period covers.
    var days: (start: CalendarDate, end: CalendarDate)? {
        switch request.span {
        case .daily(let day?): (day, day)
        case .weekly(let day?, let period): period.range(containing: day)
        default: nil
        }
    }

    /// `2023-04-24`, or `week 2023-04-17–2023-04-23`.
    var label: String {
        guard let days else { return "?" }
        if case .weekly(_, let period) = request.span { return "\(period.rawValue) \(days.start)–\(days.end)" }
        return days.start.description
    }

    var reason: String {
        switch why {
        case .failed(let error): error.reason.rawValue
        case .notFetched: "not_fetched"
        case .interrupted: "interrupted"
        }
    }

    var message: String {
        switch why {
        case .failed(let error): error.message
        case .notFetched: "no KOBIS call was left for it (--max-calls or today's quota)"
        case .interrupted: "the export was stopped before it came"
        }
    }

    /// How many missing periods stderr names one by one; the rest are counted.
    static let listed = 20

    /// For stderr: each missing period with its reason (the first ``listed``, then a count), then each distinct
    /// message once (a year of days failing the same way is one message, not 365).
    static func report(_ missing: [MissingPeriod]) -> String {
        report(missing.map { (label: $0.label, reason: $0.reason, message: $0.message) })
    }

    /// The same report for anything missed by a label, a reason and a message (a site's pages, whose failures are
    /// the methods' errors).
    static func report(_ missing: [(label: String, reason: String, message: String)]) -> String {
        var lines = ["missing \(missing.count):"]
        for period in missing.prefix(listed) { lines.append("  \(period.label) (\(period.reason))") }
        if missing.count > listed { lines.append("  … and \(missing.count - listed) more") }
        var seen: Set<String> = []
        for period in missing where seen.insert(period.reason + period.message).inserted {
            lines.append("\(period.reason): \(TerminalText.clean(period.message))")
        }
        return lines.joined(separator: "\n")
    }

    /// `--missing`: one NDJSON line, `{"missing":[{"start","end","reason","message"}…],"written":N,"expected":M}`,
    /// written even when nothing is missing, so a job can always read it last.
    static func summary(_ missing: [MissingPeriod], written: Int) -> String {
        let periods: [JSONValue] = missing.map { period in
            [
                "start": period.days.map { .string($0.start.description) } ?? .null,
                "end": period.days.map { .string($0.end.description) } ?? .null,
                "reason": .string(period.reason), "message": .string(period.message),
            ]
        }
        let line: JSONValue = [
            "missing": .array(periods), "written": .integer(Int64(written)),
            "expected": .integer(Int64(written + missing.count)),
        ]
        return JSONSerializer.string(line) + "\n"
    }
}
