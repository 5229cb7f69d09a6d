"""The Python client against the built worker (offline, and live against a fake upstream on 127.0.0.1), and
against a stub for what the worker never does on its own (a stderr flood, an answer line over 1 MiB)."""
import asyncio
import os
import signal
import time

import pytest
from boxoffice_worker import (
    AsyncWorker,
    InvalidParams,
    OfflineUnavailable,
    Worker,
    WorkerExited,
    WorkerTimeout,
)
from client_testing import BINARY, OFFLINE, STUB, live_env


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def offline(**options):
    return AsyncWorker(BINARY, env=OFFLINE, **options)


async def until_status(worker, holds, within=30):
    """Asks worker.status until `holds(requests)` is true (a state the worker reports, never a guessed time);
    fails after `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        requests = (await worker.status())["requests"]
        if holds(requests):
            return requests
    raise AssertionError("the worker never reported the state waited for: %r" % requests)


async def until_received(worker, count):
    """Until the worker has received `count` requests besides the worker.status calls made here to ask (a count that
    only grows, so a call that already finished still counts)."""
    asked = [0]

    def holds(requests):
        asked[0] += 1
        return requests["requests"] - asked[0] >= count

    return await until_status(worker, holds)


async def until_in_flight(worker, count):
    """Until `count` calls are in flight in the worker (worker.status, answered at once, is not among them)."""
    return await until_status(worker, lambda requests: requests["inFlight"] >= count)


def test_every_method_offline():
    async def body():
        async with offline() as worker:
            daily = await worker.daily(date="2023-04-26", limit=3)
            assert daily["kind"] == "daily" and len(daily["entries"]) == 3
            weekly = await worker.weekly(date="2012-01-01", period="weekend")
            assert weekly["kind"] == "weekend"
            assert (await worker.detail("20124079"))["title"] == "광해, 왕이 된 남자"
            assert (await worker.poster("광해, 왕이 된 남자"))["found"] is True
            assert (await worker.search("범죄와의 전쟁", limit=10))["total"] >= 1
            assert (await worker.status())["mode"] == "offline"
            assert await worker.call("ping") == {}

    run(body())


def test_every_method_live_against_a_fake_upstream(upstream, tmp_path):
    base, counts = upstream

    async def body():
        async with AsyncWorker(BINARY, env=live_env(base, tmp_path / "cache")) as worker:
            assert len((await worker.daily(date="2023-04-26"))["entries"]) == 10
            assert (await worker.weekly(date="2012-01-01", period="weekend"))["kind"] == "weekend"
            assert (await worker.detail("20124079"))["movieCode"] == "20124079"
            poster = await worker.poster("광해, 왕이 된 남자", download=True)
            assert poster["found"] is True and poster["file"]["mimeType"] == "image/jpeg"
            assert (await worker.search("범죄와의 전쟁"))["total"] >= 1
            status = await worker.status()
            assert status["mode"] == "live" and status["upstream"]["kobis"]["calls"] >= 4

    before = counts()["kobis"]
    run(body())
    assert counts()["kobis"] - before >= 4


def test_errors_are_exceptions_by_reason():
    async def body():
        async with offline() as worker:
            with pytest.raises(InvalidParams) as invalid:
                await worker.daily(date="2022-02-30")
            assert invalid.value.code == -32602 and invalid.value.reason == "invalid_params"
            with pytest.raises(OfflineUnavailable) as unavailable:
                await worker.daily(date="2020-01-01")
            assert unavailable.value.code == -31006 and "2023-04-26" in unavailable.value.data["available"]

    run(body())


def test_200_concurrent_calls_are_matched_by_id():
    async def body():
        async with offline() as worker:
            limits = [index % 10 + 1 for index in range(200)]
            results = await asyncio.gather(*(worker.daily(date="2022-01-05", limit=limit) for limit in limits))
            assert [len(result["entries"]) for result in results] == limits

    run(body())


def test_answers_out_of_order_reach_their_callers():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            # The first call is answered only once it is cancelled: the later ones overtake it, whatever the load.
            first = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 60000}))
            await until_received(worker, 1)
            second, third = await asyncio.gather(worker.call("diagnostics.sleep", {"ms": 2}),
                                                 worker.call("diagnostics.sleep", {"ms": 1}))
            assert (second["sleptMs"], third["sleptMs"]) == (2, 1)
            assert not first.done()
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first
            assert await worker.call("ping") == {}

    run(body())


def test_progress_callbacks_arrive_in_order():
    async def body():
        seen = []
        async with offline() as worker:
            result = await worker.daily(date="2022-01-05", include=["detail"],
                                        on_progress=lambda progress, total, message: seen.append((progress, total)))
        assert result["entries"][0]["detail"]["movieCode"]
        assert [progress for progress, _ in seen] == list(range(1, 11))
        assert all(total == 10 for _, total in seen)

    run(body())


def test_cancelling_the_task_cancels_the_request_and_the_worker_keeps_serving():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            task = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 20000}))
            await until_in_flight(worker, 1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await worker.call("ping") == {}
            await until_status(worker, lambda requests: requests["cancelled"] == 1)

    run(body())


def test_a_timeout_raises_and_cancels_in_the_worker():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            started = time.monotonic()
            with pytest.raises(WorkerTimeout):
                await worker.call("diagnostics.sleep", {"ms": 20000}, timeout=0.3)
            assert time.monotonic() - started < 5
            assert await worker.call("ping") == {}

    run(body())


def test_a_killed_worker_fails_its_calls_and_the_next_call_starts_a_new_one():
    async def body():
        async with offline(args=["--diagnostics"]) as worker:
            first = worker.pid
            pending = asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 20000}))
            await until_in_flight(worker, 1)
            os.kill(first, signal.SIGKILL)
            with pytest.raises(WorkerExited) as exited:
                await pending
            assert exited.value.returncode == -signal.SIGKILL
            assert await worker.call("ping") == {}
            assert worker.pid != first

    run(body())


def test_a_worker_writing_1_mib_to_stderr_does_not_deadlock():
    async def body():
        async with AsyncWorker(STUB) as worker:
            assert (await worker.call("flood", timeout=20))["flooded"] == 1 << 20
            assert await worker.call("ping") == {}

    run(body())


def test_an_answer_line_over_1_mib_is_read_whole():
    async def body():
        async with AsyncWorker(STUB) as worker:
            result = await worker.call("big", timeout=20)
            assert len(result["text"]) == 700 * 1024 and len(result["text"].encode()) > 1 << 20

    run(body())


def test_close_with_calls_in_flight_answers_them_all():
    async def body():
        worker = offline(args=["--diagnostics"])
        await worker.start()
        calls = [asyncio.ensure_future(worker.call("diagnostics.sleep", {"ms": 300})) for _ in range(20)]
        await until_received(worker, 20)
        await worker.close()
        results = await asyncio.gather(*calls)
        assert all(result["sleptMs"] == 300 for result in results)

    run(body())


def test_the_synchronous_wrapper():
    with Worker(BINARY, env=OFFLINE) as worker:
        assert worker.daily(date="2023-04-26")["entries"][0]["title"] == "드림"
        assert worker.status()["mode"] == "offline"
        with pytest.raises(InvalidParams):
            worker.daily(date="tomorrow")
