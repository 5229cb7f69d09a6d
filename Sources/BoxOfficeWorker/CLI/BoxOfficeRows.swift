package import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import JSONCore

/// A box office's entries as rows for programs: CSV columns, or one JSON object per entry (NDJSON), each carrying
/// its period so rows of several days can be told apart.
package enum BoxOfficeRows {
    package static let columns = [
        "start", "end", "rank", "change", "trend", "movieCode", "title", "openDate", "audience", "audienceChange",
        "audienceTotal", "sales", "salesShare", "salesTotal", "screens", "shows",
    ]

    package static func csv(_ office: BoxOffice) -> [String] {
        office.entries.map { entry in
            CSVText.row([
                office.start.description, office.end.description, String(entry.rank), entry.display.rankChange,
                entry.trend.rawValue, entry.movieCode, entry.title, entry.openDate?.description ?? "",
                String(entry.audience.amount), String(entry.audience.change), String(entry.audience.total),
                String(entry.sales.amount), String(entry.salesShare), String(entry.sales.total), String(entry.screens),
                String(entry.shows),
            ])
        }
    }

    package static func ndjson(_ office: BoxOffice) -> [String] {
        office.entries.map { entry in
            var object = ModelEncoding.entry(entry)
            object["start"] = .string(office.start.description)
            object["end"] = .string(office.end.description)
            object["kind"] = .string(office.kind.rawValue)
            return JSONSerializer.string(.object(object)) + "\n"
        }
    }
}
