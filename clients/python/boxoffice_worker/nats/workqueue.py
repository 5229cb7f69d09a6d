"""The JetStream work queue: jobs that must not be lost.

- `submit` publishes one message a job on `boxoffice.jobs.<batch>` into the work-queue stream `BOXOFFICE_JOBS`
  (each with `Nats-Msg-Id` `<batch>.<n>`, so a submit that is retried does not queue a job twice), then writes the
  batch's size: a batch is collectable once all of its jobs are queued.
- Every adapter started with `--jobs` pulls from the one durable consumer `boxoffice` with explicit
  acknowledgement. A job's outcome (`pipe`'s outcome line: `{"id"?, "result"}` or `{"id"?, "error"}`) is put in the
  key-value bucket `boxoffice-outcomes` under `<batch>.<n>` and only then acknowledged. While a job runs its
  adapter tells the server it is still working (`+WPI`, every third of the ack wait), so a long call is not
  redelivered; an adapter that dies stops saying so, and its jobs are delivered again after the ack wait.
- A failure time will not mend is the job's outcome (acknowledged); one it may mend is given back with a delay
  (`NAK` + delay): after a doubling backoff for the upstream or a worker gone, up to `max_tries` deliveries (then
  that failure is the outcome), at the quota's reset for the quota, without limit (the same decisions as the Celery
  and RQ tasks, `boxoffice_worker.jobs.decide`). A job whose worker was stopped under it is given back at once.
- `collect` reads the bucket in submission order, waiting for what is not there yet; each outcome is read once
  (a job stored twice, by an adapter that died after its put and before its ack, is one key with one value).
"""
from __future__ import annotations

import asyncio
import datetime
import json
import logging
import os
from typing import Any, AsyncIterator, Dict, Iterable, List, Optional, Set, Tuple

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import TimeoutError as NATSTimeout
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, AckPolicy, RetentionPolicy, StorageType
from nats.js.errors import BucketNotFoundError, NotFoundError
from nats.js.kv import KeyValue

from ..errors import RequestCancelled
from ..jobs import AtReset, Backoff, JobFailed, decide
from . import names
from .lines import job_of
from .outcome import encode, error_object
from .workers import WorkerPool

LOGGER = logging.getLogger("boxoffice_worker.nats")
# How long outcomes are kept (the bucket's max age): a week for a batch to be collected.
OUTCOMES_KEPT = 7 * 24 * 3600.0


async def queue(js: JetStreamContext) -> None:
    """Makes the work-queue stream when it is missing (every adapter and every submit may be first)."""
    try:
        await js.stream_info(names.JOBS_STREAM)
    except NotFoundError:
        await js.add_stream(name=names.JOBS_STREAM, subjects=[names.JOBS_SUBJECT + ".>"],
                            retention=RetentionPolicy.WORK_QUEUE, storage=StorageType.FILE, duplicate_window=3600.0)


async def outcomes(js: JetStreamContext) -> KeyValue:
    """The outcomes bucket, made when it is missing."""
    try:
        return await js.key_value(names.OUTCOMES_BUCKET)
    except BucketNotFoundError:
        return await js.create_key_value(bucket=names.OUTCOMES_BUCKET, history=1, ttl=OUTCOMES_KEPT,
                                         storage=StorageType.FILE)


def new_batch() -> str:
    """A batch id: its submission time (UTC) and 6 random hex digits, one NATS token."""
    return "%s-%s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S"), os.urandom(3).hex())


def outcome_of(job: Dict[str, Any], result: Optional[bytes], failure: Optional[Dict[str, Any]]) -> bytes:
    """`pipe`'s outcome line of `job`: its `id` (when it had one) and the result's text or the error object."""
    head = b'{"id":' + encode(job["id"]) + b"," if "id" in job else b"{"
    if failure is not None:
        return head + b'"error":' + encode(failure) + b"}"
    assert result is not None
    return head + b'"result":' + result + b"}"


