"""The rules a message to post is held to, whichever way it is made (the CLI's --format, the worker's `chat` param):
Slack escapes what it parses, Telegram and Discord stay within their limits without cutting a grapheme, Discord
mentions nobody, Markdown keeps a table's rows and a link's address whole, and no poster address that is not
http(s) is posted."""
import json
import re

import hostile
from hostile_testing import forbidden, strings

# What Slack would turn into a mention or a link if a title reached it raw.
SLACK_RAW = ["<!channel>", "<!here>", "<@U123>", "<http://evil.example|"]
UNSAFE_ADDRESSES = ["javascript:", "data:image"]
# The parts of the family, which may appear only inside the whole family.
FAMILY_PARTS = ["\U0001F469", "\U0001F467", "\U0001F466", "\u200d"]


def utf16_length(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def no_control_characters(messages):
    found = {}
    for index, message in enumerate(messages):
        for where, text in (strings(message) if not isinstance(message, str) else [("", message)]):
            if forbidden(text):
                found["%d%s" % (index, where)] = sorted(set(forbidden(text)))
    return found


def no_unsafe_poster_address(messages):
    found = []
    for index, message in enumerate(messages):
        for where, text in (strings(message) if not isinstance(message, str) else [("", message)]):
            for address in UNSAFE_ADDRESSES:
                if address in text:
                    found.append("%d%s: %s" % (index, where, text[:80]))
    return found


def slack_parsed_strings(value, where=""):
    """(where, text) of every string Slack parses for mentions and links: the top-level `text` (the notification)
    and every `mrkdwn` text object. A `plain_text` object (the header, an image's alt text) is shown as written and
    never parsed, so `<!channel>` there is only text (escaping it would show `&lt;`)."""
    if isinstance(value, dict):
        if value.get("type") == "plain_text":
            return []
        if value.get("type") == "mrkdwn" and isinstance(value.get("text"), str):
            return [(where + "/text", value["text"])]
        found = []
        for key, item in value.items():
            if key == "text" and isinstance(item, str) and where == "":
                found.append(("/text", item))
            elif key not in ("image_url", "alt_text"):
                found += slack_parsed_strings(item, "%s/%s" % (where, key))
        return found
    if isinstance(value, list):
        return [found for index, item in enumerate(value)
                for found in slack_parsed_strings(item, "%s/%d" % (where, index))]
    return []


def slack_problems(body):
    """Raw mentions and links in what Slack parses of a body, and Block Kit's limits."""
    problems = []
    for where, text in slack_parsed_strings(body):
        for raw in SLACK_RAW:
            if raw in text:
                problems.append("%s has %r raw: %r" % (where or "/", raw, text[:120]))
                break
    if len(body.get("text", "")) > 40000:
        problems.append("/text is over 40,000 characters")
    blocks = body.get("blocks", [])
    if len(blocks) > 50:
        problems.append("%d blocks (50 at most)" % len(blocks))
    for index, block in enumerate(blocks):
        text = (block.get("text") or {}).get("text", "")
        limit = 150 if block.get("type") == "header" else 3000
        if len(text) > limit:
            problems.append("/blocks/%d/text is %d characters (%d at most)" % (index, len(text), limit))
        fields = block.get("fields", [])
        if len(fields) > 10:
            problems.append("/blocks/%d has %d fields (10 at most)" % (index, len(fields)))
        for number, field in enumerate(fields):
            if len(field.get("text", "")) > 2000:
                problems.append("/blocks/%d/fields/%d is over 2,000 characters" % (index, number))
        alternative = (block.get("accessory") or {}).get("alt_text", "")
        if len(alternative) > 2000:
            problems.append("/blocks/%d/accessory/alt_text is over 2,000 characters" % index)
    return problems


def grapheme_problems(text):
    """A lone surrogate, or a part of the family outside a whole family (a cut inside the grapheme)."""
    problems = []
    if re.search("[\ud800-\udfff]", text):
        problems.append("a lone surrogate")
    rest = text.replace(hostile.FAMILY, "")
    if any(part in rest for part in FAMILY_PARTS):
        problems.append("a family emoji cut apart: %r" % rest[max(0, min(rest.find(p) for p in FAMILY_PARTS
                                                                            if p in rest) - 20):][:40])
    return problems


def telegram_problems(body):
    text = body.get("text", "")
    problems = grapheme_problems(text)
    if utf16_length(text) > 4096:
        problems.append("text is %d UTF-16 code units (4,096 at most)" % utf16_length(text))
    return problems


def discord_problems(body):
    problems = []
    if body.get("allowed_mentions") != {"parse": []}:
        problems.append("allowed_mentions is %r, not {'parse': []}" % body.get("allowed_mentions"))
    content = body.get("content", "")
    if len(content) > 2000:
        problems.append("content is %d characters (2,000 at most)" % len(content))
    problems += ["content: " + problem for problem in grapheme_problems(content)]
    embeds = body.get("embeds", [])
    if len(embeds) > 10:
        problems.append("%d embeds (10 at most)" % len(embeds))
    total = 0
    for index, embed in enumerate(embeds):
        parts = [("title", embed.get("title", ""), 256), ("description", embed.get("description", ""), 4096),
                 ("footer", (embed.get("footer") or {}).get("text", ""), 2048),
                 ("author", (embed.get("author") or {}).get("name", ""), 256)]
        fields = embed.get("fields", [])
        if len(fields) > 25:
            problems.append("/embeds/%d has %d fields (25 at most)" % (index, len(fields)))
        for number, field in enumerate(fields):
            parts += [("fields/%d/name" % number, field.get("name", ""), 256),
                      ("fields/%d/value" % number, field.get("value", ""), 1024)]
        for what, text, limit in parts:
            total += len(text)
            if len(text) > limit:
                problems.append("/embeds/%d/%s is %d characters (%d at most)" % (index, what, len(text), limit))
            problems += ["/embeds/%d/%s: %s" % (index, what, problem) for problem in grapheme_problems(text)]
    if total > 6000:
        problems.append("the embeds hold %d characters (6,000 at most)" % total)
    return problems


CELL = re.compile(r"(?<!\\)\|")


def markdown_problems(text, base):
    """A table row broken by a title (every line of a table starts and ends with `|` and has the header's cells),
    and an image or link address ended early by a `)` of its own."""
    problems = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        # A box office's table, or the table of runs compared.
        if not line.startswith(("| Rank", "| Title")):
            continue
        cells = len(CELL.findall(line))
        for row in lines[index + 1:]:
            if not row.strip():
                break
            if not (row.startswith("|") and row.endswith("|")):
                problems.append("a table line that is not a row: %r" % row[:80])
            elif len(CELL.findall(row)) != cells:
                problems.append("a row of %d cells, not %d (an unescaped | in a title?): %r"
                                % (len(CELL.findall(row)) - 1, cells - 1, row[:80]))
        break
    if base + "/images/poster.jpg?a=)" in text:
        problems.append("the poster's address ends at its own ')': %r" % text[text.find("?a=)") - 40:][:60])
    return problems


# The markup row's link and tag, which a format that renders links or HTML must not render.
LINK = "[link](http://evil.example)"
TAG = "<b>x</b>"


def markup_problems(messages, chat):
    """The title's own link or tag, raw where the format would render it: Markdown (links and inline HTML),
    Telegram MarkdownV2 (links), Telegram HTML (tags), Discord (masked links, outside an embed's title)."""
    raw = {"markdown": [LINK, TAG], "telegram": [LINK], "telegram-html": [TAG], "discord": [LINK]}.get(chat, [])
    found = []
    for index, message in enumerate(messages):
        pairs = [("", message)] if isinstance(message, str) else list(strings(message))
        for where, text in pairs:
            if chat == "discord" and where.endswith("/title"):
                continue
            found += ["%d%s has %r" % (index, where, markup) for markup in raw if markup in text]
    return found


def decoded_bodies(data):
    """The message bodies of a chat format's output: JSON lines (Slack, Discord, Telegram) or one Markdown text."""
    text = data.decode("utf-8")
    try:
        return [json.loads(line) for line in text.split("\n") if line.strip()]
    except ValueError:
        return [text]
