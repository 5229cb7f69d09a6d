"""The shell recipes run as a user would run them, with their outputs checked: one call, a coprocess, dates to
TSV, a parallel backfill whose workers share one cache (counted at a fake upstream on 127.0.0.1), and the job
runners' script that writes yesterday's file. What they do when something fails: test_recipe_failures.py."""
import csv
import io
import json

from recipe_testing import BACKFILL, DATES_TO_TSV, SH, YESTERDAY, bash, environment, leftovers, live, run


def test_one_call_and_its_error(tmp_path):
    env = environment(tmp_path)
    ok = bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2023-04-26\",\"limit\":2}' | jq -r '.entries[].title'",
              env)
    assert ok.returncode == 0 and ok.stdout.split("\n")[:2] == ["드림", "슈퍼 마리오 브라더스"]
    failed = bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2020-01-01\"}'", env)
    assert failed.returncode == 1 and failed.stdout == "" and "(offline_unavailable)" in failed.stderr


def test_a_coprocess_serves_a_whole_script(tmp_path):
    run = bash(
        ". clients/shell/bo.sh; bo_start; "
        "detail=\"$(bo_call movie.detail '{\"movieCode\":\"20124079\"}')\"; jq -r .title <<<\"$detail\"; "
        "status=\"$(bo_call worker.status)\"; jq -r .requests.succeeded <<<\"$status\"; bo_stop",
        environment(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["광해, 왕이 된 남자", "1"]


def test_dates_to_tsv_has_the_right_rows(tmp_path):
    run = bash("bash clients/shell/dates-to-tsv.sh", environment(tmp_path), stdin="2023-04-23\n\n2023-04-26\n")
    assert run.returncode == 0, run.stderr
    rows = list(csv.reader(io.StringIO(run.stdout), delimiter="\t"))
    assert rows[0] == ["date", "rank", "change", "title", "audience", "total"]
    assert len(rows) == 21
    assert [row[0] for row in rows[1:]] == ["2023-04-23"] * 10 + ["2023-04-26"] * 10
    assert rows[11][:4] == ["2023-04-26", "1", "신작", "드림"]
    assert all(int(row[4]) <= int(row[5]) for row in rows[1:])
    assert leftovers(tmp_path) == [], "the recipe removes its temporary files"


def test_a_date_given_twice_is_answered_twice(tmp_path):
    run = bash("bash " + DATES_TO_TSV, environment(tmp_path), stdin="2023-04-26\n2023-04-26\n")
    assert run.returncode == 0, run.stderr
    assert [line.split("\t")[0] for line in run.stdout.splitlines()[1:]] == ["2023-04-26"] * 20


def test_a_parallel_backfill_shares_one_cache_and_one_quota(upstream, upstream_counts, tmp_path):
    cache = tmp_path / "cache"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = live(upstream, cache, scratch, BOXOFFICE_TODAY="2026-11-21")

    first = bash("bash %s 2023-03-01 2023-03-14 4" % BACKFILL, env)
    assert first.returncode == 0, first.stderr
    days = [json.loads(line)["range"]["start"] for line in first.stdout.splitlines()]
    assert days == ["2023-03-%02d" % day for day in range(1, 15)], "every day, in date order"
    assert upstream_counts()["kobis"] == 14, "each day fetched once across the four workers"
    again = bash("bash %s 2023-03-01 2023-03-14 4" % BACKFILL, env)
    assert again.returncode == 0 and len(again.stdout.splitlines()) == 14
    assert upstream_counts()["kobis"] == 14, "a second run is answered from the shared cache"
    status = bash(". clients/shell/bo.sh; bo worker.status", env)
    assert json.loads(status.stdout)["quota"]["used"] == 14, "one quota for every worker"
    assert leftovers(scratch) == [], "the recipe removes its temporary files"


def test_the_job_runner_script_writes_yesterdays_file(tmp_path):
    out = tmp_path / "out"
    written = out / "daily-2023-04-26.json"
    run_ = run([SH, YESTERDAY], environment(tmp_path, BOXOFFICE_OUT=out, BOXOFFICE_TODAY="2023-04-27"))
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout.strip() == str(written)
    assert leftovers(out) == ["daily-2023-04-26.json"], "exactly one file, and no temporary one"
    office = json.loads(written.read_text())
    assert office["range"] == {"start": "2023-04-26", "end": "2023-04-26"}
    assert len(office["entries"]) == 10 and office["entries"][0]["title"] == "드림"
    assert written.read_text().endswith("}\n") and len(written.read_text().splitlines()) == 1, "one whole JSON line"
    # Run again: the file is replaced whole by the same day's answer.
    again = run([SH, YESTERDAY], environment(tmp_path, BOXOFFICE_OUT=out, BOXOFFICE_TODAY="2023-04-27"))
    assert again.returncode == 0 and leftovers(out) == ["daily-2023-04-26.json"]


def test_the_job_runner_script_live_with_an_upstream_that_refuses(tmp_path, upstream):
    out = tmp_path / "out"
    out.mkdir()
    earlier = out / "daily-2023-04-26.json"
    earlier.write_text('{"earlier":"a complete file of an earlier run"}\n')
    # Every call refused (KOBIS faultInfo 320102): the error is said, and the earlier file stays as it was.
    refusing = environment(tmp_path, BOXOFFICE_OUT=out, KOBIS_API_KEY="test-key", KOBIS_BASE_URL=upstream + "/nowhere",
                           BOXOFFICE_CACHE_DIR=tmp_path / "cache", BOXOFFICE_TODAY="2023-04-27")
    failed = run([SH, YESTERDAY], refusing)
    assert failed.returncode == 1 and "320102" in failed.stderr and "2023-04-26" in failed.stderr, failed.stderr
    assert failed.stdout == ""
    assert leftovers(out) == ["daily-2023-04-26.json"]
    assert earlier.read_text() == '{"earlier":"a complete file of an earlier run"}\n'
    # Live and answering: the same day is fetched and the file replaced.
    ok = run([SH, YESTERDAY], live(upstream, tmp_path / "cache", tmp_path, BOXOFFICE_OUT=out))
    assert ok.returncode == 0, ok.stderr
    assert json.loads(earlier.read_text())["source"]["origin"] == "kobis"
    assert leftovers(out) == ["daily-2023-04-26.json"]
