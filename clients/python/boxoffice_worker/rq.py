"""Job functions for RQ (`pip install 'boxoffice-worker[rq]'`), one per method, params as keyword arguments under their
protocol names, the result as the job's return value:

    from redis import Redis
    from rq import Queue, Retry
    queue = Queue(connection=Redis())
    job = queue.enqueue("boxoffice_worker.rq.boxoffice_daily", date="2024-01-01", retry=Retry(max=3))

    rq worker --with-scheduler          # the forking default: one work horse per job
    rq worker --with-scheduler --worker-class rq.worker.SimpleWorker   # one process for every job

Retries follow the error's reason, by returning RQ's `Retry` (RQ 2.6 and later): `upstream_unavailable` (and a worker
that died) after a doubling backoff, at most `BOXOFFICE_RETRY_MAX` (8) times; `quota_exhausted` at the quota's
reset time, without limit; anything else fails the job at once with `JobFailed`. A retry that waits needs the
scheduler (`--with-scheduler`). `retry=Retry(max=…)` at enqueue time is what runs a job again whose work horse was
killed (RQ fails such a job; its own retries then take it).

Which worker process answers: under `SimpleWorker` the RQ worker keeps one long-lived boxoffice-worker for every
job. Under the forking default each job runs in a new work horse, forked from the RQ worker; a horse must not use a
worker process its parent started (a horse killed mid-line would leave the shared pipe in pieces for the next), so
each horse starts one of its own, about 10 ms, over the same on-disk cache and quota as every other.
"""

from __future__ import annotations

import datetime
import math
import os
from typing import Any, Callable, Dict

from rq import Retry, get_current_job

from . import jobs
from .jobs import AtReset, Backoff, JobFailed

__all__ = ["run", "JobFailed"] + [method.replace(".", "_") for method in jobs.METHODS]

# RQ stops retrying past Retry.max tries in all; a spent quota is waited for however many resets it takes.
_UNLIMITED = 1_000_000


def run(method: str, **params: Any) -> Any:
    """Runs `method` with `params` on this process's worker; the result, or a `Retry` for RQ to act on."""
    job = get_current_job()
    attempt = (job.number_of_retries or 0) if job is not None else 0
    try:
        return jobs.call(method, params)
    except JobFailed:
        raise
    except Exception as error:  # noqa: BLE001 -- decide() re-raises what it does not know
        decision = jobs.decide(error, attempt, float(os.environ.get("BOXOFFICE_RETRY_BACKOFF", "2")))
        if isinstance(decision, JobFailed):
            raise decision from None
        if isinstance(decision, AtReset):
            wait = (decision.when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
            return Retry(max=_UNLIMITED, interval=max(0, math.ceil(wait)))
        assert isinstance(decision, Backoff)
        return Retry(max=int(os.environ.get("BOXOFFICE_RETRY_MAX", "8")), interval=max(1, math.ceil(decision.seconds)))


def _job(method: str) -> Callable[..., Any]:
    def function(**params: Any) -> Any:
        return run(method, **params)

    function.__name__ = function.__qualname__ = method.replace(".", "_")
    function.__doc__ = "The worker's %s: params as keyword arguments, its result as the job's return value." % method
    return function


_functions: Dict[str, Callable[..., Any]] = {method.replace(".", "_"): _job(method) for method in jobs.METHODS}
globals().update(_functions)
