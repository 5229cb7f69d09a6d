"""The daily page and a movie's page as a person sees them, against goldens in Tests/Web/golden: at 390 px (a phone) and 1280 px (a
laptop) in the light scheme, and at 390 px in the dark one, each the whole page (web_testing.compare_with_golden:
a pixel counts as different past 32 in a channel; more than 0.5 % of them, or a size off by more than 4 px, fails, and
leaves the actual screenshot and a diff under .build/web-failures). BOXOFFICE_UPDATE_GOLDENS=1 rewrites the goldens:
look at them before committing."""
import pytest
from PIL import Image

import fake_upstream
from web_testing import compare_with_golden, problems, write_page


SHOTS = [
    ("daily-list-390", ("daily",), 390, False),
    ("daily-list-1280", ("daily",), 1280, False),
    ("daily-grid-1280", ("daily", "--layout", "grid"), 1280, False),
    ("daily-list-390-dark", ("daily",), 390, True),
    # The movie page: its poster's place above the fields on a phone and beside them on a laptop (a list rule once
    # put it in a grid area the movie page does not have, one letter a line at 390 px). Live against the fake
    # upstream, so the poster is downloaded and embedded (offline the page links Kakao's address, which a browser
    # without a network cannot load).
    ("movie-390", ("movie", "20124079"), 390, False),
    ("movie-1280", ("movie", "20124079"), 1280, False),
]


@pytest.fixture(scope="module")
def movie_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("movie")
    poster = folder / "poster.jpg"
    # A poster of two halves, so its place and its crop show in the screenshot.
    picture = Image.new("RGB", (300, 450), (0x1F, 0x4E, 0x79))
    picture.paste((0xE8, 0xB0, 0x4A), (0, 225, 300, 450))
    picture.save(poster, quality=95)
    upstream = fake_upstream.Running(delay_ms=1, poster=poster)
    try:
        path = folder / "movie.html"
        write_page(["movie", "20124079"], path, env={
            "KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
            "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
            "BOXOFFICE_CACHE_DIR": str(folder / "cache"), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1"})
    finally:
        upstream.stop()
    assert 'src="data:image/jpeg;base64,' in path.read_text()
    return path


@pytest.mark.parametrize("name, arguments, width, dark", SHOTS, ids=[shot[0] for shot in SHOTS])
def test_the_daily_page_looks_as_its_golden(name, arguments, width, dark, browser, page, request):
    path = request.getfixturevalue("movie_page") if arguments[0] == "movie" else page(*arguments)
    browser.load(path, width=width, dark=dark)
    if arguments[0] == "movie":
        # A live answer says when it was fetched: the same words each run, for the golden.
        browser.script("document.querySelector('.source').textContent = 'kobis, fetched (the time of the run)'")
    compare_with_golden(name, browser.screenshot(width))
    assert problems(browser.console()) == []
