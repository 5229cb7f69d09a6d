"""`--format png`: the cards decoded back with Pillow (their size, a drawn row or tile where each entry is, the
poster's pixels where it was downloaded), compared with goldens with a tolerance, and refused rather than drawn
with boxes when no font has Hangul.

The goldens are the worker's own cards of the recorded days; `BOXOFFICE_UPDATE_GOLDENS=1` writes them again (look
at them before committing). A failed comparison leaves the card and a diff image in .build/cards-failures/.
"""
import io
import json
import os
import resource
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest
from PIL import Image, ImageChops

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
FAILURES = ROOT / ".build" / "cards-failures"
OFFLINE = {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""}
BACKGROUND = (0xF6, 0xF6, 0xF8)
CARD = (0xFF, 0xFF, 0xFF)
PLACEHOLDER = (0xDC, 0xDC, 0xE0)
# The stand-in poster the fake Kakao serves: a picture no card draws by itself.
POSTER_COLOUR = (0x12, 0x9E, 0x5B)


def card(arguments, env=None, check=True):
    environment = dict(os.environ, **OFFLINE)
    environment.update(env or {})
    result = subprocess.run([BINARY, *arguments, "--format", "png"], capture_output=True, env=environment,
                            timeout=60)
    if check:
        assert result.returncode == 0, result.stderr.decode()
        assert result.stdout.startswith(b"\x89PNG\r\n\x1a\n"), result.stdout[:16]
    return result


def decoded(result):
    return Image.open(io.BytesIO(result.stdout)).convert("RGB")


def runs(image, x, colour):
    """The [start, end) rows where column `x` is `colour`, merged across one-pixel gaps."""
    spans, start = [], None
    for y in range(image.height):
        inside = image.getpixel((x, y)) == colour
        if inside and start is None:
            start = y
        elif not inside and start is not None:
            spans.append((start, y))
            start = None
    if start is not None:
        spans.append((start, image.height))
    return [span for span in spans if span[1] - span[0] > 20]


def inked(image, box, darker_than=100):
    """Whether the region has dark pixels (text) in it."""
    region = image.crop(box).convert("L")
    return region.getextrema()[0] < darker_than


def compare(name, image):
    golden = GOLDEN / (name + ".png")
    if os.environ.get("BOXOFFICE_UPDATE_GOLDENS") == "1":
        golden.parent.mkdir(exist_ok=True)
        image.save(golden, optimize=True)
        return
    assert golden.exists(), "no golden for %s (BOXOFFICE_UPDATE_GOLDENS=1 writes it)" % name
    expected = Image.open(golden).convert("RGB")
    assert expected.size == image.size, "%s: %s, golden %s" % (name, image.size, expected.size)
    difference = ImageChops.difference(expected, image).convert("L").point(lambda value: 255 if value > 32 else 0)
    # The histogram's last bin counts the pixels that differ by more than 32 levels.
    changed = difference.histogram()[255]
    share = changed / (image.width * image.height)
    if share > 0.005:
        FAILURES.mkdir(parents=True, exist_ok=True)
        image.save(FAILURES / (name + ".png"))
        difference.save(FAILURES / (name + "-diff.png"))
    assert share <= 0.005, "%s: %.2f%% of the pixels differ from the golden (see %s)" % (name, share * 100, FAILURES)


def test_daily_list_card_has_a_drawn_row_per_entry():
    result = card(["daily", "2023-04-26"])
    image = decoded(result)
    # 720 points wide at 2 pixels a point.
    assert image.width == 1440
    entries = json.loads(subprocess.run([BINARY, "daily", "2023-04-26", "--format", "json"], capture_output=True,
                                        env=dict(os.environ, **OFFLINE), check=True).stdout)["entries"]
    rows = runs(image, 60, CARD)
    assert len(rows) == len(entries) == 10, rows
    for top, bottom in rows:
        # Rank at the left, the title and figures further right: ink in both.
        assert inked(image, (60, top, 160, bottom))
        assert inked(image, (300, top, 1300, bottom))
    compare("daily-2023-04-26-list", image)


def test_daily_grid_card_has_ten_tiles_with_placeholders():
    image = decoded(card(["daily", "2023-04-26", "--layout", "grid"]))
    # Five tiles of 148 points with 12 between and 24 of margin, at 2 pixels a point.
    assert image.width == 2 * (2 * 24 + 5 * 148 + 4 * 12)
    columns = [2 * (24 + index * 160) + 20 for index in range(5)]
    for x in columns:
        placeholders = runs(image, x, PLACEHOLDER)
        assert len(placeholders) == 2, (x, placeholders)
        for top, bottom in placeholders:
            # The poster's stand-in shows the title's first letter, in the dim grey.
            assert inked(image, (x, top, x + 2 * 128, bottom), darker_than=120), (x, top)
    compare("daily-2023-04-26-grid", image)


