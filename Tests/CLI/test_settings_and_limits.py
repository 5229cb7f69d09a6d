"""Settings read as a person writes them, limits that hold where an exchange goes quiet, and a long failure said
briefly: `BOXOFFICE_LOG_LEVEL` empty or in capitals, `--timeout` bounding a body that stalls after its headers, a
partial site's missing days listed as a range export lists them."""
import http.server
import json
import subprocess
import threading
import time

from cli_testing import OFFLINE, run

PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
NOTICE = "offline mode: answers come from the embedded recorded responses"


def serve(arguments, env):
    return run(arguments, env=env, input=PING)


def test_an_empty_log_level_is_unset_as_every_other_variable_is():
    for arguments in ([], ["mcp"]):
        done = serve(arguments, {"BOXOFFICE_LOG_LEVEL": ""})
        assert done.returncode == 0, done.stderr
        assert '"result"' in done.stdout
        # The default, info: the offline notice is logged.
        assert NOTICE in done.stderr
    command = run(["daily", "2023-04-26", "--format", "json"], env={"BOXOFFICE_LOG_LEVEL": ""})
    assert command.returncode == 0 and json.loads(command.stdout)["entries"], command.stderr


def test_log_levels_are_read_in_any_case():
    quiet = serve([], {"BOXOFFICE_LOG_LEVEL": "WARNING"})
    assert quiet.returncode == 0 and NOTICE not in quiet.stderr, quiet.stderr
    loud = serve(["--log-level", "Debug"], {})
    assert loud.returncode == 0 and NOTICE in loud.stderr, loud.stderr
    command = run(["daily", "2023-04-26", "--log-level", "ERROR"])
    assert command.returncode == 0, command.stderr
    for arguments, env in (([], {"BOXOFFICE_LOG_LEVEL": "loud"}), (["--log-level", "loud"], {}),
                           (["daily", "--log-level", "loud"], {})):
        refused = serve(arguments, env)
        assert refused.returncode == 64, (arguments, env, refused.stderr)
        assert "loud" in refused.stderr and "warning" in refused.stderr


class StallingKOBIS(http.server.ThreadingHTTPServer):
    """A KOBIS that sends its head and the first bytes of the body, then nothing, until the test ends; it counts
    the attempts."""
    daemon_threads = True

    def __init__(self):
        self.attempts = 0
        self.released = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server.attempts += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json;charset=UTF-8")
                self.send_header("Content-Length", "5000")
                self.end_headers()
                self.wfile.write(b'{"boxOfficeResult":{')
                self.wfile.flush()
                server.released.wait(120)

        super().__init__(("127.0.0.1", 0), Handler)

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.released.set()
        self.shutdown()
        self.server_close()


def test_timeout_bounds_a_body_that_stalls_after_its_headers(tmp_path):
    with StallingKOBIS() as kobis:
        started = time.monotonic()
        done = run(["daily", "2023-04-26", "--timeout", "2", "--format", "json"], env={
            "KOBIS_API_KEY": "test-key", "KOBIS_BASE_URL": "http://127.0.0.1:%d" % kobis.server_address[1],
            "BOXOFFICE_CACHE_DIR": str(tmp_path / "cache")})
        elapsed = time.monotonic() - started
    assert done.returncode != 0
    # Every attempt went quiet and was ended by --timeout (2 s), not by the fixed 10 s read limit of before, and
    # each was retried up to the three attempts the worker makes.
    assert "sent nothing for 2 s (--timeout)" in done.stderr, done.stderr
    assert "after 3 attempts" in done.stderr, done.stderr
    assert kobis.attempts == 3
    # Three attempts of 2 s and their backoff take 6-7 s; before, each waited 10 s (30 s at least). Twice the
    # expected time, so load cannot make it flaky and a doubled read limit would still fail it.
    assert elapsed < 15, elapsed


def test_a_partial_site_lists_its_missing_days_as_a_range_export_does(tmp_path):
    # Offline, 57 days of which two are recorded: 55 pages cannot be had.
    done = run(["daily", "--from", "2023-03-01", "--to", "2023-04-26", "--format", "html", "--out",
                str(tmp_path / "site")], env=OFFLINE)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert "55 of 57 pages were not written" in lines[0]
    assert lines[1] == "missing 55:"
    listed = [line for line in lines if line.startswith("  2023-")]
    assert len(listed) == 20 and listed[0].startswith("  2023-03-01 (offline_unavailable)")
    assert "  … and 35 more" in lines
    # Each distinct reason once, not 55 times.
    assert sum(line.startswith("offline_unavailable: ") for line in lines) == 1
    assert len(lines) < 30, len(lines)
    assert sorted(path.name for path in (tmp_path / "site").glob("*.html")) == [
        "2023-04-23.html", "2023-04-26.html", "index.html"]


def test_area_as_a_person_types_it_reaches_kobis_as_the_code(upstream, tmp_path):
    base, counts = upstream
    env = {"KOBIS_API_KEY": "test-key", "KOBIS_BASE_URL": base + "/kobis", "BOXOFFICE_CACHE_DIR": str(tmp_path / "c")}
    for typed, code in (("seoul", "0105001"), (" 서울특별시 ", "0105001"), ("NORTH JEOLLA", "0105008")):
        done = run(["daily", "2023-04-26", "--area", typed, "--refresh", "--format", "json"], env=env)
        assert done.returncode == 0, done.stderr
        assert any("wideAreaCd=%s" % code in call for call in counts()["calls"]), (typed, counts()["calls"])
    refused = run(["daily", "2023-04-26", "--area", "Mars"], env=env)
    assert refused.returncode == 64 and '"Mars" is not one of' in refused.stderr and "세종시" in refused.stderr
