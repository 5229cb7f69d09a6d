"""The card on every face, from one renderer: `boxoffice.daily` with `card` over JSON-RPC (the PNG in base64 with
its size), and the MCP tool `boxoffice_daily` with `card`, driven by the official MCP Python SDK, which gets the
picture as an `image` block and a result without the base64. Both are the bytes `--format png` writes."""
import base64
import json
import os
import pathlib
import subprocess
import sys

import anyio
from mcp import Client, StdioServerParameters

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()


def offline():
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("KOBIS_", "KAKAO_"))}
    environment["BOXOFFICE_TODAY"] = "2026-11-21"
    return environment


def cli_card(layout):
    return subprocess.run([BINARY, "daily", "2023-04-26", "--format", "png", "--layout", layout],
                          capture_output=True, env=offline(), check=True, timeout=60).stdout


def test_json_rpc_card_is_the_cli_card_with_its_size():
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "boxoffice.daily", "params": {"date": "2023-04-26", "card": "grid"}},
        {"jsonrpc": "2.0", "id": 2, "method": "boxoffice.daily", "params": {"date": "2023-04-26", "card": "round"}},
    ]
    worker = subprocess.run([BINARY], input="".join(json.dumps(line) + "\n" for line in lines), capture_output=True,
                            text=True, env=offline(), timeout=60)
    answers = {answer["id"]: answer for answer in map(json.loads, worker.stdout.splitlines())}
    card = answers[1]["result"]["card"]
    png = base64.b64decode(card["data"])
    assert png == cli_card("grid")
    assert card["mimeType"] == "image/png" and card["bytes"] == len(png)
    assert (card["width"], card["height"]) == (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    # The box office is all there beside it.
    assert len(answers[1]["result"]["entries"]) == 10
    assert answers[2]["error"]["code"] == -32602


def test_mcp_boxoffice_daily_sends_the_card_as_an_image_block():
    async def body():
        parameters = StdioServerParameters(command=BINARY, args=["mcp"], env=offline())
        async with Client(parameters, mode="legacy") as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert "card" in tools["boxoffice_daily"].input_schema["properties"]
            assert "card" not in tools["boxoffice_weekly"].input_schema["properties"]
            # call_tool checks the structured content against the tool's outputSchema.
            result = await client.call_tool("boxoffice_daily", {"date": "2023-04-26", "card": "list"})
            assert result.is_error is False
            images = [block for block in result.content if block.type == "image"]
            assert len(images) == 1 and images[0].mime_type == "image/png"
            assert base64.b64decode(images[0].data) == cli_card("list")
            card = result.structured_content["card"]
            assert "data" not in card and card["mimeType"] == "image/png" and card["width"] == 1440
            assert images[0].data not in result.content[0].text
            # Without card: the text block alone, as before.
            plain = await client.call_tool("boxoffice_daily", {"date": "2023-04-26"})
            assert [block.type for block in plain.content] == ["text"]

    anyio.run(body)
