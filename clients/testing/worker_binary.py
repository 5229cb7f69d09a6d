"""Which worker binary the Python test suites start: BOXOFFICE_WORKER (the one name the clients, the recipes and the
test command use), else the deprecated BOXOFFICE_WORKER_BINARY, else the debug build. A bare name is looked up on
PATH (the recipes run with other PATHs), and the result is absolute."""
import contextlib
import os
import pathlib
import shutil
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPRECATION = "BOXOFFICE_WORKER_BINARY is deprecated: set BOXOFFICE_WORKER, the name the clients read"


def named_by_deprecated_variable():
    return not os.environ.get("BOXOFFICE_WORKER") and bool(os.environ.get("BOXOFFICE_WORKER_BINARY"))


def worker_binary():
    chosen = os.environ.get("BOXOFFICE_WORKER") or os.environ.get("BOXOFFICE_WORKER_BINARY")
    if not chosen:
        return str(ROOT / ".build" / "debug" / "boxoffice-worker")
    if "/" not in chosen:
        found = shutil.which(chosen)
        if not found:
            raise SystemExit("BOXOFFICE_WORKER=%s is not on PATH (%s)" % (chosen, os.environ.get("PATH", "")))
        chosen = found
    return os.path.abspath(chosen)


@pytest.fixture(scope="session", autouse=True)
def worker_binary_deprecation(request):
    """Says once on stderr, past pytest's capture, that the worker was named by the deprecated variable (a suite's
    conftest imports this fixture to have it)."""
    if not named_by_deprecated_variable():
        return
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        sys.stderr.write(DEPRECATION + "\n")
        sys.stderr.flush()
