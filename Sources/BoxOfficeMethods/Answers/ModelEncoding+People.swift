package import BoxOfficeCore
package import JSONCore
import JSONRPC

/// People, companies and code lists as the result shapes of their schemas.
extension ModelEncoding {
    package static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    package static func peopleSearch(_ search: PeopleSearch) -> JSONValue {
        [
            "total": .int(search.total), "page": .int(search.page),
            "people": .array(
                search.people.map { person in
                    [
                        "peopleCode": .string(person.peopleCode), "name": .string(person.name),
                        "nameEnglish": .optionalString(person.nameEnglish), "role": .optionalString(person.role),
                        "filmography": strings(person.filmography),
                    ]
                }),
            "source": source(search.source),
        ]
    }

    /// A person; with `include: ["movies"]` (`movies` not nil), each film fetched carries its `movie` (`null` when
    /// it failed) and, when it failed, the `errors` a box office entry's failed part has; `moviesOmitted` says how
    /// many films were past the most fetched.
    package static func person(_ person: Person, movies: FilmographyMovies? = nil) -> JSONValue {
        var result: JSONObject = [
            "peopleCode": .string(person.peopleCode), "name": .string(person.name),
            "nameEnglish": .optionalString(person.nameEnglish), "sex": .optionalString(person.sex?.rawValue),
            "role": .optionalString(person.role), "homepages": strings(person.homepages),
            "filmography": .array(
                person.filmography.map { film in
                    var object: JSONObject = [
                        "movieCode": .string(film.movieCode), "title": .string(film.title),
                        "part": .optionalString(film.part),
                    ]
                    if let outcome = movies?.outcomes[film.movieCode] {
                        object["movie"] = outcome.movie.map(movie) ?? .null
                        if let error = outcome.error {
                            var failure = error.rpcError.json.objectValue ?? [:]
                            failure["part"] = "movie"
                            object["errors"] = [.object(failure)]
                        }
                    }
                    return .object(object)
                }),
            "source": source(person.source),
        ]
        if let movies, movies.omitted > 0 { result["moviesOmitted"] = .int(movies.omitted) }
        return .object(result)
    }

    package static func companySearch(_ search: CompanySearch) -> JSONValue {
        [
            "total": .int(search.total), "page": .int(search.page),
            "companies": .array(
                search.companies.map { company in
                    [
                        "companyCode": .string(company.companyCode), "name": .string(company.name),
                        "nameEnglish": .optionalString(company.nameEnglish), "ceo": .optionalString(company.ceo),
                        "parts": strings(company.parts), "filmography": strings(company.filmography),
                    ]
                }),
            "source": source(search.source),
        ]
    }

    package static func company(_ company: Company) -> JSONValue {
        [
            "companyCode": .string(company.companyCode), "name": .string(company.name),
            "nameEnglish": .optionalString(company.nameEnglish), "ceo": .optionalString(company.ceo),
            "parts": strings(company.parts),
            "filmography": .array(
                company.filmography.map {
                    ["movieCode": .string($0.movieCode), "title": .string($0.title), "parts": strings($0.parts)]
                }),
            "source": source(company.source),
        ]
    }

    package static func codes(_ list: CodeList) -> JSONValue {
        [
            "kind": .string(list.kind.rawValue), "comCode": .string(list.kind.comCode),
            "codes": .array(
                list.codes.map {
                    [
                        "code": .string($0.code), "name": .string($0.name),
                        "nameEnglish": .optionalString($0.nameEnglish),
                    ]
                }),
            "source": source(list.source),
        ]
    }
}
