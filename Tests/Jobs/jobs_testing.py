"""Shared set-up of the job-runner tests: the worker binary, its environment (offline, or live against a fake
upstream), and a line processor that follows Redpanda Connect's `subprocess` rules."""
import os
import pathlib
import select
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
# A fixed today, so that "a future date" and "yesterday" mean the same days on every run.
TODAY = "2024-01-10"


def environment(extra=None):
    """The worker's environment: no keys from the caller's (offline unless `extra` sets them), a fixed today."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_"))}
    env.update({"BOXOFFICE_TODAY": TODAY, "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""})
    env.update(extra or {})
    return env


def live(upstream, cache):
    """The environment of a live worker whose KOBIS and Kakao are the fake upstream."""
    return environment({"KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
                        "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
                        "BOXOFFICE_CACHE_DIR": str(cache), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1"})


def pipe(arguments, lines, env, timeout=300):
    """Runs `boxoffice-worker pipe ARGUMENTS` over `lines`; the completed process (text)."""
    return subprocess.run([BINARY, "pipe", *arguments], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, env=env, timeout=timeout)


class MessageFailed(Exception):
    """What the processor would mark a message with: stderr during it, a line over the buffer, the child gone."""


class LineProcessor:
    """A long-lived child driven as Redpanda Connect's `subprocess` processor drives it: one message in flight at a
    time (a lock), the message written as one line, exactly one stdout line read back, no timeout of its own (only
    `guard` seconds, the test's), the message failed if the child wrote anything to stderr meanwhile, and a line
    longer than `max_buffer` (64 KiB, the processor's default) failed as the processor's scanner fails it."""

    def __init__(self, argv, env, max_buffer=65536, guard=120):
        self.max_buffer = max_buffer
        self.guard = guard
        self.child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      env=env)
        self.lock = threading.Lock()
        self.stderr = bytearray()
        self.stderr_lock = threading.Lock()
        self.reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.reader.start()
        self.pending = b""

    def _read_stderr(self):
        for chunk in iter(lambda: self.child.stderr.read1(4096), b""):
            with self.stderr_lock:
                self.stderr += chunk

    def _stderr_size(self):
        with self.stderr_lock:
            return len(self.stderr)

    def _read_line(self):
        descriptor = self.child.stdout.fileno()
        while b"\n" not in self.pending:
            if len(self.pending) > self.max_buffer:
                raise MessageFailed("the answer line exceeds max_buffer (%d bytes)" % self.max_buffer)
            ready, _, _ = select.select([descriptor], [], [], self.guard)
            if not ready:
                raise MessageFailed("no answer line within the test's guard of %d s" % self.guard)
            chunk = os.read(descriptor, 65536)
            if not chunk:
                raise MessageFailed("the child closed stdout (exit %s)" % self.child.poll())
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        if len(line) > self.max_buffer:
            raise MessageFailed("the answer line is %d bytes, over max_buffer (%d)" % (len(line), self.max_buffer))
        return line

    def process(self, message):
        """The one line the child answers `message` (bytes or text) with."""
        with self.lock:
            before = self._stderr_size()
            self.child.stdin.write((message if isinstance(message, bytes) else message.encode()) + b"\n")
            self.child.stdin.flush()
            line = self._read_line()
            if self._stderr_size() != before:
                raise MessageFailed("the child wrote to stderr: %r" % bytes(self.stderr[before:]))
            return line

    def close(self):
        """Closes stdin and waits; the exit status and everything stderr got."""
        self.child.stdin.close()
        status = self.child.wait(timeout=self.guard)
        self.reader.join(timeout=self.guard)
        self.child.stdout.close()
        self.child.stderr.close()
        return status, bytes(self.stderr)
