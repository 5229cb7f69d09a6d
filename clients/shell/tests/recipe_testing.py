"""What the shell recipe tests share: the worker under test, the environments the recipes run in (offline, live
against the fake upstream, or a job runner's bare one where the worker is not on PATH), and running a recipe as a
user would: the real script, in a real shell, with its exit status, stdout and stderr."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

YESTERDAY = "examples/boxoffice-yesterday.sh"
BACKFILL = "clients/shell/backfill.sh"
DATES_TO_TSV = "clients/shell/dates-to-tsv.sh"
BO = "clients/shell/bo.sh"
BASH = shutil.which("bash") or "/bin/bash"
SH = shutil.which("sh") or "/bin/sh"
# A job runner's PATH: cron starts jobs with this one, and scripts/install puts the worker elsewhere.
BARE_PATH = "/usr/bin:/bin"


BINARY = worker_binary()


def environment(tmpdir=None, **extra):
    """The test's environment without any key or worker setting of the person running it (so the worker is
    offline), with the worker under test, a fixed today, and TMPDIR (when given) where the recipe's own temporary
    files go, to check that it leaves none."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_", "BO_"))}
    env.update(BOXOFFICE_WORKER=BINARY, BOXOFFICE_TODAY="2026-11-21")
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    env.update({key: str(value) for key, value in extra.items()})
    return env


def live(upstream, cache, tmpdir=None, **extra):
    """Live against the fake upstream, with a cache directory (and so a KOBIS quota) of the test's own."""
    settings = dict(KOBIS_API_KEY="test-kobis-key", KOBIS_BASE_URL=upstream + "/kobis", BOXOFFICE_CACHE_DIR=cache,
                    BOXOFFICE_TODAY="2023-04-27")
    settings.update(extra)
    return environment(tmpdir, **settings)


def bare(home, tmpdir, **extra):
    """A job runner's environment, as `env -i HOME=… PATH=/usr/bin:/bin` makes it: no BOXOFFICE_WORKER, and the
    worker not on PATH."""
    env = {"HOME": str(home), "PATH": BARE_PATH, "TMPDIR": str(tmpdir), "LANG": "C.UTF-8"}
    env.update({key: str(value) for key, value in extra.items()})
    return env


def run(args, env, stdin=""):
    return subprocess.run(args, input=stdin, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


def bash(script, env, stdin=""):
    """A bash script run from the repository's folder (`. clients/shell/bo.sh; bo …`)."""
    return run([BASH, "-c", script], env, stdin)


def named_days(stderr, reason=None):
    """The days a recipe named as failed on stderr (`recipe: YYYY-MM-DD: message (reason)`), with that reason."""
    days = set()
    for line in stderr.splitlines():
        parts = line.split(": ", 2)
        if len(parts) == 3 and len(parts[1]) == 10 and parts[1][4] == "-" and (reason is None or reason in parts[2]):
            days.add(parts[1])
    return days


def leftovers(folder):
    """Everything in a folder, hidden files included (a recipe's temporary files start with a dot)."""
    return sorted(path.name for path in pathlib.Path(folder).iterdir())
