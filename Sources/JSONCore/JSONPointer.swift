/// A JSON Pointer (RFC 6901): `/params/date`, `/entries/0/title`.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens.
    package private(set) var tokens: [String]

    /// The empty pointer: the whole document.
    package static let root = JSONPointer(tokens: [])

    package init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the string form; `nil` when it is neither empty nor starts with `/`, or has a bad `~` escape.
    package init?(_ text: String) {
        if text.isEmpty {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaping = false
            for character in raw {
                if escaping {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                    escaping = false
                } else if character == "~" {
                    escaping = true
                } else {
                    token.append(character)
                }
            }
            if escaping { return nil }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// This pointer extended by one object key.
    package func appending(_ key: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [key])
    }

    /// This pointer extended by one array index.
    package func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens: tokens + [String(index)])
    }

    package var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            for character in token {
                switch character {
                case "~": text.append("~0")
                case "/": text.append("~1")
                default: text.append(character)
                }
            }
        }
        return text
    }

    /// The value this pointer refers to in `document`, or `nil` when there is none.
    package func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                // RFC 6901: an index is "0" or digits without a leading zero.
                guard let index = Int(token), String(index) == token, index >= 0, index < array.count else {
                    return nil
                }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}
