"""The official MCP Python SDK (`mcp`) as a real client of the reference's
resources, prompts and completion, over Streamable HTTP (a URL) or stdio (a
command after `--`), in its default (auto) mode:

- lists resources and resource templates;
- reads a policy (text), the binary resource (its blob decoded must be the
  configured bytes) and the order template for the user's own order;
- reads the template for another user's order: refused with an MCPError
  -32602, and nothing of that order in it;
- lists prompts and gets `reply_to_customer` with its arguments (its
  messages embed the order resource);
- completes `order_id` for the prompt and for the template: only the
  user's own ids.

What to expect comes from the test that runs this (tests/sdk_catalog.rs),
read from the configuration file the server was started with, as one JSON
object: {"text_uri", "blob_uri", "blob", "template", "own", "foreign",
"prompt"}. Prints one JSON object per call and exits 0 when every answer is
as expected; 1 with one sentence otherwise.

usage: python sdk_catalog_client.py EXPECT_JSON URL
       python sdk_catalog_client.py EXPECT_JSON -- CMD [ARGS...]
"""

import asyncio
import base64
import json
import sys

from mcp import Client, MCPError, StdioServerParameters
from mcp.types import PromptReference, ResourceTemplateReference

from sdk_http_client import innermost  # beside this file: the SDK's exception groups


def dump(model) -> dict:
    return model.model_dump(mode="json", exclude_unset=True, by_alias=True)


class Unexpected(Exception):
    pass


def expect(cond: bool, sentence: str) -> None:
    if not cond:
        raise Unexpected(sentence)


async def session(client: Client, want: dict) -> None:
    print(json.dumps({"protocolVersion": client.protocol_version}))
    resources = dump(await client.list_resources())
    print(json.dumps({"resources/list": resources}))
    uris = [r["uri"] for r in resources["resources"]]
    for uri in (want["text_uri"], want["blob_uri"]):
        expect(uri in uris, f"resources/list did not offer {uri} (got {uris})")

    templates = dump(await client.list_resource_templates())
    print(json.dumps({"resources/templates/list": templates}))
    offered = [t["uriTemplate"] for t in templates["resourceTemplates"]]
    expect(want["template"] in offered, f"no template {want['template']} (got {offered})")

    text = dump(await client.read_resource(want["text_uri"]))
    print(json.dumps({"resources/read text": text}))
    contents = text["contents"]
    expect(len(contents) == 1 and contents[0].get("text"), "the policy did not come as one text")

    blob = dump(await client.read_resource(want["blob_uri"]))
    print(json.dumps({"resources/read blob": blob}))
    contents = blob["contents"]
    expect(len(contents) == 1 and "blob" in contents[0], "the binary resource came without a blob")
    expect(
        base64.b64decode(contents[0]["blob"], validate=True) == base64.b64decode(want["blob"]),
        "the blob does not decode to the configured bytes",
    )

    order_uri = want["template"].replace("{order_id}", want["own"][0])
    order = dump(await client.read_resource(order_uri))
    print(json.dumps({f"resources/read {order_uri}": order}))
    contents = order["contents"]
    expect(len(contents) == 1, "the order did not come as one content")
    snapshot = json.loads(contents[0]["text"])
    expect(snapshot.get("order_id") == want["own"][0], "the order snapshot names another order")

    foreign_uri = want["template"].replace("{order_id}", want["foreign"])
    try:
        got = dump(await client.read_resource(foreign_uri))
        raise Unexpected(f"reading {foreign_uri} gave a result: {json.dumps(got)}")
    except MCPError as e:
        print(json.dumps({f"resources/read {foreign_uri}": {"code": e.code, "message": e.message}}))
        expect(e.code == -32602, f"reading another user's order got {e.code}, not -32602")
        # R6: the refusal may echo the uri the client sent (data.uri), and
        # nothing else of the order.
        echoed = dict(e.data) if isinstance(e.data, dict) else e.data
        if isinstance(echoed, dict) and echoed.get("uri") == foreign_uri:
            del echoed["uri"]
        expect(want["foreign"] not in json.dumps([e.message, echoed]), "the refusal names the order")

    prompts = dump(await client.list_prompts())
    print(json.dumps({"prompts/list": prompts}))
    names = [p["name"] for p in prompts["prompts"]]
    expect(want["prompt"] in names, f"prompts/list did not offer {want['prompt']} (got {names})")
    prompt = dump(await client.get_prompt(want["prompt"], {"order_id": want["own"][0], "tone": "formal"}))
    print(json.dumps({f"prompts/get {want['prompt']}": prompt}))
    embedded = [
        m["content"]["resource"]
        for m in prompt["messages"]
        if m["content"].get("type") == "resource"
    ]
    expect(
        any(r.get("uri") == order_uri for r in embedded),
        f"the prompt's messages do not embed {order_uri}",
    )

    for ref in (PromptReference(name=want["prompt"]), ResourceTemplateReference(uri=want["template"])):
        done = dump(await client.complete(ref, {"name": "order_id", "value": ""}))
        print(json.dumps({f"completion/complete {ref.type} order_id": done}))
        values = done["completion"]["values"]
        expect(values == want["own"], f"completion of order_id gave {values}, expected {want['own']}")
        expect(want["foreign"] not in json.dumps(done), "completion named another user's order")


async def main(want: dict, target: list[str]) -> int:
    if target[0] == "--":
        server = StdioServerParameters(command=target[1], args=target[2:])
    else:
        server = target[0]
    async with Client(server) as client:
        await session(client, want)
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
