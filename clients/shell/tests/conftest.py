"""Fixtures of the shell recipe tests: a fake KOBIS on 127.0.0.1 (clients/testing/fake_upstream.py), started for a
test and stopped after it."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary_deprecation  # noqa: E402,F401  (pytest fixture)


@pytest.fixture()
def upstream():
    running = fake_upstream.Running(delay_ms=30)
    yield running.base
    running.stop()


@pytest.fixture()
def upstream_counts(upstream):
    """The fake upstream's counts so far ({"kobis": n, …})."""
    import json
    import urllib.request

    def counts():
        with urllib.request.urlopen(upstream + "/__requests") as response:
            return json.load(response)

    return counts
