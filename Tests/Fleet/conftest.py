"""Fixtures of the fleet tests (helpers in fleet_testing.py), named fleet_* so that they never stand in for the
fixtures of the other test folders collected in the same pytest session."""
import pytest

from fleet_testing import Outputs, fake_upstream, new_cluster


@pytest.fixture(scope="module")
def fleet_cluster():
    """One throwaway PostgreSQL cluster for a test module; stopped and removed after it."""
    running = new_cluster()
    yield running
    running.remove()


@pytest.fixture()
def fleet_database(fleet_cluster, request):
    """A fresh, empty database of the cluster (owned by the test role) and its URL."""
    name = "fleet_%s" % request.node.name.replace("[", "_").replace("]", "").replace("-", "_")[:40].lower()
    fleet_cluster.sql("DROP DATABASE IF EXISTS %s" % name)
    fleet_cluster.sql("CREATE DATABASE %s OWNER %s" % (name, fleet_cluster.role))
    return fleet_cluster.url(database=name)


@pytest.fixture()
def fleet_upstream():
    running = fake_upstream.Running(delay_ms=20)
    yield running
    running.stop()


@pytest.fixture()
def fleet_outputs(fleet_cluster):
    """Collects every worker output of the test; after it, none may contain the database password."""
    collected = Outputs()
    yield collected
    assert fleet_cluster.password not in collected.joined(), "the database password was shown"
