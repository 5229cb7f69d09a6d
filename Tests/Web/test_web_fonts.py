"""No tofu: the Korean text of a page is drawn with glyphs of a font that has Hangul, not with the boxes a browser
draws for characters no font covers.

How tofu is told apart from text. A character that no font covers is drawn as the fallback font's .notdef glyph: one
and the same box whatever the character. A font that covers Hangul draws different syllables differently. So, for
each title (and the heading), the test sets the element's text to one of its syllables at a time, keeping the
element's style, size and place, and screenshots the element: two different syllables drawn as the same pixels are
boxes.

The detector is itself checked in the same run, against a render known to be tofu: a second Chromium started with
FONTCONFIG_FILE naming a generated fonts.conf that knows only DejaVu (no CJK font directory, none of the system's
configuration), and DejaVu has no Hangul. There, the same syllables must come out as identical pixels (else this way
of looking proves nothing on this machine, and the test says so), and the whole first title must look different
from the normal render's. Together: the normal render differs from the known tofu, and within it different
syllables look different."""
import subprocess

import pytest

import browser as browser_module
from web_testing import image, problems

# Each title's distinct Hangul syllables, taken in order, at most this many (the pairs grow as its square).
SYLLABLES = 4
TEXTS = "main h1, ol.entries > li.entry .title"


def hangul(text):
    seen = []
    for character in text:
        if "\uac00" <= character <= "\ud7a3" and character not in seen:
            seen.append(character)
    return seen


def syllable_shots(session, element, syllables):
    """Screenshots of `element` with its text set to each of `syllables` in turn (then restored)."""
    original = session.script("return arguments[0].textContent", element)
    shots = []
    try:
        for syllable in syllables:
            session.script("arguments[0].textContent = arguments[1]", element, syllable)
            session.settle()
            shots.append(image(session.element_screenshot(element=element)))
    finally:
        session.script("arguments[0].textContent = arguments[1]", element, original)
    return shots


def same(first, second):
    return first.size == second.size and first.tobytes() == second.tobytes()


@pytest.fixture(scope="module")
def tofu_browser(tmp_path_factory):
    """A Chromium whose fontconfig knows DejaVu only: every Hangul syllable is tofu there."""
    missing = browser_module.available()
    if missing:
        pytest.fail(missing)
    conf = browser_module.dejavu_only_fontconfig(tmp_path_factory.mktemp("fontconfig"))
    listed = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True, env={"FONTCONFIG_FILE": conf})
    assert listed.stdout.strip() == "", "the DejaVu-only configuration still finds a Korean font: %s" % listed.stdout
    session = browser_module.Browser({"FONTCONFIG_FILE": conf})
    yield session
    session.close()


def test_a_korean_font_is_installed():
    listed = subprocess.run(["fc-list", ":lang=ko"], capture_output=True, text=True)
    assert listed.stdout.strip(), "no font covers Korean (bash scripts/setup cjkfont)"


def test_every_korean_text_is_drawn_with_glyphs_not_boxes(browser, page):
    browser.load(page("daily"), width=1280)
    elements = browser.driver.find_elements("css selector", TEXTS)
    assert len(elements) > 1, "no heading or titles (%s)" % TEXTS
    boxed = []
    for element in elements:
        text = browser.script("return arguments[0].textContent", element)
        syllables = hangul(text)[:SYLLABLES]
        if len(syllables) < 2:
            syllables = (syllables + [s for s in "가한" if s not in syllables])[:2]
        shots = syllable_shots(browser, element, syllables)
        for first in range(len(shots)):
            for second in range(first + 1, len(shots)):
                if same(shots[first], shots[second]):
                    boxed.append("%r: %s and %s look the same" % (text, syllables[first], syllables[second]))
    assert boxed == [], boxed
    assert problems(browser.console()) == []


def test_the_detector_sees_tofu_where_no_font_has_hangul(browser, tofu_browser, page):
    path = page("daily")
    tofu_browser.load(path, width=1280)
    element = tofu_browser.driver.find_element("css selector", "ol.entries > li.entry .title")
    title = tofu_browser.script("return arguments[0].textContent", element)
    syllables = (hangul(title) + [s for s in "가한" if s not in title])[:SYLLABLES]
    shots = syllable_shots(tofu_browser, element, syllables)
    assert all(same(shots[0], shot) for shot in shots[1:]), \
        "without a CJK font %s should all be the same box; the no-tofu check cannot tell here" % syllables
    tofu_title = image(tofu_browser.element_screenshot("ol.entries > li.entry .title"))
    browser.load(path, width=1280)
    normal_title = image(browser.element_screenshot("ol.entries > li.entry .title"))
    assert not same(tofu_title, normal_title), "the title looks the same with and without the CJK fonts"
