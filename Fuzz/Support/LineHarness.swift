import JSONCore
package import JSONRPC

/// Serves `input` to end of input through the server's in-memory path (``RPCServer/answers(to:registry:configuration:)``:
/// the threaded transport's framing, parsing, classification, validation and dispatch, with no threads or
/// descriptors) and checks what a host would hold it to: every output line is one JSON value, no request id is
/// answered twice, and (unless `cancellable`, where a cancelled request may go unanswered) every id that occurs once
/// in the input as a request object's `id` is answered. The server's notifications (progress) are let through. A
/// broken rule stops the fuzzer with a report.
package enum LineHarness {
    package static func serve(
        _ input: [UInt8], registry: MethodRegistry, configuration: ServerConfiguration, cancellable: Bool
    ) {
        let output = RPCServer.answers(to: input, registry: registry, configuration: configuration)
        check(input: input, output: output, cancellable: cancellable)
        guard !cancellable else { return }
        let expected = answerLines(input, configuration: configuration)
        let written = output.split(separator: 0x0A).count { line in
            // The server's own notifications (progress) are not answers.
            guard let object = (try? JSONParser.parse(Array(line)))?.objectValue else { return true }
            return !(object["method"] != nil && object["id"] == nil)
        }
        if written != expected { fatalError("\(written) answer lines for \(expected) lines that each need one") }
    }

    /// How many answer lines `input` needs, by the contract: one for every non-blank line that is too long, not
    /// JSON, refused whole, a single message other than a valid notification, or a batch holding at least one
    /// element other than a valid notification; none for the rest. Framing and the JSON-RPC shape rules are the
    /// server's own (``LineFramer``, ``MessageClassifier``): what this checks is that the server's pipeline loses
    /// and duplicates no answer.
    private static func answerLines(_ input: [UInt8], configuration: ServerConfiguration) -> Int {
        var framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        var count = 0
        let rules = configuration.rules
        func isAnswered(_ envelope: Envelope) -> Bool {
            guard case .request(let request) = envelope else { return true }
            return !request.isNotification
        }
        let tally: (LineFramer.Event) -> Void = { event in
            switch event {
            case .tooLong:
                count += 1
            case .line(let bytes):
                guard !LineFramer.isBlank(bytes) else { return }
                guard let value = try? JSONParser.parse(bytes) else { return count += 1 }
                let message = MessageClassifier.classify(
                    value, maxBatch: configuration.maxBatch, batches: rules.acceptsBatches(),
                    nullID: rules.allowsNullID)
                switch message {
                case .rejected: count += 1
                case .single(let envelope): count += isAnswered(envelope) ? 1 : 0
                case .batch(let envelopes): count += envelopes.contains(where: isAnswered) ? 1 : 0
                }
            }
        }
        input.withUnsafeBytes { framer.feed($0, tally) }
        framer.finish(tally)
        return count
    }

    private static func check(input: [UInt8], output: [UInt8], cancellable: Bool) {
        var answered: [String: Int] = [:]
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            guard let value = try? JSONParser.parse(Array(line)) else {
                fatalError("an answer is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            for answer in value.arrayValue ?? [value] {
                // The server's own notifications ($/progress, notifications/progress) carry a method and no id.
                if answer.objectValue?["method"] != nil, answer.objectValue?["id"] == nil { continue }
                guard let id = answer.objectValue?["id"] else { fatalError("an answer has no id member") }
                if id != .null { answered[JSONSerializer.string(id), default: 0] += 1 }
            }
        }
        var asked: [String: Int] = [:]
        for line in input.split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)) else { continue }
            for request in value.arrayValue ?? [value] {
                guard let object = request.objectValue, let id = object["id"], id != .null else { continue }
                asked[JSONSerializer.string(id), default: 0] += 1
            }
        }
        for (id, count) in answered where count > 1 && asked[id, default: 0] < count {
            fatalError("request id \(id) was answered \(count) times but asked \(asked[id, default: 0])")
        }
        guard !cancellable else { return }
        for (id, count) in asked where count == 1 {
            // Valid or not, a request object with an id is answered with that id — unless its id is not a valid
            // JSON-RPC id (an object, an array, a boolean), which is answered with id null.
            switch try? JSONParser.parse(Array(id.utf8)) {
            case .string, .integer, .real: break
            default: continue
            }
            if answered[id] == nil { fatalError("request id \(id) was never answered") }
        }
    }
}
