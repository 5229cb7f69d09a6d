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
        let (code, download, format) = (self.code, self.download, display.format)
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            await session.movie(code: code, download: download, format: format)
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
        let title = words.isEmpty ? nil : words.joined(separator: " ")
        let (director, year, format) = (self.director, self.year, display.format)
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            guard title != nil || director != nil else {
                throw CLIDate.Invalid(description: "give a TITLE or --director")
            }
            return await session.search(title: title, director: director, year: year, format: format)
        }
    }
}

/// `boxoffice-worker poster TITLE|CODE|--code CODE`: a movie's poster. An argument that has the form of a KOBIS movie
/// code (``MovieCodeForm``) is taken as one: no title people search for has that form, and a code searched as a
/// title finds nothing.
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
        let text = words.isEmpty ? nil : words.joined(separator: " ")
        let argumentIsCode = text.map(MovieCodeForm.matches) ?? false
        let title = argumentIsCode ? nil : text
        let code = argumentIsCode ? text?.uppercased() : self.code
        let (download, format) = (self.download, display.format)
        let both = text != nil && self.code != nil
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            guard !both, title != nil || code != nil else {
                throw CLIDate.Invalid(description: "give a TITLE or a movie CODE (or --code CODE), one of them")
            }
            return await session.poster(title: title, code: code, download: download, format: format)
        }
    }
}

/// What a KOBIS movie code looks like: eight digits (`20124079`), or the year, a letter and three digits
/// (`2023C625`) for the codes KOBIS gives some recent films.
enum MovieCodeForm {
    static func matches(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        guard characters.count == 8 else { return false }
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let letter = { (byte: UInt8) in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        return characters.enumerated().allSatisfy { index, byte in
            index == 4 ? digit(byte) || letter(byte) : digit(byte)
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
        let format = display.format
        try await CommandRunner.run(flags, color: display.color) { session throws(CLIDate.Invalid) in
            await session.status(format: format)
        }
    }
}
