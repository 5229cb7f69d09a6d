"""Client benchmark: cached boxoffice.daily calls through the Python and Node clients, 1,000 in flight at once,
beside the raw pipe (request lines written by one thread, answers read by another, no client) in the same run.
Offline worker, the day in memory. Prints figures and ratios; asserts nothing."""
import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time

LINE = '{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}\n'


def offline_env():
    return {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}


def raw_pipe(worker, count):
    process = subprocess.Popen([worker], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=offline_env())
    process.stdin.write((LINE % 0).encode())
    process.stdin.flush()
    process.stdout.readline()  # warm: the day is in memory
    payload = "".join(LINE % index for index in range(1, count + 1)).encode()
    begin = time.perf_counter()
    writer = threading.Thread(target=lambda: (process.stdin.write(payload), process.stdin.flush()))
    writer.start()
    for _ in range(count):
        process.stdout.readline()
    elapsed = time.perf_counter() - begin
    writer.join()
    process.stdin.close()
    process.wait()
    return count / elapsed


def answer_line(worker):
    result = subprocess.run([worker], input=(LINE % 1).encode(), capture_output=True, env=offline_env(), check=True)
    return result.stdout.strip()


def python_parse_floor(line, count):
    """How fast the standard library alone turns these answers into dicts: a client that hands back parsed
    results cannot go faster than this, whatever the pipe allows."""
    begin = time.perf_counter()
    for _ in range(count):
        json.loads(line)
    return count / (time.perf_counter() - begin)


def node_parse_floor(line, count):
    script = ("const line = Buffer.from(process.argv[1], 'base64'); const n = Number(process.argv[2]);"
              "const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) JSON.parse(line.toString('utf8'));"
              "console.log(n / (Number(process.hrtime.bigint() - t) / 1e9));")
    import base64
    output = subprocess.run(["node", "-e", script, base64.b64encode(line).decode(), str(count)], check=True,
                            capture_output=True).stdout
    return float(output)


def python_client(worker, rounds, in_flight):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
    from boxoffice_worker import AsyncWorker

    async def body():
        async with AsyncWorker(worker, env={"KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}) as client:
            await client.daily(date="2022-01-05")
            begin = time.perf_counter()
            for _ in range(rounds):
                await asyncio.gather(*(client.daily(date="2022-01-05") for _ in range(in_flight)))
            return rounds * in_flight / (time.perf_counter() - begin)

    return asyncio.run(body())


def node_client(worker, rounds, in_flight, script):
    output = subprocess.run(["node", script, worker, str(rounds), str(in_flight)], check=True, capture_output=True,
                            env=offline_env()).stdout
    return json.loads(output)["rate"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--in-flight", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    count = options.rounds * options.in_flight
    raw = max(raw_pipe(options.worker, count) for _ in range(options.repeats))
    python = max(python_client(options.worker, options.rounds, options.in_flight) for _ in range(options.repeats))
    node = max(node_client(options.worker, options.rounds, options.in_flight, os.path.join(here, "clients_bench.mjs"))
               for _ in range(options.repeats))
    line = answer_line(options.worker)
    python_floor = max(python_parse_floor(line, count) for _ in range(options.repeats))
    node_floor = max(node_parse_floor(line, count) for _ in range(options.repeats))
    print("cached boxoffice.daily (%d-byte answers), %d calls, %d in flight at once (best of %d)" % (
        len(line), count, options.in_flight, options.repeats))
    print("  raw pipe (no client, no parsing):  %9.0f calls/s" % raw)
    print("  Python client:                     %9.0f calls/s -> %3.0f %% of the raw pipe [target >= 50 %%]" % (
        python, 100 * python / raw))
    print("    json.loads alone on the answers: %9.0f /s     -> the client reaches %3.0f %% of its parser's rate" % (
        python_floor, 100 * python / python_floor))
    print("  Node client:                       %9.0f calls/s -> %3.0f %% of the raw pipe [target >= 70 %%]" % (
        node, 100 * node / raw))
    print("    JSON.parse alone on the answers: %9.0f /s     -> the client reaches %3.0f %% of its parser's rate" % (
        node_floor, 100 * node / node_floor))


if __name__ == "__main__":
    main()
