#!/usr/bin/env python3
"""Writes Fixtures/upstream/ and Fixtures/index.json: the offline mode's recorded-style upstream responses.

The facts (dates, titles, figures, credits) are real: they are taken from the recorded KOBIS and Kakao bodies in
../shared/data/kobis, and written anew by this script in the upstream formats, compact and reduced (casts and staff
lists cut to their first 8 entries, one image per poster search). Run it again only to change what offline mode
covers; its output is committed and embedded into the binary.

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


def write(relative, document):
    path = os.path.join(OUT, "upstream", relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(document, handle, ensure_ascii=False, separators=(",", ":"))
        handle.write("\n")
    return "upstream/" + relative


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


def main():
    calls = []
    box_office_movies = {}  # code -> (title, openDt) as the box office bodies give them

    def add(service, path, parameters, file, provenance=None):
        entry = {"call": {"service": service, "path": path, "parameters": parameters}, "file": file}
        if provenance:
            entry["provenance"] = provenance
        calls.append(entry)

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
        titles.append(info["movieNm"].strip())
        if code in box_office_movies:
            titles.append(box_office_movies[code][0].strip())

    name, parameters = SEARCH
    result = load(name)["movieListResult"]
    add("kobis", "/movie/searchMovieList.json", parameters, write("kobis/search-1.json", {"movieListResult": result}))

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

    with open(os.path.join(OUT, "index.json"), "w", encoding="utf-8") as handle:
        json.dump({"recordedAt": RECORDED_AT,
                   "about": "Offline mode's recorded-style upstream responses, keyed by the upstream call. Written by "
                            "scripts/make-fixtures.py from real recorded facts; an entry with a provenance says what in "
                            "it is not a recording.",
                   "calls": calls}, handle, ensure_ascii=False, indent=1)
        handle.write("\n")
    print("wrote %d calls; movie details for %d movies, poster searches for %d titles" % (
        len(calls), len(dict.fromkeys(list(box_office_movies) + EXTRA_MOVIES)), len(dict.fromkeys(titles))))


if __name__ == "__main__":
    main()
