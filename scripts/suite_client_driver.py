"""A scenario-aware driver around the official MCP Python SDK client (`mcp`)
for the official conformance suite's client scenarios, run both by the
suite (`conformance client --command "PYTHON scripts/suite_client_driver.py"
--scenario NAME`) and by scripts/suite_side_by_side.py against
`mcp-reference judge --http`, so that the same client does the same thing
before both (issue 48, "The anchor, side by side"; the client side of
basic/index.mdx#meta, basic/patterns/mrtr.mdx and
basic/transports/streamable-http.mdx of 2026-07-28).

How it is called is the suite's client interface: the server URL is the last
argument, the scenario's name is in MCP_CONFORMANCE_SCENARIO, and the
scenario's test data, when it has some, is JSON in MCP_CONFORMANCE_CONTEXT.
The driver only chooses the calls; the SDK does all the protocol work
(discovery, `_meta`, headers, version retry, multi round-trip retries).

What each scenario makes it do (tools are found by the server's tools/list,
never assumed; arguments come from the context when it names them, else from
the tool's input schema):

- request-metadata: tools/list, then one call of "the first tool" (below),
  if the server lists one.
- tools_call: tools/list, then a call of the first tool, its required
  arguments filled from its schema. "The first tool" is the first listed
  that takes a required argument (the scenario is about calls with
  arguments), else the first listed.
- sep-2322-client-request-state: the multi round-trip tools the scenario is
  about, by role: one whose InputRequiredResult carries a requestState, one
  whose does not, an unrelated tool called while the first is between its
  rounds (from inside the elicitation callback), and a tool whose result has
  no resultType. Each role names the suite's tool and the reference's
  (data/conformance.json) that plays it; a role the server lists no tool for
  is said and skipped.
- http-standard-headers: tools/list, tools/call of the first tool,
  resources/list, resources/read of the first resource, prompts/list and
  prompts/get of the first prompt (the methods whose Mcp-Method and Mcp-Name
  headers the scenario looks at).
- http-custom-headers: tools/list, then the context's tool calls as given;
  without a context, every listed tool that marks a parameter
  `x-mcp-header`, its arguments filled from its schema.

Prints one JSON object per step; exits 0 when every call got an answer
(a result or a tool error), 1 with one sentence otherwise, 2 on bad usage.

usage: MCP_CONFORMANCE_SCENARIO=NAME python suite_client_driver.py URL
       python suite_client_driver.py --scenario NAME URL
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp import Client  # noqa: E402
from mcp.types import ElicitResult  # noqa: E402

from sdk_http_client import exit_with  # noqa: E402  (the SDK's exception groups)
from sdk_mrtr_client import dump, filled  # noqa: E402
from suite_side_by_side import SCENARIOS  # noqa: E402  (the five scenarios, listed once)


# sep-2322-client-request-state's roles: the suite's tool first, then the
# reference's tool of data/conformance.json that plays the same part.
MRTR_ROLES = {
    "with-state": ["test_mrtr_echo_state", "test_input_required_result_request_state"],
    "without-state": ["test_mrtr_no_state", "test_input_required_result_elicitation"],
    "unrelated": ["test_mrtr_unrelated", "test_simple_text"],
    "no-result-type": ["test_mrtr_no_result_type"],
}


def say(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def arguments_for(schema: dict | None) -> dict:
    """Values for a tool's required properties, from their schema alone
    (test data, not a rule): a default, an enum's first value, else one of
    the declared type."""
    args = {}
    schema = schema or {}
    props = schema.get("properties", {})
    for key in schema.get("required", []):
        prop = props.get(key, {})
        if "default" in prop:
            args[key] = prop["default"]
        elif prop.get("enum"):
            args[key] = prop["enum"][0]
        elif prop.get("type") in ("number", "integer"):
            args[key] = 2
        elif prop.get("type") == "boolean":
            args[key] = True
        elif prop.get("type") == "array":
            args[key] = []
        elif prop.get("type") == "object":
            args[key] = {}
        else:
            args[key] = "A-104"
    return args


def first_tool(tools: list[dict]) -> dict | None:
    """The tool a scenario that calls "a tool" calls: the first listed that
    takes a required argument (the scenarios are about calls with
    arguments), else the first listed."""
    with_args = [t for t in tools if (t.get("inputSchema") or {}).get("required")]
    return (with_args or tools or [None])[0]


def marks_header(tool: dict) -> bool:
    props = (tool.get("inputSchema") or {}).get("properties", {})
    return any(isinstance(p, dict) and "x-mcp-header" in p for p in props.values())


class Driver:
    def __init__(self, scenario: str, url: str, context: dict | None):
        self.scenario = scenario
        self.url = url
        self.context = context or {}
        self.client: Client | None = None
        self.during_round: list[str] = []  # tools to call from inside the next elicitation

    async def elicit(self, _context, params) -> ElicitResult:
        while self.during_round:
            name = self.during_round.pop(0)
            result = dump(await self.client.call_tool(name, {}))
            say({"step": f"tools/call {name} (between rounds)", "isError": result.get("isError", False)})
        asked = dump(params)
        if asked.get("mode") == "url":  # a URL-mode accept carries no content
            return ElicitResult(action="accept")
        return ElicitResult(action="accept", content=filled(asked.get("requestedSchema")))

    async def call(self, name: str, args: dict) -> dict:
        result = dump(await self.client.call_tool(name, args))
        say({"step": f"tools/call {name}", "arguments": args, "isError": result.get("isError", False),
             "content": result.get("content", [])[:1]})
        return result

    async def tools(self) -> list[dict]:
        tools = dump(await self.client.list_tools())["tools"]
        say({"step": "tools/list", "tools": [t["name"] for t in tools]})
        return tools

    async def run(self) -> None:
        async with Client(self.url, elicitation_callback=self.elicit) as client:
            self.client = client
            say({"scenario": self.scenario, "protocolVersion": client.protocol_version})
            await getattr(self, "run_" + self.scenario.replace("-", "_"))()

    async def run_request_metadata(self) -> None:
        tool = first_tool(await self.tools())
        if tool:
            await self.call(tool["name"], arguments_for(tool.get("inputSchema")))

    async def run_tools_call(self) -> None:
        tool = first_tool(await self.tools())
        if tool is None:
            raise RuntimeError("the server lists no tool to call")
        await self.call(tool["name"], arguments_for(tool.get("inputSchema")))

    async def run_sep_2322_client_request_state(self) -> None:
        listed = {t["name"]: t for t in await self.tools()}
        role = {}
        for name, candidates in MRTR_ROLES.items():
            role[name] = next((c for c in candidates if c in listed), None)
            if role[name] is None:
                say({"step": f"role {name}", "skipped": "the server lists no tool for it"})
        if role["with-state"] and role["unrelated"]:
            self.during_round.append(role["unrelated"])
        for name in ("with-state", "without-state", "no-result-type"):
            if role[name]:
                await self.call(role[name], arguments_for(listed[role[name]].get("inputSchema")))
        if self.during_round:  # the with-state tool never asked: call it anyway
            await self.call(self.during_round.pop(0), {})

    async def run_http_standard_headers(self) -> None:
        tool = first_tool(await self.tools())
        if tool:
            await self.call(tool["name"], arguments_for(tool.get("inputSchema")))
        resources = dump(await self.client.list_resources())["resources"]
        say({"step": "resources/list", "resources": [r["uri"] for r in resources]})
        if resources:
            read = dump(await self.client.read_resource(resources[0]["uri"]))
            say({"step": f"resources/read {resources[0]['uri']}", "contents": len(read.get("contents", []))})
        prompts = dump(await self.client.list_prompts())["prompts"]
        say({"step": "prompts/list", "prompts": [p["name"] for p in prompts]})
        if prompts:
            args = {a["name"]: "test-value" for a in prompts[0].get("arguments", []) if a.get("required")}
            got = dump(await self.client.get_prompt(prompts[0]["name"], args))
            say({"step": f"prompts/get {prompts[0]['name']}", "messages": len(got.get("messages", []))})

    async def run_http_custom_headers(self) -> None:
        tools = await self.tools()
        calls = self.context.get("toolCalls")
        if calls is None:
            calls = [{"name": t["name"], "arguments": arguments_for(t.get("inputSchema"))} for t in tools
                     if marks_header(t)]
        if not calls:
            raise RuntimeError("no tool marks a parameter x-mcp-header and the context names no call")
        for c in calls:
            await self.call(c["name"], c.get("arguments") or {})


def parse(argv: list[str]) -> tuple[str, str]:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO")
    rest = list(argv)
    if len(rest) >= 2 and rest[0] == "--scenario":
        scenario, rest = rest[1], rest[2:]
    if len(rest) != 1 or scenario not in SCENARIOS:
        print(__doc__, file=sys.stderr)
        print(f"scenario {scenario!r}: one of {', '.join(SCENARIOS)}", file=sys.stderr)
        sys.exit(2)
    return scenario, rest[0]


if __name__ == "__main__":
    name, target = parse(sys.argv[1:])
    raw = os.environ.get("MCP_CONFORMANCE_CONTEXT")
    try:
        ctx = json.loads(raw) if raw else None
    except json.JSONDecodeError as e:
        print(f"MCP_CONFORMANCE_CONTEXT is not JSON: {e}")
        sys.exit(2)
    exit_with(Driver(name, target, ctx).run())
