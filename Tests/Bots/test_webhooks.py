"""The Discord and Slack webhook recipes (examples/bots/*-webhook), run as cron runs them, posting to a fake webhook on
127.0.0.1: what they post is exactly what the worker writes for the day, within each service's documented limits;
yesterday is asked for by its date, so no other day is ever posted in its place; without KOBIS_API_KEY nothing is
run or posted; a rate limit is waited out; a redirect is never followed; any other failure exits non-zero with one
line on stderr that never shows the webhook URL or its secret, an invalid URL's too, and never a traceback."""
import json
import re
import socket
import subprocess
import urllib.request

import pytest

from bots_testing import (BINARY, BOTS, DAY, Webhook, discord_problems, environment, keyed, live, recording_worker,
                          run, slack_problems, worker_messages)

SERVICES = {
    "discord": dict(
        script=str(BOTS / "discord-webhook" / "boxoffice-discord.py"),
        setting="DISCORD_WEBHOOK_URL",
        secret="SECRET-discord-webhook-token",
        path="/api/webhooks/1234567890/SECRET-discord-webhook-token",
        # Execute Webhook with wait=true answers the message it posted.
        success=(200, [], b'{"id":"1","type":0,"content":""}'),
        problems=discord_problems,
        # retry_after in seconds (a float) in the body; the header rounds up.
        rate_limited=lambda seconds: (429, [("Retry-After", "1")], json.dumps(
            {"message": "You are being rate limited.", "retry_after": seconds, "global": False}).encode()),
        images=lambda body: [embed.get("thumbnail", {}).get("url") for embed in body["embeds"]],
    ),
    "slack": dict(
        script=str(BOTS / "slack-webhook" / "boxoffice-slack.py"),
        setting="SLACK_WEBHOOK_URL",
        secret="SECRET-slack-webhook-token",
        path="/services/T00000000/B00000000/SECRET-slack-webhook-token",
        success=(200, [], b"ok"),
        problems=slack_problems,
        rate_limited=lambda seconds: (429, [("Retry-After", str(seconds))], b"rate_limited"),
        images=lambda body: [block.get("accessory", {}).get("image_url") for block in body["blocks"]
                             if block["type"] == "section"],
    ),
}


