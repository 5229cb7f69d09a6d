"""Screens and stderr with hostile upstream text (issue 39): every screen's raw bytes, on a pseudo-terminal and
through a pipe with --color always, hold no escape but the screens' own colours and no control character but \\n
and \\t (C0 shown as its control picture, DEL as U+2421, C1, bidi controls and line separators as U+FFFD); list screens
keep one line a row and their columns aligned in tmux; a run's chart stays a block and what is below it fits the
width; a KOBIS fault's hostile message is one clean stderr line.

The screens take hostile.RENDER_TEXT_ROWS (the formulas but one are printable ASCII like any title: the CSV tests
take them all), and the rows about a poster's address the screens that show the address."""
import re

import pytest

import chat_rules
import hostile
from hostile_testing import (COMPANY, COMPARE, DAY, MOVIE, PERSON, RUN, WIDTH, assert_stand_ins_shown,
                             assert_terminal_safe, width)

# Every screen, by name: its arguments.
SCREENS = {
    "daily": ["daily", DAY],
    "daily-grid": ["daily", DAY, "--layout", "grid"],
    "daily-with-posters": ["daily", DAY, "--with-posters"],
    "movie": ["movie", MOVIE],
    "search": ["search", "범죄"],
    "poster": ["poster", "드림"],
    "people": ["people", "김"],
    "person": ["people", PERSON],
    "company": ["company", COMPANY],
    "codes": ["codes"],
    "run": RUN,
    "compare": COMPARE,
}
# The poster screen shows the query (the arguments) and the address; the movie screen and the list with posters
# show the address too.
POSTER_SCREENS = ["movie", "poster", "daily-with-posters"]
CASES = [(name, screen) for name in hostile.RENDER_ROWS for screen in SCREENS
         if (screen in POSTER_SCREENS if name in hostile.POSTER_ROWS else screen != "poster")]
# Also through a pipe with --color always: a list, a detail screen, the poster's screen and the runs'.
PIPED = ["daily", "movie", "poster", "run", "compare"]
PIPED_CASES = [case for case in CASES if case[1] in PIPED]
# The screens whose first lines show the row's text in full width (a title, a name): its stand-ins are seen there.
SHOWN = {"daily": 12, "daily-with-posters": 12, "movie": 12, "person": 12, "company": 12, "search": 12, "run": 12,
         "compare": 12}


def case_id(case):
    return "%s-%s" % case


@pytest.mark.parametrize("name,screen", CASES, ids=[case_id(case) for case in CASES])
def test_screen_on_a_terminal_writes_only_colour_escapes_and_no_control_characters(upstreams, name, screen):
    status, out, err = upstreams(name).on_terminal(*SCREENS[screen])
    assert status == 0, err.decode("utf-8", "replace")
    assert_terminal_safe(out, "stdout")
    assert_terminal_safe(err, "stderr")


@pytest.mark.parametrize("name,screen", PIPED_CASES, ids=[case_id(case) for case in PIPED_CASES])
def test_screen_with_color_always_into_a_pipe_writes_only_colour_escapes_and_no_control_characters(
        upstreams, name, screen):
    result = upstreams(name).run(*SCREENS[screen], "--color", "always")
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    assert_terminal_safe(result.stdout, "stdout")
    assert_terminal_safe(result.stderr, "stderr")


SHOWN_CASES = [(name, screen) for name in hostile.RENDER_TEXT_ROWS for screen in SHOWN]


@pytest.mark.parametrize("name,screen", SHOWN_CASES, ids=[case_id(case) for case in SHOWN_CASES])
def test_screen_shows_the_text_with_control_pictures_and_replacement_characters(upstreams, name, screen):
    status, out, err = upstreams(name).on_terminal(*SCREENS[screen])
    assert status == 0, err.decode("utf-8", "replace")
    text = re.sub("\x1b\\[[0-9]+m", "", out.decode("utf-8", "replace"))
    assert_stand_ins_shown(text, name, "stdout", SHOWN[screen])
    if name == "terminal-escapes":
        assert "\u241b[2J\u241b[31mRED \ufffd31m \u2407BEL" in text


