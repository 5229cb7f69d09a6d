"""Fixtures of the fleet tests (helpers in fleet_testing.py)."""
import pytest

from fleet_testing import Outputs, fake_upstream, new_cluster


@pytest.fixture(scope="module")
def cluster():
    """One throwaway PostgreSQL cluster for a test module; stopped and removed after it."""
    running = new_cluster()
    yield running
    running.remove()


@pytest.fixture()
def database(cluster, request):
    """A fresh, empty database of the cluster (owned by the test role) and its URL."""
    name = "fleet_%s" % request.node.name.replace("[", "_").replace("]", "").replace("-", "_")[:40].lower()
    cluster.sql("DROP DATABASE IF EXISTS %s" % name)
    cluster.sql("CREATE DATABASE %s OWNER %s" % (name, cluster.role))
    return cluster.url(database=name)


@pytest.fixture()
def upstream():
    running = fake_upstream.Running(delay_ms=20)
    yield running
    running.stop()


@pytest.fixture()
def outputs(cluster):
    """Collects every worker output of the test; after it, none may contain the database password."""
    collected = Outputs()
    yield collected
    assert cluster.password not in collected.joined(), "the database password was shown"
