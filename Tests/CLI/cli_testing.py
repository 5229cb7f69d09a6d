"""Shared set-up of the CLI tests: the built binary, a tmux server of their own, a fake upstream."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
OFFLINE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}


class Terminal:
    """A real terminal: tmux on a socket of the tests' own, a fixed size, the screen read with capture-pane."""

    def __init__(self):
        # The socket in a directory of the tests' own (tmux's default, /tmp/tmux-UID, would stay behind).
        self.folder = tempfile.mkdtemp(prefix="boxoffice-tmux-")
        self.socket = os.path.join(self.folder, "socket")
        # A session that outlives every test's own: tmux's server exits when its last session is killed, and a
        # new-session that reached the socket while it was exiting failed with "server exited unexpectedly"
        # (two screen tests in one CI run; 9 of 200 kill-then-start cycles here, none with this session).
        self.tmux("new-session", "-d", "-s", "keepalive", "sleep 86400")

    def tmux(self, *args, check=True, timeout=30):
        return subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=check,
                              timeout=timeout)

    def run(self, arguments, width=100, height=30, env=None, escapes=False):
        """Runs the binary with `arguments` in a fresh window of `width` x `height`; the screen once it exited."""
        name = "s%s" % uuid.uuid4().hex[:8]
        environment = dict(OFFLINE, **(env or {}))
        command = " ".join(["'%s'" % BINARY] + ["'%s'" % argument for argument in arguments])
        exports = []
        for key, value in environment.items():
            exports += ["-e", "%s=%s" % (key, value)]
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), *exports,
                  "%s; tmux wait-for -S %s; sleep 60" % (command, name))
        self.tmux("wait-for", name, timeout=30)
        captured = self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", name).stdout
        self.tmux("kill-session", "-t", name, check=False)
        return captured.rstrip("\n") + "\n"

    def close(self):
        self.tmux("kill-server", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def terminal():
    term = Terminal()
    yield term
    term.close()


@pytest.fixture()
def upstream():
    """(base URL, a function returning the counts so far); 50 ms per call."""
    running = fake_upstream.Running(delay_ms=50)
    yield running.base, running.counts
    running.stop()


def run(arguments, env=None, **options):
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment.update(OFFLINE)
    environment.update(env or {})
    return subprocess.run([BINARY, *arguments], capture_output=True, text=True, env=environment, timeout=120, **options)