def test_movie_card_and_search_card():
    movie = decoded(card(["movie", "20124079"]))
    assert movie.width == 1440 and movie.height > 600
    compare("movie-20124079", movie)
    search = decoded(card(["search", "범죄와의", "전쟁"]))
    assert search.width == 1440
    rows = runs(search, 60, CARD)
    assert len(rows) == 5, rows
    # The second movie's figures take two lines (its English title is long): its row grows, nothing is cut.
    heights = [bottom - top for top, bottom in rows]
    assert heights[1] > heights[0] == heights[2], heights


def test_downloaded_posters_are_drawn_in_their_tiles(tmp_path):
    poster = tmp_path / "poster.jpg"
    Image.new("RGB", (200, 300), POSTER_COLOUR).save(poster, quality=95)
    upstream = fake_upstream.Running(delay_ms=1, poster=poster)
    try:
        env = {
            "KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
            "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
            "BOXOFFICE_CACHE_DIR": str(tmp_path / "cache"), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
        }
        image = decoded(card(["daily", "2023-04-26", "--layout", "grid", "--with-posters"], env=env))
        assert upstream.counts()["images"] >= 1
    finally:
        upstream.stop()
    for index in range(10):
        left = 2 * (24 + (index % 5) * 160)
        # Below each poster the tile is white (rank, title, audience); the poster is the 222 pixels above it.
        tiles = runs(image, left + 8, CARD)
        assert len(tiles) == 2, tiles
        middle = tiles[index // 5][0] - 222
        pixel = image.getpixel((left + 148, middle))
        # JPEG: within a few levels of the colour served.
        assert all(abs(a - b) <= 12 for a, b in zip(pixel, POSTER_COLOUR)), (index, pixel)


def png_declaring(width, height):
    """A PNG of a few dozen bytes whose header declares `width` x `height` pixels (its data one empty row)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00"))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("size", [(20000, 6000), (100000, 1)])
def test_a_poster_declaring_a_huge_or_strange_size_is_not_decoded(tmp_path, size):
    """A decompression bomb (an 87-byte PNG asking for 480 MB) or a 100,000:1 strip: refused from its header, the
    tile drawn as a placeholder, the card still made, and the process never near the memory it asked for."""
    poster = tmp_path / "bomb.png"
    poster.write_bytes(png_declaring(*size))
    upstream = fake_upstream.Running(delay_ms=1, poster=poster)
    try:
        env = dict(os.environ, **OFFLINE)
        env.update({
            "KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
            "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
            "BOXOFFICE_CACHE_DIR": str(tmp_path / "cache"), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
        })
        result = subprocess.run([BINARY, "daily", "2023-04-26", "--layout", "grid", "--with-posters", "--format",
                                 "png"], capture_output=True, env=env, timeout=60)
        assert upstream.counts()["images"] >= 1
    finally:
        upstream.stop()
    assert result.returncode == 0, result.stderr.decode()
    image = Image.open(io.BytesIO(result.stdout)).convert("RGB")
    # Every poster place is the placeholder (two rows of five), as when no poster was found.
    for index in range(5):
        assert len(runs(image, 2 * (24 + index * 160) + 20, PLACEHOLDER)) == 2, index
    # The largest any child of these tests reached (none other comes near): decoding would have taken 480 MB.
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_mib < 300, "a card process reached %.0f MiB" % peak_mib


def test_no_font_for_hangul_is_refused_not_drawn_as_boxes(tmp_path):
    """With a fontconfig that knows only DejaVu (no Hangul), the card is refused with the package to install."""
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        "<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>%s</cachedir></fontconfig>" % (tmp_path / "cache"))
    result = card(["daily", "2023-04-26"], env={"FONTCONFIG_FILE": str(config)}, check=False)
    assert result.returncode == 1
    assert result.stdout == b""
    assert b"fonts-noto-cjk" in result.stderr, result.stderr


def test_a_card_is_not_written_to_a_terminal_and_goes_to_out(tmp_path):
    out = tmp_path / "card.png"
    result = subprocess.run([BINARY, "daily", "2023-04-26", "--format", "png", "--out", str(out)],
                            capture_output=True, env=dict(os.environ, **OFFLINE), timeout=60)
    assert result.returncode == 0 and result.stdout == b""
    assert Image.open(out).size[0] == 1440
    # The same card twice: the same bytes.
    assert card(["daily", "2023-04-26"]).stdout == out.read_bytes()


def test_out_names_what_is_wrong_and_writes_through_a_link(tmp_path):
    def out(path):
        return subprocess.run([BINARY, "daily", "2023-04-26", "--format", "png", "--out", path], capture_output=True,
                              text=True, env=dict(os.environ, **OFFLINE), timeout=60)
    folder = out(str(tmp_path))
    assert folder.returncode == 64 and "is a folder" in folder.stderr
    empty = out("")
    assert empty.returncode == 64 and "--out needs a path" in empty.stderr
    missing = out(str(tmp_path / "no-such-folder" / "card.png"))
    assert missing.returncode == 1 and "does not exist" in missing.stderr
    target = tmp_path / "card.png"
    target.write_bytes(b"old")
    link = tmp_path / "latest.png"
    link.symlink_to(target)
    assert out(str(link)).returncode == 0
    assert link.is_symlink() and target.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("sigpipe", ["default", "ignored"])
def test_a_reader_that_goes_away_ends_the_card_as_sigpipe_would_not_in_a_crash(sigpipe):
    """`daily --format png | head -c 8`: the worker ends as `yes | head` does (SIGPIPE, or 141 where a parent
    ignores SIGPIPE and the write fails with EPIPE instead), and says nothing; never a fatal error (132)."""
    import signal
    environment = dict(os.environ, **OFFLINE)
    ignore = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if sigpipe == "ignored" else None
    process = subprocess.Popen([BINARY, "daily", "2023-04-26", "--format", "png"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment, preexec_fn=ignore)
    assert process.stdout.read(8) == b"\x89PNG\r\n\x1a\n"
    process.stdout.close()
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == (-signal.SIGPIPE if sigpipe == "default" else 141), (process.returncode, stderr)
    assert b"Fatal error" not in stderr


# A run's card and runs compared (`run`, `compare`): the heading, the chart in a white box, then the figures.
DIM = (0x6C, 0x6C, 0x70)
SERIES = [(0xD6, 0x33, 0x6C), (0x1C, 0x7E, 0xD6)]


def coloured(image, box, colour, tolerance=24):
    """How many pixels of the region are within `tolerance` of `colour` in every channel."""
    region = image.crop(box)
    bands = ImageChops.difference(region, Image.new("RGB", region.size, colour)).split()
    largest = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return sum(largest.histogram()[:tolerance + 1])


def test_run_card_charts_the_run_in_columns_and_leaves_the_days_in_no_list_empty():
    image = decoded(card(["run", "파묘"]))
    # 720 points wide at 2 pixels a point; the chart (260 points) and 24 fields (the summary, 11 milestones).
    assert image.width == 1440 and 1600 < image.height < 3200, image.size
    [(top, bottom)] = runs(image, 60, CARD)
    assert 500 < bottom - top < 540, (top, bottom)
    chart = (240, top, 1392, bottom)
    # A column a day in the dim grey, the millions marked in the first film's colour.
    assert coloured(image, chart, DIM) > 50000 and coloured(image, chart, SERIES[0]) > 200
    # 파묘's days run from day -1 to day 102 (104 columns over 564 points, from 120 points in, 12 short of the box's
    # edge); days 99 and 100 are in no list: their columns are left empty, the days on either side drawn.
    step = 564 / 104
    base = top / 2 + 12 + 220

    def column(day, above):
        return image.getpixel((round(2 * (120 + (day + 1) * step + (step - 1) / 2)), round(2 * (base - above))))

    for above in (6, 100, 200):
        assert [column(day, above) for day in (98, 99, 100, 101)] == [DIM, CARD, CARD, DIM], above
    assert inked(image, (48, bottom, 1392, image.height))
    compare("run-20234675", image)


def test_compare_card_draws_each_film_in_its_colour():
    image = decoded(card(["compare", "파묘", "범죄도시4"]))
    assert image.width == 1440 and 800 < image.height < 1600, image.size
    [(top, bottom)] = runs(image, 60, CARD)
    chart = (240, top, 1392, bottom)
    counts = [coloured(image, chart, colour) for colour in SERIES]
    assert all(count > 2000 for count in counts), counts
    # Below the chart, each film's row starts with a dot of its colour.
    legend = (48, bottom, 80, image.height)
    assert all(coloured(image, legend, colour) > 50 for colour in SERIES)
    compare("compare-20234675-20228797", image)
