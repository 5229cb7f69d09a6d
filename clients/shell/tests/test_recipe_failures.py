"""Each recipe where a job fails: the worker missing from PATH, a day the worker cannot answer (offline, a day not
recorded, inside a range), the KOBIS quota spent (live against the fake upstream, with a tiny
--kobis-daily-limit), a worker that exits without answering. Every time: a non-zero exit, what failed named on
stderr (the day, the worker's message and reason), and no empty or partial output where a complete one is
expected (yesterday's file: none added or changed; the backfill: nothing on stdout; dates to TSV: the good days'
rows, by its documented choice), and no temporary file left behind."""
import csv
import io
import json
import shutil

import pytest

from recipe_testing import (BACKFILL, BARE_PATH, BINARY, DATES_TO_TSV, SH, YESTERDAY, bare, bash, environment,
                            leftovers, live, named_days, run)

OFFLINE_REASON = "(offline_unavailable)"
QUOTA_REASON = "(quota_exhausted)"
# A range around the two recorded days 2023-04-23 and 2023-04-26: the other four fail offline.
RANGE = ("2023-04-22", "2023-04-27")
UNRECORDED = {"2023-04-22", "2023-04-24", "2023-04-25", "2023-04-27"}


@pytest.fixture()
def folders(tmp_path):
    """home, TMPDIR (must stay empty) and the output folder of one run."""
    made = {name: tmp_path / name for name in ("home", "tmp", "out")}
    for path in made.values():
        path.mkdir()
    return made


# --- the worker missing from PATH ---------------------------------------------------------------------------------

RECIPES_WITHOUT_WORKER = {
    "yesterday": lambda env: run([SH, YESTERDAY], env),
    "backfill": lambda env: bash("bash %s %s %s 2" % ((BACKFILL,) + RANGE), env),
    "dates-to-tsv": lambda env: bash("bash " + DATES_TO_TSV, env, stdin="2023-04-23\n2023-04-26\n"),
    "bo": lambda env: bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2023-04-26\"}'", env),
    "bo_start": lambda env: bash(". clients/shell/bo.sh; bo_start", env),
}


@pytest.mark.parametrize("recipe", sorted(RECIPES_WITHOUT_WORKER))
def test_the_worker_missing_from_path_is_said_and_nothing_is_written(recipe, folders):
    if shutil.which("boxoffice-worker", path=BARE_PATH):
        pytest.skip("boxoffice-worker is installed on %s here" % BARE_PATH)
    env = bare(folders["home"], folders["tmp"], BOXOFFICE_OUT=folders["out"])
    result = RECIPES_WITHOUT_WORKER[recipe](env)
    assert result.returncode == 127, (result.returncode, result.stderr)
    assert "BOXOFFICE_WORKER" in result.stderr and "PATH (%s)" % BARE_PATH in result.stderr, result.stderr
    assert result.stdout == "", "not even a header"
    assert leftovers(folders["out"]) == [] and leftovers(folders["tmp"]) == []


@pytest.mark.parametrize("recipe", sorted(RECIPES_WITHOUT_WORKER))
def test_a_worker_path_that_is_no_worker_is_said(recipe, folders):
    env = bare(folders["home"], folders["tmp"], BOXOFFICE_OUT=folders["out"],
               BOXOFFICE_WORKER=folders["home"] / "bin" / "boxoffice-worker")
    result = RECIPES_WITHOUT_WORKER[recipe](env)
    assert result.returncode == 127 and result.stdout == ""
    assert "%s (BOXOFFICE_WORKER) is not an executable file" % (folders["home"] / "bin" / "boxoffice-worker") \
        in result.stderr, result.stderr
    assert leftovers(folders["out"]) == [] and leftovers(folders["tmp"]) == []


def test_the_worker_on_a_job_runners_path_is_found(folders):
    """The other half of the cron fix: with the worker's folder on PATH (as the cron example sets it), the same
    bare environment works."""
    bin_folder = folders["home"] / "bin"
    bin_folder.mkdir()
    (bin_folder / "boxoffice-worker").symlink_to(BINARY)
    env = bare(folders["home"], folders["tmp"], BOXOFFICE_OUT=folders["out"], BOXOFFICE_TODAY="2023-04-27",
               PATH="%s:%s" % (bin_folder, BARE_PATH))
    result = run([SH, YESTERDAY], env)
    assert result.returncode == 0, result.stderr
    assert leftovers(folders["out"]) == ["daily-2023-04-26.json"] and leftovers(folders["tmp"]) == []


