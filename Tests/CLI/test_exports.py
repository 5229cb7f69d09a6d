"""Data out of the one-shot commands: CSV that Python's csv module reads back, and quota-aware range exports
against a fake upstream on 127.0.0.1 that counts its calls (a refusal makes none, --max-calls makes that many and
exits 2, a second run finishes, an interrupted run resumes)."""
import csv
import io
import json
import signal
import subprocess
import time
import urllib.request

from cli_testing import BINARY, run

COLUMNS = ["start", "end", "rank", "change", "trend", "movieCode", "title", "openDate", "audience", "audienceChange",
           "audienceTotal", "sales", "salesShare", "salesTotal", "screens", "shows"]


def test_csv_round_trips_through_the_csv_module():
    result = run(["daily", "2023-04-26", "--format", "csv"])
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert list(rows[0].keys()) == COLUMNS
    assert len(rows) == 10
    assert rows[0]["title"] == "드림" and rows[0]["change"] == "신작" and rows[1]["change"] == "▲12"
    assert all(int(row["audience"]) <= int(row["audienceTotal"]) for row in rows)
    excel = run(["daily", "2023-04-26", "--format", "csv", "--excel"])
    assert excel.stdout.startswith("\ufeff") and not result.stdout.startswith("\ufeff")
    assert list(csv.DictReader(io.StringIO(excel.stdout.lstrip("\ufeff"), newline=""))) == rows


def test_status_is_one_record_not_rows():
    """status writes its record as json or one ndjson line; csv has no rows to write and is refused (it once printed
    the JSON under --format csv)."""
    refused = run(["status", "--format", "csv"])
    assert refused.returncode == 64 and "status is one record, not rows" in refused.stderr and refused.stdout == ""
    line = run(["status", "--format", "ndjson"])
    assert line.returncode == 0 and len(line.stdout.splitlines()) == 1
    assert json.loads(line.stdout)["mode"] == "offline"
    page = run(["status", "--format", "html"])
    assert page.returncode == 64 and "status writes text, json or ndjson" in page.stderr


