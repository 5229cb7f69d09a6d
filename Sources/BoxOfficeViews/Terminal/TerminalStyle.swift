import FoundationEssentials
import Glibc

/// Colour in the terminal, as the apps have it: the ▲ of an increase red (`systemRed`), the ▼ of a decrease blue
/// (`systemBlue`), the number after either plain, and 신작 pink (`systemPink`; magenta, the terminal's nearest of
/// its sixteen colours every terminal has).
///
/// On only when stdout is a terminal and `NO_COLOR` is not set (no-color.org), or when `--color always` forces it;
/// `--color never` turns it off.
package struct TerminalStyle: Sendable {
    /// `--color`.
    package enum Choice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    package let enabled: Bool

    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The style for `choice` on this process's stdout and environment.
    package static func resolve(_ choice: Choice, environment: [String: String], stdoutIsTerminal: Bool)
        -> TerminalStyle
    {
        switch choice {
        case .always: TerminalStyle(enabled: true)
        case .never: TerminalStyle(enabled: false)
        case .auto: TerminalStyle(enabled: stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The length in scalars of the colour sequence `scalars` starts with, when it is one of the sequences
    /// `paint` writes (`ESC [ 0|1|2|31|34|35 m`), else nil: what ``TerminalText/screen(_:)`` lets through.
    package static func sequenceLength(_ scalars: ArraySlice<Unicode.Scalar>) -> Int? {
        sequences.first { scalars.starts(with: $0) }?.count
    }

    /// What `paint` writes, as scalars.
    private static let sequences = ["0", "1", "2", "31", "34", "35"].map { Array("\u{1B}[\($0)m".unicodeScalars) }

    package func red(_ text: String) -> String { paint(text, "31") }
    package func blue(_ text: String) -> String { paint(text, "34") }
    /// 신작.
    package func pink(_ text: String) -> String { paint(text, "35") }
    package func bold(_ text: String) -> String { paint(text, "1") }
    package func dim(_ text: String) -> String { paint(text, "2") }
}
