import JSONRPC
import NIOConcurrencyHelpers

/// The last successful `CallToolResult` text of one tool, by the kept answer text it was made from.
///
/// A kept answer (the worker's cached box office) is the same byte array call after call, and wrapping it means
/// quoting all of it again for the text block; remembering the last wrap makes a repeated cached call cost what
/// the plain worker's does. Comparing the arrays is O(1) when they share storage, one `memcmp` otherwise.
final class ToolResultMemo: Sendable {
    private let last = NIOLockedValueBox<(text: [UInt8], result: [UInt8])?>(nil)

    /// The wrapped result of `text`, made by `wrap` unless it was the last one wrapped.
    func result(for text: [UInt8], _ wrap: ([UInt8]) -> [UInt8]) -> [UInt8] {
        if let known = last.withLockedValue({ $0 }), known.text == text { return known.result }
        let made = wrap(text)
        last.withLockedValue { $0 = (text, made) }
        return made
    }
}
