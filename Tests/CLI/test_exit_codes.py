"""Exit codes a scheduler can act on (docs/jobs.md): every one-shot command exits 75 (EX_TEMPFAIL) when the upstream
is down or the day's quota is spent, time may mend both; 1 when the answer will not change (no such code, a day
offline has no recording of); 64 for a usage error. A range export or a site keeps 2 for a partial run."""
import socket

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
