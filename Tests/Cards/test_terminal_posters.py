"""`--layout grid --images`: each card's downloaded poster drawn by the terminal, read back from what the worker
wrote to a pseudo-terminal. Sixels are decoded with libsixel's sixel2png and kitty's pictures from their base64;
each picture's size is checked against the cell size the terminal reported, and its place against its card's
column and the lines the posters take above the cards. Into a pipe, and with --images never, the grid stays text.
"""
import base64
import fcntl
import io
import os
import pathlib
import pty
import re
import select
import struct
import subprocess
import sys
import termios

import pytest
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
COLUMNS, LINES = 130, 50
CELL = (9, 18)
POSTER_COLOUR = (0xC8, 0x32, 0x32)
# A card is 24 columns wide and one apart; a poster 12 lines high, 2:3, centred.
CARD, POSTER_LINES = 24, 12
POSTER_HEIGHT = POSTER_LINES * CELL[1]
POSTER_WIDTH = (POSTER_HEIGHT * 2 + 1) // 3
POSTER_COLUMNS = -(-POSTER_WIDTH // CELL[0])
OFFSET = (CARD - POSTER_COLUMNS) // 2


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    folder = tmp_path_factory.mktemp("posters")
    poster = folder / "poster.jpg"
    Image.new("RGB", (300, 450), POSTER_COLOUR).save(poster, quality=95)
    upstream = fake_upstream.Running(delay_ms=1, poster=poster)
    yield {
        "KOBIS_API_KEY": "test-kobis-key", "KAKAO_REST_API_KEY": "test-kakao-key",
        "KOBIS_BASE_URL": upstream.base + "/kobis", "KAKAO_BASE_URL": upstream.base + "/kakao",
        "BOXOFFICE_CACHE_DIR": str(folder / "cache"), "BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS": "1",
        "BOXOFFICE_TODAY": "2026-11-21", "TERM": "xterm-256color",
    }
    upstream.stop()


def on_terminal(arguments, env):
    """Runs the worker with stdout on a pseudo-terminal of COLUMNS x LINES cells of CELL pixels (stdin not a
    terminal: nothing is asked of it); everything it wrote there, and its exit code."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ,
                struct.pack("HHHH", LINES, COLUMNS, COLUMNS * CELL[0], LINES * CELL[1]))
    # No newline translation: the bytes as the worker wrote them.
    attributes = termios.tcgetattr(terminal)
    attributes[1] &= ~termios.OPOST
    termios.tcsetattr(terminal, termios.TCSANOW, attributes)
    process = subprocess.Popen([BINARY, *arguments], stdin=subprocess.DEVNULL, stdout=terminal,
                               stderr=subprocess.PIPE, env=dict(os.environ, **env))
    os.close(terminal)
    written = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        assert ready, "the worker wrote nothing for 60 s"
        try:
            chunk = os.read(controller, 65536)
        except OSError:
            break
        if not chunk:
            break
        written += chunk
    os.close(controller)
    assert process.wait(timeout=60) == 0, process.stderr.read().decode()
    return written.decode(), process.stderr.read().decode()


def pictures(written, protocol):
    """Each picture with the column it was drawn at (the `CSI n G` before it) and the line it starts on, counted
    from the grid's first line, following the cursor as the worker moves it."""
    found, line = [], 0
    token = re.compile(r"\x1b7\x1b\[(\d+)G(\x1bP.*?\x1b\\|(?:\x1b_G.*?\x1b\\)+)\x1b8|\x1b\[(\d+)([AB])|\n", re.S)
    for match in token.finditer(written):
        if match.group(0) == "\n":
            line += 1
        elif match.group(3):
            line += int(match.group(3)) * (-1 if match.group(4) == "A" else 1)
        else:
            found.append({"column": int(match.group(1)), "line": line, "data": match.group(2)})
    return found


def sixel_size(data, folder, index):
    source = folder / ("picture-%d.six" % index)
    target = folder / ("picture-%d.png" % index)
    source.write_bytes(data.encode())
    subprocess.run(["sixel2png", "-i", str(source), "-o", str(target)], check=True, timeout=30)
    with Image.open(target) as image:
        rgb = image.convert("RGB")
        return rgb.size, rgb.getpixel((rgb.width // 2, rgb.height // 2))


def test_sixel_posters_are_drawn_in_their_cards(live, tmp_path):
    written, _ = on_terminal(["daily", "2023-04-26", "--layout", "grid", "--images", "sixel", "--color", "never"],
                             live)
    drawn = pictures(written, "sixel")
    assert len(drawn) == 10, written[:400]
    # 130 columns hold five cards a row: two rows, each under its own posters.
    for index, picture in enumerate(drawn):
        assert picture["column"] == 1 + (index % 5) * (CARD + 1) + OFFSET, (index, picture["column"])
        size, centre = sixel_size(picture["data"], tmp_path, index)
        assert size == (POSTER_WIDTH, POSTER_HEIGHT), (index, size)
        # The cube's nearest colour to the poster's.
        assert all(abs(a - b) <= 26 for a, b in zip(centre, POSTER_COLOUR)), (index, centre)
    first_row = {picture["line"] for picture in drawn[:5]}
    second_row = {picture["line"] for picture in drawn[5:]}
    assert len(first_row) == 1 and len(second_row) == 1
    # Below the first row's posters: the six lines of its cards, then the second row's posters.
    assert second_row.pop() - first_row.pop() == POSTER_LINES + 6
    text = re.sub(r"\x1bP.*?\x1b\\", "", written, flags=re.S)
    assert text.count("┌") == 10 and "#10" in text


def test_kitty_posters_carry_their_pixels_and_cells(live):
    written, _ = on_terminal(["daily", "2023-04-26", "--layout", "grid", "--images", "kitty", "--color", "never"],
                             live)
    drawn = pictures(written, "kitty")
    assert len(drawn) == 10
    for index, picture in enumerate(drawn):
        assert picture["column"] == 1 + (index % 5) * (CARD + 1) + OFFSET
        chunks = re.findall(r"\x1b_G([^;]*);(.*?)\x1b\\", picture["data"], re.S)
        control = dict(item.split("=") for item in chunks[0][0].split(","))
        assert control["a"] == "T" and control["f"] == "100" and control["C"] == "1"
        assert (int(control["c"]), int(control["r"])) == (POSTER_COLUMNS, POSTER_LINES)
        # Every chunk but the last says more follow; each at most 4,096 bytes.
        assert [dict(item.split("=") for item in c.split(","))["m"] for c, _ in chunks] == \
            ["1"] * (len(chunks) - 1) + ["0"]
        assert all(len(payload) <= 4096 for _, payload in chunks)
        with Image.open(io.BytesIO(base64.b64decode("".join(payload for _, payload in chunks)))) as picture:
            assert picture.format == "PNG" and picture.size == (POSTER_WIDTH, POSTER_HEIGHT)
            centre = picture.convert("RGB").getpixel((POSTER_WIDTH // 2, POSTER_HEIGHT // 2))
        assert all(abs(a - b) <= 12 for a, b in zip(centre, POSTER_COLOUR)), centre


def test_never_into_a_pipe_and_not_with_never(live):
    piped = subprocess.run([BINARY, "daily", "2023-04-26", "--layout", "grid", "--images", "sixel"],
                           capture_output=True, text=True, env=dict(os.environ, **live), timeout=60)
    assert piped.returncode == 0 and "\x1bP" not in piped.stdout and "┌" in piped.stdout
    assert "--images sixel: the posters are not drawn (stdout is not a terminal)" in piped.stderr
    written, _ = on_terminal(["daily", "2023-04-26", "--layout", "grid", "--images", "never"], live)
    assert "\x1bP" not in written and "\x1b_G" not in written and written.count("┌") == 10


def test_auto_draws_with_kitty_only_where_the_terminal_says_it_is_kitty(live):
    written, _ = on_terminal(["daily", "2023-04-26", "--layout", "grid"], dict(live, TERM="xterm-kitty"))
    assert len(pictures(written, "kitty")) == 10
    written, _ = on_terminal(["daily", "2023-04-26", "--layout", "grid"], live)
    assert "\x1b_G" not in written and "\x1bP" not in written


def test_offline_an_explicit_protocol_says_why_the_grid_is_text():
    written, stderr = on_terminal(["daily", "2023-04-26", "--layout", "grid", "--images", "sixel"],
                                  {"BOXOFFICE_TODAY": "2026-11-21", "KOBIS_API_KEY": "", "KAKAO_REST_API_KEY": ""})
    assert "\x1bP" not in written and written.count("┌") == 10
    assert "--images sixel: the posters are not drawn (posters are drawn from downloads, and offline mode" in stderr
