"""The static site of a range: `daily --from A --to B --format html --out DIR` writes DIR/index.html, which links to
DIR/YYYY-MM-DD.html for each day. Offline the worker has recordings of three days only, so the range is fetched
from the fake upstream on 127.0.0.1 (every day there is the 2023-04-26 recording shown as that day)."""
import datetime
import pathlib
import urllib.parse

import pytest

import fake_upstream
from web_testing import check_entries, check_page_contract, low_contrast, problems, result_json, run

FIRST, LAST = datetime.date(2026, 11, 18), datetime.date(2026, 11, 20)
DAYS = [(FIRST + datetime.timedelta(days=offset)).isoformat() for offset in range((LAST - FIRST).days + 1)]
RANGE = ["daily", "--from", FIRST.isoformat(), "--to", LAST.isoformat()]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(the site's folder, the range's --format json answers by day)."""
    running = fake_upstream.Running()
    try:
        cache = tmp_path_factory.mktemp("site-cache")
        environment = {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": running.base + "/kobis",
                       "BOXOFFICE_CACHE_DIR": str(cache)}
        folder = tmp_path_factory.mktemp("site") / "out"
        written = run([*RANGE, "--format", "html", "--out", str(folder)], env=environment)
        assert written.stdout == "", "the site goes to --out, nothing to stdout: %r" % written.stdout[:200]
        answers = {result["range"]["start"]: result for result in result_json(RANGE, env=environment)}
    finally:
        running.stop()
    return folder, answers


LINKS = "return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"


def resolve(page, href):
    """The file a relative link of `page` names, or None for a link elsewhere or to the page itself."""
    parts = urllib.parse.urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return (page.parent / urllib.parse.unquote(parts.path)).resolve()


def test_the_index_lists_each_day_and_every_link_resolves(site, browser):
    folder, answers = site
    assert sorted(answers) == DAYS
    # Pages are the index and one a day (other files, a manifest, may sit beside them).
    pages = sorted(path.name for path in folder.glob("*.html"))
    assert pages == sorted(["index.html"] + [day + ".html" for day in DAYS]), pages
    index = folder / "index.html"
    browser.load(index)
    check_page_contract(browser, None)
    days = browser.script("return [...document.querySelectorAll('ul.days > li > a')].map(a => a.getAttribute('href'))")
    assert sorted(days) == [day + ".html" for day in DAYS], days
    for href in browser.script(LINKS):
        target = resolve(index, href)
        assert target is None or target.is_file(), "index.html links to %s, which is not there" % href
    assert problems(browser.console()) == []
    poor = low_contrast(browser)
    assert not poor, "too little contrast:\n" + "\n".join(poor)


@pytest.mark.parametrize("day", DAYS)
def test_each_day_page_shows_its_day_logs_nothing_and_links_only_to_pages_that_exist(day, site, browser):
    folder, answers = site
    path = folder / (day + ".html")
    browser.load(path)
    check_page_contract(browser, "boxoffice")
    check_entries(browser, answers[day])
    for href in browser.script(LINKS):
        target = resolve(path, href)
        assert target is None or target.is_file(), "%s links to %s, which is not there" % (path.name, href)
    assert problems(browser.console()) == []
    # The links say where they go: the day's own heading carries its date.
    heading = browser.script("return document.querySelector('main h1').textContent")
    assert day in heading or day.replace("-", ".") in heading or day.replace("-", "") in heading, heading


def test_a_folder_holds_one_kind_of_page_and_a_run_again_adds_to_it(tmp_path):
    """Offline (no browser needed): a second run grows the site; weekly pages are refused in a daily site (they
    would be written over its pages of the same last day) and named by their period in a folder of their own."""
    offline = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}
    folder = tmp_path / "daily"
    run(["daily", "--from", "2023-04-26", "--to", "2023-04-26", "--format", "html", "--out", str(folder)], env=offline)
    run(["daily", "--from", "2023-04-23", "--to", "2023-04-23", "--format", "html", "--out", str(folder)], env=offline)
    assert sorted(path.name for path in folder.glob("*.html")) == ["2023-04-23.html", "2023-04-26.html", "index.html"]
    index = (folder / "index.html").read_text()
    assert index.index("2023-04-26.html") < index.index("2023-04-23.html")
    assert 'href="index.html"' in (folder / "2023-04-23.html").read_text()
    before = {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}
    weekly = ["weekly", "--from", "2012-01-01", "--to", "2012-01-01", "--format", "html"]
    refused = run([*weekly, "--out", str(folder)], env=offline, check=False)
    assert refused.returncode == 64 and "go in a folder of their own" in refused.stderr, refused.stderr
    assert {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()} == before
    run([*weekly, "--out", str(tmp_path / "weekly")], env=offline)
    assert sorted(path.name for path in (tmp_path / "weekly").glob("*.html")) == ["index.html",
                                                                                  "weekend-2012-01-01.html"]
