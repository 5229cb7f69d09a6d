"""The worker's errors as exceptions: one class per `data.reason` of protocol.md's error table."""

from typing import Any, Dict, Optional


class WorkerError(Exception):
    """An error answer of the worker: its JSON-RPC `code`, `message`, `data.reason` and the whole `data`."""

    def __init__(self, code: int, message: str, data: Optional[Dict[str, Any]] = None):
        super().__init__("%s (%d)" % (message, code))
        self.code = code
        self.message = message
        self.data = data or {}
        self.reason = self.data.get("reason")


class InvalidParams(WorkerError):
    """-32602: the params do not match the method's schema or rules; `data["errors"]` locates them."""


class UpstreamUnavailable(WorkerError):
    """-31001: KOBIS or Kakao could not be reached or kept failing (after retries)."""


class UpstreamRejected(WorkerError):
    """-31002: the upstream refused the call (a bad key, a bad parameter)."""


class UpstreamMalformed(WorkerError):
    """-31003: the upstream answered something that is not a valid answer."""


class NotFound(WorkerError):
    """-31004: no such movie (or nothing for that day)."""


class QuotaExhausted(WorkerError):
    """-31005: today's KOBIS budget is spent; `data["resetsAt"]` says when it resets."""


class OfflineUnavailable(WorkerError):
    """-31006: offline mode has no recording for this; `data["available"]` lists what it has."""


class NotConfigured(WorkerError):
    """-31007: a key or setting is missing; `data["setting"]` names it."""


class StorageFull(WorkerError):
    """-31008: the disk under the cache directory is full; `data["directory"]` names it."""


class RequestCancelled(WorkerError):
    """-32800: the request was cancelled (by the worker shutting down, or by a `$/cancelRequest`)."""


class ProtocolError(WorkerError):
    """Any other JSON-RPC error (method not found, invalid request, internal error)."""


class WorkerExited(Exception):
    """The worker process ended while calls were pending (or could not be started again)."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr_tail: str = ""):
        super().__init__(message + (": " + stderr_tail.strip()[-500:] if stderr_tail.strip() else ""))
        self.returncode = returncode
        self.stderr_tail = stderr_tail


class WorkerTimeout(TimeoutError):
    """A call took longer than its `timeout`; the request was cancelled in the worker."""


_BY_REASON = {
    "invalid_params": InvalidParams,
    "upstream_unavailable": UpstreamUnavailable,
    "upstream_rejected": UpstreamRejected,
    "upstream_malformed": UpstreamMalformed,
    "not_found": NotFound,
    "quota_exhausted": QuotaExhausted,
    "offline_unavailable": OfflineUnavailable,
    "not_configured": NotConfigured,
    "storage_full": StorageFull,
}


def from_answer(error: Dict[str, Any]) -> WorkerError:
    """The exception for one `error` member of an answer."""
    code = int(error.get("code", -32603))
    message = str(error.get("message", "error"))
    data: Dict[str, Any] = error["data"] if isinstance(error.get("data"), dict) else {}
    if code == -32800:
        return RequestCancelled(code, message, data)
    reason = data.get("reason")
    kind = (_BY_REASON.get(reason) if isinstance(reason, str) else None) or (
        InvalidParams if code == -32602 else ProtocolError)
    return kind(code, message, data)
