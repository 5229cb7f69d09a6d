"""Fixtures of the bot recipe tests (the helpers are in bots_testing.py): a fake KOBIS and Kakao on 127.0.0.1
(clients/testing/fake_upstream.py), and another host where a fake service's redirect points, each started for a test
and stopped after it."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "clients" / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary_deprecation  # noqa: E402,F401  (pytest fixture)
from bots_testing import Elsewhere  # noqa: E402


@pytest.fixture()
def upstream():
    running = fake_upstream.Running(delay_ms=5)
    yield running.base
    running.stop()


@pytest.fixture()
def elsewhere():
    """Another host on 127.0.0.1, where a redirect points: it must get nothing."""
    other = Elsewhere()
    yield other
    other.close()