async def submit(client: Client, method: Optional[str], lines: Iterable[str], batch: Optional[str] = None) -> Tuple[str, int]:
    """Queues one job a line; the batch id and its size. A line that is no job gets its refusal as its outcome at
    once; the rest are published, 256 at a time awaiting their acknowledgements."""
    js = client.jetstream()
    await queue(js)
    bucket = await outcomes(js)
    batch = batch or new_batch()
    pending: List["asyncio.Future[Any]"] = []
    count = 0
    for count, line in enumerate(lines, 1):
        job, refused = job_of(line, method)
        if job is None:
            await bucket.put(names.outcome_key(batch, count), outcome_of({}, None, refused))
            continue
        headers = {"Nats-Msg-Id": names.outcome_key(batch, count), names.BATCH_HEADER: batch,
                   names.INDEX_HEADER: str(count)}
        pending.append(asyncio.ensure_future(js.publish(names.job_subject(batch), encode(job), headers=headers)))
        if len(pending) >= 256:
            await asyncio.gather(*pending)
            pending = []
    await asyncio.gather(*pending)
    await bucket.put(names.size_key(batch), str(count).encode())
    return batch, count


class UnknownBatch(LookupError):
    """The bucket holds nothing of the batch: a mistyped id, or outcomes older than the bucket keeps."""


async def collect(client: Client, batch: str) -> AsyncIterator[bytes]:
    """The outcomes of `batch` in submission order, each once, waiting for those not stored yet. Raises
    `UnknownBatch` when the bucket holds nothing of it (submit writes the batch's size before it prints its id)."""
    bucket = await outcomes(client.jetstream())
    watcher = await bucket.watch("%s.*" % batch)
    stored: Dict[int, bytes] = {}
    size: Optional[int] = None
    following = 1
    seen = False
    try:
        async for entry in watcher:
            if entry is None:
                # nats-py ends the initial values when the consumer reports nothing pending and nothing delivered
                # yet, which a stored value already on its way to the callback also reads as: a fleet's host killed
                # under load had `collect` call a batch unknown whose size was stored. A direct read decides.
                if not seen and not await _stored(bucket, names.size_key(batch)):
                    raise UnknownBatch(batch)
                continue
            seen = True
            if entry.value is None:
                continue
            tail = entry.key[len(batch) + 1:]
            if tail == "jobs":
                size = int(entry.value)
            elif tail.isdigit():
                stored.setdefault(int(tail), entry.value)
            while following in stored:
                yield stored.pop(following)
                following += 1
            if size is not None and following > size:
                return
    finally:
        await watcher.stop()


async def _stored(bucket: KeyValue, key: str) -> bool:
    """Whether the bucket holds a value under `key` now."""
    try:
        entry = await bucket.get(key)
    except NotFoundError:
        return False
    return entry is not None and entry.value is not None


