"""A user's existing cache after the lean core (issue 43): the cache directory a worker from before it wrote (GRDB and
postgres-nio, commit 1f96085; Tests/Fleet/make_old_cache.py made it with that binary) opens with the worker under
test as it is: its days and film are answered from it with no upstream request, and the quota it counted is still
counted. A cache database that cannot be read is a warning, never an error: the worker serves without it."""
import os
import pathlib
import shutil
import tempfile

from fleet_testing import Worker, remove
from make_old_cache import DAYS, MOVIE

OLD_CACHE = pathlib.Path(__file__).resolve().parent / "old-cache" / "cache.sqlite"


def cache_directory(database_bytes):
    """A fresh cache directory (0700) holding `database_bytes` as its database (0600), as a user's would."""
    directory = tempfile.mkdtemp(prefix="boxoffice-old-cache-")
    os.chmod(directory, 0o700)
    database = pathlib.Path(directory) / "cache.sqlite"
    database.write_bytes(database_bytes)
    os.chmod(database, 0o600)
    return directory


def test_a_cache_written_before_the_lean_core_answers_without_an_upstream_request(fleet_upstream, fleet_outputs):
    upstream, outputs = fleet_upstream, fleet_outputs
    directory = cache_directory(OLD_CACHE.read_bytes())
    try:
        worker = Worker(upstream, outputs, cache=directory)
        for day in DAYS:
            answer = worker.daily(day)
            assert answer["result"]["source"]["origin"] == "cache", answer
        detail = worker.call("movie.detail", {"movieCode": MOVIE})
        assert detail["result"]["source"]["origin"] == "cache", detail
        status = worker.call("worker.status")["result"]
        assert status["store"]["connected"] is True and status["store"]["schemaVersion"] == 2, status
        # The four KOBIS calls the old worker made are still counted against the day's quota.
        assert status["quota"]["used"] == 4 and status["quota"]["counting"] == "shared", status["quota"]
        assert worker.stop() == 0
        assert upstream.counts()["kobis"] == 0
        assert "warning" not in worker.stderr(), worker.stderr()
        # And the old worker's database goes on taking what the new one writes.
        again = Worker(upstream, outputs, cache=directory)
        assert again.daily("2025-02-01")["result"]["source"]["origin"] == "kobis"
        assert again.stop() == 0
    finally:
        remove(directory)


def test_a_cache_database_that_cannot_be_read_is_a_warning_and_requests_are_served(fleet_upstream, fleet_outputs):
    upstream, outputs = fleet_upstream, fleet_outputs
    directory = cache_directory(b"not a database, " * 512)
    try:
        worker = Worker(upstream, outputs, cache=directory)
        assert "result" in worker.daily(DAYS[0])
        assert worker.stop() == 0
        warnings = [line for line in worker.stderr_lines if "warning" in line]
        assert len(warnings) == 1 and "cache.sqlite" in warnings[0] and "without a cache" in warnings[0], warnings
    finally:
        remove(directory)
