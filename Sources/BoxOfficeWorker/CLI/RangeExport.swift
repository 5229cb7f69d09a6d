import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import FoundationEssentials
import Glibc
import JSONCore
import JSONRPC

/// A range of days (or weekly periods) exported for a job, with the KOBIS quota in mind.
///
/// It plans first (``RangePlan``: refused before any call when the range cannot be had, `--max-calls` honoured);
/// then it fetches the chosen periods (concurrently under the per-service bound), writes every period it has in
/// date order, and names every period it lacks (on stderr, and with `--missing` as the last NDJSON line). Finished
/// periods are cached, so running it again resumes; SIGINT stops it the same way (what was fetched is kept).
struct RangeExport {
    let session: CLISession
    /// The method whose rules plan every period.
    let method: BoxOfficeMethod
    /// One input per period, in date order.
    let inputs: [BoxOfficeMethod.Input]
    let format: CLIFormat
    let excel: Bool
    let maxCalls: Int?
    /// `--missing`: end the NDJSON with one line naming the periods not written.
    let missingSummary: Bool

    /// Exit codes (``ExitStatus``): 0 every period written; 2 partial: some written, the rest missing (a failure,
    /// the quota or `--max-calls`); none written: 75 when every period missing is one time may mend (the upstream
    /// unavailable, the quota, `--max-calls`) or the plan was refused for the quota, else 1; 130 interrupted.
    func run() async -> Int32 {
        let service = session.service
        let range: RangePlan
        do throws(RangePlan.Refusal) {
            range = try await RangePlan(session: session, method: method, inputs: inputs, maxCalls: maxCalls)
        } catch {
            if let refused = error.error { return session.fail(refused) }
            // The quota cannot cover the range today: tomorrow's can.
            _ = session.fail(error.message)
            return ExitStatus.temporaryFailure
        }
        let plans = range.plans
        var offices = range.cached
        let cached = Set(offices.keys)
        let chosen = range.chosen
        let progress = ProgressBar(total: cached.count + chosen.count)
        for _ in cached { progress.step(call: false) }
        // Fired by SIGINT/SIGTERM ("by shutdown": the user stopped it) or when every fetch is done.
        let stop = CancellationSignal()
        let watcher = SignalWatcher(signals: [SIGINT, SIGTERM]) { _ in stop.fire(byShutdown: true) }
        defer { watcher.cancel() }
        var failures: [Int: BoxOfficeError] = [:]
        if chosen.isEmpty { stop.fire(byShutdown: false) }
        await withTaskGroup(of: (Int, Result<BoxOffice, BoxOfficeError>)?.self) { group in
            group.addTask {
                await stop.wait()
                return nil
            }
            for index in chosen {
                let plan = plans[index]
                group.addTask {
                    // Through Result(awaiting:): a do/catch returning this tuple is miscompiled under -O.
                    let result = await Result { () async throws(BoxOfficeError) in
                        try await service.boxOffice(plan).value
                    }
                    return (index, result)
                }
            }
            var finished = 0
            for await outcome in group {
                guard let (index, result) = outcome else {
                    group.cancelAll()
                    break
                }
                finished += 1
                switch result {
                case .success(let office): offices[index] = office
                case .failure(let error): failures[index] = error
                }
                progress.step(call: true)
                if finished == chosen.count {
                    stop.fire(byShutdown: false)
                }
            }
        }
        progress.finish()
        write(plans.indices.compactMap { offices[$0] })
        let asked = Set(chosen)
        let missing = plans.indices.filter { offices[$0] == nil }.map { index in
            MissingPeriod(
                request: plans[index].request,
                why: failures[index].map(MissingPeriod.Why.failed)
                    ?? (stop.firedByShutdown && asked.contains(index) ? .interrupted : .notFetched))
        }
        if missingSummary { session.write(MissingPeriod.summary(missing, written: offices.count)) }
        if missing.isEmpty { return 0 }
        let what = "\(offices.count) of \(plans.count) periods written"
        let report = MissingPeriod.report(missing)
        if stop.firedByShutdown {
            _ = session.fail("interrupted: \(what); run again to resume\n\(report)")
            return 130
        }
        if offices.isEmpty {
            _ = session.fail("nothing written: no period could be fetched\n\(report)")
            return ExitStatus.ofNothingWritten(reasons: missing.map(\.reason), heldBackByQuota: range.heldBackByQuota)
        }
        _ = session.fail("partial: \(what); run again to fetch the rest\n\(report)")
        return 2
    }

    func write(_ offices: [BoxOffice]) {
        switch format {
        case .csv:
            session.write((excel ? CSVText.excelBOM : "") + CSVText.row(BoxOfficeRows.columns))
            for office in offices { session.write(BoxOfficeRows.csv(office).joined()) }
        // A range is never text nor a format to post (refused before it runs; html is a site); NDJSON is what they would take.
        case .ndjson, .text, .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            for office in offices { session.write(BoxOfficeRows.ndjson(office).joined()) }
        case .json:
            session.write(
                "[" + offices.map { JSONSerializer.string(ModelEncoding.boxOffice($0)) }.joined(separator: ",") + "]\n")
        }
    }
}