# List screens in tmux: what a person sees. Each: the lines above the rows, a row's pattern, how many rows, and the
# pattern of the lines below them (the posters' addresses, one an entry).
DAILY_ROW = re.compile(r"^ {0,3}\d+  \S")
LISTS = {
    "daily": (2, DAILY_ROW, 10, None),
    "daily-with-posters": (2, DAILY_ROW, 10, re.compile(r"^ {0,3}\d+  ")),
    "search": (1, re.compile(r"^[0-9A-Z]{8}  "), 5, None),
    "people": (1, re.compile(r"^\d{8}  "), 10, None),
    "codes": (1, re.compile(r"^\d{7}  "), 17, None),
}
LIST_CASES = [(name, screen) for name in hostile.RENDER_TEXT_ROWS for screen in LISTS]


def list_rows(screen, lines):
    """The rows of a list screen's lines (blank lines left out), and what is below them."""
    above, _, count, _ = LISTS[screen]
    lines = [line for line in lines if line.strip()]
    return lines[above:above + count], lines[above + count:]


@pytest.mark.parametrize("name,screen", LIST_CASES, ids=[case_id(case) for case in LIST_CASES])
def test_list_screen_in_tmux_keeps_each_row_on_one_line(upstreams, terminal, name, screen):
    lines = terminal.screen(upstreams(name), *SCREENS[screen])
    _, row, count, after = LISTS[screen]
    rows, below = list_rows(screen, lines)
    assert len(rows) == count and all(row.match(line) for line in rows), shown(lines)
    if after is None:
        assert below == [], shown(lines)
    else:
        assert len(below) == count and all(after.match(line) for line in below), shown(lines)


ALIGNED = ["daily", "daily-with-posters", "search", "codes"]
ALIGNED_CASES = [(name, screen) for name in hostile.RENDER_TEXT_ROWS for screen in ALIGNED]
# The years of the recorded search's five movies, in its order; the English names of the region codes.
YEARS = ["2021", "2011", "2020", "2012", "1988"]


def columns_after_the_title(screen, lines):
    """The columns where what follows the title ends or starts: (expected, one a row). Aligned, every row's are the
    expected ones (the header's, for a box office; the first row's otherwise)."""
    rows, _ = list_rows(screen, lines)
    if screen.startswith("daily"):
        header = next((line for line in lines if line.lstrip().startswith("Rank")), None)
        assert header is not None, "no header line:\n" + shown(lines)
        expected = [width(header[:header.index(label) + len(label)]) for label in ("Audience", "Total", "Share")]
        found = []
        for line in rows:
            match = re.search(r"([\d,]+) +([\d,]+) +([\d.]+%)$", line.rstrip())
            found.append([width(line[:match.end(group)]) for group in (1, 2, 3)] if match else None)
        return [expected] * len(found), found
    if screen == "search":
        found = []
        for line, year in zip(rows, YEARS):
            match = re.search(r"  %s(  |$)" % year, line.rstrip())
            found.append(width(line[:match.start()]) if match else None)
    else:
        found = []
        for line in rows:
            match = re.search(r"  ([A-Z][A-Za-z ]*)$", line.rstrip())
            found.append(width(line[:match.start(1)]) if match else None)
    return [found[0]] * len(found) if found else [], found


def shown(lines):
    """A screen for an assertion's message: its first 40 lines, each cut at 160 characters."""
    return "\n".join(line[:160] for line in lines[:40])


