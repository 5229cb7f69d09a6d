package import BoxOfficeCore

/// A run's chart as inline SVG, for a page without script: each film's running total by day since its opening
/// (day 1 at the same x for every film), a line broken wherever a day is in no list (never drawn across a gap),
/// each cited milestone a dot with its step and day as its tooltip, and the axes labelled in the page's text.
package enum RunSVG {
    static let width = 720.0
    static let height = 320.0
    static let left = 86.0
    static let right = 16.0
    static let top = 16.0
    static let bottom = 40.0
    /// One colour per film, in order (8 films at most are compared), readable on the page's light and dark
    /// backgrounds.
    static let colours = ["#d6336c", "#1c7ed6", "#2f9e44", "#f59f00", "#7048e8", "#0c8599", "#e8590c", "#868e96"]

    /// The chart of `runs` with `titles` (already harmless: the view's) as its legend.
    package static func chart(_ runs: [FilmRun], titles: [String]) -> String {
        let days = runs.flatMap(\.days)
        guard let firstDay = days.map(\.day).min(), let lastDay = days.map(\.day).max() else {
            return "<p class=\"chart empty\">No day of the run is listed.</p>\n"
        }
        let top = max(1, days.compactMap { $0.figures?.audienceTotal }.max() ?? 1)
        let span = Double(max(1, lastDay - firstDay))
        let plotWidth = width - left - right
        let plotHeight = height - Self.top - bottom
        func x(_ day: Int) -> Double { left + Double(day - firstDay) / span * plotWidth }
        func y(_ total: Int64) -> Double { Self.top + plotHeight * (1 - Double(total) / Double(top)) }
        func number(_ value: Double) -> String { String(Double((value * 10).rounded()) / 10) }
        var svg = "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) "
        svg +=
            "\(Int(height))\" role=\"img\" aria-label=\"\(HTMLPage.escaped("Audience in total by day since opening"))\">\n"
        // Axes: the baseline and day 1, the top total and zero, the first and last day.
        svg += "<g stroke=\"currentColor\" stroke-opacity=\"0.35\" fill=\"none\">"
        svg +=
            "<line x1=\"\(number(left))\" y1=\"\(number(y(0)))\" x2=\"\(number(width - right))\" y2=\"\(number(y(0)))\"/>"
        if firstDay < 1 {
            svg += "<line x1=\"\(number(x(1)))\" y1=\"\(number(Self.top))\" x2=\"\(number(x(1)))\" "
            svg += "y2=\"\(number(y(0)))\" stroke-dasharray=\"4 4\"/>"
        }
        svg += "</g>\n<g fill=\"currentColor\" font-size=\"12\">"
        svg += "<text x=\"\(number(left - 6))\" y=\"\(number(Self.top + 4))\" text-anchor=\"end\">"
        svg += "\(DisplayFormat.thousands(top))</text>"
        svg += "<text x=\"\(number(left - 6))\" y=\"\(number(y(0)))\" text-anchor=\"end\">0</text>"
        // The first day at the plot's left edge, the last at its right (inside the box); day 1 between them when
        // there is room for it apart from both.
        var labels: [(day: Int, anchor: String)] = [(firstDay, "start")]
        if lastDay > firstDay { labels.append((lastDay, "end")) }
        if firstDay < 1, 1 < lastDay, x(1) - x(firstDay) > 60, x(lastDay) - x(1) > 60 { labels.append((1, "middle")) }
        for label in labels {
            svg += "<text x=\"\(number(x(label.day)))\" y=\"\(number(height - bottom + 18))\" "
            svg += "text-anchor=\"\(label.anchor)\">day \(label.day)</text>"
        }
        svg += "</g>\n"
        for (index, run) in runs.enumerated() {
            let colour = colours[index % colours.count]
            var segment: [String] = []
            var lines: [[String]] = []
            for day in run.days {
                if let total = day.figures?.audienceTotal {
                    segment.append("\(number(x(day.day))),\(number(y(total)))")
                } else if !segment.isEmpty {
                    lines.append(segment)
                    segment = []
                }
            }
            if !segment.isEmpty { lines.append(segment) }
            let title = index < titles.count ? titles[index] : run.movieCode
            svg +=
                "<g class=\"series\" stroke=\"\(colour)\" fill=\"\(colour)\"><title>\(HTMLPage.escaped(title))</title>"
            for line in lines {
                if line.count == 1 {
                    let point = line[0].split(separator: ",")
                    svg += "<circle cx=\"\(point[0])\" cy=\"\(point[1])\" r=\"1.5\"/>"
                } else {
                    svg += "<polyline fill=\"none\" stroke-width=\"2\" points=\"\(line.joined(separator: " "))\"/>"
                }
            }
            for milestone in RunChart.marked(run.milestones) {
                let label =
                    "\(title): \(AnswerView.step(milestone.audience)) on day \(milestone.day) (\(milestone.date))"
                svg += "<circle cx=\"\(number(x(milestone.day)))\" cy=\"\(number(y(milestone.audience)))\" r=\"3.5\">"
                svg += "<title>\(HTMLPage.escaped(label))</title></circle>"
            }
            svg += "</g>\n"
        }
        svg += "</svg>\n<figcaption>"
        svg += runs.indices.map { index in
            let title = index < titles.count ? titles[index] : runs[index].movieCode
            // A swatch, not a character: a graphic needs 3:1 against the page, where a text would need 4.5:1.
            return "<span class=\"legend\" aria-hidden=\"true\" style=\"display:inline-block;width:0.8em;height:0.8em;"
                + "background:\(colours[index % colours.count])\"></span> " + HTMLPage.escaped(title)
        }.joined(separator: " ")
        svg += "</figcaption></figure>\n"
        return svg
    }
}
