"""Writes Tests/Fleet/old-cache/cache.sqlite, the cache directory of a worker from before the lean core (GRDB and
postgres-nio, up to commit 1f96085), which test_cache_migration.py opens with the worker under test:

    python3 Tests/Fleet/make_old_cache.py OLD-WORKER-BINARY

It starts the fake upstream, asks the old worker for three days, one film's detail and the status, and stops it
(SQLite folds the WAL into the database at the last close, so the one file is the whole cache)."""
import json
import pathlib
import shutil
import sys
import tempfile

import fleet_testing
from fleet_testing import Outputs, Worker

FOLDER = pathlib.Path(__file__).resolve().parent / "old-cache"
# What the old worker was asked, and test_cache_migration.py asks again.
DAYS = ["2025-01-01", "2025-01-02", "2025-01-03"]
MOVIE = "20100312"


def main():
    fleet_testing.BINARY = sys.argv[1]
    upstream = fleet_testing.fake_upstream.Running(delay_ms=1)
    cache = tempfile.mkdtemp(prefix="boxoffice-old-cache-")
    try:
        worker = Worker(upstream, Outputs(), cache=cache)
        for day in DAYS:
            assert "result" in worker.daily(day), worker.stderr()
        assert "result" in worker.call("movie.detail", {"movieCode": MOVIE}), worker.stderr()
        print(json.dumps(worker.call("worker.status")["result"]["quota"], ensure_ascii=False))
        assert worker.stop() == 0, worker.stderr()
        FOLDER.mkdir(exist_ok=True)
        shutil.copyfile(pathlib.Path(cache) / "cache.sqlite", FOLDER / "cache.sqlite")
        print(json.dumps(upstream.counts()))
    finally:
        upstream.stop()
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
