"""A film's run benchmark: figures printed beside their baselines in the same run; asserts nothing.

A fake KOBIS on 127.0.0.1 (asyncio, keep-alive, DELAY ms on every call) lists eight made-up films every day, each
opening FILM_GAP days after the one before, their running totals growing by day, and answers each film's detail.
- Cold: one movie.run of 120 days (the 14 preview days and 106 from the opening) in a fresh worker with a fresh
  cache, against the floor --upstream-width allows: the detail's round trip, then ceil(120 / 20) waves of DELAY.
- Cached: the same movie.run asked again in that worker (its lists in the memory tier), round trip p50 over
  ROUNDS, beside a cached boxoffice.daily's and a ping's in the same worker.
- Compare: movie.compare of the eight films once all eight runs are cached, p50 over ROUNDS.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import time

import cache_bench
from cache_bench import Server, handler

DELAY = 0.05
FILMS = 8
FILM_GAP = 10
FIRST_OPENING = datetime.date(2024, 1, 10)
PREVIEWS = 14
DAYS = 106
WIDTH = 20


def code(index):
    return "2099%04d" % (index + 1)


def opening(index):
    return FIRST_OPENING + datetime.timedelta(days=FILM_GAP * index)


def daily(target):
    day = datetime.date(int(target[:4]), int(target[4:6]), int(target[6:]))
    rows = []
    for index in range(FILMS):
        since = (day - opening(index)).days + 1
        audience = 50_000 if since >= 1 else 2_000
        total = 2_000 * max(0, min(since + PREVIEWS, PREVIEWS)) + 50_000 * max(0, since)
        rows.append({"rnum": str(index + 1), "rank": str(index + 1), "rankInten": "0", "rankOldAndNew": "OLD",
                     "movieCd": code(index), "movieNm": "벤치 영화 %d" % (index + 1),
                     "openDt": opening(index).isoformat(), "salesAmt": str(audience * 10_000), "salesShare": "10.0",
                     "salesInten": "0", "salesChange": "0", "salesAcc": str(total * 10_000), "audiCnt": str(audience),
                     "audiInten": "0", "audiChange": "0", "audiAcc": str(max(total, audience)), "scrnCnt": "1000",
                     "showCnt": "4000"})
    return {"boxOfficeResult": {"boxofficeType": "일별 박스오피스", "showRange": "%s~%s" % (target, target),
                                "dailyBoxOfficeList": rows}}


def detail(movie_code):
    index = int(movie_code[4:]) - 1
    return {"movieInfoResult": {"source": "영화진흥위원회", "movieInfo": {
        "movieCd": movie_code, "movieNm": "벤치 영화 %d" % (index + 1), "movieNmEn": "", "movieNmOg": "", "showTm": "",
        "prdtYear": "", "openDt": opening(index).strftime("%Y%m%d"), "prdtStatNm": "개봉", "typeNm": "장편",
        "nations": [{"nationNm": "한국"}], "genres": [], "directors": [], "actors": [], "showTypes": [],
        "companys": [], "audits": [], "staffs": []}}}


def respond(path, query):
    """The fake KOBIS's body for a call: a day's list of the eight films, or one film's detail."""
    if path.endswith("searchDailyBoxOfficeList.json"):
        return json.dumps(daily(query["targetDt"]), ensure_ascii=False).encode()
    if path.endswith("searchMovieInfo.json"):
        return json.dumps(detail(query["movieCd"]), ensure_ascii=False).encode()
    return None


class Worker:
    def __init__(self, binary, port):
        env = dict(os.environ, KOBIS_API_KEY="bench-kobis-key", KOBIS_BASE_URL="http://127.0.0.1:%d" % port,
                   BOXOFFICE_CACHE_DIR=cache_bench.fresh_cache())
        self.process = subprocess.Popen([binary, "--today", "2026-11-21", "--kobis-daily-limit", "1000000"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.next = 0

    def ask(self, method, params=None):
        self.next += 1
        line = {"jsonrpc": "2.0", "id": self.next, "method": method}
        if params is not None:
            line["params"] = params
        data = json.dumps(line, ensure_ascii=False).encode() + b"\n"
        begin = time.perf_counter()
        self.process.stdin.write(data)
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        elapsed = time.perf_counter() - begin
        parsed = json.loads(answer)
        if "error" in parsed:
            raise SystemExit("%s: %s" % (method, parsed["error"]))
        return elapsed, parsed["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def p50(samples):
    return statistics.median(samples) * 1000


def main():
    global DELAY
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--delay-ms", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--cold-rounds", type=int, default=3)
    arguments = parser.parse_args()
    DELAY = arguments.delay_ms / 1000
    server = Server(handler(respond, lambda: DELAY))
    through = (opening(FILMS - 1) + datetime.timedelta(days=DAYS + 30)).isoformat()
    run_params = {"movieCode": code(0), "through": through, "days": DAYS}

    cold = []
    for _ in range(arguments.cold_rounds):
        worker = Worker(arguments.worker, server.port)
        worker.ask("ping")
        elapsed, result = worker.ask("movie.run", run_params)
        cold.append(elapsed)
        worker.close()
    days = len(result["days"])
    looked = result["coverage"]["daysLooked"]
    floor = DELAY * (1 + math.ceil(looked / WIDTH))
    print("movie.run cold, %d days looked at (%d in the run), %.0f ms upstream delay: %.0f ms p50 over %d; floor "
          "%.0f ms (the detail, then %d waves of %d): %.2fx the floor (target <= 1.2x)"
          % (looked, days, DELAY * 1000, p50(cold), len(cold), floor * 1000, math.ceil(looked / WIDTH), WIDTH,
             p50(cold) / (floor * 1000)))

    worker = Worker(arguments.worker, server.port)
    for index in range(FILMS):
        worker.ask("movie.run", dict(run_params, movieCode=code(index)))
    worker.ask("boxoffice.daily", {"date": opening(0).isoformat()})
    timings = {"ping": [], "daily": [], "run": [], "compare": []}
    compare_params = {"movies": [code(index) for index in range(FILMS)], "through": through, "days": DAYS}
    for _ in range(arguments.rounds):
        timings["ping"].append(worker.ask("ping")[0])
        timings["daily"].append(worker.ask("boxoffice.daily", {"date": opening(0).isoformat()})[0])
        elapsed, result = worker.ask("movie.run", run_params)
        if result["coverage"]["calls"]:
            raise SystemExit("a cached run went upstream: %s" % result["coverage"])
        timings["run"].append(elapsed)
    for _ in range(max(20, arguments.rounds // 4)):
        elapsed, result = worker.ask("movie.compare", compare_params)
        if any(film["coverage"]["calls"] for film in result["films"]):
            raise SystemExit("a cached compare went upstream")
        timings["compare"].append(elapsed)
    worker.close()
    print("movie.run cached, %d days: %.3f ms p50 (target <= 2 ms); in the same worker a cached boxoffice.daily "
          "%.3f ms, a ping %.3f ms: the run is %.1fx a cached day" % (
              looked, p50(timings["run"]), p50(timings["daily"]), p50(timings["ping"]),
              p50(timings["run"]) / p50(timings["daily"])))
    print("movie.compare of %d cached runs: %.3f ms p50 (target <= 10 ms): %.1fx a cached run" % (
        FILMS, p50(timings["compare"]), p50(timings["compare"]) / p50(timings["run"])))


if __name__ == "__main__":
    main()
