import JSONCore
import Synchronization

/// Parsed fixture bodies by call key, filled on first use; a body that does not parse is left to the decoder,
/// which reports it as it would a live one.
final class ParsedDocuments: Sendable {
    private let table = Mutex<[String: JSONValue]>([:])

    func parsed(_ key: String, _ body: [UInt8]) -> JSONValue? {
        if let known = table.withLock({ $0[key] }) { return known }
        guard let document = try? JSONParser.parse(body) else { return nil }
        table.withLock { $0[key] = document }
        return document
    }
}
