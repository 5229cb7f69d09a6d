import BoxOfficeCore
import Foundation
import JSONCore
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Runs rebuilt from the real daily lists of 2023-01-01..2024-06-30 (`../shared/data/kobis/runs/`, read as data:
/// the 2023 files carry 9 of the 18 fields), and from small made-up runs for the gaps.
@Suite("A film's run from daily lists")
struct FilmRunTests {
    /// One film's row of one day's overall list.
    struct Row {
        let date: CalendarDate
        let movieCode: String
        let title: String
        let openDate: CalendarDate?
        let figures: RunDay.Figures
    }

    /// Every row of every daily file, by film.
    static let rows: [String: [Row]] = {
        var rows: [String: [Row]] = [:]
        for file in SharedData.files(in: "data/kobis/runs") where file.lastPathComponent.hasPrefix("daily-") {
            let name = file.deletingPathExtension().lastPathComponent.dropFirst("daily-".count)
            guard let date = CalendarDate(String(name)), let data = try? Data(contentsOf: file),
                let body = try? JSONParser.parse([UInt8](data)),
                let list = body[at: "/boxOfficeResult/dailyBoxOfficeList"]?.arrayValue
            else { continue }
            for entry in list {
                func number(_ key: String) -> Int64 { entry[key]?.stringValue.flatMap { Int64($0) } ?? 0 }
                guard let code = entry["movieCd"]?.stringValue else { continue }
                let figures = RunDay.Figures(
                    rank: Int(number("rank")), list: .all, audience: number("audiCnt"),
                    audienceTotal: number("audiAcc"), sales: number("salesAmt"), salesTotal: number("salesAcc"),
                    screens: number("scrnCnt"), shows: number("showCnt"))
                rows[code, default: []].append(
                    Row(
                        date: date, movieCode: code, title: entry["movieNm"]?.stringValue ?? "",
                        openDate: entry["openDt"]?.stringValue.flatMap(CalendarDate.init), figures: figures))
            }
        }
        return rows
    }()

    static func run(_ rows: [Row]) -> FilmRun {
        let first = rows[0]
        return FilmRun(
            movieCode: first.movieCode, title: first.title, openDate: first.openDate,
            through: CalendarDate("2024-06-30")!,
            listed: Dictionary(rows.map { ($0.date, $0.figures) }, uniquingKeysWith: { first, _ in first }),
            missing: [:])
    }

    @Test(
        "every film past a million: totals as listed, each milestone the first listed day at or over its step",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func millionFilms() throws {
        let films = Self.rows.values.filter { $0.contains { $0.figures.audienceTotal >= 1_000_000 } }
        #expect(films.count >= 20)
        for rows in films {
            let run = Self.run(rows)
            let byDate = Dictionary(rows.map { ($0.date, $0.figures) }, uniquingKeysWith: { first, _ in first })
            for day in run.days {
                if let figures = day.figures {
                    #expect(figures.audienceTotal == byDate[day.date]?.audienceTotal)
                } else {
                    #expect(byDate[day.date] == nil, "\(run.title) \(day.date): a listed day reported missing")
                }
            }
            let listed = run.days.filter { $0.figures != nil }
            for milestone in run.milestones {
                let first = listed.first { $0.figures!.audienceTotal >= milestone.audience }
                #expect(first?.date == milestone.date, "\(run.title) \(milestone.audience)")
            }
            #expect(run.milestones.contains { $0.audience == 1_000_000 })
        }
    }

    @Test(
        "서울의 봄 (opened 2023-11-22) passed 10,000,000 on 2023-12-24, day 33",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func springInSeoul() throws {
        let rows = try #require(Self.rows.values.first { $0.contains { $0.title == "서울의 봄" } })
        let run = Self.run(rows)
        #expect(run.openDate == CalendarDate("2023-11-22"))
        let tenMillion = try #require(run.milestones.first { $0.audience == 10_000_000 })
        #expect(tenMillion.date == CalendarDate("2023-12-24"))
        #expect(tenMillion.day == 33)
        #expect(run.summary.opening.value?.date == CalendarDate("2023-11-22"))
        let first = try #require(run.summary.firstWeek.value)
        let second = try #require(run.summary.secondWeek.value)
        // Word of mouth: the second week outsold the first, so the drop is negative.
        #expect(second > first)
        #expect(try #require(run.summary.secondWeekDrop.value) < 0)
        #expect(try #require(run.summary.stayingPower.value) > 1)
    }

    static func made(_ day: Int, total: Int64, audience: Int64 = 100, shows: Int64 = 10) -> RunDay.Figures {
        RunDay.Figures(
            rank: 1, list: .all, audience: audience, audienceTotal: total, sales: 0, salesTotal: 0, screens: 5,
            shows: shows)
    }

    @Test("a day in no list is a gap with its reason and no figure; a figure that needs it says so")
    func gaps() throws {
        let open = CalendarDate("2024-03-01")!  // a Friday
        var listed: [CalendarDate: RunDay.Figures] = [:]
        for day in 1...14 where day != 7 {
            listed[open.adding(days: day - 1)] = Self.made(day, total: Int64(day) * 100)
        }
        let run = FilmRun(
            movieCode: "20240001", title: "가", openDate: open, through: open.adding(days: 20), listed: listed,
            missing: [open.adding(days: 6): "quota_exhausted"])
        #expect(run.days.count == 14)
        #expect(run.days[6].listing == .missing("quota_exhausted"))
        #expect(run.days[6].figures == nil)
        guard case .unavailable(let reason) = run.summary.firstWeek else {
            Issue.record("the first week needs day 7")
            return
        }
        #expect(reason.contains("day 7") && reason.contains("quota_exhausted"))
        #expect(run.summary.totalAtDay14.value == 1_400)
        #expect(run.summary.totalAtDay49.value == nil)
        #expect(run.summary.bestWeekend.value?.friday == open)
        #expect(run.summary.bestWeekend.value?.audience == 300)
    }

    @Test("previews count below day 1 and before the first week; steps are 100,000 below a million")
    func previewsAndSteps() {
        let open = CalendarDate("2024-03-06")!
        let listed: [CalendarDate: RunDay.Figures] = [
            open.adding(days: -2): Self.made(-1, total: 50_000, audience: 50_000),
            open: Self.made(1, total: 350_000, audience: 300_000),
            open.adding(days: 6): Self.made(7, total: 1_250_000, audience: 100_000),
        ]
        let run = FilmRun(
            movieCode: "20240002", title: "나", openDate: open, through: open.adding(days: 6), listed: listed,
            missing: [:])
        #expect(run.days.first?.day == -1)
        #expect(run.days.count == 9)
        #expect(run.days.filter { $0.figures == nil }.allSatisfy { $0.listing == .missing("not_listed") })
        #expect(run.summary.firstWeek.value == 1_200_000)
        #expect(
            Milestone.steps(upTo: 2_500_000) == [
                100_000, 200_000, 300_000, 400_000, 500_000, 600_000, 700_000,
                800_000, 900_000, 1_000_000, 2_000_000,
            ])
        #expect(
            run.milestones.map(\.audience) == [
                100_000, 200_000, 300_000, 400_000, 500_000, 600_000, 700_000,
                800_000, 900_000, 1_000_000,
            ])
        #expect(run.milestones.first { $0.audience == 400_000 }?.day == 7)
    }
}

/// The service rebuilding a run through its chain, against the real 2024 lists (full fields, and the K/F and
/// 다양성/상업 lists) served by a fetcher that counts its calls.
@Suite("A film's run fetched through the service")
struct FilmRunServiceTests {
    /// Serves `searchDailyBoxOfficeList` from `../shared/data/kobis/runs` by `targetDt`, `repNationCd` and
    /// `multiMovieYn`; a day it has no file for is an upstream failure.
    final class RecordedLists: Fetcher, @unchecked Sendable {
        // @unchecked: `calls` is guarded by `lock`.
        private let lock = NSLock()
        private var calls: [String] = []
        /// Days (`yyyyMMdd`) whose every list fails as an unavailable upstream.
        let failing: Set<String>

        init(failing: Set<String> = []) {
            self.failing = failing
        }

        var count: Int { lock.withLock { calls.count } }

        func fetch(_ call: UpstreamCall) async throws(BoxOfficeError) -> Fetched {
            lock.withLock { calls.append(call.key) }
            var folder = "data/kobis/runs"
            if let nation = call.parameters["repNationCd"] { folder += "/filtered/repNationCd-\(nation)" }
            if let kind = call.parameters["multiMovieYn"] { folder += "/filtered/multiMovieYn-\(kind)" }
            let day = call.parameters["targetDt"] ?? ""
            let file = SharedData.directory.appending(path: "\(folder)/daily-\(day).json")
            guard !failing.contains(day), let data = try? Data(contentsOf: file) else {
                throw BoxOfficeError(.upstreamUnavailable, "no recorded list for \(call.key)")
            }
            return Fetched(body: [UInt8](data), source: Source(origin: .kobis, fetchedAt: "2024-07-01T00:00:00Z"))
        }
    }

    static let exhuma = "20234675"  // 파묘, opened 2024-02-22

    static func request(_ days: ClosedRange<CalendarDate>) -> BoxOfficeService.RunRequest {
        BoxOfficeService.RunRequest(
            movieCode: exhuma, title: "파묘", openDate: CalendarDate("2024-02-22"), nation: .korean, diversity: false,
            days: days)
    }

    @Test(
        "파묘: the overall list while it is in it, the Korean list after; ten million on day 32; every day counted",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func exhuma() async throws {
        let lists = RecordedLists()
        let service = BoxOfficeService(fetcher: lists, calendar: { SeoulCalendar(today: CalendarDate("2024-07-01")!) })
        let days = CalendarDate("2024-02-15")!...CalendarDate("2024-06-30")!
        let done = NIOLockedValueBox(0)
        let (run, coverage) = await service.run(Self.request(days), width: 8) { finished, total in
            done.withLockedValue { $0 = max($0, finished) }
            #expect(total == 137)
        }
        // The run is over after 7 days in no list (06-03..06-09); calls in flight may finish past it.
        #expect(coverage.stopped == .ended && coverage.to == CalendarDate("2024-06-09") && coverage.daysLooked == 116)
        #expect(done.withLockedValue { $0 } >= 116 && coverage.lists == [.all, .korean])
        // Previews on 02-20 and 02-21 (the 21st in the Korean list only), the last listed day 06-02.
        #expect(run.days.first?.date == CalendarDate("2024-02-20"))
        #expect(run.days.first?.day == -1)
        #expect(run.days.last?.date == CalendarDate("2024-06-02"))
        #expect(run.days.first { $0.date == CalendarDate("2024-02-21") }?.figures?.list == .korean)
        #expect(run.days.first { $0.date == CalendarDate("2024-05-20") }?.figures?.list == .korean)
        #expect(run.days.first { $0.date == CalendarDate("2024-03-24") }?.figures?.list == .all)
        let tenMillion = try #require(run.milestones.first { $0.audience == 10_000_000 })
        #expect(tenMillion.date == CalendarDate("2024-03-24") && tenMillion.day == 32)
        // One overall list a day, and the narrower lists only on the days the film is outside it.
        let outside = 116 - 84
        #expect(lists.count >= 116 + outside && lists.count <= 137 + 2 * (137 - 84), "\(lists.count) calls")
        #expect(coverage.calls == lists.count, "without a cache in front every list fetched is a call")
    }

    @Test(
        "a day whose lists cannot be had is a gap with the failure's reason, never a figure",
        .enabled(if: SharedData.isAvailable, "\(SharedData.unavailableReason)"))
    func unavailableDays() async {
        let lists = RecordedLists(failing: ["20240303"])
        let service = BoxOfficeService(fetcher: lists, calendar: { SeoulCalendar(today: CalendarDate("2024-07-01")!) })
        let (run, _) = await service.run(Self.request(CalendarDate("2024-03-01")!...CalendarDate("2024-03-05")!))
        #expect(run.days.count == 5)
        #expect(run.days[2].listing == .missing("upstream_unavailable"))
        #expect(run.days.filter { $0.figures != nil }.count == 4)
        // Days outside the first and last listed one are not part of the run: 06-03.. had the film in no list.
        let (late, coverage) = await service.run(
            Self.request(CalendarDate("2024-05-28")!...CalendarDate("2024-06-30")!))
        #expect(coverage.stopped == .ended && coverage.to == CalendarDate("2024-06-09"))
        #expect(late.days.last?.date == CalendarDate("2024-06-02"))
        #expect(late.days.contains { $0.listing == .missing("not_listed") })
    }
}
