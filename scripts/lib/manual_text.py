#!/usr/bin/env python3
"""Keeps the manual pages' non-ASCII text (Hangul titles in examples, the en dash of `1–10`, `▲`), which
swift-argument-parser's generate-manual drops: its mdoc escaping keeps ASCII characters only (a TODO in its
String+Escaping.swift says so), and it has no option for it. scripts/release-build hands generate-manual this script
as the tool; it runs the worker's `--experimental-dump-help` and writes every non-ASCII character of the help as an
ASCII token that the escaping passes through; `restore` then turns the tokens in the written pages back into the
characters (UTF-8, which man-db's preconv and mandoc read).

`restore` also gives each page a NAME section that whatis and lexgrog read. generate-manual writes a subcommand's as
`.Nm "boxoffice-worker daily"` and every description as `.Nd "…"`: lexgrog fails on the first ("parse failed", so
`whatis` and `apropos` showed "(unknown subject)") and keeps the quotes of the second. The page's name becomes its
file's (`boxoffice-worker.daily`, what `man` is given), the bare `.Nm` lines after it (the synopsis) name the command
as it is typed (`boxoffice-worker daily`), and the description loses its quotes.

    manual_text.py dump WORKER --experimental-dump-help     the help, tokenized (what generate-manual reads)
    manual_text.py restore FOLDER                           FOLDER/*.1 with their characters and NAME sections
"""
import json
import pathlib
import re
import subprocess
import sys

TOKEN = re.compile(r"QZU([0-9A-F]{4,6})ZQ")


def tokenized(value):
    if isinstance(value, str):
        return "".join(character if ord(character) < 128 else "QZU%04XZQ" % ord(character) for character in value)
    if isinstance(value, list):
        return [tokenized(item) for item in value]
    if isinstance(value, dict):
        return {key: tokenized(item) for key, item in value.items()}
    return value


def named(text, page_name):
    """`text` (an mdoc page) with a NAME section lexgrog reads: `.Nm PAGE` and an unquoted `.Nd`; the bare `.Nm`
    lines after it name the command as it is typed."""
    lines = text.split("\n")
    command = None
    for index, line in enumerate(lines):
        if command is None and line.startswith(".Nm "):
            command = line[len(".Nm "):].strip('"')
            lines[index] = ".Nm " + page_name
        elif line.startswith(".Nd \"") and line.endswith("\""):
            lines[index] = ".Nd " + line[len(".Nd \""):-1]
        elif line == ".Nm" and command is not None and command != page_name:
            lines[index] = ".Nm " + command
    return "\n".join(lines)


def main(arguments):
    if arguments[:1] == ["dump"]:
        help_json = subprocess.run(arguments[1:], check=True, capture_output=True).stdout
        if TOKEN.search(help_json.decode("utf-8")):
            sys.exit("manual_text.py: the help already holds a token of the form QZU….ZQ; choose another form")
        sys.stdout.write(json.dumps(tokenized(json.loads(help_json))))
        return
    if arguments[:1] == ["restore"] and len(arguments) == 2:
        for page in sorted(pathlib.Path(arguments[1]).glob("*.1")):
            text = TOKEN.sub(lambda match: chr(int(match.group(1), 16)), page.read_text(encoding="utf-8"))
            page.write_text(named(text, page.name[:-len(".1")]), encoding="utf-8")
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
