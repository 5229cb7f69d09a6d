import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import BoxOfficeWorker
import Foundation
import TestSupport
import Testing
import WorkerTestSupport

/// The CLI's box office screens rendered in process from the offline service, against the same golden files the
/// terminal tests (`Tests/CLI/test_screens.py`, tmux) hold the binary's screens to: a rendering change shows here in
/// milliseconds, and the terminal tests keep what only a terminal shows (its width, colours, the process).
@Suite("CLI screens, rendered in process")
struct ScreenRenderingTests {
    struct Screen: Sendable, CustomTestStringConvertible {
        let golden: String
        let span: BoxOfficeRequest.Span
        let limit: Int
        let layout: ListLayout
        let width: Int
        var testDescription: String { golden }
    }

    static let screens = [
        Screen(golden: "list-100x30", span: .daily(CalendarDate("2023-04-26")), limit: 10, layout: .list, width: 100),
        Screen(golden: "list-60x30", span: .daily(CalendarDate("2023-04-26")), limit: 10, layout: .list, width: 60),
        Screen(golden: "grid-100x30", span: .daily(CalendarDate("2023-04-26")), limit: 10, layout: .grid, width: 100),
        Screen(golden: "grid-60x30", span: .daily(CalendarDate("2022-01-05")), limit: 4, layout: .grid, width: 60),
        Screen(
            golden: "weekend-100x30", span: .weekly(CalendarDate("2012-01-01"), .weekend), limit: 10, layout: .list,
            width: 100),
    ]

    /// The lines a terminal shows: no trailing blanks, no empty lines at the end.
    static func shown(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    @Test("each box office screen is its golden file", arguments: screens)
    func screen(_ screen: Screen) async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let service = worker.runtime.service
        let office = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: screen.span, limit: screen.limit))
        ).value
        let rendered = BoxOfficeScreen(width: screen.width, style: TerminalStyle(enabled: false))
            .render(office, layout: screen.layout)
        let golden = try String(
            contentsOf: SharedData.repositoryRoot.appending(path: "Tests/CLI/golden/\(screen.golden).txt"),
            encoding: .utf8)
        #expect(Self.shown(rendered) == Self.shown(golden))
    }

    @Test(
        "colours as the apps tint them: the ▲ red and the ▼ blue with the number plain, 신작 pink, titles never painted")
    func colours() async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let service = worker.runtime.service
        let office = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: .daily(CalendarDate("2023-04-26"))))
        ).value
        let painted = BoxOfficeScreen(width: 100, style: TerminalStyle(enabled: true)).render(office, layout: .list)
        let plain = BoxOfficeScreen(width: 100, style: TerminalStyle(enabled: false)).render(office, layout: .list)
        #expect(painted.contains("\u{1B}[31m▲\u{1B}[0m12") && painted.contains("\u{1B}[34m▼\u{1B}[0m2"))
        #expect(painted.contains("\u{1B}[35m신작"))
        #expect(!painted.contains("\u{1B}[31m슈퍼") && !plain.contains("\u{1B}"))
        #expect(painted.replacing(/\x1B\[[0-9;]*m/, with: "") == plain)
    }

    @Test("grid cards name the span their audience is for: day, or the weekly period")
    func cardLabels() async throws {
        let worker = try OfflineWorker(["--today", "2026-11-21"])
        let service = worker.runtime.service
        let screen = BoxOfficeScreen(width: 100, style: TerminalStyle(enabled: false))
        let daily = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: .daily(CalendarDate("2023-04-26"))))
        ).value
        let weekly = try await service.boxOffice(
            try service.plan(BoxOfficeRequest(span: .weekly(CalendarDate("2023-04-23"), .week)))
        ).value
        let dayCards = screen.render(daily, layout: .grid)
        let weekCards = screen.render(weekly, layout: .grid)
        #expect(dayCards.contains("│ day 93,416") && !dayCards.contains("today"))
        #expect(weekCards.contains("│ week ") && !weekCards.contains("│ day ") && !weekCards.contains("today"))
    }
}
