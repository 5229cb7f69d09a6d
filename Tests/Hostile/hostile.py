"""The table of hostile strings (issue 39): what an upstream may send as a title, a name, a code's name, an error's
message or a poster's address, each with a name. The fake upstream (clients/testing/fake_upstream.py --hostile NAME)
loads this file by its path and serves a row's text wherever KOBIS writes text, and its addresses wherever Kakao
writes them; the tests render each row through every output of the worker.

Also here: what the worker is expected to make of a row (the contract the Swift side implements), as functions.
"""
import re

# A family of four: seven code points (four people joined by ZWJ), one grapheme.
FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
# The terminal attack: OSC 52 (writes the clipboard), clear screen, a colour, a C1 CSI (U+009B), BEL, an OSC 8
# hyperlink.
TERMINAL = ("\x1b]52;c;cHduZWQ=\x07 \x1b[2J\x1b[31mRED \u009b31m \x07BEL "
            "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\")
# 10 KB of a title: words and whole families, so that a cut inside a grapheme shows.
TEN_KILOBYTES = ("long title %s " % FAMILY) * 277 + "end"
# 3,000 Hangul syllables, spread over the block, no spaces.
KOREAN = "".join(chr(0xAC00 + (index * 37) % 11172) for index in range(3000))

# name -> (the text KOBIS sends; None keeps the recordings' own), as a Python string. Lone surrogates cannot be
# UTF-8: the fake upstream writes each as its JSON escape (\ud800), as a broken upstream would.
TEXT = {
    "terminal-escapes": TERMINAL,
    "nul": "a\x00b",
    "newline": "line one\nline two",
    "carriage-return": "line one\rline two",
    "del": "a\x7fb",
    "line-separators": "a\u2028b\u2029c\u0085d",
    "lone-surrogates": "lone \ud800 high \udc00 low \U0001F600 pair \ud83d",
    "ten-kilobytes": TEN_KILOBYTES,
    "bidi-override": "abc\u202edcba\u2066x\u2069",
    "slack-mentions": "<!channel> <http://evil.example|click here> <!here> <@U123>",
    "markup": "**bold** _x_ [link](http://evil.example) <b>x</b> | pipe |",
    "formula-hyperlink": '=HYPERLINK("http://evil.example","x")',
    "formula-plus": "+1",
    "formula-minus": "-2+3",
    "formula-at": "@SUM(A1)",
    "formula-tab": "\tstart",
    "zwj-emoji": FAMILY + " family",
    "long-korean": KOREAN,
    # The poster's address is the attack; the titles are the recordings'.
    "javascript-poster": None,
    "data-poster": None,
    "parenthesised-poster": None,
}

# name -> Kakao's image_url ("{base}" is the fake upstream's base URL): a working poster, unless the row is about it.
POSTER = "{base}/images/poster.jpg"
IMAGE = {
    "javascript-poster": "javascript:alert(1)",
    "data-poster": "data:image/png;base64,AAAA",
    "parenthesised-poster": "{base}/images/poster.jpg?a=)(b",
}

NAMES = list(TEXT)
TEXT_ROWS = [name for name in NAMES if TEXT[name] is not None]
POSTER_ROWS = [name for name in NAMES if TEXT[name] is None]
# The rows that matter to what is drawn or posted (screens, chats, pages, cards): all but four of the formulas, which
# are printable ASCII like any title and matter only to spreadsheets (formula-hyperlink, with its quotes and
# parentheses, stands for them); the CSV tests take every row. (Each start of a debug build costs ~0.2 s of CPU.)
FORMULA_ONLY = ("formula-plus", "formula-minus", "formula-at", "formula-tab")
RENDER_ROWS = [name for name in NAMES if name not in FORMULA_ONLY]
RENDER_TEXT_ROWS = [name for name in RENDER_ROWS if TEXT[name] is not None]
# The rows the other ways to the same CSV writer take (a range, --excel): the formulas and the controls.
CSV_ROWS = [name for name in TEXT_ROWS if name.startswith("formula-")] + ["terminal-escapes", "newline"]
# Rows whose poster address is not http(s): it appears in no chat message, no page attribute.
UNSAFE_POSTERS = ["javascript-poster", "data-poster"]


def upstream(name):
    """What the fake upstream serves for the row `name`."""
    text = TEXT[name]
    image = IMAGE.get(name, POSTER)
    return {
        "text": text,
        "image_url": image,
        "thumbnail_url": image,
        "display_sitename": text if text is not None else "<b>site</b>",
        "doc_url": image if name in IMAGE else text,
    }


def decoded(name):
    """The row's text as a JSON decoder that keeps what it can reads it: a lone surrogate becomes U+FFFD."""
    text = TEXT[name]
    if text is None:
        return None
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def trimmed(name):
    """The row's text as the worker hands it on: decoded, and trimmed as the protocol says strings are (space, tab and
    line ends at either end)."""
    text = decoded(name)
    return None if text is None else text.strip(" \t\n\r\u0085\u2028\u2029")


def exact(name):
    """What json and ndjson may say for the row's text: the text as trimmed, exactly; for a lone surrogate either
    U+FFFD (what a Swift string can hold) or the surrogate itself (written back as its escape)."""
    text = TEXT[name].strip(" \t\n\r\u0085\u2028\u2029")
    return {trimmed(name), text}


# The stand-ins of the contract: a C0 control U+00XX becomes the control picture U+2400+XX (tab kept), DEL U+2421;
# C1 code points, the bidi embeddings, overrides and isolates and the line and paragraph separators U+FFFD.
REPLACED = re.compile("[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def stand_ins(text):
    """`text` as the screens, stderr, CSV and chat write it."""
    text = re.sub("[\x00-\x08\x0a-\x1f]", lambda match: chr(0x2400 + ord(match.group())), text)
    return REPLACED.sub("\ufffd", text.replace("\x7f", "\u2421"))


# What may never be written raw to a terminal, a chat or a spreadsheet cell: C0 but tab and line feed, DEL, C1, the
# bidi controls, the line and paragraph separators, a lone surrogate.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
# The colour sequences the screens use, and no other escape.
COLOURS = (b"\x1b[0m", b"\x1b[1m", b"\x1b[2m", b"\x1b[31m", b"\x1b[34m", b"\x1b[35m")
