"""A worker keeps its connections to KOBIS alive between calls: sequential calls reuse one connection, and after a
burst of concurrent calls the connections it opened serve the calls after it, with no new connect. And the event
loop the live jobs run on is the only one, and is never started offline.

Why a test: every job runs on the HTTP client's event loop (EventLoopExecutor), and AsyncHTTPClient keeps alive only
the connections of requests that *prefer* a loop; a request that *requires* its loop gets a connection of its own,
closed as soon as it is idle. A first cut of that change asked for the loop as a requirement and connected afresh
for every call (a TCP handshake and a socket per call, a twentieth of the call's CPU), with every answer still
right: only a count of connections shows it."""
import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
BODY = (ROOT / "Fixtures" / "upstream" / "kobis" / "daily-20220105.json").read_bytes()


class KeepAlive(http.server.BaseHTTPRequestHandler):
    """KOBIS's daily box office over HTTP/1.1 keep-alive; counts connections and requests on the server."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    connections = 0
    requests = 0
    # The connection (its number, in accepting order) that served each request, in serving order.
    served = []
    lock = threading.Lock()

    def setup(self):
        super().setup()
        with KeepAlive.lock:
            KeepAlive.connections += 1
            self.number = KeepAlive.connections

    def do_GET(self):
        with KeepAlive.lock:
            KeepAlive.requests += 1
            KeepAlive.served.append(self.number)
        self.send_response(200)
        self.send_header("Content-Type", "application/json;charset=UTF-8")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


def call(process, identifier, date, refresh=True):
    line = {"jsonrpc": "2.0", "id": identifier, "method": "boxoffice.daily",
            "params": {"date": date, "refresh": refresh}}
    process.stdin.write((json.dumps(line) + "\n").encode())


def test_connections_are_kept_alive_across_calls_and_after_a_burst(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), KeepAlive)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment.update({"KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "",
                        "KOBIS_BASE_URL": "http://127.0.0.1:%d/kobis" % server.server_address[1],
                        "BOXOFFICE_CACHE_DIR": str(tmp_path / "cache")})
    process = subprocess.Popen([BINARY, "--today", "2026-11-21"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=environment)
    try:
        # Sequential: one call in flight at a time, answered before the next is sent.
        for identifier in range(30):
            call(process, identifier, "2022-01-05")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert answer["id"] == identifier and "result" in answer, answer
        sequential = KeepAlive.connections
        assert KeepAlive.requests == 30
        # One, or two when the first call's connection was made for it alone (stop 44's build made two).
        assert sequential <= 2, "%d connections for 30 sequential calls" % sequential
        # A burst: twelve days at once (the body is the same; the calls differ by date), all in flight together.
        for offset in range(12):
            call(process, 100 + offset, "2022-01-%02d" % (offset + 6))
        process.stdin.flush()
        burst = [json.loads(process.stdout.readline()) for _ in range(12)]
        assert all("result" in answer for answer in burst), burst
        after_burst = KeepAlive.connections
        assert after_burst <= 13, "%d connections after a burst of 12" % after_burst
        # After the burst, sequential calls are served by the connections kept from it. (Not "no connection is
        # opened": the pool may still be making one it began for a queued request of the burst that an idle
        # connection served first, accepted after the burst's answers; a connect per call would be 20.)
        for identifier in range(200, 220):
            call(process, identifier, "2022-01-05")
            process.stdin.flush()
            assert "result" in json.loads(process.stdout.readline())
        with KeepAlive.lock:
            serving = set(KeepAlive.served[-20:])
        assert len(serving) <= 2, "20 calls after the burst were served by %d connections (%d after the burst, %d now)" % (
            len(serving), after_burst, KeepAlive.connections)
    finally:
        process.stdin.close()
        process.wait(timeout=30)
        server.shutdown()
        server.server_close()
    assert process.returncode == 0


def thread_names(pid):
    return sorted(pathlib.Path("/proc/%d/task/%s/comm" % (pid, task)).read_text().strip()
                  for task in os.listdir("/proc/%d/task" % pid))


def test_offline_jobs_start_no_event_loop_threads(tmp_path):
    """Offline there is no HTTP client: a job that goes through the shared call (the first offline day is one) must
    not start the event loop group on the way (a first cut did, through EventLoopExecutor.current(): two threads and
    5-10 % of the CLI's daily screen)."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment["BOXOFFICE_CACHE_DIR"] = str(tmp_path / "cache")
    process = subprocess.Popen([BINARY, "--offline", "--today", "2026-11-21"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    try:
        call(process, 1, "2022-01-05", refresh=False)
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert "result" in answer, answer
        names = thread_names(process.pid)
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert not [name for name in names if name.startswith("NIO-")], names
