"""The Neovim plugin (editors/nvim), driven headless: each case of nvim_cases.lua in a Neovim of its own, with the
plugin on 'runtimepath', against the built worker offline and against the fake upstream on 127.0.0.1."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary  # noqa: E402

CASES = pathlib.Path(__file__).with_name("nvim_cases.lua")
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (bash scripts/setup nvim)")


def nvim(case, environment, timeout=120):
    command = [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "--cmd", "set rtp^=" + str(ROOT / "editors" / "nvim"),
               "--cmd", "runtime plugin/boxoffice.lua", "-c", "luafile " + str(CASES)]
    return subprocess.run(command, env=dict(environment, BOXOFFICE_TEST_CASE=case), cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def listed_cases():
    if NVIM is None:
        return []
    listing = nvim("--list", dict(os.environ))
    assert listing.returncode == 0, listing.stderr
    return listing.stdout.split()


@pytest.fixture(scope="module")
def nvim_upstream():
    running = fake_upstream.Running()
    yield running.base
    running.stop()


@pytest.fixture()
def nvim_environment(nvim_upstream):
    """A home and a cache of the case's own, removed after it (the test command fails on leftovers in /tmp)."""
    home = tempfile.mkdtemp(prefix="boxoffice-nvim-")
    environment = dict(os.environ, HOME=home, XDG_CACHE_HOME=home + "/cache", XDG_STATE_HOME=home + "/state",
                       XDG_DATA_HOME=home + "/data", BOXOFFICE_WORKER=worker_binary(),
                       BOXOFFICE_TEST_UPSTREAM=nvim_upstream, BOXOFFICE_TEST_CACHE=home + "/boxoffice-cache")
    environment.pop("BOXOFFICE_TODAY", None)
    yield environment
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize("case", listed_cases())
def test_nvim(case, nvim_environment, nvim_upstream):
    # A case that holds the fake upstream releases it itself; release again so a failed one does not hold the next.
    try:
        finished = nvim(case, nvim_environment)
    finally:
        import urllib.request
        urllib.request.urlopen(nvim_upstream + "/__release").read()
        urllib.request.urlopen(nvim_upstream + "/__hold?after=1000000").read()
    assert finished.returncode == 0, "%s failed:\n%s\n%s" % (case, finished.stderr, finished.stdout)
    assert finished.stdout.strip().endswith("ok " + case)
