"""Shared set-up of the hostile-text tests: one fake upstream per hostile row (and per module) serving the row's text,
the worker run against it (through pipes, and on a pseudo-terminal for the raw bytes, which tmux then shows as the
screen a person sees), and the checks every output shares."""
import concurrent.futures
import fcntl
import os
import pathlib
import re
import selectors
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import unicodedata
import uuid

import hostile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
DAY = "2023-04-26"
# A range of two days: the second is the recording shown as that day.
RANGE = ["--from", "2023-04-25", "--to", DAY]
MOVIE = "20231089"
# A film's run and two compared, live: every day the fake upstream serves is 2023-04-26's list, in which 존 윅 4
# (MOVIE) and 드림 (20198482) are, so each day of the run has the row's text as their titles.
RUN = ["run", MOVIE, "--through", "2023-05-10"]
COMPARE = ["compare", MOVIE, "20198482", "--through", "2023-05-10"]
PERSON = "20164556"
COMPANY = "20100103"
# Screens are drawn this wide (the pseudo-terminal's and tmux's size, COLUMNS through pipes).
WIDTH, HEIGHT = 100, 40
CHATS = ["markdown", "slack", "discord", "telegram", "telegram-html"]
# The worker runs of a module are started ahead of its tests, this many at once (they wait on processes, not on
# Python): the suite takes a fraction of the time it takes one run after the other.
AHEAD = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="hostile")


