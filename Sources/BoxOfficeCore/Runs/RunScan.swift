/// What a run's scan covered: the days looked at, the lists fetched for it, the lists the film was found in, and
/// why it stopped.
package struct RunCoverage: Sendable, Hashable {
    /// Why a scan stopped.
    package enum Stop: String, Sendable, Hashable {
        /// Every day up to `through` (or the last day the limits allow) was looked at.
        case through
        /// The run is over: ``RunScan/endAfter`` days in a row at or after the opening were in no list.
        case ended
        /// `maxCalls` lists were fetched.
        case maxCalls = "max_calls"
        /// KOBIS's daily quota (or the worker's guard of it) is spent.
        case quota = "quota_exhausted"
        /// Offline, the recorded lists end.
        case notRecorded = "offline_unavailable"
        /// There was no day to look at: no opening date, an opening after `through`, or a run before 2003-11-11.
        case noDays = "no_days"
    }

    /// The first day that could be looked at, and the last one of the days looked at in date order without a hole.
    package var from: CalendarDate?
    package var to: CalendarDate?
    package var daysLooked: Int
    /// The days looked at whose lists could not be had (a gap inside the run, or a day past its last listed one).
    package var failedDays: Int
    /// The lists fetched that the memory tier did not hold (KOBIS calls, unless the disk cache had them).
    package var calls: Int
    /// The lists the film was found in, in ``RunDay/List`` order.
    package var lists: [RunDay.List]
    package var stopped: Stop

    package init(
        from: CalendarDate?, to: CalendarDate?, daysLooked: Int, failedDays: Int, calls: Int, lists: [RunDay.List],
        stopped: Stop
    ) {
        (self.from, self.to, self.daysLooked, self.failedDays) = (from, to, daysLooked, failedDays)
        (self.calls, self.lists, self.stopped) = (calls, lists, stopped)
    }
}

/// The state of a run's scan: which day to look at next, what each day looked at came to, and when to stop.
///
/// Days are started in date order and finish in any order; the stop rules are judged on the days known without a
/// hole from the first, so a run stops at the same day however the calls interleave (only calls already in flight
/// may finish past it, and their days are kept).
struct RunScan {
    /// A film in no list this many days in a row, at or after its opening day, has left the charts: 7, a whole
    /// week of screenings (a film out of the top 10 on a weekday is often back on the weekend).
    static let endAfter = 7

    /// What looking at one day came to.
    enum Outcome: Sendable {
        case listed(RunDay.Figures)
        case missing(String)
        /// Nothing can be fetched any more: the day is missing for that reason and no new day is started.
        case stopped(RunCoverage.Stop)
    }

    let dates: [CalendarDate]
    let opening: CalendarDate
    private(set) var listed: [CalendarDate: RunDay.Figures] = [:]
    private(set) var missing: [CalendarDate: String] = [:]
    /// Why the scan stopped, judged in date order: the earliest day that stopped it (a failure that ends the scan,
    /// or the last of the days in no list), whichever order the calls finished in.
    var stop: RunCoverage.Stop? {
        switch (endedAt, stoppedAt) {
        case (let ended?, let stopped?): ended < stopped.index ? .ended : stopped.why
        case (_?, nil): .ended
        case (nil, let stopped?): stopped.why
        case (nil, nil): nil
        }
    }
    /// The first day whose lists could not be fetched any more, and why.
    private var stoppedAt: (index: Int, why: RunCoverage.Stop)?
    private(set) var done = 0
    /// The days looked at in date order without a hole, to the end of a run that ended or to the day before the
    /// one that stopped the scan: what the scan covered.
    var covered: Int {
        switch stop {
        case .ended?: (endedAt ?? 0) + 1
        case .some: min(prefix, stoppedAt?.index ?? prefix)
        case nil: prefix
        }
    }

    /// The days, in what was covered, whose lists could not be had (missing for another reason than `not_listed`).
    var failedDays: Int {
        dates.prefix(covered).filter { date in missing[date].map { $0 != "not_listed" } ?? false }.count
    }

    /// The figures and gaps of the days covered: a day past an end or a stop that finished first is not part of
    /// the run, so a run is the same however the calls interleave.
    var kept: (listed: [CalendarDate: RunDay.Figures], missing: [CalendarDate: String]) {
        let days = Set(dates.prefix(covered))
        return (listed.filter { days.contains($0.key) }, missing.filter { days.contains($0.key) })
    }
    private var next = 0
    private var known: [Bool]
    /// The first day not yet known, and the days in no list in a row before it.
    private var prefix = 0
    private var absentInARow = 0
    /// The last day of a run that ended (``RunCoverage/Stop/ended``).
    private var endedAt: Int?

    init(dates: [CalendarDate], opening: CalendarDate) {
        (self.dates, self.opening) = (dates, opening)
        known = Array(repeating: false, count: dates.count)
    }

    /// The next day to start, or nil when the scan is over or stopped.
    mutating func nextIndex() -> Int? {
        guard stop == nil, next < dates.count else { return nil }
        defer { next += 1 }
        return next
    }

    mutating func record(_ outcome: Outcome, at index: Int) {
        done += 1
        // A call in flight when the run ended: its day is past the end, whatever it says.
        if let endedAt, index > endedAt { return }
        let date = dates[index]
        switch outcome {
        case .listed(let figures):
            listed[date] = figures
        case .missing(let reason):
            missing[date] = reason
        case .stopped(let why):
            missing[date] = why.rawValue
            if stoppedAt.map({ index < $0.index }) ?? true { stoppedAt = (index, why) }
        }
        known[index] = true
        while prefix < dates.count, known[prefix] {
            let day = dates[prefix]
            if listed[day] != nil {
                absentInARow = 0
            } else if missing[day] == "not_listed", day >= opening {
                absentInARow += 1
            }
            prefix += 1
            if absentInARow >= Self.endAfter, endedAt == nil {
                endedAt = prefix - 1
                // Days past the end that finished first are not part of the run.
                for later in dates[prefix...] {
                    listed[later] = nil
                    missing[later] = nil
                }
                return
            }
        }
    }
}
