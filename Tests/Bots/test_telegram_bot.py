"""The Telegram bot recipe (examples/bots/telegram-bot/bot.py, python-telegram-bot) run as a person runs it, against a
fake Bot API on 127.0.0.1: `/daily 2023-04-26` is answered with exactly the worker's MarkdownV2 messages for the day,
`/daily` with yesterday's, asked by its date (never another day in its place), errors are answered in the chat as
plain text, without KOBIS_API_KEY the bot does not start, and SIGINT or SIGTERM stops the bot and its one worker; a
token Telegram rejects stops it without ever showing the token, and no redirect of the Bot API is followed."""
import json
import os
import signal
import subprocess
import sys

import pytest

from bots_testing import BOTS, DAY, ROOT, WAIT, BotAPI, Lines, environment, keyed, live, worker_messages

BOT = str(BOTS / "telegram-bot" / "bot.py")
TOKEN = "123456789:SECRET-telegram-bot-token"
SECRET = TOKEN.split(":")[1]
CHAT = 4242

pytest.importorskip("telegram", reason="python-telegram-bot is not installed (bash scripts/python-env)")


@pytest.fixture()
def bot_api():
    api = BotAPI()
    yield api
    api.close()


def offline(cache, **extra):
    """A KOBIS key, as the bot requires, and its worker made offline (`--offline`): the recorded days only."""
    return keyed(cache, BOXOFFICE_WORKER_ARGS="--offline", **extra)


def bot_environment(api, env):
    """`env` with the bot's token, the fake Bot API, and the Python client to import."""
    return dict(env, TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_BASE_URL=api.base + "/bot",
                PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "clients" / "python"), env.get("PYTHONPATH")])))


