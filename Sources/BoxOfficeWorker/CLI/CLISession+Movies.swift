import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import JSONCore
import JSONRPC

extension CLISession {
    /// `movie CODE`: the detail screen through `movie.detail`, with the poster through `movie.poster` (its URL, or
    /// with `download` the file); a poster that cannot be had is said on the screen, not failed.
    package func movie(code: String, download: Bool, format: CLIFormat, out: String? = nil) async -> Int32 {
        let display = CLIDisplay(format: format, excel: false, out: out)
        if let refused = refuseOut(display) { return refused }
        let kept: BodyBacked<Movie>
        do {
            kept = try await call(methods.detail, .init(movieCode: code)).movie
        } catch {
            return fail(error)
        }
        let movie = kept.value
        var poster: MoviePosterMethod.Output?
        var problem: String?
        if format == .text || format.isPost || download {
            do {
                poster = try await call(methods.poster, .init(title: movie.title, download: download))
            } catch let error as RPCError {
                problem = Self.describe(error)
            } catch {
                return fail(error)
            }
        }
        switch format {
        case .text:
            writeScreen(
                MovieScreen(width: width, style: style).render(
                    movie, poster: poster?.poster, file: poster?.file, posterProblem: problem))
        case .json, .ndjson:
            write(String(decoding: methods.detail.result(.init(movie: kept)).json, as: UTF8.self) + "\n")
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
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            return await post(AnswerView(movie, poster: poster?.poster), layout: .list, display: display)
        }
        return 0
    }

    /// `search TITLE`: code, title, year, opening date and directors of each movie `movie.search` found.
    package func search(
        words: [String], director: String?, year: Int?, format: CLIFormat, out: String? = nil
    ) async -> Int32 {
        let display = CLIDisplay(format: format, excel: false, out: out)
        if let refused = refuseOut(display) { return refused }
        let title = words.isEmpty ? nil : words.joined(separator: " ")
        let found: MovieSearch
        do {
            found = try await call(methods.search, .init(title: title, director: director, year: year)).search
        } catch {
            return fail(error)
        }
        let columns = ["movieCode", "title", "productionYear", "openDate"]
        func row(_ movie: MovieSearch.Found) -> [String] {
            [
                movie.movieCode, movie.title, movie.productionYear.map(String.init) ?? "",
                movie.openDate?.description ?? "",
            ]
        }
        switch format {
        case .json:
            write(String(decoding: methods.search.result(.init(search: found)).json, as: UTF8.self) + "\n")
        case .ndjson:
            let movies = ModelEncoding.search(found)["movies"]?.arrayValue ?? []
            write(movies.map { JSONSerializer.string($0) + "\n" }.joined())
        case .csv:
            write(CSVText.row(columns) + found.movies.map { CSVText.row(row($0)) }.joined())
        case .text:
            var lines = [style.bold("\(found.total) movies") + style.dim(" · page \(found.page)")]
            // Code, title, year and directors with two spaces between: the title takes what the others leave.
            let titleWidth = max(10, width - 10 - 2 - 2 - 4 - 2 - 16)
            for movie in found.movies {
                let year = movie.productionYear.map(String.init) ?? "    "
                lines.append(
                    "\(DisplayWidth.fit(movie.movieCode, to: 10))  \(DisplayWidth.fit(movie.title, to: titleWidth))  "
                        + "\(year)  " + DisplayWidth.truncate(movie.directors.joined(separator: ", "), to: 16))
            }
            writeScreen(lines.joined(separator: "\n") + "\n")
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            let query = MovieSearchMethod.Input(title: title, director: director).query
            return await post(
                MovieSearchMethod.Answer(search: found, query: query).view, layout: .list, display: display)
        }
        return 0
    }

    /// `poster TITLE|CODE|--code CODE`: the poster's URL and size through `movie.poster`, or, with `download`, the
    /// file it was saved to. An argument that has the form of a KOBIS movie code (``MovieCodeForm``) is taken as
    /// one: no title people search for has that form, and a code searched as a title finds nothing.
    package func poster(
        words: [String], code: String?, download: Bool, format: CLIFormat, out: String? = nil
    ) async -> Int32 {
        if let refused = refusePost(CLIDisplay(format: format, excel: false, out: out), in: "poster") {
            return refused
        }
        let text = words.isEmpty ? nil : words.joined(separator: " ")
        let argumentIsCode = text.map(MovieCodeForm.matches) ?? false
        let input = MoviePosterMethod.Input(
            title: argumentIsCode ? nil : text,
            movieCode: argumentIsCode ? text?.uppercased() : code, download: download)
        if argumentIsCode, code != nil {
            return fail(
                CLIRefusal("give the movie CODE as the argument or as --code CODE, one of them"))
        }
        let output: MoviePosterMethod.Output
        do {
            output = try await call(methods.poster, input)
        } catch {
            return fail(error)
        }
        switch format {
        case .json, .ndjson, .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            write(String(decoding: methods.poster.result(output).json, as: UTF8.self) + "\n")
        case .csv:
            // One row, as `movie` writes one (it once printed its JSON under csv).
            let image = output.poster.image
            write(
                CSVText.row([
                    "query", "found", "url", "width", "height", "site", "documentUrl", "file", "mimeType", "bytes",
                ])
                    + CSVText.row([
                        output.poster.query, image == nil ? "false" : "true", image?.url ?? "",
                        image.map { String($0.width) } ?? "", image.map { String($0.height) } ?? "",
                        image?.site ?? "", image?.documentUrl ?? "", output.file?.path ?? "",
                        output.file?.mimeType ?? "", output.file.map { String($0.bytes) } ?? "",
                    ]))
        case .text:
            guard let image = output.poster.image else {
                writeScreen("no poster found for \"\(TerminalText.clean(output.poster.query, for: .cell))\"\n")
                return 0
            }
            var lines = [
                style.bold(TerminalText.clean(output.poster.query, for: .cell)),
                "\(TerminalText.clean(image.url, for: .cell))  \(image.width)×\(image.height)",
            ]
            if let file = output.file {
                lines.append(
                    "saved: \(file.path) (\(file.mimeType), \(DisplayFormat.thousands(Int64(file.bytes))) bytes)")
            }
            writeScreen(lines.joined(separator: "\n") + "\n")
        }
        return 0
    }
}
