"""Soak: LINES mixed lines through one live worker against a loopback fake upstream that injects faults at random;
prints what it checked and the figures, exits 1 when a rule is broken. It times nothing it asserts.

Faults (on about FAULTS of the upstream calls): HTTP 503, a reset connection, an answer slower than the worker's
--timeout, a truncated body, an HTML page, a KOBIS faultInfo, Kakao 401 and Kakao code -10. The lines: pings, every
method (cached days and new ones, details, searches, posters), include with progress tokens, invalid params, invalid
JSON, batches, notifications, $/cancelRequest of random earlier ids, and duplicate ids.

Checks: every id is answered exactly as many times as it was sent (after SIGTERM: the lines the worker read are all
answered, with -32800 for what the drain cut off, and only a suffix of the input goes unread); every error code is
one of the contract's; the worker exits 0 and never crashes; the API keys appear in no output and no stored file;
peak RSS at 10 % and at 100 % of the lines (flat); the upstream calls the faults cost.
"""
import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Fixtures", "upstream")
KOBIS_KEY = "soak-secret-kobis-key-7f3a"
KAKAO_KEY = "soak-secret-kakao-key-91c2"
# protocol.md §2 and §4.
CONTRACT_CODES = {-32700, -32600, -32601, -32602, -32603, -32800, -31001, -31002, -31003, -31004, -31005, -31006, -31007, -31008}


def fixture(*parts):
    with open(os.path.join(FIXTURES, *parts), "rb") as handle:
        return handle.read()


class Upstream:
    """A fake KOBIS and Kakao on one asyncio loop, with faults."""

    def __init__(self, fault_rate, slow_seconds):
        self.fault_rate = fault_rate
        self.slow = slow_seconds
        self.calls = 0
        self.faults = {}
        self.daily = fixture("kobis", "daily-20230426.json")
        self.movie = fixture("kobis", "movie-20124079.json")
        self.search = fixture("kobis", "search-1.json")
        self.kakao = fixture("kakao", "poster-1.json")
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(asyncio.start_server(self.handle, "127.0.0.1", 0, backlog=256))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait()

    async def handle(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b" ", 2)[1].decode()
                self.calls += 1
                kakao = target.startswith("/v2/")
                fault = None
                if random.random() < self.fault_rate:
                    fault = random.choice(["503", "reset", "slow", "truncated", "html",
                                           "kakao401" if kakao else "faultInfo", "kakao-10" if kakao else "503"])
                    self.faults[fault] = self.faults.get(fault, 0) + 1
                if fault == "reset":
                    writer.transport.abort()
                    return
                if fault == "slow":
                    await asyncio.sleep(self.slow)
                status, content_type, body = b"200 OK", b"application/json;charset=UTF-8", self.body(target)
                if fault == "503":
                    status, body = b"503 Service Unavailable", b"{}"
                elif fault == "html":
                    content_type, body = b"text/html", b"<html><body>maintenance</body></html>"
                elif fault == "faultInfo":
                    body = b'{"faultInfo":{"message":"soak fault","errorCode":"320010"}}'
                elif fault == "kakao401":
                    status, body = b"401 Unauthorized", b'{"errorType":"AccessDeniedError","message":"wrong key"}'
                elif fault == "kakao-10":
                    status, body = b"400 Bad Request", b'{"code":-10,"msg":"API limit has been exceeded."}'
                length = len(body)
                if fault == "truncated":
                    body = body[: len(body) // 2]
                writer.write(b"HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (
                    status, content_type, length) + body)
                await writer.drain()
                if fault == "truncated":
                    writer.transport.abort()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def body(self, target):
        if "searchDailyBoxOfficeList" in target:
            day = target.split("targetDt=")[1][:8] if "targetDt=" in target else "20230426"
            return self.daily.replace(b"20230426", day.encode())
        if "searchMovieInfo" in target:
            return self.movie
        if "searchMovieList" in target:
            return self.search
        return self.kakao