# Where a live day's figures came from and when, as the worker's heading says it: the same in two runs only while the
# second finds the first's body in the cache.
SOURCE = re.compile(rb"\b(kobis|cache), fetched \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@pytest.fixture(params=sorted(SERVICES))
def service(request):
    """(name, its settings, a fake webhook for it)."""
    settings = SERVICES[request.param]
    webhook = Webhook(settings["success"])
    webhook.url = webhook.base + settings["path"]
    yield request.param, settings, webhook
    webhook.close()


def post(settings, url, env, arguments=()):
    return run([settings["script"], *arguments], dict(env, **{settings["setting"]: url}))


def assert_secret_kept(settings, webhook, result):
    for shown in (result.stdout, result.stderr):
        assert settings["secret"] not in shown
        assert webhook.url not in shown and settings["path"] not in shown


def unsourced(bodies):
    """The bodies without where and when their figures were fetched (SOURCE), which two live runs need not share."""
    return [SOURCE.sub(b"<source>", body) for body in bodies]


def fake_kobis_calls(upstream):
    """What the fake KOBIS and Kakao were asked so far (path and query, without the key)."""
    with urllib.request.urlopen(upstream + "/__requests") as response:
        return list(json.load(response)["calls"])


@pytest.mark.parametrize("mode", ["offline", "live-with-posters"])
def test_posts_exactly_what_the_worker_writes(service, mode, tmp_path, request):
    name, settings, webhook = service
    if mode == "offline":
        # A key, as the script requires, and the worker made offline: yesterday (2023-04-26) is a recorded day.
        env, arguments = keyed(tmp_path / "cache"), ["--offline"]
    else:
        env, arguments = live(request.getfixturevalue("upstream"), tmp_path / "cache"), ["--with-posters"]
    result = post(settings, webhook.url, env, arguments)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("posted 1 message for " + DAY)
    # What the worker writes for yesterday asked by its date.
    expected = worker_messages(name, [DAY, *arguments], env)
    posted_bodies = [posted["body"] for posted in webhook.requests]
    if mode == "offline":
        assert posted_bodies == expected
    else:
        # Live, the heading says where the day came from (KOBIS for the recipe's run, the cache for the second) and
        # when: the rest is byte for byte the same.
        assert all(SOURCE.search(body) for body in posted_bodies + expected)
        assert unsourced(posted_bodies) == unsourced(expected)
    for posted in webhook.requests:
        assert posted["headers"]["Content-Type"] == "application/json"
        body = json.loads(posted["body"])
        assert settings["problems"](body) == []
        assert DAY in json.dumps(body, ensure_ascii=False)
        if mode != "offline":
            assert all(image and image.endswith("/images/poster.jpg") for image in settings["images"](body))
    if name == "discord":
        # Discord answers with the posted message (or why not) before the next one goes.
        assert all(posted["path"] == settings["path"] + "?wait=true" for posted in webhook.requests)
    else:
        assert all(posted["path"] == settings["path"] for posted in webhook.requests)
    assert_secret_kept(settings, webhook, result)


def test_a_rate_limit_is_waited_out(service, tmp_path, upstream):
    name, settings, webhook = service
    webhook.script = [settings["rate_limited"](0.2)]
    env = live(upstream, tmp_path / "cache")
    result = post(settings, webhook.url, env)
    assert result.returncode == 0, result.stderr
    first, second = webhook.requests
    assert first["body"] == second["body"]
    assert unsourced([first["body"]]) == unsourced(worker_messages(name, [DAY], env))
    assert second["at"] - first["at"] >= 0.2
    assert "rate-limited" in result.stderr
    assert_secret_kept(settings, webhook, result)


def test_a_rate_limit_that_lasts_fails_after_a_few_tries(service, tmp_path, upstream):
    name, settings, webhook = service
    webhook.script = [settings["rate_limited"](0)] * 20
    result = post(settings, webhook.url, live(upstream, tmp_path / "cache"))
    assert result.returncode == 3
    assert len(webhook.requests) == 5
    assert "still rate-limiting" in result.stderr and "0 of 1 messages posted" in result.stderr
    assert_secret_kept(settings, webhook, result)


def test_a_refusal_fails_loudly(service, tmp_path, upstream):
    name, settings, webhook = service
    # A service that echoes the address it was called on: the echo is redacted too.
    webhook.script = [(500, [], json.dumps({"message": "server error at " + settings["path"]}).encode())]
    result = post(settings, webhook.url, live(upstream, tmp_path / "cache"))
    assert result.returncode == 3
    assert len(webhook.requests) == 1
    assert "HTTP 500" in result.stderr and "server error" in result.stderr
    assert "0 of 1 messages posted" in result.stderr
    assert result.stdout == ""
    assert_secret_kept(settings, webhook, result)


def test_a_service_out_of_reach_fails_loudly(service, tmp_path, upstream):
    name, settings, webhook = service
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    webhook.url = "http://127.0.0.1:%d%s" % (port, settings["path"])
    result = post(settings, webhook.url, live(upstream, tmp_path / "cache"))
    assert result.returncode == 3
    assert "cannot reach" in result.stderr
    assert_secret_kept(settings, webhook, result)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed(service, status, elsewhere, tmp_path):
    """A webhook answering a redirect to another host fails the run, saying the status: urllib would follow a 301,
    302 or 303 as a GET to that host and count the message as posted."""
    name, settings, webhook = service
    webhook.script = [(status, [("Location", elsewhere.base + settings["path"])], b"")]
    result = post(settings, webhook.url, keyed(tmp_path / "cache"), ["--offline"])
    assert result.returncode == 3, result.stderr
    assert elsewhere.requests == []
    assert len(webhook.requests) == 1
    assert "HTTP %d, a redirect: not followed" % status in result.stderr
    assert "0 of 1 messages posted" in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr
    assert_secret_kept(settings, webhook, result)


# Webhook URLs urllib cannot request, each holding the secret (a NUL cannot be in the environment at all).
INVALID_URLS = {
    "a control character": lambda base, path: base + path + "\x01",
    "a line break": lambda base, path: base + path + "\n",
    "a space": lambda base, path: base + path + " x",
    "a character outside ASCII": lambda base, path: base + path + "\u00e9",
    "a port past 65535": lambda base, path: "http://127.0.0.1:99999" + path,
    "a port that is no number": lambda base, path: "http://127.0.0.1:port" + path,
    "an unclosed IPv6 host": lambda base, path: "http://[::1" + path,
}


@pytest.mark.parametrize("form", sorted(INVALID_URLS))
def test_an_invalid_url_is_named_without_its_secret(service, form, tmp_path):
    """Requested, these URLs raised out of urllib in tracebacks, several quoting the path, secret and all (a port
    past 65535 was even taken modulo 65536): the script refuses them first (2), in one line that names the setting,
    not the URL."""
    name, settings, webhook = service
    url = INVALID_URLS[form](webhook.base, settings["path"])
    result = post(settings, url, keyed(tmp_path / "cache"), ["--offline"])
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("boxoffice-%s: %s is not a valid URL" % (name, settings["setting"]))
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == "" and webhook.requests == []
    for shown in (result.stdout, result.stderr):
        assert settings["secret"] not in shown and settings["path"] not in shown


def test_an_answer_that_cannot_be_read_is_one_line_without_the_secret(service, tmp_path):
    """An answer http.client cannot read (a status line that quotes the webhook's path, as a broken proxy might)
    raised out of urllib in a traceback: it fails the run (3) in one line, the secret as ***."""
    name, settings, webhook = service
    webhook.script = [(None, [], b"HTTP/1.1 2x0 " + settings["path"].encode() + b"\r\n\r\n")]
    result = post(settings, webhook.url, keyed(tmp_path / "cache"), ["--offline"])
    assert result.returncode == 3, result.stderr
    assert len(webhook.requests) == 1
    assert "Traceback" not in result.stderr
    [line] = [line for line in result.stderr.splitlines() if line.startswith("boxoffice-%s: " % name)]
    assert "message 1 of 1: posting to %s failed: BadStatusLine" % name.capitalize() in line
    assert "/***" in line and "0 of 1 messages posted" in line
    assert_secret_kept(settings, webhook, result)


def test_nothing_is_posted_when_the_worker_fails(service, tmp_path, upstream):
    name, settings, webhook = service
    # Offline, 2023-04-20 is not a recorded day: the worker says so and exits non-zero.
    offline = post(settings, webhook.url, keyed(tmp_path / "cache"), ["2023-04-20", "--offline"])
    assert offline.returncode == 1
    assert "offline_unavailable" in offline.stderr and "nothing posted" in offline.stderr
    assert "the box office of 2023-04-20" in offline.stderr
    # Live, KOBIS failing yesterday: the same.
    urllib.request.urlopen(upstream + "/__fail?days=" + DAY.replace("-", "")).close()
    failing = post(settings, webhook.url, live(upstream, tmp_path / "cache"))
    assert failing.returncode == 1
    assert "the box office of %s: the worker exited" % DAY in failing.stderr and "nothing posted" in failing.stderr
    assert webhook.requests == []
    for result in (offline, failing):
        assert result.stdout == ""
        assert_secret_kept(settings, webhook, result)


@pytest.mark.parametrize("key", [None, ""], ids=["unset", "empty"])
def test_without_a_kobis_key_nothing_is_run_or_posted(service, key, tmp_path):
    """Without a key the worker would be offline and answer its latest recorded day: the script stops first."""
    name, settings, webhook = service
    worker, arguments = recording_worker(tmp_path / "worker")
    env = environment(tmp_path / "cache", BOXOFFICE_WORKER=worker)
    if key is not None:
        env["KOBIS_API_KEY"] = key
    result = post(settings, webhook.url, env)
    assert result.returncode == 1
    assert "KOBIS_API_KEY is not set" in result.stderr and "kobis.or.kr/kobisopenapi" in result.stderr
    assert "nothing posted" in result.stderr and result.stdout == ""
    assert not arguments.exists(), "the worker was run"
    assert webhook.requests == []
    assert_secret_kept(settings, webhook, result)


@pytest.mark.parametrize("today, yesterday", [("2023-04-27", DAY), ("2023-03-01", "2023-02-28")])
def test_yesterday_is_asked_by_its_date(service, today, yesterday, tmp_path, upstream):
    """The day before BOXOFFICE_TODAY, worked out by the script and given to the worker as YYYY-MM-DD (the fake KOBIS
    serves any day, so the day posted is the day asked); a day given is passed as it is, wherever it stands."""
    name, settings, webhook = service
    worker, arguments = recording_worker(tmp_path / "worker")
    env = live(upstream, tmp_path / "cache", BOXOFFICE_WORKER=worker, BOXOFFICE_TODAY=today)
    result = post(settings, webhook.url, env, ["--limit", "3"])
    assert result.returncode == 0, result.stderr
    assert arguments.read_text().splitlines() == ["daily", "--format", name, yesterday, "--limit", "3"]
    assert result.stdout.strip().endswith("posted 1 message for " + yesterday)
    [posted] = webhook.requests
    assert yesterday in posted["body"].decode() and today not in posted["body"].decode()
    assert any("targetDt=%s" % yesterday.replace("-", "") in call for call in fake_kobis_calls(upstream))
    given = post(settings, webhook.url, env, ["--limit", "3", "2023-02-20"])
    assert given.returncode == 0, given.stderr
    assert arguments.read_text().splitlines() == ["daily", "--format", name, "--limit", "3", "2023-02-20"]
    assert given.stdout.strip().endswith("posted 1 message for 2023-02-20")
    assert "2023-02-20" in webhook.requests[1]["body"].decode()


def test_an_offline_worker_s_recorded_day_is_never_posted_as_yesterday(service, tmp_path):
    """Offline, a worker asked for no day answers the latest day it has recorded (2023-04-26); asked for yesterday
    (2023-04-27 when today is 2023-04-28) by its date, it fails, and nothing is posted."""
    name, settings, webhook = service
    env = keyed(tmp_path / "cache", BOXOFFICE_TODAY="2023-04-28")
    undated = subprocess.run([BINARY, "daily", "--format", name, "--offline"], capture_output=True, env=env,
                             timeout=120)
    assert undated.returncode == 0 and DAY.encode() in undated.stdout, "the worker no longer substitutes a day"
    result = post(settings, webhook.url, env, ["--offline"])
    assert result.returncode == 1
    assert "the box office of 2023-04-27" in result.stderr and "offline_unavailable" in result.stderr
    assert webhook.requests == [] and result.stdout == ""
    assert_secret_kept(settings, webhook, result)


def test_bad_settings_are_named(service, tmp_path):
    name, settings, webhook = service
    env = keyed(tmp_path / "cache")
    unset = run([settings["script"]], env)
    assert unset.returncode == 2 and settings["setting"] + " is not set" in unset.stderr
    not_http = post(settings, "ftp://example.invalid" + settings["path"], env)
    assert not_http.returncode == 2 and "not an http(s) URL" in not_http.stderr
    assert settings["secret"] not in not_http.stderr
    missing = post(settings, webhook.url, dict(env, BOXOFFICE_WORKER=str(tmp_path / "no-such-worker")))
    assert missing.returncode == 127 and "BOXOFFICE_WORKER" in missing.stderr
    not_a_day = post(settings, webhook.url, dict(env, BOXOFFICE_TODAY="2023-02-30"))
    assert not_a_day.returncode == 2 and "BOXOFFICE_TODAY is not a date" in not_a_day.stderr
    not_a_flag_day = post(settings, webhook.url, env, ["--today", "tomorrow"])
    assert not_a_flag_day.returncode == 2 and "--today is not a date" in not_a_flag_day.stderr
    assert webhook.requests == []


def test_what_is_posted_is_the_script_s_to_choose(service, tmp_path):
    """--format, --out and a range are the script's own: refused (2) before anything runs; --help is the usage."""
    name, settings, webhook = service
    env = environment(tmp_path / "cache")
    for arguments in (["2023-04-26", "--format", "json"], ["--format=markdown"], ["--out", "x"],
                      ["--from", "2023-04-23", "--to", "2023-04-26"]):
        refused = post(settings, webhook.url, env, arguments)
        assert refused.returncode == 2, (arguments, refused.stderr)
        assert "is this script's to set" in refused.stderr
    usage = post(settings, webhook.url, env, ["--help"])
    assert usage.returncode == 0 and settings["setting"] in usage.stdout
    assert webhook.requests == []
