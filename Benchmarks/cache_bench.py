"""Cache and fan-out benchmark: figures printed side by side with their baselines; asserts nothing.

Fan-out: a fake KOBIS and a fake Kakao on 127.0.0.1 (Python asyncio, keep-alive) add DELAY ms to every call.
boxoffice.daily with include ["detail","poster"] for 10 entries, cold cache (a fresh cache directory and a fresh
worker each round): its time against the two-round-trip floor (the daily call, then details and posters together:
2 x DELAY), and against the sequential pattern of the original apps (21 calls one after another), measured directly
against the same servers.
Warm cache: N identical boxoffice.daily requests piped through a live worker whose cache already holds the day
(requests/s), and a cached answer's round trip (p50) measured by pingpong.c, beside a ping's in the same run.
"""
import argparse
import asyncio
import atexit
import http.client
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

SHARED = None
FIXTURES = None
DELAY = 0.05
DAILY_LINE = '{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}'


def read(*candidates):
    for path in candidates:
        if path and os.path.exists(path):
            with open(path, "rb") as handle:
                return handle.read()
    return None


def respond(path, query):
    if path.endswith("searchDailyBoxOfficeList.json"):
        return read(os.path.join(SHARED, "daily-20220105.json"), os.path.join(FIXTURES, "kobis/daily-20220105.json"))
    if path.endswith("searchMovieInfo.json"):
        code = query.get("movieCd", "")
        return read(os.path.join(SHARED, "movieinfo-%s.json" % code), os.path.join(FIXTURES, "kobis/movie-%s.json" % code))
    if path.endswith("/v2/search/image"):
        return read(os.path.join(SHARED, "kakao-image-gwanghae-10docs.json"), os.path.join(FIXTURES, "kakao/poster-1.json"))
    return None


def handler(answer, delay=lambda: DELAY):
    """A connection handler answering each GET with `answer(path, query)` (bytes, or None for a 404) after
    `delay()` seconds: other benchmarks serve their own bodies through it."""

    async def serve(reader, writer):
        await handle(reader, writer, answer, delay)

    return serve


async def handle(reader, writer, answer=None, delay=None):
    """One keep-alive HTTP/1.1 connection: each GET answered after DELAY, without holding up the others."""
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            target = head.split(b" ", 2)[1].decode()
            path, _, raw = target.partition("?")
            query = dict(part.split("=", 1) for part in raw.split("&") if "=" in part)
            await asyncio.sleep(delay() if delay else DELAY)
            body = (answer or respond)(path, query)
            status = b"200 OK" if body else b"404 Not Found"
            body = body or b"{}"
            writer.write(b"HTTP/1.1 %s\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: %d\r\n\r\n" % (status, len(body)) + body)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


class Server:
    """A fake upstream on 127.0.0.1: one asyncio loop in a thread of its own, so the server's own cost stays small
    beside DELAY (a thread per connection, as http.server does, costs milliseconds when twenty wake at once)."""

    def __init__(self, handler=None):
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(
                asyncio.start_server(handler or handle, "127.0.0.1", 0, backlog=256))
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait()

    def shutdown(self):
        self.loop.call_soon_threadsafe(self.loop.stop)


def serve():
    return Server()


