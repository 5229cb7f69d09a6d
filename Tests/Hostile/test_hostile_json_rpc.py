"""The worker's `chat` param with hostile upstream text (issue 39): one JSON-RPC transcript a row (stdin lines to
`boxoffice-worker`, no subcommand) asking for messages to post; each answer's `chat.messages` is held to the same
rules as the CLI's --format (chat_rules.py), and the result itself keeps the text exact."""
import json

import pytest

import chat_rules
import hostile
from hostile_testing import DAY, MOVIE

# Each request, by name: its method and params.
REQUESTS = {
    "daily-slack": ("boxoffice.daily", {"date": DAY, "chat": "slack", "include": ["poster"]}),
    "daily-discord": ("boxoffice.daily", {"date": DAY, "chat": "discord", "include": ["poster"]}),
    "daily-telegram": ("boxoffice.daily", {"date": DAY, "chat": "telegram", "include": ["poster"]}),
    "daily-telegram-html": ("boxoffice.daily", {"date": DAY, "chat": "telegram-html"}),
    "daily-markdown": ("boxoffice.daily", {"date": DAY, "chat": "markdown"}),
    "movie-slack": ("movie.detail", {"movieCode": MOVIE, "chat": "slack"}),
    "movie-discord": ("movie.detail", {"movieCode": MOVIE, "chat": "discord"}),
    "movie-telegram": ("movie.detail", {"movieCode": MOVIE, "chat": "telegram"}),
    "movie-telegram-html": ("movie.detail", {"movieCode": MOVIE, "chat": "telegram-html"}),
    "movie-markdown": ("movie.detail", {"movieCode": MOVIE, "chat": "markdown"}),
    "search-slack": ("movie.search", {"title": hostile.TEXT["slack-mentions"], "chat": "slack"}),
}
NAMES = list(REQUESTS)


def transcript():
    lines = [json.dumps({"jsonrpc": "2.0", "id": index, "method": method, "params": params})
             for index, (method, params) in enumerate(REQUESTS.values())]
    return ("\n".join(lines) + "\n").encode()


def answer(upstreams, name, request):
    result = upstreams(name).run(stdin=transcript())
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    answers = {line["id"]: line for line in map(json.loads, result.stdout.decode("utf-8").split("\n")[:-1])}
    response = answers[NAMES.index(request)]
    assert "result" in response, response.get("error")
    return response["result"]


def chat_of(upstreams, name, request):
    chat = answer(upstreams, name, request)["chat"]
    assert chat["format"] == REQUESTS[request][1]["chat"]
    return chat["messages"]


def cases(prefixes=None, rows=None):
    found = [(name, request) for name in (rows or hostile.RENDER_ROWS) for request in REQUESTS
             if prefixes is None or REQUESTS[request][1]["chat"] in prefixes]
    return pytest.mark.parametrize("name,request_name", found, ids=["%s-%s" % case for case in found])


@cases()
def test_worker_chat_messages_carry_no_control_character_and_no_unsafe_poster_address(upstreams, name,
                                                                                      request_name):
    messages = chat_of(upstreams, name, request_name)
    assert chat_rules.no_control_characters(messages) == {}
    assert chat_rules.no_unsafe_poster_address(messages) == []


@cases(prefixes=["slack"])
def test_worker_slack_messages_escape_mentions_and_links_in_every_string(upstreams, name, request_name):
    messages = chat_of(upstreams, name, request_name)
    assert [problem for body in messages for problem in chat_rules.slack_problems(body)] == []


@cases(prefixes=["telegram", "telegram-html"])
def test_worker_telegram_messages_fit_4096_utf16_units_and_are_cut_between_graphemes(upstreams, name, request_name):
    messages = chat_of(upstreams, name, request_name)
    assert [problem for body in messages for problem in chat_rules.telegram_problems(body)] == []


@cases(prefixes=["discord"])
def test_worker_discord_messages_mention_nobody_and_fit_discords_limits(upstreams, name, request_name):
    messages = chat_of(upstreams, name, request_name)
    assert [problem for body in messages for problem in chat_rules.discord_problems(body)] == []


@cases(prefixes=["markdown"])
def test_worker_markdown_keeps_each_title_on_its_table_row_and_an_address_whole(upstreams, name, request_name):
    [text] = chat_of(upstreams, name, request_name)
    assert chat_rules.markdown_problems(text, upstreams(name).base) == []


@pytest.mark.parametrize("name", hostile.RENDER_TEXT_ROWS)
def test_worker_result_keeps_the_text_exact(upstreams, name):
    titles = {entry["title"] for entry in answer(upstreams, name, "daily-markdown")["entries"]}
    assert len(titles) == 1 and titles <= hostile.exact(name), titles


def ahead(upstreams, terminal):
    for name in hostile.RENDER_ROWS:
        upstreams(name).run(stdin=transcript(), wait=False)
