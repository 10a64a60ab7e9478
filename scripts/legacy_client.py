"""Drives `mcp-reference serve` with the official MCP Python SDK, as a
legacy (initialize-handshake) client: tools/list, then tools/call get_order
A-104. Not run in CI; see scripts/legacy-client.sh.

usage: python legacy_client.py BINARY MODE [SERVER ARGS...]
  MODE: legacy (initialize handshake) or auto (server/discover probe first)
"""

import asyncio
import json
import sys

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters


async def main(binary: str, mode: str, server_args: list[str]) -> int:
    params = StdioServerParameters(command=binary, args=server_args)
    async with Client(params, mode=mode) as client:
        info = client.server_info
        print(f"mode={mode} negotiated protocolVersion={client.protocol_version}"
              f" server={info.name if info else None} {info.version if info else ''}")
        tools = await client.list_tools()
        print("tools/list:", json.dumps(tools.model_dump(mode="json", exclude_unset=True, by_alias=True)))
        result = await client.call_tool("get_order", {"order_id": "A-104"})
        print("tools/call get_order A-104:",
              json.dumps(result.model_dump(mode="json", exclude_unset=True, by_alias=True)))
    return 0


def innermost(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    return e


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:])))
    except BaseException as e:  # the SDK wraps errors in exception groups
        e = innermost(e)
        if isinstance(e, SystemExit):
            raise
        print(f"the client failed: {type(e).__name__}: {e}")
        sys.exit(1)
