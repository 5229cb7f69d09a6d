"""The worker's methods as a NATS service: one endpoint per method on `kobis.<method>`, every one in the queue group
`boxoffice`, and the service protocol's `$SRV.PING`, `$SRV.INFO` and `$SRV.STATS` answered for `boxoffice`.

The protocol's messages are nats-py's own (`nats.micro`'s `ServicePing`, `ServiceInfo`, `ServiceStats`,
`EndpointStats`, `control_subject` and its error headers), so any NATS client's service discovery reads them. The
endpoints are not `nats.micro`'s: its endpoint awaits each request's handler before it takes the next request of
that subject, so one live call of a few hundred milliseconds would hold every other `boxoffice.daily` behind it.
Here a request starts its own task at once, up to `max_in_flight` at a time (beyond that the subscription waits,
which NATS sees as a slow consumer rather than the adapter taking more than its workers can hold), and its time is
counted from arrival to reply.
"""
from __future__ import annotations

import asyncio
import datetime
import functools
import json
import logging
import time
from typing import Any, Dict, List, Optional, Sequence, Set

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.micro.service import (EndpointInfo, EndpointStats, ServiceInfo, ServicePing, ServiceStats, ServiceVerb,
                                control_subject)
from nats.nuid import NUID

from .. import _version
from . import names
from .outcome import error_object, error_reply, header_value, params_of
from .workers import WorkerPool

LOGGER = logging.getLogger("boxoffice_worker.nats")
DESCRIPTION = "Korean box office data (KOBIS): the boxoffice-worker methods, params in, result out"


class _Endpoint:
    """One method's subscription and its counters."""

    def __init__(self, method: str):
        self.method = method
        self.subject = names.subject(method)
        self.name = names.endpoint_name(method)
        self.subscription: Optional[Subscription] = None
        self.requests = 0
        self.errors = 0
        self.processing_time = 0
        self.last_error = ""

    def stats(self) -> EndpointStats:
        return EndpointStats(name=self.name, subject=self.subject, queue_group=names.QUEUE_GROUP,
                             num_requests=self.requests, num_errors=self.errors,
                             processing_time=self.processing_time,
                             average_processing_time=self.processing_time // self.requests if self.requests else 0,
                             last_error=self.last_error)

    def info(self) -> EndpointInfo:
        return EndpointInfo(name=self.name, subject=self.subject, queue_group=names.QUEUE_GROUP,
                            metadata={"method": self.method})


class BoxOfficeService:
    """Serves `methods` over `client` with the workers of `pool`."""

    def __init__(self, client: Client, pool: WorkerPool, *, methods: Sequence[str] = names.METHODS,
                 max_in_flight: Optional[int] = None, metadata: Optional[Dict[str, str]] = None):
        self._client = client
        self._pool = pool
        self.id = NUID().next().decode()
        self._endpoints = [_Endpoint(method) for method in methods]
        self._control: List[Subscription] = []
        self._room = asyncio.Semaphore(max_in_flight or 256 * pool.size)
        self._tasks: Set["asyncio.Task[None]"] = set()
        self._metadata = dict(metadata or {})
        self._started = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)

    async def start(self) -> None:
        """Subscribes every endpoint and the service protocol's subjects; returns once the server has them."""
        for endpoint in self._endpoints:
            endpoint.subscription = await self._client.subscribe(
                endpoint.subject, queue=names.QUEUE_GROUP, cb=functools.partial(self._on_request, endpoint))
        handlers = {ServiceVerb.PING: self._ping, ServiceVerb.INFO: self._info, ServiceVerb.STATS: self._stats}
        for verb, handler in handlers.items():
            for subject in (control_subject(verb), control_subject(verb, names.SERVICE),
                            control_subject(verb, names.SERVICE, self.id)):
                self._control.append(await self._client.subscribe(subject, cb=handler))
        await self._client.flush()

    async def drain(self) -> None:
        """Stops taking requests (the queue group's other members get them from now on), answers every request
        taken, then leaves the service protocol's subjects."""
        for endpoint in self._endpoints:
            if endpoint.subscription is not None:
                await endpoint.subscription.drain()
                endpoint.subscription = None
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        for subscription in self._control:
            await subscription.unsubscribe()
        self._control = []
        await self._client.flush()

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    # Requests

    async def _on_request(self, endpoint: _Endpoint, message: Msg) -> None:
        arrived = time.perf_counter_ns()
        await self._room.acquire()
        task = asyncio.ensure_future(self._answer(endpoint, message, arrived))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, endpoint: _Endpoint, message: Msg, arrived: int) -> None:
        try:
            params, refused = params_of(message.data)
            headers: Optional[Dict[str, str]] = None
            if refused is not None:
                failure: Optional[Dict[str, Any]] = refused
            else:
                try:
                    body = await self._pool.call_json(endpoint.method, params or {})
                    failure = None
                except Exception as error:  # every failure is the caller's answer, never the adapter's end
                    failure = error_object(error)
            if failure is not None:
                body, headers = error_reply(failure)
                endpoint.errors += 1
                endpoint.last_error = "%s:%s" % (failure["code"], header_value(str(failure["message"])))
            if message.reply:
                await self._client.publish(message.reply, body, headers=headers)
        except Exception:
            LOGGER.exception("a reply on %s could not be sent", endpoint.subject)
        finally:
            endpoint.requests += 1
            endpoint.processing_time += time.perf_counter_ns() - arrived
            self._room.release()

    # The service protocol

    def ping(self) -> ServicePing:
        return ServicePing(id=self.id, name=names.SERVICE, version=_version.__version__, metadata=self._metadata)

    def info(self) -> ServiceInfo:
        return ServiceInfo(id=self.id, name=names.SERVICE, version=_version.__version__, description=DESCRIPTION,
                           endpoints=[endpoint.info() for endpoint in self._endpoints], metadata=self._metadata)

    def stats(self) -> ServiceStats:
        return ServiceStats(id=self.id, name=names.SERVICE, version=_version.__version__, started=self._started,
                            endpoints=[endpoint.stats() for endpoint in self._endpoints], metadata=self._metadata)

    async def _ping(self, message: Msg) -> None:
        await self._reply(message, self.ping().to_dict())

    async def _info(self, message: Msg) -> None:
        await self._reply(message, self.info().to_dict())

    async def _stats(self, message: Msg) -> None:
        await self._reply(message, self.stats().to_dict())

    async def _reply(self, message: Msg, document: Dict[str, Any]) -> None:
        if message.reply:
            await self._client.publish(message.reply, json.dumps(document).encode())
