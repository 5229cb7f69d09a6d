#!/usr/bin/env python3
"""Writes Fixtures/upstream/ and Fixtures/index.json: the offline mode's recorded-style upstream responses.

The facts (dates, titles, figures, credits) are real: they are taken from the recorded KOBIS and Kakao bodies in
../shared/data/kobis, and written anew by this script in the upstream formats, compact and reduced (casts and staff
lists cut to their first 8 entries, one image per poster search). Run it again only to change what offline mode
covers; its output is committed and embedded into the binary.

It writes, under Fixtures/upstream/, with an entry for each call in Fixtures/index.json:
- kobis/daily-*.json, weekly-*.json: the recorded box offices (and the whole week written from a Sunday, see WEEK);
- kobis/movie-<movieCd>.json: the details of every movie in them (see KNOWN for those with no recorded detail);
- kobis/search-1.json: the one recorded movie search;
- kobis/people-search-default.json, people-20164556.json, company-search-default.json, company-20122497.json and
  codes-0105000000.json: the recorded people and company lists and details and the region code list, written anew;
- kobis/people-<code>.json and people-search-<code>.json: a detail and a search by name for each director of the
  PEOPLE_DAY box office, under SYNTHETIC people codes (see DIRECTOR_CODES);
- kobis/company-<companyCd>.json and company-search-<companyCd>.json: a detail and a search by name for each
  distributor (배급사) of the PEOPLE_DAY box office, written from the recorded movie details (see below);
- kobis/codes-<comCode>.json: the other code lists (see CODE_LISTS): names observed in KOBIS bodies, codes not KOBIS's;
- kakao/poster-*.json: the recorded poster search, and a zero-hit search served for every other title;
- runs/: the whole runs of the films in RUNS (movie.run and movie.compare offline), from the real 2024 daily lists in
  runs/ (see RUNS), with their own index, runs/index.json, which the worker reads only when a call misses the main one.
Every file that is not a recording written anew is listed in Fixtures/PROVENANCE.md, saying what in it is real.

    python3 scripts/make-fixtures.py [path/to/shared/data/kobis]
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data", "kobis")
OUT = os.path.join(ROOT, "Fixtures")
RECORDED_AT = "2026-11-20T00:00:00Z"

DAILY = ["20220105", "20230423", "20230426"]
WEEKEND = ("weekend-20111230-20120101.json", "20120101", "1")
SEARCH = ("movielist-query-beomjoewaui-jeonjaeng.json", {"movieNm": "범죄와의 전쟁", "curPage": "1", "itemPerPage": "10"})
POSTERS = [("kakao-image-gwanghae-10docs.json", "광해, 왕이 된 남자")]
EXTRA_MOVIES = ["20124079"]  # 광해: its poster search is recorded, so movie.poster by movieCode works offline
CUT = 8

# Films whose whole run is recorded, from the real 2024 daily lists of ../shared/data/kobis/runs (every field):
# code, English title and directors (public knowledge; KOBIS's detail bodies for them were not recorded). Each run's
# days are those movie.run looks at: from PREVIEW_DAYS before the opening (범죄도시4's previews began 9 days before)
# to END_AFTER days after its last day in the overall or its nation's list, or RUNS_THROUGH; the overall list of
# each day, and its nation's list on a day the film is not in the overall one. The worker's FilmRunner.previewDays
# and RunScan.endAfter must agree with these.
RUNS = [("20234675", "Exhuma", [("장재현", "Jang Jae-hyun")]),
        ("20228797", "The Roundup: Punishment", [("허명행", "Heo Myeong-haeng")])]
PREVIEW_DAYS = 14
END_AFTER = 7
RUNS_THROUGH = "20240630"

# The recorded people and company bodies, and the region code list, with the parameters the worker sends for them.
PEOPLE_RECORDED = [("peoplelist-default.json", {"curPage": "1", "itemPerPage": "10"}, "people-search-default")]
PEOPLE_INFO_RECORDED = ["peopleinfo-20164556.json"]
COMPANY_RECORDED = [("companylist-default.json", {"curPage": "1", "itemPerPage": "10"}, "company-search-default")]
COMPANY_INFO_RECORDED = ["companyinfo-20122497.json"]  # kept whole (412 filmography rows): it is real
REGIONS = ("codelist-0105000000-regions.json", "0105000000")

# The directors and the distributors of this day's top 10 get people and company fixtures. KOBIS gives directors in
# movie details no people code, so each director gets a SYNTHETIC one: 8 digits from DIRECTOR_CODES on, in the order
# the box office first names them. Real KOBIS people codes begin with 1 or 2, so these never collide with one. Their
# names are real (from the movie details); their filmography is the films in these fixtures they directed; their sex
# and homepages are unknown. The distributors (companyPartNm 배급사) have real company codes in the movie details;
# their details are written from every fixture movie they appear in (one filmography row per part, as KOBIS lists
# them), with the CEO unknown. Each search by name lists only the one person or company (totCnt 1).
PEOPLE_DAY = "20230426"
DIRECTOR_CODES = 90000001
DISTRIBUTOR = "배급사"

# The other code lists (code/searchCodeList.json), by comCode. nation 2204 and type 2201 are documented by KOBIS;
# companyPart 2601 is documented but unverified; status 2202, genre 2203 and grade 2205 are documented nowhere we
# found (they follow the numbering). The Korean names are values observed in recorded KOBIS bodies (genres and nations:
# every one in the recorded movie details) or listed in the design notes; the English names are ours; the codes are
# NOT KOBIS's (unknown here): the comCode followed by a sequence (2 digits, 4 for nations), in the order listed.
CODE_LISTS = [
    ("nation", "2204", "documented by KOBIS", [
        ("한국", "South Korea"), ("미국", "United States"), ("일본", "Japan"), ("중국", "China"), ("스페인", "Spain"),
        ("이탈리아", "Italy"), ("네덜란드", "Netherlands"), ("기타", "Other")]),
    ("type", "2201", "documented by KOBIS", [
        ("장편", "Feature"), ("단편", "Short"), ("옴니버스", "Omnibus"), ("온라인전용", "Online only"), ("기타", "Other")]),
    ("status", "2202", "documented nowhere we found: a guess that follows the numbering", [
        ("개봉", "Released"), ("개봉예정", "Release scheduled"), ("개봉준비", "Release in preparation"),
        ("후반작업", "Post-production"), ("촬영진행", "Filming"), ("기획단계", "In development"), ("기타", "Other")]),
    ("genre", "2203", "documented nowhere we found: a guess that follows the numbering", [
        ("드라마", "Drama"), ("사극", "Period drama"), ("범죄", "Crime"), ("액션", "Action"), ("스릴러", "Thriller"),
        ("코미디", "Comedy"), ("어드벤처", "Adventure"), ("SF", "Science fiction"), ("공포(호러)", "Horror"),
        ("애니메이션", "Animation"), ("멜로/로맨스", "Romance"), ("미스터리", "Mystery"), ("판타지", "Fantasy"),
        ("공연", "Performance"), ("전쟁", "War")]),
    ("grade", "2205", "documented nowhere we found: a guess that follows the numbering", [
        ("전체관람가", "All ages"), ("12세이상관람가", "12 and over"), ("15세이상관람가", "15 and over"),
        ("청소년관람불가", "Adults only"), ("제한상영가", "Restricted screening")]),
    ("companyPart", "2601", "in KOBIS's documentation but unverified", [
        ("제작사", "Production company"), ("배급사", "Distributor"), ("수입사", "Importer"), ("제공", "Presenter"),
        ("공동제공", "Co-presenter"), ("해외세일즈사", "International sales"), ("제작대행", "Production agency"),
        ("프로덕션 서비스", "Production services"), ("가치봄 제작처", "Barrier-free version producer")]),
]

# The whole week ending Sunday 2023-04-23 (weekGb=0). No whole-week body was ever recorded, so this one is written from
# the real daily box office of that Sunday: titles, codes, opening dates, cumulative figures (audiAcc and salesAcc
# through Sunday mean the same in both bodies) and screens are real; for films that opened within the week (or only had
# previews in it) the week's audience is their cumulative audience, which is exact but for earlier previews. For the
# other films the week's audience and sales are ESTIMATES (Sunday x WEEK_FACTOR, capped at the cumulative figure),
# and the changes against the week before are unknown and written as 0. Its index entry says so.
WEEK = ("daily-20230423.json", "20230417", "20230423", "202316")
WEEK_FACTOR = 5.2

# Movies in the box offices above with no recorded detail. Their detail bodies are written from the box office body
# (code, title, opening date) and from public knowledge that is not in doubt (English title, production year,
# nations, directors); every other field is left empty, as KOBIS leaves unknown fields.
KNOWN = {
    "20100312": ("Inception", "2010", ["미국", "영국"], [("크리스토퍼 놀란", "Christopher Nolan")]),
    "19688005": ("2001: A Space Odyssey", "1968", ["영국", "미국"], [("스탠리 큐브릭", "Stanley Kubrick")]),
    "20112207": ("Mission: Impossible - Ghost Protocol", "2011", ["미국"], [("브래드 버드", "Brad Bird")]),
    "20110295": ("My Way", "2011", ["한국"], [("강제규", "Kang Je-gyu")]),
    "20112621": ("Sherlock Holmes: A Game of Shadows", "2011", ["미국"], [("가이 리치", "Guy Ritchie")]),
    "20113260": ("Perfect Game", "2011", ["한국"], [("박희곤", "Park Hee-gon")]),
    "20113271": ("", "2011", ["일본"], [("야마자키 타카시", "Takashi Yamazaki"), ("야기 류이치", "Ryuichi Yagi")]),
    "19940256": ("The Lion King", "1994", ["미국"], [("로저 알러스", "Roger Allers"), ("롭 민코프", "Rob Minkoff")]),
    "20113381": ("Spellbound", "2011", ["한국"], [("황인호", "Hwang In-ho")]),
    "20112709": ("", "2011", ["일본"], [("유야마 쿠니히코", "Kunihiko Yuyama")]),
    "20113311": ("Alvin and the Chipmunks: Chipwrecked", "2011", ["미국"], [("마이크 미첼", "Mike Mitchell")]),
    "20112708": ("", "2011", ["일본"], [("유야마 쿠니히코", "Kunihiko Yuyama")]),
}


def load(name):
    with open(os.path.join(SHARED, name), encoding="utf-8") as handle:
        return json.load(handle)


def write(relative, document, folder="upstream"):
    path = os.path.join(OUT, folder, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False, separators=(",", ":"))
        handle.write("\n")
    return folder + "/" + relative


def movie_file(code):
    for name in sorted(os.listdir(SHARED)):
        if name.startswith("movieinfo-" + code) and "variant" not in name:
            return name
    return None


def weekly_rows(daily_rows, first, last):
    """The whole week's rows, written from its Sunday's daily rows as WEEK describes."""
    rows = []
    for row in daily_rows:
        opened = row["openDt"].replace("-", "")
        audience_total, sales_total = int(row["audiAcc"]), int(row["salesAcc"])
        if opened and (opened >= first):  # opened within the week, or previews only: the week is all of it
            audience, sales, new = audience_total, sales_total, True
        else:
            audience = min(audience_total, round(int(row["audiCnt"]) * WEEK_FACTOR))
            sales = min(sales_total, round(int(row["salesAmt"]) * audience / int(row["audiCnt"])))
            new = False
        rows.append(dict(row, audiCnt=audience, salesAmt=sales, new=new))
    rows.sort(key=lambda row: -row["audiCnt"])
    total_sales = sum(row["salesAmt"] for row in rows) / (sum(float(row["salesShare"]) for row in daily_rows) / 100)
    written = []
    for rank, row in enumerate(rows, 1):
        written.append({
            "rnum": str(rank), "rank": str(rank), "rankInten": "0", "rankOldAndNew": "NEW" if row["new"] else "OLD",
            "movieCd": row["movieCd"], "movieNm": row["movieNm"], "openDt": row["openDt"],
            "salesAmt": str(row["salesAmt"]), "salesShare": "%.1f" % (100 * row["salesAmt"] / total_sales),
            "salesInten": str(row["salesAmt"]) if row["new"] else "0", "salesChange": "100" if row["new"] else "0",
            "salesAcc": row["salesAcc"], "audiCnt": str(row["audiCnt"]),
            "audiInten": str(row["audiCnt"]) if row["new"] else "0", "audiChange": "100" if row["new"] else "0",
            "audiAcc": row["audiAcc"], "scrnCnt": row["scrnCnt"], "showCnt": str(int(row["showCnt"]) * 7)})
    return written


def known_detail(code, title, opened):
    """A detail body for a movie with no recorded detail: see KNOWN."""
    english, year, nations, directors = KNOWN[code]
    return {"movieCd": code, "movieNm": title, "movieNmEn": english, "movieNmOg": "", "showTm": "", "prdtYear": year,
            "openDt": opened.replace("-", ""), "prdtStatNm": "개봉", "typeNm": "장편",
            "nations": [{"nationNm": nation} for nation in nations], "genres": [],
            "directors": [{"peopleNm": name, "peopleNmEn": english_name} for name, english_name in directors],
            "actors": [], "showTypes": [], "companys": [], "audits": [], "staffs": []}


def day_after(day, count):
    import datetime
    date = datetime.date(int(day[:4]), int(day[4:6]), int(day[6:])) + datetime.timedelta(days=count)
    return date.strftime("%Y%m%d")


WEEK_PERIODS = {"0": "week", "1": "weekend", "2": "weekdays"}


def write_summary():
    """Fixtures/summary.json: what the offline notice at start and the offline defaults need (the recorded days and
    periods, how many films, the runs' last day, when it was recorded), summarised from index.json at build time, so a
    start parses 300 bytes instead of the whole index (issue 43); the index is parsed on the first offline call.
    OfflineModeTests checks the summary against the index."""
    with open(os.path.join(OUT, "index.json"), encoding="utf-8") as handle:
        index = json.load(handle)
    # As the worker's OfflineCoverage counts them: every recorded call, in date order (a weekly call without weekGb
    # is not counted as a period).
    daily, weekly, movies = [], [], 0
    for service, path, _, parameters in index["calls"]:
        if path.endswith("searchDailyBoxOfficeList.json"):
            daily.append(parameters["targetDt"])
        elif path.endswith("searchWeeklyBoxOfficeList.json") and parameters.get("weekGb") in WEEK_PERIODS:
            weekly.append((parameters["targetDt"], WEEK_PERIODS[parameters["weekGb"]]))
        elif path.endswith("searchMovieInfo.json") and "movieCd" in parameters:
            movies += 1
    day = lambda compact: "%s-%s-%s" % (compact[:4], compact[4:6], compact[6:])
    summary = {
        "recordedAt": index["recordedAt"],
        "daily": [day(date) for date in sorted(daily)],
        "weekly": [[period, day(date)] for date, period in sorted(weekly, key=lambda pair: pair[0])],
        "movies": movies,
        "runsThrough": index["runs"]["through"],
    }
    with open(os.path.join(OUT, "summary.json"), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(summary, ensure_ascii=False, separators=(",", ":")) + "\n")


def run_fixtures():
    """The runs of RUNS, written under runs/ with their own index (see RUNS); returns (entries, days written)."""
    folder = os.path.join(SHARED, "runs")
    if not os.path.isdir(folder):
        raise SystemExit("no runs folder in %s: the recorded runs are written from it" % SHARED)

    def rows(day, nation=None):
        name = ("filtered/repNationCd-%s/daily-%s.json" % (nation, day)) if nation else ("daily-%s.json" % day)
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)["boxOfficeResult"]

    def written(relative, document):
        return write(relative, document, folder="runs")

    calls, days = [], {}
    for code, english, directors in RUNS:
        listed = {}
        day = "20240101"
        while day <= RUNS_THROUGH:
            for nation in (None, "K"):
                result = rows(day, nation)
                row = result and next((row for row in result["dailyBoxOfficeList"] if row["movieCd"] == code), None)
                if row:
                    listed.setdefault(day, row)
            day = day_after(day, 1)
        first = min(listed)
        title, opened = listed[first]["movieNm"], listed[first]["openDt"].replace("-", "")
        start = day_after(opened, -PREVIEW_DAYS)
        end = min(day_after(max(listed), END_AFTER), RUNS_THROUGH)
        day = start
        while day <= end:
            overall = rows(day)
            if overall is None:
                raise SystemExit("no daily list for %s in %s" % (day, folder))
            days[(day, None)] = overall
            if not any(row["movieCd"] == code for row in overall["dailyBoxOfficeList"]):
                korean = rows(day, "K")
                if korean is None:
                    raise SystemExit("no K list for %s in %s" % (day, folder))
                days[(day, "K")] = korean
            day = day_after(day, 1)
        info = {"movieCd": code, "movieNm": title, "movieNmEn": english, "movieNmOg": "", "showTm": "", "prdtYear": "",
                "openDt": opened, "prdtStatNm": "개봉", "typeNm": "장편", "nations": [{"nationNm": "한국"}],
                "genres": [], "directors": [{"peopleNm": name, "peopleNmEn": latin} for name, latin in directors],
                "actors": [], "showTypes": [], "companys": [], "audits": [], "staffs": []}
        calls.append(["kobis", "/movie/searchMovieInfo.json", written("kobis/movie-%s.json" % code, {
            "movieInfoResult": {"movieInfo": info, "source": "영화진흥위원회"}}), {"movieCd": code}])
        found = {"movieCd": code, "movieNm": title, "movieNmEn": english, "prdtYear": "", "openDt": opened,
                 "typeNm": "장편", "prdtStatNm": "개봉", "nationAlt": "한국", "genreAlt": "", "repNationNm": "한국",
                 "repGenreNm": "", "directors": [{"peopleNm": name} for name, _ in directors], "companys": []}
        calls.append(["kobis", "/movie/searchMovieList.json", written("kobis/search-%s.json" % code, {
            "movieListResult": {"totCnt": 1, "source": "영화진흥위원회", "movieList": [found]}}),
            {"movieNm": title, "curPage": "1", "itemPerPage": "10"}])
        calls.append(["kakao", "/v2/search/image", written("kakao/poster-none.json", {
            "documents": [], "meta": {"is_end": True, "pageable_count": 0, "total_count": 0}}),
            {"query": title + " 영화 포스터", "size": "1", "sort": "accuracy"}])
    for (day, nation), result in sorted(days.items(), key=lambda item: (item[0][0], item[0][1] or "")):
        parameters = {"targetDt": day, "itemPerPage": "10"}
        if nation:
            parameters["repNationCd"] = nation
        name = "kobis/daily-%s%s.json" % (nation + "-" if nation else "", day)
        calls.append(["kobis", "/boxoffice/searchDailyBoxOfficeList.json", written(name, {"boxOfficeResult": {
            "boxofficeType": result["boxofficeType"], "showRange": result["showRange"],
            "dailyBoxOfficeList": result["dailyBoxOfficeList"]}}), parameters])
    with open(os.path.join(OUT, "runs", "index.json"), "w", encoding="utf-8") as handle:
        handle.write('{"recordedAt":%s,"calls":[\n' % json.dumps(RECORDED_AT))
        handle.write(",\n".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in calls))
        handle.write("\n]}\n")
    return len(calls), len(days)


def film(info):
    """How a movie detail names a film in a filmography: its code and title."""
    return {"movieCd": info["movieCd"], "movieNm": info["movieNm"]}


def titles_of(codes, details):
    return ", ".join("%s (%s)" % (details[code][0]["movieNm"].strip(), code) for code in codes)


def people_fixtures(add, day_movies, details):
    """The recorded people bodies, and a detail and a search by name for each director of PEOPLE_DAY's top 10."""
    for name, parameters, file in PEOPLE_RECORDED:
        add("kobis", "/people/searchPeopleList.json", parameters,
            write("kobis/%s.json" % file, {"peopleListResult": load(name)["peopleListResult"]}))
    for name in PEOPLE_INFO_RECORDED:
        result = load(name)["peopleInfoResult"]
        code = result["peopleInfo"]["peopleCd"]
        add("kobis", "/people/searchPeopleInfo.json", {"peopleCd": code},
            write("kobis/people-%s.json" % code, {"peopleInfoResult": result}))

    directors = {}  # (name, English name) -> the fixture films they directed, in the box office's order first
    for code in day_movies:
        for person in details[code][0]["directors"]:
            directors.setdefault((person["peopleNm"], person["peopleNmEn"]), [])
    for code, (info, _) in details.items():
        for person in info["directors"]:
            if (person["peopleNm"], person["peopleNmEn"]) in directors:
                directors[(person["peopleNm"], person["peopleNmEn"])].append(code)
    for number, ((name, english), codes) in enumerate(directors.items(), DIRECTOR_CODES):
        code = str(number)
        films = sorted(codes, key=lambda movie: details[movie][0]["openDt"], reverse=True)  # newest first, as KOBIS
        recorded = all(details[movie][1] for movie in films)
        facts = ("name and English name are real, from the %s movie detail of %s" % (
            "recorded" if recorded else "fixture", titles_of(films, details)) +
            ("" if recorded else " (written from public knowledge: no detail of it was recorded)"))
        add("kobis", "/people/searchPeopleInfo.json", {"peopleCd": code},
            write("kobis/people-%s.json" % code, {"peopleInfoResult": {"peopleInfo": {
                "peopleCd": code, "peopleNm": name, "peopleNmEn": english, "sex": "", "repRoleNm": "감독",
                "homepages": [],
                "filmos": [dict(film(details[movie][0]), moviePartNm="감독") for movie in films]},
                "source": "영화진흥위원회"}}),
            "people code %s is SYNTHETIC (KOBIS gives directors in movie details no code; real people codes begin "
            "with 1 or 2); %s; filmography = the films in these fixtures this person directed (part 감독), not the "
            "whole career; repRoleNm 감독 from those credits; sex and homepages unknown (sex \"\", homepages [])" % (
                code, facts))
        add("kobis", "/people/searchPeopleList.json", {"curPage": "1", "itemPerPage": "10", "peopleNm": name},
            write("kobis/people-search-%s.json" % code, {"peopleListResult": {"totCnt": 1, "peopleList": [{
                "peopleCd": code, "peopleNm": name, "peopleNmEn": english, "repRoleNm": "감독",
                "filmoNames": "|".join(details[movie][0]["movieNm"] for movie in films)}],
                "source": "영화진흥위원회"}}),
            "a search by the name of the synthetic person %s, written from the same facts as that person's detail "
            "(code SYNTHETIC; %s; filmography limited to these fixtures); it lists only this person (totCnt 1): "
            "KOBIS may hold others whose names contain it" % (code, facts))
    return len(directors)


def company_fixtures(add, day_movies, details):
    """The recorded company bodies, and a detail and a search by name for each distributor of PEOPLE_DAY's top 10."""
    for name, parameters, file in COMPANY_RECORDED:
        add("kobis", "/company/searchCompanyList.json", parameters,
            write("kobis/%s.json" % file, {"companyListResult": load(name)["companyListResult"]}))
    ceos = {}  # companyCd -> CEO, from the recorded company bodies
    for name, _, _ in COMPANY_RECORDED:
        for company in load(name)["companyListResult"]["companyList"]:
            ceos[company["companyCd"]] = company["ceoNm"]
    for name in COMPANY_INFO_RECORDED:
        result = load(name)["companyInfoResult"]
        code = result["companyInfo"]["companyCd"]
        ceos[code] = result["companyInfo"]["ceoNm"]
        add("kobis", "/company/searchCompanyInfo.json", {"companyCd": code},
            write("kobis/company-%s.json" % code, {"companyInfoResult": result}))

    distributors = {}  # companyCd -> the movie detail's row that first names it
    for code in day_movies:
        for company in details[code][0]["companys"]:
            if company["companyPartNm"] == DISTRIBUTOR:
                distributors.setdefault(company["companyCd"], company)
    for code, first in distributors.items():
        rows = []  # (movie info, part): one row per part, as KOBIS lists a company's films
        for info, _ in details.values():
            rows += [(info, row["companyPartNm"]) for row in info["companys"] if row["companyCd"] == code]
        rows.sort(key=lambda row: row[0]["openDt"], reverse=True)  # newest first, as KOBIS; stable within a film
        parts = list(dict.fromkeys(part for _, part in rows))
        films = list(dict.fromkeys(info["movieCd"] for info, _ in rows))
        if not all(details[movie][1] for movie in films):
            raise SystemExit("distributor %s appears in a movie detail that is not a recording" % code)
        ceo = ceos.get(code, "")
        facts = ("company code, name, English name and the films and parts are real, from the recorded movie "
                 "details of %s; the filmography is limited to those films (KOBIS's is longer) and the parts to those "
                 "seen in them; %s" % (titles_of(films, details),
                                       "the CEO is from a recorded company body" if ceo else "the CEO is unknown (\"\")"))
        add("kobis", "/company/searchCompanyInfo.json", {"companyCd": code},
            write("kobis/company-%s.json" % code, {"companyInfoResult": {"companyInfo": {
                "companyCd": code, "companyNm": first["companyNm"], "companyNmEn": first["companyNmEn"],
                "ceoNm": ceo, "parts": [{"companyPartNm": part} for part in parts],
                "filmos": [dict(film(info), companyPartNm=part) for info, part in rows]},
                "source": "영화진흥위원회"}}),
            "written from the recorded movie details, not a recorded company body: " + facts)
        add("kobis", "/company/searchCompanyList.json",
            {"curPage": "1", "itemPerPage": "10", "companyNm": first["companyNm"]},
            write("kobis/company-search-%s.json" % code, {"companyListResult": {"totCnt": 1, "companyList": [{
                "companyCd": code, "companyNm": first["companyNm"], "companyNmEn": first["companyNmEn"],
                "companyPartNames": ",".join(parts), "ceoNm": ceo,
                "filmoNames": ",".join(details[movie][0]["movieNm"] for movie in films)}],
                "source": "영화진흥위원회"}}),
            "a search by this company's name, written from the same facts as its company detail (%s); it lists only "
            "this company (totCnt 1)" % facts)
    return len(distributors)


def observed(key, field):
    """Every distinct value of one field of a list in the recorded movie details."""
    values = set()
    for name in sorted(os.listdir(SHARED)):
        if name.startswith("movieinfo-"):
            values.update(item[field] for item in load(name)["movieInfoResult"]["movieInfo"][key])
    return values


def code_list_fixtures(add):
    """The recorded region code list, and the other code lists of CODE_LISTS."""
    name, com_code = REGIONS
    add("kobis", "/code/searchCodeList.json", {"comCode": com_code},
        write("kobis/codes-%s.json" % com_code, {"codes": load(name)["codes"]}))
    for (kind, key, field) in (("nation", "nations", "nationNm"), ("genre", "genres", "genreNm")):
        listed = {korean for listed_kind, _, _, names in CODE_LISTS if listed_kind == kind for korean, _ in names}
        if observed(key, field) != listed:
            raise SystemExit("the %s code list is not every recorded %s: %s" % (
                kind, field, sorted(observed(key, field) ^ listed)))
    for kind, com_code, documented, names in CODE_LISTS:
        digits = 4 if kind == "nation" else 2
        add("kobis", "/code/searchCodeList.json", {"comCode": com_code},
            write("kobis/codes-%s.json" % com_code, {"codes": [
                {"fullCd": "%s%0*d" % (com_code, digits, index), "korNm": korean, "engNm": english}
                for index, (korean, english) in enumerate(names, 1)]}),
            "the %s code list (comCode %s, %s): the Korean names are values observed in recorded KOBIS bodies or "
            "listed in the design notes; the codes are NOT KOBIS's (unknown here: comCode + a %d-digit sequence, a "
            "pattern only); the English names are ours (KOBIS's engNm not recorded)" % (
                kind, com_code, documented, digits))
    return 1 + len(CODE_LISTS)


def main():
    calls = []
    provenances = {}  # note -> the files it describes, in the order met
    box_office_movies = {}  # code -> (title, openDt) as the box office bodies give them

    def add(service, path, parameters, file, provenance=None):
        calls.append([service, path, file, parameters])
        if provenance:
            provenances.setdefault(provenance, []).append(file)

    def seen(rows):
        for row in rows:
            box_office_movies.setdefault(row["movieCd"], (row["movieNm"], row["openDt"]))

    for day in DAILY:
        body = load("daily-%s.json" % day)
        rows = body["boxOfficeResult"]["dailyBoxOfficeList"]
        seen(rows)
        document = {"boxOfficeResult": {"boxofficeType": body["boxOfficeResult"]["boxofficeType"],
                                        "showRange": body["boxOfficeResult"]["showRange"], "dailyBoxOfficeList": rows}}
        add("kobis", "/boxoffice/searchDailyBoxOfficeList.json", {"targetDt": day, "itemPerPage": "10"},
            write("kobis/daily-%s.json" % day, document))

    name, end, week_gb = WEEKEND
    result = load(name)["boxOfficeResult"]
    rows = result["weeklyBoxOfficeList"]
    seen(rows)
    add("kobis", "/boxoffice/searchWeeklyBoxOfficeList.json", {"targetDt": end, "weekGb": week_gb, "itemPerPage": "10"},
        write("kobis/weekly-%s-%s.json" % (week_gb, end), {"boxOfficeResult": {
            "boxofficeType": result["boxofficeType"], "showRange": result["showRange"],
            "yearWeekTime": result["yearWeekTime"], "weeklyBoxOfficeList": rows}}))

    name, first, last, year_week = WEEK
    rows = weekly_rows(load(name)["boxOfficeResult"]["dailyBoxOfficeList"], first, last)
    add("kobis", "/boxoffice/searchWeeklyBoxOfficeList.json", {"targetDt": last, "weekGb": "0", "itemPerPage": "10"},
        write("kobis/weekly-0-%s.json" % last, {"boxOfficeResult": {
            "boxofficeType": "주간 박스오피스", "showRange": "%s~%s" % (first, last), "yearWeekTime": year_week,
            "weeklyBoxOfficeList": rows}}),
        "written from the real daily box office of %s: titles, codes, opening dates, cumulative figures and screens are "
        "real; the week's audience and sales of films that opened before the week are estimates, and changes against "
        "the week before are unknown (0). No whole-week body was recorded." % last)

    titles = []
    details = {}  # code -> (movieInfo as written, whether it is a recorded detail)
    for code in list(box_office_movies) + EXTRA_MOVIES:
        name = movie_file(code)
        if name is not None:
            info = load(name)["movieInfoResult"]["movieInfo"]
            for key in ("actors", "staffs"):
                info[key] = info[key][:CUT]
            provenance = None
        elif code in KNOWN:
            title, opened = box_office_movies[code]
            info = known_detail(code, title, opened)
            provenance = ("no recorded detail: code, title and opening date are from the box office body; English "
                          "title, production year, nations and directors from public knowledge; the rest left empty")
        else:
            raise SystemExit("no detail for movie %s: record one or add it to KNOWN" % code)
        add("kobis", "/movie/searchMovieInfo.json", {"movieCd": code},
            write("kobis/movie-%s.json" % code, {"movieInfoResult": {"movieInfo": info, "source": "영화진흥위원회"}}),
            provenance)
        details[code] = (info, provenance is None)
        titles.append(info["movieNm"].strip())
        if code in box_office_movies:
            titles.append(box_office_movies[code][0].strip())

    name, parameters = SEARCH
    result = load(name)["movieListResult"]
    add("kobis", "/movie/searchMovieList.json", parameters, write("kobis/search-1.json", {"movieListResult": result}))

    day_movies = [row["movieCd"] for row in load("daily-%s.json" % PEOPLE_DAY)["boxOfficeResult"]["dailyBoxOfficeList"]]
    people = people_fixtures(add, day_movies, details)
    companies = company_fixtures(add, day_movies, details)
    code_lists = code_list_fixtures(add)

    poster_parameters = lambda title: {"query": title + " 영화 포스터", "size": "1", "sort": "accuracy"}
    for index, (name, title) in enumerate(POSTERS):
        body = load(name)
        body["documents"] = body["documents"][:1]
        add("kakao", "/v2/search/image", poster_parameters(title), write("kakao/poster-%d.json" % (index + 1), body))
    recorded = {title for _, title in POSTERS}
    none = write("kakao/poster-none.json", {"documents": [], "meta": {"is_end": True, "pageable_count": 0, "total_count": 0}})
    for title in dict.fromkeys(titles):
        if title not in recorded:
            add("kakao", "/v2/search/image", poster_parameters(title), none,
                "no image search was recorded for this title: served as a zero-hit search, so offline posters "
                "answer found: false instead of failing")

    # The index holds only what the worker reads, one call a line as [service, path, file, parameters]: the worker
    # parses it at every start, and its cost is its values (an object per call and per call's parameters cost twice
    # what an array does) and its bytes (the provenance notes, as long as the rest, live in PROVENANCE.md, which is not
    # embedded).
    with open(os.path.join(OUT, "index.json"), "w", encoding="utf-8") as handle:
        handle.write('{"recordedAt":%s,"runs":{"index":"runs/index.json","through":"%s-%s-%s"},"calls":[\n' % (
            json.dumps(RECORDED_AT), RUNS_THROUGH[:4], RUNS_THROUGH[4:6], RUNS_THROUGH[6:]))
        handle.write(",\n".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in calls))
        handle.write("\n]}\n")
    write_summary()
    run_calls, run_days = run_fixtures()
    provenances["the runs of %s: every daily list is a recording (runs/ in ../shared), written anew whole; the "
                "films' details and title searches are written from the lists (code, title, opening date) and public "
                "knowledge (English title, directors, nation), the rest empty; their poster searches are zero-hit"
                % ", ".join(code for code, _, _ in RUNS)] = ["runs/kobis/movie-*.json", "runs/kobis/search-*.json",
                                                             "runs/kakao/poster-none.json"]
    with open(os.path.join(OUT, "PROVENANCE.md"), "w", encoding="utf-8") as handle:
        handle.write("# Where the offline fixtures come from\n\n"
                     "Written by `scripts/make-fixtures.py` from the real recorded bodies in `../shared/data/kobis`, in "
                     "the upstream formats. A file not listed here is a recording written anew (compact, casts and "
                     "staff lists cut to 8). Each file listed is not, or not wholly, a recording; the note says what in "
                     "it is real.\n")
        for note, files in provenances.items():
            handle.write("\n- %s\n\n  %s\n" % (", ".join("`%s`" % file for file in files), note))
    print("wrote %d calls; movie details for %d movies, poster searches for %d titles; %d people, %d companies, "
          "%d code lists; %d run calls (%d daily lists)" % (len(calls), len(dict.fromkeys(list(box_office_movies) + EXTRA_MOVIES)),
                             len(dict.fromkeys(titles)), people, companies, code_lists, run_calls, run_days))


if __name__ == "__main__":
    main()
