import JSONCore
import NIOConcurrencyHelpers

/// Parsed fixture bodies by call key, filled on first use; a body that does not parse is left to the decoder,
/// which reports it as it would a live one.
final class ParsedDocuments: Sendable {
    private let table = NIOLockedValueBox<[String: JSONValue]>([:])

    func parsed(_ key: String, _ body: [UInt8]) -> JSONValue? {
        if let known = table.withLockedValue({ $0[key] }) { return known }
        guard let document = try? JSONParser.parse(body) else { return nil }
        table.withLockedValue { $0[key] = document }
        return document
    }
}