def fresh_cache():
    """A cache directory of its own, removed when the benchmark exits (they were left in /tmp, hundreds a day)."""
    path = tempfile.mkdtemp(prefix="boxoffice-bench-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def environment(kobis, kakao, cache):
    return dict(os.environ, KOBIS_API_KEY="bench-kobis-key", KAKAO_REST_API_KEY="bench-kakao-key",
                KOBIS_BASE_URL="http://127.0.0.1:%d" % kobis.port,
                KAKAO_BASE_URL="http://127.0.0.1:%d" % kakao.port, BOXOFFICE_CACHE_DIR=cache)


def start(worker, env):
    return subprocess.Popen([worker, "--today", "2026-11-21", "--kobis-daily-limit", "1000000"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)


def ask(process, line):
    process.stdin.write(line.encode() + b"\n")
    process.stdin.flush()
    return process.stdout.readline()


def fan_out(worker, kobis, kakao, rounds):
    samples = []
    for round_index in range(rounds):
        process = start(worker, environment(kobis, kakao, fresh_cache()))
        ask(process, '{"jsonrpc":"2.0","id":0,"method":"ping"}')  # started and ready
        begin = time.perf_counter()
        answer = ask(process, '{"jsonrpc":"2.0","id":1,"method":"boxoffice.daily","params":{"date":"2022-01-05","include":["detail","poster"]}}')
        samples.append(time.perf_counter() - begin)
        process.stdin.close()
        process.wait()
        entries = json.loads(answer)["result"]["entries"]
        complete = sum(1 for entry in entries if entry.get("detail") and entry.get("poster") and not entry.get("errors"))
        if complete != 10:
            raise SystemExit("fan-out round %d: %d of %d entries complete" % (round_index, complete, len(entries)))
    return statistics.median(samples) * 1000


async def get(port, target):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % target.encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = int([line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")][0].split(b":")[1])
    body = await reader.readexactly(length)
    writer.close()
    return body


def direct_fan_out(kobis, kakao, rounds):
    """The same two waves made directly by a small asyncio client, on new connections like a cold worker's: the
    floor as this fake upstream and this machine allow it (the server's own work included)."""
    daily = json.loads(read(os.path.join(SHARED, "daily-20220105.json"), os.path.join(FIXTURES, "kobis/daily-20220105.json")))
    codes = [row["movieCd"] for row in daily["boxOfficeResult"]["dailyBoxOfficeList"]]

    async def once():
        await get(kobis.port, "/boxoffice/searchDailyBoxOfficeList.json?targetDt=20220105&key=x")
        await asyncio.gather(*[get(kobis.port, "/movie/searchMovieInfo.json?movieCd=%s&key=x" % code) for code in codes],
                             *[get(kakao.port, "/v2/search/image?query=%s&size=1" % code) for code in codes])

    samples = []
    for _ in range(rounds):
        begin = time.perf_counter()
        asyncio.run(once())
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples) * 1000


def sequential(kobis, kakao, rounds):
    """The original apps' pattern: the daily list, then each detail, then each poster, one call after another."""
    daily = json.loads(read(os.path.join(SHARED, "daily-20220105.json"), os.path.join(FIXTURES, "kobis/daily-20220105.json")))
    codes = [row["movieCd"] for row in daily["boxOfficeResult"]["dailyBoxOfficeList"]]
    samples = []
    for _ in range(rounds):
        to_kobis = http.client.HTTPConnection("127.0.0.1", kobis.port)
        to_kakao = http.client.HTTPConnection("127.0.0.1", kakao.port)
        begin = time.perf_counter()
        to_kobis.request("GET", "/boxoffice/searchDailyBoxOfficeList.json?targetDt=20220105&key=x")
        to_kobis.getresponse().read()
        for code in codes:
            to_kobis.request("GET", "/movie/searchMovieInfo.json?movieCd=%s&key=x" % code)
            to_kobis.getresponse().read()
        for code in codes:
            to_kakao.request("GET", "/v2/search/image?query=%s&size=1" % code)
            to_kakao.getresponse().read()
        samples.append(time.perf_counter() - begin)
        to_kobis.close()
        to_kakao.close()
    return statistics.median(samples) * 1000


def warm_throughput(worker, env, count):
    lines = "".join(DAILY_LINE % index + "\n" for index in range(count)).encode()
    begin = time.perf_counter()
    result = subprocess.run([worker, "--today", "2026-11-21"], input=lines, capture_output=True, check=True, env=env)
    elapsed = time.perf_counter() - begin
    answered = result.stdout.count(b"\n")
    if b'"origin":"kobis"' in result.stdout:
        raise SystemExit("the warm run went upstream")
    return answered / elapsed, answered


def pingpong(binary, command, env, rounds, request=None):
    env = dict(env)
    if request:
        env["PINGPONG_REQUEST"] = request
    output = subprocess.run([binary, str(rounds), "1", "--"] + command, check=True, capture_output=True, env=env).stdout
    return json.loads(output)["p50_us"]


def main():
    global SHARED, FIXTURES, DELAY
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--pingpong", required=True)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--delay-ms", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=50000)
    parser.add_argument("--pings", type=int, default=5000)
    options = parser.parse_args()
    SHARED, FIXTURES, DELAY = options.shared, options.fixtures, options.delay_ms / 1000

    kobis, kakao = serve(), serve()
    floor = 2 * options.delay_ms
    fanned = fan_out(options.worker, kobis, kakao, options.rounds)
    one_by_one = sequential(kobis, kakao, max(1, options.rounds // 2))
    direct = direct_fan_out(kobis, kakao, options.rounds)
    print("fan-out, cold cache, upstream +%.0f ms per call: boxoffice.daily with 10 details and 10 posters" % options.delay_ms)
    print("  worker p50:               %7.1f ms   floor (2 round trips) %.0f ms -> %.2f x the floor [target <= 1.25]" % (fanned, floor, fanned / floor))
    print("  the same calls made directly (asyncio client): %.1f ms -> the worker is %.2f x that" % (direct, fanned / direct))
    print("  21 calls one after another: %5.1f ms   -> the worker is %.1f x faster" % (one_by_one, one_by_one / fanned))

    # Warm: one process fills the cache, then the measured runs read it.
    DELAY = 0
    env = environment(kobis, kakao, fresh_cache())
    filler = start(options.worker, env)
    ask(filler, DAILY_LINE % 0)
    filler.stdin.close()
    filler.wait()
    rate, answered = warm_throughput(options.worker, env, options.requests)
    print("warm cache, boxoffice.daily through the pipe: %d answered, %.0f requests/s [target >= 10000]" % (answered, rate))
    command = [options.worker, "--today", "2026-11-21"]
    ping = pingpong(options.pingpong, command, env, options.pings)
    cached = pingpong(options.pingpong, command, env, options.pings, DAILY_LINE)
    floor_cat = pingpong(options.pingpong, ["/bin/cat"], env, options.pings)
    print("warm cache, a cached boxoffice.daily round trip p50: %.1f µs [target <= 100]; a ping %.1f µs; cat %.1f µs (the pipe's floor)" % (cached, ping, floor_cat))
    kobis.shutdown()
    kakao.shutdown()


if __name__ == "__main__":
    main()
