"""The adapter's long-lived workers: `--workers N` of them, each with its own stdin and stdout, a call sent to the
one with the fewest calls in flight, a worker that died started again after a backoff.

`AsyncWorker` already restarts a worker on the next call; what the pool adds is the service's view: a worker that
dies fails only the calls it held, and each of those is sent again to another worker (every method is a read, so a
second try cannot do anything twice); a worker that keeps dying is left alone for a doubling pause (0.5 s up to
30 s, forgiven once it has run a minute) while the others take its calls.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, List, Mapping, Optional, Sequence

from ..client import AsyncWorker
from ..errors import WorkerExited

LOGGER = logging.getLogger("boxoffice_worker.nats")
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 30.0
FORGIVEN_AFTER = 60.0


class _Slot:
    """One worker and what the pool knows of it."""

    def __init__(self, worker: AsyncWorker):
        self.worker = worker
        self.in_flight = 0
        self.deaths = 0
        self.down_until = 0.0
        self.started = time.monotonic()
        self.last_pid: Optional[int] = None

    def died(self, pid: Optional[int]) -> None:
        """Counts a death once per process (every call it held reports it) and sets the pause before the next."""
        if pid is not None and pid == self.last_pid:
            return
        self.last_pid = pid
        now = time.monotonic()
        if now - self.started > FORGIVEN_AFTER:
            self.deaths = 0
        self.deaths += 1
        pause = min(LONGEST_PAUSE, FIRST_PAUSE * 2 ** (self.deaths - 1))
        self.down_until = now + pause
        self.started = self.down_until
        LOGGER.warning("a worker (pid %s) exited; starting it again in %.1f s", pid, pause)


class WorkerPool:
    """`count` workers of `binary` with `args` (the worker's own flags) and `env` added to the environment."""

    def __init__(self, count: int, *, binary: Optional[str] = None, args: Sequence[str] = (),
                 env: Optional[Mapping[str, str]] = None):
        if count < 1:
            raise ValueError("--workers must be at least 1")
        # The pool decides when a worker starts again; AsyncWorker's own limit would refuse for good instead.
        self._slots: List[_Slot] = [
            _Slot(AsyncWorker(binary, args=args, env=env, max_restarts=1 << 30, restart_window=1.0, new_session=True))
            for _ in range(count)]

    @property
    def size(self) -> int:
        return len(self._slots)

    @property
    def in_flight(self) -> int:
        return sum(slot.in_flight for slot in self._slots)

    async def start(self) -> None:
        """Starts every worker now and pings it, so a bad binary or flag is found before the first request, not
        by it: a worker that exits instead of answering raises `WorkerExited` with the end of its stderr."""
        for slot in self._slots:
            await slot.worker.call("ping", timeout=60)

    async def call_json(self, method: str, params: Mapping[str, Any]) -> bytes:
        """Calls `method` on a live worker; the result's JSON text. A call whose worker died is sent again to
        another (or the same one, started again), at most once per worker; then its `WorkerExited` is raised."""
        tries = 0
        while True:
            slot = await self._pick()
            slot.in_flight += 1
            pid = slot.worker.pid
            try:
                return await slot.worker.call_json(method, params)
            except WorkerExited:
                slot.died(slot.worker.pid or pid)
                tries += 1
                if tries >= len(self._slots) + 1:
                    raise
            finally:
                slot.in_flight -= 1

    async def _pick(self) -> _Slot:
        """The worker with the fewest calls in flight among those not pausing; when every one pauses, waits for
        the first pause to end."""
        while True:
            now = time.monotonic()
            ready = [slot for slot in self._slots if slot.down_until <= now]
            if ready:
                return min(ready, key=lambda slot: slot.in_flight)
            await asyncio.sleep(min(slot.down_until for slot in self._slots) - now)  # sleep-ok: a restart's backoff

    async def close(self, timeout: float = 30.0) -> None:
        """Closes every worker's stdin (each answers what it holds, then exits) and waits for them."""
        await asyncio.gather(*(slot.worker.close(timeout) for slot in self._slots), return_exceptions=True)
