"""Shared set-up of the client tests: the built worker, the stub, and a fake upstream on 127.0.0.1."""
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "clients" / "python"))
sys.path.insert(0, str(ROOT / "clients" / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary, worker_binary_deprecation  # noqa: E402,F401  (pytest fixture)


BINARY = worker_binary()
STUB = str(ROOT / "clients" / "testing" / "stub_worker.py")
OFFLINE = {"KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": "", "BOXOFFICE_TODAY": "2026-11-21"}


@pytest.fixture(scope="session")
def client_upstream():
    """(base URL, a function returning the request counts). Named for these tests alone: when pytest runs this folder
    with others, it takes clients/python/pyproject.toml as its configuration, and then every other folder's conftest
    fixtures (the shell tests' and the CLI tests' `upstream`) apply here too."""
    running = fake_upstream.Running()
    yield running.base, running.counts
    running.stop()


def live_env(base, cache_dir):
    return {"KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
            "KOBIS_BASE_URL": base + "/kobis", "KAKAO_BASE_URL": base + "/kakao",
            "BOXOFFICE_CACHE_DIR": str(cache_dir), "BOXOFFICE_TODAY": "2026-11-21",
            # The fake upstream serves its images from loopback, where downloads go only when allowed.
            "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1"}
