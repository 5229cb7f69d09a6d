"""Shared set-up of the NATS adapter's tests: Debian's nats-server with JetStream on a free loopback port, the
adapter started as its users start it (`python -m boxoffice_worker.nats` with the package on the path), and the
worker's environment (offline, or live against the fake upstream)."""
import asyncio
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Jobs"))
sys.path.insert(0, str(ROOT / "clients" / "python"))
# The job runners' set-up: the worker binary, its environment (a fixed today, no caller's keys), a free port.
from jobs_testing import BINARY, TODAY, fake_upstream  # noqa: E402,F401
import jobs_testing  # noqa: E402
from runners_testing import free_port  # noqa: E402

PYTHON_PACKAGE = ROOT / "clients" / "python"


def nats_server_binary():
    return shutil.which("nats-server") or ("/usr/sbin/nats-server" if os.path.exists("/usr/sbin/nats-server") else None)


class NATSServer:
    """nats-server -js on 127.0.0.1, its JetStream store in `folder`, with `arguments` (`--user`, `--pass`)."""

    def __init__(self, folder, arguments=()):
        binary = nats_server_binary()
        if binary is None:
            raise RuntimeError("nats-server is not installed (bash scripts/setup nats-server)")
        self.port = free_port()
        self.url = "nats://127.0.0.1:%d" % self.port
        pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
        self.log = pathlib.Path(folder) / "nats-server.log"
        self.process = subprocess.Popen(
            [binary, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(pathlib.Path(folder) / "jetstream"),
             "-l", str(self.log), *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while "Server is ready" not in (self.log.read_text() if self.log.exists() else ""):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nats-server did not start: %s" % (self.log.read_text() if self.log.exists() else ""))
            time.sleep(0.02)  # sleep-ok: polling another process's log for its ready line

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def adapted(env):
    """A worker's environment as the adapter's: the package on the path, the worker binary named, no NATS settings
    from the caller's."""
    env = {key: value for key, value in env.items() if not key.startswith("NATS_")}
    env.update({"PYTHONPATH": str(PYTHON_PACKAGE), "BOXOFFICE_WORKER": BINARY, "PYTHONUNBUFFERED": "1"})
    return env


def environment(extra=None):
    """The adapter's environment, its workers offline unless `extra` sets keys (or NATS settings)."""
    env = adapted(jobs_testing.environment())
    env.update(extra or {})
    return env


def live(upstream, cache):
    """The environment of an adapter whose workers' KOBIS and Kakao are the fake upstream."""
    return adapted(jobs_testing.live(upstream, cache))


class Adapter:
    """`python -m boxoffice_worker.nats ARGUMENTS` with `env`; its stderr goes to `log`. Ready once the service
    answers its own `$SRV.PING` (by id, from its log line) or, for a jobs-only adapter, once its log says so."""

    def __init__(self, server, arguments, env, log, worker_args=()):
        self.log_path = pathlib.Path(log)
        self.log = open(self.log_path, "w")
        argv = [sys.executable, "-m", "boxoffice_worker.nats", "serve", "--server", server.url, *arguments]
        if worker_args:
            argv += ["--", *worker_args]
        self.process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=self.log,
                                        start_new_session=True)
        deadline = time.monotonic() + 60
        while "serving boxoffice" not in self.log_path.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()  # a test that fails here never reaches its own stop
                raise RuntimeError("the adapter did not start: %s" % self.log_path.read_text())
            time.sleep(0.02)  # sleep-ok: polling another process's log for its ready line
        line = next(line for line in self.log_path.read_text().splitlines() if "serving boxoffice" in line)
        self.id = line.split("(id ", 1)[1].split(")", 1)[0] if "(id " in line else None

    def terminate(self, timeout=60):
        """SIGTERM, then its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.log.close()

    def kill(self):
        """SIGKILL to the adapter (a host dying); its workers, in sessions of their own, end on their stdin's EOF."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()

    def stop(self):
        if self.process.poll() is None:
            self.kill()
        elif not self.log.closed:
            self.log.close()


def cli(server, arguments, input_text="", env=None, timeout=300):
    """`python -m boxoffice_worker.nats ARGUMENTS` (submit, collect) to completion; the completed process."""
    return subprocess.run([sys.executable, "-m", "boxoffice_worker.nats", *arguments, "--server", server.url],
                          input=input_text, capture_output=True, text=True, env=env or environment(),
                          timeout=timeout)


def run(coroutine):
    return asyncio.run(coroutine)


async def connect(server):
    import nats
    return await nats.connect(server.url, max_reconnect_attempts=0, allow_reconnect=False)


async def request(client, method, params=None, timeout=30):
    """A request on `kobis.<method>`: (the decoded body, the headers)."""
    payload = b"" if params is None else json.dumps(params, ensure_ascii=False).encode()
    message = await client.request("kobis." + method, payload, timeout=timeout)
    return json.loads(message.data), (message.headers or {})


def rpc(lines, env, timeout=120):
    """The worker's JSON-RPC face over `lines` (requests as dicts): its answers by id."""
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    done = subprocess.run([BINARY], input=text, capture_output=True, text=True, env=env, timeout=timeout)
    answers = {}
    for line in done.stdout.splitlines():
        message = json.loads(line)
        answers[message.get("id")] = message
    return answers


def without_source(value):
    """An answer without what depends on the cache's state when it was made: its `source` (when and where from)
    and a run's count of upstream calls (two films of one compare share the days the first fetched)."""
    if isinstance(value, dict):
        return {key: without_source(item) for key, item in value.items()
                if key not in ("source", "cached", "fetchedAt", "calls", "plannedCalls")}
    if isinstance(value, list):
        return [without_source(item) for item in value]
    return value


def difference(first, second, path=""):
    """The JSON pointer of the first place where `first` and `second` differ, and the two values there; None when
    they are equal."""
    if isinstance(first, dict) and isinstance(second, dict):
        for key in sorted(set(first) | set(second)):
            if key not in first or key not in second:
                return path + "/" + key, first.get(key), second.get(key)
            found = difference(first[key], second[key], path + "/" + key)
            if found:
                return found
        return None
    if isinstance(first, list) and isinstance(second, list):
        for index, (one, other) in enumerate(zip(first, second)):
            found = difference(one, other, "%s/%d" % (path, index))
            if found:
                return found
        return None if len(first) == len(second) else (path, len(first), len(second))
    return None if first == second else (path, first, second)
