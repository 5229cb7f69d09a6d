"""The JetStream work queue: submit and collect as pipe reads and writes lines, a job whose adapter dies delivered
again, a failure time may mend given back and done later, and the bare-string table held to pipe's."""
import json
import re
import subprocess
import time
import urllib.request

from nats_testing import BINARY, ROOT, Adapter, cli, environment, live, without_source


def outcomes(text):
    return [json.loads(line) for line in text.splitlines()]


def test_submit_and_collect_give_pipes_outcomes_in_order(nats_server, tmp_path):
    adapter = Adapter(nats_server, ["--jobs", "--no-requests"], environment(), tmp_path / "adapter.log")
    try:
        lines = ["2023-04-26", "", "not a date", '{"date":"2022-01-05","limit":2,"id":7}', '"2023-04-23"', "[1]",
                 "2031-01-01", '{"date": "2023-04-26", "limt": 3}']
        submitted = cli(nats_server, ["submit", "boxoffice.daily"], "\n".join(lines) + "\n")
        assert submitted.returncode == 0, submitted.stderr
        batch = submitted.stdout.strip()
        assert re.fullmatch(r"[0-9T]+-[0-9a-f]{6}", batch), submitted.stdout
        collected = cli(nats_server, ["collect", batch])
        assert collected.returncode == 2, collected.stderr  # some failed, some succeeded: pipe's 2
        piped = subprocess.run([BINARY, "pipe", "boxoffice.daily", "--offline"], input="\n".join(lines) + "\n",
                               capture_output=True, text=True, env=environment(), timeout=60)
        assert piped.returncode == 2
        ours, theirs = outcomes(collected.stdout), outcomes(piped.stdout)
        assert len(ours) == len(lines) == len(theirs)
        for index, (one, other) in enumerate(zip(ours, theirs)):
            assert ("result" in one) == ("result" in other), (index, one, other)
            assert one.get("id") == other.get("id"), index
            if "result" in one:
                assert without_source(one["result"]) == without_source(other["result"]), index
            else:
                assert one["error"]["reason"] == other["error"]["reason"], (index, one, other)
        assert ours[3]["id"] == 7 and len(ours[3]["result"]["entries"]) == 2
        # Collected again: the same outcomes (kept in the bucket), each once.
        again = cli(nats_server, ["collect", batch])
        assert outcomes(again.stdout) == ours
    finally:
        assert adapter.terminate() == 0


def test_lines_naming_their_method_and_submit_then_collect(nats_server, tmp_path):
    adapter = Adapter(nats_server, ["--jobs", "--no-requests"], environment(), tmp_path / "adapter.log")
    try:
        lines = [json.dumps({"method": "ping", "id": "a"}),
                 json.dumps({"method": "boxoffice.daily", "params": {"date": "2023-04-26", "limit": 1}}),
                 json.dumps({"method": "no.such"}), json.dumps({"params": {}})]
        done = cli(nats_server, ["submit", "--collect", "--batch", "named-1"], "\n".join(lines) + "\n")
        found = outcomes(done.stdout)
        assert found[0] == {"id": "a", "result": {}}
        assert found[1]["result"]["entries"][0]["rank"] == 1
        assert found[2]["error"]["reason"] == "method_not_found"
        assert found[3]["error"]["reason"] == "invalid_request"
        assert done.returncode == 2, done.stderr
    finally:
        assert adapter.terminate() == 0


def test_a_job_whose_adapter_dies_is_delivered_again(nats_server, nats_upstream, tmp_path):
    """Adapter A takes every job and dies (SIGKILL, its workers with it) while the upstream holds their calls;
    adapter B, started after, gets them once the ack wait has passed, and every outcome is collected once."""
    urllib.request.urlopen(nats_upstream.base + "/__hold?after=0").read()
    first = Adapter(nats_server, ["--jobs", "--no-requests", "--ack-wait", "2", "--job-concurrency", "8"],
                    live(nats_upstream, tmp_path / "cache-a"), tmp_path / "a.log")
    second = None
    try:
        days = ["2023-02-%02d" % day for day in range(1, 9)]
        submitted = cli(nats_server, ["submit", "boxoffice.daily"], "\n".join(days) + "\n")
        batch = submitted.stdout.strip()
        deadline = time.monotonic() + 60
        while nats_upstream.counts()["kobis"] < len(days):
            assert time.monotonic() < deadline, "adapter A never took the jobs"
            time.sleep(0.02)  # sleep-ok: polling the fake upstream's count of held calls
        first.kill()
        urllib.request.urlopen(nats_upstream.base + "/__release").read()
        second = Adapter(nats_server, ["--jobs", "--no-requests", "--ack-wait", "2"],
                         live(nats_upstream, tmp_path / "cache-b"), tmp_path / "b.log")
        collected = cli(nats_server, ["collect", batch], timeout=120)
        found = outcomes(collected.stdout)
        assert collected.returncode == 0, collected.stderr
        assert [outcome["result"]["range"]["start"] for outcome in found] == days
    finally:
        first.stop()
        if second is not None:
            assert second.terminate() == 0


