"""The Python client across a fork (issue 40): a `Worker` or `AsyncWorker` made and used in a parent is used in a
forked child (os.fork, a `multiprocessing` pool with the "fork" start method), where it starts a worker of the child's
own, and the parent's worker goes on serving the parent. Every wait is bounded, so a regression (a child waiting for
ever on the parent's loop, pipes or pending calls) fails instead of hanging."""
import asyncio
import json
import multiprocessing
import os
import select
import signal
import time
import warnings

import pytest
from boxoffice_worker import AsyncWorker, Worker, WorkerExited
from client_testing import BINARY, OFFLINE

WITHIN = 5  # seconds each answer comes within, in a parent and in a child
DAY = "2023-04-26"  # recorded: answered offline (KOBIS_API_KEY empty, BOXOFFICE_TODAY 2026-11-21)
SHARED = None  # the module-level Worker of the pool test, made before the pool forks


def title(worker):
    return worker.daily(DAY)["entries"][0]["title"]


def fork():
    """os.fork, without Python 3.12's warning that forking a process with threads (a Worker's loop) may deadlock the
    child: that fork is the case under test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return os.fork()


def in_child(body, within=WITHIN):
    """`body()` run in a forked child, which writes its result (or its error) as JSON to a pipe and leaves with
    os._exit, never through pytest. Waits `within` seconds at most, then kills the child and fails."""
    read_end, write_end = os.pipe()
    pid = fork()
    if pid == 0:
        try:
            os.close(read_end)
            try:
                outcome = {"result": body()}
            except BaseException as error:  # noqa: BLE001 -- reported to the parent, which fails the test
                outcome = {"error": "%s: %s" % (type(error).__name__, error)}
            os.write(write_end, json.dumps(outcome).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    data = b""
    try:
        deadline = time.monotonic() + within
        while True:
            ready, _, _ = select.select([read_end], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                raise AssertionError("the forked child did not answer within %s s" % within)
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)  # the child has closed the pipe by exiting, or was killed: reaped at once
    outcome = json.loads(data) if data else {"error": "the child wrote nothing"}
    assert "error" not in outcome, outcome["error"]
    return outcome["result"]


def test_a_worker_answers_in_the_parent_then_in_a_forked_child_then_in_the_parent_again():
    with Worker(BINARY, env=OFFLINE, timeout=WITHIN) as worker:
        assert title(worker) == "드림"
        parent_worker = worker.pid

        def use_in_child():
            inherited = worker.pid
            answer = {"inherited": inherited, "title": title(worker), "ping": worker.call("ping"), "worker": worker.pid}
            worker.close()
            return answer

        child = in_child(use_in_child)
        assert child["inherited"] is None and child["title"] == "드림" and child["ping"] == {}
        assert child["worker"] not in (None, parent_worker)
        assert title(worker) == "드림"
        assert worker.pid == parent_worker


def answer_in_pool(_):
    """Run in a pool process: the module-level Worker, made in the parent before the pool forked."""
    answer = title(SHARED)
    return os.getpid(), SHARED.pid, answer


def test_a_module_level_worker_serves_a_fork_pool_of_two():
    global SHARED
    SHARED = Worker(BINARY, env=OFFLINE, timeout=WITHIN)
    try:
        assert title(SHARED) == "드림"
        parent_worker = SHARED.pid
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # as in fork()
            with multiprocessing.get_context("fork").Pool(2) as pool:
                answers = pool.map_async(answer_in_pool, range(6), chunksize=1).get(timeout=4 * WITHIN)
        assert [answer for _, _, answer in answers] == ["드림"] * 6
        workers = {}
        for process, worker, _ in answers:
            assert workers.setdefault(process, worker) == worker  # each pool process reuses its own worker
        assert len(set(workers.values())) == len(workers)
        assert os.getpid() not in workers and parent_worker not in workers.values()
        assert title(SHARED) == "드림"
        assert SHARED.pid == parent_worker
    finally:
        SHARED.close()
        SHARED = None


def test_closing_the_client_in_a_child_leaves_the_parent_s_worker_serving():
    with Worker(BINARY, env=OFFLINE, timeout=WITHIN) as worker:
        assert worker.call("ping") == {}
        parent_worker = worker.pid

        def close_in_child():
            inherited = worker.pid
            worker.close()
            with pytest.raises(WorkerExited, match="closed"):
                worker.call("ping")
            return {"inherited": inherited}

        assert in_child(close_in_child) == {"inherited": None}
        # The child has exited (in_child reaped it): the parent's worker, the same process, still answers.
        assert worker.call("ping") == {}
        assert title(worker) == "드림"
        assert worker.pid == parent_worker


def test_an_async_worker_answers_in_the_parent_s_loop_then_in_a_forked_child_s_own_loop():
    async def in_parent():
        async with AsyncWorker(BINARY, env=OFFLINE, timeout=WITHIN) as worker:
            assert (await worker.daily(DAY))["entries"][0]["title"] == "드림"
            parent_worker = worker.pid

            async def in_child_loop():
                inherited = worker.pid
                answer = (await worker.daily(DAY))["entries"][0]["title"]
                own = worker.pid
                await worker.close()
                return {"inherited": inherited, "title": answer, "worker": own}

            # Forked from inside the parent's running loop; the child runs a loop of its own.
            child = in_child(lambda: asyncio.run(asyncio.wait_for(in_child_loop(), WITHIN)))
            assert child["inherited"] is None and child["title"] == "드림"
            assert child["worker"] not in (None, parent_worker)
            assert (await worker.daily(DAY))["entries"][0]["title"] == "드림"
            assert await worker.call("ping") == {}
            assert worker.pid == parent_worker

    asyncio.run(asyncio.wait_for(in_parent(), 6 * WITHIN))
