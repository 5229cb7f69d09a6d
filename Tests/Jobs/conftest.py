"""Fixtures of the job-runner tests (helpers in jobs_testing.py), named jobs_* so that they never stand in for the
fixtures of other test folders."""
import pytest

from jobs_testing import fake_upstream


@pytest.fixture()
def jobs_upstream():
    """A fake KOBIS and Kakao answering every call after 5 ms."""
    running = fake_upstream.Running(delay_ms=5)
    yield running
    running.stop()
