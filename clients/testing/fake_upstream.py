#!/usr/bin/env python3
"""A fake KOBIS and Kakao on 127.0.0.1 for the client and recipe tests, serving the project's own recordings in
Fixtures/upstream and counting what it is asked.

    python3 clients/testing/fake_upstream.py [--port-file FILE] [--hostile NAME [--hostile-fault]]

Prints its port on stdout (and writes it to FILE). A daily box office of a day with no recording is the 2023-04-26
recording shown as that day; people, companies and code lists answer their recordings too, and every movie search
the one recorded (the title NO_FILM_TITLE: no film). KOBIS lives under /kobis, Kakao under /kakao, a poster image
under /images/poster.jpg (a stand-in, or --poster FILE); GET /__flaky?times=N answers the next N KOBIS calls with HTTP 500,
GET /__quota?calls=N the next N with KOBIS's quota fault (320011); GET /__hold?after=N holds every KOBIS call past the N-th until GET /__release; GET
/__requests answers the counts so far as JSON ({"kobis": n, "kakao": n, "images": n, "calls":
{"<path>?<sorted query without key>": n}}). Every call is delayed by --delay-ms (default 5), so concurrent workers
really overlap. Runs until killed.

--hostile NAME (Tests/Hostile/hostile.py names the strings) puts hostile text where upstream text goes: in every
KOBIS answer the titles, names and code names (the string values of HOSTILE_KEYS) become the row's text, and Kakao's
image_url, thumbnail_url, display_sitename and doc_url the row's (image_url a working poster unless the row is about
the address). Answers are parsed, rewritten and written again as UTF-8, a lone surrogate as its JSON escape
(`\\ud800`). With --hostile-fault as well, every daily box office answers a KOBIS fault whose message is the text.
Without --hostile nothing changes.
"""
import argparse
import importlib.util
import http.server
import json
import pathlib
import threading
import time
import urllib.parse

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "Fixtures" / "upstream"
POSTER = b"\xff\xd8\xff\xe0boxoffice-worker test poster\xff\xd9"


class State:
    lock = threading.Lock()
    counts = {"kobis": 0, "kakao": 0, "images": 0, "calls": {}}
    delay = 0.005
    base = ""
    # GET /__hold?after=N: KOBIS calls past the N-th are held until GET /__release (a test's gate).
    hold_after = None
    released = threading.Event()
    # GET /__fail?days=20230424,20230425: those days' daily box office answer a KOBIS fault (a day that fails).
    failing_days = set()
    # GET /__flaky?times=N: the next N KOBIS calls answer HTTP 500 (an upstream down for a while).
    flaky = 0
    # GET /__quota?calls=N: the next N KOBIS calls answer KOBIS's "quota used up" fault (320011).
    spent = 0
    # The poster's bytes: a stand-in that is not a picture, or with --poster FILE a real JPEG (cards draw it).
    poster = POSTER
    # --hostile NAME: the row of Tests/Hostile/hostile.py ({"text", "image_url", "display_sitename", "doc_url"}, where
    # "{base}" stands for this server's base URL); --hostile-fault: every daily box office is a fault with the text.
    hostile = None
    hostile_fault = False


# The KOBIS keys whose string values a hostile row replaces: titles, people's and companies' names, roles in a cast,
# code names.
HOSTILE_KEYS = {"movieNm", "movieNmEn", "peopleNm", "cast", "companyNm", "korNm", "filmoNames"}
# Kakao's image search: what a hostile row sets in every document.
HOSTILE_KAKAO_KEYS = ("image_url", "thumbnail_url", "display_sitename", "doc_url")
HOSTILE_TABLE = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Hostile" / "hostile.py"


