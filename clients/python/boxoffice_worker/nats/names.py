"""The names every adapter, client and test agrees on: one place, so a fleet of adapters of one version and the
clients that call them cannot drift apart."""
from ..jobs import METHODS

# The NATS service (its `$SRV.*` name) and the queue group of every endpoint: every adapter on every machine shares
# the load of every method.
SERVICE = "boxoffice"
QUEUE_GROUP = "boxoffice"
# Requests go to `kobis.<method>`: `kobis.boxoffice.daily`, `kobis.movie.detail`, …, `kobis.worker.status`.
SUBJECT_PREFIX = "kobis"

# The JetStream work queue (one durable consumer shared by every adapter started with --jobs) and the key-value
# bucket of outcomes (`<batch>.<n>`, and `<batch>.jobs` with the batch's size).
JOBS_STREAM = "BOXOFFICE_JOBS"
JOBS_SUBJECT = "boxoffice.jobs"
JOBS_CONSUMER = "boxoffice"
OUTCOMES_BUCKET = "boxoffice-outcomes"

# Headers of a job message.
BATCH_HEADER = "Boxoffice-Batch"
INDEX_HEADER = "Boxoffice-Job"


def subject(method: str) -> str:
    """The request subject of `method`."""
    return "%s.%s" % (SUBJECT_PREFIX, method)


def endpoint_name(method: str) -> str:
    """The service protocol's name of `method`'s endpoint (names there take letters, digits, `-` and `_` only)."""
    return method.replace(".", "-")


def job_subject(batch: str) -> str:
    """The subject a batch's jobs are published on (a batch id is a NATS token: letters, digits, `-`, `_`)."""
    return "%s.%s" % (JOBS_SUBJECT, batch)


def outcome_key(batch: str, index: int) -> str:
    """The key of job `index` (1-based, in submission order) of `batch` in the outcomes bucket."""
    return "%s.%06d" % (batch, index)


def size_key(batch: str) -> str:
    """The key holding how many jobs `batch` has."""
    return "%s.jobs" % batch


__all__ = ["METHODS", "SERVICE", "QUEUE_GROUP", "SUBJECT_PREFIX", "subject", "endpoint_name"]
