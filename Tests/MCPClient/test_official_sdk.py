"""The MCP face driven by the official MCP Python SDK (the `mcp` package from PyPI, pinned in
scripts/python-requirements.txt): a real client nobody here wrote is the judge of the shapes.

Both eras: `mode="legacy"` (the initialize handshake) and `mode="auto"`, which probes `server/discover` and speaks
2026-07-28 per request. The SDK validates every result it parses, and a tool's structured content against the
tool's outputSchema, so a wrong shape fails these tests. The worker runs offline (no key): nothing leaves the
machine.
"""

import os
import pathlib
import sys
import warnings

import anyio
from mcp import Client, StdioServerParameters

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()

# Valid arguments for every tool, answered from the embedded recordings.
VALID_CALLS = {
    "boxoffice_daily": {"date": "2023-04-26"},
    "boxoffice_weekly": {"date": "2012-01-01", "period": "weekend"},
    "movie_detail": {"movieCode": "20124079"},
    "movie_poster": {"title": "광해, 왕이 된 남자"},
    "movie_search": {"title": "범죄와의 전쟁", "limit": 10},
    "people_search": {"name": "이병헌"},
    "people_detail": {"peopleCode": "90000001", "include": ["movies"]},
    "company_search": {},
    "company_detail": {"companyCode": "20122497"},
    "codes_list": {"kind": "region"},
    "movie_run": {"title": "파묘"},
    "movie_compare": {"movies": ["20234675", "범죄도시4"]},
    "worker_status": {},
}


def server():
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment["BOXOFFICE_TODAY"] = "2026-11-21"
    return StdioServerParameters(command=BINARY, args=["mcp"], env=environment)


def run(body):
    anyio.run(body)


def test_legacy_handshake_lists_and_calls_every_tool():
    async def body():
        async with Client(server(), mode="legacy") as client:
            assert client.protocol_version in ("2025-11-25", "2025-06-18")
            assert client.server_info is not None and client.server_info.name == "boxoffice-worker"
            assert client.instructions and "boxoffice_daily" in client.instructions
            tools = (await client.list_tools()).tools
            assert [tool.name for tool in tools] == list(VALID_CALLS)
            for tool in tools:
                assert tool.output_schema is not None and tool.output_schema.get("type") == "object"
                assert tool.annotations is not None and tool.annotations.read_only_hint is True
            for name, arguments in VALID_CALLS.items():
                # call_tool validates structured_content against the tool's outputSchema itself.
                result = await client.call_tool(name, arguments)
                assert result.is_error is False, (name, result)
                assert result.structured_content is not None
                assert result.content[0].type == "text"
            # ping exists only in the handshake era, which this client speaks here.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ping = await client.send_ping()
            assert ping is not None

    run(body)


def test_discovery_path_speaks_2026_07_28():
    async def body():
        async with Client(server(), mode="auto") as client:
            assert client.protocol_version == "2026-07-28"
            assert client.server_info is not None and client.server_info.name == "boxoffice-worker"
            tools = (await client.list_tools()).tools
            assert len(tools) == len(VALID_CALLS)
            result = await client.call_tool("boxoffice_daily", {"date": "2022-01-05", "limit": 3})
            assert result.is_error is False
            assert len(result.structured_content["entries"]) == 3

    run(body)


def test_invalid_arguments_and_domain_failures_are_error_results():
    async def body():
        for mode in ("legacy", "auto"):
            async with Client(server(), mode=mode) as client:
                await client.list_tools()
                invalid = await client.call_tool("boxoffice_daily", {"date": "2022-02-30"})
                assert invalid.is_error is True
                assert "Invalid arguments" in invalid.content[0].text
                offline = await client.call_tool("boxoffice_daily", {"date": "2020-01-01"})
                assert offline.is_error is True
                assert offline.structured_content["error"]["data"]["reason"] == "offline_unavailable"

    run(body)


def test_progress_reaches_the_callback_in_order():
    async def body():
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total))

        async with Client(server(), mode="legacy") as client:
            await client.list_tools()
            result = await client.call_tool(
                "boxoffice_daily", {"date": "2022-01-05", "include": ["detail"]}, progress_callback=on_progress
            )
            assert result.is_error is False
        assert len(seen) == 10
        assert [progress for progress, _ in seen] == sorted(progress for progress, _ in seen)
        assert all(total == 10 for _, total in seen)

    run(body)


def test_resources_and_the_briefing_prompt():
    async def body():
        for mode in ("legacy", "auto"):
            async with Client(server(), mode=mode) as client:
                templates = (await client.list_resource_templates()).resource_templates
                assert "boxoffice://daily/{date}" in [template.uri_template for template in templates]
                listed = (await client.list_resources()).resources
                assert "boxoffice://daily/2023-04-26" in [str(resource.uri) for resource in listed]
                read = await client.read_resource("boxoffice://movie/20124079")
                assert read.contents[0].mime_type == "application/json"
                assert "광해" in read.contents[0].text
                prompt = await client.get_prompt("boxoffice_briefing", {"date": "2023-04-26"})
                assert len(prompt.messages) == 2
                assert prompt.messages[1].content.type == "resource"

    run(body)
