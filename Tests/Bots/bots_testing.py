"""What the bot recipe tests share: the environments the recipes run in (with no key, with a key but the worker
offline on its recorded days, or live against the fake KOBIS and Kakao), a worker that records how it was run, what
the worker itself writes for a day, the chat services' documented limits, and fake chat services on 127.0.0.1 (a
webhook that records what is posted and answers as a test scripts it; a Bot API that hands out updates and records
sendMessage; another host, where a redirect points, that records whatever reaches it), each in a thread of the
test's process."""
import http.server
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
BOTS = ROOT / "examples" / "bots"
# Yesterday is 2023-04-26: a day the worker has recorded (embedded, from Fixtures/upstream), and the one the fake
# KOBIS serves as it was recorded.
TODAY = "2023-04-27"
DAY = "2023-04-26"
WAIT = 60  # seconds a test waits for a state before failing
KOBIS_KEY = "test-kobis-key"
# Where no service listens (the discard port): a worker that is given a key but must not go out fails instead.
NOWHERE = "http://127.0.0.1:9"


def environment(cache, **extra):
    """The environment a recipe runs in: none of the person's keys, settings or webhooks (so the worker is offline
    and nothing real is reached), the worker under test, today fixed, a cache of the test's own."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_", "DISCORD_", "SLACK_", "TELEGRAM_"))
           and key.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env.update(BOXOFFICE_WORKER=BINARY, BOXOFFICE_TODAY=TODAY, BOXOFFICE_CACHE_DIR=str(cache))
    env.update({key: str(value) for key, value in extra.items()})
    return env


def live(upstream, cache, **extra):
    """Live against the fake KOBIS and Kakao (clients/testing/fake_upstream.py): posters too."""
    return environment(cache, KOBIS_API_KEY=KOBIS_KEY, KOBIS_BASE_URL=upstream + "/kobis",
                       KAKAO_REST_API_KEY="test-kakao-key", KAKAO_BASE_URL=upstream + "/kakao", **extra)


def keyed(cache, **extra):
    """A KOBIS key, as the recipes require, but no KOBIS to reach: for a worker made offline by `--offline`, on its
    recorded days (KOBIS and Kakao's addresses are a closed port, so nothing real is reached even without it)."""
    return environment(cache, KOBIS_API_KEY=KOBIS_KEY, KOBIS_BASE_URL=NOWHERE + "/kobis",
                       KAKAO_BASE_URL=NOWHERE + "/kakao", **extra)


def recording_worker(folder):
    """A worker that writes the arguments it was run with, one a line, to the file returned (each run replaces
    them), then becomes the worker under test: (its path, that file)."""
    folder.mkdir(parents=True, exist_ok=True)
    script, arguments = folder / "worker", folder / "worker.args"
    script.write_text('#!/bin/sh\nprintf \'%%s\\n\' "$@" > \'%s\'\nexec \'%s\' "$@"\n' % (arguments, BINARY))
    script.chmod(0o755)
    return str(script), arguments


def worker_messages(chat_format, arguments, env):
    """The bodies `boxoffice-worker daily --format FORMAT ARGUMENTS` writes, one a line, as bytes."""
    done = subprocess.run([BINARY, "daily", "--format", chat_format, *arguments], capture_output=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    lines = [line for line in done.stdout.split(b"\n") if line.strip()]
    assert lines, "the worker wrote no message"
    return lines


def run(args, env, timeout=120):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=timeout)


# The services' documented limits.

def discord_problems(body):
    """What in one execute-webhook body breaks Discord's limits (developer docs, Execute Webhook and Embed Limits)."""
    problems = []
    embeds = body.get("embeds") or []
    if len(body.get("content") or "") > 2000:
        problems.append("content over 2,000 characters")
    if not body.get("content") and not embeds:
        problems.append("neither content nor embeds")
    if len(embeds) > 10:
        problems.append("%d embeds (10 at most)" % len(embeds))
    total = 0
    for index, embed in enumerate(embeds):
        def check(text, limit, what):
            if len(text) > limit:
                problems.append("embed %d: %s of %d characters (%d at most)" % (index, what, len(text), limit))
            return len(text)
        total += check(embed.get("title") or "", 256, "title")
        total += check(embed.get("description") or "", 4096, "description")
        total += check((embed.get("footer") or {}).get("text") or "", 2048, "footer")
        total += check((embed.get("author") or {}).get("name") or "", 256, "author name")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append("embed %d: %d fields (25 at most)" % (index, len(fields)))
        for field in fields:
            total += check(field.get("name") or "", 256, "field name")
            total += check(field.get("value") or "", 1024, "field value")
        colour = embed.get("color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            problems.append("embed %d: colour %r" % (index, colour))
    if total > 6000:
        problems.append("embeds of %d characters in all (6,000 at most)" % total)
    return problems


def slack_problems(body):
    """What in one incoming-webhook body breaks Slack's Block Kit limits (and lacks the notification text)."""
    problems = []
    if not (body.get("text") or "").strip():
        problems.append("no text fallback (notifications and screen readers show it)")
    blocks = body.get("blocks") or []
    if len(blocks) > 50:
        problems.append("%d blocks (50 at most)" % len(blocks))
    for index, block in enumerate(blocks):
        text = (block.get("text") or {}).get("text") or ""
        if block.get("type") == "header":
            if block["text"].get("type") != "plain_text":
                problems.append("block %d: a header's text must be plain_text" % index)
            if len(text) > 150:
                problems.append("block %d: header of %d characters (150 at most)" % (index, len(text)))
        elif block.get("type") == "section":
            fields = block.get("fields") or []
            if not text and not fields:
                problems.append("block %d: a section with neither text nor fields" % index)
            if len(text) > 3000:
                problems.append("block %d: section text of %d characters (3,000 at most)" % (index, len(text)))
            if len(fields) > 10:
                problems.append("block %d: %d fields (10 at most)" % (index, len(fields)))
            for field in fields:
                if len(field.get("text") or "") > 2000:
                    problems.append("block %d: a field of %d characters (2,000 at most)" % (
                        index, len(field["text"])))
            accessory = block.get("accessory")
            if accessory and accessory.get("type") == "image" and not (
                    accessory.get("image_url") and accessory.get("alt_text")):
                problems.append("block %d: an image accessory needs image_url and alt_text" % index)
        elif block.get("type") == "context":
            if len(block.get("elements") or []) > 10:
                problems.append("block %d: more than 10 context elements" % index)
    return problems


# Fake services.

class QuietServer(http.server.ThreadingHTTPServer):
    """Serves each request in a daemon thread; a client gone mid-request (a bot stopped during a long poll) is no
    error."""
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Service:
    """A server on 127.0.0.1 in a thread of its own; `handler` is a BaseHTTPRequestHandler class that reaches the
    service through `self.server.service`."""

    def __init__(self, handler):
        self.changed = threading.Condition()
        self.server = QuietServer(("127.0.0.1", 0), handler)
        self.server.service = self
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_until(self, predicate, what):
        with self.changed:
            if not self.changed.wait_for(predicate, WAIT):
                raise AssertionError("waited %d s for %s" % (WAIT, what))

    def close(self):
        with self.changed:
            self.closing = True
            self.changed.notify_all()
        self.server.shutdown()
        self.server.server_close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body:
            self.send_header("Content-Type", "application/json" if body[:1] in b"{[" else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class WebhookHandler(Handler):
    def do_POST(self):
        service = self.server.service
        body = self.body()
        with service.changed:
            service.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                     "at": time.monotonic()})
            status, headers, answer = service.script.pop(0) if service.script else service.success
            service.changed.notify_all()
        if status is None:
            # Raw bytes in place of an HTTP answer (a garbled one), then the connection closed.
            self.close_connection = True
            self.wfile.write(answer)
            return
        self.answer(status, answer, headers)


class Webhook(Service):
    """A chat webhook: records every POST; answers the next of `script` ((status, headers, body) each; a status None
    writes the body as it is, in place of an HTTP answer), then `success`."""

    def __init__(self, success):
        self.requests = []
        self.script = []
        self.success = success
        self.closing = False
        super().__init__(WebhookHandler)


class ElsewhereHandler(Handler):
    def record(self):
        service = self.server.service
        body = self.body()
        with service.changed:
            service.requests.append({"method": self.command, "path": self.path, "body": body})
            service.changed.notify_all()
        self.answer(200, b'{"ok":true,"result":true}')

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = record


class Elsewhere(Service):
    """Another host, where a fake service's redirect points: records every request that reaches it, whatever its
    method (a redirect followed as a GET too), and answers 200. A test asserts it stays empty."""

    def __init__(self):
        self.requests = []
        self.closing = False
        super().__init__(ElsewhereHandler)


class BotAPIHandler(Handler):
    def do_POST(self):
        self.serve(self.body())

    def do_GET(self):
        self.serve(b"")

    def serve(self, raw):
        service = self.server.service
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/")  # /bot<token>/<method>
        token, method = (parts[1], parts[-1]) if len(parts) == 3 else ("", "")
        params = dict(urllib.parse.parse_qsl(url.query))
        kind = self.headers.get("Content-Type", "")
        if raw and kind.startswith("application/json"):
            params.update(json.loads(raw))
        elif raw:
            params.update(urllib.parse.parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
        with service.changed:
            service.calls.append({"token": token, "method": method, "params": params})
            service.changed.notify_all()
        scripted = service.answers.get(method) or service.answers.get("*")
        if scripted:
            status, headers, body = scripted
            return self.answer(status, body, headers)
        if method == "getMe":
            result = service.me
        elif method == "getUpdates":
            result = service.updates_from(int(params.get("offset") or 0), float(params.get("timeout") or 0))
        elif method == "sendMessage" and service.refuse_markdown and params.get("parse_mode"):
            # As Telegram refuses a message its parser cannot read.
            with service.changed:
                service.refused.append(params)
                service.changed.notify_all()
            return self.answer(400, json.dumps({"ok": False, "error_code": 400, "description":
                                                "Bad Request: can't parse entities: test refusal"}).encode())
        elif method == "sendMessage":
            with service.changed:
                service.sent.append(params)
                number = len(service.sent)
                service.changed.notify_all()
            result = {"message_id": 1000 + number, "date": int(time.time()), "from": service.me,
                      "chat": {"id": int(params["chat_id"]), "type": "private"}, "text": params.get("text", "")}
        else:  # deleteWebhook and the like
            result = True
        self.answer(200, json.dumps({"ok": True, "result": result}).encode())


class BotAPI(Service):
    """A fake Telegram Bot API (`/bot<token>/<method>`): getMe, getUpdates (a long poll that answers as soon as an
    update is queued, or empty when its `timeout` is up), sendMessage (recorded; with `refuse_markdown`, one with a
    parse_mode is refused as unparsable), anything else `true`. `answers` maps a method (or "*", any method) to the
    (status, headers, body) answered to it instead: a token refused, a redirect."""

    me = {"id": 777000, "is_bot": True, "first_name": "Box office", "username": "boxoffice_test_bot"}

    def __init__(self):
        self.calls = []
        self.sent = []
        self.refused = []
        self.refuse_markdown = False
        self.answers = {}
        self.updates = []
        self.closing = False
        super().__init__(BotAPIHandler)

    def command(self, text, chat_id):
        """Queues a message carrying a command, as a user in chat `chat_id` would send it."""
        with self.changed:
            number = len(self.updates) + 1
            command = text.split()[0]
            self.updates.append({"update_id": number, "message": {
                "message_id": number, "date": int(time.time()), "text": text,
                "chat": {"id": chat_id, "type": "private", "first_name": "Tester"},
                "from": {"id": chat_id, "is_bot": False, "first_name": "Tester"},
                "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}]}})
            self.changed.notify_all()

    def updates_from(self, offset, timeout):
        with self.changed:
            self.changed.wait_for(lambda: self.closing or any(u["update_id"] >= offset for u in self.updates),
                                  min(timeout, WAIT))
            return [update for update in self.updates if update["update_id"] >= offset]

    def wait_for_sent(self, count):
        self.wait_until(lambda: len(self.sent) >= count, "%d sendMessage calls (%d so far)" % (count, len(self.sent)))


class Lines:
    """A process's stderr read line by line in a thread, to wait for a line without sleeping."""

    def __init__(self, stream):
        self.lines = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        self.thread.start()

    def read(self, stream):
        for line in stream:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    ended = False

    def wait_for(self, needle):
        """The first line holding `needle`, once it is there."""
        def found():
            return next((line for line in self.lines if needle in line), None)
        with self.changed:
            if not self.changed.wait_for(lambda: found() is not None or self.ended, WAIT) or found() is None:
                raise AssertionError("no line with %r in:\n%s" % (needle, "\n".join(self.lines)))
            return found()

    def text(self):
        self.thread.join(WAIT)
        with self.changed:
            return "\n".join(self.lines)