@pytest.mark.parametrize("name,screen", ALIGNED_CASES, ids=[case_id(case) for case in ALIGNED_CASES])
def test_list_screen_in_tmux_keeps_the_columns_after_the_title_aligned(upstreams, terminal, name, screen):
    if hostile.FAMILY in (hostile.TEXT[name] or ""):
        # Terminals disagree on a ZWJ sequence: kitty, WezTerm and foot draw the family in 2 columns, as the
        # worker counts it, xterm in 8, tmux 3.3a otherwise again. No count lines up everywhere.
        pytest.skip("the width of a ZWJ sequence is the terminal's own")
    lines = terminal.screen(upstreams(name), *SCREENS[screen])
    expected, found = columns_after_the_title(screen, lines)
    assert found and None not in found and found == expected, (expected[:1], found, shown(lines))


# A run's chart and the runs compared: the titles are in the heading and in the legend of letters, never in the
# chart's rows, so the chart stays a block whatever the titles; what is below it (the milestones, the legend, each
# compared film's facts) is fit to the screen's width and cut between whole characters. (A compared film's own line,
# `A TITLE`, is its title in full, as a movie's heading is.)
CHART_ROWS = {"run": 8, "compare": 10}
CHART_CASES = [(name, screen) for name in hostile.RENDER_TEXT_ROWS for screen in CHART_ROWS]
COLOUR = re.compile("\x1b\\[[0-9]+m")


@pytest.mark.parametrize("name,screen", CHART_CASES, ids=[case_id(case) for case in CHART_CASES])
def test_run_chart_stays_a_block_and_what_is_below_it_fits_the_width(upstreams, name, screen):
    status, out, err = upstreams(name).on_terminal(*SCREENS[screen])
    assert status == 0, err.decode("utf-8", "replace")
    lines = COLOUR.sub("", out.decode("utf-8", "replace")).split("\n")
    [baseline] = [index for index, line in enumerate(lines) if "└" in line]
    rows = lines[baseline - CHART_ROWS[screen]:baseline]
    assert all("│" in line for line in rows), shown(lines)
    axis = {width(line[:line.index("│")]) for line in rows} | {width(lines[baseline][:lines[baseline].index("└")])}
    assert len(axis) == 1, (axis, shown(lines))
    assert all(width(line) == width(lines[baseline]) <= WIDTH for line in rows), shown(lines)
    below = [line for index, line in enumerate(lines) if index > baseline
             and not (lines[index - 1] == "" and re.match("^[A-H] ", line))]
    wide = [(width(line), line[:60]) for line in below if width(line) > WIDTH]
    assert wide == [], wide
    assert chat_rules.grapheme_problems("\n".join(below)) == []


@pytest.mark.parametrize("name", hostile.RENDER_TEXT_ROWS)
def test_kobis_fault_message_exits_non_zero_with_one_stderr_line_of_stand_ins(upstreams, name):
    result = upstreams(name, fault=True).run("daily", DAY)
    assert result.returncode != 0 and result.stdout == b""
    assert_terminal_safe(result.stderr, "stderr")
    err = result.stderr.decode("utf-8")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert_stand_ins_shown(err, name, "stderr")


@pytest.mark.parametrize("name", hostile.RENDER_TEXT_ROWS)
def test_kobis_fault_message_on_a_terminal_is_one_line_of_stand_ins(upstreams, name):
    status, written, _ = upstreams(name, fault=True).on_terminal("daily", DAY, stderr_too=True)
    assert status != 0
    assert_terminal_safe(written, "the terminal")
    assert written.rstrip(b"\n").count(b"\n") == 0, written
    assert_stand_ins_shown(written.decode("utf-8", "replace"), name, "the terminal")


def ahead(upstreams, terminal):
    for name, screen in CASES:
        upstreams(name).on_terminal(*SCREENS[screen], wait=False)
    for name, screen in PIPED_CASES:
        upstreams(name).run(*SCREENS[screen], "--color", "always", wait=False)
    for name, screen in LIST_CASES:
        terminal.screen(upstreams(name), *SCREENS[screen], wait=False)
    for name in hostile.RENDER_TEXT_ROWS:
        upstreams(name, fault=True).run("daily", DAY, wait=False)
        upstreams(name, fault=True).on_terminal("daily", DAY, stderr_too=True, wait=False)
