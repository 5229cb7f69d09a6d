"""Hosts that misbehave, against the built binary (offline: no network): each gets the documented answer, bounded
in time and memory, and the worker stays healthy (a ping after it is answered, and it exits 0 at EOF)."""
import json
import os
import pathlib
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
OFFLINE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}
DAILY = '{"jsonrpc":"2.0","id":%d,"method":"boxoffice.daily","params":{"date":"2022-01-05"}}\n'
PING = '{"jsonrpc":"2.0","id":"ping","method":"ping"}\n'


def spawn(*arguments):
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment.update(OFFLINE)
    return subprocess.Popen([BINARY, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=environment)


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


def test_a_host_that_never_reads_stops_the_worker_reading_and_loses_nothing():
    worker = spawn()
    count = 20000
    written = threading.Event()

    def write():
        for index in range(count):
            worker.stdin.write((DAILY % index).encode())
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


def test_a_slowloris_host_is_answered_when_its_line_is_whole_without_spinning():
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


def test_stdin_closed_mid_line_answers_what_was_whole_and_the_fragment_as_a_parse_error():
    worker = spawn()
    worker.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"met')
    answers, code = finish(worker)
    assert code == 0
    assert answers[0]["id"] == 1 and "result" in answers[0]
    assert len(answers) == 2 and answers[1]["id"] is None and answers[1]["error"]["code"] == -32700


def test_a_one_gib_line_is_refused_without_being_buffered():
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


def test_ten_thousand_requests_in_one_batch_beyond_max_batch_are_one_error():
    worker = spawn()
    batch = "[" + ",".join('{"jsonrpc":"2.0","id":%d,"method":"ping"}' % index for index in range(10000)) + "]\n"
    worker.stdin.write(batch.encode() + PING.encode())
    answers, code = finish(worker)
    assert code == 0 and len(answers) == 2
    assert answers[0]["id"] is None and answers[0]["error"]["code"] == -32600
    assert "batch" in answers[0]["error"]["message"]
    assert answers[1]["id"] == "ping"


def test_a_hundred_thousand_nested_brackets_are_a_parse_error():
    worker = spawn()
    worker.stdin.write(b"[" * 100000 + b"]" * 100000 + b"\n" + b'{"a":' * 100000 + b"1" + b"}" * 100000 + b"\n"
                       + PING.encode())
    answers, code = finish(worker)
    assert code == 0 and len(answers) == 3
    assert [answer["error"]["code"] for answer in answers[:2]] == [-32700, -32700]
    assert answers[2]["id"] == "ping"
