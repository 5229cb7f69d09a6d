"""The Emacs package (editors/emacs/boxoffice.el) under ERT, in a batch Emacs, against the built worker: offline, and
live against the fake upstream this test starts. The ERT cases are in boxoffice-tests.el beside this file.

Emacs gets a HOME, a cache directory and a TMPDIR of its own under one temporary directory, removed at the end, so
nothing a run makes stays behind.
"""
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


def test_emacs_package():
    emacs = shutil.which("emacs")
    if emacs is None:
        pytest.skip("emacs is not installed (bash scripts/setup emacs-nox)")
    upstream = fake_upstream.Running()
    try:
        with tempfile.TemporaryDirectory(prefix="boxoffice-emacs-") as scratch:
            scratch = pathlib.Path(scratch)
            for name in ("home", "cache", "tmp"):
                (scratch / name).mkdir()
            env = dict(os.environ)
            env.update({
                "BOXOFFICE_WORKER": worker_binary(),
                "BOXOFFICE_TEST_UPSTREAM": upstream.base,
                "BOXOFFICE_CACHE_DIR": str(scratch / "cache"),
                "HOME": str(scratch / "home"),
                "TMPDIR": str(scratch / "tmp"),
                # The worker's own log lines stay in the *boxoffice-worker log* buffer; quieter is easier to read.
                "BOXOFFICE_LOG_LEVEL": "warning",
            })
            for name in ("KOBIS_API_KEY", "KAKAO_REST_API_KEY", "BOXOFFICE_TODAY", "XDG_CACHE_HOME"):
                env.pop(name, None)
            command = [emacs, "--batch", "-Q", "-L", "editors/emacs", "-l", "Tests/Editors/boxoffice-tests.el",
                       "-f", "ert-run-tests-batch-and-exit"]
            run = subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, timeout=600)
            assert run.returncode == 0, "ERT failed (exit %d):\n%s" % (run.returncode, run.stdout)
    finally:
        upstream.stop()
