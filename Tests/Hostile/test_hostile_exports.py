"""Data out with hostile upstream text (issue 39): CSV cells carry no control character (the screens' stand-ins) and
a cell that a spreadsheet would take for a formula starts with `'` (OWASP), plain numbers aside; json and ndjson stay
exact (the decoded title is the upstream's, byte for byte, as trimmed)."""
import csv
import io
import json
import re

import pytest

import hostile
from hostile_testing import COMPARE, DAY, MOVIE, PERSON, RANGE, RUN, forbidden

CSV_COMMANDS = {
    "daily": ["daily", DAY, "--format", "csv"],
    "daily-range": ["daily", *RANGE, "--format", "csv"],
    "daily-excel": ["daily", DAY, "--format", "csv", "--excel"],
    "search": ["search", "범죄", "--format", "csv"],
    "poster": ["poster", "드림", "--format", "csv"],
    "people": ["people", "김", "--format", "csv"],
    "person": ["people", PERSON, "--format", "csv"],
    # A run's days and runs compared: figures only (the titles are not in their rows), and still every cell clean.
    "run": RUN + ["--format", "csv"],
    "compare": COMPARE + ["--format", "csv"],
}
# The CSV commands whose cells the rows about the poster's address change; the other ways to the day's CSV (a range,
# --excel) take hostile.CSV_ROWS.
POSTER_CSV = ["poster"]
OTHER_WAYS = ["daily-range", "daily-excel"]
CSV_CASES = [(name, command) for name in hostile.NAMES for command in CSV_COMMANDS
             if (command in POSTER_CSV if name in hostile.POSTER_ROWS
                 else command not in OTHER_WAYS or name in hostile.CSV_ROWS)]
# The column holding the row's text, where the command has one cell a row that is only the text.
TITLE_COLUMNS = {"daily": "title", "daily-range": "title", "daily-excel": "title", "search": "title",
                 "people": "name", "person": "title"}
NUMBER = re.compile(r"^[+-]?[0-9]+(\.[0-9]+)?$")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_cell(text):
    """What a CSV cell holding `text` says: the stand-ins, and a leading `'` before what a spreadsheet would
    evaluate (a plain number stays as it is)."""
    text = hostile.stand_ins(text)
    if text.startswith(FORMULA_STARTS) and not NUMBER.match(text):
        return "'" + text
    return text


def rows(upstreams, name, command):
    result = upstreams(name).run(*CSV_COMMANDS[command])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    text = result.stdout.decode("utf-8")
    if command == "daily-excel":
        assert text.startswith("\ufeff")
        text = text[1:]
    return list(csv.reader(io.StringIO(text, newline="")))


def csv_cases():
    return pytest.mark.parametrize("name,command", CSV_CASES, ids=["%s-%s" % case for case in CSV_CASES])


@csv_cases()
def test_csv_cells_carry_no_control_character_but_tab(upstreams, name, command):
    found = {"%d/%d" % (number, index): sorted(set(forbidden(cell) + (["LF"] if "\n" in cell else [])))
             for number, row in enumerate(rows(upstreams, name, command)) for index, cell in enumerate(row)
             if forbidden(cell) or "\n" in cell}
    assert found == {}


@csv_cases()
def test_csv_cell_a_spreadsheet_would_evaluate_starts_with_a_quote(upstreams, name, command):
    found = ["%d/%d: %r" % (number, index, cell[:40]) for number, row in enumerate(rows(upstreams, name, command))
             for index, cell in enumerate(row) if cell.startswith(FORMULA_STARTS) and not NUMBER.match(cell)]
    assert found == []


TITLE_CASES = [(name, command) for name, command in CSV_CASES if command in TITLE_COLUMNS]


@pytest.mark.parametrize("name,command", TITLE_CASES, ids=["%s-%s" % case for case in TITLE_CASES])
def test_csv_title_cell_is_the_text_with_stand_ins_and_a_quote_before_a_formula(upstreams, name, command):
    table = rows(upstreams, name, command)
    column = table[0].index(TITLE_COLUMNS[command])
    assert {row[column] for row in table[1:]} == {as_cell(hostile.trimmed(name))}


def test_csv_keeps_a_plain_number_that_starts_with_a_sign_as_it_is(upstreams):
    """A negative audience change (리바운드 lost 4,372 on the recorded day) is a number, not a formula: no quote."""
    table = rows(upstreams, "formula-minus", "daily")
    column = table[0].index("audienceChange")
    assert "-4372" in [row[column] for row in table[1:]]


EXACT = {
    "daily-ndjson": ["daily", DAY, "--format", "ndjson"],
    "movie-json": ["movie", MOVIE, "--format", "json"],
    "run-json": RUN + ["--format", "json"],
    "compare-json": COMPARE + ["--format", "json"],
}
EXACT_CASES = [(name, command) for name in hostile.TEXT_ROWS for command in EXACT]


def texts(command, documents):
    """The strings of the answers that hold the row's text."""
    if command.startswith("daily"):
        entries = [entry for document in documents for entry in document.get("entries", [document])]
        return [entry["title"] for entry in entries if "title" in entry]
    if command == "run-json":
        return [documents[0]["title"]]
    if command == "compare-json":
        return [film["title"] for film in documents[0]["films"]]
    [movie] = documents
    return ([movie["title"], movie["titleEnglish"]] + [person["name"] for person in movie["directors"]]
            + [person["name"] for person in movie["actors"]])


@pytest.mark.parametrize("name,command", EXACT_CASES, ids=["%s-%s" % case for case in EXACT_CASES])
def test_json_and_ndjson_keep_the_text_exact(upstreams, name, command):
    result = upstreams(name).run(*EXACT[command])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    documents = [json.loads(line) for line in result.stdout.decode("utf-8").split("\n") if line.strip()]
    if command.endswith("-json"):
        documents = [json.loads(result.stdout)]
    found = texts(command, documents)
    assert found and len(set(found)) == 1 and found[0] in hostile.exact(name), set(found)


def ahead(upstreams, terminal):
    for name, command in CSV_CASES:
        upstreams(name).run(*CSV_COMMANDS[command], wait=False)
    for name, command in EXACT_CASES:
        upstreams(name).run(*EXACT[command], wait=False)
