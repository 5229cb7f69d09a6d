package import BoxOfficeCore

/// A box office as the apps drew it, in a terminal: a list (one row per entry) or a grid of cards, under a header
/// naming the day or period and where the figures came from.
package struct BoxOfficeScreen: Sendable {
    package let width: Int
    package let style: TerminalStyle

    package init(width: Int, style: TerminalStyle) {
        self.width = max(40, width)
        self.style = style
    }

    /// The screen for `office`.
    package func render(_ office: BoxOffice, layout: ListLayout) -> String {
        var lines = [header(office), ""]
        lines += layout == .list ? list(office.entries) : grid(office.entries, period: ViewFormat.period(office.kind))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `일별 박스오피스 · 2023-04-26 (Wed) · fixture, recorded 2023-04-27T00:00:00Z`
    package func header(_ office: BoxOffice) -> String {
        let days =
            office.start == office.end
            ? "\(office.start) (\(ViewFormat.weekday(office.start)))" : "\(office.start) – \(office.end)"
        let head = DisplayWidth.truncate("\(office.label) · \(days)", to: width)
        let rest = DisplayWidth.truncate(" · \(ViewFormat.origin(office.source))", to: width - DisplayWidth.of(head))
        return style.bold(head) + (rest.isEmpty ? "" : style.dim(rest))
    }

    /// The change cell as the apps tint it: 신작 pink, the ▲ red and the ▼ blue with their number plain, - plain;
    /// padded before it is painted.
    package func change(_ entry: BoxOfficeEntry, width: Int) -> String {
        let text = DisplayFormat.rankChange(trend: entry.trend, change: entry.rankChange)
        let padded = DisplayWidth.fit(text, to: width)
        switch entry.trend {
        case .new: return style.pink(padded)
        case .up: return style.red(String(padded.prefix(1))) + padded.dropFirst()
        case .down: return style.blue(String(padded.prefix(1))) + padded.dropFirst()
        case .same: return padded
        }
    }

    package func list(_ entries: [BoxOfficeEntry]) -> [String] {
        // rank, change, title, audience, total, share; the title takes what the others leave.
        let showShare = width >= 64
        let showTotal = width >= 52
        let fixed = 4 + 2 + 5 + 2 + 11 + (showTotal ? 13 : 0) + (showShare ? 7 : 0)
        let titleWidth = max(8, width - fixed)
        func row(_ cells: [String]) -> String {
            var line = cells.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
        var header = [
            DisplayWidth.fit("Rank", to: 4, alignment: .right), "  ", DisplayWidth.fit("Chg", to: 5), "  ",
            DisplayWidth.fit("Title", to: titleWidth), DisplayWidth.fit("Audience", to: 11, alignment: .right),
        ]
        if showTotal { header.append(DisplayWidth.fit("Total", to: 13, alignment: .right)) }
        if showShare { header.append(DisplayWidth.fit("Share", to: 7, alignment: .right)) }
        var lines = [style.dim(row(header))]
        for entry in entries {
            var cells = [
                DisplayWidth.fit(String(entry.rank), to: 4, alignment: .right), "  ", change(entry, width: 5), "  ",
                DisplayWidth.fit(entry.title, to: titleWidth),
                DisplayWidth.fit(DisplayFormat.thousands(entry.audience.amount), to: 11, alignment: .right),
            ]
            if showTotal {
                cells.append(DisplayWidth.fit(DisplayFormat.thousands(entry.audience.total), to: 13, alignment: .right))
            }
            if showShare {
                cells.append(DisplayWidth.fit(ViewFormat.percent(entry.salesShare), to: 7, alignment: .right))
            }
            lines.append(row(cells))
        }
        return lines
    }

    /// Cards of `cardWidth` columns (inside their border), as many to a row as the width allows; `period` labels
    /// the audience of the day or period (`day`, `week`, `weekend`, `weekdays`).
    package func grid(_ entries: [BoxOfficeEntry], period: String) -> [String] {
        gridRows(entries, period: period).flatMap(\.lines)
    }

    /// A card's width in columns, its border included; cards are one column apart.
    package static let cardColumns = 24

    /// The grid's rows: each row's entries and its lines.
    package func gridRows(_ entries: [BoxOfficeEntry], period: String) -> [(
        entries: ArraySlice<BoxOfficeEntry>, lines: [String]
    )] {
        let inner = Self.cardColumns - 2
        let perRow = max(1, (width + 1) / (inner + 3))
        return stride(from: 0, to: entries.count, by: perRow).map { start in
            let row = entries[start..<min(entries.count, start + perRow)]
            let cards = row.map { card($0, inner: inner, period: period) }
            return (row, cards[0].indices.map { index in cards.map { $0[index] }.joined(separator: " ") })
        }
    }

    package func card(_ entry: BoxOfficeEntry, inner: Int, period: String) -> [String] {
        let border = String(repeating: "─", count: inner)
        let rank = "#\(entry.rank)"
        let changeText = DisplayFormat.rankChange(trend: entry.trend, change: entry.rankChange)
        let gap = String(repeating: " ", count: max(1, inner - 2 - DisplayWidth.of(rank) - DisplayWidth.of(changeText)))
        let top = " " + style.bold(rank) + gap + change(entry, width: DisplayWidth.of(changeText)) + " "
        return [
            "┌" + border + "┐",
            "│" + top + "│",
            "│ " + DisplayWidth.fit(entry.title, to: inner - 2) + " │",
            "│ " + DisplayWidth.fit(period + " " + DisplayFormat.thousands(entry.audience.amount), to: inner - 2)
                + " │",
            "│ " + DisplayWidth.fit("total " + DisplayFormat.thousands(entry.audience.total), to: inner - 2) + " │",
            "└" + border + "┘",
        ]
    }
}
