import JSONCore

/// Reads an upstream body field by field, keeping the JSON Pointer of where it is, so every unreadable field
/// becomes an `upstream_malformed` error that names its exact place.
///
/// KOBIS sends every scalar as a string (numbers, ranks, dates) and pads some with spaces; the readers here accept
/// the string forms and real JSON numbers alike, and trim strings.
struct UpstreamReader {
    let service: Service
    let value: JSONValue
    private let parentPath: JSONPointer
    /// The last token of this reader's path, appended only when the path is needed (an error).
    private let lazyKey: String?
    /// Where the next field is looked for first, for a list's elements (``elements()``): their decoders ask for
    /// fields in the order KOBIS writes them, so each is found at once (``JSONObject/value(forKey:from:)``).
    private let cursor: Cursor?

    /// The position of the member after the one read last. One reader's, read and written by one thread at a
    /// time (a decoder's), so its run-time exclusivity checks (a third of a lookup's cost) are left out.
    final class Cursor {
        @exclusivity(unchecked) var next = 0
    }

    init(_ service: Service, _ value: JSONValue, path: JSONPointer = .root, cursor: Cursor? = nil) {
        self.service = service
        self.value = value
        parentPath = path
        lazyKey = nil
        self.cursor = cursor
    }

    init(_ service: Service, _ value: JSONValue, path parent: JSONPointer, lazyKey: String) {
        self.service = service
        self.value = value
        parentPath = parent
        self.lazyKey = lazyKey
        cursor = nil
    }

    /// Where this value is in the body.
    var path: JSONPointer {
        lazyKey.map { parentPath.appending($0) } ?? parentPath
    }

    /// The fetched body's reader: its ready document, or the body parsed now.
    static func read(_ service: Service, _ fetched: Fetched) throws(BoxOfficeError) -> UpstreamReader {
        if let document = fetched.document { return UpstreamReader(service, document) }
        return try parse(service, fetched.body)
    }

    /// Parses a body with JSONCore (``JSONParser/parseBody(_:)``: Jansson's value and errors).
    static func parse(_ service: Service, _ body: [UInt8]) throws(BoxOfficeError) -> UpstreamReader {
        do {
            return UpstreamReader(service, try JSONParser.parseBody(body))
        } catch {
            let snippet = String(decoding: body.prefix(40), as: UTF8.self).replacingNewlines
            throw BoxOfficeError.malformed(
                service, at: "", "the body is not JSON (\(error.text); it starts with \"\(snippet)\")")
        }
    }

    func fail(_ detail: String) -> BoxOfficeError {
        BoxOfficeError.malformed(service, at: path.description, detail)
    }

    func member(_ key: String) throws(BoxOfficeError) -> UpstreamReader {
        guard case .object(let object) = value else { throw fail("expected an object, found \(value.typeName)") }
        guard let child = object[key] else {
            throw BoxOfficeError.malformed(
                service, at: path.appending(key).description, "the member \"\(key)\" is missing")
        }
        return UpstreamReader(service, child, path: path.appending(key))
    }

    func optionalMember(_ key: String) -> UpstreamReader? {
        guard case .object(let object) = value, let child = object[key], !child.isNull else { return nil }
        return UpstreamReader(service, child, path: path.appending(key))
    }

    func elements() throws(BoxOfficeError) -> [UpstreamReader] {
        guard case .array(let array) = value else { throw fail("expected an array, found \(value.typeName)") }
        return array.enumerated().map { offset, element in
            let cursor = element.objectValue == nil ? nil : Cursor()
            return UpstreamReader(service, element, path: path.appending(offset), cursor: cursor)
        }
    }

    /// A string, trimmed; numbers are accepted in their JSON form.
    func string() throws(BoxOfficeError) -> String {
        switch value {
        case .string(let text): return text.trimmingSpaces
        case .integer(let integer): return String(integer)
        case .real: return value.description
        default: throw fail("expected a string, found \(value.typeName)")
        }
    }

    /// A trimmed string, or nil when blank or null.
    func optionalString() throws(BoxOfficeError) -> String? {
        if value.isNull { return nil }
        let text = try string()
        return text.isEmpty ? nil : text
    }

    func int64() throws(BoxOfficeError) -> Int64 {
        if case .integer(let integer) = value { return integer }
        let text = try string()
        guard let number = Int64(text) else { throw fail("\"\(text)\" is not an integer") }
        return number
    }

    func int() throws(BoxOfficeError) -> Int {
        Int(try int64())
    }

