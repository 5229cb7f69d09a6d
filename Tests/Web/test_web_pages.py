"""The pages of `--format html` (issue 30) in headless Chromium: the contract of the head and the screen, every entry
of the --format json answer shown as it says, a clean console, the layout switch that needs no script, no horizontal
overflow on a 390 px phone, and text readable against its background in light and dark."""
import pytest
from PIL import ImageStat

from web_testing import check_entries, check_page_contract, image, low_contrast, problems

BOX_OFFICES = [("daily",), ("daily", "2023-04-23"), ("weekly",)]


@pytest.mark.parametrize("arguments", BOX_OFFICES, ids=" ".join)
def test_a_box_office_page_shows_every_entry_of_the_json_answer_and_logs_nothing(arguments, browser, page, answer):
    browser.load(page(*arguments))
    check_page_contract(browser, "boxoffice")
    check_entries(browser, answer(*arguments))
    assert problems(browser.console()) == []


def test_the_posters_asked_for_are_there_or_stand_in_as_placeholders(browser, page, answer):
    # Offline, the recorded Kakao answers find no poster: every entry has its placeholder box, and nothing is
    # fetched (check_page_contract: every src is a data: URI).
    browser.load(page("daily", "--with-posters"))
    check_page_contract(browser, "boxoffice")
    check_entries(browser, answer("daily", "--with-posters"))
    assert problems(browser.console()) == []


LAYOUT = """
    const checked = [...document.querySelectorAll('input[type=radio][name=layout]')]
        .filter(input => input.checked).map(input => input.id);
    const boxes = [...document.querySelectorAll('ol.entries > li.entry')].slice(0, 2)
        .map(entry => entry.getBoundingClientRect()).map(box => ({top: box.top, left: box.left}));
    const labels = [...document.querySelectorAll('label[for^="layout-"]')].map(label => label.htmlFor);
    return {checked, boxes, labels};
"""


@pytest.mark.parametrize("layout", ["list", "grid"])
def test_layout_checks_its_radio_and_the_labels_switch_without_script(layout, browser, page):
    other = "grid" if layout == "list" else "list"
    browser.load(page("daily", "--layout", layout), width=1280)
    before = browser.script(LAYOUT)
    assert before["checked"] == ["layout-" + layout], before
    assert sorted(before["labels"]) == ["layout-grid", "layout-list"], before
    browser.driver.find_element("css selector", 'label[for="layout-%s"]' % other).click()
    browser.settle()
    after = browser.script(LAYOUT)
    assert after["checked"] == ["layout-" + other], after
    # At 1280 px the list stacks the entries and the grid puts the first two side by side.
    by_layout = {layout: before["boxes"], other: after["boxes"]}
    assert by_layout["list"][1]["top"] > by_layout["list"][0]["top"], by_layout
    assert by_layout["grid"][1]["top"] == by_layout["grid"][0]["top"], by_layout
    assert by_layout["grid"][1]["left"] > by_layout["grid"][0]["left"], by_layout
    assert problems(browser.console()) == []


OVERFLOWING = """
    // The elements reaching past the viewport, and those whose content spills out of them (a long unbroken line).
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')].filter(element => {
        const box = element.getBoundingClientRect();
        const spills = element.scrollWidth > element.clientWidth + 1
            && getComputedStyle(element).overflowX === 'visible';
        return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5 || spills);
    }).slice(0, 5).map(element => element.outerHTML.slice(0, 120));
"""


PAGES = [("daily",), ("weekly",), ("movie", "20198482"), ("search", "범죄와의 전쟁")]


@pytest.mark.parametrize("arguments", PAGES, ids=" ".join)
def test_nothing_overflows_a_390_px_phone_in_either_layout(arguments, browser, page):
    browser.load(page(*arguments), width=390)
    layouts = ["layout-list", "layout-grid"] if arguments[0] in ("daily", "weekly") else [None]
    for layout in layouts:
        if layout:
            browser.driver.find_element("css selector", 'label[for="%s"]' % layout).click()
            assert browser.script("return document.getElementById(arguments[0]).checked", layout)
        width = browser.scroll_width(390)
        assert width <= 390, "%s: %d px wide at 390 px; overflowing: %s" % (layout or arguments[0], width,
                                                                          browser.script(OVERFLOWING))
    assert problems(browser.console()) == []


@pytest.mark.parametrize("arguments, screen, heading", [
    (("movie", "20198482"), "movie", "드림"),
    (("search", "범죄와의 전쟁"), "search", None),
], ids=["movie", "search"])
def test_the_movie_and_search_pages_load_cleanly_with_their_heading(arguments, screen, heading, browser, page):
    browser.load(page(*arguments))
    facts = check_page_contract(browser, screen)
    if heading:
        assert heading in facts["heading"], facts
    assert problems(browser.console()) == []


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("arguments", [("daily",), ("daily", "--layout", "grid"), ("movie", "20198482"),
                                       ("search", "범죄와의 전쟁")], ids=" ".join)
def test_text_is_readable_against_its_background_in_light_and_dark(arguments, dark, browser, page):
    """WCAG AA (web_testing.low_contrast) for every text the page shows; and dark really is dark: the page is drawn
    mostly in dark pixels (and light mostly in light ones)."""
    browser.load(page(*arguments), dark=dark)
    poor = low_contrast(browser)
    assert not poor, "too little contrast:\n" + "\n".join(poor)
    assert browser.script("return matchMedia('(prefers-color-scheme: dark)').matches") == dark
    # The page as drawn: mostly dark pixels in dark, mostly light ones in light.
    mean = sum(ImageStat.Stat(image(browser.screenshot(390)).convert("L")).mean)
    assert (mean < 128) == dark, "mean lightness %.0f of 255 in %s" % (mean, "dark" if dark else "light")
