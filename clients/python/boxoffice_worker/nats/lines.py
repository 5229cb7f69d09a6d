"""A submitted line as a job, read as `boxoffice-worker pipe` reads its lines (docs/jobs.md, "The filter: pipe"):
with a method, a params object (its `id` member echoed in the outcome, not sent) or a bare string for the method's
first argument; without one, `{"method", "params"?, "id"?}`. A line that is none of these is refused with pipe's
reason, and its refusal is its outcome: line N of a batch is always job N.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, Tuple

from .names import METHODS
from .outcome import INVALID_PARAMS, PARSE_ERROR, refusal

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601

# The member a bare string fills, by method: pipe's own table (Sources/BoxOfficeWorker/Composition/PipeFace.swift,
# held equal to it by Tests/NATS/test_work_queue.py).
BARE_MEMBERS = {
    "boxoffice.daily": "date", "boxoffice.weekly": "date", "movie.detail": "movieCode", "movie.poster": "title",
    "movie.search": "title", "people.search": "name", "people.detail": "peopleCode", "company.search": "name",
    "company.detail": "companyCode", "codes.list": "kind", "movie.run": "title",
}

Job = Dict[str, Any]
Refusal = Dict[str, Any]


def job_of(line: str, method: Optional[str]) -> Tuple[Optional[Job], Optional[Refusal]]:
    """The job `line` asks for (`{"method", "params", "id"?}`), or its refusal."""
    text = line.strip()
    if not text:
        return None, refusal(INVALID_REQUEST, "invalid_request", "a blank line is not a job")
    if text[0] in "{[\"":
        try:
            value = json.loads(text)
        except ValueError as problem:
            return None, refusal(PARSE_ERROR, "parse_error", "the line is not JSON: %s" % problem)
    else:
        value = text
    if method is None:
        return _named(value)
    if isinstance(value, str):
        member = BARE_MEMBERS.get(method)
        if member is None:
            return None, refusal(INVALID_PARAMS, "invalid_params",
                                 "%s takes a params object, not a bare string" % method)
        return {"method": method, "params": {member: value.strip()}}, None
    if not isinstance(value, dict):
        return None, refusal(INVALID_REQUEST, "invalid_request", "a line is a params object or a bare string")
    params = dict(value)
    job: Job = {"method": method}
    if "id" in params:
        job["id"] = params.pop("id")
    job["params"] = params
    return job, None


def _named(value: Any) -> Tuple[Optional[Job], Optional[Refusal]]:
    """A line without a method given: `{"method", "params"?, "id"?}`."""
    if not isinstance(value, dict) or not isinstance(value.get("method"), str):
        return None, refusal(INVALID_REQUEST, "invalid_request", 'a line is {"method", "params"?, "id"?}')
    unknown = [key for key in value if key not in ("method", "params", "id")]
    if unknown:
        return None, refusal(INVALID_REQUEST, "invalid_request", "a line has no member %s" % unknown[0])
    if value["method"] not in METHODS:
        return None, refusal(METHOD_NOT_FOUND, "method_not_found", "no method %s" % value["method"])
    params = value.get("params", {})
    if not isinstance(params, dict):
        return None, refusal(INVALID_PARAMS, "invalid_params", "params must be an object")
    job: Job = {"method": value["method"], "params": params}
    if "id" in value:
        job["id"] = value["id"]
    return job, None
