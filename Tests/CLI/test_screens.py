"""The screens in a real terminal (tmux, fixed sizes, offline), compared with golden files; colours read with
capture-pane -e. Regenerate the goldens with BOXOFFICE_UPDATE_GOLDEN=1 after a deliberate change, and look at them."""
import os
import re
import unicodedata

import pytest
from cli_testing import GOLDEN, run

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
    # A run (its chart, its milestones, its summary) and two runs compared, at the narrowest width the screens take,
    # a common one and a wide one: 파묘 ends 2024-06-02 (two days in no list before its last two), 범죄도시4 has
    # eight days of previews.
    "run-40x50": (["run", "파묘"], 40, 50),
    "run-80x40": (["run", "파묘"], 80, 40),
    "run-200x40": (["run", "파묘"], 200, 40),
    "compare-40x35": (["compare", "파묘", "범죄도시4"], 40, 35),
    "compare-80x30": (["compare", "파묘", "범죄도시4"], 80, 30),
    "compare-200x30": (["compare", "파묘", "범죄도시4"], 200, 30),
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


def columns(text):
    """The columns `text` takes in a terminal: East Asian wide and full-width characters 2, marks 0, the rest 1."""
    return sum(0 if unicodedata.combining(character) else
               2 if unicodedata.east_asian_width(character) in ("W", "F") else 1 for character in text)


RUNS = {"run": ["run", "파묘"], "compare": ["compare", "파묘", "범죄도시4"]}


@pytest.mark.parametrize("width", [40, 80, 200])
@pytest.mark.parametrize("command", sorted(RUNS))
def test_a_runs_screen_fits_its_width_and_its_chart_is_aligned(command, width):
    """Through a pipe at COLUMNS=width (tmux would wrap a line too long and the golden would show it wrapped): no line
    wider than the screen, no stand-in for a character cut apart, and the chart a block: every row's axis `│` and
    the baseline's `└` in the same column, every row as wide as the baseline, the last day's label ending under the
    last column."""
    result = run(RUNS[command], env={"COLUMNS": str(width), "NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    too_wide = [(columns(line), line) for line in lines if columns(line) > width]
    assert too_wide == [], too_wide
    assert "\ufffd" not in result.stdout
    rows = [line for line in lines if "│" in line]
    [baseline] = [index for index, line in enumerate(lines) if "└" in line]
    assert len(rows) == (8 if command == "run" else 10), rows
    axis = {columns(line[:line.index("│")]) for line in rows} | {columns(lines[baseline][:lines[baseline].index("└")])}
    assert len(axis) == 1, axis
    end = columns(lines[baseline])
    assert end <= width and all(columns(line) == end for line in rows), [columns(line) for line in rows]
    labels = lines[baseline + (2 if command == "run" else 1)]
    assert labels.lstrip().startswith("day ") and columns(labels) == end, (labels, end)
