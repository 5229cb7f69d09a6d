"""The Emacs package (editors/emacs/boxoffice.el) under ERT, in a batch Emacs, against the built worker: offline, and
live against the fake upstream this test starts. The ERT cases are in boxoffice-tests.el beside this file.

Emacs gets a HOME, a cache directory and a TMPDIR of its own under one temporary directory, removed at the end, so
nothing a run makes stays behind.
"""
import os
import shlex
import signal
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
import fake_upstream  # noqa: E402
from worker_binary import worker_binary  # noqa: E402


def test_emacs_package():
    emacs = shutil.which("emacs")
    if emacs is None:
        pytest.skip("emacs is not installed (bash scripts/setup emacs-nox)")
    upstream = fake_upstream.Running()
    try:
        with tempfile.TemporaryDirectory(prefix="boxoffice-emacs-") as scratch:
            scratch = pathlib.Path(scratch)
            for name in ("home", "cache", "tmp"):
                (scratch / name).mkdir()
            env = dict(os.environ)
            env.update({
                "BOXOFFICE_WORKER": worker_binary(),
                "BOXOFFICE_TEST_UPSTREAM": upstream.base,
                "BOXOFFICE_CACHE_DIR": str(scratch / "cache"),
                "HOME": str(scratch / "home"),
                "TMPDIR": str(scratch / "tmp"),
                # The worker's own log lines stay in the *boxoffice-worker log* buffer; quieter is easier to read.
                "BOXOFFICE_LOG_LEVEL": "warning",
            })
            for name in ("KOBIS_API_KEY", "KAKAO_REST_API_KEY", "BOXOFFICE_TODAY", "XDG_CACHE_HOME"):
                env.pop(name, None)
            command = [emacs, "--batch", "-Q", "-L", "editors/emacs", "-l", "Tests/Editors/boxoffice-tests.el",
                       "-f", "ert-run-tests-batch-and-exit"]
            run = subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, timeout=600)
            assert run.returncode == 0, "ERT failed (exit %d):\n%s" % (run.returncode, run.stdout)
    finally:
        upstream.stop()


def test_editors_exit_when_their_terminal_goes(scratch_home):
    """An editor whose terminal goes away (its tmux server killed: SIGHUP) exits, its worker too. Emacs once kept
    spinning on the dead terminal while its kill-emacs-hook waited for the worker on every input source."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed (bash scripts/setup tmux)")
    # TMPDIR too: Emacs compiles xterm.el natively in the background when it starts on a terminal, and a file of
    # that compilation would stay in /tmp when the editor goes with its terminal.
    environment = {"BOXOFFICE_WORKER": worker_binary(), "KOBIS_API_KEY": "", "BOXOFFICE_TODAY": "2026-11-21",
                   "HOME": scratch_home, "TMPDIR": scratch_home}
    editors = {
        "emacs": [shutil.which("emacs"), "-nw", "-Q", "-L", str(ROOT / "editors" / "emacs"), "-l", "boxoffice",
                  "--eval", '(switch-to-buffer (boxoffice-daily "2023-04-26"))'],
        "nvim": [shutil.which("nvim"), "-u", "NONE", "-i", "NONE", "--cmd", "set rtp^=" + str(ROOT / "editors" / "nvim"),
                 "--cmd", "runtime plugin/boxoffice.lua", "-c", "BoxOffice 2023-04-26"],
    }
    for name, command in editors.items():
        if command[0] is None:
            continue
        # The server's socket in a folder of the test's own (tmux's default folder, /tmp/tmux-UID, would stay
        # behind where the run made it), removed with everything in it.
        folder = tempfile.mkdtemp(prefix="boxoffice-hup-")
        socket = os.path.join(folder, name)
        line = " ".join("%s=%s" % (key, shlex.quote(value)) for key, value in environment.items())
        line = "env " + line + " " + " ".join(shlex.quote(part) for part in command)
        subprocess.run([tmux, "-S", socket, "new-session", "-d", "-x", "100", "-y", "30", line], check=True)
        try:
            editor = int(subprocess.run([tmux, "-S", socket, "display", "-p", "#{pane_pid}"], check=True,
                                        capture_output=True, text=True).stdout)
            wait_for_screen(tmux, socket, "슈퍼 마리오 브라더스")
            worker = wait_for_child(editor)
        finally:
            subprocess.run([tmux, "-S", socket, "kill-server"], capture_output=True)
            shutil.rmtree(folder, ignore_errors=True)
        running = [pid for pid in (editor, worker) if not gone(pid)]
        for pid in running:
            os.kill(pid, signal.SIGKILL)
        assert not running, "%s: %s still running after its terminal went away" % (name, running)


def wait_for_screen(tmux, socket, text, seconds=20):
    """Until the editor's screen shows `text` (the day drawn: the editor is up and its worker has answered)."""
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run([tmux, "-S", socket, "capture-pane", "-p"], capture_output=True, text=True).stdout
        if text in screen:
            return
        time.sleep(0.02)  # sleep-ok: polling the terminal for the editor to draw
    raise AssertionError("the editor never showed %r:\n%s" % (text, screen))


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


def wait_for_child(pid, seconds=20):
    """The worker the editor started (its child), once it has one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = children(pid)
        if found:
            return found[0]
        time.sleep(0.02)  # sleep-ok: polling /proc for the editor to start its worker
    raise AssertionError("the editor (pid %d) started no worker" % pid)


def gone(pid, seconds=10):
    """Whether process `pid` ended within `seconds` (a zombie left for a reaper that never comes counts as ended)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.02)  # sleep-ok: polling /proc for the process to end
    return False


@pytest.fixture()
def scratch_home():
    home = tempfile.mkdtemp(prefix="boxoffice-hup-")
    yield home
    shutil.rmtree(home, ignore_errors=True)


def test_the_editors_name_the_version_of_the_version_file():
    """The Emacs package's Version header and boxoffice-version, and the install lines both editors print (and
    docs/editors.md shows), name the version in VERSION: a release that forgets them fails here."""
    version = (ROOT / "VERSION").read_text().strip()
    package = (ROOT / "editors" / "emacs" / "boxoffice.el").read_text()
    assert ";; Version: %s\n" % version in package
    assert '(defconst boxoffice-version "%s"' % version in package
    for path in (ROOT / "editors" / "nvim" / "lua" / "boxoffice" / "binary.lua", ROOT / "docs" / "editors.md"):
        text = path.read_text()
        assert "boxoffice_worker-%s-py3" % version in text and "boxoffice-worker_%s_amd64.deb" % version in text, path