    /// An integer, or nil when blank.
    func optionalInt() throws(BoxOfficeError) -> Int? {
        if value.isNull { return nil }
        if case .string(let text) = value, text.trimmingSpaces.isEmpty { return nil }
        return try int()
    }

    /// A decimal number: KOBIS rates come as "100", "100.0", "-8.2".
    func double() throws(BoxOfficeError) -> Double {
        if let number = value.numberValue { return number }
        let text = try string()
        guard let number = Double(text), number.isFinite else { throw fail("\"\(text)\" is not a number") }
        return number
    }

    /// A date as "YYYY-MM-DD" or "YYYYMMDD"; nil when blank (KOBIS sends "" and " ").
    func optionalDate() throws(BoxOfficeError) -> CalendarDate? {
        guard let text = try optionalString() else { return nil }
        guard let date = CalendarDate(text) else { throw fail("\"\(text)\" is not a date") }
        return date
    }

    // MARK: Fields read in place
    //
    // A box office is ~180 scalar fields; reading each through a child reader built a JSON Pointer per field.
    // These read the member directly and build the pointer only when a field is bad.

    private func field(_ key: String) throws(BoxOfficeError) -> UpstreamReader {
        UpstreamReader(service, try fieldValue(key), path: path, lazyKey: key)
    }

    private func fieldValue(_ key: String) throws(BoxOfficeError) -> JSONValue {
        guard case .object(let object) = value else { throw fail("expected an object, found \(value.typeName)") }
        let found: JSONValue?
        if let cursor { found = object.value(forKey: key, from: &cursor.next) } else { found = object[key] }
        guard let child = found else {
            throw BoxOfficeError.malformed(
                service, at: path.appending(key).description, "the member \"\(key)\" is missing")
        }
        return child
    }

    // The common forms are read from the value itself; a child reader (which carries the path) is made only for
    // the rest, and for the error a bad field gets.

    func string(_ key: String) throws(BoxOfficeError) -> String {
        let child = try fieldValue(key)
        if case .string(let text) = child { return text.trimmingSpaces }
        return try UpstreamReader(service, child, path: path, lazyKey: key).string()
    }

    func int64(_ key: String) throws(BoxOfficeError) -> Int64 {
        let child = try fieldValue(key)
        switch child {
        case .integer(let integer): return integer
        case .string(let text): if let number = Int64(text.trimmingSpaces) { return number }
        default: break
        }
        return try UpstreamReader(service, child, path: path, lazyKey: key).int64()
    }

    func int(_ key: String) throws(BoxOfficeError) -> Int { Int(try int64(key)) }

    func double(_ key: String) throws(BoxOfficeError) -> Double {
        let child = try fieldValue(key)
        if case .string(let text) = child, let number = Double(text.trimmingSpaces), number.isFinite { return number }
        return try UpstreamReader(service, child, path: path, lazyKey: key).double()
    }

    func optionalDate(_ key: String) throws(BoxOfficeError) -> CalendarDate? { try field(key).optionalDate() }

    /// The member's trimmed string, or nil when missing, null or blank.
    func optionalString(_ key: String) throws(BoxOfficeError) -> String? {
        guard case .object(let object) = value, let child = object[key], !child.isNull else { return nil }
        return try UpstreamReader(service, child, path: path, lazyKey: key).optionalString()
    }

    func optionalInt(_ key: String) throws(BoxOfficeError) -> Int? {
        guard case .object(let object) = value, let child = object[key], !child.isNull else { return nil }
        return try UpstreamReader(service, child, path: path, lazyKey: key).optionalInt()
    }

    /// The strings of `key` in each element (`[{"nationNm": "한국"}]` → `["한국"]`), blanks dropped.
    func strings(_ key: String) throws(BoxOfficeError) -> [String] {
        var result: [String] = []
        for element in try elements() {
            if let text = try element.member(key).optionalString() { result.append(text) }
        }
        return result
    }
}

extension String {
    /// Without leading and trailing white space (KOBIS pads some titles and audit numbers). Most strings have
    /// none: their first and last bytes say so without looking at characters.
    var trimmingSpaces: String {
        let isPadding = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // The ends read from the contiguous UTF-8 (no copy for the native strings a body is read into): the
        // generic `utf8.last` stepped back through the view's index on each of a box office's ~180 fields.
        var text = self
        let padded = text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return isPadding(first) || isPadding(last)
        }
        guard padded else { return self }
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
