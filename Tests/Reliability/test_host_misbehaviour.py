"""Hosts that misbehave, against the built binary (no network): each gets the documented answer, bounded in time
and memory, and the worker stays healthy (a ping after it is answered, and it exits 0 at EOF).

Each runs twice: offline, where a reader thread reads stdin, and live (an API key, an upstream nobody calls), where
the event loop reads the pipe itself (EventLoopInputPump) and must never wait for the host."""
import json
import os
import pathlib
import resource
import subprocess
import sys
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
OFFLINE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}
# Live, with an upstream on a port nothing listens on: only methods the worker answers itself are asked.
LIVE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "host-kobis-key", "KAKAO_REST_API_KEY": "",
        "KOBIS_BASE_URL": "http://127.0.0.1:9/kobis"}
DAILY = '{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}\n'
# The worker's own OpenRPC document, about 110 kB an answer: a large answer no upstream is asked for. Each request
# padded with 2 kB of JSON's whitespace, so 600 of them fill more than the pipe and the worker's queue can hold.
DISCOVER = '{"jsonrpc":"2.0","id":%d,"method":"rpc.discover"}' + " " * 2000 + "\n"
PING = '{"jsonrpc":"2.0","id":"ping","method":"ping"}\n'


@pytest.fixture(params=["reader thread", "event loop"])
def spawn(request, tmp_path):
    """Starts the worker offline (stdin read by a thread) or live (read by the event loop)."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment.update(OFFLINE if request.param == "reader thread" else LIVE)
    environment["BOXOFFICE_CACHE_DIR"] = str(tmp_path / "cache")

    def start(*arguments, stack_bytes=None):
        limit = None if stack_bytes is None else (lambda: resource.setrlimit(resource.RLIMIT_STACK,
                                                                             (stack_bytes, stack_bytes)))
        return subprocess.Popen([BINARY, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=environment, preexec_fn=limit)

    start.live = request.param == "event loop"
    return start


def rss_mib(process):
    with open("/proc/%d/status" % process.pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(process):
    with open("/proc/%d/stat" % process.pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def finish(process, timeout=30):
    """Closes stdin, reads what is left; (remaining stdout lines parsed, exit code)."""
    out, _ = process.communicate(timeout=timeout)
    return [json.loads(line) for line in out.splitlines() if line.strip()], process.returncode


def test_a_host_that_never_reads_stops_the_worker_reading_and_loses_nothing(spawn):
    worker = spawn()
    request, count = (DISCOVER, 600) if spawn.live else (DAILY, 20000)
    written = threading.Event()

    def write():
        for index in range(count):
            worker.stdin.write((request % index).encode())
        worker.stdin.flush()
        written.set()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    time.sleep(3)  # sleep-ok: that the worker stops reading can only be shown over a time it is given
    # The answers (about 60 MB) cannot drain: the worker must have stopped reading instead of buffering them.
    assert not written.is_set(), "the worker read everything although its output could not drain"
    stalled = rss_mib(worker)
    assert stalled < 96, "memory grew to %.0f MiB while the host did not read" % stalled
    answers = set()
    for _ in range(count):
        line = worker.stdout.readline()
        answer = json.loads(line)
        assert "result" in answer, answer
        answers.add(answer["id"])
    writer.join(timeout=30)
    assert answers == set(range(count))
    worker.stdin.write(PING.encode())
    rest, code = finish(worker)
    assert [answer["id"] for answer in rest] == ["ping"] and code == 0


def test_a_host_that_closes_stdin_before_reading_anything_gets_every_answer(spawn):
    # Lines written (without ever blocking) until the worker has stopped taking them, because nobody reads its
    # answers, then stdin closed: the worker has stopped reading with lines still in the pipe when the end comes.
    # Live, the pipe's hang-up makes NIO read the rest at once although the pump is paused; those lines must wait,
    # not be lost or queued without bound.
    worker = spawn()
    request = DISCOVER if spawn.live else DAILY
    descriptor = worker.stdin.fileno()
    os.set_blocking(descriptor, False)
    count, last_progress = 0, time.monotonic()
    while time.monotonic() - last_progress < 1.0:
        try:
            os.write(descriptor, (request % count).encode())  # under PIPE_BUF: all or nothing
            count, last_progress = count + 1, time.monotonic()
        except BlockingIOError:
            time.sleep(0.01)  # sleep-ok: waiting for a worker that has stopped reading to stay stopped
    worker.stdin.close()
    peak = rss_mib(worker)
    answers = [json.loads(line) for line in worker.stdout]
    assert worker.wait(timeout=30) == 0
    assert sorted(answer["id"] for answer in answers) == list(range(count))
    assert all("result" in answer for answer in answers)
    assert peak < 96, "memory reached %.0f MiB" % peak


def test_a_slowloris_host_is_answered_when_its_line_is_whole_without_spinning(spawn):
    worker = spawn()
    line = PING.encode()
    before = cpu_seconds(worker)
    for byte in line[:-1]:
        worker.stdin.write(bytes([byte]))
        worker.stdin.flush()
        time.sleep(0.05)  # sleep-ok: a slowloris host, one byte at a time
    spent = cpu_seconds(worker) - before
    worker.stdin.write(b"\n")
    worker.stdin.flush()
    assert json.loads(worker.stdout.readline())["id"] == "ping"
    assert spent < 0.5, "the worker burned %.2f s of CPU waiting for a slow line" % spent
    rest, code = finish(worker)
    assert rest == [] and code == 0


def test_stdin_closed_mid_line_answers_what_was_whole_and_the_fragment_as_a_parse_error(spawn):
    worker = spawn()
    worker.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"met')
    answers, code = finish(worker)
    assert code == 0
    assert answers[0]["id"] == 1 and "result" in answers[0]
    assert len(answers) == 2 and answers[1]["id"] is None and answers[1]["error"]["code"] == -32700


def test_a_one_gib_line_is_refused_without_being_buffered(spawn):
    worker = spawn()
    chunk = b"x" * (1 << 20)
    peak = 0.0
    for index in range(1024):
        worker.stdin.write(chunk)
        if index % 128 == 0:
            peak = max(peak, rss_mib(worker))
    worker.stdin.write(b"\n" + PING.encode())
    worker.stdin.flush()
    first = json.loads(worker.stdout.readline())
    assert first["id"] is None and first["error"]["code"] == -32600
    assert json.loads(worker.stdout.readline())["id"] == "ping"
    assert peak < 96, "memory reached %.0f MiB reading a 1 GiB line" % peak
    rest, code = finish(worker)
    assert rest == [] and code == 0


def test_ten_thousand_requests_in_one_batch_beyond_max_batch_are_one_error(spawn):
    worker = spawn()
    batch = "[" + ",".join('{"jsonrpc":"2.0","id":%d,"method":"ping"}' % index for index in range(10000)) + "]\n"
    worker.stdin.write(batch.encode() + PING.encode())
    answers, code = finish(worker)
    assert code == 0 and len(answers) == 2
    assert answers[0]["id"] is None and answers[0]["error"]["code"] == -32600
    assert "batch" in answers[0]["error"]["message"]
    assert answers[1]["id"] == "ping"


def test_a_hundred_thousand_nested_brackets_are_a_parse_error(spawn):
    worker = spawn()
    worker.stdin.write(b"[" * 100000 + b"]" * 100000 + b"\n" + b'{"a":' * 100000 + b"1" + b"}" * 100000 + b"\n"
                       + PING.encode())
    answers, code = finish(worker)
    assert code == 0 and len(answers) == 3
    assert [answer["error"]["code"] for answer in answers[:2]] == [-32700, -32700]
    assert answers[2]["id"] == "ping"


def test_the_deepest_document_jansson_reads_is_answered_with_a_small_stack(spawn):
    # 2,040 levels, within Jansson's 2,048: parsed, classified and refused by the schema, recursively, on whichever
    # thread reads. Under a 256 KiB stack limit the event loop's threads are too small for that and the reader
    # thread (16 MiB of its own) reads instead; with the default limit the loop reads.
    depth = 2040
    document = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":%s%s}}\n' % ("[" * depth, "]" * depth)
    for stack_bytes in (256 << 10, None):
        worker = spawn(stack_bytes=stack_bytes)
        worker.stdin.write(document.encode() + PING.encode())
        answers, code = finish(worker)
        assert code == 0, worker.stderr.read()
        assert [answer["id"] for answer in answers] == [1, "ping"]
        assert answers[0]["error"]["code"] == -32602
