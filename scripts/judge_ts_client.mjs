// The official MCP TypeScript SDK client (@modelcontextprotocol/client) as a
// real client judged by `mcp-reference judge` (run by tests/judge_ts_sdk.rs),
// the counterpart of scripts/judge_sdk_client.py: over stdio (a command after
// `--`, the SDK spawns the judge) or Streamable HTTP (a URL), it connects as
// the SDK does for 2026-07-28 (version negotiation pinned to it, so
// `server/discover` and no `initialize`), then tools/list, tools/call
// test_simple_text, tools/call test_input_required_result_request_state (the
// SDK fulfils the InputRequiredResult through the elicitation/create handler,
// which accepts with content filling the requestedSchema, and retries with
// the requestState echoed), prompts/get test_simple_prompt and resources/read
// of the first listed resource, and closes. Spec 2026-07-28:
// basic/patterns/mrtr.mdx, client/elicitation.mdx, basic/transports/.
//
// The SDK is loaded from $MCP_TS_CLIENT_DIR/node_modules (target/ts-client,
// installed by .ci/run from scripts/ts-client/package-lock.json). The judge's
// report is the verdict: this script's output is for people; it exits 0 when
// every call got an answer, 1 otherwise, 2 on a usage error.
//
// usage: node judge_ts_client.mjs URL
//        node judge_ts_client.mjs -- CMD [ARGS...]
// Its clientInfo: {"name": "mcp-reference-ts-client", "version": the SDK's}.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const USAGE = "usage: node judge_ts_client.mjs URL | -- CMD [ARGS...]";

/** Content that fills a flat elicitation schema (test data, not a rule). */
function filled(schema) {
  const content = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    if (Array.isArray(prop.enum)) content[key] = prop.enum[0];
    else if (prop.type === "boolean") content[key] = true;
    else if (prop.type === "number" || prop.type === "integer") content[key] = 1;
    else content[key] = "ts-client";
  }
  return content;
}

async function main(argv) {
  const dir = process.env.MCP_TS_CLIENT_DIR;
  if (!dir) throw new Error("MCP_TS_CLIENT_DIR is not set (the folder holding node_modules/@modelcontextprotocol/client)");
  const pkg = join(dir, "node_modules/@modelcontextprotocol/client");
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  const sdk = await import(pathToFileURL(join(pkg, "dist/index.mjs")).href);

  let transport;
  if (argv[0] === "--") {
    const { StdioClientTransport } = await import(pathToFileURL(join(pkg, "dist/stdio.mjs")).href);
    // The judge's stderr (its summary) goes to this script's stderr.
    transport = new StdioClientTransport({ command: argv[1], args: argv.slice(2), stderr: "inherit" });
  } else {
    transport = new sdk.StreamableHTTPClientTransport(new URL(argv[0]));
  }

  const client = new sdk.Client(
    { name: "mcp-reference-ts-client", version },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    },
  );
  let elicitations = 0;
  client.setRequestHandler("elicitation/create", async (request) => {
    elicitations += 1;
    return { action: "accept", content: filled(request.params?.requestedSchema) };
  });

  const show = (value) => console.log(JSON.stringify(value));
  await client.connect(transport);
  try {
    show({ protocolVersion: client.getNegotiatedProtocolVersion() });
    const tools = await client.listTools();
    show({ "tools/list": tools.tools.map((t) => t.name) });
    show({ test_simple_text: await client.callTool({ name: "test_simple_text", arguments: {} }) });
    const state = await client.callTool({ name: "test_input_required_result_request_state", arguments: {} });
    show({ test_input_required_result_request_state: state, elicitations });
    if (elicitations < 1) throw new Error("the input-required tool completed without an elicitation");
    show({ test_simple_prompt: await client.getPrompt({ name: "test_simple_prompt", arguments: {} }) });
    const resources = (await client.listResources()).resources;
    if (resources.length === 0) throw new Error("resources/list listed no resource");
    const uri = resources[0].uri;
    show({ [uri]: await client.readResource({ uri }) });
  } finally {
    // Over stdio the SDK ends the session: it closes the judge's stdin and
    // waits for it to exit (a signal only after two seconds).
    await client.close();
  }
  return 0;
}

const argv = process.argv.slice(2);
if (argv.length < 1 || (argv[0] === "--" && argv.length < 2)) {
  console.error(USAGE);
  process.exit(2);
}
main(argv).then(
  (code) => process.exit(code),
  (e) => {
    console.log(`the client failed: ${e?.name ?? "Error"}: ${e?.message ?? e}`);
    process.exit(1);
  },
);
