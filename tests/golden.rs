//! The textbook's recorded run (Table 43.2; README, "The textbook"),
//! reproduced exactly by the default configuration: Example 43.2 byte for
//! byte from the core and from the binary over stdio, the other four
//! exchanges as the table records them, and the committed demo transcript
//! `data/mcp-run.json` reproduced byte for byte by a fresh run of the real
//! binary. Replies are compared as bytes, never re-serialized.

mod support;

use mcp_reference::{Config, Server};
use serde_json::{Value, json};
use support::{call, line, reply, validate};

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "book-host", "version": "1.0.0"}
    })
}

/// A file of this repository, as bytes.
fn repo_file(path: &str) -> Vec<u8> {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// Example 43.2's two lines as committed (`data/example-43.2.*.json`).
fn example_43_2() -> (Vec<u8>, Vec<u8>) {
    (
        repo_file("data/example-43.2.request.json"),
        repo_file("data/example-43.2.response.json"),
    )
}

/// The committed transcript's (request, response) lines.
fn transcript() -> Vec<(String, String)> {
    let text = repo_file("data/mcp-run.json");
    let v: Value = serde_json::from_slice(&text).unwrap();
    v["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["request"].as_str().unwrap().to_owned(),
                e["response"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Example 43.2: the core's reply to the book's request is the book's
/// reply, byte for byte.
#[test]
fn example_43_2_byte_for_byte_from_the_core() {
    let (request, response) = example_43_2();
    let server = Server::new(Config::default());
    let line = request.strip_suffix(b"\n").unwrap();
    let got = server.respond(line).expect("a reply");
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&response)
    );
}

/// Example 43.2 through the real binary over stdio, exactly as a host
/// sends it (one line, newline-terminated, then end-of-file).
#[test]
fn example_43_2_byte_for_byte_over_stdio() {
    let (request, response) = example_43_2();
    assert_eq!(serve(&request), response);
}

/// The committed copies are the textbook's own lines (`MCP_TEXTBOOK_DIR`,
/// else `../shared/textbook/`). A folder that is the checkout's own
/// `data/` is no textbook (the copy would be compared with itself, as the
/// public workflow once did). Without the textbook the test says it did
/// not run, and under `CI=true` it fails: a CI run compares the committed
/// copy with the book's lines or is not green (`.ci/run` requires them;
/// docs/fuzzing.md, "Switches that cannot weaken a CI run").
#[test]
fn committed_example_is_the_textbooks() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let dir = std::env::var_os("MCP_TEXTBOOK_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/textbook")
        });
    let own_copy = |name: &str| {
        let (a, b) = (
            dir.join(name).canonicalize(),
            data.join(name).canonicalize(),
        );
        matches!((a, b), (Ok(a), Ok(b)) if a == b)
    };
    let absent = if !dir.is_dir() {
        Some(format!("{} is absent", dir.display()))
    } else if own_copy("example-43.2.request.json") || own_copy("example-43.2.response.json") {
        Some(format!(
            "{} holds the checkout's own data/ copies, not the textbook",
            dir.display()
        ))
    } else {
        None
    };
    if let Some(why) = absent {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !ci,
            "{why}: under CI=true the committed Example 43.2 must be compared with the \
             textbook's lines (set MCP_TEXTBOOK_DIR to a folder that holds them)"
        );
        eprintln!("NOT RUN: {why}; the committed Example 43.2 was not compared with the textbook");
        return;
    }
    let (request, response) = example_43_2();
    assert_eq!(
        std::fs::read(dir.join("example-43.2.request.json")).unwrap(),
        request
    );
    assert_eq!(
        std::fs::read(dir.join("example-43.2.response.json")).unwrap(),
        response
    );
}

/// Runs `serve` with the default configuration on `input`; its stdout.
fn serve(input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-reference"))
        .arg("serve")
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    out.stdout
}

