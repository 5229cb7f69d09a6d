import FoundationEssentials
import Glibc

/// The formats this validator can assert (when asked to): `date`, `date-time`, `time`, `email`, `uri`, `uuid`,
/// `ipv4`, `ipv6`. Any other format stays an annotation. Hand-written checks, no regular expressions: the worker
/// validates a `date` on every box office call.
struct FormatChecker: Sendable {
    let accepts: @Sendable (String) -> Bool

    init?(_ format: String) {
        switch format {
        case "date":
            accepts = { text in
                // Native strings are contiguous UTF-8: checked in place, without copying.
                text.utf8.withContiguousStorageIfAvailable { Self.isDate($0) } ?? Self.isDate(Array(text.utf8))
            }
        case "date-time": accepts = Self.isDateTime
        case "time": accepts = { Self.isTime(Array($0.utf8)) }
        case "email": accepts = Self.isEmail
        case "uri": accepts = Self.isURI
        case "uuid": accepts = Self.isUUID
        case "ipv4": accepts = Self.isIPv4
        case "ipv6": accepts = Self.isIPv6
        default: return nil
        }
    }

    private static func digits<C: Collection<UInt8>>(_ bytes: C) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// RFC 3339 full-date: `YYYY-MM-DD` with the days of that month (leap years included).
    static func isDate<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Bool where C.Index == Int {
        guard bytes.count == 10 else { return false }
        let start = bytes.startIndex
        guard bytes[start + 4] == 0x2D, bytes[start + 7] == 0x2D,
            let year = digits(bytes[start..<start + 4]), let month = digits(bytes[start + 5..<start + 7]),
            let day = digits(bytes[start + 8..<start + 10]), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    /// RFC 3339 full-time: `HH:MM:SS[.frac](Z|±HH:MM)`; a leap second only at 23:59:60 UTC.
    static func isTime<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Bool where C.Index == Int {
        guard bytes.count >= 9 else { return false }
        let s = bytes.startIndex
        guard bytes[s + 2] == 0x3A, bytes[s + 5] == 0x3A, let hour = digits(bytes[s..<s + 2]),
            let minute = digits(bytes[s + 3..<s + 5]), let second = digits(bytes[s + 6..<s + 8]),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = s + 8
        if index < bytes.endIndex, bytes[index] == 0x2E {
            index += 1
            let fractionStart = index
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < bytes.endIndex else { return false }
        var offsetMinutes = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            guard index + 1 == bytes.endIndex else { return false }
        case 0x2B, 0x2D:
            let sign = bytes[index] == 0x2D ? -1 : 1
            guard bytes.endIndex - index == 6, bytes[index + 3] == 0x3A,
                let offsetHour = digits(bytes[index + 1..<index + 3]),
                let offsetMinute = digits(bytes[index + 4..<index + 6]),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
        default:
            return false
        }
        if second == 60 {
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 11, bytes[10] == 0x54 || bytes[10] == 0x74 else { return false }
        return isDate(bytes[0..<10]) && isTime(bytes[11...])
    }

    static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, local.count <= 64, !domain.isEmpty, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains(".."), !local.contains(" ")
        else { return false }
        if domain.hasPrefix("[") && domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            return literal.hasPrefix("IPv6:") ? isIPv6(String(literal.dropFirst(5))) : isIPv4(String(literal))
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }

    /// The bytes RFC 3986 allows anywhere in a URI (percent escapes are checked separately).
    private static let uriCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)

    /// An absolute URI: a scheme, then characters RFC 3986 allows (percent escapes well formed).
    static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80, uriCharacters.contains(byte) else { return false }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                    bytes[index + 1...index + 2].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit })
                else { return false }
            }
        }
        if let authorityStart = text.firstRange(of: "//")?.upperBound, text[colon...].hasPrefix("://") {
            let authority = text[authorityStart...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let host = authority.split(separator: "@").last ?? ""
            if host.hasPrefix("[") { return host.contains("]") }
            if host.split(separator: ":").count > 2 { return false }
            if let port = host.split(separator: ":").dropFirst().first, !port.allSatisfy(\.isNumber) { return false }
        }
        return true
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == 0x2D else { return false }
            } else if !Character(Unicode.Scalar(byte)).isHexDigit {
                return false
            }
        }
        return true
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let value = Int(part)
                else { return false }
                return value <= 255 && !(part.count > 1 && part.hasPrefix("0"))
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else {
            return false
        }
        var groups = text.split(separator: ":", omittingEmptySubsequences: false)
        var limit = 8
        if let last = groups.last, last.contains(".") {
            guard isIPv4(String(last)) else { return false }
            groups.removeLast()
            limit = 6
        }
        let compressions = text.split(separator: "::", omittingEmptySubsequences: false).count - 1
        guard compressions <= 1 else { return false }
        if compressions == 0 {
            return groups.count == limit && groups.allSatisfy { (1...4).contains($0.count) }
        }
        let filled = groups.filter { !$0.isEmpty }
        guard filled.allSatisfy({ $0.count <= 4 }), filled.count < limit else { return false }
        // Empty groups are allowed only as the "::" itself (and its ends).
        if text.hasPrefix(":") && !text.hasPrefix("::") { return false }
        if text.hasSuffix(":") && !text.hasSuffix("::") { return false }
        return true
    }
}
