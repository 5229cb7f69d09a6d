"""MCP benchmark: figures printed beside their baselines measured in the same run; asserts nothing.

Cold start: spawn → the `initialize` answer, for `boxoffice-worker mcp` and for a FastMCP-style KOBIS server on the
official SDK (Benchmarks/fastmcp_kobis.py), both measured by pingpong.c.
Cached call: a `tools/call boxoffice_daily` round trip (p50, pingpong.c) beside the plain worker's cached
`boxoffice.daily`, both offline (the day in memory).
Fan-out: `tools/call boxoffice_daily` with include ["detail","poster"] against the fake upstream of
cache_bench.py (+50 ms per call), cold cache, beside the same two waves made directly by an asyncio client.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import cache_bench

INITIALIZE = ('{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
              '"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}')
CALL = ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"boxoffice_daily",'
        '"arguments":{"date":"2022-01-05"}}}')
DAILY = '{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}'
FANOUT = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"boxoffice_daily",'
          '"arguments":{"date":"2022-01-05","include":["detail","poster"]}}}')


def pingpong(binary, command, request, rounds, spawns, env=None):
    environment = dict(env or os.environ, PINGPONG_REQUEST=request)
    output = subprocess.run([binary, str(rounds), str(spawns), "--"] + command, check=True, capture_output=True,
                            env=environment).stdout
    return json.loads(output)


def offline_env():
    return {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}


def fan_out(worker, kobis, kakao, rounds):
    samples = []
    for _ in range(rounds):
        env = cache_bench.environment(kobis, kakao, cache_bench.fresh_cache())
        process = subprocess.Popen([worker, "mcp", "--today", "2026-11-21"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        cache_bench.ask(process, INITIALIZE % 1)
        begin = time.perf_counter()
        answer = json.loads(cache_bench.ask(process, FANOUT))
        samples.append(time.perf_counter() - begin)
        process.stdin.close()
        process.wait()
        entries = answer["result"]["structuredContent"]["entries"]
        if answer["result"]["isError"] or sum(1 for e in entries if e.get("detail") and e.get("poster")) != 10:
            raise SystemExit("the fan-out did not complete: %s" % json.dumps(answer)[:300])
    return statistics.median(samples) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--pingpong", required=True)
    parser.add_argument("--python", required=True, help="a python with the mcp package (scripts/python-env)")
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--spawns", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5000)
    parser.add_argument("--fan-out-rounds", type=int, default=5)
    options = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))

    worker_cold = pingpong(options.pingpong, [options.worker, "mcp"], INITIALIZE, 1, options.spawns, offline_env())
    fastmcp_cold = pingpong(options.pingpong, [options.python, os.path.join(here, "fastmcp_kobis.py")], INITIALIZE,
                            1, max(5, options.spawns // 3), offline_env())
    print("cold start to the initialize answer (p50 of %d spawns)" % options.spawns)
    print("  boxoffice-worker mcp:            %8.2f ms [target <= 10]" % worker_cold["cold_p50_ms"])
    print("  FastMCP KOBIS server (mcp SDK):  %8.2f ms -> the worker starts %.0f x faster" % (
        fastmcp_cold["cold_p50_ms"], fastmcp_cold["cold_p50_ms"] / worker_cold["cold_p50_ms"]))

    mcp_call = pingpong(options.pingpong, [options.worker, "mcp"], CALL, options.rounds, 1, offline_env())
    plain = pingpong(options.pingpong, [options.worker], DAILY, options.rounds, 1, offline_env())
    print("cached call round trip, p50 over %d rounds (offline, the day in memory)" % options.rounds)
    print("  tools/call boxoffice_daily:      %8.1f µs" % mcp_call["p50_us"])
    print("  plain boxoffice.daily:           %8.1f µs -> MCP adds %+.1f µs [target <= +20]" % (
        plain["p50_us"], mcp_call["p50_us"] - plain["p50_us"]))

    cache_bench.SHARED = os.path.join(os.path.dirname(here), "..", "shared", "data", "kobis")
    cache_bench.FIXTURES = options.fixtures
    kobis, kakao = cache_bench.serve(), cache_bench.serve()
    try:
        worker_ms = fan_out(options.worker, kobis, kakao, options.fan_out_rounds)
        direct_ms = cache_bench.direct_fan_out(kobis, kakao, options.fan_out_rounds)
    finally:
        kobis.shutdown()
        kakao.shutdown()
    print("fan-out, cold cache, upstream +50 ms per call: tools/call boxoffice_daily with 10 details and 10 posters")
    print("  boxoffice-worker mcp:            %8.1f ms" % worker_ms)
    print("  the same calls made directly:    %8.1f ms -> %.2f x that [target <= 1.1]" % (direct_ms, worker_ms / direct_ms))
    print("  (a host calling a typical KOBIS MCP server's tools one by one needs 3+ round trips of its model)")


if __name__ == "__main__":
    main()