/// The five exchanges of Table 43.2 through the binary over stdio: the
/// replies are the committed transcript's, byte for byte, and request 3
/// and its reply are Example 43.2.
#[test]
fn the_five_exchanges_over_stdio() {
    let exchanges = transcript();
    assert_eq!(exchanges.len(), 5);
    let (request, response) = example_43_2();
    assert_eq!(format!("{}\n", exchanges[2].0).as_bytes(), request);
    assert_eq!(format!("{}\n", exchanges[2].1).as_bytes(), response);
    let input: String = exchanges.iter().map(|(q, _)| format!("{q}\n")).collect();
    let expected: String = exchanges.iter().map(|(_, r)| format!("{r}\n")).collect();
    assert_eq!(
        String::from_utf8(serve(input.as_bytes())).unwrap(),
        expected
    );
    // Each request is in the book's form: members jsonrpc, id, method,
    // params; the host is book-host 1.0.0.
    for (q, _) in &exchanges {
        assert!(q.starts_with(r#"{"jsonrpc":"2.0","id":"#), "{q}");
        assert!(
            q.contains(r#"/clientInfo":{"name":"book-host","version":"1.0.0"}"#),
            "{q}"
        );
    }
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "book-orders", "version": "1.0.0"}})
}

#[test]
fn exchange_1_discover() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &line(json!(1), "server/discover", json!({"_meta": meta()})),
    );
    validate(Some("server/discover"), &got);
    // Table 43.2, exchange 1: supports 2026-07-28, offers tools, serverInfo
    // book-orders 1.0.0.
    assert_eq!(
        got,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "instructions": "Read-only access to the orders of the configured user. Call get_order with the id of one of your orders.",
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": server_info()
        }})
    );
}

#[test]
fn exchange_2_tools_list() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &line(json!(2), "tools/list", json!({"_meta": meta()})),
    );
    validate(Some("tools/list"), &got);
    let result = &got["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 300000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"], server_info());
    let tools = result["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "only the configured tools: {tools:?}");
    let tool = &tools[0];
    assert_eq!(tool["name"], "get_order");
    assert_eq!(tool["inputSchema"]["required"], json!(["order_id"]));
    assert_eq!(
        tool["inputSchema"]["properties"]["order_id"]["type"],
        "string"
    );
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(
        tool["outputSchema"]["required"],
        json!(["order_id", "status", "as_of", "source_version"])
    );
}

/// Example 43.2 of the textbook: the `tools/call` of `A-104`, id 3.
#[test]
fn exchange_3_get_order_a104_is_example_43_2() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &call(json!(3), meta(), "get_order", json!({"order_id": "A-104"})),
    );
    validate(Some("tools/call"), &got);
    assert_eq!(got["result"]["isError"], false);
    assert_eq!(got["result"]["structuredContent"]["status"], "processing");
    let text = got["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        got["result"]["structuredContent"]
    );
}

#[test]
fn exchange_4_get_order_b205_is_forbidden_without_data() {
    let server = Server::new(Config::default());
    let raw = server
        .respond(call(json!(4), meta(), "get_order", json!({"order_id": "B-205"})).as_bytes())
        .unwrap();
    let got: Value = serde_json::from_slice(&raw).unwrap();
    validate(Some("tools/call"), &got);
    assert_eq!(got["result"]["isError"], true);
    assert_eq!(got["result"]["resultType"], "complete");
    assert!(got["result"].get("structuredContent").is_none());
    // Table 43.2: "complete, but carries a forbidden tool error": the one
    // text block says so with a stable prefix.
    let said = got["result"]["content"][0]["text"].as_str().unwrap();
    assert!(said.starts_with("forbidden: "), "{said}");
    let text = String::from_utf8(raw).unwrap();
    let b205 = Config::default()
        .orders()
        .iter()
        .find(|o| o.order_id == "B-205")
        .unwrap()
        .clone();
    for secret in [&b205.order_id, &b205.owner, &b205.status, &b205.as_of] {
        assert!(!text.contains(secret.as_str()), "leaks {secret}: {text}");
    }
    // Identical to the reply for an order that does not exist.
    let missing = server
        .respond(call(json!(4), meta(), "get_order", json!({"order_id": "Z-999"})).as_bytes())
        .unwrap();
    assert_eq!(text.as_bytes(), missing.as_slice());
}