# --- yesterday's file ---------------------------------------------------------------------------------------------

def test_yesterday_a_day_that_fails_adds_and_changes_no_file(folders):
    earlier = folders["out"] / "daily-2020-01-01.json"
    earlier.write_text("{\"complete\":true}\n")
    env = environment(folders["tmp"], BOXOFFICE_OUT=folders["out"], BOXOFFICE_TODAY="2020-01-02")
    result = run([SH, YESTERDAY], env)
    assert result.returncode == 1 and result.stdout == ""
    assert "the box office of 2020-01-01" in result.stderr and OFFLINE_REASON in result.stderr, result.stderr
    assert leftovers(folders["out"]) == ["daily-2020-01-01.json"] and earlier.read_text() == "{\"complete\":true}\n"
    assert leftovers(folders["tmp"]) == []


def test_yesterday_with_the_quota_spent(upstream, folders):
    env = live(upstream, folders["home"] / "cache", folders["tmp"], BOXOFFICE_OUT=folders["out"])
    result = run([SH, YESTERDAY, "--kobis-daily-limit", "0"], env)
    assert result.returncode == 1 and result.stdout == ""
    assert "the box office of 2023-04-26" in result.stderr and QUOTA_REASON in result.stderr, result.stderr
    assert leftovers(folders["out"]) == [] and leftovers(folders["tmp"]) == []


def test_yesterday_with_a_worker_that_exits_without_answering(folders):
    env = environment(folders["tmp"], BOXOFFICE_OUT=folders["out"], BOXOFFICE_TODAY="2023-04-27")
    result = run([SH, YESTERDAY, "--no-such-flag"], env)
    assert result.returncode == 1 and result.stdout == ""
    assert "no-such-flag" in result.stderr, "the worker's own stderr is shown"
    assert "no answer from the worker" in result.stderr and "exited with status 64" in result.stderr, result.stderr
    assert leftovers(folders["out"]) == [] and leftovers(folders["tmp"]) == []


def test_yesterday_with_a_today_that_is_no_date(folders):
    env = environment(folders["tmp"], BOXOFFICE_OUT=folders["out"], BOXOFFICE_TODAY="2023-02-30")
    result = run([SH, YESTERDAY], env)
    assert result.returncode == 2 and "BOXOFFICE_TODAY" in result.stderr
    assert leftovers(folders["out"]) == []


# --- the backfill -------------------------------------------------------------------------------------------------

def test_backfill_with_days_that_fail_prints_nothing_and_names_each(folders):
    result = bash("bash %s %s %s 2" % ((BACKFILL,) + RANGE), environment(folders["tmp"]))
    assert result.returncode == 1
    assert result.stdout == "", "nothing, not the two days that succeeded"
    assert named_days(result.stderr, OFFLINE_REASON) == UNRECORDED, result.stderr
    assert named_days(result.stderr) == UNRECORDED
    assert "4 of 6 days failed" in result.stderr
    assert leftovers(folders["tmp"]) == []


def test_backfill_redirected_to_a_file_is_not_a_success(folders):
    """`backfill.sh … > march.ndjson`: the file the shell made stays empty, and the exit says it failed."""
    target = folders["out"] / "april.ndjson"
    result = bash("bash %s %s %s 2 > %s" % ((BACKFILL,) + RANGE + (target,)), environment(folders["tmp"]))
    assert result.returncode == 1 and target.read_text() == ""
    # The documented way keeps no file at all.
    part = folders["out"] / "april.ndjson.part"
    documented = bash("bash %s %s %s 2 > %s && mv %s %s" % ((BACKFILL,) + RANGE + (part, part, target)),
                      environment(folders["tmp"]))
    assert documented.returncode == 1 and leftovers(folders["out"]) == ["april.ndjson", "april.ndjson.part"]
    assert target.read_text() == "", "not replaced"


