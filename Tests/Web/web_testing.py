"""Shared helpers of the HTML pages' tests: running the worker binary for a page, what a page promises (issue 30's
contract), and comparing screenshots with the goldens."""
import io
import json
import os
import pathlib
import subprocess
import sys

from PIL import Image, ImageChops

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
FAILURES = ROOT / ".build" / "web-failures"
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
OFFLINE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}

# A pixel differs when one of its channels differs by more than this; a screenshot differs from its golden when more
# than this share of its pixels differ (anti-aliasing and hinting move a few edges between machines) or when its size
# differs by more than SIZE_SLACK pixels either way.
CHANNEL_TOLERANCE = 32
PIXEL_SHARE = 0.005
SIZE_SLACK = 4


def run(arguments, env=None, check=True):
    """Runs the binary offline (plus `env`); the completed process (checked for exit 0 unless told not to)."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment.update(OFFLINE)
    environment.update(env or {})
    result = subprocess.run([BINARY, *arguments], capture_output=True, text=True, env=environment, timeout=120)
    if check:
        assert result.returncode == 0, "%s exited %d: %s" % (" ".join(arguments), result.returncode, result.stderr)
    return result


def result_json(arguments, env=None):
    """The worker's --format json answer for `arguments`."""
    return json.loads(run([*arguments, "--format", "json"], env=env).stdout)


def write_page(arguments, path, env=None):
    """Writes the --format html page of `arguments` (printed on stdout) to `path`; returns its text."""
    text = run([*arguments, "--format", "html"], env=env).stdout
    pathlib.Path(path).write_text(text, encoding="utf-8")
    return text


def problems(messages):
    """The console messages at WARNING or above, as readable lines."""
    return ["%s %s" % (message.get("level"), message.get("message")) for message in messages
            if message.get("level") in ("WARNING", "SEVERE")]


# Read from the loaded page: the parts of the contract every page keeps (head, one main screen with a heading, no
# script, nothing fetched from elsewhere).
PAGE_FACTS = """
    const meta = name => document.querySelector('meta[name="' + name + '"]');
    return {
        doctype: document.doctype && document.doctype.name,
        compatMode: document.compatMode,
        lang: document.documentElement.getAttribute('lang'),
        charset: document.characterSet,
        metaCharset: !!document.querySelector('meta[charset]') &&
            document.querySelector('meta[charset]').getAttribute('charset').toLowerCase(),
        viewport: meta('viewport') && meta('viewport').getAttribute('content'),
        title: document.title,
        mains: [...document.querySelectorAll('main')].map(main => main.className),
        heading: document.querySelector('main h1') && document.querySelector('main h1').textContent.trim(),
        scripts: document.querySelectorAll('script').length,
        stylesheets: document.querySelectorAll('link[rel~="stylesheet"]').length,
        styles: document.querySelectorAll('style').length,
        external: [...document.querySelectorAll('[src], link[href]')]
            .map(element => element.getAttribute('src') || element.getAttribute('href'))
            .filter(address => !address.startsWith('data:')),
    };
"""


def check_page_contract(browser, screen):
    """Asserts the head and the main screen (`screen`: boxoffice, movie or search; None for any) of the loaded page;
    returns its facts."""
    facts = browser.script(PAGE_FACTS)
    assert facts["doctype"] == "html" and facts["compatMode"] == "CSS1Compat", facts
    assert facts["lang"] == "ko", facts
    assert facts["charset"] == "UTF-8" and facts["metaCharset"] == "utf-8", facts
    assert facts["viewport"] is not None and [part.strip() for part in facts["viewport"].split(",")] == \
        ["width=device-width", "initial-scale=1"], facts
    assert facts["title"].strip(), facts
    assert len(facts["mains"]) == 1 and set(facts["mains"][0].split()) >= {"screen", screen or "screen"}, facts
    assert facts["heading"], facts
    assert facts["scripts"] == 0, "the page has no script"
    assert facts["stylesheets"] == 0 and facts["styles"] >= 1, "the CSS is inline"
    assert facts["external"] == [], "the page fetches nothing: %s" % facts["external"]
    return facts


# Read from the loaded page: each entry of `ol.entries`, in document order.
ENTRIES = """
    const text = (entry, selector) => {
        const found = entry.querySelector(selector);
        return found ? found.textContent.trim() : null;
    };
    return [...document.querySelectorAll('ol.entries > li.entry')].map(entry => ({
        rank: entry.dataset.rank,
        code: entry.dataset.movieCode,
        title: text(entry, '.title'),
        change: text(entry, '.change'),
        changeClass: entry.querySelector('.change') ? [...entry.querySelector('.change').classList] : [],
        audience: text(entry, '.audience'),
        poster: !!entry.querySelector('img.poster'),
        posterLoaded: [...entry.querySelectorAll('img.poster')]
            .every(image => image.complete && image.naturalWidth > 0),
        placeholder: !!entry.querySelector('.poster.placeholder'),
    }));
"""

CHANGE_CLASS = {"new": "new", "up": "up", "down": "down", "same": "same"}


def expected_entry(entry):
    """What the page shows for one entry of the --format json answer."""
    trend = entry["trend"]
    change = entry["display"]["rankChange"]
    # The JSON already says 신작, ▲n, ▼n and "-"; the contract's signs, checked here rather than trusted.
    sign = {"new": "신작", "up": "▲%d" % abs(entry["rankChange"]), "down": "▼%d" % abs(entry["rankChange"]),
            "same": "-"}[trend]
    assert change == sign, entry
    return {"rank": str(entry["rank"]), "code": entry["movieCode"], "title": entry["title"], "change": sign,
            "trend": CHANGE_CLASS[trend], "audience": "{:,}".format(entry["audience"]["count"])}


