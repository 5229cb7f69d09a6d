import Glibc

/// Reads the plain JSON an upstream API sends straight into ``JSONValue``s, or gives up and leaves the text to
/// Jansson: the fast path of ``JSONParser/parseBody(_:)``.
///
/// Why: Jansson builds a tree of its own first (a hash table per object, a malloc per value, every byte through its
/// UTF-8 stream), which the worker then copies into Swift values: the two were a seventh of an uncached call's CPU
/// (issue 43; a 3.6 KB daily body took Jansson about 60 µs). This reader builds the Swift values in one pass.
///
/// It is not a second JSON dialect: it accepts only what it is sure Jansson (with ``JSONParser``'s flags) reads the
/// same way, and gives up (nil) on everything else — any error, any escape of NUL or of a lone surrogate, a
/// duplicate key, a number that does not fit an `Int64` or a finite `Double`, nesting deeper than
/// ``maximumDepth`` — so Jansson decides those, with its own errors and positions. Its results are held equal to
/// Jansson's, member order included, by the tests (JSONTestSuite, Jansson's suites, the recorded bodies and
/// thousands of mutations of them). Numbers go through the same `strtoll`/`strtod` rules Jansson applies.
struct PlainJSONReader {
    /// Anything left to Jansson.
    struct GiveUp: Error {}

    /// Deeper than this is left to Jansson (whose limit is ``JSONParser/maximumDepth``).
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The members, their keys' hashes and the elements of the containers open now, innermost last: each container
    /// collects into these and takes its own exact array when it closes. Grown once per body, not once per
    /// container by doubling (a KOBIS day is a dozen objects of up to eighteen members: ~120 allocations less).
    private var openMembers: [JSONObject.Member] = []
    private var openHashes: [UInt64] = []
    private var openElements: [JSONValue] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The value of `text`, or nil when Jansson should read it.
    static func read(_ text: UnsafeRawBufferPointer) -> JSONValue? {
        var reader = PlainJSONReader(text.bindMemory(to: UInt8.self))
        do throws(GiveUp) {
            reader.skipSpace()
            let value = try reader.value()
            reader.skipSpace()
            // (Not a conditional expression: `nil` there would be read as JSON's null.)
            guard reader.index == reader.bytes.count else { return Optional.none }
            return value
        } catch {
            return nil
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(GiveUp) -> JSONValue {
        guard index < bytes.count else { throw GiveUp() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(GiveUp) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
            memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
        else { throw GiveUp() }
        index += count
        return value
    }

    private mutating func object() throws(GiveUp) -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw GiveUp() }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(uniqueMembers: []))
        }
        let base = openMembers.count
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
            var key = try string()
            // Duplicate keys (refused by Jansson with JSON_REJECT_DUPLICATES) found by a hash of each key first.
            let hash = key.withUTF8 { Self.hash($0) }
            for position in base..<openHashes.count
            where openHashes[position] == hash && openMembers[position].key == key {
                throw GiveUp()
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw GiveUp() }
            index += 1
            skipSpace()
            let member = JSONObject.Member(key: key, value: try value())
            openMembers.append(member)
            openHashes.append(hash)
            if try closes(with: UInt8(ascii: "}")) {
                let members = Array(openMembers[base...])
                openMembers.removeLast(openMembers.count - base)
                openHashes.removeLast(openHashes.count - base)
                return .object(JSONObject(uniqueMembers: members))
            }
        }
    }

    private mutating func array() throws(GiveUp) -> JSONValue {
        depth += 1
        guard depth <= Self.maximumDepth else { throw GiveUp() }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = openElements.count
        while true {
            let element = try value()
            openElements.append(element)
            if try closes(with: UInt8(ascii: "]")) {
                let elements = Array(openElements[base...])
                openElements.removeLast(openElements.count - base)
                return .array(elements)
            }
        }
    }

    /// After a member or an element: true at the container's `close` (the depth given back), false after a comma
    /// (the next one follows); anything else is left to Jansson.
    private mutating func closes(with close: UInt8) throws(GiveUp) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipSpace()
            return false
        }
        guard bytes[index] == close else { throw GiveUp() }
        index += 1
        depth -= 1
        return true
    }

    /// A string from its opening quote; the index ends after its closing one. Raw text is validated as UTF-8 with
    /// Jansson's rules (``isValidUTF8(_:)``).
    private mutating func string() throws(GiveUp) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard Self.isValidUTF8(raw) else { throw GiveUp() }
                return String(decoding: raw, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw GiveUp() }
            index += 1
        }
        throw GiveUp()
    }

    /// The rest of a string that holds escapes, decoded into its UTF-8 bytes first.
    private mutating func escapedString(from start: Int) throws(GiveUp) -> String {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard text.withUnsafeBufferPointer(Self.isValidUTF8) else { throw GiveUp() }
                return String(decoding: text, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw GiveUp() }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw GiveUp() }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw GiveUp() }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else { throw GiveUp() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                // NUL (a key cannot hold it in Jansson) and lone low surrogates are Jansson's to judge.
                guard scalar != 0, let unicode = Unicode.Scalar(scalar) else { throw GiveUp() }
                text.append(contentsOf: UTF8.encode(unicode)!)
            default:
                throw GiveUp()
            }
        }
        throw GiveUp()
    }

    /// Whether `text` is well-formed UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF (Jansson's
    /// rules, and Unicode's). Written out rather than `String(validating:as:)`, which is generic over the encoding
    /// and looked its metadata up at run time on every string (a twentieth of an uncached call).
    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = text.count
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard count - index >= length, (low...high).contains(text[index + 1]) else { return false }
            for offset in 2..<length where !(0x80...0xBF).contains(text[index + offset]) { return false }
            index += length
        }
        return true
    }

    private mutating func hexQuad() throws(GiveUp) -> UInt32 {
        guard bytes.count - index >= 4 else { throw GiveUp() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw GiveUp()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number in JSON's grammar: an integer when it has no fraction and no exponent (and fits an `Int64`), else a
    /// real (`strtod`, finite and without `ERANGE`), as Jansson reads them.
    private mutating func number() throws(GiveUp) -> JSONValue {
        let start = index
        var isReal = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw GiveUp() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isReal = true
            guard try digits() > 0 else { throw GiveUp() }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isReal = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard try digits() > 0 else { throw GiveUp() }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        return isReal ? .real(try Self.real(text)) : .integer(try Self.integer(text))
    }

    private mutating func digits() throws(GiveUp) -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private static func integer(_ text: UnsafeBufferPointer<UInt8>) throws(GiveUp) -> Int64 {
        let negative = text.first == UInt8(ascii: "-")
        var magnitude: UInt64 = 0
        for byte in text.dropFirst(negative ? 1 : 0) {
            let (times10, over1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, over2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !over1, !over2 else { throw GiveUp() }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw GiveUp() }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw GiveUp() }
        return Int64(magnitude)
    }

    private static func real(_ text: UnsafeBufferPointer<UInt8>) throws(GiveUp) -> Double {
        guard text.count < 64 else { throw GiveUp() }
        return try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer throws(GiveUp) -> Double in
            for (offset, byte) in text.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[text.count] = 0
            errno = 0
            let value = strtod(buffer.baseAddress!, nil)
            guard errno == 0, value.isFinite else { throw GiveUp() }
            return value
        }
    }

    /// FNV-1a of a key's decoded UTF-8 (so `"a"` and `"\u0061"` meet); equal hashes are then compared as strings.
    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        return hash
    }
}
