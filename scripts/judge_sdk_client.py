"""The official MCP Python SDK (`mcp`) as a real client judged by
`mcp-reference judge` (run by tests/judge_sdk.rs): over stdio (a command
after `--`, the SDK spawns the judge) or Streamable HTTP (a URL), it does
what the SDK does to connect, then tools/list, tools/call test_simple_text,
tools/call test_input_required_result_request_state (the elicitation
callback accepts with content filling the schema; the SDK echoes the
requestState), prompts/get test_simple_prompt and resources/read of the
first listed resource. The judge's report is the verdict: this script's
output is for people; it exits 0 when every call got an answer, 1 otherwise.

usage: python judge_sdk_client.py URL
       python judge_sdk_client.py -- CMD [ARGS...]
"""

import json
import sys

from mcp import Client
from mcp.types import ElicitResult

from sdk_http_client import exit_with  # beside this file: the SDK's exception groups
from sdk_mrtr_client import dump, filled, target_of


async def main(target: list[str]) -> int:
    async def elicit(context, params) -> ElicitResult:
        return ElicitResult(action="accept", content=filled(dump(params).get("requestedSchema")))

    async with Client(target_of(target), elicitation_callback=elicit) as client:
        print(json.dumps({"protocolVersion": client.protocol_version}))
        tools = dump(await client.list_tools())
        print(json.dumps({"tools/list": [t["name"] for t in tools["tools"]]}))
        print(json.dumps({"test_simple_text": dump(await client.call_tool("test_simple_text", {}))}))
        state = dump(await client.call_tool("test_input_required_result_request_state", {}))
        print(json.dumps({"test_input_required_result_request_state": state}))
        print(json.dumps({"test_simple_prompt": dump(await client.get_prompt("test_simple_prompt", {}))}))
        resources = dump(await client.list_resources())["resources"]
        uri = resources[0]["uri"]
        print(json.dumps({uri: dump(await client.read_resource(uri))}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or (sys.argv[1] == "--" and len(sys.argv) < 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    exit_with(main(sys.argv[1:]))
