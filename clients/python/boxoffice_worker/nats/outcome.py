"""An answer or a failure, as a NATS reply and as a stored job outcome.

A reply carries the result object; a failure carries the service protocol's error headers and the worker's error
object as its body, shaped as `pipe`'s outcomes are: `{"code", "message", "reason", "data"?}`. A stored outcome is
`pipe`'s outcome line, `{"result": …}` or `{"error": …}`, with the job's place in its batch.

Header values are made single-line and bounded here: an error message can carry upstream text (a KOBIS fault's
message), and a CR or LF in a header value would end the header block early and let that text write headers of its
own into the reply.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple

from ..errors import WorkerError, WorkerExited, WorkerTimeout

# The JSON-RPC codes of what the adapter itself refuses or meets (the worker's own codes come in its answers).
PARSE_ERROR = -32700
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# A header value's bound: a message names what failed, the body carries the rest.
HEADER_LIMIT = 512


def error_object(error: BaseException) -> Dict[str, Any]:
    """`error` as the worker's error object: `{"code", "message", "reason", "data"?}`."""
    if isinstance(error, WorkerError):
        found: Dict[str, Any] = {"code": error.code, "message": error.message, "reason": error.reason or "error"}
        data = {key: value for key, value in error.data.items() if key != "reason"}
        if data:
            found["data"] = data
        return found
    if isinstance(error, WorkerExited):
        # Not str(error): it ends with the worker's stderr, which is the operator's to read (the adapter logs it),
        # not every caller's.
        status = "" if error.returncode is None else " (status %d)" % error.returncode
        return {"code": INTERNAL_ERROR, "message": "the worker exited%s under the request" % status,
                "reason": "worker_exited"}
    if isinstance(error, WorkerTimeout):
        return {"code": INTERNAL_ERROR, "message": str(error), "reason": "timeout"}
    return {"code": INTERNAL_ERROR, "message": "the adapter failed: %s" % type(error).__name__,
            "reason": "internal_error"}


def refusal(code: int, reason: str, message: str) -> Dict[str, Any]:
    """An error object for what the adapter refuses before the worker sees it (a payload that is not params)."""
    return {"code": code, "message": message, "reason": reason}


def header_value(text: str) -> str:
    """`text` as one header line: every control character (CR, LF, NUL, DEL, C1) a space, at most HEADER_LIMIT
    characters."""
    cleaned = "".join(" " if ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0 else character
                      for character in text)
    return cleaned.strip()[:HEADER_LIMIT]


def error_reply(found: Dict[str, Any]) -> Tuple[bytes, Dict[str, str]]:
    """The body and headers of a failure's reply."""
    headers = {"Nats-Service-Error": header_value(str(found.get("message", ""))) or "error",
               "Nats-Service-Error-Code": str(found.get("code", INTERNAL_ERROR))}
    return encode(found), headers


def encode(value: Any) -> bytes:
    """Compact JSON as UTF-8, non-ASCII as it is (as the worker writes it)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def params_of(payload: bytes) -> Tuple[Optional[Dict[str, Any]], Optional[Dict[str, Any]]]:
    """The params a request's payload holds (empty = `{}`), or the refusal of a payload that holds none."""
    if not payload.strip():
        return {}, None
    try:
        value = json.loads(payload)
    except ValueError as problem:
        return None, refusal(PARSE_ERROR, "parse_error", "the payload is not JSON: %s" % problem)
    if not isinstance(value, dict):
        return None, refusal(INVALID_PARAMS, "invalid_params",
                             "the payload must be the params object, not %s" % type(value).__name__)
    return value, None
