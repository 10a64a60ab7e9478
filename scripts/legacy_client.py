"""Drives `mcp-reference serve` with the official MCP Python SDK, as a
legacy (initialize-handshake) client: tools/list, then tools/call get_order
A-104. Not run in CI; see scripts/legacy-client.sh.

usage: python legacy_client.py BINARY MODE [SERVER ARGS...]
  MODE: legacy (initialize handshake) or auto (server/discover probe first)
"""

import json
import sys

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

from sdk_http_client import exit_with  # beside this file: the SDK's exception groups


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



if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    exit_with(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
