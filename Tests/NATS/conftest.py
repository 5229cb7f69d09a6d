"""Fixtures of the NATS adapter's tests (helpers in nats_testing.py), named nats_* so that they never stand in for
the fixtures of other test folders."""
import pytest

from nats_testing import NATSServer, fake_upstream, nats_server_binary


@pytest.fixture()
def nats_server(tmp_path):
    if nats_server_binary() is None:
        pytest.skip("nats-server is not installed (bash scripts/setup nats-server)")
    server = NATSServer(tmp_path)
    yield server
    server.stop()


@pytest.fixture()
def nats_upstream():
    """A fake KOBIS and Kakao answering every call after 5 ms."""
    running = fake_upstream.Running(delay_ms=5)
    yield running
    running.stop()
