"""Drive boxoffice-worker (Korean box office data over JSON-RPC on stdin/stdout) from Python.

`AsyncWorker` is the asyncio client; `Worker` wraps it for synchronous code. Standard library only.
"""

from ._version import __version__
from .client import AsyncWorker, Worker, find_binary
from .errors import (
    InvalidParams,
    NotConfigured,
    StorageFull,
    NotFound,
    OfflineUnavailable,
    ProtocolError,
    QuotaExhausted,
    RequestCancelled,
    UpstreamMalformed,
    UpstreamRejected,
    UpstreamUnavailable,
    WorkerError,
    WorkerExited,
    WorkerTimeout,
)

__all__ = [
    "__version__", "AsyncWorker", "Worker", "find_binary", "WorkerError", "InvalidParams", "NotConfigured", "StorageFull", "NotFound",
    "OfflineUnavailable", "ProtocolError", "QuotaExhausted", "RequestCancelled", "UpstreamMalformed",
    "UpstreamRejected", "UpstreamUnavailable", "WorkerExited", "WorkerTimeout",
]
