"""The static site against a folder someone else can write into, and against the shared KOBIS quota: names in
pages.json become links only when the site itself would have written them; a link planted under a page's name is
replaced, never followed; a FIFO is refused rather than opened; `--out ''` is an error; the range's KOBIS calls
are planned before any is made, and `--max-calls` is honoured."""
import json
import os
import pathlib

import pytest

import fake_upstream
from web_testing import run

RANGE = ["daily", "--from", "2023-03-01", "--to", "2023-03-03", "--format", "html"]


@pytest.fixture()
def live(tmp_path):
    """The environment of a worker using the fake upstream and a cache of its own; the fake's counts."""
    running = fake_upstream.Running(delay_ms=1)
    env = {"KOBIS_API_KEY": "test-kobis-key", "KOBIS_BASE_URL": running.base + "/kobis",
           "BOXOFFICE_CACHE_DIR": str(tmp_path / "cache")}
    yield env, running.counts
    running.stop()


def daily_calls(counts):
    return sum(n for call, n in counts()["calls"].items() if "searchDailyBoxOfficeList" in call)


@pytest.mark.parametrize("name", [
    "javascript:alert(1)-'.html", "https:\\\\evil.example\\x.html", "../escape.html", "2023-03-01.html/..",
    "index.html", ".hidden.html", "2023-3-1.html", "weekly-2023-03-01.html",
])
def test_a_manifest_naming_a_page_the_site_never_writes_is_refused(live, tmp_path, name):
    env, _ = live
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "pages.json").write_text(json.dumps({"title": "x", "pages": [{"file": name, "heading": "h"}]}))
    result = run([*RANGE, "--out", str(folder)], env=env, check=False)
    assert result.returncode == 1, result.stderr
    assert "is not this site's list of pages" in result.stderr
    assert not (folder / "index.html").exists()


def test_the_names_the_site_writes_are_kept(live, tmp_path):
    env, _ = live
    folder = tmp_path / "site"
    folder.mkdir()
    pages = [{"file": "2023-02-28.html", "heading": "before"}, {"file": "weekend-2023-02-26.html", "heading": "w"}]
    (folder / "pages.json").write_text(json.dumps({"title": "x", "pages": pages}))
    run([*RANGE, "--out", str(folder)], env=env)
    kept = [page["file"] for page in json.loads((folder / "pages.json").read_text())["pages"]]
    assert "2023-02-28.html" in kept and "weekend-2023-02-26.html" in kept, kept
    index = (folder / "index.html").read_text()
    assert 'href="2023-02-28.html"' in index and 'href="weekend-2023-02-26.html"' in index


def test_a_link_planted_under_a_page_name_is_replaced_not_followed(live, tmp_path):
    env, _ = live
    folder = tmp_path / "site"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    for name in ["2023-03-01.html", "index.html", "pages.json"]:
        os.symlink(victim if name != "pages.json" else tmp_path / "absent.json", folder / name)
    # A manifest that is a link is not read through it either.
    result = run([*RANGE, "--out", str(folder)], env=env, check=False)
    assert result.returncode == 1 and "pages.json is a link" in result.stderr, result.stderr
    (folder / "pages.json").unlink()
    run([*RANGE, "--out", str(folder)], env=env)
    assert victim.read_text() == "keep me"
    for name in ["2023-03-01.html", "index.html"]:
        assert not (folder / name).is_symlink() and (folder / name).read_text().startswith("<!DOCTYPE html>")
    assert not list(folder.glob(".*.part")), "no temporary file is left behind"


@pytest.mark.parametrize("name", ["index.html", "2023-03-02.html", "pages.json"])
def test_a_fifo_under_a_name_the_site_writes_is_refused_not_opened(live, tmp_path, name):
    env, _ = live
    folder = tmp_path / "site"
    folder.mkdir()
    os.mkfifo(folder / name)
    # Opening the FIFO would block for ever: the run's timeout (120 s) would fail the test.
    result = run([*RANGE, "--out", str(folder)], env=env, check=False)
    assert result.returncode == 1, result.stderr
    assert "is a FIFO" in result.stderr
    assert pathlib.Path(folder / name).is_fifo()


def test_an_empty_out_is_an_error(live):
    env, counts = live
    result = run([*RANGE, "--out", ""], env=env, check=False)
    assert result.returncode == 64 and "give --out DIR" in result.stderr
    assert daily_calls(counts) == 0


def test_a_site_needing_more_calls_than_the_quota_left_is_refused_before_any_call(live, tmp_path):
    env, counts = live
    folder = tmp_path / "site"
    arguments = ["daily", "--from", "2023-03-01", "--to", "2023-04-09", "--format", "html", "--out", str(folder)]
    refused = run(arguments + ["--kobis-daily-limit", "5"], env=env, check=False)
    assert refused.returncode == 75, "EX_TEMPFAIL: tomorrow's quota covers it"
    assert "40 KOBIS calls needed and 5 left today" in refused.stderr and "--max-calls" in refused.stderr
    assert daily_calls(counts) == 0
    assert not folder.exists() or not list(folder.glob("*.html"))


def test_max_calls_makes_that_many_writes_those_pages_exits_2_and_a_second_run_finishes(live, tmp_path):
    env, counts = live
    folder = tmp_path / "site"
    arguments = ["daily", "--from", "2023-03-01", "--to", "2023-04-09", "--format", "html", "--out", str(folder)]
    partial = run(arguments + ["--max-calls", "5"], env=env, check=False)
    assert partial.returncode == 2, partial.stderr
    assert daily_calls(counts) == 5
    assert sorted(path.name for path in folder.glob("2023-*.html")) == ["2023-03-0%d.html" % day for day in range(1, 6)]
    assert "35 of 40 pages were not written" in partial.stderr
    finished = run(arguments, env=env, check=False)
    assert finished.returncode == 0, finished.stderr
    assert daily_calls(counts) == 40
    assert len(list(folder.glob("2023-*.html"))) == 40
