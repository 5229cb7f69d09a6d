import JSONCore
package import JSONRPC

/// Serves `input` to end of input through the server's in-memory path (``RPCServer/answers(to:registry:configuration:)``:
/// the threaded transport's framing, parsing, classification, validation and dispatch, with no threads or
/// descriptors) and checks what a host would hold it to: every output line is one JSON value, no request id is
/// answered more often than asked, and (unless `cancellable`, where a cancelled request may go unanswered) every id
/// asked once is answered and every non-blank line that needs an answer gets exactly one answer line. The server's
/// notifications (progress) are let through. A broken rule stops the fuzzer with a report.
package enum LineHarness {
    package static func serve(
        _ input: [UInt8], registry: MethodRegistry, configuration: ServerConfiguration, cancellable: Bool
    ) {
        let output = RPCServer.answers(to: input, registry: registry, configuration: configuration)
        let asked = Asked(input, configuration: configuration)
        var answered: [String: Int] = [:]
        var answerLines = 0
        for line in output.split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)) else {
                fatalError("an answer is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            // The server's own notifications ($/progress, notifications/progress) carry a method and no id.
            if value.objectValue?["method"] != nil, value.objectValue?["id"] == nil { continue }
            answerLines += 1
            for answer in value.arrayValue ?? [value] {
                guard let id = answer.objectValue?["id"] else { fatalError("an answer has no id member") }
                if id != .null { answered[JSONSerializer.string(id), default: 0] += 1 }
            }
        }
        for (id, count) in answered where count > asked.ids[id, default: 0] {
            fatalError("request id \(id) was answered \(count) times but asked \(asked.ids[id, default: 0])")
        }
        guard !cancellable else { return }
        for (id, count) in asked.ids where count == 1 && answered[id] == nil {
            fatalError("request id \(id) was never answered")
        }
        if answerLines != asked.answerLines {
            fatalError("\(answerLines) answer lines for \(asked.answerLines) lines that each need one")
        }
    }

    /// What the input asks for, by the contract, read with the server's own framing and shape rules
    /// (``LineFramer``, ``MessageClassifier``), so what is checked is that the pipeline loses and duplicates nothing.
    private struct Asked {
        /// How often each id that the server answers with that id (a string or a number) occurs.
        let ids: [String: Int]
        /// One for every non-blank line that is too long, not JSON, refused whole, a single message other than a
        /// notification, or a batch holding at least one element other than a notification.
        let answerLines: Int

        init(_ input: [UInt8], configuration: ServerConfiguration) {
            var framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
            let rules = configuration.rules
            var ids: [String: Int] = [:]
            var lines = 0
            /// Counts the envelope's id; whether it is answered (anything but a notification is).
            func count(_ envelope: Envelope) -> Bool {
                let id: JSONValue
                switch envelope {
                case .request(let request):
                    guard let requestID = request.id else { return false }
                    id = requestID
                case .invalid(let invalidID, _):
                    id = invalidID
                }
                if id != .null { ids[JSONSerializer.string(id), default: 0] += 1 }
                return true
            }
            let tally: (LineFramer.Event) -> Void = { event in
                guard case .line(let bytes) = event else { return lines += 1 }
                guard !LineFramer.isBlank(bytes) else { return }
                guard let value = try? JSONParser.parse(bytes) else { return lines += 1 }
                let message = MessageClassifier.classify(
                    value, maxBatch: configuration.maxBatch, batches: rules.acceptsBatches(),
                    nullID: rules.allowsNullID)
                switch message {
                case .rejected: lines += 1
                case .single(let envelope): lines += count(envelope) ? 1 : 0
                case .batch(let envelopes): lines += envelopes.map(count).contains(true) ? 1 : 0
                }
            }
            input.withUnsafeBytes { framer.feed($0, tally) }
            framer.finish(tally)
            self.ids = ids
            answerLines = lines
        }
    }
}
