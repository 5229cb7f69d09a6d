"""The fixtures of the hostile-text tests (issue 39; the table is hostile.py, the helpers hostile_testing.py)."""
import pytest

from hostile_testing import Terminal, Upstream
from worker_binary import worker_binary_deprecation  # noqa: F401  (pytest fixture)

# A real JPEG for the fake Kakao to serve (the cards and the terminal pictures decode it): 2 x 3, one colour.
POSTER_COLOUR = (0x12, 0x9E, 0x5B)


@pytest.fixture(scope="session")
def poster(tmp_path_factory):
    from PIL import Image
    path = tmp_path_factory.mktemp("hostile-poster") / "poster.jpg"
    Image.new("RGB", (200, 300), POSTER_COLOUR).save(path, quality=95)
    return path


@pytest.fixture(scope="module")
def upstreams(poster):
    """`upstreams(name, fault=False)`: the fake upstream serving the hostile row `name` (with `fault`, every daily
    box office is a KOBIS fault with the row's text as its message), started once per module and row."""
    started = {}

    def get(name, fault=False):
        if (name, fault) not in started:
            started[(name, fault)] = Upstream(name, poster=poster, fault=fault)
        return started[(name, fault)]

    yield get
    for upstream in started.values():
        upstream.stop()


@pytest.fixture(scope="session")
def terminal():
    term = Terminal()
    yield term
    term.close()


@pytest.fixture(scope="module", autouse=True)
def started_ahead(request, upstreams, terminal):
    """Starts every run the module's tests will judge (its `ahead(upstreams, terminal)`), so that they run while
    the first ones are judged."""
    ahead = getattr(request.module, "ahead", None)
    if ahead is not None:
        ahead(upstreams, terminal)