def test_backfill_with_the_quota_spent(upstream, upstream_counts, folders):
    env = live(upstream, folders["home"] / "cache", folders["tmp"])
    result = bash("bash %s 2023-03-01 2023-03-06 2 --kobis-daily-limit 2" % BACKFILL, env)
    assert result.returncode == 1 and result.stdout == ""
    failed = named_days(result.stderr, QUOTA_REASON)
    assert len(failed) >= 4 and failed <= {"2023-03-%02d" % day for day in range(1, 7)}, result.stderr
    assert upstream_counts()["kobis"] <= 2, "the limit held across both workers"
    assert leftovers(folders["tmp"]) == []


def test_backfill_with_workers_that_exit_without_answering(folders):
    result = bash("bash %s 2023-04-23 2023-04-26 2 --no-such-flag" % BACKFILL, environment(folders["tmp"]))
    assert result.returncode == 1 and result.stdout == ""
    assert "no-such-flag" in result.stderr, "the workers' own stderr is shown"
    assert named_days(result.stderr, "no answer from the worker") == {"2023-04-23", "2023-04-24", "2023-04-25",
                                                                       "2023-04-26"}
    assert "exited with status 64" in result.stderr
    assert leftovers(folders["tmp"]) == []


def test_backfill_refuses_bad_arguments(folders):
    for arguments in ("2023-04-22", "2023-04-22 2023-02-30", "2023-04-27 2023-04-22", "2023-04-22 2023-04-27 0"):
        result = bash("bash %s %s" % (BACKFILL, arguments), environment(folders["tmp"]))
        assert result.returncode == 2 and result.stdout == "" and "usage" in result.stderr, arguments


# --- dates to TSV -------------------------------------------------------------------------------------------------

def tsv_rows(stdout):
    return list(csv.reader(io.StringIO(stdout), delimiter="\t"))


def test_dates_to_tsv_writes_the_good_days_and_fails_naming_the_bad_one(folders):
    result = bash("bash " + DATES_TO_TSV, environment(folders["tmp"]), stdin="2023-04-23\n2020-01-01\n2023-04-26\n")
    assert result.returncode == 1
    rows = tsv_rows(result.stdout)
    assert rows[0] == ["date", "rank", "change", "title", "audience", "total"]
    assert [row[0] for row in rows[1:]] == ["2023-04-23"] * 10 + ["2023-04-26"] * 10, "the good days, in order"
    assert named_days(result.stderr, OFFLINE_REASON) == {"2020-01-01"}, result.stderr
    assert "1 of 3 days failed" in result.stderr
    assert leftovers(folders["tmp"]) == []


def test_dates_to_tsv_with_the_quota_spent(upstream, folders):
    env = live(upstream, folders["home"] / "cache", folders["tmp"])
    days = ["2023-03-01", "2023-03-02", "2023-03-03"]
    result = bash("bash %s --kobis-daily-limit 1" % DATES_TO_TSV, env, stdin="\n".join(days) + "\n")
    assert result.returncode == 1
    failed = named_days(result.stderr, QUOTA_REASON)
    assert len(failed) == 2 and failed < set(days), result.stderr
    rows = tsv_rows(result.stdout)
    assert {row[0] for row in rows[1:]} == set(days) - failed and len(rows) == 11, "the one day the quota allowed"
    assert leftovers(folders["tmp"]) == []


def test_dates_to_tsv_with_a_worker_that_exits_without_answering(folders):
    result = bash("bash %s --no-such-flag" % DATES_TO_TSV, environment(folders["tmp"]), stdin="2023-04-23\n")
    assert result.returncode == 1 and tsv_rows(result.stdout)[1:] == []
    assert named_days(result.stderr, "no answer from the worker") == {"2023-04-23"}
    assert "the worker exited with status 64" in result.stderr
    assert leftovers(folders["tmp"]) == []


# --- bo and bo_call -----------------------------------------------------------------------------------------------

def test_bo_fails_on_params_that_are_not_json(folders):
    result = bash(". clients/shell/bo.sh; bo boxoffice.daily notjson", environment(folders["tmp"]))
    assert result.returncode == 2 and result.stdout == "" and "not JSON: notjson" in result.stderr
    coprocess = bash(". clients/shell/bo.sh; bo_start; bo_call boxoffice.daily notjson; echo \"call=$?\"; "
                     "bo_call ping; bo_stop", environment(folders["tmp"]))
    assert coprocess.returncode == 0 and coprocess.stdout.splitlines() == ["call=2", "{}"], coprocess.stderr