class Upstream:
    """The fake upstream serving one hostile row, a cache directory of its own, and the worker's answers against it
    (each command run once per module: several tests judge the same output)."""

    def __init__(self, name, poster=None, fault=False):
        self.name = name
        self.running = fake_upstream.Running(delay_ms=0, poster=poster, hostile=name, hostile_fault=fault)
        self.base = self.running.base
        self.folder = tempfile.mkdtemp(prefix="boxoffice-hostile-")
        self.answers = {}
        self.lock = threading.Lock()

    def environment(self, **extra):
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("KOBIS_", "KAKAO_", "BOXOFFICE_")) and key not in ("NO_COLOR", "COLUMNS")}
        environment.update({
            "KOBIS_API_KEY": "hostile-kobis-key", "KAKAO_REST_API_KEY": "hostile-kakao-key",
            "KOBIS_BASE_URL": self.base + "/kobis", "KAKAO_BASE_URL": self.base + "/kakao",
            "BOXOFFICE_CACHE_DIR": os.path.join(self.folder, "cache"), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
            "BOXOFFICE_TODAY": "2026-11-21", "COLUMNS": str(WIDTH), "LINES": str(HEIGHT), "LC_ALL": "C.UTF-8",
            "TERM": "xterm-256color",
        })
        environment.update(extra)
        return environment

    def start(self, key, make, wait=True):
        """The answer of `key`, made by `make()` once, on AHEAD; with `wait=False` its future, perhaps still under
        way (a module starts its runs ahead of its tests)."""
        with self.lock:
            if key not in self.answers:
                self.answers[key] = AHEAD.submit(make)
            future = self.answers[key]
        return future.result() if wait else future

    def run(self, *arguments, stdin=None, wait=True):
        """`boxoffice-worker ARGUMENTS` through pipes: the CompletedProcess, stdout and stderr as bytes."""
        return self.start(("pipe", arguments, stdin), lambda: subprocess.run(
            [BINARY, *arguments], input=stdin, capture_output=True, env=self.environment(), timeout=60), wait)

    def on_terminal(self, *arguments, stderr_too=False, wait=True):
        """`boxoffice-worker ARGUMENTS` with stdout (and with `stderr_too` stderr) on a pseudo-terminal of WIDTH x
        HEIGHT, with no output processing, so every byte is the worker's: (exit status, terminal bytes, stderr
        bytes when not on the terminal)."""
        return self.start(("pty", arguments, stderr_too), lambda: on_pseudo_terminal(
            [BINARY, *arguments], self.environment(), stderr_too), wait)

    def path(self, name):
        return os.path.join(self.folder, name)

    def stop(self):
        while True:  # what the finished runs started in turn (a screen's tmux window) included
            with self.lock:
                pending = [future for future in self.answers.values() if not future.done()]
            if not pending:
                break
            concurrent.futures.wait(pending)
        self.running.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def on_pseudo_terminal(command, environment, stderr_too=False):
    """Runs `command` with a pseudo-terminal as stdin and stdout (and stderr with `stderr_too`): (exit status, what
    it wrote on the terminal, what it wrote on stderr otherwise)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    attributes = termios.tcgetattr(slave)
    attributes[1] &= ~termios.OPOST  # no \n -> \r\n: the bytes read are the bytes written
    termios.tcsetattr(slave, termios.TCSANOW, attributes)
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave if stderr_too else subprocess.PIPE,
                               env=environment, start_new_session=True)
    os.close(slave)
    out, err = bytearray(), bytearray()
    selector = selectors.DefaultSelector()
    selector.register(master, selectors.EVENT_READ, out)
    open_streams = 1
    if not stderr_too:
        selector.register(process.stderr, selectors.EVENT_READ, err)
        open_streams = 2
    while open_streams:
        ready = selector.select(timeout=60)
        if not ready:
            process.kill()
            raise AssertionError("%s wrote nothing for 60 s" % " ".join(command[1:]))
        for key, _ in ready:
            try:
                chunk = os.read(key.fd, 65536)
            except OSError:  # EIO: the terminal's other side is closed and drained
                chunk = b""
            if chunk:
                key.data.extend(chunk)
            else:
                selector.unregister(key.fileobj)
                open_streams -= 1
    selector.close()
    os.close(master)
    if process.stderr:
        process.stderr.close()
    return process.wait(timeout=60), bytes(out), bytes(err)


class Terminal:
    """A real terminal: tmux on a socket of the tests' own, WIDTH x HEIGHT, the screen read with capture-pane (as
    Tests/CLI/cli_testing.py's), showing what the worker wrote on a pseudo-terminal of the same size (one run of the
    worker for the bytes and the screen: a debug build takes ~0.2 s to start)."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="boxoffice-tmux-")
        self.socket = os.path.join(self.folder, "socket")
        # A session that outlives every test's own (tmux's server exits with its last session).
        self.tmux("new-session", "-d", "-s", "keepalive", "sleep 86400")

    def tmux(self, *arguments, check=True, timeout=30):
        return subprocess.run(["tmux", "-S", self.socket, *arguments], capture_output=True, text=True, check=check,
                              timeout=timeout)

    def screen(self, upstream, *arguments, wait=True):
        """The screen (its lines) a person sees of `boxoffice-worker ARGUMENTS` against `upstream`: the bytes it
        wrote on a pseudo-terminal of WIDTH x HEIGHT (Upstream.on_terminal, the run the byte rules judge) shown by
        tmux in a fresh window of that size, as they are written, once the pseudo-terminal run is over."""
        key = ("tmux", arguments)
        written = upstream.on_terminal(*arguments, wait=False)
        if wait:
            written.result()
            return upstream.start(key, lambda: self.replay(upstream, arguments))
        written.add_done_callback(lambda _: upstream.start(key, lambda: self.replay(upstream, arguments), wait=False))
        return None

    def replay(self, upstream, arguments):
        _, out, _ = upstream.on_terminal(*arguments)
        name = "h%s" % uuid.uuid4().hex[:8]
        path = upstream.path("%s.screen" % name)
        with open(path, "wb") as file:
            file.write(out)
        self.tmux("new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT),
                  "cat '%s'; tmux wait-for -S %s; sleep 60" % (path, name))
        self.tmux("wait-for", name, timeout=30)
        captured = self.tmux("capture-pane", "-p", "-t", name).stdout
        self.tmux("kill-session", "-t", name, check=False)
        return captured.rstrip("\n").split("\n")

    def close(self):
        self.tmux("kill-server", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


# --- What every output is held to --------------------------------------------------------------------------------


def forbidden(text):
    """The characters of `text` that may not be written raw (hostile.FORBIDDEN), as a list of U+XXXX."""
    return ["U+%04X" % ord(character) for character in hostile.FORBIDDEN.findall(text)]


def escapes_besides_colours(data):
    """Each ESC in `data` that does not start one of the screens' colour sequences, with what follows it."""
    found = []
    for match in re.finditer(b"\x1b", data):
        if not any(data.startswith(colour, match.start()) for colour in hostile.COLOURS):
            found.append(data[match.start():match.start() + 12])
    return found


def assert_terminal_safe(data, what):
    """Bytes written to a terminal: ESC only in the colour sequences, no C0 but \\n and \\t, no DEL, no C1, no bidi
    control, no line or paragraph separator, and the title's own `ESC [31m` shown as its stand-in."""
    assert escapes_besides_colours(data) == [], "%s: escapes besides the colours: %r" % (
        what, escapes_besides_colours(data)[:5])
    # The hostile title's colour is text, not a colour: RED is never right after a real ESC [31m.
    assert b"\x1b[31mRED" not in data, "%s: the title's ESC [31m is a real colour" % what
    for colour in hostile.COLOURS:
        data = data.replace(colour, b"")
    text = data.decode("utf-8", "surrogateescape")
    assert forbidden(text) == [], "%s: raw %s" % (what, sorted(set(forbidden(text))))


def assert_stand_ins_shown(text, name, what, length=8):
    """The row's text, as far as `length` characters of it, shown with the stand-ins."""
    expected = hostile.stand_ins(hostile.trimmed(name))[:length]
    assert expected in text, "%s: %r not shown (the stand-ins of the row's text)" % (what, expected)


def width(text):
    """Columns `text` takes in tmux: East Asian wide and full-width characters 2, marks and format characters 0, a
    character joined to the one before by ZWJ 0 (tmux draws a ZWJ sequence in one wide cell), the rest 1."""
    columns = 0
    joined = False
    for character in text:
        if joined or unicodedata.combining(character) or unicodedata.category(character) in ("Mn", "Me", "Cf"):
            joined = character == "\u200d" or (joined and unicodedata.category(character) in ("Mn", "Me"))
            continue
        columns += 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1
    return columns


def strings(value):
    """Every string in a JSON value (keys too), with where it is."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield "/" + key, key
            for where, text in strings(item):
                yield "/" + key + where, text
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for where, text in strings(item):
                yield "/%d%s" % (index, where), text
    elif isinstance(value, str):
        yield "", value