#[test]
fn exchange_5_cancel_order_is_an_unknown_tool() {
    let server = Server::new(Config::default());
    let got = reply(
        &server,
        &call(
            json!(5),
            meta(),
            "cancel_order",
            json!({"order_id": "A-104"}),
        ),
    );
    validate(Some("tools/call"), &got);
    assert_eq!(got["id"], 5);
    assert_eq!(got["error"]["code"], -32602);
    assert!(got.get("result").is_none());
}

#[test]
fn demo_transcript_matches_the_committed_one() {
    let dir = std::env::temp_dir().join(format!("mcp-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run.json");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-reference"))
        .args(["demo", "--out"])
        .arg(&out)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let fresh = std::fs::read_to_string(&out).unwrap();
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/mcp-run.json")).unwrap();
    assert_eq!(
        fresh, committed,
        "run `cargo run --release -- demo` and review the diff"
    );
    // Every response in it is valid against the schema.
    let transcript: Value = serde_json::from_str(&committed).unwrap();
    for exchange in transcript["exchanges"].as_array().unwrap() {
        let request: Value = serde_json::from_str(exchange["request"].as_str().unwrap()).unwrap();
        let response: Value = serde_json::from_str(exchange["response"].as_str().unwrap()).unwrap();
        validate(request["method"].as_str(), &response);
        assert_eq!(request["id"], response["id"]);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// No constant text names an order: with another user, neither discover,
/// tools/list, the invalid-arguments result nor the forbidden result
/// carries an id of the textbook's orders, none of which is that user's.
#[test]
fn constant_texts_name_no_order() {
    let config = Config::default().with_user("tomas").unwrap();
    let ids: Vec<String> = config.orders().iter().map(|o| o.order_id.clone()).collect();
    let server = Server::new(config);
    let lines = [
        line(json!(1), "server/discover", json!({"_meta": meta()})),
        line(json!(2), "tools/list", json!({"_meta": meta()})),
        call(json!(3), meta(), "get_order", json!({})),
        call(json!(4), meta(), "get_order", json!({"order_id": "A-104"})),
    ];
    for l in lines {
        let out = server.respond(l.as_bytes()).unwrap();
        let text = String::from_utf8(out).unwrap();
        for id in &ids {
            // No reply echoes text of the request (docs/behavior.md).
            assert!(!text.contains(id.as_str()), "{id} in {text}");
        }
    }
}

/// The demo with another user, or with another configuration, writes its
/// transcript under `target/` of the checkout it runs in, says where, and
/// never touches `data/mcp-run.json`.
#[test]
fn demo_with_another_configuration_leaves_the_recorded_run_alone() {
    let dir = std::env::temp_dir().join(format!("mcp-demo-cwd-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    // A checkout as the demo recognises one (outside it, see
    // tests/command_line.rs, the demo writes nothing into the directory).
    std::fs::write(dir.join("Cargo.toml"), "").unwrap();
    std::fs::write(dir.join("data/example-43.2.request.json"), "").unwrap();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/data/config.example.json");
    for (args, env_user) in [
        (vec!["demo"], Some("tomas")),
        (vec!["demo", "--config", config], None),
        (vec!["demo", "--user", "mira", "--config", config], None),
    ] {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-reference"));
        command
            .args(&args)
            .current_dir(&dir)
            .env_remove("MCP_REFERENCE_CONFIG")
            .env_remove("MCP_REFERENCE_USER");
        if let Some(user) = env_user {
            command.env("MCP_REFERENCE_USER", user);
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.contains("transcript written to target/demo/mcp-run.json"),
            "{args:?}: {said}"
        );
        assert!(!dir.join("data/mcp-run.json").exists(), "{args:?}");
        assert!(dir.join("target/demo/mcp-run.json").is_file(), "{args:?}");
        std::fs::remove_file(dir.join("target/demo/mcp-run.json")).unwrap();
    }
    // The default configuration, run from the same place, writes the
    // recorded run's path.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-reference"))
        .arg("demo")
        .current_dir(&dir)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(dir.join("data/mcp-run.json")).unwrap(),
        repo_file("data/mcp-run.json")
    );
    let _ = std::fs::remove_dir_all(dir);
}
