import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import FoundationEssentials
import Glibc
import JSONCore
import JSONRPC
import SystemPackage

extension CLISession {
    /// `--from/--to … --format html --out DIR`: one page per day or period (`DIR/<last day>.html`, or
    /// `DIR/<period>-<last day>.html` for weeks), its posters copied to `DIR/posters/`, and the index of every page
    /// the folder holds (``SiteIndex``). The index and its manifest are written after each page, so a run that fails
    /// part way leaves a site that links what it wrote. A period that cannot be had is said and skipped; the run then
    /// ends with 2, as a partial range export does. A folder holds one kind of box office (daily, or one weekly
    /// period, with the same filters): pages of another kind are refused, not written over its pages.
    ///
    /// The quota is planned as the range export plans it (``RangePlan``): a range that needs more KOBIS calls than
    /// remain is refused before any call, and `--max-calls N` writes the cached pages and N more. Every file is
    /// written by ``SiteFile``: a link planted in the folder is replaced, never followed.
    func writeSite(
        _ inputs: [BoxOfficeMethod.Input], method: BoxOfficeMethod, folder path: String,
        layout: ListLayout, maxCalls: Int?
    ) async -> Int32 {
        guard !inputs.isEmpty else {
            return fail(
                CLIRefusal(
                    "no \(method.kind == .daily ? "day" : "period") in the range has ended; nothing to write"))
        }
        let kind = Self.siteKind(method, inputs[0])
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let manifest = folder.appendingPathComponent("pages.json")
        var index: SiteIndex?
        do {
            try AtomicFile.makeDirectories(
                folder.path, permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        } catch {
            return fail("the site's folder \(path) could not be made: \(error)")
        }
        let data: [UInt8]?
        do throws(SiteFile.Failure) {
            data = try SiteFile.read(named: "pages.json", in: folder.path)
        } catch {
            return fail(error.description)
        }
        if let data {
            guard let known = SiteIndex(manifest: String(decoding: data, as: UTF8.self)) else {
                return fail(
                    "\(manifest.path) is not this site's list of pages; remove it (the index is made again) or choose another folder"
                )
            }
            if let other = known.kind, other != kind {
                return fail(
                    CLIRefusal(
                        "\(path) is a site of \(other); these pages (\(kind)) go in a folder of their own"))
            }
            index = known
        }
        let range: RangePlan
        do throws(RangePlan.Refusal) {
            range = try await RangePlan(session: self, method: method, inputs: inputs, maxCalls: maxCalls)
        } catch {
            if let refused = error.error { return fail(refused) }
            _ = fail(error.message)
            return ExitStatus.temporaryFailure
        }
        let fetched = Set(range.cached.keys).union(range.chosen)
        var failures: [(label: String, reason: String, message: String)] = []
        for (position, input) in inputs.enumerated() {
            guard fetched.contains(position) else {
                failures.append(
                    (
                        label: input.date.map(\.description) ?? "?", reason: "not_fetched",
                        message: "left for a later run (--max-calls or the quota)"
                    ))
                continue
            }
            let answer: BoxOfficeAnswer
            do {
                answer = try await call(method, input)
            } catch let error as RPCError {
                // One period that cannot be had (offline, the quota, upstream) does not stop the others.
                failures.append(
                    (
                        label: input.date.map(\.description) ?? "?",
                        reason: error.data?["reason"]?.stringValue ?? "error", message: error.message
                    ))
                continue
            } catch {
                return fail(error)
            }
            let office = answer.office.value
            let content = answer.view
            let page = await methods.presenter.sitePage(content, layout: layout, folder: folder, index: "index.html") {
                say($0)
            }
            let name =
                method.kind == .daily
                ? "\(office.end).html" : "\((input.period ?? .weekend).rawValue)-\(office.end).html"
            var site = index ?? SiteIndex(title: office.label)
            site.kind = kind
            site.add(.init(file: name, heading: content.heading, top: content.items.first?.title))
            index = site
            for (file, text) in [(name, page), ("index.html", site.html), ("pages.json", site.manifest)] {
                do throws(SiteFile.Failure) {
                    try SiteFile.write(Array(text.utf8), named: file, in: folder.path)
                } catch {
                    return fail(error.description)
                }
            }
        }
        guard failures.isEmpty else {
            // As a partial range export says it: the first days one by one, then a count, and each reason once.
            _ = fail(
                "the site in \(path) is partial: \(failures.count) of \(inputs.count) pages were not written; run again to add them\n"
                    + MissingPeriod.report(failures))
            // None written: as a range export with nothing written, temporary when time may mend every page.
            return failures.count == inputs.count
                ? ExitStatus.ofNothingWritten(reasons: failures.map(\.reason), heldBackByQuota: range.heldBackByQuota)
                : ExitStatus.partial
        }
        return 0
    }

    /// What a site's pages are: the method, and the params that pick the box office (the period, the filters,
    /// the limit), so that pages of another kind are not mixed into its folder.
    static func siteKind(_ method: BoxOfficeMethod, _ input: BoxOfficeMethod.Input) -> String {
        var params = input.params
        for member in ["date", "include", "refresh", "chat", "card"] { params[member] = nil }
        if method.kind == .weekly, params["period"] == nil { params["period"] = .string(WeekPeriod.weekend.rawValue) }
        return params.keys.isEmpty
            ? method.kind.rawValue : "\(method.kind.rawValue) \(JSONSerializer.string(.object(params)))"
    }
}
