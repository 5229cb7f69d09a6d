package import BoxOfficeCore
import Foundation
import JSONCore

extension CLISession {
    /// `daily` / `weekly` for one day or period: the list or grid screen, or the worker's result as data.
    package func boxOffice(
        _ request: BoxOfficeRequest, include: Set<String>, format: CLIFormat, layout: BoxOfficeScreen.Layout,
        excel: Bool
    ) async -> Int32 {
        let office: BoxOffice
        let extras: [Int: JSONObject]
        do throws(BoxOfficeError) {
            office = try await service.boxOffice(try service.plan(request)).value
            extras = await IncludedParts.fetch(for: office, include: include, service: service) { _, _, _ in }
        } catch {
            return fail(error)
        }
        switch format {
        case .text:
            var text = BoxOfficeScreen(width: width, style: style).render(office, layout: layout)
            if !extras.isEmpty { text += Self.partsText(office, extras) }
            write(text)
        case .json:
            write(JSONSerializer.string(ModelEncoding.boxOffice(office, extras: extras)) + "\n")
        case .ndjson:
            write(BoxOfficeRows.ndjson(office).joined())
        case .csv:
            write(
                (excel ? CSVText.excelBOM : "") + CSVText.row(BoxOfficeRows.columns)
                    + BoxOfficeRows.csv(office).joined())
        }
        return 0
    }