def test_bo_with_a_day_that_fails(folders):
    result = bash(". clients/shell/bo.sh; bo boxoffice.daily '{\"date\":\"2020-01-01\"}'", environment(folders["tmp"]))
    assert result.returncode == 1 and result.stdout == "" and OFFLINE_REASON in result.stderr


def test_bo_call_with_a_day_that_fails_between_two_that_succeed(folders):
    script = (". clients/shell/bo.sh; bo_start\n"
              "bo_call boxoffice.daily '{\"date\":\"2023-04-23\",\"limit\":1}' >/dev/null; echo \"first=$?\"\n"
              "bo_call boxoffice.daily '{\"date\":\"2020-01-01\"}'; echo \"second=$?\"\n"
              "third=\"$(bo_call boxoffice.daily '{\"date\":\"2023-04-26\",\"limit\":1}')\"; echo \"third=$?\"\n"
              "jq -r '.range.start' <<<\"$third\"\n"
              "bo_stop; echo \"stop=$?\"\n")
    result = bash(script, environment(folders["tmp"]))
    assert result.stdout.splitlines() == ["first=0", "second=1", "third=0", "2023-04-26", "stop=0"], result.stderr
    assert "bo_call: " in result.stderr and OFFLINE_REASON in result.stderr


def test_bo_and_bo_call_with_the_quota_spent(upstream, folders):
    env = live(upstream, folders["home"] / "cache", folders["tmp"])
    one = bash(". clients/shell/bo.sh; BO_FLAGS=(--kobis-daily-limit 0); bo boxoffice.daily '{\"date\":\"2023-03-01\"}'",
               env)
    assert one.returncode == 1 and one.stdout == "" and "bo: " in one.stderr and QUOTA_REASON in one.stderr
    coprocess = bash(". clients/shell/bo.sh; BO_FLAGS=(--kobis-daily-limit 0); bo_start; "
                     "bo_call boxoffice.daily '{\"date\":\"2023-03-01\"}'; echo \"call=$?\"; bo_stop; echo \"stop=$?\"",
                     env)
    assert coprocess.stdout.splitlines() == ["call=1", "stop=0"], coprocess.stderr
    assert "bo_call: " in coprocess.stderr and QUOTA_REASON in coprocess.stderr


def test_bo_with_a_worker_that_exits_without_answering(folders):
    result = bash(". clients/shell/bo.sh; BO_FLAGS=(--no-such-flag); bo ping", environment(folders["tmp"]))
    assert result.returncode == 1 and result.stdout == ""
    assert "no-such-flag" in result.stderr and "the worker exited with status 64" in result.stderr
    coprocess = bash(". clients/shell/bo.sh; BO_FLAGS=(--no-such-flag); bo_start; "
                     "bo_call ping; echo \"call=$?\"; bo_stop; echo \"stop=$?\"", environment(folders["tmp"]))
    assert coprocess.stdout.splitlines() == ["call=1", "stop=64"], coprocess.stderr
    assert "bo_stop: the worker exited with status 64" in coprocess.stderr


def test_bo_call_without_a_worker(folders):
    result = bash(". clients/shell/bo.sh; bo_call ping; echo \"call=$?\"", environment(folders["tmp"]))
    assert result.stdout.splitlines() == ["call=1"] and "bo_start starts one" in result.stderr
    piped = bash(". clients/shell/bo.sh; bo_start; bo_call ping | cat; echo \"call=${PIPESTATUS[0]}\"; bo_stop",
                 environment(folders["tmp"]))
    assert piped.stdout.splitlines() == ["call=1"] and "not in a pipeline" in piped.stderr, piped.stderr


def test_results_are_json(folders):
    """What a recipe prints on success is the result, whole (a check that the failure checks let results through)."""
    result = bash(". clients/shell/bo.sh; bo ping; bo_start; bo_call ping; bo_stop", environment(folders["tmp"]))
    assert result.returncode == 0 and [json.loads(line) for line in result.stdout.splitlines()] == [{}, {}]
