"""The job runners' benchmark (issue 40). Prints figures and ratios against baselines measured in the same run;
asserts nothing (the machines are shared and noisy).

1. The filter: 100,000 cached lines through `pipe boxoffice.daily` (bare dates) beside the same jobs as pipelined
   JSON-RPC requests (unordered, and --ordered, which is what pipe's in-order output costs), wall and CPU time.
   Target: pipe >= 0.9 x the JSON-RPC face's throughput.
2. Celery: the per-task overhead over a direct client call, p50, with a prefork pool of 1 and a real Redis (both
   answering from the worker's memory). Target: <= 2 ms.
3. A 365-day backfill as Celery tasks against a fake upstream that answers after 50 ms, through 4 pool processes
   beside 1, each from an empty cache. Target: >= 3 x.

    python3 Benchmarks/jobs_bench.py --worker .build/lean/boxoffice-worker [--lines 100000] [--quick]
"""
import argparse
import datetime
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Jobs"))
sys.path.insert(0, str(ROOT / "clients" / "python"))


def timed(argv, input_path, env):
    """Runs `argv` with stdin from `input_path` and stdout thrown away; (wall seconds, CPU seconds of the child)."""
    with open(input_path, "rb") as stdin, open(os.devnull, "wb") as devnull:
        started = time.monotonic()
        child = subprocess.Popen(argv, stdin=stdin, stdout=devnull, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    stderr = child.stderr.read()
    child.stderr.close()
    if child.returncode not in (0, 2):
        raise SystemExit("%s failed (%d): %s" % (argv, child.returncode, stderr.decode(errors="replace")[-500:]))
    return wall, usage.ru_utime + usage.ru_stime


def filter_throughput(worker, lines, rounds, folder):
    env = dict(os.environ, BOXOFFICE_TODAY="2026-11-21", KOBIS_API_KEY="", BOXOFFICE_LOG_LEVEL="error")
    bare = folder / "bare.txt"
    bare.write_text("2023-04-26\n" * lines)
    rpc = folder / "rpc.ndjson"
    with open(rpc, "w") as out:
        for number in range(lines):
            out.write('{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2023-04-26"}}\n' % number)
    faces = {
        "pipe boxoffice.daily (bare dates)": ([worker, "pipe", "boxoffice.daily", "--offline"], bare),
        "JSON-RPC, pipelined": ([worker, "--offline"], rpc),
        "JSON-RPC, pipelined, --ordered": ([worker, "--offline", "--ordered"], rpc),
    }
    results = {name: [] for name in faces}
    for _ in range(rounds):
        for name, (argv, path) in faces.items():
            results[name].append(timed(argv, path, env))
    print("1. The filter: %d cached lines (offline 2023-04-26, answered from memory), best of %d" % (lines, rounds))
    best = {}
    for name, runs in results.items():
        wall = min(run[0] for run in runs)
        cpu = min(run[1] for run in runs)
        best[name] = (wall, cpu)
        print("   %-36s %8.0f lines/s  wall %6.3f s (%.3f-%.3f)  CPU %6.3f s" % (
            name, lines / wall, wall, min(r[0] for r in runs), max(r[0] for r in runs), cpu))
    pipe = best["pipe boxoffice.daily (bare dates)"]
    for baseline in ("JSON-RPC, pipelined", "JSON-RPC, pipelined, --ordered"):
        other = best[baseline]
        print("   pipe / %-30s throughput %.2f x, CPU per line %.2f x" % (baseline, other[0] / pipe[0],
                                                                           pipe[1] / other[1]))


def celery_figures(worker, tasks, days):
    from celery import Celery

    from jobs_testing import environment, fake_upstream, live
    from runners_testing import RedisServer, celery_worker, runner_environment, wait_until
    from boxoffice_worker import Worker

    folder = pathlib.Path(tempfile.mkdtemp(prefix="boxoffice-jobs-bench-", dir=ROOT / "Benchmarks" / "out"))
    redis = RedisServer(folder)
    try:
        # 2. Overhead: one pool process, the worker offline (every answer from memory after the first).
        offline = environment({"BOXOFFICE_WORKER_ARGS": "--offline", "BOXOFFICE_TODAY": "2026-11-21"})
        runner = celery_worker(runner_environment(offline, redis, {"BOXOFFICE_WORKER": worker}), folder / "c1.log",
                               concurrency=1)
        app = Celery("bench", broker=redis.url + "/0", backend=redis.url + "/1")
        params = {"date": "2023-04-26"}
        try:
            app.send_task("boxoffice.daily", kwargs=params).get(timeout=60)  # the pool's worker started
            celery, floor = [], []
            for _ in range(tasks):
                started = time.perf_counter()
                app.send_task("boxoffice.daily", kwargs=params).get(timeout=60)
                celery.append(time.perf_counter() - started)
                # Celery's own round trip, for scale: its built-in celery.accumulate returns its argument.
                started = time.perf_counter()
                app.send_task("celery.accumulate", args=(1,)).get(timeout=60)
                floor.append(time.perf_counter() - started)
        finally:
            runner.stop()
        with Worker(worker, args=["--offline"], env=offline) as direct:
            direct.call("boxoffice.daily", params)
            calls = []
            for _ in range(tasks):
                started = time.perf_counter()
                direct.call("boxoffice.daily", params)
                calls.append(time.perf_counter() - started)
        p50 = lambda values: statistics.median(values) * 1000  # noqa: E731
        p90 = lambda values: sorted(values)[int(len(values) * 0.9)] * 1000  # noqa: E731
        print("2. Celery (prefork pool of 1, Redis on loopback), %d sequential tasks, boxoffice.daily from memory" % tasks)
        print("   direct client call   p50 %6.2f ms  p90 %6.2f ms" % (p50(calls), p90(calls)))
        print("   Celery task          p50 %6.2f ms  p90 %6.2f ms" % (p50(celery), p90(celery)))
        print("   celery.accumulate    p50 %6.2f ms  p90 %6.2f ms  (Celery's own round trip: no worker call)" % (
            p50(floor), p90(floor)))
        print("   overhead per task    p50 %6.2f ms over the direct call; %.2f ms over Celery's own round trip" % (
            p50(celery) - p50(calls), p50(celery) - p50(floor)))

        # 3. A backfill through 1 and 4 pool processes, each from an empty cache, the upstream 50 ms away.
        upstream = fake_upstream.Running(delay_ms=50)
        try:
            spans = {}
            for concurrency in (1, 4):
                cache = folder / ("cache-%d" % concurrency)
                env = runner_environment(live(upstream, cache), redis, {"BOXOFFICE_WORKER": worker})
                runner = celery_worker(env, folder / ("c%d.log" % concurrency), concurrency=concurrency)
                try:
                    app.send_task("ping").get(timeout=60)
                    started = time.monotonic()
                    dates = [(datetime.date(2022, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(days)]
                    results = [app.send_task("boxoffice.daily", kwargs={"date": day}) for day in dates]
                    for result in results:
                        result.get(timeout=600)
                    spans[concurrency] = time.monotonic() - started
                finally:
                    runner.stop()
            print("3. A %d-day backfill as Celery tasks, the upstream 50 ms away, from an empty cache" % days)
            for concurrency, span in spans.items():
                print("   %d pool process%s  %6.2f s  (%.1f days/s)" % (concurrency, "" if concurrency == 1 else "es",
                                                                     span, days / span))
            print("   4 / 1 pool processes: %.2f x" % (spans[1] / spans[4]))
        finally:
            upstream.stop()
    finally:
        redis.stop()
        subprocess.run(["rm", "-rf", str(folder)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=500)
    parser.add_argument("--days", type=int, default=365)
    options = parser.parse_args()
    worker = os.path.abspath(options.worker)
    (ROOT / "Benchmarks" / "out").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="boxoffice-jobs-bench-", dir=ROOT / "Benchmarks" / "out") as work:
        filter_throughput(worker, options.lines, options.rounds, pathlib.Path(work))
    celery_figures(worker, options.tasks, options.days)


if __name__ == "__main__":
    main()
