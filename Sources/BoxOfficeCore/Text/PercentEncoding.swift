/// Percent-encoding of URL parts (RFC 3986), byte by byte over UTF-8.
///
/// Foundation's `addingPercentEncoding` and `removingPercentEncoding` belong to the part of Foundation that links
/// ICU, which the worker's binary leaves out; the two loops below are all the worker asks of them.
package enum PercentEncoding {
    /// `text` with every byte but ASCII letters, digits and the characters of `unreserved` written `%XX`.
    package static func encode(_ text: String, keeping unreserved: String = "") -> String {
        let kept = Set(unreserved.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let letterOrDigit =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if letterOrDigit || kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with every `%XX` made its byte; nil when a `%` is not followed by two hex digits or the bytes are not
    /// UTF-8 (as Foundation's `removingPercentEncoding`).
    package static func decode(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(value), let low = iterator.next().flatMap(value) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
