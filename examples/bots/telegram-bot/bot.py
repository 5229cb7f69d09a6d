#!/usr/bin/env python3
"""A Telegram bot answering `/daily [YYYY-MM-DD]` (default yesterday in Seoul) with that day's box office.

    TELEGRAM_BOT_TOKEN=123456:ABC... KOBIS_API_KEY=your-kobis-key python bot.py

One boxoffice-worker is started with the bot and serves every chat through the Python client (`boxoffice_worker`),
its cache shared with every other worker of this user; it is closed when the bot stops (Ctrl-C, SIGTERM). The
worker writes the messages (`chat: "telegram"`: MarkdownV2 text escaped by Telegram's rules, split past Telegram's
4,096 characters): the bot sends them as they are. Settings, from the environment:

  TELEGRAM_BOT_TOKEN      the token @BotFather gave (required)
  TELEGRAM_API_BASE_URL   the Bot API's base URL, the token appended to it (default https://api.telegram.org/bot;
                          a local Bot API server, or a fake one in tests)
  BOXOFFICE_WORKER        the worker binary (default: the one the boxoffice-worker wheel installed, else PATH)
  BOXOFFICE_WORKER_ARGS   flags for the worker, e.g. `--kobis-daily-limit 1000` (split as a shell would)
  KOBIS_API_KEY           the worker's key to the KOBIS Open API (required; get one at
                          https://www.kobis.or.kr/kobisopenapi); the worker reads the rest of its environment too
                          (KAKAO_REST_API_KEY, BOXOFFICE_CACHE_DIR, BOXOFFICE_TODAY, ...)

Without KOBIS_API_KEY the bot does not start (exit 1): the worker would be offline, with recorded days only, and no
one would get yesterday's chart. `/daily` with no date asks the worker for yesterday by its date (the day before
today in Seoul, or before BOXOFFICE_TODAY, or the worker's --today in BOXOFFICE_WORKER_ARGS), so a day the worker
cannot give is said, never replaced by another day.

Nothing fails silently: a day the worker cannot give (a bad or future date, the KOBIS quota spent, KOBIS down, a
worker offline by --offline) is answered in the chat with the reason as plain text, and logged; so is anything
unexpected (a message Telegram refused), through the error handler. Logs go to stderr, the worker's own lines among
them; the token never does: every log record, python-telegram-bot's and its tracebacks too, has its secret part
(after the colon) replaced by ***, and the worker is not given it. No redirect of the Bot API is followed: a 3xx
fails the call, naming its status. Exit status: 0 stopped (Ctrl-C, SIGTERM); 1 KOBIS_API_KEY unset or empty; 2
another bad setting (TELEGRAM_BOT_TOKEN unset, not of a token's form or rejected by Telegram, the worker not found,
BOXOFFICE_TODAY or --today not a date); 3 Telegram out of reach at the start, or answering it with a redirect.
"""
import datetime
import logging
import os
import re
import shlex
import sys
import urllib.parse

from telegram import Update
from telegram.constants import ParseMode
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder, CommandHandler, ContextTypes
from telegram.request import HTTPXRequest

from boxoffice_worker import (AsyncWorker, InvalidParams, QuotaExhausted, WorkerError, WorkerExited,
                              WorkerTimeout)

log = logging.getLogger("boxoffice-bot")
USAGE = "/daily [YYYY-MM-DD]: that day's box office in Korea (default: yesterday in Seoul)"
CALL_TIMEOUT = 60.0  # seconds one /daily may take in the worker (KOBIS is retried there)
KEY = "KOBIS_API_KEY"
SEOUL = datetime.timezone(datetime.timedelta(hours=9))  # Korea Standard Time: UTC+9 all year, no daylight saving
DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)|(\d{4})(\d\d)(\d\d)")  # as the worker reads BOXOFFICE_TODAY
SETTING = "TELEGRAM_BOT_TOKEN"
# A bot token as @BotFather gives it: the bot's id, a colon, the secret.
TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")


