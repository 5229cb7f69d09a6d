import FoundationEssentials
import Glibc

/// How a terminal draws pictures, for the grid's posters (`--layout grid --images`): the kitty graphics protocol
/// (kitty, WezTerm, Ghostty) or DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, …). Only ever on a terminal:
/// into a pipe or a file the grid stays text.
package enum TerminalGraphics: String, Sendable {
    case kitty, sixel

    /// `--images`.
    package enum Choice: String, Sendable, CaseIterable {
        /// The protocol the terminal is known to speak (its environment for kitty's; its answer to the primary
        /// device attributes query for sixel), else none.
        case auto
        case kitty, sixel
        case never
    }

    /// The protocol to draw with, or nil for the text grid. `ask` sends the primary device attributes query
    /// (`CSI c`) to the terminal and answers what it said (nil when it said nothing in time).
    package static func chosen(
        _ choice: Choice, environment: [String: String], stdoutIsTerminal: Bool, ask: () -> String?
    ) -> TerminalGraphics? {
        guard stdoutIsTerminal else { return nil }
        switch choice {
        case .never: return nil
        case .kitty: return .kitty
        case .sixel: return .sixel
        case .auto:
            if environment["TERM"] == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil
                || ["WezTerm", "ghostty"].contains(environment["TERM_PROGRAM"] ?? "")
            {
                return .kitty
            }
            // Attribute 4 in the answer (`CSI ? 6x ; … ; 4 ; … c`) is sixel graphics.
            guard let answer = ask(), answer.hasPrefix("\u{1B}[?"), answer.hasSuffix("c") else { return nil }
            let attributes = answer.dropFirst(3).dropLast().split(separator: ";")
            return attributes.contains("4") ? .sixel : nil
        }
    }

    /// Asks the controlling terminal for its primary device attributes, waiting at most `timeout` for the
    /// answer; nil when there is no terminal to ask or it does not answer.
    package static func askDeviceAttributes(timeout milliseconds: Int32 = 150) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(descriptor, TCSANOW, &saved) }
        let query: [UInt8] = [0x1B, 0x5B, 0x63]
        guard write(descriptor, query, query.count) == query.count else { return nil }
        var answer: [UInt8] = []
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while answer.last != UInt8(ascii: "c"), answer.count < 64, poll(&poller, 1, milliseconds) > 0 {
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { break }
            answer.append(byte)
        }
        return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    }

    /// The size of a character cell in pixels, from the terminal on stdout (`TIOCGWINSZ`), else 10 × 20.
    package static func cellSize() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
            size.ws_xpixel > 0, size.ws_ypixel > 0
        {
            return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return (10, 20)
    }
}
