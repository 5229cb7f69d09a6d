package import BoxOfficeCore

/// How every view says the figures a screen, a message, a page and a card share: where they come from, the span an
/// audience counts, a weekday, a share of sales. One place, so no renderer borrows another's helpers.
package enum ViewFormat {
    /// Where figures come from, as the screens and the chat formats say it: `kobis, fetched …`, `cache, fetched …`,
    /// `fixture, recorded …`.
    package static func origin(_ source: Source) -> String {
        switch source.origin {
        case .kobis: "kobis, fetched \(source.fetchedAt)"
        case .cache: "cache, fetched \(source.fetchedAt)"
        case .fixture: "fixture, recorded \(source.fetchedAt)"
        }
    }

    /// What a card calls the audience of the box office's own span (the total is `total`).
    package static func period(_ kind: BoxOffice.Kind) -> String {
        kind == .daily ? "day" : kind.rawValue
    }

    /// `Mon` … `Sun`, in English as the headers give it.
    package static func weekday(_ date: CalendarDate) -> String {
        // 1970-01-01 was a Thursday.
        ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((date.dayNumber % 7) + 7) % 7]
    }

    /// A share with one decimal: `12.3%`.
    package static func percent(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))%"
    }
}
