/// A URI reference split per RFC 3986 §3, and resolved against a base per §5.2, which `$id`, `$ref` and
/// `$dynamicRef` need. Works for URNs (`urn:uuid:…`) as well as URLs, which Foundation's URL does not promise.
struct URIReference: Hashable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains(where: { $0 == "/" }),
            colon != rest.startIndex
        {
            scheme = String(rest[..<colon]).lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// This reference resolved against `base` (RFC 3986 §5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        if scheme != nil {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query,
                fragment: fragment)
        }
        if authority != nil {
            return URIReference(
                scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query,
                fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                fragment: fragment)
        }
        if path.hasPrefix("/") {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(path), query: query,
                fragment: fragment)
        }
        let merged: String
        if base.authority != nil && base.path.isEmpty {
            merged = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            merged = base.path[...slash] + path
        } else {
            merged = path
        }
        return URIReference(
            scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(merged), query: query,
            fragment: fragment)
    }

    /// The same reference without its fragment: the URI of the resource it names.
    var withoutFragment: URIReference {
        URIReference(scheme: scheme, authority: authority, path: path, query: query, fragment: nil)
    }

    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// RFC 3986 §5.2.4, step by step.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = input.hasPrefix("/../") ? input.dropFirst(3) : "/"
                if let slash = output.lastIndex(of: "/") {
                    output.removeSubrange(slash...)
                } else {
                    output = ""
                }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// Percent-decodes a fragment (a JSON Pointer in a `$ref` may escape `%` and other characters).
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
