"""`--deadline` bounds a whole upstream call, its retries and the waits between them included, and `--timeout`
bounds silence anywhere in an attempt and the wait for an attempt's head: against a KOBIS on 127.0.0.1 that answers
its head and trickles the body a byte a second, one that never answers at all, one whose body stops after its first
bytes, one that trickles its head, and a closed port (the client retries a refused connection until --timeout).
The five runs go at once, so the test takes as long as the slowest (about 15 s), not their sum."""
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()


class Misbehaving:
    """A server whose behaviour is named by the first part of the path: /trickle, /silent, /stall. Counts requests."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests = {"trickle": 0, "silent": 0, "stall": 0, "slowhead": 0}
        self.stopped = threading.Event()
        self.clients = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.clients.append(client)
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = client.recv(4096)
            if not chunk:
                return
            request += chunk
        kind = request.split(b" ", 2)[1].split(b"/")[1].decode()
        self.requests[kind] += 1
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
        try:
            if kind == "trickle":
                client.sendall(head)
                # A byte a second: never silent for --timeout, never done.
                while not self.stopped.wait(1):
                    client.sendall(b" ")
            elif kind == "stall":
                client.sendall(head + b'{"boxOfficeResult":')
                self.stopped.wait(120)
            elif kind == "slowhead":
                # The status line, then a header a byte every half second: never silent, never a whole head.
                client.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                while not self.stopped.wait(0.5):
                    client.sendall(b"x")
            else:
                self.stopped.wait(120)
        except OSError:
            pass

    def base(self, kind):
        return "http://127.0.0.1:%d/%s" % (self.port, kind)

    def stop(self):
        self.stopped.set()
        self.listener.close()
        for client in self.clients:
            client.close()


class Run:
    """A worker run, timed from its start to its own exit (waited for on a thread of its own)."""

    def __init__(self, base, *flags):
        environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
        environment.update({"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "test-kobis-key",
                            "KOBIS_BASE_URL": base, "KAKAO_REST_API_KEY": ""})
        self.began = time.monotonic()
        self.process = subprocess.Popen(
            [BINARY, "daily", "2023-04-20", "--format", "json", "--no-cache", *flags], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=environment)
        self.thread = threading.Thread(target=self.wait)
        self.thread.start()

    def wait(self):
        self.stdout, self.stderr = self.process.communicate(timeout=90)
        self.seconds = time.monotonic() - self.began

    def finish(self):
        self.thread.join()
        return self.seconds, self.process.returncode, self.stderr


def test_the_deadline_bounds_the_call_and_the_timeout_each_silence():
    server = Misbehaving()
    try:
        trickle = Run(server.base("trickle"), "--deadline", "15")
        silent = Run(server.base("silent"), "--deadline", "15")
        stall = Run(server.base("stall"), "--timeout", "2")
        slowhead = Run(server.base("slowhead"), "--timeout", "2")
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        refused_base = "http://127.0.0.1:%d/refused" % closed.getsockname()[1]
        closed.close()
        refused = Run(refused_base, "--timeout", "2")
        trickled, trickle_code, trickle_error = trickle.finish()
        silenced, silent_code, silent_error = silent.finish()
        stalled, stall_code, stall_error = stall.finish()
        slow_headed, slowhead_code, slowhead_error = slowhead.finish()
        refused_after, refused_code, refused_error = refused.finish()
    finally:
        server.stop()
    # A trickled body is cut at the call's deadline: one attempt, no time left for another.
    assert trickle_code == 75, trickle_error  # EX_TEMPFAIL: a deadline is worth trying again
    # By 16 s, and half a second more for a worker started and stopped on a loaded two-core machine.
    assert 14 <= trickled <= 16.5, "the trickle was answered after %.1f s" % trickled
    assert "within 15 s" in trickle_error, trickle_error
    assert server.requests["trickle"] == 1
    # A server that never answers: --timeout (10 s) fails the first attempt, the second is cut at the deadline
    # (before, three attempts of 10 s each took 30 s and more).
    assert silent_code == 75, silent_error
    assert 14 <= silenced <= 16.5, "the silent server was answered after %.1f s" % silenced
    assert server.requests["silent"] == 2
    # A body that stops: each attempt ends after 2 s of silence, three attempts in all.
    assert stall_code == 75, stall_error
    assert server.requests["stall"] == 3
    assert 6 <= stalled <= 9, "three stalled attempts took %.1f s" % stalled
    assert "after 3 attempts" in stall_error, stall_error
    # A head that trickles: each attempt ends --timeout (2 s) after it began, though the server is never silent.
    assert slowhead_code == 75, slowhead_error
    assert server.requests["slowhead"] == 3
    assert 6 <= slow_headed <= 9, "three slow heads took %.1f s" % slow_headed
    assert "no answer in time" in slowhead_error and "after 3 attempts" in slowhead_error, slowhead_error
    # A closed port: each attempt gives up connecting at --timeout (2 s), not at the client's 5 s connect timeout.
    assert refused_code == 75, refused_error
    assert 6 <= refused_after <= 9, "three refused attempts took %.1f s" % refused_after
    assert "cannot connect" in refused_error and "after 3 attempts" in refused_error, refused_error
