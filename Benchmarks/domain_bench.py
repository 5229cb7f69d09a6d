"""Domain benchmark: offline boxoffice.daily throughput, and the worker's overhead over a loopback upstream.

Offline: N boxoffice.daily requests piped through the worker (embedded fixtures), requests/s. After the first, each is
answered from the text the worker keeps for the cached body (see AnswerMemo), as a repeated question is in real use.
Live: a fake KOBIS on 127.0.0.1 (Python, keep-alive) serves a recorded daily body. The same run measures a direct
HTTP GET of it (the upstream's own time, as a client sees it) and a boxoffice.daily round trip through the worker
(one request in, one answer out, repeated, each with refresh: true so it really goes upstream). The worker's
overhead is the difference of the medians; the worker's CPU per uncached call is its user + system time over the
measured calls (/proc/PID/stat), divided by their number.
"""
import argparse
import http.client
import http.server
import os
import statistics
import subprocess
import threading
import time

import cache_bench

BODY_PATH = None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per answer would still meet delayed ACKs with Nagle on: 40 ms per request.
    disable_nagle_algorithm = True
    body = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json;charset=UTF-8")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


def offline_throughput(worker, count):
    lines = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}\n' % i for i in range(count))
    start = time.perf_counter()
    result = subprocess.run([worker, "--offline", "--today", "2026-11-21"], input=lines, capture_output=True, check=True)
    elapsed = time.perf_counter() - start
    answered = result.stdout.count(b"\n")
    return answered / elapsed, answered


def direct_p50(port, rounds):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        connection.request("GET", "/kobis/boxoffice/searchDailyBoxOfficeList.json?targetDt=20220105&key=x")
        connection.getresponse().read()
        samples.append(time.perf_counter_ns() - start)
    connection.close()
    return statistics.median(samples) / 1000


def process_cpu_seconds(pid):
    """utime + stime of a live process and all its threads, from /proc/PID/stat (fields 14 and 15, in clock ticks)."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_p50(worker, port, rounds):
    # refresh: every request goes upstream, past the cache (a private one, with a budget the rounds cannot spend).
    environment = dict(os.environ, KOBIS_API_KEY="bench-key", KOBIS_BASE_URL="http://127.0.0.1:%d/kobis" % port,
                       BOXOFFICE_CACHE_DIR=cache_bench.fresh_cache())
    process = subprocess.Popen([worker, "--today", "2026-11-21", "--kobis-daily-limit", "1000000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=environment)
    samples = []
    cpu_start = None
    for index in range(rounds):
        if index == rounds // 10:
            cpu_start = process_cpu_seconds(process.pid)
        line = b'{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05","refresh":true}}\n' % index
        start = time.perf_counter_ns()
        process.stdin.write(line)
        process.stdin.flush()
        answer = process.stdout.readline()
        samples.append(time.perf_counter_ns() - start)
        if b'"error"' in answer:
            raise SystemExit("worker answered an error: %s" % answer[:300])
    # The worker's own CPU (user + system, all its threads) over the measured calls, read before it exits.
    cpu = process_cpu_seconds(process.pid) - cpu_start
    process.stdin.close()
    process.wait()
    measured = rounds - rounds // 10
    return statistics.median(samples[rounds // 10:]) / 1000, cpu / measured * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--body", required=True)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2000)
    options = parser.parse_args()

    rate, answered = offline_throughput(options.worker, options.requests)
    print("offline boxoffice.daily through the pipe: %d answered, %.0f requests/s [target >= 5000]" % (answered, rate))

    with open(options.body, "rb") as handle:
        Handler.body = handle.read()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    direct = direct_p50(port, options.rounds)
    through, cpu = worker_p50(options.worker, port, options.rounds)
    server.shutdown()
    print("loopback upstream, direct GET p50:        %8.1f µs (the upstream's own time, Python client)" % direct)
    print("boxoffice.daily through the worker p50:  %8.1f µs" % through)
    print("worker overhead over the upstream, p50:  %8.1f µs [target <= 250 µs]" % (through - direct))
    print("the worker's CPU per uncached call:      %8.1f µs [target <= 300 µs] (user + system, every thread)" % cpu)


if __name__ == "__main__":
    main()
