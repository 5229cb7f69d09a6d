"""Every relative link in the repository's Markdown leads somewhere a reader of a clone has: the file (or folder) it
names exists in the repository, and a `#fragment` into a Markdown file names one of its headings, as GitHub makes
their anchors. Links out of the repository (http, mailto) are not followed. Inline code and fenced blocks are not
links, so an example path in them is not judged."""

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Folders that are not the project's text: build output, dependencies, packages, caches.
SKIPPED = {".build", ".git", "node_modules", "dist", "__pycache__", ".venv", ".pytest_cache"}

FENCE = re.compile(r"^ {0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets ([`a[0]`](…)).
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def markdown_files():
    for path in sorted(ROOT.rglob("*.md")):
        folders = path.relative_to(ROOT).parts[:-1]
        # .build and the other build folders (.build-tsan, .build-fuzz: dependencies' checkouts) are not ours.
        if not SKIPPED.intersection(folders) and not any(folder.startswith(".build") for folder in folders):
            yield path


def prose_lines(path):
    """(number, line) for each line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)
        elif fence is not None and line.lstrip().startswith(fence):
            fence = None
        elif fence is None:
            yield number, line


def links(path):
    for number, line in prose_lines(path):
        reference = REFERENCE.match(line)
        if reference:
            yield number, reference.group(1)
            continue
        for match in INLINE_LINK.finditer(INLINE_CODE.sub("", line)):
            yield number, match.group(1)


def anchor(heading):
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path):
    seen = {}
    result = set()
    for _, line in prose_lines(path):
        heading = HEADING.match(line)
        if heading:
            base = anchor(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            result.add(base if count == 0 else f"{base}-{count}")
    return result


def broken_links():
    problems = []
    for path in markdown_files():
        for number, target in links(path):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # http:, https:, mailto:: outside the repository
            where = f"{path.relative_to(ROOT)}:{number}: {target}"
            file_part, _, fragment = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            if not resolved.is_relative_to(ROOT):
                problems.append(f"{where} (outside the repository)")
            elif not resolved.exists():
                problems.append(f"{where} (no such file)")
            elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
                problems.append(f"{where} (no heading #{fragment})")
    return problems


def test_every_relative_link_resolves():
    assert broken_links() == []


# The maintainers' design notes live beside the repository (../shared/design), not in a clone or a package: a page a
# reader follows never sends them there. The history (CHANGELOG.md) and the fixtures' provenance may name them.
DESIGN_NOTES = re.compile(r"shared/design|design notes", re.IGNORECASE)
MAY_NAME_THE_NOTES = {"CHANGELOG.md", "Fixtures/PROVENANCE.md"}


def test_no_page_sends_a_reader_to_the_design_notes():
    mentions = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                for path in markdown_files() if str(path.relative_to(ROOT)) not in MAY_NAME_THE_NOTES
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if DESIGN_NOTES.search(line)]
    assert mentions == []


def test_the_checker_sees_what_it_must(tmp_path, monkeypatch):
    """The checker itself: a broken link, a missing heading and a link out of the tree are reported; code, URLs
    and good links are not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## The `run` command (offline)\n")
    (tmp_path / "README.md").write_text(
        "See [the guide](docs/guide.md), [run](docs/guide.md#the-run-command-offline) and [web](https://example.org).\n"
        "Not a link: `[x](missing.md)`.\n"
        "```\n[y](missing-too.md)\n```\n"
        "Broken: [a](docs/missing.md), [b](docs/guide.md#nowhere), [c](../shared/design/protocol.md).\n"
        "[ref]: docs/gone.md\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert broken_links() == [
        "README.md:6: docs/missing.md (no such file)",
        "README.md:6: docs/guide.md#nowhere (no heading #nowhere)",
        "README.md:6: ../shared/design/protocol.md (outside the repository)",
        "README.md:7: docs/gone.md (no such file)",
    ]
