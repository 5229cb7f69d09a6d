/// Why a card could not be drawn: the libraries or a Hangul font are missing (with the packages to install), or
/// cairo failed.
package struct CardError: Error, Sendable, CustomStringConvertible {
    package var message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
