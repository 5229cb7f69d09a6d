"""Pipes request lines through the worker and its two baselines; prints figures and ratios.

Throughput: best of three runs of the whole input through each program, stdout to /dev/null.
Ping-pong: one line written, one line read, repeated; p50/p99 of the round trip (includes this script's own
  cost of a write and a read, the same for every program).
Cold start: spawn to first response line, median of many spawns.
Peak RSS: ru_maxrss of the program's process (wait4), at a small and the full input, to show whether it grows.
"""
import argparse
import os
import statistics
import subprocess
import time


def make_input(path, count):
    with open(path, "w") as handle:
        for index in range(count):
            handle.write('{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % index)


def run_through(command, input_path):
    """Runs command with stdin from the file and stdout to /dev/null; (seconds, peak RSS in KiB)."""
    with open(input_path, "rb") as source, open(os.devnull, "wb") as sink:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=source, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit("%s exited with status %d" % (command[0], status))
    return elapsed, usage.ru_maxrss


def ping_pong(command, rounds):
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    stdin, stdout = process.stdin.fileno(), process.stdout.fileno()
    samples = []
    pending = b""
    for index in range(rounds):
        line = b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % index
        start = time.perf_counter_ns()
        os.write(stdin, line)
        while b"\n" not in pending:
            pending += os.read(stdout, 65536)
        samples.append(time.perf_counter_ns() - start)
        pending = pending.split(b"\n", 1)[1]
    process.stdin.close()
    process.wait()
    samples.sort()
    return samples[len(samples) // 2] / 1000, samples[int(len(samples) * 0.99)] / 1000


def cold_start(command, spawns):
    samples = []
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    for _ in range(spawns):
        start = time.perf_counter_ns()
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        os.write(process.stdin.fileno(), line)
        process.stdout.readline()
        samples.append(time.perf_counter_ns() - start)
        process.stdin.close()
        process.wait()
    return statistics.median(samples) / 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--jansson", required=True)
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
    }
    print("machine: %d cores; input: %d ping lines (%d bytes)" % (os.cpu_count(), options.lines, os.path.getsize(full)))
    results = {}
    for name, (batch, interactive) in programs.items():
        runs = [run_through(batch, full) for _ in range(3)]
        seconds = min(run[0] for run in runs)
        rss_full = max(run[1] for run in runs)
        _, rss_small = run_through(batch, small)
        p50, p99 = ping_pong(interactive, options.rounds)
        cold = cold_start(interactive, options.spawns)
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
    print("  worker ping-pong p50:               %.1f µs [<= 50]   (C loop %.1f, jq %.1f)" % (worker["p50"], c_loop["p50"], jq["p50"]))
    print("  worker cold start:                  %.2f ms [<= 10]   (C loop %.2f, jq %.2f)" % (worker["cold"], c_loop["cold"], jq["cold"]))
    print("  worker peak RSS at %d lines:   %.1f MB [<= 30, flat] (%.1f MB at %d lines)" % (
        options.lines, worker["rss_full"], worker["rss_small"], small_count))


if __name__ == "__main__":
    main()
