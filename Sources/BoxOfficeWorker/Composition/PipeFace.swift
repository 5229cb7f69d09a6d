import JSONRPC

/// The filter face, `boxoffice-worker pipe [METHOD]`: one outcome line for every input line, in input order, for
/// Unix pipelines, GNU parallel and stream processors that pair one line out with each line in (``JobLines``).
///
/// What the worker adds to the server's job lines: which member a bare string fills, the exit status the lines come
/// to, and the summary of failures written to stderr at the end (the only thing pipe ever writes there when nothing
/// is wrong with the worker itself, and only on a terminal).
package enum PipeFace {
    /// The member a bare string fills, by method: the first argument the clients and the CLI take.
    static let bareMembers: [String: String] = [
        "boxoffice.daily": "date", "boxoffice.weekly": "date", "movie.detail": "movieCode", "movie.poster": "title",
        "movie.search": "title", "people.search": "name", "people.detail": "peopleCode", "company.search": "name",
        "company.detail": "companyCode", "codes.list": "kind", "movie.run": "title",
    ]

    /// The server's job-line rules for `method` (nil: each line names its own).
    static func jobLines(_ method: String?) -> JobLines {
        JobLines(method: method, bareMembers: bareMembers)
    }

    /// The exit status the lines came to: 0 when every line succeeded (or there were none); 2 when some failed
    /// (running again after fixing or waiting redoes only those); when none succeeded, 75 if every failure is one
    /// time may mend (the upstream, the quota), else 1. `docs/jobs.md` has the table.
    static func exitStatus(_ tally: JobTally) -> Int32 {
        let failed = tally.failed
        guard !failed.isEmpty else { return ExitStatus.success }
        guard tally.succeeded == 0 else { return ExitStatus.partial }
        return ExitStatus.ofNothingWritten(reasons: Array(failed.keys), heldBackByQuota: false)
    }

    /// The one stderr line at the end when some lines failed, e.g. `boxoffice-worker pipe: 3 of 120 lines failed
    /// (2 not_found, 1 invalid_params)`; nil when none did.
    static func summary(_ tally: JobTally) -> String? {
        let failed = tally.failed
        let failures = failed.values.reduce(0, +)
        guard failures > 0 else { return nil }
        let reasons = failed.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
        let total = failures + tally.succeeded
        return "boxoffice-worker pipe: \(failures) of \(total) line\(total == 1 ? "" : "s") failed"
            + " (\(reasons.joined(separator: ", ")))\n"
    }
}
