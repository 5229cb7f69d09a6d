"""`boxoffice-worker pipe`: one outcome line for every input line, in input order, nothing on stderr, and the exit
status docs/jobs.md documents (issue 40)."""
import datetime
import json
import random
import signal
import subprocess
import time
import urllib.request

from jobs_testing import BINARY, environment, live, pipe

FAILING = ["2023-07-15", "2023-07-16", "2023-08-01"]


def mixed_lines(count, seed=40):
    """`count` job lines for boxoffice.daily and what each must come to: ("date", day) for a result of that day, or
    ("error", reason)."""
    rng = random.Random(seed)
    days = [day for day in (datetime.date(2023, 1, 1) + datetime.timedelta(days=n) for n in range(300))
            if day.isoformat() not in FAILING]
    lines, expected = [], []
    for index in range(count):
        kind = rng.choice(["params", "params", "bare", "bare", "id", "blank", "broken", "unknown", "future", "failing"])
        day = rng.choice(days).isoformat()
        if kind == "params":
            lines.append(json.dumps({"date": day}))
        elif kind == "bare":
            lines.append(day)
        elif kind == "id":
            lines.append(json.dumps({"date": day, "id": "job-%d" % index}))
        elif kind == "blank":
            lines.append(rng.choice(["", "   "]))
            expected.append(("error", "invalid_request", None))
            continue
        elif kind == "broken":
            lines.append('{"date": "%s"' % day)
            expected.append(("error", "parse_error", None))
            continue
        elif kind == "unknown":
            lines.append(json.dumps({"date": day, "screens": 3}))
            expected.append(("error", "invalid_params", None))
            continue
        elif kind == "future":
            lines.append(rng.choice(["2024-01-10", "2024-03-01", "2030-12-31"]))
            expected.append(("error", "invalid_params", None))
            continue
        else:
            day = rng.choice(FAILING)
            lines.append(day)
            expected.append(("error", "upstream_rejected", None))
            continue
        expected.append(("date", day, "job-%d" % index if kind == "id" else None))
    return lines, expected


def check(outcomes, expected):
    assert len(outcomes) == len(expected)
    for number, (outcome, want) in enumerate(zip(outcomes, expected), start=1):
        if want[0] == "date":
            assert "result" in outcome and "error" not in outcome, (number, outcome)
            assert outcome["result"]["range"]["start"] == want[1], (number, outcome)
        else:
            assert outcome["error"]["reason"] == want[1], (number, want, outcome)
            assert set(outcome["error"]) <= {"code", "message", "reason", "data"}, outcome
        if want[2] is not None:
            assert outcome["id"] == want[2], (number, outcome)
        else:
            assert "id" not in outcome, (number, outcome)


def test_ten_thousand_mixed_lines_give_ten_thousand_outcomes_in_order(jobs_upstream, tmp_path):
    urllib.request.urlopen(jobs_upstream.base + "/__fail?days=" + ",".join(day.replace("-", "") for day in FAILING))
    lines, expected = mixed_lines(10_000)
    result = pipe(["boxoffice.daily", "--max-in-flight", "32"], lines, live(jobs_upstream, tmp_path))
    outcomes = [json.loads(line) for line in result.stdout.splitlines()]
    check(outcomes, expected)
    assert result.stderr == ""
    # Some lines failed and some succeeded: 2, as a partial range.
    assert result.returncode == 2
    # The same cache and coalescing as the worker: each day that answered was fetched once (a fault is not kept).
    calls = jobs_upstream.counts()["calls"]
    answered = {path: count for path, count in calls.items()
                if "Daily" in path and not any(day.replace("-", "") in path for day in FAILING)}
    assert len(answered) > 250 and set(answered.values()) == {1}, answered


def test_exit_statuses(jobs_upstream, tmp_path):
    env = live(jobs_upstream, tmp_path)
    every = pipe(["boxoffice.daily"], ["2023-03-01", '{"date":"2023-03-02"}'], env)
    assert (every.returncode, every.stderr) == (0, "")
    assert pipe(["boxoffice.daily"], [], env).returncode == 0
    # Nothing succeeded and nothing will by waiting (codes KOBIS does not know): 1.
    none = pipe(["movie.detail"], ["99999999", "x"], env)
    assert none.returncode == 1 and none.stderr == ""
    assert [json.loads(line)["error"]["reason"] for line in none.stdout.splitlines()] == [
        "upstream_rejected", "upstream_rejected"]
    # Nothing succeeded and time may mend all of it (the day's quota spent): 75.
    spent = pipe(["boxoffice.daily", "--kobis-daily-limit", "0"], ["2023-03-03", "2023-03-04"], env)
    assert spent.returncode == 75, spent.stdout
    unknown = pipe(["boxoffice.dialy"], ["2023-03-01"], env)
    assert unknown.returncode == 64 and "no method boxoffice.dialy" in unknown.stderr and unknown.stdout == ""


