import JSONCore

extension CLISession {
    /// Writes chat messages: Markdown as its text; the request bodies of the other formats one JSON object a line,
    /// each ready to post as it is.
    func writeChat(_ content: ChatContent, as format: ChatFormat) {
        for message in format.messages(content) {
            switch message {
            case .text(let text): write(text)
            case .body(let body): write(JSONSerializer.string(.object(body)) + "\n")
            }
        }
    }

    /// The refusal of a chat format by a command that writes none (`people`, `company`, `codes`, `poster`,
    /// `status`, a range export), or nil.
    func refuseChat(_ format: CLIFormat, in command: String) -> Int32? {
        guard format.chat != nil else { return nil }
        return fail(
            CLIDate.Invalid(
                description:
                    "--format \(format.rawValue) is for daily, weekly, movie and search; \(command) writes text, json, ndjson or csv"
            ))
    }
}
