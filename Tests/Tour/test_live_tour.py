"""The live tour: every method, every `include`, every output of the worker against the fake upstream on 127.0.0.1,
with posters downloaded, on the binary the run built (the debug one in the default test command, the release one
`scripts/release-build` makes, which every package ships, in `--full`).

Each case asserts exit 0 (or the method's own error, named), an answer valid in its format (JSON against the method's
result schema, CSV rows, PNG decoded, a whole HTML page, one message body a line) and, for the long-lived faces, a
process still alive afterwards that ends with 0 when its input does. The tour also holds itself to the binary: a
method `rpc.discover` lists, a tool `tools/list` lists or a `--format` value `--help` lists that no case walks fails
it, so a new path joins the tour when it is added.

It exists because the release binary once died with SIGSEGV on every page or card with posters while the debug build,
which every other suite ran, answered them (a miscompile: Sources/BoxOfficeCore/Concurrency/Result+Awaiting.swift).
"""
import base64
import csv
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import threading

import pytest
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402
import fake_upstream  # noqa: E402

BINARY = worker_binary()
SCHEMAS = ROOT / "Schemas"
# A poster the fake Kakao serves: a real JPEG, so cards and terminal pictures decode and draw it.
POSTER_COLOUR = (0x12, 0x9E, 0x5B)
DAY = "2023-04-26"
WEEK_DAY = "2023-04-23"
MOVIE = "20124079"
PERSON = "20164556"
COMPANY = "20122497"
FORMATS = ["text", "json", "ndjson", "csv", "markdown", "slack", "discord", "telegram", "telegram-html", "html", "png"]
DATA = ["text", "json", "ndjson", "csv"]
CHATS = ["markdown", "slack", "discord", "telegram", "telegram-html"]


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    poster = tmp_path_factory.mktemp("poster") / "poster.jpg"
    Image.new("RGB", (200, 300), POSTER_COLOUR).save(poster, quality=95)
    running = fake_upstream.Running(delay_ms=1, poster=poster)
    yield running
    running.stop()


def live_environment(upstream, cache):
    return dict(
        os.environ, KOBIS_API_KEY="tour-kobis-key", KAKAO_REST_API_KEY="tour-kakao-key",
        KOBIS_BASE_URL=upstream.base + "/kobis", KAKAO_BASE_URL=upstream.base + "/kakao",
        BOXOFFICE_CACHE_DIR=str(cache), BOXOFFICE_ALLOW_PRIVATE_DOWNLOADS="1", BOXOFFICE_TODAY="2026-11-21",
        BOXOFFICE_LOG_LEVEL="warning", NO_COLOR="1", COLUMNS="100")


