#!/usr/bin/env python3
"""Posts yesterday's box office to a Discord channel through its webhook: what cron runs every morning.

    DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/ID/TOKEN KOBIS_API_KEY=your-kobis-key \\
        boxoffice-discord.py [DATE] [daily flags...]

The worker writes the messages (`boxoffice-worker daily --format discord`: one execute-webhook body a line, within
Discord's limits, split into several when a day needs more); this script only posts them, in order, each once
Discord confirmed the one before. Arguments go to `boxoffice-worker daily`: a day (YYYY-MM-DD, first; default
yesterday), `--with-posters` for thumbnails, `--limit 5`, `--kobis-daily-limit 1000`, ... Python 3.9 or later,
standard library only.

The day is always asked by its date: without one, the script works out yesterday (the day before today in Seoul, or
before BOXOFFICE_TODAY when that is set, or the worker's --today among the arguments) and gives it to the worker as
YYYY-MM-DD, so a day the worker cannot give fails the run; it is never replaced by another day.

KOBIS_API_KEY, the worker's key to the KOBIS Open API (get one at https://www.kobis.or.kr/kobisopenapi), is
required: without it the worker is offline, with recorded days only, so the script stops before running it.
BOXOFFICE_WORKER names the worker: a full path, or a name looked up on PATH (default boxoffice-worker).

All or nothing from the worker: nothing is posted unless the worker wrote the whole day and exited 0. A rate limit
(HTTP 429) is waited out as Discord asks (`retry_after`) and the message sent again, a few times; any other refusal,
or Discord out of reach, stops the run. So does a redirect (3xx): it is never followed, as urllib would follow it (as
a GET, to wherever it points) and count the message as posted. The webhook URL is a secret (whoever has it can post
to the channel), so no message of this script ever shows it: every failure, an unexpected one too, is one line on
stderr with the URL as $DISCORD_WEBHOOK_URL and its token as ***, never a traceback. Exit status:
  0    posted (how many messages, and the day, on stdout)
  1    no day to post, nothing posted: KOBIS_API_KEY unset or empty, or the worker failed (its own log lines say
       why: offline_unavailable, quota_exhausted, ...) or wrote no usable message; or the script failed unexpectedly
  2    a bad setting: DISCORD_WEBHOOK_URL unset or not a valid http(s) URL (a space or a control character in it, a
       port past 65535, ...), BOXOFFICE_TODAY (or --today) not a date
  3    Discord refused a message, answered a redirect (3xx, not followed), or could not be reached (stderr says
       which, and how many were posted before it)
  127  the worker not found
"""
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

ME = "boxoffice-discord"
SETTING = "DISCORD_WEBHOOK_URL"
# Cloudflare in front of Discord refuses some default client names (Python-urllib): say who is calling.
USER_AGENT = "boxoffice-worker-discord-webhook/1"
ATTEMPTS = 5  # tries per message while Discord answers 429
LONGEST_WAIT = 60.0  # seconds; a longer rate limit fails the run rather than hold cron's slot
TIMEOUT = 30.0  # seconds per request
KEY = "KOBIS_API_KEY"
SEOUL = datetime.timezone(datetime.timedelta(hours=9))  # Korea Standard Time: UTC+9 all year, no daylight saving
# A day in one of the forms the worker reads (and a date, YYYY-MM-DD or YYYYMMDD, as BOXOFFICE_TODAY takes it).
DAY = re.compile(r"\d{4}-\d\d-\d\d|\d{8}|yesterday|today(-\d+)?", re.IGNORECASE)
DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)|(\d{4})(\d\d)(\d\d)")
# Where the webhook's secret is in its URL's path: after which part, and how far after it.
SECRET_AFTER = ("webhooks", 2)  # /api/webhooks/ID/TOKEN: the second part after webhooks


