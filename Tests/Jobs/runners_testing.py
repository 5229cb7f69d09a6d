"""A real Redis (Debian's redis-server on a free loopback port) and the job runners' workers as the user runs them:
`celery -A boxoffice_worker.celery worker` and `rq worker`, from the package, with the worker's settings in the
environment."""
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

from jobs_testing import BINARY, ROOT

PYTHON_PACKAGE = ROOT / "clients" / "python"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """redis-server on 127.0.0.1 with nothing saved to disk, in `folder`."""

    def __init__(self, folder):
        self.port = free_port()
        self.url = "redis://127.0.0.1:%d" % self.port
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(folder), "--protected-mode", "yes"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            if "Ready to accept connections" in line:
                break
        else:
            raise RuntimeError("redis-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.process.stdout.close()


def runner_environment(worker_env, redis, extra=None):
    """The environment of a job runner's worker: the boxoffice worker's (its keys and upstream), the package on the
    path, the broker, and short retry backoffs."""
    env = dict(worker_env)
    env.update({"PYTHONPATH": str(PYTHON_PACKAGE), "BOXOFFICE_WORKER": BINARY, "BOXOFFICE_RETRY_BACKOFF": "0.5",
                "CELERY_BROKER_URL": redis.url + "/0", "CELERY_RESULT_BACKEND": redis.url + "/1",
                "PYTHONUNBUFFERED": "1"})
    env.update(extra or {})
    return env


def children(pid):
    """The process ids whose parent is `pid`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def command_of(pid):
    try:
        return pathlib.Path("/proc/%d/cmdline" % pid).read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def wait_until(condition, seconds=60, what="the condition"):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.05)  # sleep-ok: polling another process's state (the runner's pool, Redis)


class Runner:
    """A job runner's worker started as a command; its log goes to `log`."""

    def __init__(self, argv, env, log):
        self.log = open(log, "w")
        self.process = subprocess.Popen(argv, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


def celery_worker(env, log, concurrency=2):
    return Runner([sys.executable, "-m", "celery", "-A", "boxoffice_worker.celery", "worker", "--pool", "prefork",
                   "--concurrency", str(concurrency), "--loglevel", "WARNING", "--without-heartbeat",
                   "--without-gossip", "--without-mingle", "-n", "jobs-test@%h"], env, log)


def rq_worker(env, redis, log, simple=False):
    return Runner([sys.executable, "-m", "rq.cli", "worker", "--url", redis.url + "/2", "--with-scheduler",
                   "--logging_level", "WARNING"] + (["--worker-class", "rq.worker.SimpleWorker"] if simple else []),
                  env, log)


def without_source(value):
    """An answer without its `source` (when and where from differ between the first answer and a cached one)."""
    if isinstance(value, dict):
        return {key: without_source(item) for key, item in value.items() if key != "source"}
    if isinstance(value, list):
        return [without_source(item) for item in value]
    return value
