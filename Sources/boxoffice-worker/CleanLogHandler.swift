import BoxOfficeViews
import BoxOfficeWorker
import Logging

/// The log handler of every face: swift-log's stderr stream, with each message and metadata value passed through
/// ``TerminalText`` first. A log line may quote an upstream (a fault message, a poster address, a title): on the
/// terminal a host's stderr often is, its escapes would act, and its newline would forge a log line.
struct CleanLogHandler: LogHandler {
    private var stream: StreamLogHandler

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(TerminalText.clean(event.message.description))"
        event.metadata = event.metadata?.mapValues(Self.clean)
        stream.log(event: event)
    }

    static func clean(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(TerminalText.clean(text))
        case .stringConvertible(let convertible): .string(TerminalText.clean(convertible.description))
        case .array(let values): .array(values.map(clean))
        case .dictionary(let values): .dictionary(values.mapValues(clean))
        }
    }
}
