"""The fixtures of the HTML pages' tests: one headless Chromium for the whole run, and the pages the binary writes
(each rendered once)."""
import pytest

import browser as browser_module
from web_testing import result_json, write_page


@pytest.fixture(scope="session")
def browser():
    missing = browser_module.available()
    if missing:
        pytest.fail(missing)
    session = browser_module.Browser()
    yield session
    session.close()


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    """The worker's cache directory for the run (not the user's)."""
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def page(tmp_path_factory, cache):
    """`page(*arguments)`: the path of the --format html page of `boxoffice-worker ARGUMENTS` offline, written once
    per run."""
    folder = tmp_path_factory.mktemp("pages")
    written = {}

    def make(*arguments):
        if arguments not in written:
            path = folder / ("page-%d.html" % len(written))
            write_page(list(arguments), path, env={"BOXOFFICE_CACHE_DIR": cache})
            written[arguments] = path
        return written[arguments]

    return make


@pytest.fixture(scope="session")
def answer(cache):
    """`answer(*arguments)`: the --format json answer of `boxoffice-worker ARGUMENTS` offline."""
    answers = {}

    def make(*arguments):
        if arguments not in answers:
            answers[arguments] = result_json(list(arguments), env={"BOXOFFICE_CACHE_DIR": cache})
        return answers[arguments]

    return make
