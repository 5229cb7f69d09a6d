"""A person's first contact: the bare worker in a terminal explains itself (on stderr, and only in a terminal), the
one-shot commands' help lists only their own flags, multi-word titles need no quotes, `poster CODE` takes a movie
code, and a weekly day recorded under another period says which."""
import json
import subprocess
import time
import uuid

from cli_testing import BINARY, OFFLINE, run

HINT = "waiting for JSON-RPC 2.0 requests on stdin"
SERVER_FLAGS = ["--max-in-flight", "--ordered", "--max-line-bytes", "--max-batch", "--drain-seconds", "--diagnostics"]


def test_the_bare_worker_in_a_terminal_says_what_it_waits_for(terminal):
    name = "hint%s" % uuid.uuid4().hex[:8]
    exports = []
    for key, value in OFFLINE.items():
        exports += ["-e", "%s=%s" % (key, value)]
    # stdin and stderr are the terminal; stdout goes nowhere, so the pane shows stderr alone.
    terminal.tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "20", *exports,
                  "'%s' >/dev/null; echo exited $?; sleep 60" % BINARY)
    try:
        screen = ""
        deadline = time.time() + 30
        while HINT not in screen.replace("\n", "") and time.time() < deadline:
            time.sleep(0.05)  # sleep-ok: the pace of a wait for the pane to show a state, not an order
            screen = terminal.tmux("capture-pane", "-p", "-J", "-t", name).stdout
        assert HINT in screen.replace("\n", ""), screen
        assert "boxoffice-worker daily" in screen.replace("\n", "")
        # It then serves as always: end of input ends it with 0.
        terminal.tmux("send-keys", "-t", name, "C-d")
        while "exited" not in screen and time.time() < deadline:
            time.sleep(0.05)  # sleep-ok: the pace of a wait for the pane to show a state, not an order
            screen = terminal.tmux("capture-pane", "-p", "-J", "-t", name).stdout
        assert "exited 0" in screen, screen
    finally:
        terminal.tmux("kill-session", "-t", name, check=False)


def test_with_a_pipe_on_stdin_nothing_changes():
    result = subprocess.run([BINARY], input='{"jsonrpc":"2.0","id":1,"method":"ping"}\n', capture_output=True,
                            text=True, env=dict(OFFLINE, PATH="/usr/bin:/bin"), timeout=60)
    assert result.returncode == 0
    assert [json.loads(line) for line in result.stdout.splitlines()] == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
    assert HINT not in result.stderr
    mcp = subprocess.run([BINARY, "mcp"], input="", capture_output=True, text=True, env=OFFLINE, timeout=60)
    assert mcp.returncode == 0 and mcp.stdout == "" and "Model Context Protocol server" not in mcp.stderr


def test_one_shot_help_lists_its_own_flags_and_the_top_level_help_the_server_flags():
    top = run(["--help"])
    assert top.returncode == 0
    for flag in SERVER_FLAGS:
        assert flag in top.stdout, flag
    for command in (["daily"], ["weekly"], ["movie"], ["search"], ["poster"], ["status"]):
        help_text = run(command + ["--help"])
        assert help_text.returncode == 0, help_text.stderr
        for flag in SERVER_FLAGS:
            assert flag not in help_text.stdout, (command, flag)
        assert "--cache-dir" in help_text.stdout and "--offline" in help_text.stdout
        assert len(help_text.stdout.splitlines()) <= 64, (command, len(help_text.stdout.splitlines()))
        # The upstream flags apply too, and are listed on request.
        assert "--help-hidden" in help_text.stdout and "--deadline" not in help_text.stdout
        assert "--deadline" in run(command + ["--help-hidden"]).stdout
    for flag in SERVER_FLAGS:
        assert flag in run(["mcp", "--help"]).stdout, flag
    # A server flag given with a one-shot command, after it or before it, is a usage error, not silently ignored.
    for arguments in (["daily", "2023-04-26", "--max-in-flight", "4"], ["--ordered", "daily", "2023-04-26"],
                      ["--cache-dir", "daily", "--offline", "daily", "--max-batch=2"]):
        wrong = run(arguments)
        assert wrong.returncode == 64 and "is a flag of the worker" in wrong.stderr, (arguments, wrong.stderr)
    # A data flag with a value before the command is no command.
    assert run(["--today", "2026-11-21", "daily", "2023-04-26", "--format", "json"]).returncode == 0


def test_a_title_of_several_words_needs_no_quotes():
    quoted = run(["search", "범죄와의 전쟁", "--format", "json"])
    words = run(["search", "범죄와의", "전쟁", "--format", "json"])
    assert words.returncode == quoted.returncode
    assert words.stdout == quoted.stdout and words.stderr == quoted.stderr


def test_poster_takes_a_movie_code_as_its_argument():
    by_code = run(["poster", "20124079", "--format", "json"])
    by_flag = run(["poster", "--code", "20124079", "--format", "json"])
    assert by_code.returncode == 0, by_code.stderr
    assert json.loads(by_code.stdout) == json.loads(by_flag.stdout)
    assert json.loads(by_code.stdout)["found"] is True
    # A code of the alphanumeric kind, in either case, is a code too: offline, its movie is looked up (and is not
    # recorded), where a title would have been searched.
    lower = run(["poster", "2023c625"])
    assert lower.returncode == 1 and "covers this movie" in lower.stderr and "2023C625" not in lower.stdout
    both = run(["poster", "20124079", "--code", "20124079"])
    assert both.returncode == 64 and "one of them" in both.stderr


def test_a_weekly_day_recorded_under_another_period_says_which():
    # Offline, the week (Mon–Sun) ending 2023-04-23 is recorded, not its weekend (the default period).
    weekend = run(["weekly", "2023-04-23"])
    assert weekend.returncode == 1
    assert "recorded for that day: period week" in weekend.stderr, weekend.stderr
    week = run(["weekly", "2023-04-23", "--period", "week"])
    assert week.returncode == 0, week.stderr
