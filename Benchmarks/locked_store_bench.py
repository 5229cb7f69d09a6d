#!/usr/bin/env python3
"""Answer latency while another process holds the cache database's write lock (the figure OrderlyStopTests used to
assert; a test now shows only that the answers come while the lock is held).

A live worker against the fake upstream (clients/testing/fake_upstream.py) on a fresh SQLite cache directory. Each
round: the baseline, `ping` and `worker.status` round trips with the database free; then another process (Python's
sqlite3) takes the write lock, a `movie.detail` needing the store is sent, and the same round trips are timed while
the lock is held; then the lock goes. Prints p50/p90/max of both and their ratio. Asserts nothing.

    python3 Benchmarks/locked_store_bench.py --worker PATH [--rounds 5] [--calls 40]
"""
import argparse
import json
import os
import pathlib
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
import fake_upstream  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Worker:
    def __init__(self, binary, env):
        self.process = subprocess.Popen([binary, "--today", "2026-11-21", "--timeout", "10"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
                                        bufsize=1)
        self.next_id = 0

    def send(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        return self.next_id

    def answer(self, wanted):
        """Reads until the answer to `wanted`; the others read on the way are returned beside it."""
        others = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the worker ended")
            message = json.loads(line)
            if message.get("id") == wanted:
                return message, others
            others.append(message)

    def round_trips(self, count):
        latencies = []
        for index in range(count):
            started = time.perf_counter()
            self.answer(self.send("ping" if index % 2 == 0 else "worker.status"))
            latencies.append((time.perf_counter() - started) * 1000)
        return latencies

    def stop(self):
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=40)
    options = parser.parse_args()
    upstream = fake_upstream.Running(delay_ms=5)
    cache = tempfile.mkdtemp(prefix="boxoffice-locked-bench-")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    env.update(KOBIS_API_KEY="bench-key", KOBIS_BASE_URL=upstream.base + "/kobis", BOXOFFICE_CACHE_DIR=cache)
    free, locked = [], []
    try:
        worker = Worker(options.worker, env)
        worker.round_trips(10)  # warm: the store is open, the schemas compiled
        database = pathlib.Path(cache) / "cache.sqlite"
        codes = ["20124079", "20199882", "20112207", "20226270", "20210028", "20218390", "20192354", "20225865"]
        for round_index in range(options.rounds):
            free += worker.round_trips(options.calls)
            holder = sqlite3.connect(str(database), isolation_level=None, timeout=10)
            holder.execute("BEGIN IMMEDIATE")
            detail = worker.send("movie.detail", {"movieCode": codes[round_index % len(codes)], "refresh": True})
            locked += worker.round_trips(options.calls)
            holder.execute("COMMIT")
            holder.close()
            worker.answer(detail)
        worker.stop()
    finally:
        upstream.stop()
        shutil.rmtree(cache, ignore_errors=True)

    def line(name, values):
        return "  %-30s p50 %7.3f ms   p90 %7.3f ms   max %8.3f ms   (%d round trips)" % (
            name, statistics.median(values), percentile(values, 0.9), max(values), len(values))

    print("ping / worker.status round trips, live worker, SQLite cache")
    print(line("database free (baseline)", free))
    print(line("write lock held elsewhere", locked))
    print("  ratio p50 locked/free: %.2f x; the contract: answers while the lock is held, p50 under 50 ms" % (
        statistics.median(locked) / statistics.median(free)))


if __name__ == "__main__":
    main()
