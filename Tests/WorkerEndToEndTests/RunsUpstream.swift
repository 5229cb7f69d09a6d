import Foundation
import JSONCore
import ProcessTestSupport
import TestSupport

/// A fake KOBIS serving the real daily lists of 2023-01-01..2024-06-30 (`../shared/data/kobis/runs/`) by `targetDt`,
/// `repNationCd` and `multiMovieYn`, and a detail for every film in them, for the runs' tests.
///
/// What it makes up, for the test only: the 2023 files carry 9 of a list's 18 fields, so the others are filled
/// (`rnum` the rank, changes and shares 0, `salesAcc` 0: no test reads 2023's sales); a list it has no file for (the
/// narrower lists of 2023, any day outside the window) is served empty; a film's detail is written from its rows
/// (code, title, opening date) with the nation 한국 when 2024's K list has it and 미국 otherwise.
final class RunsUpstream: Sendable {
    static let kobisKey = "test-kobis-key-runs-5e6f7a"

    /// One film's row of one day's overall list.
    struct Row: Sendable {
        let date: String
        let movieCode: String
        let title: String
        let openDate: String
        let rank: Int64
        let audience: Int64
        let audienceTotal: Int64
    }

    /// The lists' bodies by `targetDt` and list (`""` overall, `K`, `F`, `Y`, `N`).
    private let bodies: [String: String]
    /// Every overall row, by film.
    let rows: [String: [Row]]
    private let details: [String: String]
    let server: FakeUpstream

    init() throws {
        var bodies: [String: String] = [:]
        var rows: [String: [Row]] = [:]
        var korean: Set<String> = []
        func read(_ file: URL, list: String) {
            let name = file.deletingPathExtension().lastPathComponent
            guard name.hasPrefix("daily-"), let data = try? Data(contentsOf: file),
                let body = try? JSONParser.parse([UInt8](data)),
                case .object(var result)? = body["boxOfficeResult"],
                let entries = result["dailyBoxOfficeList"]?.arrayValue
            else { return }
            let day = String(name.dropFirst("daily-".count))
            result["dailyBoxOfficeList"] = .array(
                entries.map { entry in
                    guard case .object(var object) = entry else { return entry }
                    for key in [
                        "rankInten", "salesShare", "salesInten", "salesChange", "salesAcc", "audiInten", "audiChange",
                    ]
                    where object[key] == nil {
                        object[key] = "0"
                    }
                    if object["rnum"] == nil { object["rnum"] = object["rank"] }
                    if object["rankOldAndNew"] == nil { object["rankOldAndNew"] = "OLD" }
                    if list == "K", let code = object["movieCd"]?.stringValue { korean.insert(code) }
                    if list.isEmpty, let code = object["movieCd"]?.stringValue {
                        func number(_ key: String) -> Int64 { object[key]?.stringValue.flatMap { Int64($0) } ?? -1 }
                        rows[code, default: []].append(
                            Row(
                                date: day, movieCode: code, title: object["movieNm"]?.stringValue ?? "",
                                openDate: object["openDt"]?.stringValue ?? "", rank: number("rank"),
                                audience: number("audiCnt"), audienceTotal: number("audiAcc")))
                    }
                    return .object(object)
                })
            bodies[day + list] = String(
                decoding: JSONSerializer.serialize(["boxOfficeResult": .object(result)]), as: UTF8.self)
        }
        for file in SharedData.files(in: "data/kobis/runs") { read(file, list: "") }
        for (folder, list) in [
            ("repNationCd-K", "K"), ("repNationCd-F", "F"), ("multiMovieYn-Y", "Y"), ("multiMovieYn-N", "N"),
        ] {
            for file in SharedData.files(in: "data/kobis/runs/filtered/\(folder)") { read(file, list: list) }
        }
        var details: [String: String] = [:]
        for (code, films) in rows {
            let first = films[0]
            let info: JSONValue = [
                "movieInfoResult": [
                    "movieInfo": [
                        "movieCd": .string(code), "movieNm": .string(first.title), "movieNmEn": "", "movieNmOg": "",
                        "showTm": "", "prdtYear": "",
                        "openDt": .string(first.openDate.replacingOccurrences(of: "-", with: "")),
                        "prdtStatNm": "개봉", "typeNm": "장편",
                        "nations": [["nationNm": korean.contains(code) ? "한국" : "미국"]], "genres": [], "directors": [],
                        "actors": [], "showTypes": [], "companys": [], "audits": [], "staffs": [],
                    ],
                    "source": "영화진흥위원회",
                ]
            ]
            details[code] = String(decoding: JSONSerializer.serialize(info), as: UTF8.self)
        }
        (self.bodies, self.rows, self.details) = (bodies, rows.mapValues { $0.sorted { $0.date < $1.date } }, details)
        let box = Box()
        server = try FakeUpstream { request in box.upstream?.reply(request) ?? .reset }
        box.upstream = self
    }

    private final class Box: @unchecked Sendable {
        // @unchecked: set once, before the server takes a request.
        weak var upstream: RunsUpstream?
    }

    var environment: [String: String] {
        ["KOBIS_API_KEY": Self.kobisKey, "KOBIS_BASE_URL": server.baseURL + "/kobis"]
    }

    func environment(cache: String) -> [String: String] {
        environment.merging(["BOXOFFICE_CACHE_DIR": cache]) { $1 }
    }

    /// The daily list requests received.
    var listRequests: Int {
        server.requests.filter { $0.path.hasSuffix("searchDailyBoxOfficeList.json") }.count
    }

    private func reply(_ request: FakeUpstream.Request) -> FakeUpstream.Reply {
        guard request.query["key"] == Self.kobisKey else { return .json(#"{"faultInfo":{"message":"bad key"}}"#) }
        if request.path.hasSuffix("searchDailyBoxOfficeList.json"), let day = request.query["targetDt"] {
            let list = request.query["repNationCd"] ?? request.query["multiMovieYn"] ?? ""
            if let body = bodies[day + list] { return .json(body) }
            return .json(
                #"{"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"\#(day)~\#(day)","dailyBoxOfficeList":[]}}"#
            )
        }
        if request.path.hasSuffix("searchMovieInfo.json"), let code = request.query["movieCd"],
            let body = details[code]
        {
            return .json(body)
        }
        return .json(#"{"faultInfo":{"message":"not served"}}"#, status: 404)
    }
}