def test_a_failure_time_may_mend_is_given_back_and_done_later(nats_server, nats_upstream, tmp_path):
    """The upstream answers HTTP 500 for a while: the jobs are given back with a delay (NAK), not stored as
    failures, and each ends with its result."""
    adapter = Adapter(nats_server, ["--jobs", "--no-requests", "--retry-backoff", "0.2"],
                      live(nats_upstream, tmp_path / "cache"), tmp_path / "adapter.log")
    try:
        # Three attempts a call in the worker: the first try of all four jobs fails.
        urllib.request.urlopen(nats_upstream.base + "/__flaky?times=12").read()
        days = ["2023-05-%02d" % day for day in range(1, 5)]
        done = cli(nats_server, ["submit", "--collect", "boxoffice.daily"], "\n".join(days) + "\n", timeout=120)
        assert done.returncode == 0, done.stderr
        assert [outcome["result"]["range"]["start"] for outcome in outcomes(done.stdout)] == days
        assert nats_upstream.counts()["kobis"] >= len(days) + 12
    finally:
        assert adapter.terminate() == 0


def test_the_bare_string_table_is_pipes():
    swift = (ROOT / "Sources" / "BoxOfficeWorker" / "Composition" / "PipeFace.swift").read_text()
    table = swift.split("bareMembers: [String: String] = [", 1)[1].split("]", 1)[0]
    pairs = dict(re.findall(r'"([a-z.]+)": "([A-Za-z]+)"', table))
    from boxoffice_worker.nats.lines import BARE_MEMBERS
    assert BARE_MEMBERS == pairs


def test_usage_errors_and_no_server(nats_server):
    assert cli(nats_server, ["submit", "no.such"]).returncode == 64
    assert cli(nats_server, ["collect", "a.b"]).returncode == 64
    unreachable = subprocess.run(
        [__import__("sys").executable, "-m", "boxoffice_worker.nats", "collect", "x", "--server",
         "nats://user:secret@127.0.0.1:1"], capture_output=True, text=True, env=environment(), timeout=60)
    assert unreachable.returncode == 69
    assert "secret" not in unreachable.stderr and "user:***@127.0.0.1:1" in unreachable.stderr


def test_a_message_no_submit_wrote_is_terminated_not_delivered_for_ever(nats_server, tmp_path):
    import asyncio
    from nats_testing import connect

    adapter = Adapter(nats_server, ["--jobs", "--no-requests", "--ack-wait", "1"], environment(),
                      tmp_path / "adapter.log")
    try:
        async def foreign():
            client = await connect(nats_server)
            try:
                js = client.jetstream()
                await js.publish("boxoffice.jobs.stray", b"not a job")
                await js.publish("boxoffice.jobs.stray", b'{"method":"ping"}', headers={"Boxoffice-Batch": "stray"})
            finally:
                await client.close()

        asyncio.run(foreign())
        done = cli(nats_server, ["submit", "--collect", "ping"], "{}\n")
        assert done.returncode == 0 and outcomes(done.stdout) == [{"result": {}}], done.stderr
        deadline = time.monotonic() + 30
        while adapter.log_path.read_text().count("is no job") < 2 and time.monotonic() < deadline:
            time.sleep(0.02)  # sleep-ok: polling the adapter's log for what it did with the strays
        assert adapter.log_path.read_text().count("is no job") == 2, adapter.log_path.read_text()

        async def left():
            client = await connect(nats_server)
            try:
                info = await client.jetstream().stream_info("BOXOFFICE_JOBS")
                return info.state.messages
            finally:
                await client.close()

        assert asyncio.run(left()) == 0, "a terminated message left the work queue"
    finally:
        assert adapter.terminate() == 0


def test_a_job_the_upstream_keeps_failing_ends_after_max_tries_with_its_failure(nats_server, nats_upstream, tmp_path):
    adapter = Adapter(nats_server, ["--jobs", "--no-requests", "--retry-backoff", "0.1", "--max-tries", "2"],
                      live(nats_upstream, tmp_path / "cache"), tmp_path / "adapter.log")
    try:
        urllib.request.urlopen(nats_upstream.base + "/__flaky?times=100000").read()
        done = cli(nats_server, ["submit", "--collect", "boxoffice.daily"], "2023-06-01\n2023-06-02\n", timeout=120)
        found = outcomes(done.stdout)
        assert [outcome["error"]["reason"] for outcome in found] == ["upstream_unavailable"] * 2, found
        assert done.returncode == 75, done.stderr  # every failure one time may mend: pipe's 75
    finally:
        urllib.request.urlopen(nats_upstream.base + "/__flaky?times=0").read()
        assert adapter.terminate() == 0


def test_collecting_a_batch_the_bucket_does_not_hold_says_so(nats_server, tmp_path):
    adapter = Adapter(nats_server, ["--jobs", "--no-requests"], environment(), tmp_path / "adapter.log")
    try:
        done = cli(nats_server, ["collect", "no-such-batch"], timeout=60)
        assert done.returncode == 1 and "no batch no-such-batch" in done.stderr, done.stderr
    finally:
        assert adapter.terminate() == 0
