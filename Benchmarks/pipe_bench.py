"""Pipes request lines through the worker and its two baselines; prints figures and ratios.

Throughput: best of three runs of the whole input through each program, stdout to /dev/null.
Ping-pong and cold start: measured by Benchmarks/pingpong.c (a C client, so the client adds little): one line
  written, one line read, repeated; and spawn to first response line, median of many spawns. `cat` is measured too:
  it does no work, so its round trip is this machine's floor (pipe wake-ups of two processes).
Peak RSS: ru_maxrss of the program's process (wait4), at a small and the full input, to show whether it grows.
"""
import argparse
import json
import shutil
import tempfile
import os
import subprocess
import time


def make_input(path, count):
    with open(path, "w") as handle:
        for index in range(count):
            handle.write('{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % index)


def run_through(command, input_path):
    """Runs command with stdin from the file and stdout to /dev/null; (seconds, peak RSS in KiB).

    The peak RSS comes from GNU time, not from wait4 here: Linux keeps a process's high-water mark across exec, so
    a child forked from this Python process would report Python's own memory.
    """
    with open(input_path, "rb") as source, open(os.devnull, "wb") as sink:
        start = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdin=source, stdout=sink, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit("%s exited with status %d" % (command[0], process.returncode))
    return elapsed, int(process.stderr.decode().strip().splitlines()[-1])


def interactive(pingpong, command, rounds, spawns):
    """(p50 µs, p99 µs, cold start ms) from the C ping-pong client."""
    output = subprocess.run([pingpong, str(rounds), str(spawns), "--"] + command, check=True, capture_output=True).stdout
    figures = json.loads(output)
    return figures["p50_us"], figures["p99_us"], figures["cold_p50_ms"]


def live_cold_start(pingpong, worker, spawns):
    """Cold start of the live worker (a key set, so the HTTP client and the cache database are set up) with a cache
    directory that already exists, as a host's second and later spawns see it. The key and base URL are dummies:
    a ping makes no upstream call."""
    cache = tempfile.mkdtemp(prefix="boxoffice-bench-cache-")
    environment = dict(os.environ, KOBIS_API_KEY="bench-dummy-key", KOBIS_BASE_URL="http://127.0.0.1:9",
                       BOXOFFICE_CACHE_DIR=cache)
    try:
        output = subprocess.run([pingpong, "10", str(spawns), "--", worker], check=True, capture_output=True,
                                env=environment).stdout
        return json.loads(output)["cold_p50_ms"]
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--jansson", required=True)
    parser.add_argument("--pingpong", required=True)
    parser.add_argument("--lines", type=int, default=1000000)
    parser.add_argument("--work", default="/tmp")
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--spawns", type=int, default=40)
    options = parser.parse_args()

    small, full = os.path.join(options.work, "ping-small.ndjson"), os.path.join(options.work, "ping-full.ndjson")
    small_count = max(1000, options.lines // 10)
    make_input(small, small_count)
    make_input(full, options.lines)

    programs = {
        "boxoffice-worker": ([options.worker], [options.worker]),
        "C Jansson loop": ([options.jansson], [options.jansson, "--unbuffered"]),
        "jq -c .": (["jq", "-c", "."], ["jq", "-c", "--unbuffered", "."]),
        "cat (floor)": (["cat"], ["cat"]),
    }
    print("machine: %d cores; input: %d ping lines (%d bytes)" % (os.cpu_count(), options.lines, os.path.getsize(full)))
    results = {}
    for name, (batch, live) in programs.items():
        runs = [run_through(batch, full) for _ in range(3)]
        seconds = min(run[0] for run in runs)
        rss_full = max(run[1] for run in runs)
        _, rss_small = run_through(batch, small)
        p50, p99, cold = interactive(options.pingpong, live, options.rounds, options.spawns)
        results[name] = {
            "lines/s": options.lines / seconds, "p50": p50, "p99": p99, "cold": cold,
            "rss_small": rss_small / 1024, "rss_full": rss_full / 1024,
        }

    print()
    print("%-18s %12s %10s %10s %12s %14s %14s" % (
        "program", "lines/s", "p50 µs", "p99 µs", "cold ms", "RSS@%dk MB" % (small_count // 1000), "RSS@%dk MB" % (options.lines // 1000)))
    for name, figures in results.items():
        print("%-18s %12.0f %10.1f %10.1f %12.2f %14.1f %14.1f" % (
            name, figures["lines/s"], figures["p50"], figures["p99"], figures["cold"], figures["rss_small"], figures["rss_full"]))

    worker = results["boxoffice-worker"]
    c_loop = results["C Jansson loop"]
    jq = results["jq -c ."]
    print()
    print("ratios (target in brackets)")
    print("  worker / C Jansson loop throughput: %.2f   [>= 0.5]" % (worker["lines/s"] / c_loop["lines/s"]))
    print("  worker / jq throughput:             %.2f   [>= 1.0]" % (worker["lines/s"] / jq["lines/s"]))
    floor = results["cat (floor)"]
    print("  worker ping-pong p50:               %.1f µs [<= 50]   (C loop %.1f, jq %.1f, cat %.1f)" % (
        worker["p50"], c_loop["p50"], jq["p50"], floor["p50"]))
    print("  worker ping-pong p50 over cat:      %+.1f µs           (the worker's own share of a round trip)" % (
        worker["p50"] - floor["p50"]))
    print("  worker cold start, offline:         %.2f ms [<= 5]    (C loop %.2f, jq %.2f)" % (worker["cold"], c_loop["cold"], jq["cold"]))
    live_cold = live_cold_start(options.pingpong, options.worker, options.spawns)
    print("  worker cold start, live + cache:    %.2f ms [<= 8]    (C loop %.2f, jq %.2f)" % (live_cold, c_loop["cold"], jq["cold"]))
    print("  worker peak RSS at %d lines:   %.1f MB [<= 30, flat] (%.1f MB at %d lines)" % (
        options.lines, worker["rss_full"], worker["rss_small"], small_count))


if __name__ == "__main__":
    main()
