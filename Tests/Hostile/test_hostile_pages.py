"""HTML pages made from hostile upstream text (issue 39): `daily --format html --with-posters`, `movie --format
html`, a film's `run` and `compare` (the titles in the heading, the SVG chart's titles and its legend) and the static
site of a range (`daily --from --to --format html --out DIR`). The text is escaped (no tag, no comment and no
Slack-style link of the upstream's becomes markup), no href or src is a javascript: address, and no control character
reaches the page (an HTML parse error; the browser shows nothing or a box)."""
import html.parser
import pathlib

import pytest

import hostile
from hostile_testing import COMPARE, DAY, MOVIE, RANGE, RUN, forbidden

PAGES = {
    "daily": ["daily", DAY, "--format", "html", "--with-posters"],
    "movie": ["movie", MOVIE, "--format", "html"],
    "run": RUN + ["--format", "html"],
    "compare": COMPARE + ["--format", "html"],
}
# The runs' pages show titles, not posters: the rows of text take them.
RUNS = ["run", "compare"]
# The upstream's markup that must stay text.
RAW = ["<b>x</b>", "<!channel>", "<!here>", "<@U123>", "<http://evil.example|"]
ADDRESS_ATTRIBUTES = {"href", "src", "srcset", "poster", "action", "formaction", "data", "xlink:href"}


class Attributes(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.addresses = []

    def handle_starttag(self, tag, attributes):
        for attribute, value in attributes:
            if attribute in ADDRESS_ATTRIBUTES and value is not None:
                self.addresses.append((tag, attribute, value))


def problems(page):
    found = ["raw %r" % raw for raw in RAW if raw in page]
    parser = Attributes()
    parser.feed(page)
    parser.close()
    found += ["<%s %s=%r>" % (tag, attribute, value[:60]) for tag, attribute, value in parser.addresses
              if "".join(value.split()).lower().startswith("javascript:")]
    return found


def page_cases():
    cases = [(name, page) for name in hostile.RENDER_ROWS for page in PAGES
             if page not in RUNS or name in hostile.RENDER_TEXT_ROWS]
    return pytest.mark.parametrize("name,page", cases, ids=["%s-%s" % case for case in cases])


def written(upstreams, name, page):
    result = upstreams(name).run(*PAGES[page])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    return result.stdout.decode("utf-8")


@page_cases()
def test_page_escapes_the_text_and_has_no_javascript_address(upstreams, name, page):
    assert problems(written(upstreams, name, page)) == []


@page_cases()
def test_page_carries_no_control_character(upstreams, name, page):
    assert sorted(set(forbidden(written(upstreams, name, page)))) == []


def site_arguments(upstream):
    return ["daily", *RANGE, "--format", "html", "--with-posters", "--out", upstream.path("site")]


def site(upstreams, name):
    upstream = upstreams(name)
    folder = pathlib.Path(upstream.path("site"))
    result = upstream.run(*site_arguments(upstream))
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    pages = {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.html"))}
    assert len(pages) == 3, sorted(pages)
    return pages


# The site's pages are the day's page, written again: the rows of markup, controls and addresses take them.
SITE_ROWS = ["terminal-escapes", "lone-surrogates", "bidi-override", "markup", "slack-mentions", "javascript-poster",
             "data-poster"]


@pytest.mark.parametrize("name", SITE_ROWS)
def test_site_pages_escape_the_text_have_no_javascript_address_and_no_control_character(upstreams, name):
    found = {}
    for page, text in site(upstreams, name).items():
        found.update({"%s: %s" % (page, problem): 1 for problem in problems(text)})
        found.update({"%s: raw %s" % (page, character): 1 for character in set(forbidden(text))})
    assert sorted(found) == []


def ahead(upstreams, terminal):
    for name in hostile.RENDER_ROWS:
        for page, arguments in PAGES.items():
            if page not in RUNS or name in hostile.RENDER_TEXT_ROWS:
                upstreams(name).run(*arguments, wait=False)
    for name in SITE_ROWS:
        upstreams(name).run(*site_arguments(upstreams(name)), wait=False)
