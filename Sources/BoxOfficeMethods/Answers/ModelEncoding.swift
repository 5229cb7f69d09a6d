package import BoxOfficeCore
package import JSONCore
import JSONRPC

/// Domain models as the result shapes of protocol.md §3.
package enum ModelEncoding {
    package static func source(_ source: Source) -> JSONValue {
        ["origin": .string(source.origin.rawValue), "fetchedAt": .string(source.fetchedAt)]
    }

    package static func date(_ date: CalendarDate?) -> JSONValue {
        date.map { .string($0.description) } ?? .null
    }

    package static func optionalInt(_ value: Int?) -> JSONValue {
        value.map { .int($0) } ?? .null
    }

    /// A box office; with `include`, each entry carries the parts asked for (`null` when one failed) and the
    /// `errors` of those that failed, each the part's JSON-RPC error object with its `part`.
    package static func boxOffice(
        _ office: BoxOffice, include: Set<IncludedParts.Part> = [], parts: [IncludedParts.Entry] = []
    ) -> JSONValue {
        var object: JSONObject = [
            "kind": .string(office.kind.rawValue),
            "label": .string(office.label),
            "range": ["start": .string(office.start.description), "end": .string(office.end.description)],
        ]
        if office.kind != .daily { object["yearWeek"] = .optionalString(office.yearWeek) }
        object["entries"] = .array(
            office.entries.enumerated().map { index, entry in
                var encoded = Self.entry(entry)
                if index < parts.count { add(parts[index], include, to: &encoded) }
                return .object(encoded)
            })
        object["source"] = source(office.source)
        return .object(object)
    }

    /// An entry's included parts, as members of the entry.
    private static func add(
        _ parts: IncludedParts.Entry, _ include: Set<IncludedParts.Part>, to entry: inout JSONObject
    ) {
        if include.contains(.detail) { entry["detail"] = parts.detail.map(movie) ?? .null }
        if include.contains(.poster) { entry["poster"] = parts.poster.map { poster($0) } ?? .null }
        guard !parts.failures.isEmpty else { return }
        entry["errors"] = .array(
            parts.failures.map { failure in
                var object = failure.error.rpcError.json.objectValue ?? [:]
                object["part"] = .string(failure.part.rawValue)
                return .object(object)
            })
    }

    package static func entry(_ entry: BoxOfficeEntry) -> JSONObject {
        let display = entry.display
        return [
            "rank": .int(entry.rank), "rankChange": .int(entry.rankChange), "trend": .string(entry.trend.rawValue),
            "movieCode": .string(entry.movieCode), "title": .string(entry.title), "openDate": date(entry.openDate),
            "audience": [
                "count": .integer(entry.audience.amount), "change": .integer(entry.audience.change),
                "changeRate": .real(entry.audience.changeRate), "total": .integer(entry.audience.total),
            ],
            "sales": [
                "amount": .integer(entry.sales.amount), "share": .real(entry.salesShare),
                "change": .integer(entry.sales.change),
                "changeRate": .real(entry.sales.changeRate), "total": .integer(entry.sales.total),
            ],
            "screens": .integer(entry.screens), "shows": .integer(entry.shows),
            "display": [
                "rank": .string(display.rank), "rankChange": .string(display.rankChange),
                "audience": .string(display.audience),
                "audienceTotal": .string(display.audienceTotal), "sales": .string(display.sales),
            ],
        ]
    }

    package static func movie(_ movie: Movie) -> JSONValue {
        [
            "movieCode": .string(movie.movieCode), "title": .string(movie.title),
            "titleEnglish": .optionalString(movie.titleEnglish), "titleOriginal": .optionalString(movie.titleOriginal),
            "productionYear": optionalInt(movie.productionYear), "openDate": date(movie.openDate),
            "runtimeMinutes": optionalInt(movie.runtimeMinutes), "status": .optionalString(movie.status),
            "type": .optionalString(movie.type), "nations": .array(movie.nations.map(JSONValue.string)),
            "genres": .array(movie.genres.map(JSONValue.string)),
            "directors": .array(
                movie.directors.map { ["name": .string($0.name), "nameEnglish": .optionalString($0.nameEnglish)] }),
            "actors": .array(
                movie.actors.map {
                    [
                        "name": .string($0.name), "nameEnglish": .optionalString($0.nameEnglish),
                        "role": .optionalString($0.role), "roleEnglish": .optionalString($0.roleEnglish),
                    ]
                }),
            "showTypes": .array(movie.showTypes.map { ["group": .string($0.group), "name": .string($0.name)] }),
            "ratings": .array(
                movie.ratings.map { ["number": .optionalString($0.number), "grade": .string($0.grade)] }),
            "watchGrade": .optionalString(movie.watchGrade),
            "companies": .array(
                movie.companies.map {
                    [
                        "code": .string($0.code), "name": .string($0.name),
                        "nameEnglish": .optionalString($0.nameEnglish), "role": .optionalString($0.role),
                    ]
                }),
            "staffs": .array(
                movie.staffs.map {
                    [
                        "name": .string($0.name), "nameEnglish": .optionalString($0.nameEnglish),
                        "role": .optionalString($0.role),
                    ]
                }),
            "source": source(movie.source),
        ]
    }

    package static func poster(_ poster: PosterSearch, file: PosterFile? = nil) -> JSONValue {
        let image: JSONValue =
            poster.image.map { image in
                [
                    "url": .string(image.url), "thumbnailUrl": .string(image.thumbnailUrl), "width": .int(image.width),
                    "height": .int(image.height), "site": .optionalString(image.site),
                    "documentUrl": .optionalString(image.documentUrl),
                    "collection": .optionalString(image.collection), "postedAt": .optionalString(image.postedAt),
                ]
            } ?? .null
        var result: JSONObject = ["query": .string(poster.query), "found": .bool(poster.image != nil), "image": image]
        if let file {
            result["file"] = [
                "path": .string(file.path), "mimeType": .string(file.mimeType), "bytes": .int(file.bytes),
                "sha256": .string(file.sha256),
            ]
        }
        return .object(result)
    }

    package static func search(_ search: MovieSearch) -> JSONValue {
        [
            "total": .int(search.total), "page": .int(search.page),
            "movies": .array(
                search.movies.map { movie in
                    [
                        "movieCode": .string(movie.movieCode), "title": .string(movie.title),
                        "titleEnglish": .optionalString(movie.titleEnglish),
                        "productionYear": optionalInt(movie.productionYear), "openDate": date(movie.openDate),
                        "type": .optionalString(movie.type), "status": .optionalString(movie.status),
                        "nations": .array(movie.nations.map(JSONValue.string)),
                        "genres": .array(movie.genres.map(JSONValue.string)),
                        "directors": .array(movie.directors.map(JSONValue.string)),
                    ]
                }),
        ]
    }
}
