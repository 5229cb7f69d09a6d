"""Messages to post made from hostile upstream text (issue 39): `--format slack|discord|telegram|telegram-html|markdown`
of `daily --with-posters`, of a film's `run` and of `compare` (the titles in a heading, a list and a table), and
`search` with the Slack mention string as its query (which the message echoes); for the rows about a poster's address
also of `movie` (whose Markdown has the poster as an image). The rules are chat_rules.py's; test_hostile_json_rpc.py
holds a movie's messages of every row to them too."""
import pytest

import chat_rules
import hostile
from hostile_testing import CHATS, COMPARE, DAY, MOVIE, RUN

SEARCH = hostile.TEXT["slack-mentions"]
# Every message command, by name: its arguments and its format.
COMMANDS = {}
for chat in CHATS:
    COMMANDS["daily-" + chat] = (["daily", DAY, "--format", chat, "--with-posters"], chat)
    COMMANDS["movie-" + chat] = (["movie", MOVIE, "--format", chat], chat)
COMMANDS["search-slack"] = (["search", SEARCH, "--format", "slack"], "slack")
# A film's run and two compared: their titles are the row's text (the posters are not posted).
RUNS = ["run-", "compare-"]
for chat in CHATS:
    COMMANDS["run-" + chat] = (RUN + ["--format", chat], chat)
    COMMANDS["compare-" + chat] = (COMPARE + ["--format", chat], chat)
# The search's echo of the query is the same for every row: the rows of Slack's own syntax and of shape take it.
SEARCH_ROWS = ["slack-mentions", "markup", "terminal-escapes", "newline", "ten-kilobytes"]
ALL_CASES = [(name, command) for name in hostile.RENDER_ROWS for command in COMMANDS
             if (name in hostile.POSTER_ROWS or not command.startswith("movie-"))
             and (name in SEARCH_ROWS or command != "search-slack")
             and (name in hostile.RENDER_TEXT_ROWS or not command.startswith(tuple(RUNS)))]


def cases(formats=None, rows=None):
    found = [(name, command) for name, command in ALL_CASES
             if (formats is None or COMMANDS[command][1] in formats) and (rows is None or name in rows)]
    return pytest.mark.parametrize("name,command", found, ids=["%s-%s" % case for case in found])


def messages(upstreams, name, command):
    result = upstreams(name).run(*COMMANDS[command][0])
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    return chat_rules.decoded_bodies(result.stdout)


@cases()
def test_chat_message_carries_no_control_character_bidi_control_or_lone_surrogate(upstreams, name, command):
    assert chat_rules.no_control_characters(messages(upstreams, name, command)) == {}


@cases(formats=["slack"])
def test_slack_message_escapes_mentions_and_links_in_every_string_and_fits_block_kit(upstreams, name, command):
    problems = [problem for body in messages(upstreams, name, command) for problem in chat_rules.slack_problems(body)]
    assert problems == []


@cases(formats=["telegram", "telegram-html"])
def test_telegram_message_fits_4096_utf16_units_and_is_cut_between_graphemes(upstreams, name, command):
    problems = [problem for body in messages(upstreams, name, command)
                for problem in chat_rules.telegram_problems(body)]
    assert problems == []


@cases(formats=["discord"])
def test_discord_message_mentions_nobody_and_fits_discords_limits(upstreams, name, command):
    problems = [problem for body in messages(upstreams, name, command)
                for problem in chat_rules.discord_problems(body)]
    assert problems == []


@cases(formats=["markdown"])
def test_markdown_keeps_each_title_on_its_table_row_and_an_address_whole(upstreams, name, command):
    [text] = messages(upstreams, name, command)
    assert chat_rules.markdown_problems(text, upstreams(name).base) == []


@cases(rows=hostile.POSTER_ROWS)
def test_chat_message_posts_no_poster_address_that_is_not_http(upstreams, name, command):
    assert chat_rules.no_unsafe_poster_address(messages(upstreams, name, command)) == []


@cases(formats=["markdown", "telegram", "telegram-html", "discord"], rows=["markup"])
def test_chat_message_does_not_render_a_titles_own_link_or_tag(upstreams, name, command):
    assert chat_rules.markup_problems(messages(upstreams, name, command), COMMANDS[command][1]) == []


def ahead(upstreams, terminal):
    for name, command in ALL_CASES:
        upstreams(name).run(*COMMANDS[command][0], wait=False)
