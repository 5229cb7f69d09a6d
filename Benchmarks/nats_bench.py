"""The NATS adapter's benchmark (issue 44). Prints figures and ratios against baselines measured in the same run;
asserts nothing (the machines are shared and noisy).

1. Latency: a cached `boxoffice.daily` over NATS request/reply (client -> nats-server -> adapter -> worker and
   back), p50 and p99 of sequential requests, beside the same call on the JSON-RPC face (the Python client on the
   worker's stdin/stdout). Target: p50 <= 0.5 ms.
2. Throughput: cached `boxoffice.daily` with four adapters (one worker each) in the queue group, requests kept in
   flight by two client processes, beside one worker's JSON-RPC face driven the same way. Target: >= 10,000
   requests/s.
3. A 365-day backfill as JetStream jobs against a fake upstream that answers after 50 ms, through three adapters
   beside one (each 4 jobs at a time, an empty cache each). Target: >= 2.5 x.

    python3 Benchmarks/nats_bench.py --worker .build/lean/boxoffice-worker [--quick]
"""
import argparse
import asyncio
import datetime
import json
import multiprocessing
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "NATS"))
sys.path.insert(0, str(ROOT / "clients" / "python"))

PARAMS = {"date": "2023-04-26"}
PAYLOAD = json.dumps(PARAMS).encode()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def nats_latency(url, count, subject="kobis.boxoffice.daily"):
    import nats
    client = await nats.connect(url)
    try:
        for _ in range(200):
            await client.request(subject, PAYLOAD, timeout=10)
        times = []
        for _ in range(count):
            started = time.perf_counter()
            await client.request(subject, PAYLOAD, timeout=10)
            times.append(time.perf_counter() - started)
        return times
    finally:
        await client.close()


def echo_responder(url, ready, stop):
    """A bare nats-py responder in a process of its own: the floor of a Python client and a Python responder."""
    async def serve():
        import nats
        client = await nats.connect(url)

        async def echo(message):
            await client.publish(message.reply, b"{}")

        await client.subscribe("bench.echo", queue="bench", cb=echo)
        await client.flush()
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)  # sleep-ok: the benchmark's stop flag, polled
        await client.close()

    asyncio.run(serve())


async def rpc_latency(worker_path, env, count):
    from boxoffice_worker import AsyncWorker
    async with AsyncWorker(worker_path, env=env) as worker:
        for _ in range(200):
            await worker.call("boxoffice.daily", PARAMS)
        times = []
        for _ in range(count):
            started = time.perf_counter()
            await worker.call("boxoffice.daily", PARAMS)
            times.append(time.perf_counter() - started)
        return times


async def nats_load(url, seconds, in_flight):
    """Requests answered in `seconds` with `in_flight` kept outstanding."""
    import nats
    client = await nats.connect(url)
    done = 0
    deadline = time.monotonic() + seconds

    async def loop():
        nonlocal done
        while time.monotonic() < deadline:
            await client.request("kobis.boxoffice.daily", PAYLOAD, timeout=30)
            done += 1

    try:
        await asyncio.gather(*(loop() for _ in range(in_flight)))
        return done
    finally:
        await client.close()


def nats_load_process(url, seconds, in_flight, results):
    results.put(asyncio.run(nats_load(url, seconds, in_flight)))


async def rpc_load(worker_path, env, seconds, in_flight):
    from boxoffice_worker import AsyncWorker
    async with AsyncWorker(worker_path, env=env) as worker:
        await worker.call("boxoffice.daily", PARAMS)
        done = 0
        deadline = time.monotonic() + seconds

        async def loop():
            nonlocal done
            while time.monotonic() < deadline:
                await worker.call_json("boxoffice.daily", PARAMS)
                done += 1

        started = time.monotonic()
        await asyncio.gather(*(loop() for _ in range(in_flight)))
        return done / (time.monotonic() - started)


def throughput(url, seconds, clients=2, in_flight=64):
    results = multiprocessing.Queue()
    processes = [multiprocessing.Process(target=nats_load_process, args=(url, seconds, in_flight, results))
                 for _ in range(clients)]
    started = time.monotonic()
    for process in processes:
        process.start()
    total = sum(results.get() for _ in processes)
    for process in processes:
        process.join()
    return total / (time.monotonic() - started)


