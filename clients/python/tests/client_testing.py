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
BINARY = os.environ.get("BOXOFFICE_WORKER_BINARY") or str(ROOT / ".build" / "debug" / "boxoffice-worker")
STUB = str(ROOT / "clients" / "testing" / "stub_worker.py")
OFFLINE = {"KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": "", "BOXOFFICE_TODAY": "2026-11-21"}


@pytest.fixture(scope="session")
def upstream():
    """(base URL, a function returning the request counts)."""
    running = fake_upstream.Running()
    yield running.base, running.counts
    running.stop()


def live_env(base, cache_dir):
    return {"KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
            "KOBIS_BASE_URL": base + "/kobis", "KAKAO_BASE_URL": base + "/kakao",
            "BOXOFFICE_CACHE_DIR": str(cache_dir), "BOXOFFICE_TODAY": "2026-11-21",
            # The fake upstream serves its images from loopback, where downloads go only when allowed.
            "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1"}