class Lines:
    """The mixed input, and what each id was sent as."""

    def __init__(self, count, seed):
        self.random = random.Random(seed)
        self.count = count
        self.sent = {}  # id -> times sent
        self.line_of = {}  # id -> index of its first line
        self.next_id = 0
        self.new_day = 0

    def request(self, method, params=None, id_=None, notify=False):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if not notify:
            if id_ is None:
                self.next_id += 1
                id_ = self.next_id
            message["id"] = id_
        return message

    def new_date(self):
        self.new_day += 1
        year, rest = 2010 + self.new_day // 336 % 14, self.new_day % 336
        return "%04d-%02d-%02d" % (year, rest // 28 + 1, rest % 28 + 1)

    def one(self):
        pick = self.random.random()
        cached = ["2022-01-05", "2023-04-23", "2023-04-26", "2022-02-01", "2021-12-25"]
        if pick < 0.30:
            return self.request("ping")
        if pick < 0.48:
            return self.request("boxoffice.daily", {"date": self.random.choice(cached)})
        if pick < 0.485:
            params = {"date": self.new_date()}
            if self.random.random() < 0.3:
                params["include"] = ["detail", "poster"]
                params["_meta"] = {"progressToken": "p%d" % self.next_id}
            return self.request("boxoffice.daily", params)
        if pick < 0.52:
            return self.request("movie.detail", {"movieCode": self.random.choice(["20124079", "20112207", "20199882"])})
        if pick < 0.54:
            return self.request("movie.search", {"title": self.random.choice(["광해", "기생충", "범죄도시"])})
        if pick < 0.56:
            return self.request("movie.poster", {"movieCode": "20124079"})
        if pick < 0.60:
            return self.request("worker.status")
        if pick < 0.66:
            return self.request("boxoffice.daily", {"date": self.random.choice(["tomorrow", 5, "2099-01-01"])})
        if pick < 0.71:
            return "raw", self.random.choice(['{"jsonrpc":"2.0","id":', "[1,2", "{\"a\":tru}", "\xff\xfe", "nul"])
        if pick < 0.76:
            return [self.request("ping"), self.request("worker.status"), self.request("ping", notify=True)]
        if pick < 0.81:
            return self.request("ping", notify=True)
        if pick < 0.85 and self.next_id:
            return self.request("$/cancelRequest", {"id": self.random.randint(max(1, self.next_id - 50), self.next_id)},
                                notify=True)
        if pick < 0.88 and self.next_id:
            return self.request("boxoffice.daily", {"date": "2022-01-05"}, id_=self.random.randint(
                max(1, self.next_id - 20), self.next_id))
        return self.request("unknown.method")

    def encode(self, index, item):
        if isinstance(item, tuple):
            return item[1].encode("utf-8", "surrogateescape") + b"\n"
        for message in item if isinstance(item, list) else [item]:
            if "id" in message:
                self.sent[message["id"]] = self.sent.get(message["id"], 0) + 1
                self.line_of.setdefault(message["id"], index)
        return json.dumps(item, ensure_ascii=False).encode() + b"\n"


def status_mib(pid, field):
    """A memory figure of /proc/PID/status in MiB (0 when the process is gone)."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def memory(pid):
    """Peak RSS, and the part of the resident set that is the worker's own (RssAnon: heap, stacks), apart from the
    pages of the executable and its libraries (RssFile), which an idle worker already has."""
    return {"peak": status_mib(pid, "VmHWM"), "anon": status_mib(pid, "RssAnon"), "file": status_mib(pid, "RssFile")}


def soak(worker, count, variant, fault_rate, seed):
    upstream = Upstream(fault_rate, slow_seconds=0.6)
    cache = tempfile.mkdtemp(prefix="boxoffice-soak-")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_"))}
    env.update({"KOBIS_API_KEY": KOBIS_KEY, "KAKAO_REST_API_KEY": KAKAO_KEY, "BOXOFFICE_CACHE_DIR": cache, "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
                "KOBIS_BASE_URL": "http://127.0.0.1:%d/kobis" % upstream.port,
                "KAKAO_BASE_URL": "http://127.0.0.1:%d" % upstream.port, "BOXOFFICE_TODAY": "2026-11-21"})
    process = subprocess.Popen([worker, "--timeout", "0.4", "--kobis-daily-limit", "1000000", "--drain-seconds", "2"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines = Lines(count, seed)
    answers = {}
    codes = {}
    stdout_bytes = [0]
    rss = {}
    leaks = []
    stderr_text = []
    stop_at = count // 2 if variant == "sigterm" else None

    def read():
        for raw in process.stdout:
            stdout_bytes[0] += len(raw)
            if KOBIS_KEY.encode() in raw or KAKAO_KEY.encode() in raw:
                leaks.append("stdout")
            value = json.loads(raw)
            for answer in value if isinstance(value, list) else [value]:
                if "method" in answer and "id" not in answer:
                    continue  # progress
                answers[answer["id"]] = answers.get(answer["id"], 0) + 1
                if "error" in answer:
                    code = answer["error"]["code"]
                    codes[code] = codes.get(code, 0) + 1

    def read_stderr():
        stderr_text.append(process.stderr.read().decode(errors="replace"))

    reader = threading.Thread(target=read)
    reader.start()
    threading.Thread(target=read_stderr, daemon=True).start()
    begin = time.perf_counter()
    try:
        for index in range(count):
            process.stdin.write(lines.encode(index, lines.one()))
            if (index + 1) % max(1, count // 10) == 0:
                process.stdin.flush()
                rss["%d%%" % ((index + 1) * 100 // count)] = memory(process.pid)
            if stop_at is not None and index == stop_at:
                process.stdin.flush()
                process.send_signal(signal.SIGTERM)
                break
        process.stdin.close()
    except BrokenPipeError:
        pass  # after SIGTERM the worker stops reading; the rest is never read
    rss["end"] = memory(process.pid)
    code = process.wait(timeout=600)
    reader.join(timeout=60)
    elapsed = time.perf_counter() - begin

    problems = []
    if code != 0:
        problems.append("exit %s" % code)
    twice = [id_ for id_, times in answers.items() if id_ is not None and times > lines.sent.get(id_, 0)]
    if twice:
        problems.append("%d ids answered more often than sent (e.g. %s)" % (len(twice), twice[:5]))
    unanswered = sorted((lines.line_of[id_], id_) for id_, times in lines.sent.items() if answers.get(id_, 0) < times)
    if variant == "eof" and unanswered:
        problems.append("%d ids not answered (e.g. %s)" % (len(unanswered), [id_ for _, id_ in unanswered[:5]]))
    if variant == "sigterm" and unanswered:
        # Ids sent more than once (the duplicate-id lines) may have one send read and one not: left out here.
        unanswered = [(line, id_) for line, id_ in unanswered if lines.sent[id_] == 1] or unanswered[:0]
    if variant == "sigterm" and unanswered:
        first = unanswered[0][0]
        answered_after = [id_ for id_, line in lines.line_of.items() if line > first and answers.get(id_)]
        if answered_after:
            problems.append("an unanswered line comes before %d answered ones: not a suffix" % len(answered_after))
    strange = [code for code in codes if code not in CONTRACT_CODES]
    if strange:
        problems.append("error codes outside the contract: %s" % strange)
    stored = ""
    for root, _, files in os.walk(cache):
        for name in files:
            with open(os.path.join(root, name), "rb") as handle:
                stored += handle.read().decode("latin-1")
    if KOBIS_KEY in stored or KAKAO_KEY in stored:
        leaks.append("a stored file")
    if KOBIS_KEY in "".join(stderr_text) or KAKAO_KEY in "".join(stderr_text):
        leaks.append("stderr")
    shutil.rmtree(cache, ignore_errors=True)
    if leaks:
        problems.append("an API key appeared in: %s" % sorted(set(leaks)))
    if "Fatal error" in "".join(stderr_text) or code < 0:
        problems.append("the worker crashed")

    print("soak (%s): %d lines in %.1f s, %d requests with ids, %d answers, %d unanswered%s, exit %d" % (
        variant, count if stop_at is None else stop_at + 1, elapsed, sum(lines.sent.values()), sum(answers.values()),
        len(unanswered), " (the unread suffix after SIGTERM)" if variant == "sigterm" else "", code))
    print("  error codes: %s" % ", ".join("%d×%d" % (code, times) for code, times in sorted(codes.items())))
    tenth = rss.get("10%", {"peak": 0, "anon": 0, "file": 0})
    print("  peak RSS: %.1f MiB at 10 %% of the lines, %.1f MiB at the end" % (tenth["peak"], rss["end"]["peak"]))
    print("  resident now, own (anonymous) + mapped files: %.1f + %.1f MiB at 10 %%, %.1f + %.1f MiB at the end" % (
        tenth["anon"], tenth["file"], rss["end"]["anon"], rss["end"]["file"]))
    marks = sorted((int(mark[:-1]), figures) for mark, figures in rss.items() if mark.endswith("%"))
    print("  peak RSS by tenth of the lines (MiB): %s" % " ".join("%.0f" % figures["peak"] for _, figures in marks))
    print("  own memory by tenth of the lines (MiB): %s" % " ".join("%.0f" % figures["anon"] for _, figures in marks))
    print("  upstream: %d calls, %d faults injected (%s)" % (
        upstream.calls, sum(upstream.faults.values()), ", ".join("%s %d" % item for item in sorted(upstream.faults.items()))))
    for problem in problems:
        print("  FAILED: " + problem)
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--faults", type=float, default=0.2)
    parser.add_argument("--variant", choices=["eof", "sigterm", "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    variants = ["eof", "sigterm"] if options.variant == "both" else [options.variant]
    ok = all([soak(options.worker, options.lines, variant, options.faults, options.seed) for variant in variants])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
