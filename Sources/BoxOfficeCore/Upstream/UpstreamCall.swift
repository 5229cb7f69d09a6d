import JSONCore

/// One upstream call, as data: which service, which endpoint, which parameters, without any key.
///
/// `key` is the canonical text of the call (parameters sorted): the cache key and the offline fixture index use it,
/// and it is safe to log because keys are added only when the live fetcher builds the URL.
package struct UpstreamCall: Sendable, Hashable, CustomStringConvertible {
    package let service: Service
    /// Path below the service's base URL, e.g. `/boxoffice/searchDailyBoxOfficeList.json`.
    package let path: String
    package let parameters: [String: String]
    /// `kobis /boxoffice/searchDailyBoxOfficeList.json itemPerPage=10&targetDt=20220105`: built once, when the
    /// call is made, since every tier of the fetcher chain looks it up.
    package let key: String
    /// Go upstream even when the cache holds a fresh answer, and rewrite it (`refresh: true`). Not part of the key.
    package var refresh: Bool

    package init(service: Service, path: String, parameters: [String: String], refresh: Bool = false) {
        self.service = service
        self.path = path
        self.parameters = parameters
        self.refresh = refresh
        key = "\(service.rawValue) \(path) \(Self.query(parameters.sorted { $0.key < $1.key }))"
    }

    package static func == (lhs: UpstreamCall, rhs: UpstreamCall) -> Bool {
        lhs.key == rhs.key && lhs.refresh == rhs.refresh
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(refresh)
    }

    package var description: String { key }

    /// `a=1&b=%EA%B0%80`: percent-encoded as RFC 3986 unreserved characters allow.
    ///
    /// Built as bytes: the key is computed for every request (the cache looks it up before anything else), and
    /// appending to a `String` one scalar at a time was a measurable part of answering from memory.
    static func query(_ items: [(key: String, value: String)]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count * 3 + 2 })
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            appendEncoded(item.key, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            appendEncoded(item.value, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func percentEncoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendEncoded(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func appendEncoded(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }
}

/// An upstream service the worker talks to.
package enum Service: String, Sendable, Hashable {
    /// 영화진흥위원회 KOBIS Open API: box office, movie info, movie list.
    case kobis
    /// Kakao (Daum) image search: posters.
    case kakao
}
