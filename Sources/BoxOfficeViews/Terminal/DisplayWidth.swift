/// How many terminal columns text takes, and how to cut and pad it by columns.
///
/// A character (a grapheme cluster) takes two columns when its first scalar is East Asian Wide or Fullwidth
/// (Hangul, CJK, fullwidth forms) or it is shown as an emoji, none when it is a control character, else one:
/// combining marks belong to the character before them, so "é" written as e + U+0301 takes one column. Text is
/// cut only between characters, never inside one. An acting character (a control, a bidi override: see
/// ``TerminalText``) takes the column of its stand-in, and the cells ``truncate(_:to:)`` and ``fit(_:to:alignment:)``
/// make hold the stand-ins themselves, so a hostile title is measured as it is shown.
///
/// Why our own: Foundation has no terminal width, and the wcwidth of the C library depends on the locale the
/// process runs in (`C` gives -1 for every Hangul syllable); a box office table must line up the same everywhere.
package enum DisplayWidth {
    /// The columns of `text`.
    package static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns of one character.
    package static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        // Controls never join a grapheme (but CR LF, two stand-ins): each scalar is one stand-in of one column.
        if TerminalText.standIn(for: first) != nil { return character.unicodeScalars.count }
        if first.properties.generalCategory == .control || first.properties.generalCategory == .format { return 0 }
        if isWide(first.value) { return 2 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        if properties.isEmoji, character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt that terminals draw in two
    /// columns.
    package static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut (at a character boundary).
    package static func truncate(_ text: String, to width: Int) -> String {
        let text = TerminalText.clean(text, for: .cell)
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            kept.append(character)
            used += columns
        }
        return kept + "…"
    }

    /// `text` cut to `width` columns and padded with spaces to exactly `width`, on the left for `.right`.
    package static func fit(_ text: String, to width: Int, alignment: Alignment = .left) -> String {
        let cut = truncate(text, to: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignment == .left ? cut + padding : padding + cut
    }

    /// Where text sits in a column.
    package enum Alignment: Sendable {
        case left, right
    }
}

extension String {
    /// Right-aligned in `width` columns.
    package func leftPadded(to width: Int) -> String {
        DisplayWidth.fit(self, to: width, alignment: .right)
    }
}