def _seconds_until(when: datetime.datetime) -> float:
    """Seconds from now until `when` (a time without a zone is UTC), at least one."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(1.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())


class JobConsumer:
    """Pulls jobs for `pool`, `concurrency` at a time, until `stop()`."""

    def __init__(self, client: Client, pool: WorkerPool, *, concurrency: int, ack_wait: float,
                 backoff: float = 2.0, max_tries: int = 8):
        self._client = client
        self._pool = pool
        self._concurrency = concurrency
        self._ack_wait = ack_wait
        self._backoff = backoff
        self._max_tries = max_tries
        self._active: Set["asyncio.Task[None]"] = set()
        self._stopping = asyncio.Event()
        self._runner: Optional["asyncio.Task[None]"] = None
        self.done = 0

    async def start(self) -> None:
        js = self._client.jetstream()
        await queue(js)
        self._bucket = await outcomes(js)
        config = ConsumerConfig(ack_policy=AckPolicy.EXPLICIT, ack_wait=self._ack_wait, max_deliver=-1,
                                max_ack_pending=-1)
        self._subscription = await js.pull_subscribe(names.JOBS_SUBJECT + ".>", durable=names.JOBS_CONSUMER,
                                                     stream=names.JOBS_STREAM, config=config)
        # The consumer is shared and made by the first adapter: its ack wait, not this one's flag, is the one the
        # server keeps, and the progress signals are paced by it.
        consumer = await self._subscription.consumer_info()
        if consumer.config.ack_wait and consumer.config.ack_wait != self._ack_wait:
            LOGGER.warning("the job consumer's ack wait is %.0f s (made by another adapter), not --ack-wait %.0f s",
                           consumer.config.ack_wait, self._ack_wait)
            self._ack_wait = consumer.config.ack_wait
        self._runner = asyncio.ensure_future(self._run())

    def stop_taking(self) -> None:
        """Takes no more jobs from now on (those taken go on)."""
        self._stopping.set()

    async def stop(self) -> None:
        """Takes no more jobs, finishes those taken (each stored and acknowledged), and returns."""
        self._stopping.set()
        if self._runner is not None:
            await self._runner
        while self._active:
            await asyncio.gather(*list(self._active), return_exceptions=True)
        try:
            await self._subscription.unsubscribe()
        except Exception:  # the connection may be closing already; the consumer is durable either way
            pass

    async def _run(self) -> None:
        while not self._stopping.is_set():
            room = self._concurrency - len(self._active)
            if room <= 0:
                await asyncio.wait(list(self._active), return_when=asyncio.FIRST_COMPLETED)
                continue
            try:
                messages = await self._subscription.fetch(room, timeout=1.0)
            except (NATSTimeout, asyncio.TimeoutError):
                continue
            except Exception as error:
                if self._stopping.is_set():
                    return
                LOGGER.warning("fetching jobs failed (%s); trying again", type(error).__name__)
                await asyncio.sleep(1.0)  # sleep-ok: a pause before asking a server that failed again
                continue
            for message in messages:
                task = asyncio.ensure_future(self._handle(message))
                self._active.add(task)
                task.add_done_callback(self._active.discard)

    async def _handle(self, message: Msg) -> None:
        job = self._job_of(message)
        if job is None:
            LOGGER.warning("a message on %s is no job (its headers or body); terminated", message.subject)
            await message.term()
            return
        batch, index = job.pop("batch"), job.pop("index")
        heartbeat = asyncio.ensure_future(self._working(message))
        try:
            result: Optional[bytes] = None
            failure: Optional[Dict[str, Any]] = None
            try:
                result = await self._pool.call_json(job["method"], job.get("params") or {})
            except RequestCancelled:
                # The worker was stopped under the job (a signal that reached it too): nothing is wrong with the
                # job; another adapter, or this one started again, does it.
                await message.nak(delay=1.0)
                return
            except Exception as error:
                tries = message.metadata.num_delivered or 1
                try:
                    decision = decide(error, tries - 1, base=self._backoff)
                except Exception:
                    decision = JobFailed("internal_error", type(error).__name__)
                if isinstance(decision, Backoff) and tries < self._max_tries:
                    await message.nak(delay=decision.seconds)
                    return
                if isinstance(decision, AtReset):
                    await message.nak(delay=_seconds_until(decision.when))
                    return
                failure = error_object(error)
            try:
                await self._bucket.put(names.outcome_key(batch, index), outcome_of(job, result, failure))
            except Exception as error:
                LOGGER.warning("the outcome of %s.%d could not be stored (%s); given back", batch, index,
                               type(error).__name__)
                await message.nak(delay=1.0)
                return
            await message.ack()
            self.done += 1
        finally:
            heartbeat.cancel()

    @staticmethod
    def _job_of(message: Msg) -> Optional[Dict[str, Any]]:
        """The job a message carries, with its batch and index; None for a message no submit wrote (it would be
        delivered again for ever)."""
        headers = message.headers or {}
        batch, index = headers.get(names.BATCH_HEADER, ""), headers.get(names.INDEX_HEADER, "")
        try:
            job = json.loads(message.data)
        except ValueError:
            return None
        if not batch or not index.isdigit() or int(index) < 1 or not isinstance(job, dict):
            return None
        if not isinstance(job.get("method"), str) or not isinstance(job.get("params", {}), dict):
            return None
        return dict(job, batch=batch, index=int(index))

    async def _working(self, message: Msg) -> None:
        """Tells the server, every third of the ack wait, that the job is still being worked on."""
        while True:
            await asyncio.sleep(self._ack_wait / 3)  # sleep-ok: the pace of a progress signal
            try:
                await message.in_progress()
            except Exception:
                return
