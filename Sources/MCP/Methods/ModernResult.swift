import JSONCore
import JSONRPC

/// The members every modern result carries (`resultType`), and the caching directives of cacheable ones.
enum ModernResult {
    /// How long a modern client may keep a list or discovery result: what this process offers never changes while
    /// it runs.
    static let ttlMs: Int64 = 3_600_000

    static func members(cacheable: Bool) -> JSONObject {
        var members: JSONObject = ["resultType": "complete"]
        if cacheable {
            members["ttlMs"] = .integer(ttlMs)
            members["cacheScope"] = "public"
        }
        return members
    }

    /// `result` with `members` added: to the object, or spliced into the text of a kept one after its `{`.
    static func adding(_ members: JSONObject, to result: RPCResult) -> RPCResult {
        switch result {
        case .value(.object(var object)):
            for member in members where object[member.key] == nil { object[member.key] = member.value }
            return .value(.object(object))
        case .value:
            return result
        case .encoded(let text):
            guard text.first == UInt8(ascii: "{") else { return result }
            var spliced = JSONSerializer.serialize(.object(members))
            spliced.removeLast()  // its "}"
            if text.count > 2 { spliced.append(UInt8(ascii: ",")) }
            spliced.append(contentsOf: text.dropFirst())
            return .encoded(spliced)
        }
    }
}