class Redacting(logging.Filter):
    """Hides the token in every record a handler writes, whoever logged it: python-telegram-bot puts it in messages
    (`The token ... was rejected by the server`), in a Bot's repr and in the URLs of its requests, and a traceback can
    quote any of them. Its secret part (after the colon) becomes ***, as it is and as a message may quote it (escaped
    as repr() shows it, percent-encoded)."""

    def __init__(self, token):
        super().__init__()
        secret = token.partition(":")[2] or token
        forms = {secret, repr(secret)[1:-1], ascii(secret)[1:-1], urllib.parse.quote(secret, safe="")}
        self.forms = sorted((form for form in forms if form), key=len, reverse=True)

    def redact(self, text):
        for form in self.forms:
            text = text.replace(form, "***")
        return text

    def filter(self, record):
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 (arguments that do not fit the message: shown as they are, hidden too)
            message = "%s %r" % (record.msg, record.args)
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class Redirected(TelegramError):
    """The Bot API answered a redirect (3xx), which is not followed."""


class NoRedirects(HTTPXRequest):
    """python-telegram-bot's HTTP client, following no redirect (httpx's default, made sure of): a 3xx fails the call
    as Redirected, naming its status, instead of being read as an error of the Bot API's."""

    def __init__(self, **options):
        super().__init__(httpx_kwargs={"follow_redirects": False}, **options)

    async def do_request(self, *args, **kwargs):
        status, payload = await super().do_request(*args, **kwargs)
        if 300 <= status < 400:
            raise Redirected("the Bot API answered HTTP %d, a redirect: not followed (check TELEGRAM_API_BASE_URL)"
                             % status)
        return status, payload


def fixed_today(worker_args):
    """The today the worker is given, as a date, or None for the clock's: its --today flag, else BOXOFFICE_TODAY.
    Raises ValueError naming the setting if it is not a date."""
    setting, text = "BOXOFFICE_TODAY", os.environ.get("BOXOFFICE_TODAY") or None
    for index, argument in enumerate(worker_args):
        if argument == "--today" and index + 1 < len(worker_args):
            setting, text = "--today (BOXOFFICE_WORKER_ARGS)", worker_args[index + 1]
        elif argument.startswith("--today="):
            setting, text = "--today (BOXOFFICE_WORKER_ARGS)", argument.split("=", 1)[1]
    if text is None:
        return None
    match = DATE.fullmatch(text)
    try:
        return datetime.date(*(int(part) for part in match.groups() if part is not None))
    except (AttributeError, ValueError):
        raise ValueError("%s is not a date (YYYY-MM-DD): %s" % (setting, text)) from None


def yesterday(today):
    """The day before `today` (None: today in Seoul, now), as YYYY-MM-DD."""
    return ((today or datetime.datetime.now(SEOUL).date()) - datetime.timedelta(days=1)).isoformat()


def explain(error, day):
    """What to tell the user about an error answer of the worker, in plain text."""
    if isinstance(error, InvalidParams):
        found = [item.get("message") for item in error.data.get("errors") or [] if item.get("message")]
        return "No box office for %s: %s.\nUsage: %s" % (day, found[0] if found else error.message, USAGE)
    if isinstance(error, QuotaExhausted):
        return ("The KOBIS quota for today is spent, so %s cannot be fetched now (days asked before still can); "
                "it resets at %s." % (day, error.data.get("resetsAt", "midnight in Seoul")))
    return "No box office for %s: %s" % (day, error.message)