def backfill(nats_testing, folder, adapters, days, upstream):
    """Seconds from submit to the last outcome collected, for 365 days through `adapters` adapters."""
    server = nats_testing.NATSServer(folder)
    running = []
    try:
        for index in range(adapters):
            running.append(nats_testing.Adapter(
                server, ["--jobs", "--no-requests", "--job-concurrency", "4"],
                nats_testing.live(upstream, folder / ("cache-%d" % index)), folder / ("adapter-%d.log" % index)))
        lines = "\n".join(days) + "\n"
        started = time.monotonic()
        done = nats_testing.cli(server, ["submit", "--collect", "boxoffice.daily"], lines, timeout=3600)
        elapsed = time.monotonic() - started
        if done.returncode != 0:
            raise SystemExit("the backfill failed (%d): %s" % (done.returncode, done.stderr[-500:]))
        return elapsed
    finally:
        for adapter in running:
            adapter.terminate()
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--quick", action="store_true")
    arguments = parser.parse_args()
    os.environ["BOXOFFICE_WORKER"] = os.path.abspath(arguments.worker)
    import nats_testing
    nats_testing.BINARY = os.environ["BOXOFFICE_WORKER"]
    count = 500 if arguments.quick else 3000
    seconds = 3 if arguments.quick else 8
    offline = nats_testing.environment({"BOXOFFICE_LOG_LEVEL": "error"})

    with tempfile.TemporaryDirectory(prefix="nats-bench-") as scratch:
        folder = pathlib.Path(scratch)
        server = nats_testing.NATSServer(folder / "one")
        adapters = []
        try:
            adapters.append(nats_testing.Adapter(server, [], offline, folder / "adapter-0.log"))
            nats_times = asyncio.run(nats_latency(server.url, count))
            rpc_times = asyncio.run(rpc_latency(os.environ["BOXOFFICE_WORKER"], offline, count))
            ready, stop = multiprocessing.Event(), multiprocessing.Event()
            echo = multiprocessing.Process(target=echo_responder, args=(server.url, ready, stop))
            echo.start()
            ready.wait(30)
            echo_times = asyncio.run(nats_latency(server.url, count, "bench.echo"))
            stop.set()
            echo.join()
            print("latency, cached boxoffice.daily, %d sequential requests:" % count)
            print("  NATS request/reply   p50 %7.1f µs   p99 %7.1f µs" % (
                percentile(nats_times, 0.5) * 1e6, percentile(nats_times, 0.99) * 1e6))
            print("  JSON-RPC face        p50 %7.1f µs   p99 %7.1f µs" % (
                percentile(rpc_times, 0.5) * 1e6, percentile(rpc_times, 0.99) * 1e6))
            print("  nats-py echo (floor) p50 %7.1f µs   p99 %7.1f µs" % (
                percentile(echo_times, 0.5) * 1e6, percentile(echo_times, 0.99) * 1e6))
            print("  NATS / JSON-RPC      %.2f x (target: NATS p50 <= 500 µs)" % (
                statistics.median(nats_times) / statistics.median(rpc_times)))
            for index in range(1, 4):
                adapters.append(nats_testing.Adapter(server, [], offline, folder / ("adapter-%d.log" % index)))
            rate = throughput(server.url, seconds)
            rpc_rate = asyncio.run(rpc_load(os.environ["BOXOFFICE_WORKER"], offline, seconds, 128))
            print("throughput, cached boxoffice.daily, %d s:" % seconds)
            print("  NATS, 4 adapters x 1 worker, 2 clients x 64 in flight   %8.0f requests/s" % rate)
            print("  JSON-RPC face, 1 worker, 128 in flight (Python client)  %8.0f requests/s" % rpc_rate)
            print("  NATS / JSON-RPC      %.2f x (target: NATS >= 10,000 requests/s)" % (rate / rpc_rate))
        finally:
            for adapter in adapters:
                adapter.terminate()
            server.stop()

        start = datetime.date(2022, 1, 1)
        days = [(start + datetime.timedelta(days=offset)).isoformat() for offset in range(120 if arguments.quick else 365)]
        upstream = nats_testing.fake_upstream.Running(delay_ms=50)
        try:
            (folder / "b1").mkdir()
            (folder / "b3").mkdir()
            one = backfill(nats_testing, folder / "b1", 1, days, upstream)
            three = backfill(nats_testing, folder / "b3", 3, days, upstream)
        finally:
            upstream.stop()
        print("backfill, %d days as jobs, upstream 50 ms, 4 jobs at a time per adapter:" % len(days))
        print("  1 adapter   %6.2f s" % one)
        print("  3 adapters  %6.2f s" % three)
        print("  speed-up    %.2f x (target: >= 2.5 x)" % (one / three))


if __name__ == "__main__":
    main()
