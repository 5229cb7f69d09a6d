"""A ready Celery app serving the worker's methods as tasks (`pip install 'boxoffice-worker[celery]'`):

    CELERY_BROKER_URL=redis://localhost:6379/0 CELERY_RESULT_BACKEND=redis://localhost:6379/1 \\
        celery -A boxoffice_worker.celery worker --concurrency 4

Tasks are named after the methods (`boxoffice.daily`, `movie.detail`, …); params go as keyword arguments under their
protocol names (`movieCode`), the result comes back as the task's return value:

    app.send_task("boxoffice.daily", kwargs={"date": "2024-01-01"}).get()

`register(app)` adds the same tasks to an app of your own. Each pool process keeps one long-lived worker, started on
its first task and closed at `worker_process_shutdown` (a pool process that dies closes its stdin, which ends it).
Tasks are acknowledged late and rejected when their pool process is lost, so a killed process loses no task. Retries
follow the error's reason: `upstream_unavailable` (and a worker that died) with a doubling backoff,
`quota_exhausted` at the quota's reset time (`eta`, never given up), and anything else fails at once as `JobFailed`.
The worker's flags come from `BOXOFFICE_WORKER_ARGS` (e.g. `--cache-dir /srv/boxoffice`), its binary from
`BOXOFFICE_WORKER` (else the one the wheel installed).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task
from celery.signals import worker_process_shutdown

from . import jobs
from .jobs import AtReset, Backoff, JobFailed

__all__ = ["app", "register", "JobFailed"]

# Redis redelivers a message nobody acknowledged after its visibility timeout (one hour by default), counted from when
# it was taken: a task waiting for tomorrow's quota reset would be run twice. A day and an hour covers the longest
# wait; a lost pool process's task is given back at once all the same (reject_on_worker_lost).
_VISIBILITY_SECONDS = 25 * 3600


def register(app: Celery, *, backoff: float = 2.0, backoff_max: float = 300.0, max_retries: int = 8) -> None:
    """Adds one task per method to `app`, each acknowledged late and rejected when its pool process is lost (set on
    the tasks: the app's own settings and its other tasks are left as they are). `backoff` doubles per try up to
    `backoff_max` seconds for a failure time may mend, at most `max_retries` tries in all; a spent quota is waited
    for without limit.

    With Redis as the broker, give the app a `visibility_timeout` longer than a day
    (`broker_transport_options`, as the ready app below does): a task waiting for the quota's reset is otherwise
    delivered again after Redis's hour and run twice."""
    for method in jobs.METHODS:
        _add_task(app, method, backoff, backoff_max, max_retries)


def _add_task(app: Celery, method: str, backoff: float, backoff_max: float, max_retries: int) -> None:
    def run(task: Task, **params: Any) -> Any:
        try:
            return jobs.call(method, params)
        except JobFailed:
            raise
        except Exception as error:  # noqa: BLE001 -- decide() re-raises what it does not know
            decision = jobs.decide(error, task.request.retries, backoff, backoff_max)
            if isinstance(decision, JobFailed):
                raise decision from None
            if isinstance(decision, AtReset):
                raise task.retry(exc=error, eta=decision.when)
            assert isinstance(decision, Backoff)
            # The task has no limit of its own (a quota is waited for without one), so the backoff's is kept here;
            # Celery counts every retry, quota waits included.
            if task.request.retries >= max_retries:
                raise jobs.given_up(error) from None
            raise task.retry(exc=error, countdown=decision.seconds)

    run.__name__ = method.replace(".", "_")
    run.__doc__ = "The worker's %s: params as keyword arguments, its result as the return value." % method
    app.task(name=method, bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)(run)


@worker_process_shutdown.connect
def _close_worker(**_: Any) -> None:
    jobs.close_shared_worker()


app = Celery("boxoffice_worker")
app.conf.broker_url = os.environ.get("CELERY_BROKER_URL")
app.conf.result_backend = os.environ.get("CELERY_RESULT_BACKEND")
app.conf.broker_transport_options = {"visibility_timeout": _VISIBILITY_SECONDS}
app.conf.result_backend_transport_options = {"visibility_timeout": _VISIBILITY_SECONDS}
# One task at a time per pool process from the broker: a process holding more would sit on them while it works.
app.conf.worker_prefetch_multiplier = 1
app.conf.task_serializer = app.conf.result_serializer = "json"
app.conf.accept_content = ["json"]
app.conf.broker_connection_retry_on_startup = True
register(app, backoff=float(os.environ.get("BOXOFFICE_RETRY_BACKOFF", "2")))
