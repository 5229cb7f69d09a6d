import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker people NAME|CODE`: people by name, or one person's screen.
struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "Search KOBIS people by name, or show a person's filmography by people code.",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "A name (several words are one name), or a KOBIS people code (digits) for the person's screen.")
    var words: [String] = []

    @Option(help: "A title the person worked on (searches by filmography).")
    var film: String?

    @Flag(help: "With a people code: each film's details too (year, director).")
    var movies = false

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (words, film, movies, display) = (self.words, self.film, self.movies, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.people(words: words, film: film, movies: movies, display: display)
        }
    }
}

/// `boxoffice-worker company NAME|CODE`: companies by name, or one company's screen.
struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "company",
        abstract: "Search KOBIS film companies by name, or show a company's filmography by company code.",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "A name (several words are one name), or a KOBIS company code (digits) for the company's screen.")
    var words: [String] = []

    @Option(help: "The CEO's name.")
    var ceo: String?

    @Option(help: "A company-part code (see `codes companyPart`).")
    var part: String?

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (words, ceo, part, display) = (self.words, self.ceo, self.part, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.company(words: words, ceo: ceo, part: part, display: display)
        }
    }
}

/// `boxoffice-worker codes KIND`: a KOBIS code list.
struct CodesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codes",
        abstract: "A KOBIS code list: region (what --area takes), nation, type, genre, status, grade, companyPart.",
        discussion: CommandFlags.moreFlags)

    @Argument(help: "region, nation, type, genre, status, grade or companyPart.")
    var kind: String = "region"

    @OptionGroup var display: DisplayOptions
    @OptionGroup var flags: CommandFlags

    mutating func run() async throws {
        let (kind, display) = (self.kind, self.display.choice)
        try await CommandRunner.run(flags, color: self.display.color) { session in
            await session.codes(kind: kind, display: display)
        }
    }
}
