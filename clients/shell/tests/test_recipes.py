"""The shell recipes run as a user would run them, with their outputs checked: one call, a coprocess, dates to
TSV, and a parallel backfill whose workers share one cache (counted at a fake upstream on 127.0.0.1)."""
import csv
import io
import json
import os
import pathlib
import subprocess
import sys
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHELL = ROOT / "clients" / "shell"
sys.path.insert(0, str(ROOT / "clients" / "testing"))
import fake_upstream  # noqa: E402
from scratch import scratch  # noqa: E402,F401  (pytest fixture)

BINARY = os.environ.get("BOXOFFICE_WORKER_BINARY") or str(ROOT / ".build" / "debug" / "boxoffice-worker")


def environment(**extra):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    env.update(BOXOFFICE_WORKER=BINARY, BOXOFFICE_TODAY="2026-11-21")
    env.update(extra)
    return env


def bash(script, env=None, stdin=""):
    return subprocess.run(["bash", "-c", script], input=stdin, capture_output=True, text=True, env=env or environment(),
                          cwd=ROOT, timeout=120)


def test_one_call_and_its_error():
    ok = bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2023-04-26\",\"limit\":2}' | jq -r '.entries[].title'")
    assert ok.returncode == 0 and ok.stdout.split("\n")[:2] == ["드림", "슈퍼 마리오 브라더스"]
    failed = bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2020-01-01\"}'")
    assert failed.returncode == 1 and "offline_unavailable" in failed.stderr


def test_a_coprocess_serves_a_whole_script():
    run = bash(
        ". clients/shell/bo.sh; bo_start; "
        "detail=\"$(bo_call movie.detail '{\"movieCode\":\"20124079\"}')\"; jq -r .title <<<\"$detail\"; "
        "status=\"$(bo_call worker.status)\"; jq -r .requests.succeeded <<<\"$status\"; bo_stop")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["광해, 왕이 된 남자", "1"]


def test_dates_to_tsv_has_the_right_rows():
    run = bash("bash clients/shell/dates-to-tsv.sh", stdin="2023-04-23\n2020-01-01\n2023-04-26\n")
    assert run.returncode == 0, run.stderr
    rows = list(csv.reader(io.StringIO(run.stdout), delimiter="\t"))
    assert rows[0] == ["date", "rank", "change", "title", "audience", "total"]
    assert len(rows) == 21
    assert [row[0] for row in rows[1:]] == ["2023-04-23"] * 10 + ["2023-04-26"] * 10
    assert rows[11][:4] == ["2023-04-26", "1", "신작", "드림"]
    assert all(int(row[4]) <= int(row[5]) for row in rows[1:])
    assert "2020-01-01" in run.stderr


@pytest.fixture()
def upstream():
    running = fake_upstream.Running(delay_ms=30)
    yield running.base
    running.stop()


def test_a_parallel_backfill_shares_one_cache_and_one_quota(upstream, scratch):
    cache = scratch("boxoffice-backfill-")
    env = environment(KOBIS_API_KEY="test-kobis-key", KOBIS_BASE_URL=upstream + "/kobis", BOXOFFICE_CACHE_DIR=cache)

    def calls():
        with urllib.request.urlopen(upstream + "/__requests") as response:
            return json.load(response)["kobis"]

    first = bash("bash clients/shell/backfill.sh 2023-03-01 2023-03-14 4", env=env)
    assert first.returncode == 0, first.stderr
    days = sorted(json.loads(line)["range"]["start"] for line in first.stdout.splitlines())
    assert days == ["2023-03-%02d" % day for day in range(1, 15)]
    assert calls() == 14, "each day fetched once across the four workers"
    again = bash("bash clients/shell/backfill.sh 2023-03-01 2023-03-14 4", env=env)
    assert again.returncode == 0 and len(again.stdout.splitlines()) == 14
    assert calls() == 14, "a second run is answered from the shared cache"
    status = bash(". clients/shell/bo.sh; bo worker.status", env=env)
    assert json.loads(status.stdout)["quota"]["used"] == 14, "one quota for every worker"


def test_the_job_runner_script_writes_yesterdays_file(tmp_path, upstream):
    run = subprocess.run(["sh", "examples/boxoffice-yesterday.sh"], capture_output=True, text=True, cwd=ROOT,
                         env=environment(BOXOFFICE_OUT=str(tmp_path), BOXOFFICE_TODAY="2023-04-27"), timeout=60)
    assert run.returncode == 0, run.stderr
    written = tmp_path / "daily-2023-04-26.json"
    assert run.stdout.strip() == str(written)
    assert json.loads(written.read_text())["entries"][0]["title"] == "드림"
    # Live, with an upstream that refuses every call: the error is said, and no file is left behind.
    refusing = environment(BOXOFFICE_OUT=str(tmp_path), KOBIS_API_KEY="test-key", KOBIS_BASE_URL=upstream + "/nowhere",
                           BOXOFFICE_CACHE_DIR=str(tmp_path / "cache"))
    failed = subprocess.run(["sh", "examples/boxoffice-yesterday.sh"], capture_output=True, text=True, cwd=ROOT,
                            env=refusing, timeout=60)
    assert failed.returncode == 1 and "320102" in failed.stderr, failed.stderr
    assert sorted(path.name for path in tmp_path.iterdir() if path.is_file()) == ["daily-2023-04-26.json"]