    /// Below the list, for `--with-details` and `--with-posters`: each entry's director, genres and poster.
    static func partsText(_ office: BoxOffice, _ extras: [Int: JSONObject]) -> String {
        var lines = [""]
        for (index, entry) in office.entries.enumerated() {
            let parts = extras[index] ?? [:]
            var facts: [String] = []
            if let detail = parts["detail"] {
                let directors = detail["directors"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                let genres = detail["genres"]?.arrayValue?.compactMap(\.stringValue) ?? []
                facts.append(
                    (directors + [genres.joined(separator: "/")]).filter { !$0.isEmpty }.joined(separator: " · "))
            }
            if let poster = parts["poster"] {
                facts.append(poster["image"]?["url"]?.stringValue ?? "no poster")
            }
            if let errors = parts["errors"]?.arrayValue, !errors.isEmpty {
                facts.append(errors.compactMap { $0["message"]?.stringValue }.joined(separator: "; "))
            }
            lines.append("\(String(entry.rank).leftPadded(to: 3))  \(entry.title): \(facts.joined(separator: " — "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `movie CODE`: the detail screen, with the poster's URL (or, with `download`, the downloaded file).
    package func movie(code: String, download: Bool, format: CLIFormat) async -> Int32 {
        let movie: Movie
        do throws(BoxOfficeError) {
            movie = try await service.movie(code: code)
        } catch {
            return fail(error)
        }
        var poster: PosterSearch?
        var file: PosterFile?
        var problem: String?
        do throws(BoxOfficeError) {
            poster = try await service.poster(title: movie.title, movieCode: nil)
            if download, let url = poster?.image?.url {
                file = try await runtime.download(url)
            }
        } catch {
            problem = "\(error.message) (\(error.reason.rawValue))"
        }
        switch format {
        case .text:
            write(
                MovieScreen(width: width, style: style).render(
                    movie, poster: poster, file: file, posterProblem: problem))
        case .json, .ndjson:
            write(JSONSerializer.string(ModelEncoding.movie(movie)) + "\n")
        case .csv:
            write(
                CSVText.row([
                    "movieCode", "title", "titleEnglish", "productionYear", "openDate", "runtimeMinutes", "directors",
                    "genres", "nations", "watchGrade",
                ])
                    + CSVText.row([
                        movie.movieCode, movie.title, movie.titleEnglish ?? "",
                        movie.productionYear.map(String.init) ?? "",
                        movie.openDate?.description ?? "", movie.runtimeMinutes.map(String.init) ?? "",
                        movie.directors.map(\.name).joined(separator: "; "), movie.genres.joined(separator: "; "),
                        movie.nations.joined(separator: "; "), movie.watchGrade ?? "",
                    ]))
        }
        return 0
    }

    /// `search TITLE`: code, title, year, opening date and directors of each movie found.
    package func search(title: String?, director: String?, year: Int?, format: CLIFormat) async -> Int32 {
        let found: MovieSearch
        do throws(BoxOfficeError) {
            found = try await service.search(title: title, director: director, year: year)
        } catch {
            return fail(error)
        }
        let value = ModelEncoding.search(found)
        switch format {
        case .json:
            write(JSONSerializer.string(value) + "\n")
        case .ndjson:
            write((value["movies"]?.arrayValue ?? []).map { JSONSerializer.string($0) + "\n" }.joined())
        case .csv:
            let rows = (value["movies"]?.arrayValue ?? []).map { movie in
                CSVText.row(
                    ["movieCode", "title", "productionYear", "openDate"].map { key in
                        movie[key].map { $0.stringValue ?? ($0.isNull ? "" : $0.description) } ?? ""
                    })
            }
            write(CSVText.row(["movieCode", "title", "productionYear", "openDate"]) + rows.joined())
        case .text:
            var lines = [style.bold("\(found.total) movies") + style.dim(" · page \(found.page)")]
            for movie in value["movies"]?.arrayValue ?? [] {
                let code = DisplayWidth.fit(movie["movieCode"]?.stringValue ?? "", to: 10)
                let year = movie["productionYear"]?.integerValue.map(String.init) ?? "    "
                let directors =
                    movie["directors"]?.arrayValue?.compactMap { $0["name"]?.stringValue ?? $0.stringValue } ?? []
                let titleWidth = max(10, width - 10 - 2 - 4 - 2 - 16)
                lines.append(
                    "\(code)  \(DisplayWidth.fit(movie["title"]?.stringValue ?? "", to: titleWidth))  \(year)  "
                        + DisplayWidth.truncate(directors.joined(separator: ", "), to: 16))
            }
            write(lines.joined(separator: "\n") + "\n")
        }
        return 0
    }

    /// `poster`: the poster's URL and size, or, with `download`, the file it was saved to.
    package func poster(title: String?, code: String?, download: Bool, format: CLIFormat) async -> Int32 {
        let poster: PosterSearch
        var file: PosterFile?
        do throws(BoxOfficeError) {
            poster = try await service.poster(title: title, movieCode: code)
            if download, let url = poster.image?.url {
                file = try await runtime.download(url)
            }
        } catch {
            return fail(error)
        }
        switch format {
        case .json, .ndjson, .csv:
            write(JSONSerializer.string(ModelEncoding.poster(poster, file: file)) + "\n")
        case .text:
            guard let image = poster.image else {
                write("no poster found for \"\(poster.query)\"\n")
                return 0
            }
            var lines = [style.bold(poster.query), "\(image.url)  \(image.width)×\(image.height)"]
            if let file {
                lines.append(
                    "saved: \(file.path) (\(file.mimeType), \(DisplayFormat.thousands(Int64(file.bytes))) bytes)")
            }
            write(lines.joined(separator: "\n") + "\n")
        }
        return 0
    }

    /// `status`: mode, today's KOBIS quota and the cache.
    package func status(format: CLIFormat) async -> Int32 {
        let quota = await runtime.quota?.status()
        let cache = runtime.store != nil ? configuration.cacheDirectory : nil
        let store = runtime.store?.description
        let health = await runtime.store?.health()
        let value: JSONValue = [
            "name": .string(WorkerIdentity.name), "version": .string(WorkerIdentity.version),
            "mode": .string(configuration.mode.rawValue), "today": .string(today.description),
            "quota": quota.map {
                [
                    "limit": .int($0.limit), "used": .int($0.used), "remaining": .int($0.remaining),
                    "resetsAt": .string($0.resetsAt),
                ]
            } ?? .null,
            "cache": cache.map(JSONValue.string) ?? .null,
            "store": store.map {
                [
                    "kind": .string($0.kind.rawValue), "location": .string($0.location),
                    "connected": .bool(health?.connected ?? false),
                ]
            } ?? .null,
        ]
        guard format == .text else {
            write(JSONSerializer.string(value) + "\n")
            return 0
        }
        var lines = [style.bold("boxoffice-worker \(WorkerIdentity.version)") + " · \(configuration.mode.rawValue)"]
        lines.append("today (Seoul)  \(today)")
        if let quota {
            lines.append(
                "KOBIS quota    \(quota.used) of \(quota.limit) used, \(quota.remaining) left; resets \(quota.resetsAt)"
            )
        } else {
            lines.append("KOBIS quota    none offline (set KOBIS_API_KEY to go live)")
        }
        lines.append("cache          \(cache ?? "none")")
        if let store {
            let state = health?.connected == true ? "connected" : "not connected"
            lines.append("store          \(store.kind.rawValue) \(store.location) (\(state))")
        }
        write(lines.joined(separator: "\n") + "\n")
        return 0
    }
}

extension String {
    /// Right-aligned in `width` columns.
    func leftPadded(to width: Int) -> String {
        DisplayWidth.fit(self, to: width, alignment: .right)
    }
}