def hostile_row(name):
    """The upstream values of the hostile row `name`, from Tests/Hostile/hostile.py (loaded by path)."""
    spec = importlib.util.spec_from_file_location("hostile_table", HOSTILE_TABLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.upstream(name)


def hostile_walk(value, replacements):
    """`value` with the string values of `replacements`' keys replaced, at any depth."""
    if isinstance(value, dict):
        return {key: (replacements[key] if key in replacements and isinstance(item, str)
                      else hostile_walk(item, replacements)) for key, item in value.items()}
    if isinstance(value, list):
        return [hostile_walk(item, replacements) for item in value]
    return value


def hostile_body(body, kakao=False):
    """A recorded answer with the hostile row's text in it (None and faults stay as they are)."""
    row = State.hostile
    if row is None or body is None:
        return body
    document = json.loads(body)
    if kakao:
        replacements = {key: row[key].replace("{base}", State.base) for key in HOSTILE_KAKAO_KEYS
                        if row.get(key) is not None}
    elif "faultInfo" in document or row.get("text") is None:
        return body
    else:
        replacements = {key: row["text"] for key in HOSTILE_KEYS}
    return hostile_json(hostile_walk(document, replacements))


def hostile_json(document):
    # UTF-8 as KOBIS writes it; a lone surrogate cannot be UTF-8, so it goes as the JSON escape `\ud800` (inside a
    # string, where it can only be).
    return json.dumps(document, ensure_ascii=False).encode("utf-8", "backslashreplace")


# The other KOBIS calls: the recording named by the path and, where it has one, the query parameter that picks it.
RECORDED = {
    "/kobis/movie/searchMovieInfo.json": ("kobis/movie-%s.json", "movieCd"),
    "/kobis/movie/searchMovieList.json": ("kobis/search-1.json", None),
    "/kobis/people/searchPeopleInfo.json": ("kobis/people-%s.json", "peopleCd"),
    "/kobis/people/searchPeopleList.json": ("kobis/people-search-default.json", None),
    "/kobis/company/searchCompanyInfo.json": ("kobis/company-%s.json", "companyCd"),
    "/kobis/company/searchCompanyList.json": ("kobis/company-search-default.json", None),
    "/kobis/code/searchCodeList.json": ("kobis/codes-%s.json", "comCode"),
}


# A movie search for this title answers KOBIS's empty list: a title that names no film (everything else searched
# answers the one recorded search).
NO_FILM_TITLE = "없는 영화"


def fixture(name):
    path = FIXTURES / name
    return path.read_bytes() if path.exists() else None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json;charset=UTF-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/__requests":
            with State.lock:
                return self.send(200, json.dumps(State.counts).encode())
        if url.path == "/__hold":
            State.released.clear()
            State.hold_after = int(query.get("after", "0"))
            return self.send(200, b"{}")
        if url.path == "/__release":
            State.released.set()
            return self.send(200, b"{}")
        if url.path == "/__fail":
            State.failing_days = set(filter(None, query.get("days", "").split(",")))
            return self.send(200, b"{}")
        if url.path == "/__flaky":
            with State.lock:
                State.flaky = int(query.get("times", "0"))
            return self.send(200, b"{}")
        if url.path == "/__quota":
            with State.lock:
                State.spent = int(query.get("calls", "0"))
            return self.send(200, b"{}")
        service = ("kakao" if url.path.startswith("/kakao/") else "kobis" if url.path.startswith("/kobis/")
                   else "images" if url.path.startswith("/images/") else None)
        if service:
            key = url.path + "?" + "&".join("%s=%s" % item for item in sorted(query.items()) if item[0] != "key")
            with State.lock:
                State.counts[service] += 1
                State.counts["calls"][key] = State.counts["calls"].get(key, 0) + 1
                held = service == "kobis" and State.hold_after is not None and State.counts["kobis"] > State.hold_after
                down = service == "kobis" and State.flaky > 0
                spent = service == "kobis" and not down and State.spent > 0
                if down:
                    State.flaky -= 1
                if spent:
                    State.spent -= 1
            if held:
                State.released.wait(60)
            time.sleep(State.delay)  # sleep-ok: an upstream that answers slowly
            if down:
                return self.send(500, b"upstream down")
            if spent:
                return self.send(200, b'{"faultInfo":{"message":"quota used up","errorCode":"320011"}}')
        daily = url.path == "/kobis/boxoffice/searchDailyBoxOfficeList.json"
        if daily and State.hostile and State.hostile_fault:
            body = hostile_json({"faultInfo": {"message": State.hostile["text"], "errorCode": "320999"}})
        elif daily and query.get("targetDt") in State.failing_days:
            body = json.dumps({"faultInfo": {"message": "일시적인 오류", "errorCode": "320999"}}, ensure_ascii=False).encode()
        elif daily:
            day = query.get("targetDt", "")
            body = fixture("kobis/daily-%s.json" % day)
            if body is None and len(day) == 8 and day.isdigit():
                # Any other day: the 2023-04-26 recording, shown as that day (enough for range and backfill tests).
                body = fixture("kobis/daily-20230426.json").replace(b"20230426", day.encode())
            body = hostile_body(body)
        elif url.path == "/kobis/boxoffice/searchWeeklyBoxOfficeList.json":
            weekly = fixture("kobis/weekly-%s-%s.json" % (query.get("weekGb", ""), query.get("targetDt", "")))
            body = hostile_body(weekly)
        elif url.path == "/kobis/movie/searchMovieList.json" and query.get("movieNm") == NO_FILM_TITLE:
            body = json.dumps({"movieListResult": {"totCnt": 0, "source": "영화진흥위원회", "movieList": []}},
                              ensure_ascii=False).encode()
        elif url.path in RECORDED:
            name, parameter = RECORDED[url.path]
            body = hostile_body(fixture(name % query.get(parameter, "") if parameter else name))
        elif url.path == "/kakao/v2/search/image":
            document = json.loads(fixture("kakao/poster-1.json"))
            for item in document.get("documents", []):
                item["image_url"] = State.base + "/images/poster.jpg"
            body = hostile_body(json.dumps(document, ensure_ascii=False).encode(), kakao=True)
        elif url.path == "/images/poster.jpg":
            return self.send(200, State.poster, "image/jpeg")
        else:
            body = None
        if body is None:
            body = b'{"faultInfo":{"message":"no such recording","errorCode":"320102"}}'
        self.send(200, body)


class Running:
    """A fake upstream started by a test as a process of its own: its base URL, its counts, and stop(); `hostile`
    names a row of Tests/Hostile/hostile.py to serve (--hostile), `hostile_fault` makes the daily box office a fault
    with its text (--hostile-fault)."""

    def __init__(self, delay_ms=5, poster=None, hostile=None, hostile_fault=False):
        import subprocess
        import sys
        self.process = subprocess.Popen([sys.executable, __file__, "--delay-ms", str(delay_ms)]
                                        + (["--poster", str(poster)] if poster else [])
                                        + (["--hostile", hostile] if hostile else [])
                                        + (["--hostile-fault"] if hostile_fault else []),
                                        stdout=subprocess.PIPE, text=True)
        self.base = "http://127.0.0.1:%d" % int(self.process.stdout.readline())

    def counts(self):
        import urllib.request
        with urllib.request.urlopen(self.base + "/__requests") as response:
            return json.load(response)

    def stop(self):
        self.process.kill()
        self.process.wait()


class QuietServer(http.server.ThreadingHTTPServer):
    """Says nothing when a client goes away mid-request (a worker killed by a test), and reports anything else."""

    # socketserver's default backlog is 5: a worker fanning out ten details at once overflowed it, the kernel dropped
    # the extra SYNs and the client sent them again a second later (every --with-details run took 1 s more).
    request_queue_size = 128

    def handle_error(self, request, client_address):
        import sys
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file")
    parser.add_argument("--delay-ms", type=float, default=5)
    parser.add_argument("--poster", help="a JPEG file served as the poster image")
    parser.add_argument("--hostile", metavar="NAME", help="put the hostile row NAME of Tests/Hostile/hostile.py "
                        "where upstream text goes")
    parser.add_argument("--hostile-fault", action="store_true", help="with --hostile: every daily box office "
                        "answers a KOBIS fault whose message is the row's text")
    options = parser.parse_args()
    if options.hostile_fault and not options.hostile:
        parser.error("--hostile-fault goes with --hostile NAME")
    State.hostile = hostile_row(options.hostile) if options.hostile else None
    State.hostile_fault = options.hostile_fault
    State.delay = options.delay_ms / 1000
    if options.poster:
        State.poster = pathlib.Path(options.poster).read_bytes()
    server = QuietServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    State.base = "http://127.0.0.1:%d" % port
    if options.port_file:
        pathlib.Path(options.port_file).write_text(str(port))
    print(port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