def check_entries(browser, result):
    """Asserts that the loaded page lists every entry of `result` (a --format json box office), in rank order."""
    shown = browser.script(ENTRIES)
    expected = [expected_entry(entry) for entry in result["entries"]]
    assert len(shown) == len(expected), "%d entries shown, %d in the JSON" % (len(shown), len(expected))
    for seen, wanted in zip(shown, expected):
        where = "entry %s (%s)" % (wanted["rank"], wanted["title"])
        assert (seen["rank"], seen["code"], seen["title"]) == (wanted["rank"], wanted["code"], wanted["title"]), \
            (where, seen)
        assert seen["change"] == wanted["change"], (where, seen)
        assert "change" in seen["changeClass"] and wanted["trend"] in seen["changeClass"], (where, seen)
        assert seen["audience"] == wanted["audience"], (where, seen)
        assert seen["poster"] != seen["placeholder"], "%s: a poster or a placeholder, one of them: %s" % (where, seen)
        assert seen["posterLoaded"], "%s: its poster did not load" % where
    return shown


# Every text the page shows (an element with text of its own, drawn, not hidden): its colour's WCAG contrast ratio
# against the first opaque background behind it, its own or an ancestor's (the canvas at the end, white or black by
# the scheme). Large text (24 px, or 18.66 px bold) needs 3:1, the rest 4.5:1 (WCAG 2 AA).
CONTRASTS = """
    const parse = colour => (colour.match(/[\\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => {
        const linear = [r, g, b].map(value => value / 255)
            .map(value => value <= 0.03928 ? value / 12.92 : Math.pow((value + 0.055) / 1.055, 2.4));
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
    };
    const background = element => {
        for (let at = element; at; at = at.parentElement) {
            const colour = parse(getComputedStyle(at).backgroundColor);
            if (colour.length === 3 || colour[3] === 1) return colour.slice(0, 3);
        }
        return matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18] : [255, 255, 255];
    };
    const texts = [...document.querySelectorAll('body *')].filter(element =>
        [...element.childNodes].some(node => node.nodeType === Node.TEXT_NODE && node.textContent.trim())
        && element.getClientRects().length > 0 && getComputedStyle(element).visibility === 'visible');
    return texts.map(element => {
        const style = getComputedStyle(element);
        const [a, b] = [luminance(parse(style.color)), luminance(background(element))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
        return {text: element.textContent.trim().slice(0, 24), tag: element.tagName.toLowerCase(),
                className: element.className, colour: style.color, ratio: Math.round(ratio * 100) / 100,
                needed: large ? 3 : 4.5};
    });
"""


def low_contrast(browser):
    """The texts of the loaded page below WCAG AA contrast (CONTRASTS), one of each colour and class."""
    seen, poor = set(), []
    for text in browser.script(CONTRASTS):
        key = (text["tag"], text["className"], text["colour"])
        if text["ratio"] < text["needed"] and key not in seen:
            seen.add(key)
            poor.append("%s.%s %r: %s, %.2f:1 (needs %g:1)" % (text["tag"], text["className"], text["text"],
                                                                text["colour"], text["ratio"], text["needed"]))
    return poor


def image(png):
    return Image.open(io.BytesIO(png)).convert("RGB")


def differing_pixels(first, second):
    """How many pixels of the common area differ by more than CHANNEL_TOLERANCE in a channel, and a mask of them."""
    width, height = min(first.width, second.width), min(first.height, second.height)
    box = (0, 0, width, height)
    bands = ImageChops.difference(first.crop(box), second.crop(box)).split()
    largest = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    mask = largest.point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0)
    return mask.histogram()[255], mask


def compare_with_golden(name, png):
    """Compares the screenshot `png` with Tests/Web/golden/NAME.png; BOXOFFICE_UPDATE_GOLDENS=1 rewrites the golden
    instead. On a difference it writes NAME-actual.png and NAME-diff.png (differing pixels in red over the golden,
    faded) under .build/web-failures and fails."""
    golden = GOLDEN / (name + ".png")
    actual = image(png)
    if os.environ.get("BOXOFFICE_UPDATE_GOLDENS") == "1":
        GOLDEN.mkdir(exist_ok=True)
        actual.save(golden, optimize=True)
        return
    FAILURES.mkdir(parents=True, exist_ok=True)
    actual_path = FAILURES / (name + "-actual.png")
    if not golden.exists():
        actual.save(actual_path)
        raise AssertionError("no golden %s (actual in %s; BOXOFFICE_UPDATE_GOLDENS=1 writes it)" % (golden,
                                                                                                  actual_path))
    expected = Image.open(golden).convert("RGB")
    if abs(actual.width - expected.width) > SIZE_SLACK or abs(actual.height - expected.height) > SIZE_SLACK:
        actual.save(actual_path)
        raise AssertionError("%s is %dx%d, its golden %dx%d (actual in %s)" % (
            name, actual.width, actual.height, expected.width, expected.height, actual_path))
    count, mask = differing_pixels(actual, expected)
    share = count / float(min(actual.width, expected.width) * min(actual.height, expected.height))
    if share > PIXEL_SHARE:
        actual.save(actual_path)
        faded = Image.blend(expected.crop((0, 0) + mask.size), Image.new("RGB", mask.size, "white"), 0.7)
        faded.paste(Image.new("RGB", mask.size, (255, 0, 0)), (0, 0), mask)
        diff_path = FAILURES / (name + "-diff.png")
        faded.save(diff_path)
        raise AssertionError("%s differs from its golden in %.2f %% of its pixels (over %.1f %%): %s, %s" % (
            name, share * 100, PIXEL_SHARE * 100, actual_path, diff_path))
    for stale in (actual_path, FAILURES / (name + "-diff.png")):
        stale.unlink(missing_ok=True)
