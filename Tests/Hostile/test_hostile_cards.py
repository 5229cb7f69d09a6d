"""PNG cards made from hostile upstream text (issue 39): `daily --format png` (list, and the grid with the posters,
whose addresses some rows change), `movie --format png` and a film's `run` and `compare` exit 0 with a PNG for every
row: a control character, an emoji no font has or a 10 KB title is drawn as a stand-in or cut (a note on stderr may
say so), not refused. Skipped
when the machine cannot draw a card at all (cairo, Pango or a Hangul font missing)."""
import functools
import io
import os
import subprocess

import pytest
from PIL import Image

import hostile
from hostile_testing import BINARY, COMPARE, DAY, MOVIE, RUN, assert_terminal_safe

CARDS = {
    "daily": ["daily", DAY, "--format", "png"],
    "daily-grid-with-posters": ["daily", DAY, "--format", "png", "--layout", "grid", "--with-posters"],
    "movie": ["movie", MOVIE, "--format", "png"],
    "run": RUN + ["--format", "png"],
    "compare": COMPARE + ["--format", "png"],
}


@functools.lru_cache(maxsize=None)
def why_no_card_can_be_drawn():
    """An offline card of the recorded day: when even that fails, the machine lacks what cards need (why), else
    None."""
    environment = dict(os.environ, BOXOFFICE_TODAY="2026-11-21", KOBIS_API_KEY="", KAKAO_REST_API_KEY="")
    result = subprocess.run([BINARY, "daily", DAY, "--format", "png"], capture_output=True, env=environment,
                            timeout=60)
    if result.returncode != 0:
        return result.stderr.decode("utf-8", "replace").strip()
    return None


@pytest.fixture(scope="module", autouse=True)
def cards_can_be_drawn():
    if why_no_card_can_be_drawn():
        pytest.skip("no card can be drawn here: %s" % why_no_card_can_be_drawn())


# The list, the movie's and the runs' cards for the rows of text, the grid with the posters for the rows about
# their addresses.
CASES = [(name, card) for name in hostile.RENDER_ROWS for card in CARDS
         if (card == "daily-grid-with-posters") == (name in hostile.POSTER_ROWS)]


@pytest.mark.parametrize("name,card", CASES, ids=["%s-%s" % case for case in CASES])
def test_card_is_drawn_with_stand_ins_not_refused(upstreams, name, card):
    result = upstreams(name).run(*CARDS[card])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    assert result.stdout.startswith(b"\x89PNG\r\n\x1a\n"), result.stdout[:16]
    image = Image.open(io.BytesIO(result.stdout))
    image.verify()
    assert_terminal_safe(result.stderr, "stderr")


def ahead(upstreams, terminal):
    if why_no_card_can_be_drawn():
        return
    for name, card in CASES:
        upstreams(name).run(*CARDS[card], wait=False)
