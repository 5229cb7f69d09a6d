package import BoxOfficeCore

/// The screens of `run` and `compare`: a run's heading, its chart (``RunChart``) and its summary, as the post says
/// it (``AnswerView/init(run:coverage:)``); runs compared as one chart of letters (``ComparisonChart``) and each
/// film's figures and milestone days.
package struct RunScreen: Sendable {
    package let width: Int
    package let style: TerminalStyle

    package init(width: Int, style: TerminalStyle) {
        (self.width, self.style) = (max(40, width), style)
    }

    /// A run's screen from its view (``AnswerView/Kind/run``): the heading, the chart, the summary.
    package func render(run view: AnswerView) -> String {
        var lines = [style.bold(DisplayWidth.truncate(TerminalText.clean(view.heading, for: .cell), to: width))]
        if let subheading = view.subheading {
            lines += MovieScreen.wrap(TerminalText.clean(subheading, for: .cell), width: width, at: " ").map(style.dim)
        }
        lines.append(style.dim(String(repeating: "─", count: min(width, 60))))
        if let run = view.runs.first { lines.append(RunChart(width: width, style: style).render(run)) }
        // The milestones' fields (`100만`, …) are the chart's legend on a screen.
        var fields = FieldLines(title: "", english: nil, width: width, style: style)
        for field in view.fields where view.runs.isEmpty || !field.name.hasSuffix("만") {
            fields.field(field.name, field.value)
        }
        lines += fields.fieldLines
        if let source = view.source { lines.append(style.dim(DisplayWidth.truncate(source, to: width))) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs compared, from their view (``AnswerView/Kind/comparison``).
    package func render(comparison view: AnswerView) -> String {
        var lines = [style.bold(TerminalText.clean(view.heading, for: .cell))]
        lines.append(style.dim(String(repeating: "─", count: min(width, 60))))
        var screen = ComparisonChart(width: width, style: style).render(view.runs, titles: view.items.map(\.title))
        for (index, item) in view.items.enumerated() {
            screen +=
                "\n" + style.bold("\(ComparisonChart.letter(index)) " + TerminalText.clean(item.title, for: .cell))
            screen += "\n"
            let facts = item.facts.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
            for line in MovieScreen.wrap(TerminalText.clean(facts, for: .cell), width: width - 2) {
                screen += "  " + line + "\n"
            }
        }
        lines.append(screen)
        if let source = view.source { lines.append(style.dim(DisplayWidth.truncate(source, to: width))) }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Runs compared in one chart of characters: day N across (day 1 the same column for every film), the running
/// total up, each film drawn with its letter (A, B, …) at its total, `*` where two meet: it reads without colour,
/// and a letter says whose line it is in any terminal. A day in no list leaves its cell empty.
package struct ComparisonChart: Sendable {
    package let width: Int
    package let height: Int
    package let style: TerminalStyle

    package init(width: Int, height: Int = 10, style: TerminalStyle) {
        (self.width, self.height, self.style) = (max(40, width), max(3, height), style)
    }

    package static func letter(_ index: Int) -> String {
        String(UnicodeScalar(UInt8(65 + index % 26)))
    }

    package func render(_ runs: [FilmRun], titles: [String]) -> String {
        let days = runs.flatMap(\.days)
        guard let first = days.map(\.day).min(), let last = days.map(\.day).max() else {
            return style.dim("no day of any run is listed") + "\n"
        }
        let top = max(1, days.compactMap { $0.figures?.audienceTotal }.max() ?? 1)
        let axis = DisplayFormat.thousands(top)
        let margin = DisplayWidth.of(axis) + 2
        let plotWidth = width - margin
        let perColumn = (last - first + plotWidth) / plotWidth
        let columns = (last - first) / perColumn + 1
        var grid = Array(repeating: Array(repeating: Character(" "), count: columns), count: height)
        for (index, run) in runs.enumerated() {
            var byColumn: [Int: Int64] = [:]
            for day in run.days {
                guard let total = day.figures?.audienceTotal else { continue }
                byColumn[(day.day - first) / perColumn] = total
            }
            for (column, total) in byColumn {
                let row = min(height - 1, Int((Double(total) / Double(top) * Double(height - 1)).rounded()))
                let mark = Character(Self.letter(index))
                grid[row][column] = grid[row][column] == " " || grid[row][column] == mark ? mark : "*"
            }
        }
        var lines: [String] = []
        for row in (0..<height).reversed() {
            let label = row == height - 1 ? axis : row == 0 ? "0" : ""
            lines.append(
                style.dim(DisplayWidth.fit(label, to: margin - 2, alignment: .right) + " │") + String(grid[row]))
        }
        lines.append(
            style.dim(String(repeating: " ", count: margin - 2) + " └" + String(repeating: "─", count: columns)))
        lines.append(
            DisplayWidth.truncate(
                String(repeating: " ", count: margin) + "day \(first)"
                    + RunChart.rightAligned("day \(last)", after: "day \(first)", width: columns), to: width))
        let legend = titles.enumerated().map {
            "\(Self.letter($0.offset)) \(TerminalText.clean($0.element, for: .cell))"
        }
        lines += MovieScreen.wrap(legend.joined(separator: ", "), width: width)
        return lines.joined(separator: "\n") + "\n"
    }
}
