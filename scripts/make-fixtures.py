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


def main():
    calls = []
    movie_codes = []

    def add(service, path, parameters, file):
        calls.append({"call": {"service": service, "path": path, "parameters": parameters}, "file": file})

    for day in DAILY:
        body = load("daily-%s.json" % day)
        rows = body["boxOfficeResult"]["dailyBoxOfficeList"]
        movie_codes += [row["movieCd"] for row in rows]
        document = {"boxOfficeResult": {"boxofficeType": body["boxOfficeResult"]["boxofficeType"],
                                        "showRange": body["boxOfficeResult"]["showRange"], "dailyBoxOfficeList": rows}}
        add("kobis", "/boxoffice/searchDailyBoxOfficeList.json", {"targetDt": day, "itemPerPage": "10"},
            write("kobis/daily-%s.json" % day, document))

    name, end, week_gb = WEEKEND
    body = load(name)
    result = body["boxOfficeResult"]
    rows = result["weeklyBoxOfficeList"]
    movie_codes += [row["movieCd"] for row in rows]
    add("kobis", "/boxoffice/searchWeeklyBoxOfficeList.json", {"targetDt": end, "weekGb": week_gb, "itemPerPage": "10"},
        write("kobis/weekly-%s-%s.json" % (week_gb, end), {"boxOfficeResult": {
            "boxofficeType": result["boxofficeType"], "showRange": result["showRange"],
            "yearWeekTime": result["yearWeekTime"], "weeklyBoxOfficeList": rows}}))

    written = []
    for code in dict.fromkeys(movie_codes + EXTRA_MOVIES):
        name = movie_file(code)
        if name is None:
            continue
        info = load(name)["movieInfoResult"]["movieInfo"]
        for key in ("actors", "staffs"):
            info[key] = info[key][:CUT]
        add("kobis", "/movie/searchMovieInfo.json", {"movieCd": code},
            write("kobis/movie-%s.json" % code, {"movieInfoResult": {"movieInfo": info, "source": "영화진흥위원회"}}))
        written.append(code)

    name, parameters = SEARCH
    result = load(name)["movieListResult"]
    add("kobis", "/movie/searchMovieList.json", parameters, write("kobis/search-1.json", {"movieListResult": result}))

    for index, (name, title) in enumerate(POSTERS):
        body = load(name)
        body["documents"] = body["documents"][:1]
        add("kakao", "/v2/search/image", {"query": title + " 영화 포스터", "size": "1", "sort": "accuracy"},
            write("kakao/poster-%d.json" % (index + 1), body))

    with open(os.path.join(OUT, "index.json"), "w", encoding="utf-8") as handle:
        json.dump({"recordedAt": RECORDED_AT,
                   "about": "Offline mode's recorded-style upstream responses, keyed by the upstream call. Written by scripts/make-fixtures.py from real recorded facts.",
                   "calls": calls}, handle, ensure_ascii=False, indent=1)
        handle.write("\n")
    missing = [code for code in dict.fromkeys(movie_codes) if code not in written]
    print("wrote %d calls; movie details for %d movies; none recorded for %s" % (len(calls), len(written), missing))


if __name__ == "__main__":
    main()