class Bot:
    """bot.py in a process of its own, its stderr read as it comes."""

    def __init__(self, api, env):
        env = bot_environment(api, env)
        self.process = subprocess.Popen([sys.executable, BOT], env=env, cwd=ROOT, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = Lines(self.process.stderr)
        # The worker is started with the bot, before the first update is asked for.
        line = self.log.wait_for("boxoffice-worker started")
        self.worker_pid = int(line.rsplit("(pid ", 1)[1].rstrip(")"))
        self.worker_started = started(self.worker_pid)
        assert self.worker_started is not None

    def worker_alive(self):
        """Whether the bot's worker still runs (the same pid and start time: pids are reused)."""
        return started(self.worker_pid) == self.worker_started

    def stop(self, signum):
        self.process.send_signal(signum)
        try:
            status = self.process.wait(WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        return status, self.log.text()


def started(pid):
    """When the process `pid` started (clock ticks after boot: /proc/PID/stat's 22nd field), or None if there is none
    (a zombie still counts: the bot would not have reaped its worker)."""
    try:
        with open("/proc/%d/stat" % pid) as file:
            stat = file.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def ask_once(bot_api, env, command, stop):
    """Starts the bot, sends one command, waits for its one answer and stops the bot with `stop`: (the bot, its exit
    status, its log)."""
    bot = Bot(bot_api, env)
    try:
        bot_api.command(command, CHAT)
        bot_api.wait_for_sent(1)
    finally:
        status, log = bot.stop(stop)
    return bot, status, log


def texts(lines):
    return [json.loads(line) for line in lines]


def test_daily_is_answered_with_the_workers_messages(bot_api, tmp_path):
    env = offline(tmp_path / "cache")
    expected = texts(worker_messages("telegram", [DAY, "--offline"], env))
    bot = Bot(bot_api, env)
    try:
        bot_api.command("/daily " + DAY, CHAT)
        bot_api.wait_for_sent(len(expected))
        answered = list(bot_api.sent)
        # No date: yesterday in Seoul (today is 2023-04-27 here), asked by its date: the same day.
        bot_api.command("/daily", CHAT + 1)
        bot_api.wait_for_sent(2 * len(expected))
        yesterday = bot_api.sent[len(expected):]
        # A day after yesterday, and no date at all: each answered in plain text, with the reason.
        bot_api.command("/daily 2099-01-01", CHAT)
        bot_api.wait_for_sent(2 * len(expected) + 1)
        bot_api.command("/daily 26.4.2023", CHAT)
        bot_api.wait_for_sent(2 * len(expected) + 2)
        future, malformed = bot_api.sent[2 * len(expected):]
    finally:
        status, log = bot.stop(signal.SIGINT)

    assert [(int(m["chat_id"]), m["parse_mode"], m["text"]) for m in answered] == [
        (CHAT, "MarkdownV2", message["text"]) for message in expected]
    assert all(message["parse_mode"] == "MarkdownV2" for message in expected)
    assert [(int(m["chat_id"]), m["text"]) for m in yesterday] == [(CHAT + 1, m["text"]) for m in expected]
    assert "/daily %s (yesterday) for chat %d" % (DAY, CHAT + 1) in log
    assert int(future["chat_id"]) == CHAT and "parse_mode" not in future
    assert "2099-01-01" in future["text"] and "after the latest allowed date" in future["text"]
    assert "Usage: /daily" in future["text"]
    assert "parse_mode" not in malformed and "26.4.2023" in malformed["text"] and "Usage: /daily" in malformed["text"]
    # Nothing else was sent, every call carried the token, and the token is in no log line.
    assert len(bot_api.sent) == 2 * len(expected) + 2
    assert {call["token"] for call in bot_api.calls} == {"bot" + TOKEN}
    assert TOKEN not in log
    # The errors are logged too, and the stop closed the one worker the bot had.
    assert "2099-01-01" in log and "invalid_params" in log
    assert status == 0, log
    assert "boxoffice-worker closed (pid %d)" % bot.worker_pid in log
    assert not bot.worker_alive()
    assert log.count("boxoffice-worker started") == 1


def test_yesterday_is_asked_by_its_date(bot_api, tmp_path, upstream):
    """Live against the fake KOBIS (which serves any day), `/daily` is the day before BOXOFFICE_TODAY, across a month's
    end: the day posted is the day asked."""
    _, status, log = ask_once(
        bot_api, live(upstream, tmp_path / "cache", BOXOFFICE_TODAY="2023-03-01"), "/daily", signal.SIGTERM)
    [chart] = bot_api.sent
    assert int(chart["chat_id"]) == CHAT and chart["parse_mode"] == "MarkdownV2"
    assert "2023\\-02\\-28" in chart["text"]
    assert "/daily 2023-02-28 (yesterday) for chat %d" % CHAT in log
    assert status == 0, log


def test_an_offline_worker_s_recorded_day_is_never_sent_as_yesterday(bot_api, tmp_path):
    """Offline, a worker asked for no day answers the latest day it has recorded (2023-04-26): the bot asks for
    yesterday (2023-04-27 when today is 2023-04-28) by its date, and answers in plain text that it cannot be had."""
    _, status, log = ask_once(
        bot_api, offline(tmp_path / "cache", BOXOFFICE_TODAY="2023-04-28"), "/daily", signal.SIGINT)
    [told] = bot_api.sent
    assert int(told["chat_id"]) == CHAT and "parse_mode" not in told
    assert told["text"].startswith("No box office for 2023-04-27: ")
    assert "offline_unavailable" in log and TOKEN not in log
    assert status == 0, log


@pytest.mark.parametrize("key", [None, ""], ids=["unset", "empty"])
def test_without_a_kobis_key_the_bot_does_not_start(bot_api, key, tmp_path):
    """Without a key the worker would be offline, with recorded days only: the bot exits 1 naming the key, before it
    starts a worker or asks Telegram for anything."""
    env = bot_environment(bot_api, environment(tmp_path / "cache"))
    if key is not None:
        env["KOBIS_API_KEY"] = key
    done = subprocess.run([sys.executable, BOT], env=env, cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=WAIT)
    assert done.returncode == 1, done.stderr
    assert "KOBIS_API_KEY is not set" in done.stderr and "kobis.or.kr/kobisopenapi" in done.stderr
    assert "boxoffice-worker started" not in done.stderr
    assert bot_api.calls == [] and bot_api.sent == []
    assert TOKEN not in done.stderr + done.stdout and TOKEN.split(":")[1] not in done.stderr + done.stdout


def run_to_its_end(api, env, token=TOKEN):
    """bot.py with `token`, run until it exits by itself (a start that fails): its exit status, stdout and stderr."""
    return subprocess.run([sys.executable, BOT], env=dict(bot_environment(api, env), TELEGRAM_BOT_TOKEN=token),
                          cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT)


def assert_token_kept(*shown):
    for text in shown:
        assert SECRET not in text and TOKEN not in text


def test_a_rejected_token_is_never_shown(bot_api, tmp_path):
    """Telegram answering 401 to getMe: python-telegram-bot raises `The token <token> was rejected by the server`
    and logs its traceback. The bot says so in a line of its own and exits 2, the token in no line of its output."""
    bot_api.answers["*"] = (401, [], json.dumps(
        {"ok": False, "error_code": 401, "description": "Unauthorized"}).encode())
    done = run_to_its_end(bot_api, offline(tmp_path / "cache"))
    assert done.returncode == 2, done.stderr
    assert [call["method"] for call in bot_api.calls] == ["getMe"]
    assert bot_api.calls[0]["token"] == "bot" + TOKEN
    assert "Telegram rejected TELEGRAM_BOT_TOKEN (Unauthorized)" in done.stderr
    assert "123456789:***" in done.stderr  # python-telegram-bot's own message, the token hidden
    assert "boxoffice-worker started" not in done.stderr and bot_api.sent == []
    assert_token_kept(done.stdout, done.stderr)


def test_a_token_not_of_a_token_s_form_is_refused_unshown(bot_api, tmp_path):
    """A token with a space and a line break in it (pasted wrong) would make a request URL httpx refuses, quoting
    it: the bot refuses it first (2), without asking Telegram, and without showing it."""
    done = run_to_its_end(bot_api, offline(tmp_path / "cache"), token="123456789:SECRET token\n")
    assert done.returncode == 2, done.stderr
    assert "TELEGRAM_BOT_TOKEN is not a bot token" in done.stderr
    assert bot_api.calls == []
    assert "SECRET token" not in done.stderr + done.stdout


def test_a_redirect_at_the_start_is_not_followed(bot_api, elsewhere, tmp_path):
    """A Bot API answering getMe with a redirect to another host: nothing reaches that host, the status is said, and
    the bot exits 3."""
    bot_api.answers["*"] = (302, [("Location", elsewhere.base + "/bot" + TOKEN + "/getMe")], b"")
    done = run_to_its_end(bot_api, offline(tmp_path / "cache"))
    assert done.returncode == 3, done.stderr
    assert elsewhere.requests == []
    assert [call["method"] for call in bot_api.calls] == ["getMe"]
    assert "the Bot API answered HTTP 302, a redirect: not followed" in done.stderr
    assert "Telegram could not be asked at the start" in done.stderr
    assert "boxoffice-worker started" not in done.stderr
    assert_token_kept(done.stdout, done.stderr)


def test_a_message_redirected_is_not_followed(bot_api, elsewhere, tmp_path):
    """sendMessage answered with a redirect to another host: nothing is sent there, the failure is logged with its
    status, and the bot carries on (a long-running bot: it stops with 0 when told to)."""
    bot_api.answers["sendMessage"] = (307, [("Location", elsewhere.base + "/bot" + TOKEN + "/sendMessage")], b"")
    bot = Bot(bot_api, offline(tmp_path / "cache"))
    try:
        bot_api.command("/daily " + DAY, CHAT)
        bot.log.wait_for("could not tell chat %d about the failure" % CHAT)
    finally:
        status, log = bot.stop(signal.SIGTERM)
    assert elsewhere.requests == []
    # The day's message, then the note that it failed: both refused, neither followed.
    assert [call["method"] for call in bot_api.calls].count("sendMessage") == 2 and bot_api.sent == []
    assert "the Bot API answered HTTP 307, a redirect: not followed" in log
    assert status == 0, log
    assert_token_kept(log)


def test_a_spent_quota_is_answered(bot_api, tmp_path, upstream):
    # Live against the fake KOBIS with a budget of one call a day: the first day takes it, the next day finds it spent.
    env = live(upstream, tmp_path / "cache", BOXOFFICE_WORKER_ARGS="--kobis-daily-limit 1")
    bot = Bot(bot_api, env)
    try:
        bot_api.command("/daily " + DAY, CHAT)
        bot_api.wait_for_sent(1)
        bot_api.command("/daily 2023-04-25", CHAT)
        bot_api.wait_for_sent(2)
    finally:
        status, log = bot.stop(signal.SIGTERM)
    chart, spent = bot_api.sent
    assert chart["parse_mode"] == "MarkdownV2" and "2023\\-04\\-26" in chart["text"]
    assert "parse_mode" not in spent and "quota" in spent["text"] and "2023-04-25" in spent["text"]
    assert "quota_exhausted" in log
    assert status == 0, log
    assert not bot.worker_alive()


def test_a_message_telegram_refuses_is_answered(bot_api, tmp_path):
    # Telegram refusing a message (as it refuses MarkdownV2 it cannot parse) is logged and told in the chat.
    bot_api.refuse_markdown = True
    bot, status, log = ask_once(bot_api, offline(tmp_path / "cache"), "/daily " + DAY, signal.SIGINT)
    assert len(bot_api.refused) == 1 and bot_api.refused[0]["parse_mode"] == "MarkdownV2"
    [told] = bot_api.sent
    assert int(told["chat_id"]) == CHAT and "parse_mode" not in told and "BadRequest" in told["text"]
    assert "BadRequest: Can't parse entities" in log
    assert status == 0, log
    assert not bot.worker_alive()


def test_the_recipe_pins_what_the_test_runs():
    def pins(path):
        return {line.split("==")[0]: line for line in path.read_text().splitlines() if line.startswith("python-telegram")}
    assert pins(BOTS / "telegram-bot" / "requirements.txt") == pins(ROOT / "scripts" / "python-requirements.txt") != {}
