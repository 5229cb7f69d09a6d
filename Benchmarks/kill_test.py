"""Crash-safe storage: SIGKILLs live workers in the middle of bursts of fetches (write-behind pending) ROUNDS times on
one cache directory, and after each kill checks what a host may rely on; prints the figures and exits 1 on a broken
rule.

After each kill: `PRAGMA integrity_check` is `ok`; every answer the host received before the kill whose body was
committed to the database is served from the cache by the next worker, with no upstream call; the next worker starts
and serves. Across all of it: the shared quota count never passes the limit, and the KOBIS calls the fake upstream
saw are printed beside it (a kill can lose the spends of the last few milliseconds; the leases of killed workers come
back after --lease-seconds).
"""
import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "testing"))
import fake_upstream  # noqa: E402

import cache_bench  # noqa: E402

PAST = ["%04d-%02d-%02d" % (year, month, day) for year in range(2019, 2026) for month in range(1, 13)
        for day in range(1, 29)]


def spawn(worker, upstream, cache, limit):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_"))}
    env.update({"KOBIS_API_KEY": "kill-test-key", "KOBIS_BASE_URL": upstream.base + "/kobis",
                "KAKAO_BASE_URL": upstream.base + "/kakao", "BOXOFFICE_TODAY": "2026-11-21",
                "BOXOFFICE_CACHE_DIR": cache})
    return subprocess.Popen([worker, "--kobis-daily-limit", str(limit), "--lease-seconds", "2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)


def key(date):
    return "kobis /boxoffice/searchDailyBoxOfficeList.json itemPerPage=10&targetDt=%s" % date.replace("-", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--limit", type=int, default=400)
    options = parser.parse_args()
    upstream = fake_upstream.Running(delay_ms=5)
    cache = cache_bench.fresh_cache()
    database = os.path.join(cache, "cache.sqlite")
    dates = iter(PAST)
    integrity_ok = 0
    lost = 0
    checked = 0
    failures = []
    for round_index in range(options.rounds):
        worker = spawn(options.worker, upstream, cache, options.limit)
        burst = [next(dates) for _ in range(options.burst)]
        for index, date in enumerate(burst):
            worker.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"%s"}}\n'
                               % (index, date.encode()))
        worker.stdin.flush()
        wanted = random.randint(1, options.burst - 1)
        received = []
        answered = 0
        while answered < wanted:
            answer = json.loads(worker.stdout.readline())
            answered += 1
            if "result" in answer:
                received.append(burst[answer["id"]])
        time.sleep(random.uniform(0, 0.02))  # somewhere in the write-behind's gathering or its transaction
        worker.send_signal(signal.SIGKILL)
        worker.wait()

        with sqlite3.connect(database) as connection:
            integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
            committed = {row[0] for row in connection.execute("SELECT key FROM upstream")}
        if integrity == "ok":
            integrity_ok += 1
        else:
            failures.append("round %d: integrity_check says %s" % (round_index, integrity))
        kept = [date for date in received if key(date) in committed]
        checked += len(kept)
        before = upstream.counts()["kobis"]
        survivor = spawn(options.worker, upstream, cache, options.limit)
        for index, date in enumerate(kept):
            survivor.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"%s"}}\n'
                                 % (index, date.encode()))
        survivor.stdin.write(b'{"jsonrpc":"2.0","id":"ping","method":"ping"}\n')
        out, _ = survivor.communicate(timeout=60)
        answers = [json.loads(line) for line in out.splitlines()]
        served = [answer for answer in answers if answer.get("id") != "ping"]
        if not any(answer.get("id") == "ping" for answer in answers) or survivor.returncode != 0:
            failures.append("round %d: the next worker did not start and serve (exit %s)" % (
                round_index, survivor.returncode))
        for answer in served:
            if answer.get("result", {}).get("source", {}).get("origin") != "cache":
                lost += 1
        if upstream.counts()["kobis"] != before:
            failures.append("round %d: a committed answer went upstream again" % round_index)

    with sqlite3.connect(database) as connection:
        allotted = connection.execute("SELECT COALESCE(MAX(allotted), 0) FROM quota_days").fetchone()[0]
    calls = upstream.counts()["kobis"]
    upstream.stop()
    print("kill test: %d rounds of a %d-request burst, SIGKILL after 1..%d answers (results or quota_exhausted)" % (
        options.rounds, options.burst, options.burst - 1))
    print("  integrity_check ok:              %d of %d" % (integrity_ok, options.rounds))
    print("  committed answers served again:  %d of %d from the cache (%d lost)" % (checked - lost, checked, lost))
    print("  shared quota count: %d of a limit of %d; KOBIS calls the upstream saw: %d" % (
        allotted, options.limit, calls))
    if allotted > options.limit:
        failures.append("the shared count passed the limit")
    for failure in failures:
        print("  FAILED: " + failure)
    return 1 if failures or lost else 0


if __name__ == "__main__":
    sys.exit(main())
