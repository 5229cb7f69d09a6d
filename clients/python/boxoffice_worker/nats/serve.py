"""`boxoffice-worker-nats serve`: the workers, the service, the job consumer, and the drain on SIGTERM.

The drain, in order: stop taking jobs and requests (the queue group's other adapters get them at once) and jobs; answer
every request taken and store and acknowledge every job taken; close the workers' stdin (each answers what it
holds and exits); drain the connection, which flushes the last replies; exit 0. A job that a second signal cuts
short is never acknowledged, so the server delivers it again after its ack wait.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from typing import Awaitable, List

import nats

from ..errors import WorkerExited, WorkerTimeout
from . import connection, names
from .service import BoxOfficeService
from .workers import WorkerPool
from .workqueue import JobConsumer

LOGGER = logging.getLogger("boxoffice_worker.nats")


async def serve(flags: argparse.Namespace, worker_args: List[str]) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    try:
        pool = WorkerPool(flags.workers, binary=flags.worker, args=worker_args)
    except (OSError, ValueError) as error:
        LOGGER.error("cannot start the worker: %s", error)
        return 70
    try:
        await pool.start()
    except (OSError, WorkerExited, WorkerTimeout) as error:
        tail = getattr(error, "stderr_tail", "").strip().splitlines()
        LOGGER.error("cannot start the worker: %s%s", error, (": " + tail[-1]) if tail else "")
        await pool.close()
        return 70
    options = connection.options(flags)
    shown = ", ".join(connection.shown(url) for url in options["servers"])

    async def disconnected() -> None:
        if not stop.is_set():
            LOGGER.warning("disconnected from NATS; reconnecting")

    async def reconnected() -> None:
        LOGGER.warning("reconnected to NATS")

    async def failed(error: Exception) -> None:
        LOGGER.warning("NATS: %s", error)

    # The first connect retries for ever (a service waits for its server), so it is raced against the stop.
    connecting = asyncio.ensure_future(nats.connect(**options, disconnected_cb=disconnected,
                                                    reconnected_cb=reconnected, error_cb=failed))
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait({connecting, stopped}, return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if not connecting.done():
        connecting.cancel()
        LOGGER.info("stopped before NATS at %s answered", shown)
        await pool.close()
        return 0
    try:
        client = connecting.result()
    except Exception as error:
        LOGGER.error("cannot reach NATS at %s: %s", shown, str(error) or type(error).__name__)
        await pool.close()
        return 69
    service = None
    consumer = None
    try:
        if not flags.no_requests:
            service = BoxOfficeService(client, pool, max_in_flight=flags.max_in_flight,
                                       metadata={"workers": str(flags.workers)})
            await service.start()
        if flags.jobs:
            consumer = JobConsumer(client, pool, concurrency=flags.job_concurrency or 4 * flags.workers,
                                   ack_wait=flags.ack_wait, backoff=flags.retry_backoff, max_tries=flags.max_tries)
            await consumer.start()
        LOGGER.info("serving %s on %s with %d worker%s%s%s", names.SERVICE, shown, flags.workers,
                    "" if flags.workers == 1 else "s", " (id %s)" % service.id if service else "",
                    ", working jobs" if consumer else "")
        await stop.wait()
        LOGGER.info("draining")
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
        # Each step even when one before it failed (NATS gone at the signal): the workers' stdin is always closed.
        if consumer is not None:
            consumer.stop_taking()
        if service is not None:
            await _step("leaving the endpoints", service.drain())
        if consumer is not None:
            await _step("finishing the jobs taken", consumer.stop())
        await pool.close()
        if not client.is_closed:
            await _step("draining the connection", client.drain())
    return 0


async def _step(what: str, work: Awaitable[None]) -> None:
    try:
        await work
    except Exception as error:
        LOGGER.warning("%s failed: %s", what, str(error) or type(error).__name__)
