"""Exit codes a scheduler can act on (docs/jobs.md): every one-shot command exits 75 (EX_TEMPFAIL) when the upstream
is down or the day's quota is spent, time may mend both; 1 when the answer will not change (no such code, a day
offline has no recording of); 64 for a usage error. A range export or a site keeps 2 for a partial run."""
import csv
import io
import socket
import urllib.request

import pytest

from cli_testing import run

# Every one-shot command that calls KOBIS, with the arguments of a call that asks it.
COMMANDS = {
    "daily": ["daily", "2023-04-20"],
    "weekly": ["weekly", "2023-04-16"],
    "movie": ["movie", "20124079"],
    "search": ["search", "드림"],
    "people": ["people", "이병헌"],
    "person": ["people", "10057053"],
    "company": ["company", "CJ"],
    "company code": ["company", "20061351"],
    "codes": ["codes", "genre"],
    "range": ["daily", "--from", "2023-03-01", "--to", "2023-03-03", "--format", "ndjson"],
    "run": ["run", "20231089"],
    "compare": ["compare", "20231089", "20198482"],
}


@pytest.fixture(scope="module")
def down(tmp_path_factory):
    """The environment of a worker whose KOBIS is a closed port on 127.0.0.1 (every call refused at once)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    return {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": "http://127.0.0.1:%d/kobis" % port,
            "BOXOFFICE_CACHE_DIR": str(tmp_path_factory.mktemp("down-cache"))}


@pytest.mark.parametrize("command", COMMANDS)
def test_an_upstream_that_is_down_exits_75(down, command):
    result = run(COMMANDS[command] + ["--timeout", "1"], env=down)
    assert result.returncode == 75, (result.returncode, result.stderr)
    assert "upstream_unavailable" in result.stderr or "unavailable" in result.stderr, result.stderr


def test_a_spent_quota_exits_75(upstream, tmp_path):
    base, _ = upstream
    env = {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": base + "/kobis", "BOXOFFICE_CACHE_DIR": str(tmp_path)}
    spent = run(["daily", "2023-04-20", "--kobis-daily-limit", "0"], env=env)
    assert spent.returncode == 75 and "quota_exhausted" in spent.stderr, spent.stderr
    refused = run(COMMANDS["range"] + ["--kobis-daily-limit", "2"], env=env)
    assert refused.returncode == 75 and "3 KOBIS calls needed and 2 left today" in refused.stderr, refused.stderr


@pytest.mark.parametrize("arguments", [["movie", "99999999"], ["people", "99999999"], ["company", "99999999"]])
def test_a_code_kobis_does_not_know_exits_1(upstream, tmp_path, arguments):
    base, _ = upstream
    env = {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": base + "/kobis", "BOXOFFICE_CACHE_DIR": str(tmp_path)}
    result = run(arguments, env=env)
    assert result.returncode == 1, (result.returncode, result.stderr)


def test_offline_without_a_recording_exits_1_and_a_usage_error_64():
    offline = run(["daily", "2023-04-20"])
    assert offline.returncode == 1 and "offline" in offline.stderr, offline.stderr
    usage = run(["daily", "20230420x"])
    assert usage.returncode == 64, usage.stderr


# A film's run (`run`, `compare`): 0 whole, 2 partial (--max-calls, or days whose lists failed), 75 when the quota
# cut it or refused it; a title no film has and the params' bounds as the methods say them. Live, every day the fake
# upstream serves is 2023-04-26's list: 존 윅 4 (20231089) is in each, so its run from 14 days before its opening
# (2023-04-12) through 2023-05-10 is 43 days of lists.
LIVE_RUN = ["run", "20231089", "--through", "2023-05-10"]


def live(base, cache):
    return {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": base + "/kobis", "BOXOFFICE_CACHE_DIR": str(cache)}


def test_a_run_offline_exits_0_and_a_title_no_film_has_1(upstream, tmp_path):
    done = run(["run", "파묘", "--offline"])
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "stopped: ended" in done.stdout
    offline = run(["run", "없는 영화", "--offline"])
    assert offline.returncode == 1 and offline.stdout == "", offline.stderr
    assert "offline mode: no recorded response covers this search" in offline.stderr
    assert offline.stderr.count("\n") == 1, offline.stderr
    # Live, KOBIS's search finds no film of that title: not_found, as an unknown code (1).
    base, _ = upstream
    live_answer = run(["run", "없는", "영화"], env=live(base, tmp_path))
    assert live_answer.returncode == 1 and live_answer.stdout == "", live_answer.stderr
    assert 'no KOBIS film is titled "없는 영화"' in live_answer.stderr and "(not_found)" in live_answer.stderr


@pytest.mark.parametrize("films, message", [
    (["파묘"], "/movies: has 1 items, fewer than 2"),
    (["파묘", "범죄도시4", "3", "4", "5", "6", "7", "8", "9"], "/movies: has 9 items, more than 8"),
], ids=["one", "nine"])
def test_compare_takes_2_to_8_films_and_refuses_the_rest_as_usage(films, message):
    refused = run(["compare", *films])
    assert refused.returncode == 64 and refused.stdout == "", refused.stderr
    assert refused.stderr == "boxoffice-worker: Invalid params: %s\n" % message


@pytest.mark.parametrize("arguments, message", [
    (["--days", "0"], "Invalid params: /days: 0 is less than the minimum 1"),
    (["--max-calls=-1"], "Invalid params: /maxCalls: -1 is less than the minimum 0"),
    (["--through", "2024-13-01"], '"2024-13-01" is not a date'),
], ids=["days", "max-calls", "through"])
def test_a_runs_limits_out_of_bounds_are_usage_errors(arguments, message):
    refused = run(["run", "파묘", *arguments])
    assert refused.returncode == 64 and message in refused.stderr, refused.stderr


def test_a_run_cut_by_max_calls_exits_2_and_a_second_run_finishes(upstream, tmp_path):
    base, _ = upstream
    partial = run(LIVE_RUN + ["--format", "csv", "--max-calls", "3"], env=live(base, tmp_path))
    assert partial.returncode == 2, partial.stderr
    assert len(list(csv.DictReader(io.StringIO(partial.stdout, newline="")))) == 3
    whole = run(LIVE_RUN + ["--format", "csv"], env=live(base, tmp_path))
    assert whole.returncode == 0, whole.stderr
    assert len(list(csv.DictReader(io.StringIO(whole.stdout, newline="")))) == 43


def test_a_run_the_quota_cannot_give_is_refused_first_and_one_it_cuts_exits_75(upstream, tmp_path):
    base, counts = upstream
    refused = run(LIVE_RUN + ["--kobis-daily-limit", "5"], env=live(base, tmp_path))
    assert refused.returncode == 75 and refused.stdout == "", refused.stderr
    assert "43 KOBIS calls needed and 4 left today" in refused.stderr and "quota_exhausted" in refused.stderr
    assert not any("searchDailyBoxOfficeList" in key for key in counts()["calls"]), "nothing fetched"
    # With --max-calls the run starts, and the quota cuts it: what it had is written, and 75 says try later.
    cut = run(LIVE_RUN + ["--format", "json", "--kobis-daily-limit", "5", "--max-calls", "10"],
              env=live(base, tmp_path))
    assert cut.returncode == 75, cut.stderr
    assert '"stopped":"quota_exhausted"' in cut.stdout.replace(" ", "")


def test_a_run_with_days_whose_lists_failed_exits_2_and_keeps_the_days_with_their_reason(upstream, tmp_path):
    base, _ = upstream
    urllib.request.urlopen(base + "/__fail?days=20230405,20230406").read()
    result = run(LIVE_RUN + ["--format", "csv"], env=live(base, tmp_path))
    assert result.returncode == 2, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert len(rows) == 43
    missing = {row["date"]: row["missing"] for row in rows if row["missing"]}
    assert missing == {"2023-04-05": "upstream_rejected", "2023-04-06": "upstream_rejected"}, missing


@pytest.mark.parametrize("failing", [["20230329", "20230330"], ["20230509", "20230510"],
                                     ["202303%02d" % day for day in range(29, 32)]
                                     + ["202304%02d" % day for day in range(1, 31)]
                                     + ["202305%02d" % day for day in range(1, 11)]], ids=["first", "last", "every"])
def test_a_run_whose_first_last_or_every_days_lists_failed_is_not_whole(upstream, tmp_path, failing):
    """A run's days go from its first listed day to its last, so a day that failed before the first or after the
    last is not among them; the run is still not whole, and its exit status says so (a job must not take it for the
    whole run)."""
    base, _ = upstream
    urllib.request.urlopen(base + "/__fail?days=" + ",".join(failing)).read()
    result = run(LIVE_RUN + ["--format", "csv"], env=live(base, tmp_path))
    assert result.returncode != 0, "exit 0 though the lists of %s failed" % ", ".join(failing[:3])


def test_a_run_the_recordings_cut_offline_is_not_whole():
    """Offline the 다양성 list is not recorded: `--diversity` stops 파묘's scan `offline_unavailable` where it first
    needs one (a day before its previews), so the run is not whole, and its exit status must not say it is."""
    cut = run(["run", "파묘", "--offline", "--diversity", "--format", "json"])
    assert '"stopped":"offline_unavailable"' in cut.stdout.replace(" ", ""), cut.stdout[-300:]
    assert cut.returncode != 0, "exit 0 for a run the recordings cut"
