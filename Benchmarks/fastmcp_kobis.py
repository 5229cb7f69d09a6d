"""A KOBIS MCP server built the way the published ones are: the official SDK's high-level server (FastMCP, named
MCPServer in mcp 2.x), one upstream call per tool call, no cache. The MCP benchmark's baseline for cold start; it
makes no upstream call there (only the handshake is timed)."""
import json
import os
import urllib.parse
import urllib.request

from mcp.server.mcpserver import MCPServer

app = MCPServer("kobis-boxoffice")
BASE = os.environ.get("KOBIS_BASE_URL", "http://www.kobis.or.kr/kobisopenapi/webservice/rest")


def kobis(path: str, **params: str) -> dict:
    query = urllib.parse.urlencode({"key": os.environ.get("KOBIS_API_KEY", ""), **params})
    with urllib.request.urlopen("%s%s?%s" % (BASE, path, query), timeout=10) as response:
        return json.load(response)


@app.tool()
def daily_boxoffice(target_date: str) -> dict:
    """A day's box office (targetDt YYYYMMDD)."""
    return kobis("/boxoffice/searchDailyBoxOfficeList.json", targetDt=target_date)


@app.tool()
def movie_info(movie_code: str) -> dict:
    """A movie's details by movie code."""
    return kobis("/movie/searchMovieInfo.json", movieCd=movie_code)


if __name__ == "__main__":
    app.run()
