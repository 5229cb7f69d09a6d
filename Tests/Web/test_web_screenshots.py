"""The daily page and a movie's page as a person sees them, against goldens in Tests/Web/golden: at 390 px (a phone) and 1280 px (a
laptop) in the light scheme, and at 390 px in the dark one, each the whole page (web_testing.compare_with_golden:
a pixel counts as different past 32 in a channel; more than 0.5 % of them, or a size off by more than 4 px, fails, and
leaves the actual screenshot and a diff under .build/web-failures). BOXOFFICE_UPDATE_GOLDENS=1 rewrites the goldens:
look at them before committing."""
import pytest

from web_testing import compare_with_golden, problems


SHOTS = [
    ("daily-list-390", ("daily",), 390, False),
    ("daily-list-1280", ("daily",), 1280, False),
    ("daily-grid-1280", ("daily", "--layout", "grid"), 1280, False),
    ("daily-list-390-dark", ("daily",), 390, True),
    # The movie page: its poster's place above the fields on a phone and beside them on a laptop (a list rule once
    # put it in a grid area the movie page does not have, one letter a line at 390 px).
    ("movie-390", ("movie", "20124079"), 390, False),
    ("movie-1280", ("movie", "20124079"), 1280, False),
]


@pytest.mark.parametrize("name, arguments, width, dark", SHOTS, ids=[shot[0] for shot in SHOTS])
def test_the_daily_page_looks_as_its_golden(name, arguments, width, dark, browser, page):
    browser.load(page(*arguments), width=width, dark=dark)
    compare_with_golden(name, browser.screenshot(width))
    assert problems(browser.console()) == []
