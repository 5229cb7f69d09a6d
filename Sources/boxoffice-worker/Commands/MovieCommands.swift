import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker movie CODE`: the detail screen.
struct MovieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movie", abstract: "A movie's detail screen by KOBIS movie code.")

    @Argument(help: "The KOBIS movie code (box office entries show it).")
    var code: String

    @Flag(help: "Download the poster into the cache directory and show the file.")
    var download = false

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let (code, download, format) = (self.code, self.download, display.format)
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            await session.movie(code: code, download: download, format: format)
        }
    }
}

/// `boxoffice-worker search TITLE`: movies by title (and director, year).
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search KOBIS movies by title.")

    @Argument(help: "The title, or part of it.")
    var title: String?

    @Option(help: "The director's name.")
    var director: String?

    @Option(help: "The production year.")
    var year: Int?

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let (title, director, year, format) = (self.title, self.director, self.year, display.format)
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            guard title != nil || director != nil else {
                throw CLIDate.Invalid(description: "give a TITLE or --director")
            }
            return await session.search(title: title, director: director, year: year, format: format)
        }
    }
}

/// `boxoffice-worker poster TITLE|--code CODE`: a movie's poster.
struct PosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poster", abstract: "A movie's poster, by title or movie code.")

    @Argument(help: "The movie's title.")
    var title: String?

    @Option(help: "A KOBIS movie code instead of a title.")
    var code: String?

    @Flag(help: "Download the image into the cache directory.")
    var download = false

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let (title, code, download, format) = (self.title, self.code, self.download, display.format)
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            guard (title == nil) != (code == nil) else {
                throw CLIDate.Invalid(description: "give a TITLE or --code, one of them")
            }
            return await session.poster(title: title, code: code, download: download, format: format)
        }
    }
}

/// `boxoffice-worker status`: mode, today's KOBIS quota, the cache.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Mode, today's KOBIS quota and the cache.")

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        let format = display.format
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            await session.status(format: format)
        }
    }
}
