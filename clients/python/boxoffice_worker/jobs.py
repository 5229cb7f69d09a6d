"""What every job runner's tasks share: one long-lived worker per process, and the decision, from an error's reason,
to fail a job now, try it again after a backoff, or try it again when the quota resets.

`boxoffice_worker.celery` and `boxoffice_worker.rq` are thin over this. Standard library only: the job runners are
the extras' dependencies, not this module's.
"""

from __future__ import annotations

import datetime
import os
import shlex
import threading
from typing import Any, Dict, Mapping, Optional, Union

from .client import Worker
from .errors import WorkerError, WorkerExited, WorkerTimeout

# The methods a job can name: every method of protocol.md but the worker's own (`rpc.discover`, `diagnostics.*`).
METHODS = (
    "boxoffice.daily", "boxoffice.weekly", "movie.detail", "movie.search", "movie.poster", "people.search",
    "people.detail", "company.search", "company.detail", "codes.list", "movie.run", "movie.compare", "worker.status",
    "ping",
)

# Reasons that time may mend: the upstream unreachable (a deadline included) and the worker gone (it is restarted).
_LATER = {"upstream_unavailable"}
_AT_RESET = {"quota_exhausted"}


class JobFailed(Exception):
    """A job that failed for good: trying again cannot mend it (bad params, no such code, a day offline has no
    recording of, a key missing, an answer KOBIS refused). Its args are plain values, so a result backend stores it
    and gives it back as it was: (reason, message, code, data)."""

    def __init__(self, reason: str, message: str, code: Optional[int] = None, data: Optional[Dict[str, Any]] = None):
        super().__init__(reason, message, code, data or {})

    @property
    def reason(self) -> str:
        return self.args[0]

    @property
    def message(self) -> str:
        return self.args[1]

    def __str__(self) -> str:
        return "%s: %s" % (self.args[0], self.args[1])


class Backoff:
    """Try again in `seconds`."""

    def __init__(self, seconds: float):
        self.seconds = seconds


class AtReset:
    """Try again at `when` (UTC), the moment the KOBIS quota resets; never give up for it."""

    def __init__(self, when: datetime.datetime):
        self.when = when


Decision = Union[Backoff, AtReset, JobFailed]


def decide(error: BaseException, attempt: int, base: float = 2.0, cap: float = 300.0) -> Decision:
    """What to do after `error` on try number `attempt` (0 for the first): fail now, back off (`base` doubled per try,
    at most `cap` seconds), or wait for the quota's reset."""
    if isinstance(error, WorkerError):
        if error.reason in _AT_RESET:
            return AtReset(reset_time(error.data.get("resetsAt")))
        if error.reason in _LATER:
            return Backoff(min(cap, base * 2 ** attempt))
        return JobFailed(error.reason or "error", error.message, error.code, error.data)
    if isinstance(error, (WorkerExited, WorkerTimeout)):
        return Backoff(min(cap, base * 2 ** attempt))
    raise error


def given_up(error: BaseException) -> JobFailed:
    """A failure time might have mended, after the last try: the same failure as a `JobFailed`, whose plain args
    survive a result backend (the client's exception classes take other arguments)."""
    if isinstance(error, WorkerError):
        return JobFailed(error.reason or "error", error.message, error.code, error.data)
    return JobFailed("worker_exited" if isinstance(error, WorkerExited) else "timeout", str(error))


def reset_time(text: Optional[str], now: Optional[datetime.datetime] = None) -> datetime.datetime:
    """`resetsAt` as an aware UTC time; without one, the next midnight in Seoul (15:00 UTC), when KOBIS resets."""
    if text:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    now = now or datetime.datetime.now(datetime.timezone.utc)
    reset = now.replace(hour=15, minute=0, second=0, microsecond=0)
    return reset if reset > now else reset + datetime.timedelta(days=1)


def worker_args() -> list:
    """The worker's flags for job runners: `BOXOFFICE_WORKER_ARGS`, split as a shell would (`--cache-dir /srv/bo`)."""
    return shlex.split(os.environ.get("BOXOFFICE_WORKER_ARGS", ""))


_shared: Optional[Worker] = None
_shared_lock = threading.Lock()


def shared_worker() -> Worker:
    """This process's one worker, made on first use (so a pool's parent that only imports makes none that runs);
    the client is fork-safe, so a pool process forked after it was made starts a worker of its own."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Worker(args=worker_args())
        return _shared


def close_shared_worker() -> None:
    """Closes this process's worker, if it has one (at a pool process's shutdown; its EOF ends the worker anyway
    when the process dies)."""
    global _shared
    with _shared_lock:
        worker, _shared = _shared, None
    if worker is not None:
        worker.close()


def call(method: str, params: Mapping[str, Any]) -> Any:
    """Calls `method` on this process's worker; its result. Raises the worker's errors as the client does."""
    if method not in METHODS:
        raise JobFailed("method_not_found", "no job method %s (one of: %s)" % (method, ", ".join(METHODS)))
    return shared_worker().call(method, dict(params))
