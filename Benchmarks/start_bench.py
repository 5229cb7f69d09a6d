"""Start figures of the worker beside programs everybody's machine starts, all measured from C in one run.

Spawn to first answer (Benchmarks/pingpong.c's cold start: spawn, write a ping, read the answer line): the worker
offline, the worker live with a cache directory that exists (a key set: the HTTP client and the cache database are
set up; the ping makes no upstream call), and the C Jansson loop. Spawn to exit (Benchmarks/spawntime.c): /bin/true,
`jq -n 1` and the CLI's `daily 2023-04-26` screen (offline). The measurements run in rounds, each program a slice of
every round, so a busy moment of the machine falls on all of them alike; the medians over all rounds are printed
with the targets of issue 26 and the ratios to jq.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile


def cold(pingpong, command, spawns, environment=None):
    output = subprocess.run([pingpong, "1", str(spawns), "--"] + command, check=True, capture_output=True,
                            env=environment).stdout
    return json.loads(output)["cold_p50_ms"]


def spawn_to_exit(spawntime, command, spawns, environment=None):
    output = subprocess.run([spawntime, str(spawns), "--"] + command, check=True, capture_output=True,
                            env=environment).stdout
    return json.loads(output)["p50_ms"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--jansson", required=True)
    parser.add_argument("--pingpong", required=True)
    parser.add_argument("--spawntime", required=True)
    parser.add_argument("--spawns", type=int, default=200, help="spawns of each program in all")
    parser.add_argument("--rounds", type=int, default=10)
    options = parser.parse_args()

    offline = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    offline["BOXOFFICE_TODAY"] = "2026-11-21"
    cache = tempfile.mkdtemp(prefix="boxoffice-start-cache-")
    live = dict(offline, KOBIS_API_KEY="bench-dummy-key", KOBIS_BASE_URL="http://127.0.0.1:9",
                BOXOFFICE_CACHE_DIR=cache)
    per_round = max(1, options.spawns // options.rounds)
    programs = {
        "/bin/true (spawn to exit)": lambda: spawn_to_exit(options.spawntime, ["/bin/true"], per_round),
        "jq -n 1 (spawn to exit)": lambda: spawn_to_exit(options.spawntime, ["jq", "-n", "1"], per_round),
        "C Jansson loop (to first answer)": lambda: cold(options.pingpong, [options.jansson, "--unbuffered"], per_round),
        "worker offline (to first answer)": lambda: cold(options.pingpong, [options.worker], per_round, offline),
        "worker live + cache (to first answer)": lambda: cold(options.pingpong, [options.worker], per_round, live),
        "CLI daily screen (spawn to exit)": lambda: spawn_to_exit(
            options.spawntime, [options.worker, "daily", "2023-04-26"], per_round, offline),
    }
    try:
        # One spawn of each first: the page cache holds every binary before anything is timed.
        for measure in programs.values():
            measure()
        samples = {name: [] for name in programs}
        for _ in range(options.rounds):
            for name, measure in programs.items():
                samples[name].append(measure())
    finally:
        shutil.rmtree(cache, ignore_errors=True)

    figures = {name: statistics.median(values) for name, values in samples.items()}
    jq = figures["jq -n 1 (spawn to exit)"]
    size = os.path.getsize(options.worker)
    print("start benchmark: %s (%.1f MB), %d spawns of each in %d rounds (median of the rounds' medians)" % (
        options.worker, size / 1e6, per_round * options.rounds, options.rounds))
    print("  %-40s %8s %8s %8s" % ("program", "ms", "× jq", "spread"))
    for name, value in figures.items():
        spread = "%.2f–%.2f" % (min(samples[name]), max(samples[name]))
        print("  %-40s %8.2f %8.2f %s" % (name, value, value / jq, spread))
    print("targets (issue 26): offline <= 4 ms and <= 0.25 × jq; live + cache <= 6 ms; CLI daily <= 0.5 × jq")
    print("  offline %.2f ms (%.2f × jq); live + cache %.2f ms; CLI daily %.2f × jq" % (
        figures["worker offline (to first answer)"], figures["worker offline (to first answer)"] / jq,
        figures["worker live + cache (to first answer)"], figures["CLI daily screen (spawn to exit)"] / jq))


if __name__ == "__main__":
    main()
