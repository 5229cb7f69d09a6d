import JSONCore

/// A step in an instance or keyword path, turned into text only when an error is recorded.
enum PathToken {
    case none
    case key(String)
    case index(Int)

    var text: String? {
        switch self {
        case .none: nil
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}
