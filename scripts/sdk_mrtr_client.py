"""The official MCP Python SDK (`mcp`) as a real client of the reference's
multi round-trip requests and progress, over Streamable HTTP (a URL) or
stdio (a command after `--`), in its default (auto) mode:

- calls a multi-round tool: the SDK answers each `InputRequiredResult`'s
  elicitation through its callback (accepting, with content that fills the
  requested schema) and retries with the responses and the echoed
  `requestState` until the call completes, not as a tool error;
- gets a prompt that asks for input the same way;
- calls a one-round elicitation tool with a client that declines: the call
  never ends in the result an accepted answer gets;
- calls a tool with a progress callback: progress arrives before the
  result, increasing.

What to expect comes from the test that runs this (tests/sdk_mrtr.rs), as
one JSON object: {"multi_round", "prompt", "elicitation", "progress"} (the
tools' and the prompt's names in the configuration). Prints one JSON object
per call and exits 0 when every answer is as expected; 1 with one sentence
otherwise.

usage: python sdk_mrtr_client.py EXPECT_JSON URL
       python sdk_mrtr_client.py EXPECT_JSON -- CMD [ARGS...]
"""

import asyncio
import json
import sys

from mcp import Client, MCPError, StdioServerParameters
from mcp.types import ElicitResult

from sdk_http_client import innermost  # beside this file: the SDK's exception groups


def dump(model) -> dict:
    return model.model_dump(mode="json", exclude_unset=True, by_alias=True)


class Unexpected(Exception):
    pass


def expect(cond: bool, sentence: str) -> None:
    if not cond:
        raise Unexpected(sentence)


def filled(schema: dict) -> dict:
    """Content that fills a flat elicitation schema (test data, not a rule)."""
    content = {}
    for key, prop in (schema or {}).get("properties", {}).items():
        if "enum" in prop:
            content[key] = prop["enum"][0]
        elif prop.get("type") == "boolean":
            content[key] = True
        elif prop.get("type") in ("number", "integer"):
            content[key] = 1
        else:
            content[key] = "sdk-client"
    return content


def target_of(target: list[str]):
    if target[0] == "--":
        return StdioServerParameters(command=target[1], args=target[2:])
    return target[0]


async def accepting(want: dict, target: list[str]) -> str:
    asked: list[dict] = []

    async def elicit(context, params) -> ElicitResult:
        p = dump(params)
        asked.append(p)
        return ElicitResult(action="accept", content=filled(p.get("requestedSchema")))

    async with Client(target_of(target), elicitation_callback=elicit) as client:
        print(json.dumps({"protocolVersion": client.protocol_version}))
        result = dump(await client.call_tool(want["multi_round"], {}))
        print(json.dumps({f"tools/call {want['multi_round']}": result, "elicitations": len(asked)}))
        expect(len(asked) >= 2, f"{want['multi_round']} asked {len(asked)} times through elicitation, not at least twice")
        expect(not result.get("isError", False), f"{want['multi_round']} ended as a tool error: {json.dumps(result)}")
        expect(result.get("content"), f"{want['multi_round']} completed without content")

        before = len(asked)
        prompt = dump(await client.get_prompt(want["prompt"], {}))
        print(json.dumps({f"prompts/get {want['prompt']}": prompt, "elicitations": len(asked) - before}))
        expect(len(asked) > before, f"{want['prompt']} completed without asking for input")
        expect(prompt.get("messages"), f"{want['prompt']} completed without messages")

        before = len(asked)
        accepted = dump(await client.call_tool(want["elicitation"], {}))
        print(json.dumps({f"tools/call {want['elicitation']} (accepted)": accepted}))
        expect(len(asked) == before + 1, f"{want['elicitation']} asked {len(asked) - before} times, not once")
        expect(not accepted.get("isError", False), f"{want['elicitation']} accepted ended as a tool error")

        seen: list[tuple] = []

        async def progress(value, total, message) -> None:
            seen.append((value, total, message))

        done = dump(await client.call_tool(want["progress"], {}, progress_callback=progress))
        print(json.dumps({f"tools/call {want['progress']}": done, "progress": seen}))
        expect(seen, f"{want['progress']} sent no progress before its result")
        values = [v for v, _, _ in seen]
        expect(all(a < b for a, b in zip(values, values[1:])), f"progress did not increase: {values}")
        expect(not done.get("isError", False), f"{want['progress']} ended as a tool error")
        return json.dumps(accepted, sort_keys=True)


async def declining(want: dict, target: list[str], accepted: str) -> None:
    async def decline(context, params) -> ElicitResult:
        return ElicitResult(action="decline")

    async with Client(target_of(target), elicitation_callback=decline, input_required_max_rounds=3) as client:
        try:
            got = dump(await client.call_tool(want["elicitation"], {}))
            print(json.dumps({f"tools/call {want['elicitation']} (declined)": got}))
            expect(json.dumps(got, sort_keys=True) != accepted, "a declined elicitation got the accepted result")
        except MCPError as e:
            print(json.dumps({f"tools/call {want['elicitation']} (declined)": {"code": e.code, "message": e.message}}))
        except RuntimeError as e:  # InputRequiredRoundsExceededError: re-requested every round
            print(json.dumps({f"tools/call {want['elicitation']} (declined)": {"rounds exceeded": str(e)[:120]}}))


async def main(want: dict, target: list[str]) -> int:
    accepted = await accepting(want, target)
    await declining(want, target, accepted)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3 or (sys.argv[2] == "--" and len(sys.argv) < 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(asyncio.run(main(json.loads(sys.argv[1]), sys.argv[2:])))
    except BaseException as e:  # the SDK wraps errors in exception groups
        e = innermost(e)
        if isinstance(e, SystemExit):
            raise
        if isinstance(e, Unexpected):
            print(str(e))
        else:
            print(f"the client failed: {type(e).__name__}: {e}")
        sys.exit(1)
