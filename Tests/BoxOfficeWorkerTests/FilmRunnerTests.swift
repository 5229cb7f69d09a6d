import BoxOfficeCore
import BoxOfficeMethods
import JSONCore
import JSONRPC
import TestSupport
import Testing

/// How `movie.run` and `movie.compare` name films.
@Suite("Films named by code or title")
struct FilmRunnerTests {
    @Test("eight digits, or four digits, a letter and three digits, are a code (upper-cased); anything else a title")
    func codeOrTitle() {
        #expect(FilmRunner.Film("20234675") == .code("20234675"))
        #expect(FilmRunner.Film("2023C625") == .code("2023C625"))
        #expect(FilmRunner.Film("1917") == .title("1917"))
        #expect(FilmRunner.Film("범죄도시4") == .title("범죄도시4"))
        #expect(FilmRunner.Film("2023CC25") == .title("2023CC25"))
        #expect(FilmRunner.Film("2023c625") == .code("2023C625"))
        #expect(FilmRunner.Film("202C3625") == .title("202C3625"))
    }

    @Test("a title several films match is -32602 at its place, listing each with its code and opening date")
    func ambiguous() {
        let found = [
            MovieSearch.Found(movieCode: "20113557", title: "범죄와의 전쟁", openDate: CalendarDate("2012-02-02")),
            MovieSearch.Found(movieCode: "19910128", title: "범죄와의 전쟁", openDate: CalendarDate("1991-01-12")),
        ]
        let error = FilmRunner.unresolved("범죄와의 전쟁", found, at: JSONPointer(tokens: ["movies", "1"]))
        #expect(error.code == .invalidParams)
        #expect(error.message.contains("matches 2 films") && error.message.contains("19910128 범죄와의 전쟁 (1991-01-12)"))
        #expect(error.data?[at: "/errors/0/instanceLocation"] == "/movies/1")
        #expect(error.data?[at: "/candidates/1/movieCode"] == "19910128")
        let none = FilmRunner.unresolved("없는 영화", [], at: JSONPointer(tokens: ["title"]))
        #expect(none.message.contains("no KOBIS film is titled \"없는 영화\"") && none.data?["candidates"] == nil)
    }
}
