"""The official MCP Python SDK (`mcp`) as a real Streamable HTTP client of
`mcp-reference serve --http`, in its default (auto) mode: tools/list, then
tools/call get_order A-104 and B-205. Prints one JSON object per call and
exits 0 when every answer is the textbook's; 1 with one sentence otherwise.
Run by tests/sdk_http.rs (in .ci/run, with the SDK in target/py-mcp).

usage: python sdk_http_client.py URL
"""

import asyncio
import json
import sys

from mcp.client.client import Client


def dump(model) -> dict:
    return model.model_dump(mode="json", exclude_unset=True, by_alias=True)


async def main(url: str) -> int:
    async with Client(url) as client:
        return await as_mira(client)


async def as_mira(client: Client) -> int:
    """tools/list, then get_order A-104 (mira's) and B-205 (tomas's) on a
    connected client; also run by sdk_oauth_client.py, with mira's token."""
    info = client.server_info
    print(json.dumps({"protocolVersion": client.protocol_version,
                      "server": [info.name, info.version] if info else None}))
    tools = dump(await client.list_tools())
    print(json.dumps({"tools/list": tools}))
    names = [t["name"] for t in tools["tools"]]
    if names != ["get_order"]:
        print(f"tools/list offered {names}, expected ['get_order']")
        return 1
    mine = dump(await client.call_tool("get_order", {"order_id": "A-104"}))
    print(json.dumps({"get_order A-104": mine}))
    if mine.get("isError") or mine.get("structuredContent", {}).get("status") != "processing":
        print("get_order A-104 did not return the processing snapshot")
        return 1
    other = dump(await client.call_tool("get_order", {"order_id": "B-205"}))
    print(json.dumps({"get_order B-205": other}))
    text = other.get("content", [{}])[0].get("text", "")
    if not other.get("isError") or not text.startswith("forbidden:") or "shipped" in json.dumps(other):
        print("get_order B-205 was not the forbidden tool error")
        return 1
    return 0


def innermost(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    return e


def exit_with(client) -> None:
    """Runs a client's coroutine and exits with its status (0 for None); when
    the SDK raised (it wraps errors in exception groups), exits 1 after one
    line naming the innermost error. Used by every SDK client script here."""
    try:
        status = asyncio.run(client)
    except BaseException as e:
        e = innermost(e)
        if isinstance(e, SystemExit):
            raise
        print(f"the client failed: {type(e).__name__}: {e}")
        sys.exit(1)
    sys.exit(status)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    exit_with(main(sys.argv[1]))
