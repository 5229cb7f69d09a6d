"""Shared set-up of the fleet tests: throwaway PostgreSQL clusters, a fake upstream, and workers driven over their
stdin/stdout as a host would, each with a cache directory of its own (a "machine") unless a test shares one."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402
import postgres_cluster  # noqa: E402

BINARY = worker_binary()

TODAY = "2026-11-21"


def until(holds, within=30, what="the state waited for"):
    """Checks `holds()` until it is true (a state the test can read, never a guessed time); fails after `within`
    seconds. Each check is a round trip (a psql run, a worker.status), which paces the loop."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if holds():
            return
    raise AssertionError("never reached: " + what)


def spent_in_database(cluster, database):
    """The KOBIS calls the leases of `database` record as spent (what reached the database)."""
    return int(cluster.sql("SELECT coalesce(sum(spent), 0) FROM quota_leases", database=database) or 0)


def new_cluster():
    """A started cluster, or a skip with the reason when none can start here."""
    try:
        return postgres_cluster.Cluster().start()
    except postgres_cluster.Unavailable as error:
        pytest.skip("no PostgreSQL cluster can start here: %s" % error)


class Outputs:
    """Every byte any worker of a test printed, to check that no secret was ever shown."""

    def __init__(self):
        self.texts = []

    def add(self, text):
        self.texts.append(text)

    def joined(self):
        return "\n".join(self.texts)


class Worker:
    """One worker process: call() sends a request and waits for its answer; stop() ends it with EOF."""

    def __init__(self, upstream, outputs, cache=None, database=None, arguments=(), env=None):
        self.cache = cache or tempfile.mkdtemp(prefix="boxoffice-fleet-machine-")
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_"))}
        environment.update({
            "KOBIS_API_KEY": "fleet-test-kobis-key", "KAKAO_REST_API_KEY": "fleet-test-kakao-key",
            "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
            "BOXOFFICE_TODAY": TODAY, "BOXOFFICE_CACHE_DIR": self.cache,
            # The fake upstream serves its images from loopback, where downloads go only when allowed.
            "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
        })
        if database:
            environment["BOXOFFICE_DATABASE_URL"] = database
        environment.update(env or {})
        self.outputs = outputs
        self.process = subprocess.Popen([BINARY, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=environment, bufsize=1)
        self.stderr_lines = []
        self.reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.reader.start()
        self.next_id = 0
        self.lock = threading.Lock()

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line)

    def call(self, method, params=None):
        """The answer to one request (its whole response object)."""
        with self.lock:
            self.next_id += 1
            request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
            if params is not None:
                request["params"] = params
            self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        self.outputs.add(line)
        assert line, "the worker ended without answering: %s" % self.stderr()
        return json.loads(line)

    def daily(self, date):
        return self.call("boxoffice.daily", {"date": date})

    def stderr(self):
        return "".join(self.stderr_lines)

    def stop(self, timeout=30):
        if self.process.poll() is None:
            self.process.stdin.close()
        code = self.process.wait(timeout=timeout)
        self.reader.join(timeout=5)
        self.outputs.add(self.stderr())
        return code

    def kill(self):
        self.process.kill()
        self.process.wait()
        self.reader.join(timeout=5)
        self.outputs.add(self.stderr())


class LockHolder:
    """A psql session of the cluster's superuser holding a session-level advisory lock on `key` in `database` until
    release(), as a worker busy migrating would."""

    def __init__(self, cluster, database, key):
        command = ["psql", "-X", "-q", "-A", "-t", "-h", str(cluster.sockets), "-p", str(cluster.port),
                   "-U", "postgres", "-d", database]
        if cluster.as_postgres:
            command = ["runuser", "-u", "postgres", "--"] + command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, cwd="/", bufsize=1)
        self.process.stdin.write("SELECT pg_advisory_lock(%d);\n" % key)
        self.process.stdin.flush()
        # psql prints the (empty) value of the function once the lock is held.
        assert self.process.stdout.readline() == "\n", "the advisory lock was not taken"

    def release(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def cache_files_text(directory):
    """Everything stored under a cache directory, as text (for the secret checks)."""
    chunks = []
    for path in pathlib.Path(directory).rglob("*"):
        if path.is_file():
            chunks.append(path.read_bytes().decode("latin-1"))
    return "\n".join(chunks)


def remove(directory):
    shutil.rmtree(directory, ignore_errors=True)
