import BoxOfficeCore
import BoxOfficeMethods
import BoxOfficeViews
import JSONCore
import JSONRPC

/// `people`, `company` and `codes`: the screens for people, companies and code lists, through their methods.
///
/// Every listing has the same four forms: `text` (a screen), `json` (the method's result as it is), `ndjson` (one
/// item of the result's list a line: people, companies, films, codes) and `csv` (a header, then a row per item).
extension CLISession {
    /// `people NAME` (a search, with `--film` for a title in the filmography) or `people CODE` (the person's
    /// screen; `--movies` adds each film's details). An argument of ASCII digits only is a people code.
    package func people(words: [String], film: String?, movies: Bool, display: CLIDisplay) async -> Int32 {
        if let refused = refusePost(display, in: "people") { return refused }
        let text = words.isEmpty ? nil : words.joined(separator: " ")
        if let text, Self.isCode(text) {
            guard film == nil else {
                return fail(
                    CLIRefusal("--film searches by name: give a name, not the people code \(text)"))
            }
            return await person(code: text, movies: movies, display: display)
        }
        if movies {
            return fail(CLIRefusal("--movies needs a people code (`people NAME` lists the codes)"))
        }
        let found: PeopleSearch
        do {
            found = try await call(methods.peopleSearch, .init(name: text, filmography: film))
        } catch {
            return fail(error)
        }
        let encoded = methods.peopleSearch.result(found)
        let titleWidth = max(10, width - 8 - 2 - 12 - 2 - 10 - 2)
        emit(
            display, encoded, list: "people",
            columns: ["peopleCode", "name", "nameEnglish", "role", "filmography"],
            rows: found.people.map {
                [$0.peopleCode, $0.name, $0.nameEnglish ?? "", $0.role ?? "", $0.filmography.joined(separator: "; ")]
            },
            screen: {
                [
                    style.bold(found.total == 1 ? "1 person" : "\(found.total) people")
                        + style.dim(" · page \(found.page)")
                ]
                    + found.people.map { person in
                        "\(DisplayWidth.fit(person.peopleCode, to: 8))  \(DisplayWidth.fit(person.name, to: 12))  "
                            + "\(DisplayWidth.fit(person.role ?? "", to: 10))  "
                            + DisplayWidth.truncate(person.filmography.joined(separator: ", "), to: titleWidth)
                    }
            })
        return 0
    }

    private func person(code: String, movies: Bool, display: CLIDisplay) async -> Int32 {
        let output: PeopleDetailMethod.Output
        do {
            output = try await call(methods.person, .init(peopleCode: code, includeMovies: movies))
        } catch {
            return fail(error)
        }
        let person = output.person.value
        emit(
            display, methods.person.result(output), list: "filmography",
            columns: ["peopleCode", "name", "movieCode", "title", "part"],
            rows: person.filmography.map { [person.peopleCode, person.name, $0.movieCode, $0.title, $0.part ?? ""] },
            screen: { [PersonScreen(width: width, style: style).render(person, movies: output.movies?.results ?? [:])] }
        )
        return 0
    }

    /// `company NAME` (a search, with `--ceo` and `--part`) or `company CODE` (the company's screen). An argument
    /// of ASCII digits only is a company code.
    package func company(words: [String], ceo: String?, part: String?, display: CLIDisplay) async -> Int32 {
        if let refused = refusePost(display, in: "company") { return refused }
        let text = words.isEmpty ? nil : words.joined(separator: " ")
        if let text, Self.isCode(text) {
            guard ceo == nil, part == nil else {
                return fail(
                    CLIRefusal(
                        "--ceo and --part search by name: give a name, not the company code \(text)"))
            }
            return await company(code: text, display: display)
        }
        let found: CompanySearch
        do {
            found = try await call(methods.companySearch, .init(name: text, ceo: ceo, part: part))
        } catch {
            return fail(error)
        }
        let nameWidth = max(10, width - 8 - 2 - 16 - 2)
        emit(
            display, methods.companySearch.result(found), list: "companies",
            columns: ["companyCode", "name", "nameEnglish", "ceo", "parts", "filmography"],
            rows: found.companies.map {
                [
                    $0.companyCode, $0.name, $0.nameEnglish ?? "", $0.ceo ?? "", $0.parts.joined(separator: "; "),
                    $0.filmography.joined(separator: "; "),
                ]
            },
            screen: {
                [
                    style.bold(found.total == 1 ? "1 company" : "\(found.total) companies")
                        + style.dim(" · page \(found.page)")
                ]
                    + found.companies.map { company in
                        "\(DisplayWidth.fit(company.companyCode, to: 8))  "
                            + "\(DisplayWidth.fit(company.parts.joined(separator: ","), to: 16))  "
                            + DisplayWidth.truncate(company.name, to: nameWidth)
                    }
            })
        return 0
    }

    private func company(code: String, display: CLIDisplay) async -> Int32 {
        let kept: BodyBacked<Company>
        do {
            kept = try await call(methods.company, .init(companyCode: code))
        } catch {
            return fail(error)
        }
        let company = kept.value
        emit(
            display, methods.company.result(kept), list: "filmography",
            columns: ["companyCode", "name", "movieCode", "title", "parts"],
            rows: company.filmography.map {
                [company.companyCode, company.name, $0.movieCode, $0.title, $0.parts.joined(separator: "; ")]
            },
            screen: { [CompanyScreen(width: width, style: style).render(company)] })
        return 0
    }

    /// `codes KIND`: a code list, code and names a line. An unknown kind is the method's to refuse.
    package func codes(kind: String, display: CLIDisplay) async -> Int32 {
        if let refused = refusePost(display, in: "codes") { return refused }
        let kept: BodyBacked<CodeList>
        do {
            kept = try await call(methods.codes, .init(kind: kind))
        } catch {
            return fail(error)
        }
        let list = kept.value
        emit(
            display, methods.codes.result(kept), list: "codes", columns: ["code", "name", "nameEnglish"],
            rows: list.codes.map { [$0.code, $0.name, $0.nameEnglish ?? ""] },
            screen: {
                [
                    style.bold("\(list.kind.rawValue) codes")
                        + style.dim(" · KOBIS comCode \(list.kind.comCode) · \(list.codes.count)")
                ]
                    + list.codes.map { code in
                        "\(DisplayWidth.fit(code.code, to: 10))  \(DisplayWidth.fit(code.name, to: 16))  "
                            + TerminalText.clean(code.nameEnglish ?? "", for: .cell)
                    }
            })
        return 0
    }

    /// KOBIS people and company codes are digits (names never are).
    static func isCode(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Writes a result in the display's format: `json` the result, `ndjson` the items of its `list` member, `csv`
    /// the columns and rows, `text` the screen's lines.
    private func emit(
        _ display: CLIDisplay, _ result: RPCResult, list: String, columns: [String], rows: [[String]],
        screen: () -> [String]
    ) {
        switch display.format {
        case .json:
            write(String(decoding: result.json, as: UTF8.self) + "\n")
        case .ndjson:
            let items = (try? JSONParser.parse(result.json))?[list]?.arrayValue ?? []
            write(items.map { JSONSerializer.string($0) + "\n" }.joined())
        case .csv:
            write((display.excel ? CSVText.excelBOM : "") + CSVText.row(columns) + rows.map(CSVText.row).joined())
        case .text:
            writeScreen(screen().map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }.joined(separator: "\n") + "\n")
        case .markdown, .slack, .discord, .telegram, .telegramHTML, .html, .png:
            break  // refused before the call
        }
    }
}