async def daily(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    worker: AsyncWorker = context.application.bot_data["worker"]
    chat_id = update.effective_chat.id
    arguments = context.args or []
    if len(arguments) > 1:
        await context.bot.send_message(chat_id=chat_id, text="One date at most.\nUsage: " + USAGE)
        return
    # Asked by its date, yesterday too: offline, a worker asked for no date would answer another day.
    day = arguments[0] if arguments else yesterday(context.application.bot_data["today"])
    log.info("/daily %s%s for chat %s", day, "" if arguments else " (yesterday)", chat_id)
    try:
        result = await worker.daily(day, chat="telegram", timeout=CALL_TIMEOUT)
    except WorkerError as error:
        log.warning("/daily %s for chat %s: %s (%s)", day, chat_id, error.message, error.reason)
        await context.bot.send_message(chat_id=chat_id, text=explain(error, day))
        return
    except (WorkerTimeout, WorkerExited) as error:
        log.error("/daily %s for chat %s: the worker failed: %s", day, chat_id, error)
        await context.bot.send_message(
            chat_id=chat_id, text="The box office worker failed on %s; try again in a moment." % day)
        return
    messages = result["chat"]["messages"]
    for message in messages:
        await context.bot.send_message(chat_id=chat_id, text=message["text"], parse_mode=ParseMode.MARKDOWN_V2)
    log.info("/daily %s for chat %s: %d message(s) sent", result["range"]["start"], chat_id, len(messages))


async def help_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await context.bot.send_message(chat_id=update.effective_chat.id, text=USAGE)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Whatever a handler raised (a message Telegram refused, a bug) or polling met: logged, and the chat told."""
    log.error("while handling %s", "an update" if update else "polling", exc_info=context.error)
    if isinstance(update, Update) and update.effective_chat:
        try:
            await context.bot.send_message(chat_id=update.effective_chat.id,
                                           text="Sorry, that failed (%s); it is logged." % type(context.error).__name__)
        except Exception:  # noqa: BLE001 (Telegram itself out of reach: the log above is all there is)
            log.exception("could not tell chat %s about the failure", update.effective_chat.id)


async def start_worker(application: Application) -> None:
    worker: AsyncWorker = application.bot_data["worker"]
    await worker.start()
    log.info("boxoffice-worker started: %s (pid %d)", worker.binary, worker.pid)


async def close_worker(application: Application) -> None:
    worker: AsyncWorker = application.bot_data["worker"]
    pid = worker.pid
    await worker.close()
    if pid is not None:  # None: the bot stopped before it started its worker (Telegram refused the token)
        log.info("boxoffice-worker closed (pid %s)", pid)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.captureWarnings(True)  # warnings too go through the handler, and its filter
    # httpx logs every request's URL at INFO, and the Bot API's URLs hold the token (hidden anyway: Redacting).
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # Taken out of the environment: the worker (started with this environment) has no use for it.
    token = os.environ.pop(SETTING, "")
    if not token:
        log.error("%s is not set: the token @BotFather gave the bot", SETTING)
        return 2
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redacting(token))
    if not TOKEN.fullmatch(token):
        log.error("%s is not a bot token: @BotFather gives one as digits, a colon, then letters, digits, - and _",
                  SETTING)
        return 2
    if not os.environ.get(KEY):
        log.error("%s is not set: the worker's key to the KOBIS Open API (get one at "
                  "https://www.kobis.or.kr/kobisopenapi); without it the worker is offline, with recorded days only, "
                  "so the bot does not start", KEY)
        return 1
    try:
        worker_args = shlex.split(os.environ.get("BOXOFFICE_WORKER_ARGS", ""))
        today = fixed_today(worker_args)
        worker = AsyncWorker(args=worker_args)
    except (FileNotFoundError, ValueError) as error:
        log.error("%s", error)
        return 2
    # Pools as python-telegram-bot's own: 256 connections for the calls, one for the long poll.
    builder = (ApplicationBuilder().token(token).concurrent_updates(True)
               .request(NoRedirects(connection_pool_size=256))
               .get_updates_request(NoRedirects(connection_pool_size=1)))
    base_url = os.environ.get("TELEGRAM_API_BASE_URL")
    if base_url:
        builder = builder.base_url(base_url)
    application = builder.post_init(start_worker).post_shutdown(close_worker).build()
    application.bot_data["worker"] = worker
    application.bot_data["today"] = today
    application.add_handler(CommandHandler("daily", daily))
    application.add_handler(CommandHandler(["start", "help"], help_text))
    application.add_error_handler(on_error)
    # Stops on SIGINT, SIGTERM and SIGABRT: polling ends, handlers in flight finish, then close_worker. What fails
    # the start (getMe, deleteWebhook) comes out of run_polling: said in one line (python-telegram-bot has logged its
    # traceback, the token hidden), never as an uncaught traceback, which no filter would see.
    try:
        application.run_polling(allowed_updates=["message"])
    except InvalidToken as error:
        # python-telegram-bot says so of a 401, and of a 404 too: a base URL that is no Bot API's.
        log.error("Telegram rejected %s (%s): the token @BotFather gave is wrong or was revoked%s; the bot stops",
                  SETTING, error.__cause__ or error,
                  " (or TELEGRAM_API_BASE_URL is not a Bot API)" if base_url else "")
        return 2
    except TelegramError as error:
        log.error("Telegram could not be asked at the start (%s: %s); the bot stops", type(error).__name__, error)
        return 3
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001 (a bug: logged through the handler, token hidden, not printed raw)
        log.exception("the bot failed")
        sys.exit(1)
