"""Fixtures of the bot recipe tests (the helpers are in bots_testing.py): a fake KOBIS and Kakao on 127.0.0.1
(clients/testing/fake_upstream.py), started for a test and stopped after it."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "clients" / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary_deprecation  # noqa: E402,F401  (pytest fixture)


@pytest.fixture()
def upstream():
    running = fake_upstream.Running(delay_ms=5)
    yield running.base
    running.stop()
