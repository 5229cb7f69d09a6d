"""The pages of `--format html` (issue 30) in headless Chromium: the contract of the head and the screen, every entry
of the --format json answer shown as it says, a clean console, the layout switch that needs no script, no horizontal
overflow on a 390 px phone, and text readable against its background in light and dark."""
import pytest
from PIL import Image, ImageChops, ImageStat

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


PAGES = [("daily",), ("weekly",), ("movie", "20198482"), ("search", "범죄와의 전쟁"), ("run", "파묘"),
         ("compare", "파묘", "범죄도시4")]


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
                                       ("search", "범죄와의 전쟁"), ("run", "파묘"), ("compare", "파묘", "범죄도시4")],
                         ids=" ".join)
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


# --- A film's run and runs compared (`run`, `compare`): a page of their own with an inline SVG chart -------------

RUNS = {"run": ("run", "파묘"), "compare": ("compare", "파묘", "범죄도시4")}
# Each film's colour on the chart (RunSVG.colours, in order).
SERIES_COLOURS = [(0xD6, 0x33, 0x6C), (0x1C, 0x7E, 0xD6)]

CHART = """
    const svg = document.querySelector('main figure.chart > svg');
    if (!svg) return null;
    const view = svg.viewBox.baseVal;
    return {
        view: {left: view.x, top: view.y, right: view.x + view.width, bottom: view.y + view.height},
        label: svg.getAttribute('aria-label'),
        series: [...svg.querySelectorAll('g.series')].map(group => ({
            title: group.querySelector(':scope > title') ? group.querySelector(':scope > title').textContent : null,
            stroke: group.getAttribute('stroke'),
            lines: [...group.querySelectorAll('polyline')].map(line => line.points.numberOfItems),
            dots: [...group.querySelectorAll(':scope > circle')].map(dot =>
                dot.querySelector('title') ? dot.querySelector('title').textContent : null),
        })),
        labels: [...svg.querySelectorAll('text')].map(text => {
            const box = text.getBBox();
            return {text: text.textContent, left: box.x, right: box.x + box.width, top: box.y,
                    bottom: box.y + box.height};
        }),
        caption: svg.parentElement.querySelector('figcaption')
            ? svg.parentElement.querySelector('figcaption').textContent.trim() : null,
    };
"""


def stretches(listed):
    """The lengths of the stretches of days in a row that are listed (`listed`: one bool a day, in order)."""
    found, length = [], 0
    for day in listed + [False]:
        if day:
            length += 1
        elif length:
            found.append(length)
            length = 0
    return found


def expected_lines(command, answer):
    """Per film, the points of each line the chart draws from the --format json answer: one a stretch of listed
    days (a day in no list breaks the line, never bridged; a stretch of one day is a dot, not a line)."""
    if command == "run":
        films = [[("audienceTotal" in day) for day in answer["days"]]]
    else:
        # A day of the comparison is null for a film outside its run, and says why a day within it has no figures.
        films = [[day["films"][index] is not None and "audienceTotal" in day["films"][index] for day in answer["days"]]
                 for index in range(len(answer["films"]))]
    return [[length for length in stretches(listed) if length > 1] for listed in films]


@pytest.mark.parametrize("command", sorted(RUNS))
def test_a_run_page_loads_without_script_and_draws_each_films_line(command, browser, page, answer):
    arguments = RUNS[command]
    titles = list(arguments[1:])
    browser.load(page(*arguments))
    facts = check_page_contract(browser, command)
    assert all(title in facts["heading"] and title in facts["title"] for title in titles), facts
    chart = browser.script(CHART)
    assert chart is not None, "no inline SVG chart in the page"
    assert chart["label"], chart
    # One group a film, in the order asked, each titled with the film and drawn with its lines.
    assert [series["title"] for series in chart["series"]] == titles, chart["series"]
    assert [series["lines"] for series in chart["series"]] == expected_lines(command, answer(*arguments)), \
        chart["series"]
    assert len({series["stroke"] for series in chart["series"]}) == len(titles)
    assert all(title in chart["caption"] for title in titles), chart["caption"]
    # Each film's millions are dots with a tooltip: 파묘's 1,000만 on day 32, 범죄도시4's on day 22.
    dots = {series["title"]: series["dots"] for series in chart["series"]}
    assert "파묘: 1,000만 on day 32 (2024-03-24)" in dots["파묘"], dots
    if command == "compare":
        assert "범죄도시4: 1,000만 on day 22 (2024-05-15)" in dots["범죄도시4"], dots
    assert problems(browser.console()) == []


@pytest.mark.parametrize("command", sorted(RUNS))
def test_a_run_charts_labels_are_inside_the_chart_and_apart(command, browser, page):
    """The axis labels (the top total, 0, the first day, day 1, the last day) are drawn whole: inside the SVG's
    viewBox (the SVG clips what is outside it) and none over another."""
    browser.load(page(*RUNS[command]))
    chart = browser.script(CHART)
    view = chart["view"]
    outside = ["%s [%.0f, %.0f]" % (label["text"], label["left"], label["right"]) for label in chart["labels"]
               if label["left"] < view["left"] or label["right"] > view["right"]
               or label["top"] < view["top"] or label["bottom"] > view["bottom"]]
    labels = chart["labels"]
    overlapping = ["%s / %s" % (first["text"], second["text"]) for index, first in enumerate(labels)
                   for second in labels[index + 1:]
                   if first["left"] < second["right"] and second["left"] < first["right"]
                   and first["top"] < second["bottom"] and second["top"] < first["bottom"]]
    assert (outside, overlapping) == ([], []), "cut by the viewBox %s, over one another %s (viewBox %s)" % (
        outside, overlapping, view)


def drawn(picture, colour, tolerance=40):
    """How many pixels of `picture` are within `tolerance` of `colour` in every channel."""
    bands = ImageChops.difference(picture, Image.new("RGB", picture.size, colour)).split()
    largest = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return sum(largest.histogram()[:tolerance + 1])


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("command", sorted(RUNS))
def test_a_run_chart_is_drawn_in_each_films_colour(command, dark, browser, page):
    """The chart as drawn, not only as markup: a screenshot of the SVG at 1280 px has each film's colour in it (its
    line and its dots), in light and in dark."""
    browser.load(page(*RUNS[command]), width=1280, dark=dark)
    picture = image(browser.element_screenshot("main figure.chart > svg"))
    assert picture.width > 200 and picture.height > 80, picture.size
    films = len(RUNS[command]) - 1
    counts = [drawn(picture, colour) for colour in SERIES_COLOURS[:films]]
    # A line across the chart and its dots: some 2,600 to 3,200 pixels a film; none when nothing is drawn.
    assert all(count > 1000 for count in counts), counts
    assert problems(browser.console()) == []
