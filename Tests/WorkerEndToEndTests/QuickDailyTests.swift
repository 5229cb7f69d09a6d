import ArgumentParser
import BoxOfficeViews
import BoxOfficeWorker
import Testing

@testable import boxoffice_worker

/// `daily`'s quick parse (issue 43) against swift-argument-parser: the same words make the same flags, display,
/// colour and worker options, and every word the table does not read sends the command back to the parser.
@Suite("daily's quick parse")
struct QuickDailyTests {
    static let read: [[String]] = [
        [], ["2023-04-26"], ["yesterday", "--offline"], ["--format", "json", "2023-04-26"], ["--format=csv"],
        ["--limit", "3", "--korean", "--layout", "grid"], ["--limit=5", "--foreign", "--color", "never"],
        ["today-3", "--layout=list", "--color=always", "--log-level", "debug"],
        ["--timeout", "7", "--no-cache", "2023-04-26"],
    ]

    @Test("the words it reads make what swift-argument-parser makes of them", arguments: read)
    func agrees(_ words: [String]) throws {
        let quick = try #require(QuickDaily.parse(words), "\(words)")
        let parsed = try DailyCommand.parse(words)
        let (mine, theirs) = (quick.flags, parsed.options)
        #expect(mine.date == theirs.date && mine.from == theirs.from && mine.to == theirs.to)
        #expect(mine.limit == theirs.limit && mine.korean == theirs.korean && mine.foreign == theirs.foreign)
        #expect(mine.diversity == theirs.diversity && mine.commercial == theirs.commercial && mine.area == theirs.area)
        #expect(mine.withDetails == theirs.withDetails && mine.withPosters == theirs.withPosters)
        #expect(mine.refresh == theirs.refresh && mine.layout == theirs.layout && mine.images == theirs.images)
        #expect(mine.maxCalls == theirs.maxCalls && mine.missing == theirs.missing)
        #expect(quick.display.format == parsed.display.choice.format)
        #expect(quick.display.excel == parsed.display.choice.excel && quick.display.out == parsed.display.choice.out)
        #expect(quick.color == parsed.display.color)
        #expect(quick.options == parsed.flags.options)
        #expect(quick.options.logLevel == parsed.flags.logLevelText)
    }

    @Test(
        "help, ranges, flags it does not read, bad values and serving flags go to swift-argument-parser",
        arguments: [
            ["--help"], ["-h"], ["--from", "2023-01-01", "--to", "2023-01-02"], ["2023-04-26", "2023-04-27"],
            ["--limit"], ["--limit", "many"], ["--korean=yes"], ["--format", "xml"], ["--diversity"],
            ["--max-calls", "3"], ["--max-in-flight", "4"], ["--"], ["--with-posters"], ["--out", "a.png"],
            ["--timeout"],
        ])
    func fallsBack(_ words: [String]) {
        #expect(QuickDaily.parse(words) == nil, "\(words)")
    }

    @Test("BoxOfficeFlags has the 16 properties its quick initializer sets (one added must be set there too)")
    func everyPropertySet() {
        let flags = BoxOfficeFlags(date: "2023-04-26", limit: 3, korean: true, foreign: false, layout: .grid)
        #expect(Mirror(reflecting: flags).children.count == 16)
        // Reading each one: a property left unset would stop the process here.
        #expect(flags.date == "2023-04-26" && flags.limit == 3 && flags.korean && !flags.foreign)
        #expect(flags.from == nil && flags.to == nil && !flags.diversity && !flags.commercial && flags.area == nil)
        #expect(!flags.withDetails && !flags.withPosters && !flags.refresh && flags.layout == .grid)
        #expect(flags.images == .auto && flags.maxCalls == nil && !flags.missing)
    }
}
