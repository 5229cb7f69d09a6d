import ArgumentParser
import BoxOfficeWorker

/// `boxoffice-worker pipe [METHOD]`: the worker as a filter, one outcome line for every input line, in input order
/// (``PipeFace``). Its own start path reads it with the flag table (``Entry``); this declaration gives it help and
/// swift-argument-parser's handling of anything the table does not read.
struct PipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipe",
        abstract: "A filter: one job per input line, one JSON outcome line per input line, in input order.",
        discussion: """
            With METHOD (boxoffice.daily, movie.detail, movie.search, …) a line is its params object or a bare \
            string (the date, code or title); without it, a line is {"method", "params"}. An "id" member is echoed. \
            Line N of the output answers line N of the input: {"id"?, "result"} or {"id"?, "error": {"code", "message", "reason", \
            "data"?}}; blank and unparsable lines get one too. Up to --max-in-flight jobs run at once. stderr stays \
            silent (on a terminal, one summary line at the end when some lines failed). Exit: 0 every line succeeded, 2 some \
            failed, 1 none succeeded, 75 none succeeded and every failure may mend later (the upstream, the quota), \
            64 an unknown METHOD, 130 stopped by a signal, 141 stdout closed. See docs/jobs.md.
            """
    )

    @Argument(help: "The method every line is a job for (default: each line names its own).")
    var method: String?

    @OptionGroup var flags: WorkerFlags

    mutating func run() async throws {
        try await BoxOfficeWorkerCommand.serve(.pipe(method: method), flags)
    }

    /// The METHOD among the words after `pipe` (the first word that is neither a flag nor a flag's value) and the
    /// worker's flags without it.
    static func method(in arguments: ArraySlice<String>) -> (method: String?, flags: ArraySlice<String>) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { break }
            guard word.hasPrefix("-") else {
                var flags = arguments
                flags.remove(at: index)
                return (word, flags)
            }
            index = arguments.index(after: index)
            if !word.contains("="), WorkerFlag.named(word)?.takesValue == true, index < arguments.endIndex {
                index = arguments.index(after: index)
            }
        }
        return (nil, arguments)
    }
}