def live(base, cache, *extra):
    return {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": base + "/kobis", "BOXOFFICE_CACHE_DIR": cache}


def daily_calls(counts):
    return sum(n for key, n in counts()["calls"].items() if "searchDailyBoxOfficeList" in key)


def test_a_ten_day_range_makes_ten_calls_and_again_none(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    arguments = ["daily", "--from", "2023-03-01", "--to", "2023-03-10", "--format", "csv"]
    first = run(arguments, env=live(base, cache))
    assert first.returncode == 0, first.stderr
    rows = list(csv.DictReader(io.StringIO(first.stdout, newline="")))
    assert [row["start"] for row in rows] == sorted(row["start"] for row in rows)
    assert len({row["start"] for row in rows}) == 10 and len(rows) == 100
    assert daily_calls(counts) == 10
    again = run(arguments, env=live(base, cache))
    assert again.returncode == 0 and again.stdout == first.stdout
    assert daily_calls(counts) == 10, "the second run is answered from the cache"


def test_a_range_needing_more_calls_than_the_quota_left_is_refused_before_any_call(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    refused = run(["daily", "--from", "2023-03-01", "--to", "2023-03-10", "--format", "ndjson", "--kobis-daily-limit", "5"],
                  env=live(base, cache))
    # 75 (EX_TEMPFAIL): tomorrow's quota covers it.
    assert refused.returncode == 75
    assert "10 KOBIS calls needed and 5 left today" in refused.stderr and "resets at" in refused.stderr
    assert refused.stdout == "" and daily_calls(counts) == 0


def test_max_calls_makes_that_many_exits_2_and_a_second_run_finishes(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    arguments = ["daily", "--from", "2023-03-01", "--to", "2023-03-10", "--format", "ndjson"]
    partial = run(arguments + ["--max-calls", "3"], env=live(base, cache))
    assert partial.returncode == 2, partial.stderr
    assert daily_calls(counts) == 3
    days = sorted({json.loads(line)["start"] for line in partial.stdout.splitlines()})
    assert days == ["2023-03-01", "2023-03-02", "2023-03-03"]
    finished = run(arguments, env=live(base, cache))
    assert finished.returncode == 0, finished.stderr
    assert daily_calls(counts) == 10
    assert len({json.loads(line)["start"] for line in finished.stdout.splitlines()}) == 10


def test_an_interrupted_run_resumes(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    arguments = ["daily", "--from", "2023-01-01", "--to", "2023-01-30", "--format", "ndjson"]
    environment = dict(live(base, cache))
    import os
    full = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    full.update({"BOXOFFICE_TODAY": "2026-11-21"}, **environment)
    # 30 days, 20 at a time (the worker's calls in flight per service): the calls past the 22nd are held by the
    # upstream, so the run is interrupted after the first wave whatever the machine's speed.
    urllib.request.urlopen(base + "/__hold?after=22").read()
    process = subprocess.Popen([BINARY, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full)
    deadline = time.time() + 30
    while daily_calls(counts) < 23 and time.time() < deadline:
        time.sleep(0.01)  # sleep-ok: the pace of a wait for a state (the 23rd call held), not an order
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    urllib.request.urlopen(base + "/__release").read()
    assert process.returncode == 130, err
    written = {json.loads(line)["start"] for line in out.splitlines()}
    assert 0 < len(written) < 30 and "interrupted" in err
    resumed = run(arguments, env=environment)
    assert resumed.returncode == 0, resumed.stderr
    assert len({json.loads(line)["start"] for line in resumed.stdout.splitlines()}) == 30
    calls = counts()["calls"]
    for day in written:
        key = [k for k in calls if "searchDailyBoxOfficeList" in k and "targetDt=%s" % day.replace("-", "") in k]
        assert calls[key[0]] == 1, "a day finished before the interrupt was fetched again: %s" % day


def test_a_range_with_failing_days_exits_2_and_names_them_offline():
    # Offline, 2023-04-23 and 2023-04-26 are recorded; the two days between are not.
    result = run(["daily", "--from", "2023-04-23", "--to", "2023-04-26", "--format", "csv"])
    assert result.returncode == 2, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert sorted({row["start"] for row in rows}) == ["2023-04-23", "2023-04-26"] and len(rows) == 20
    assert "partial: 2 of 4 periods written" in result.stderr
    assert "2023-04-24 (offline_unavailable)" in result.stderr and "2023-04-25 (offline_unavailable)" in result.stderr
    # One message for the two days, not one each.
    assert result.stderr.count("no recorded response covers") == 1
    summary = run(["daily", "--from", "2023-04-23", "--to", "2023-04-26", "--format", "ndjson", "--missing"])
    assert summary.returncode == 2
    last = json.loads(summary.stdout.splitlines()[-1])
    assert [(day["start"], day["reason"]) for day in last["missing"]] == [
        ("2023-04-24", "offline_unavailable"), ("2023-04-25", "offline_unavailable")]
    assert last["written"] == 2 and last["expected"] == 4
    entries = [json.loads(line) for line in summary.stdout.splitlines()[:-1]]
    assert len(entries) == 20 and all("missing" not in entry for entry in entries)


def test_a_range_where_every_day_fails_exits_1_and_a_complete_one_0_with_an_empty_summary():
    failed = run(["daily", "--from", "2020-01-01", "--to", "2020-01-03", "--format", "ndjson", "--missing"])
    assert failed.returncode == 1 and "nothing written: no period could be fetched" in failed.stderr
    assert json.loads(failed.stdout.splitlines()[-1])["written"] == 0
    complete = run(["daily", "--from", "2023-04-26", "--to", "2023-04-26", "--format", "ndjson", "--missing"])
    assert complete.returncode == 0, complete.stderr
    assert json.loads(complete.stdout.splitlines()[-1]) == {"missing": [], "written": 1, "expected": 1}
    refused = run(["daily", "--from", "2023-04-26", "--to", "2023-04-26", "--format", "csv", "--missing"])
    assert refused.returncode == 64 and "--missing goes with --format ndjson" in refused.stderr


def test_a_range_with_days_the_upstream_fails_exits_2_and_names_every_one(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    urllib.request.urlopen(base + "/__fail?days=20230302,20230305").read()
    result = run(["daily", "--from", "2023-03-01", "--to", "2023-03-06", "--format", "ndjson", "--missing"],
                 env=live(base, cache))
    assert result.returncode == 2, result.stderr
    assert "partial: 4 of 6 periods written" in result.stderr
    assert "2023-03-02 (upstream_rejected)" in result.stderr and "2023-03-05 (upstream_rejected)" in result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert [day["start"] for day in last["missing"]] == ["2023-03-02", "2023-03-05"]
    assert "test-kobis-key" not in result.stderr + result.stdout
    # Fixed upstream: the next run fetches only the two missing days (the rest are cached) and completes.
    urllib.request.urlopen(base + "/__fail?days=").read()
    before = daily_calls(counts)
    again = run(["daily", "--from", "2023-03-01", "--to", "2023-03-06", "--format", "ndjson"], env=live(base, cache))
    assert again.returncode == 0, again.stderr
    assert daily_calls(counts) - before == 2


def test_a_range_with_nothing_fetched_exits_1_even_when_calls_were_only_held_back(upstream, scratch):
    base, counts = upstream
    cache = scratch("boxoffice-range-")
    nothing = run(["daily", "--from", "2023-03-01", "--to", "2023-03-03", "--format", "csv", "--max-calls", "0"],
                  env=live(base, cache))
    assert nothing.returncode == 1, nothing.stderr
    assert "nothing written" in nothing.stderr and "2023-03-01 (not_fetched)" in nothing.stderr
    assert daily_calls(counts) == 0


RUN_COLUMNS = ["date", "day", "rank", "list", "audience", "audienceTotal", "sales", "salesTotal", "screens", "shows",
               "missing"]
FIGURES = RUN_COLUMNS[2:-1]


def test_a_runs_csv_is_a_row_a_day_and_a_day_in_no_list_has_no_figures():
    """`run --format csv` offline: 파묘 from day -1 (2024-02-20) to day 102 (2024-06-02), a row a day; the two days in
    no list (days 99 and 100) have empty figure cells and say why, never a figure made up."""
    result = run(["run", "파묘", "--offline", "--format", "csv"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == ",".join(RUN_COLUMNS)
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert [int(row["day"]) for row in rows] == list(range(-1, 103))
    assert (rows[0]["date"], rows[-1]["date"]) == ("2024-02-20", "2024-06-02")
    missing = [row for row in rows if row["missing"]]
    assert [(row["day"], row["missing"]) for row in missing] == [("99", "not_listed"), ("100", "not_listed")]
    assert all(row[column] == "" for row in missing for column in FIGURES), missing
    listed = [row for row in rows if not row["missing"]]
    assert all(row[column] != "" for row in listed for column in FIGURES)
    assert {row["list"] for row in listed} == {"all", "korean"}
    totals = [int(row["audienceTotal"]) for row in listed]
    assert totals == sorted(totals) and totals[-1] == 11911567
    # The 1,000만 step on day 32 (2024-03-24).
    by_day = {int(row["day"]): row for row in rows}
    assert int(by_day[31]["audienceTotal"]) < 10_000_000 <= int(by_day[32]["audienceTotal"])
    assert by_day[32]["date"] == "2024-03-24"
    # ndjson: the same days, one a line (a day in no list with its reason and no figures); --excel adds the BOM.
    lines = [json.loads(line) for line in run(["run", "파묘", "--offline", "--format", "ndjson"]).stdout.splitlines()]
    assert [line["day"] for line in lines] == list(range(-1, 103))
    assert lines[100] == {"date": "2024-05-30", "day": 99, "missing": "not_listed"}
    excel = run(["run", "파묘", "--offline", "--format", "csv", "--excel"])
    assert excel.stdout == "\ufeff" + result.stdout


def test_compare_csv_is_a_row_a_day_since_opening_with_each_films_figures():
    result = run(["compare", "파묘", "범죄도시4", "--offline", "--format", "csv"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == ("day,20234675 audience,20234675 audienceTotal,"
                                             "20228797 audience,20228797 audienceTotal")
    rows = list(csv.reader(io.StringIO(result.stdout, newline="")))[1:]
    by_day = {int(row[0]): row[1:] for row in rows}
    assert sorted(by_day) == list(range(-8, 103))
    # 범죄도시4 has previews from day -8, 파묘 from day -1; 범죄도시4's run ends day 68, 파묘 is in no list days 99-100.
    assert by_day[-8][:2] == ["", ""] and by_day[-8][2:] == ["4185", "4185"]
    assert by_day[99] == ["", "", "", ""] and by_day[69][2:] == ["", ""]
    # The 1,000만 steps: 파묘 on day 32, 범죄도시4 on day 22.
    assert int(by_day[31][1]) < 10_000_000 <= int(by_day[32][1])
    assert int(by_day[21][3]) < 10_000_000 <= int(by_day[22][3])
