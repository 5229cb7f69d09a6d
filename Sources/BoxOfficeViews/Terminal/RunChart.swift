package import BoxOfficeCore

/// A film's run as a chart in the terminal: the running total by day as columns of block characters (eight steps a
/// row), a gap (a day in no list) as `·` on the baseline, the milestones marked under their day, and the axis and
/// the milestones spelled out below. Characters only, so it reads without colour (the style only dims the axis), and
/// every line fits `width` columns (40 to 200 and beyond).
///
/// The milestones marked are the millions once the run has passed one (the steps people cite: 100만, 500만, 천만),
/// else the 100,000 steps.
///
/// A run longer than the plot is wide is bucketed: each column is as many days as it takes, and shows the last listed
/// total in its days (a running total only grows, so that is the bucket's highest).
package struct RunChart: Sendable {
    package let width: Int
    package let height: Int
    package let style: TerminalStyle

    /// `height` rows of bars (at least 2).
    package init(width: Int, height: Int = 8, style: TerminalStyle) {
        (self.width, self.height, self.style) = (max(40, width), max(2, height), style)
    }

    /// The block characters from an eighth to a whole cell.
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One column of the plot: the days it stands for, its total (nil: none of its days is listed), and whether a
    /// milestone falls in it.
    package struct Column: Sendable, Hashable {
        package var firstDay: Int
        package var total: Int64?
        package var milestone = false
    }

    package func render(_ run: FilmRun) -> String {
        let axis = DisplayFormat.thousands(run.days.compactMap { $0.figures?.audienceTotal }.max() ?? 0)
        let margin = DisplayWidth.of(axis) + 2
        let marked = Self.marked(run.milestones)
        let columns = Self.columns(run, marked: marked, plotWidth: width - margin)
        let top = columns.compactMap(\.total).max() ?? 0
        var lines: [String] = []
        for row in (0..<height).reversed() {
            let label = row == height - 1 ? axis : row == 0 ? "0" : ""
            var line = style.dim(DisplayWidth.fit(label, to: margin - 2, alignment: .right) + " │")
            for column in columns {
                line.append(Self.cell(column, row: row, rows: height, top: top))
            }
            lines.append(line)
        }
        lines.append(
            style.dim(String(repeating: " ", count: margin - 2) + " └" + String(repeating: "─", count: columns.count)))
        var marks = String(repeating: " ", count: margin)
        for column in columns { marks.append(column.milestone ? "▲" : " ") }
        lines.append(marks)
        let first = columns.first?.firstDay ?? 1
        let last = run.days.last?.day ?? first
        lines.append(
            DisplayWidth.truncate(
                String(repeating: " ", count: margin) + "day \(first)"
                    + Self.rightAligned("day \(last)", after: "day \(first)", width: columns.count), to: width))
        lines += Self.legend(marked, width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The milestones worth marking: the millions when there are any, else every step.
    package static func marked(_ milestones: [Milestone]) -> [Milestone] {
        let millions = milestones.filter { $0.audience >= 1_000_000 }
        return millions.isEmpty ? milestones : millions
    }

    /// The plot's columns: a day each while the run fits, else buckets of days; `marked` set in theirs.
    package static func columns(_ run: FilmRun, marked: [Milestone], plotWidth: Int) -> [Column] {
        guard !run.days.isEmpty, plotWidth > 0 else { return [] }
        let perColumn = (run.days.count + plotWidth - 1) / plotWidth
        let milestoneDays = Set(marked.map(\.day))
        return stride(from: 0, to: run.days.count, by: perColumn).map { start in
            let days = run.days[start..<min(start + perColumn, run.days.count)]
            return Column(
                firstDay: days.first!.day, total: days.last { $0.figures != nil }?.figures?.audienceTotal,
                milestone: days.contains { milestoneDays.contains($0.day) })
        }
    }

    /// The cell of `column` in bar row `row` (0 at the bottom): full, a part in eighths, or empty; a gap's `·` sits
    /// on the baseline.
    static func cell(_ column: Column, row: Int, rows: Int, top: Int64) -> Character {
        guard let total = column.total else { return row == 0 ? "·" : " " }
        guard top > 0 else { return " " }
        // The bar's height in eighths of a row, at least one eighth for any audience.
        let eighths = max(total > 0 ? 1 : 0, Int((Double(total) / Double(top) * Double(rows * 8)).rounded()))
        let filled = eighths - row * 8
        if filled >= 8 { return "█" }
        return filled > 0 ? blocks[filled - 1] : " "
    }

    /// `text` right-aligned in `width` columns after `leading`, or nothing when it does not fit.
    static func rightAligned(_ text: String, after leading: String, width: Int) -> String {
        let gap = width - DisplayWidth.of(leading) - DisplayWidth.of(text)
        return gap >= 1 ? String(repeating: " ", count: gap) + text : ""
    }

    /// The milestones spelled out, as many to a line as fit: `▲ 1,000,000 day 4 (2024-02-25)`.
    static func legend(_ milestones: [Milestone], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for milestone in milestones {
            let item = "▲ \(DisplayFormat.thousands(milestone.audience)) day \(milestone.day) (\(milestone.date))"
            if line.isEmpty {
                line = item
            } else if DisplayWidth.of(line) + 3 + DisplayWidth.of(item) <= width {
                line += "   " + item
            } else {
                lines.append(line)
                line = item
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { DisplayWidth.truncate($0, to: width) }
    }
}