class Failure(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def secrets(url):
    """What of the webhook URL `url` no message may show, longest first, each with what stands for it: the URL as
    $DISCORD_WEBHOOK_URL, its token as *** (the part of the path SECRET_AFTER names, the path's last part, a
    password); each as it is and as a message may quote it (escaped as repr() shows it, percent-encoded or decoded).
    The path is read from the text itself, so that a URL urlsplit cannot read is hidden too."""
    address = re.split(r"[?#]", url, maxsplit=1)[0]
    path = address.split("://", 1)[1].partition("/")[2] if "://" in address else address
    parts = [part for part in path.split("/") if part]
    hidden = set(parts[-1:])
    if SECRET_AFTER[0] in parts and parts.index(SECRET_AFTER[0]) + SECRET_AFTER[1] < len(parts):
        hidden.add(parts[parts.index(SECRET_AFTER[0]) + SECRET_AFTER[1]])
    try:
        hidden.add(urllib.parse.urlsplit(url).password or "")
    except ValueError:
        pass
    found = {}
    for secret, shown in [(url, "$" + SETTING)] + [(secret, "***") for secret in hidden]:
        for form in (secret, repr(secret)[1:-1], ascii(secret)[1:-1], urllib.parse.quote(secret),
                     urllib.parse.quote(secret, safe=""), urllib.parse.unquote(secret)):
            # A part of a few characters (`api`) is no secret, and hiding it would garble the message.
            if len(form) > 3:
                found.setdefault(form, shown)
    return sorted(found.items(), key=lambda item: len(item[0]), reverse=True)


def redact(text, url):
    """`text` without the webhook URL or its secret (see secrets())."""
    text = str(text)
    for secret, shown in secrets(url):
        text = text.replace(secret, shown)
    return text


def one_line(text):
    """`text` as one line of stderr: line breaks become spaces, any other control character its escape (an answer
    quoted in a message is the service's text, not the terminal's)."""
    text = re.sub(r"\s*[\r\n]+\s*", " ", text).strip()
    return re.sub(r"[\x00-\x1f\x7f]", lambda match: "\\x%02x" % ord(match.group()), text)


def webhook_url():
    url = os.environ.get(SETTING, "")
    if not url:
        raise Failure(2, "%s is not set: the channel's webhook URL (Server Settings > Integrations > Webhooks)"
                      % SETTING)
    # Checked here, so that no URL urllib would choke on (and quote, secret and all, in a traceback) is ever
    # requested; what is wrong is said without the URL.
    if not re.fullmatch(r"[!-~]+", url):
        raise Failure(2, "%s is not a valid URL: it holds a space, a control character or a character outside ASCII"
                      % SETTING)
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # a ValueError past 65535 or not a number
    except ValueError:  # its text could quote the URL
        raise Failure(2, "%s is not a valid URL: its host or its port cannot be read (a port is a number from 1 to "
                         "65535)" % SETTING) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Failure(2, "%s is not an http(s) URL" % SETTING)
    if port == 0:
        raise Failure(2, "%s is not a valid URL: its port is 0" % SETTING)
    # wait=true: Discord answers once the message is posted (200 and the message), or with the reason it was not,
    # so the next message goes only after this one is in the channel.
    query = [(key, value) for key, value in urllib.parse.parse_qsl(parts.query) if key != "wait"]
    query.append(("wait", "true"))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def kobis_key():
    """Stops the run when the worker has no KOBIS key: offline it has recorded days only, never yesterday's."""
    if not os.environ.get(KEY):
        raise Failure(1, "%s is not set: the worker's key to the KOBIS Open API (get one at "
                         "https://www.kobis.or.kr/kobisopenapi); without it the worker is offline, with recorded days "
                         "only; nothing posted" % KEY)


def day_given(arguments):
    """The argument that gives the day, or None: the first one when it is not a flag (where the usage puts it), else
    one in a day's form that is not the value of --today, or the first after `--`."""
    for index, argument in enumerate(arguments):
        if argument == "--":
            return arguments[index + 1] if index + 1 < len(arguments) else None
        if index == 0 and not argument.startswith("-"):
            return argument
        if DAY.fullmatch(argument) and (index == 0 or arguments[index - 1] != "--today"):
            return argument
    return None


def yesterday(arguments):
    """The day before today in Seoul as the worker reckons it: its --today among the arguments, else BOXOFFICE_TODAY
    (a replay), else the clock; as YYYY-MM-DD."""
    setting, text = "BOXOFFICE_TODAY", os.environ.get("BOXOFFICE_TODAY") or None
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument == "--today" and index + 1 < len(arguments):
            setting, text = "--today", arguments[index + 1]
        elif argument.startswith("--today="):
            setting, text = "--today", argument.split("=", 1)[1]
    if text is None:
        today = datetime.datetime.now(SEOUL).date()
    else:
        match = DATE.fullmatch(text)
        try:
            today = datetime.date(*(int(part) for part in match.groups() if part is not None))
        except (AttributeError, ValueError):
            raise Failure(2, "%s is not a date (YYYY-MM-DD): %s" % (setting, text)) from None
    return (today - datetime.timedelta(days=1)).isoformat()


def find_worker():
    worker = os.environ.get("BOXOFFICE_WORKER") or "boxoffice-worker"
    found = worker if "/" in worker else shutil.which(worker)
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        if "/" in worker:
            raise Failure(127, "the worker %s (BOXOFFICE_WORKER) is not an executable file: set BOXOFFICE_WORKER to "
                               "the worker's full path, or unset it to look boxoffice-worker up on PATH" % worker)
        raise Failure(127, "the worker '%s' is not on PATH (%s): set BOXOFFICE_WORKER to its full path, or add its "
                           "folder to PATH" % (worker, os.environ.get("PATH", "")))
    return found


def messages(worker, arguments, day):
    """The bodies the worker wrote for `day`, one JSON object a line; its stderr (log lines, its error) goes to
    ours."""
    asked = "the box office of %s" % day
    try:
        # The webhook URL is this script's, not the worker's: its environment goes without it.
        done = subprocess.run([worker, "daily", "--format", "discord", *arguments], stdout=subprocess.PIPE,
                              env={key: value for key, value in os.environ.items() if key != SETTING})
    except OSError as error:
        raise Failure(127, "cannot run the worker %s: %s" % (worker, error.strerror or error))
    if done.returncode != 0:
        raise Failure(1, "%s: the worker exited with status %d; nothing posted" % (asked, done.returncode))
    bodies = []
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            body = json.loads(line)
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise Failure(1, "%s: the worker wrote a line that is not a message: %s; nothing posted" % (
                asked, line[:200]))
        bodies.append(line.encode("utf-8"))
    if not bodies:
        raise Failure(1, "%s: the worker wrote no message; nothing posted" % asked)
    return bodies


def seconds_to_wait(headers, body):
    """How long Discord asks to wait: `retry_after` (seconds) of the 429's body, else its Retry-After header."""
    try:
        value = json.loads(body.decode("utf-8")).get("retry_after")
    except (ValueError, AttributeError):
        value = None
    if value is None:
        value = headers.get("Retry-After")
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return 1.0


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """Follows no redirect: urllib would follow a 301, 302 or 303 as a GET, to wherever it points (another host),
    and the message would count as posted. Declined, a 3xx stays the answer (an HTTPError), which post() fails on."""

    def redirect_request(self, request, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


def send(url, body):
    """POSTs `body` once: (status, reason, headers, answer's body), whatever the status."""
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": USER_AGENT})
    try:
        with OPENER.open(request, timeout=TIMEOUT) as response:
            return response.status, response.reason, response.headers, response.read()
    except urllib.error.HTTPError as error:
        try:
            return error.code, error.reason, error.headers, error.read()
        finally:
            error.close()


def post(url, body, number, total):
    message = "message %d of %d" % (number, total)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            status, reason, headers, answer = send(url, body)
        except urllib.error.URLError as error:
            raise Failure(3, "%s: cannot reach Discord: %s" % (message, redact(error.reason, url)))
        except OSError as error:
            raise Failure(3, "%s: cannot reach Discord: %s" % (message, redact(error, url)))
        except Exception as error:  # noqa: BLE001 (http.client's: an answer cut short or garbled; anything else)
            raise Failure(3, "%s: posting to Discord failed: %s: %s" % (message, type(error).__name__,
                                                                       redact(error, url)))
        if 200 <= status < 300:
            return
        if 300 <= status < 400:
            raise Failure(3, "%s: Discord answered HTTP %d, a redirect: not followed (a webhook takes its "
                             "messages at its own URL; check %s)" % (message, status, SETTING))
        if status != 429:
            raise Failure(3, "%s: Discord answered HTTP %d: %s" % (
                message, status, redact(answer.decode("utf-8", "replace")[:300], url) or reason))
        wait = seconds_to_wait(headers, answer)
        if wait > LONGEST_WAIT or attempt == ATTEMPTS:
            raise Failure(3, "%s: Discord is still rate-limiting this webhook (HTTP 429, retry after %.1f s) "
                             "after %d tries" % (message, wait, attempt))
        print("%s: %s: rate-limited by Discord; sending again in %.2f s" % (ME, message, wait), file=sys.stderr,
              flush=True)
        time.sleep(wait)


# The worker's options this script sets itself: what it posts, and where it goes.
OWN_OPTIONS = ("--format", "--out", "--from", "--to")


def main(arguments):
    if any(argument in ("-h", "--help") for argument in arguments):
        print(__doc__.strip())
        return
    for argument in arguments:
        if argument.split("=", 1)[0] in OWN_OPTIONS:
            raise Failure(2, "%s is this script's to set: give a day and daily's other flags" % argument.split("=")[0])
    url = webhook_url()
    kobis_key()
    day = day_given(arguments)
    if day is None:
        # Yesterday asked by its date, so the worker answers that day or fails (asked for no day, offline, it would
        # answer the latest day it has recorded).
        day = yesterday(arguments)
        arguments = [day, *arguments]
    worker = find_worker()
    bodies = messages(worker, arguments, day)
    posted = 0
    try:
        for number, body in enumerate(bodies, 1):
            post(url, body, number, len(bodies))
            posted += 1
    except Failure as failure:
        raise Failure(failure.status, "%s (%d of %d messages posted)" % (failure, posted, len(bodies)))
    print("%s: posted %d message%s for %s" % (ME, posted, "" if posted == 1 else "s", day))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Failure as failure:
        print("%s: %s" % (ME, one_line(redact(failure, os.environ.get(SETTING, "")))), file=sys.stderr)
        sys.exit(failure.status)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 (a bug: one line as any failure, never a traceback quoting the URL)
        print("%s: failed: %s: %s" % (ME, type(error).__name__, one_line(redact(error, os.environ.get(SETTING, "")))),
              file=sys.stderr)
        sys.exit(1)
