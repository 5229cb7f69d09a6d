"""The screens in a real terminal (tmux, fixed sizes, offline), compared with golden files; colours read with
capture-pane -e. Regenerate the goldens with BOXOFFICE_UPDATE_GOLDEN=1 after a deliberate change, and look at them."""
import os
import re

import pytest
from cli_testing import GOLDEN

SCREENS = {
    "list-100x30": (["daily", "2023-04-26"], 100, 30),
    "grid-100x30": (["daily", "2023-04-26", "--layout", "grid"], 100, 30),
    "detail-100x30": (["movie", "20124079"], 100, 30),
    "list-60x30": (["daily", "2023-04-26"], 60, 30),
    "grid-60x30": (["daily", "2022-01-05", "--layout", "grid", "--limit", "4"], 60, 30),
    "weekend-100x30": (["weekly", "2012-01-01"], 100, 30),
    "person-80x20": (["people", "90000005", "--movies"], 80, 20),
    "people-80x20": (["people", "이병헌"], 80, 20),
    "company-100x30": (["company", "20100603"], 100, 30),
    "company-60x40": (["company", "20100932"], 60, 40),
    "companies-100x20": (["company"], 100, 20),
    "codes-80x25": (["codes", "region"], 80, 25),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_file(terminal, name):
    arguments, width, height = SCREENS[name]
    screen = terminal.run(arguments, width=width, height=height)
    golden = GOLDEN / ("%s.txt" % name)
    if os.environ.get("BOXOFFICE_UPDATE_GOLDEN"):
        golden.write_text(screen, encoding="utf-8")
    assert screen == golden.read_text(encoding="utf-8")
    assert all(len(line) <= width * 2 for line in screen.splitlines())


def test_no_color_means_no_escape_codes_at_all(terminal):
    screen = terminal.run(["daily", "2023-04-26"], env={"NO_COLOR": "1"}, escapes=True)
    assert "\x1b" not in screen
    plain = terminal.run(["daily", "2023-04-26", "--color", "never"], escapes=True)
    assert "\x1b" not in plain


def test_color_always_tints_the_arrows_as_the_apps_do(terminal):
    screen = terminal.run(["daily", "2023-04-26", "--color", "always"], escapes=True)
    plain = lambda line: re.sub(r"\x1b\[[0-9;]*m", "", line)
    rows = {plain(line).split()[0]: line for line in screen.splitlines() if plain(line).strip()[:2].strip().isdigit()}
    # The arrow red or blue, the number after it plain (tmux re-emits the reset in a form of its own), 신작 pink.
    assert re.search(r"\x1b\[31m▲\x1b\[[0-9;]*m12", rows["2"]), rows["2"]
    assert re.search(r"\x1b\[34m▼\x1b\[[0-9;]*m2", rows["3"]), rows["3"]
    assert "\x1b[35m신작" in rows["1"], rows["1"]
    # Only the change cells are painted: the titles are not.
    assert "\x1b[31m슈퍼" not in rows["2"]


def test_auto_color_is_on_in_a_terminal(terminal):
    screen = terminal.run(["daily", "2023-04-26"], escapes=True)
    assert "\x1b[31m" in screen and "\x1b[34m" in screen
