import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker movie CODE`: the detail screen.
struct MovieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movie", abstract: "A movie's detail screen by KOBIS movie code.",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "The KOBIS movie code (box office entries show it).")
    var code: String

    @Flag(help: "Download the poster into the cache directory and show the file.")
    var download = false

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (code, download, format, out) = (self.code, self.download, display.format, display.out)
        try await CommandRunner.run(flags, color: display.color) { session in
            await session.movie(code: code, download: download, format: format, out: out)
        }
    }
}

/// `boxoffice-worker search TITLE`: movies by title (and director, year).
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search KOBIS movies by title.", discussion: CommandFlags.moreFlags)

    @Argument(help: "The title, or part of it; several words are one title (quotes are not needed).")
    var words: [String] = []

    @Option(help: "The director's name.")
    var director: String?

    @Option(help: "The production year.")
    var year: Int?

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (words, director, year, format, out) = (
            self.words, self.director, self.year, display.format, display.out
        )
        try await CommandRunner.run(flags, color: display.color) { session in
            await session.search(words: words, director: director, year: year, format: format, out: out)
        }
    }
}

/// `boxoffice-worker poster TITLE|CODE|--code CODE`: a movie's poster.
struct PosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poster", abstract: "A movie's poster, by title or movie code.",
        discussion: CommandFlags.moreFlags)

    @Argument(
        help:
            "The movie's title (several words are one title), or its KOBIS movie code (8 digits, or 4 digits, a letter, 3 digits)."
    )
    var words: [String] = []

    @Option(help: "A KOBIS movie code instead of a title.")
    var code: String?

    @Flag(help: "Download the image into the cache directory.")
    var download = false

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (words, code, download, choice) = (self.words, self.code, self.download, display.choice)
        try await CommandRunner.run(flags, color: display.color) { session in
            await session.poster(words: words, code: code, download: download, format: choice.format, out: choice.out)
        }
    }
}

/// `boxoffice-worker status`: mode, today's KOBIS quota, the cache.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Mode, today's KOBIS quota and the cache.",
        discussion: CommandFlags.moreFlags)

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let choice = display.choice
        try await CommandRunner.run(flags, color: display.color) { session in
            await session.status(format: choice.format, out: choice.out)
        }
    }
}