def test_without_a_method_each_line_names_its_own(tmp_path):
    lines = ['{"method":"ping","id":1}', '{"method":"movie.detail","params":{"movieCode":"20124079"},"id":"m"}',
             '{"method":"$/cancelRequest","params":{"id":1}}', "2023-04-26", '{"method":"boxoffice.daily"}']
    result = pipe(["--offline"], lines, environment())
    outcomes = [json.loads(line) for line in result.stdout.splitlines()]
    assert outcomes[0] == {"id": 1, "result": {}}
    assert outcomes[1]["id"] == "m" and outcomes[1]["result"]["title"] == "광해, 왕이 된 남자"
    assert outcomes[2]["error"]["reason"] == "method_not_found"
    assert outcomes[3]["error"]["reason"] == "invalid_request"
    assert "result" in outcomes[4]
    assert result.returncode == 2 and result.stderr == ""


def test_runs_as_bare_lines_a_title_or_a_code(tmp_path):
    """`pipe movie.run`: a bare line is the film's title, or its code when it has a code's form; offline, the two
    recorded runs, and a title no recording covers fails alone."""
    # Today after the recordings (the other tests' today, 2024-01-10, is before the runs).
    result = pipe(["movie.run", "--offline"], ["파묘", "20228797", "없는 영화"], environment({"BOXOFFICE_TODAY": "2026-11-21"}))
    outcomes = [json.loads(line) for line in result.stdout.splitlines()]
    assert [outcome.get("result", {}).get("movieCode") for outcome in outcomes[:2]] == ["20234675", "20228797"]
    tenth = [step for step in outcomes[0]["result"]["milestones"] if step["audience"] == 10_000_000]
    assert tenth == [{"audience": 10_000_000, "date": "2024-03-24", "day": 32}]
    assert outcomes[2]["error"]["reason"] == "offline_unavailable"
    assert result.returncode == 2 and result.stderr == ""


def test_closing_stdin_mid_stream_loses_no_outcome(jobs_upstream, tmp_path):
    """Outcomes stream out while input still comes; when stdin closes with jobs still held at the upstream, every line
    read is still answered, in order, once the upstream lets them go."""
    days = [(datetime.date(2022, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(300)]
    urllib.request.urlopen(jobs_upstream.base + "/__hold?after=100")
    child = subprocess.Popen([BINARY, "pipe", "boxoffice.daily", "--max-in-flight", "16"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=live(jobs_upstream, tmp_path))
    child.stdin.write("".join(day + "\n" for day in days))
    child.stdin.flush()
    first = [json.loads(child.stdout.readline()) for _ in range(50)]
    assert [outcome["result"]["range"]["start"] for outcome in first] == days[:50]
    child.stdin.close()
    urllib.request.urlopen(jobs_upstream.base + "/__release")
    rest = [json.loads(line) for line in child.stdout.read().splitlines()]
    assert [outcome["result"]["range"]["start"] for outcome in first + rest] == days
    assert child.wait(timeout=60) == 0
    assert child.stderr.read() == ""


def test_sigterm_answers_every_line_read_and_exits_130(jobs_upstream, tmp_path):
    """SIGTERM stops reading; every job already started gets its outcome (a job the drain time cut is -32800)."""
    days = [(datetime.date(2021, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(40)]
    child = subprocess.Popen([BINARY, "pipe", "boxoffice.daily", "--max-in-flight", "40", "--drain-seconds", "0.2"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=live(jobs_upstream, tmp_path))
    child.stdin.write("".join(day + "\n" for day in days[:10]))
    child.stdin.flush()
    first = [json.loads(child.stdout.readline()) for _ in range(10)]
    # The other 30 are held at the upstream (20 at once: the per-service bound) when the signal comes.
    urllib.request.urlopen(jobs_upstream.base + "/__hold?after=10")
    child.stdin.write("".join(day + "\n" for day in days[10:]))
    child.stdin.flush()
    deadline = time.monotonic() + 30
    while jobs_upstream.counts()["kobis"] < 30 and time.monotonic() < deadline:
        time.sleep(0.02)  # sleep-ok: waiting for the worker's calls to reach the held upstream
    child.send_signal(signal.SIGTERM)
    rest = [json.loads(line) for line in child.stdout.read().splitlines()]
    urllib.request.urlopen(jobs_upstream.base + "/__release")
    assert [outcome["result"]["range"]["start"] for outcome in first] == days[:10]
    assert [outcome["error"]["reason"] for outcome in rest] == ["cancelled"] * 30
    assert child.wait(timeout=60) == 130
    child.stdin.close()
    assert child.stderr.read() == ""


def test_files_dir_keeps_cards_out_of_the_line(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    result = pipe(["boxoffice.daily", "--offline", "--files-dir", str(files)],
                  ['{"date":"2023-04-26","card":"list"}', '{"date":"2023-04-23","card":"grid"}',
                   '{"date":"2023-04-26","card":"list"}'], environment())
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line.encode()) for line in lines) < 16 * 1024
    cards = [json.loads(line)["result"]["card"] for line in lines]
    assert cards[0] == cards[2] and cards[0]["path"] != cards[1]["path"]
    assert sorted(path.name for path in files.iterdir()) == sorted({card["sha256"] + ".png" for card in cards})
    for card in cards:
        data = open(card["path"], "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) == card["bytes"] and "data" not in card
    missing = subprocess.run([BINARY, "pipe", "--files-dir", str(tmp_path / "nowhere")], input="", text=True,
                             capture_output=True, env=environment())
    assert missing.returncode == 64 and "is not a directory" in missing.stderr
