"""The Discord and Slack webhook recipes (examples/bots/*-webhook), run as cron runs them, posting to a fake webhook on
127.0.0.1: what they post is exactly what the worker writes for the day, within each service's documented limits; a
rate limit is waited out; any other failure exits non-zero with a message on stderr that never shows the webhook URL
(a secret)."""
import json
import re
import socket

import pytest

from bots_testing import (BOTS, DAY, Webhook, discord_problems, environment, live, run, slack_problems,
                          worker_messages)

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


@pytest.mark.parametrize("mode", ["offline", "live-with-posters"])
def test_posts_exactly_what_the_worker_writes(service, mode, tmp_path, request):
    name, settings, webhook = service
    if mode == "offline":
        env, arguments = environment(tmp_path / "cache"), []
    else:
        env, arguments = live(request.getfixturevalue("upstream"), tmp_path / "cache"), ["--with-posters"]
    result = post(settings, webhook.url, env, arguments)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("posted 1 message")
    expected = worker_messages(name, arguments, env)
    posted_bodies = [posted["body"] for posted in webhook.requests]
    if mode == "offline":
        assert posted_bodies == expected
    else:
        # Live, the heading says where the day came from (KOBIS for the recipe's run, the cache for the second) and
        # when: the rest is byte for byte the same.
        assert all(SOURCE.search(body) for body in posted_bodies + expected)
        assert [SOURCE.sub(b"<source>", body) for body in posted_bodies] == [
            SOURCE.sub(b"<source>", body) for body in expected]
    for posted in webhook.requests:
        assert posted["headers"]["Content-Type"] == "application/json"
        body = json.loads(posted["body"])
        assert settings["problems"](body) == []
        if mode == "offline":
            assert DAY in json.dumps(body, ensure_ascii=False)
        else:
            assert all(image and image.endswith("/images/poster.jpg") for image in settings["images"](body))
    if name == "discord":
        # Discord answers with the posted message (or why not) before the next one goes.
        assert all(posted["path"] == settings["path"] + "?wait=true" for posted in webhook.requests)
    else:
        assert all(posted["path"] == settings["path"] for posted in webhook.requests)
    assert_secret_kept(settings, webhook, result)


def test_a_rate_limit_is_waited_out(service, tmp_path):
    name, settings, webhook = service
    webhook.script = [settings["rate_limited"](0.2)]
    result = post(settings, webhook.url, environment(tmp_path / "cache"))
    assert result.returncode == 0, result.stderr
    first, second = webhook.requests
    assert first["body"] == second["body"] == worker_messages(name, [], environment(tmp_path / "cache"))[0]
    assert second["at"] - first["at"] >= 0.2
    assert "rate-limited" in result.stderr
    assert_secret_kept(settings, webhook, result)


def test_a_rate_limit_that_lasts_fails_after_a_few_tries(service, tmp_path):
    name, settings, webhook = service
    webhook.script = [settings["rate_limited"](0)] * 20
    result = post(settings, webhook.url, environment(tmp_path / "cache"))
    assert result.returncode == 3
    assert len(webhook.requests) == 5
    assert "still rate-limiting" in result.stderr and "0 of 1 messages posted" in result.stderr
    assert_secret_kept(settings, webhook, result)


def test_a_refusal_fails_loudly(service, tmp_path):
    name, settings, webhook = service
    # A service that echoes the address it was called on: the echo is redacted too.
    webhook.script = [(500, [], json.dumps({"message": "server error at " + settings["path"]}).encode())]
    result = post(settings, webhook.url, environment(tmp_path / "cache"))
    assert result.returncode == 3
    assert len(webhook.requests) == 1
    assert "HTTP 500" in result.stderr and "server error" in result.stderr
    assert "0 of 1 messages posted" in result.stderr
    assert result.stdout == ""
    assert_secret_kept(settings, webhook, result)


def test_a_service_out_of_reach_fails_loudly(service, tmp_path):
    name, settings, webhook = service
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    webhook.url = "http://127.0.0.1:%d%s" % (port, settings["path"])
    result = post(settings, webhook.url, environment(tmp_path / "cache"))
    assert result.returncode == 3
    assert "cannot reach" in result.stderr
    assert_secret_kept(settings, webhook, result)


def test_nothing_is_posted_when_the_worker_fails(service, tmp_path):
    name, settings, webhook = service
    # Offline, 2023-04-20 is not a recorded day: the worker says so and exits non-zero.
    result = post(settings, webhook.url, environment(tmp_path / "cache"), ["2023-04-20"])
    assert result.returncode == 1
    assert "offline_unavailable" in result.stderr and "nothing posted" in result.stderr
    assert webhook.requests == []
    assert_secret_kept(settings, webhook, result)


def test_bad_settings_are_named(service, tmp_path):
    name, settings, webhook = service
    env = environment(tmp_path / "cache")
    unset = run([settings["script"]], env)
    assert unset.returncode == 2 and settings["setting"] + " is not set" in unset.stderr
    not_http = post(settings, "ftp://example.invalid" + settings["path"], env)
    assert not_http.returncode == 2 and "not an http(s) URL" in not_http.stderr
    assert settings["secret"] not in not_http.stderr
    missing = post(settings, webhook.url, dict(env, BOXOFFICE_WORKER=str(tmp_path / "no-such-worker")))
    assert missing.returncode == 127 and "BOXOFFICE_WORKER" in missing.stderr
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