def schema_validator(method, kind="result"):
    import jsonschema
    document = json.loads((SCHEMAS / ("%s.%s.schema.json" % (method, kind))).read_text())
    return jsonschema.Draft202012Validator(document, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def valid_output(format_, stdout, method=None):
    """Whether `stdout` is a whole answer in `format_`; a message saying what is wrong, else None."""
    if format_ == "png":
        if not stdout.startswith(b"\x89PNG\r\n\x1a\n"):
            return "not a PNG: %r" % stdout[:16]
        image = Image.open(io.BytesIO(stdout))
        image.load()
        return None if image.width > 100 and image.height > 100 else "a PNG of %dx%d" % image.size
    text = stdout.decode("utf-8")
    if not text.strip():
        return "nothing written"
    if format_ == "json":
        value = json.loads(text)
        if method:
            errors = sorted(schema_validator(method).iter_errors(value), key=str)
            if errors:
                return "%s: %s" % (method, errors[0].message)
        return None
    if format_ in ("ndjson", "slack", "discord", "telegram", "telegram-html"):
        for line in text.splitlines():
            if not isinstance(json.loads(line), dict):
                return "a line that is not an object: %s" % line[:100]
        return None
    if format_ == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        return None if len(rows) >= 2 and all(len(row) == len(rows[0]) for row in rows) else "ragged CSV"
    if format_ == "html":
        return None if text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>") else "not a page"
    return None  # text and markdown: anything non-empty


def run(arguments, env, timeout=120):
    return subprocess.run([BINARY, *arguments], capture_output=True, env=env, timeout=timeout)


def case(command, formats, *variants):
    return [(command, format_, list(variant)) for variant in (variants or ([],)) for format_ in formats]


# Every command the CLI has, with every format it writes and the flags that fetch more (details, posters, the
# grid's posters, downloads). The method each command's --format json prints, for its schema.
CLI_CASES = (
    case(["daily", DAY], FORMATS, [], ["--with-posters"], ["--with-details", "--with-posters"],
         ["--layout", "grid", "--with-posters"])
    + case(["weekly", WEEK_DAY, "--period", "week"], FORMATS, ["--with-posters"],
           ["--with-details", "--with-posters", "--layout", "grid"])
    + case(["movie", MOVIE], FORMATS, [], ["--download"])
    + case(["search", "광해"], FORMATS)
    + case(["poster", "광해"], DATA, [], ["--download"])
    + case(["poster", "--code", MOVIE], DATA, ["--download"])
    + case(["people", "봉준호"], DATA)
    + case(["people", PERSON], DATA, [], ["--movies"])
    + case(["company", "CJ"], DATA)
    + case(["company", COMPANY], DATA)
    + case(["codes", "region"], DATA)
    + case(["codes", "genre"], DATA)
    + case(["status"], ["text", "json"])
    # Every day the fake upstream serves is 2023-04-26's list: 존 윅 4 and 드림 are listed each day looked at.
    + case(["run", "20231089", "--through", "2023-05-10"], FORMATS)
    + case(["compare", "20231089", "20198482", "--through", "2023-05-10"], FORMATS)
)
JSON_METHOD = {"daily": "boxoffice.daily", "weekly": "boxoffice.weekly", "movie": "movie.detail",
               "search": "movie.search", "poster": "movie.poster", "codes": "codes.list", "status": "worker.status",
               "run": "movie.run", "compare": "movie.compare"}


@pytest.mark.parametrize("command,format_,flags", CLI_CASES,
                         ids=["%s %s %s" % (" ".join(c), f, " ".join(v)) for c, f, v in CLI_CASES])
def test_cli(upstream, tmp_path, command, format_, flags):
    env = live_environment(upstream, tmp_path / "cache")
    out = tmp_path / "out"
    arguments = [*command, *flags, "--format", format_]
    if format_ == "png":
        arguments += ["--out", str(out)]
    done = run(arguments, env)
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, "exit %d: %s" % (done.returncode, stderr)
    written = out.read_bytes() if format_ == "png" else done.stdout
    method = JSON_METHOD.get(command[0])
    if command[0] == "people":
        method = "people.detail" if command[1].isdigit() else "people.search"
    if command[0] == "company":
        method = "company.detail" if command[1].isdigit() else "company.search"
    problem = valid_output(format_, written, method)
    assert problem is None, problem
    if "--with-posters" in flags and format_ == "html":
        assert "data:image/jpeg;base64," in written.decode(), "no poster embedded"
    if format_ == "png" and (command[0] == "movie" or ("grid" in flags and "--with-posters" in flags)):
        assert poster_drawn(written), "the downloaded poster is not drawn"


def poster_drawn(png):
    """Whether the card shows the fake Kakao's poster: a large area within a few levels (JPEG) of its colour."""
    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(maxcolors=1 << 24)
    near = sum(count for count, colour in colours if all(abs(a - b) <= 12 for a, b in zip(colour, POSTER_COLOUR)))
    return near >= 5000


# Outputs a command does not write: refused with a usage error (exit 64) that says so, never a crash.
REFUSED = [(["people", "봉준호"], "html"), (["codes", "region"], "png"), (["status"], "csv"),
           (["poster", "광해"], "slack"), (["company", COMPANY], "discord")]


@pytest.mark.parametrize("command,format_", REFUSED, ids=["%s %s" % (" ".join(c), f) for c, f in REFUSED])
def test_cli_refusals_are_usage_errors(upstream, tmp_path, command, format_):
    done = run([*command, "--format", format_], live_environment(upstream, tmp_path / "cache"))
    assert done.returncode == 64, done.stderr
    assert done.stderr.decode().startswith("boxoffice-worker: ") and not done.stdout


@pytest.mark.parametrize("command", [["daily"], ["weekly", "--period", "week"]])
def test_site_with_posters(upstream, tmp_path, command):
    site = tmp_path / "site"
    # Two days; one week (the fake KOBIS has the week ending 2023-04-23 recorded).
    start, end = ("2023-04-25", DAY) if command[0] == "daily" else ("2023-04-17", WEEK_DAY)
    done = run([*command, "--from", start, "--to", end, "--format", "html", "--out", str(site), "--with-posters"],
               live_environment(upstream, tmp_path / "cache"))
    assert done.returncode == 0, done.stderr.decode()
    pages = sorted(path.name for path in site.glob("*.html"))
    assert "index.html" in pages and len(pages) == (3 if command[0] == "daily" else 2), pages
    for page in pages:
        assert valid_output("html", (site / page).read_bytes()) is None, page
    assert list((site / "posters").iterdir()), "no poster copied into the site"
    assert json.loads((site / "pages.json").read_text())


@pytest.mark.parametrize("format_", ["csv", "ndjson", "json"])
def test_range_export(upstream, tmp_path, format_):
    done = run(["daily", "--from", "2023-04-20", "--to", DAY, "--format", format_, "--missing"]
               if format_ == "ndjson" else ["daily", "--from", "2023-04-20", "--to", DAY, "--format", format_],
               live_environment(upstream, tmp_path / "cache"))
    assert done.returncode == 0, done.stderr.decode()
    assert valid_output(format_, done.stdout) is None


def test_cli_covers_every_format_and_command():
    help_text = run(["daily", "--help"], dict(os.environ, COLUMNS="400")).stdout.decode()
    listed = re.search(r"--format <format>.*?\(values: ([^;]+);", help_text, re.S).group(1)
    values = {value.strip() for value in listed.replace("\n", " ").split(",")}
    assert values == set(FORMATS), "the tour walks %s; --help lists %s" % (sorted(FORMATS), sorted(values))
    top = run(["--help"], dict(os.environ, COLUMNS="400")).stdout.decode()
    subcommands = set(re.findall(r"^  ([a-z]+) ", top.split("SUBCOMMANDS:")[1], re.M))
    # mcp and pipe are walked by the tests below; help is swift-argument-parser's own.
    walked = {command[0] for command, _, _ in CLI_CASES} | {"mcp", "pipe", "help"}
    assert subcommands <= walked, "commands the tour does not walk: %s" % (subcommands - walked)


class Worker:
    """A long-lived worker (JSON-RPC, or MCP with `mcp`) fed lines and read back by id."""

    # A worker that stops answering (a deadlock under a sanitizer, say) is killed after this long, so the test fails
    # with what it said instead of holding CI; the whole walk takes seconds.
    WATCHDOG = 300

    def __init__(self, env, *arguments):
        self.process = subprocess.Popen([BINARY, *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        self.watchdog = threading.Timer(self.WATCHDOG, self.process.kill)
        self.watchdog.start()

    def send(self, message):
        self.process.stdin.write((json.dumps(message, ensure_ascii=False) + "\n").encode())
        self.process.stdin.flush()

    def answers(self, ids):
        """Reads until every id in `ids` is answered; the answers by id."""
        found = {}
        while not set(ids) <= set(found):
            line = self.process.stdout.readline()
            assert line, "the worker ended (exit %s) before answering %s: %s" % (
                self.process.wait(), sorted(set(ids) - set(found)), self.process.stderr.read().decode()[-2000:])
            message = json.loads(line)
            if "id" in message:
                found[message["id"]] = message
        return found

    def finish(self):
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        self.watchdog.cancel()
        stderr = self.process.stderr.read().decode("utf-8", "replace")
        self.process.stdout.close()
        self.process.stderr.close()
        return code, stderr


def rpc_calls():
    """(method, params, the error reason allowed instead of a result or None) for every method and include."""
    calls = []
    for method, params in (("boxoffice.daily", {"date": DAY}), ("boxoffice.weekly", {"date": WEEK_DAY, "period": "week"})):
        for include in ([], ["detail"], ["poster"], ["detail", "poster"]):
            for extra in [{}] + [{"chat": chat} for chat in CHATS] + [{"card": "list"}, {"card": "grid"}]:
                calls.append((method, dict(params, include=include, **extra), None))
    for extra in [{}] + [{"chat": chat} for chat in CHATS]:
        calls.append(("movie.detail", dict({"movieCode": MOVIE}, **extra), None))
        calls.append(("movie.search", dict({"title": "광해"}, **extra), None))
    calls += [
        ("movie.poster", {"title": "광해, 왕이 된 남자"}, None),
        ("movie.poster", {"title": "광해, 왕이 된 남자", "download": True}, None),
        ("movie.poster", {"movieCode": MOVIE, "download": True}, None),
        ("people.search", {"name": "봉준호"}, None),
        ("people.detail", {"peopleCode": PERSON}, None),
        ("people.detail", {"peopleCode": PERSON, "include": ["movies"]}, None),
        ("company.search", {"name": "CJ"}, None),
        ("company.detail", {"companyCode": COMPANY}, None),
        ("worker.status", {}, None), ("ping", {}, None), ("rpc.discover", {}, None),
        # Every day the fake upstream serves is 2023-04-26's list: these films are listed each day looked at.
        ("movie.run", {"movieCode": "20231089", "through": "2023-05-10"}, None),
        ("movie.compare", {"movies": ["20231089", "20198482"], "through": "2023-05-10"}, None),
    ]
    for kind in ("region", "nation", "type", "genre", "status", "grade", "companyPart"):
        calls.append(("codes.list", {"kind": kind}, None))
    return calls


def test_json_rpc_walks_every_method_and_lives(upstream, tmp_path):
    worker = Worker(live_environment(upstream, tmp_path / "cache"))
    calls = rpc_calls()
    for index, (method, params, _) in enumerate(calls):
        worker.send({"jsonrpc": "2.0", "id": index, "method": method, "params": params})
    answers = worker.answers(range(len(calls)))
    for index, (method, params, allowed) in enumerate(calls):
        answer = answers[index]
        if "error" in answer:
            assert allowed and answer["error"].get("data", {}).get("reason") == allowed, (method, params, answer)
            continue
        errors = sorted(schema_validator(method).iter_errors(answer["result"]), key=str)
        assert not errors, (method, params, errors[0].message)
        result = answer["result"]
        if "card" in params:
            assert base64.b64decode(result["card"]["data"]).startswith(b"\x89PNG"), (method, params)
        if "chat" in params:
            assert result["chat"]["messages"], (method, params)
        if "poster" in params.get("include", []):
            assert any(entry.get("poster") for entry in result["entries"]), (method, params)
    discovered = {entry["name"] for entry in answers[[c[0] for c in calls].index("rpc.discover")]["result"]["methods"]}
    assert discovered == {method for method, _, _ in calls}, "methods the tour does not walk: %s" % (
        discovered - {method for method, _, _ in calls})
    # Alive after all of it, and a clean end with its input.
    worker.send({"jsonrpc": "2.0", "id": "after", "method": "ping"})
    assert "result" in worker.answers(["after"])["after"]
    code, stderr = worker.finish()
    assert code == 0, stderr


def test_pipe_walks_every_method_with_files_and_lives(upstream, tmp_path):
    """`pipe` (each line names its method) over the same calls as the JSON-RPC walk, posters downloaded and cards
    kept in --files-dir: one outcome per line, in order, each valid, nothing on stderr, and the files there."""
    files = tmp_path / "files"
    files.mkdir()
    calls = rpc_calls()
    lines = "".join(json.dumps({"method": method, "params": params, "id": index}, ensure_ascii=False) + "\n"
                    for index, (method, params, _) in enumerate(calls))
    done = subprocess.run([BINARY, "pipe", "--files-dir", str(files)], input=lines.encode(), capture_output=True,
                          env=live_environment(upstream, tmp_path / "cache"), timeout=300)
    assert done.returncode == 0 and not done.stderr, (done.returncode, done.stderr.decode()[-2000:])
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert [outcome["id"] for outcome in outcomes] == list(range(len(calls)))
    for outcome, (method, params, _) in zip(outcomes, calls):
        assert "result" in outcome, (method, params, outcome)
        errors = sorted(schema_validator(method).iter_errors(outcome["result"]), key=str)
        assert not errors, (method, params, errors[0].message)
        result = outcome["result"]
        if "card" in params:
            card = result["card"]
            assert "data" not in card and pathlib.Path(card["path"]).parent == files, (method, params)
            assert pathlib.Path(card["path"]).read_bytes().startswith(b"\x89PNG"), (method, params)
        if params.get("download"):
            assert pathlib.Path(result["file"]["path"]).parent == files, (method, params)
            kept = pathlib.Path(result["file"]["path"]).stat()
            # Readable by whatever reads the lines (0644 less the umask), though the cache keeps its own 0600.
            assert kept.st_size == result["file"]["bytes"] and kept.st_mode & 0o044, oct(kept.st_mode)


TOOL_CALLS = {
    "boxoffice_daily": [{"date": DAY}, {"date": DAY, "include": ["detail", "poster"]},
                        {"date": DAY, "include": ["poster"], "card": "grid"}, {"date": DAY, "card": "list"}],
    "boxoffice_weekly": [{"date": WEEK_DAY, "period": "week", "include": ["detail", "poster"]}],
    "movie_detail": [{"movieCode": MOVIE}],
    "movie_poster": [{"title": "광해, 왕이 된 남자", "download": True}],
    "movie_search": [{"title": "광해"}],
    "people_search": [{"name": "봉준호"}],
    "people_detail": [{"peopleCode": PERSON, "include": ["movies"]}],
    "company_search": [{"name": "CJ"}],
    "company_detail": [{"companyCode": COMPANY}],
    "codes_list": [{"kind": "region"}],
    # Every day the fake upstream serves is 2023-04-26's list, so these films are listed each day looked at.
    "movie_run": [{"movieCode": "20231089", "through": "2023-05-10"}],
    "movie_compare": [{"movies": ["20231089", "20198482"], "through": "2023-05-10"}],
    "worker_status": [{}],
}


# Each resource template, read once live.
TEMPLATES = {"boxoffice://daily/{date}": "boxoffice://daily/%s" % DAY,
             "boxoffice://weekly/{period}/{date}": "boxoffice://weekly/week/%s" % WEEK_DAY,
             "boxoffice://movie/{movieCode}": "boxoffice://movie/" + MOVIE}


def test_mcp_walks_every_tool_resource_and_prompt_and_lives(upstream, tmp_path):
    worker = Worker(live_environment(upstream, tmp_path / "cache"), "mcp")
    worker.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "tour", "version": "1"}}})
    assert "result" in worker.answers(["init"])["init"]
    worker.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for index, method in enumerate(["tools/list", "resources/list", "resources/templates/list", "prompts/list"]):
        worker.send({"jsonrpc": "2.0", "id": "list-%d" % index, "method": method})
    lists = worker.answers(["list-%d" % index for index in range(4)])
    tools = {tool["name"] for tool in lists["list-0"]["result"]["tools"]}
    assert tools == set(TOOL_CALLS), "tools the tour does not walk: %s" % (tools - set(TOOL_CALLS))
    templates = {template["uriTemplate"] for template in lists["list-2"]["result"]["resourceTemplates"]}
    assert templates == set(TEMPLATES), "templates the tour does not read: %s" % (templates - set(TEMPLATES))
    calls = [(name, arguments) for name in sorted(TOOL_CALLS) for arguments in TOOL_CALLS[name]]
    for index, (name, arguments) in enumerate(calls):
        worker.send({"jsonrpc": "2.0", "id": index, "method": "tools/call",
                     "params": {"name": name, "arguments": arguments}})
    resources = [resource["uri"] for resource in lists["list-1"]["result"]["resources"]]
    resources += list(TEMPLATES.values())
    for index, uri in enumerate(resources):
        worker.send({"jsonrpc": "2.0", "id": "read-%d" % index, "method": "resources/read", "params": {"uri": uri}})
    prompts = [prompt["name"] for prompt in lists["list-3"]["result"]["prompts"]]
    for index, name in enumerate(prompts):
        worker.send({"jsonrpc": "2.0", "id": "prompt-%d" % index, "method": "prompts/get",
                     "params": {"name": name, "arguments": {"date": DAY}}})
    answers = worker.answers(list(range(len(calls))) + ["read-%d" % i for i in range(len(resources))]
                             + ["prompt-%d" % i for i in range(len(prompts))])
    for index, (name, arguments) in enumerate(calls):
        result = answers[index].get("result")
        assert result and not result.get("isError"), (name, arguments, answers[index])
        assert result.get("structuredContent") is not None, (name, arguments)
        if "card" in arguments:
            images = [block for block in result["content"] if block["type"] == "image"]
            assert images and base64.b64decode(images[0]["data"]).startswith(b"\x89PNG"), (name, arguments)
    for index, uri in enumerate(resources):
        contents = answers["read-%d" % index]["result"]["contents"]
        assert contents and json.loads(contents[0]["text"]), uri
    for index, name in enumerate(prompts):
        assert answers["prompt-%d" % index]["result"]["messages"], name
    worker.send({"jsonrpc": "2.0", "id": "after", "method": "ping"})
    assert "result" in worker.answers(["after"])["after"]
    code, stderr = worker.finish()
    assert code == 0, stderr
