//! The dual-era legacy path (`--legacy`), proved on its own (issue 6).
//!
//! - Golden transcripts: `data/legacy-session.json` (a legacy host: the
//!   handshake and the textbook's four calls, under 2025-11-25 and
//!   2025-06-18) and `data/dual-era-session.json` (what 2026-07-28 clients
//!   do: a `server/discover` probe first, then modern continuation, or the
//!   legacy fallback; and both eras on one process) are reproduced by fresh
//!   runs of the real binary with `--legacy`, and every reply in them
//!   validates against the official schema of its era.
//! - Without `--legacy`, a legacy host's whole session gets exactly the
//!   core's replies (so `initialize` gets the error naming the supported
//!   versions, and nothing else changes).
//! - Properties over random interleavings of legacy and modern traffic on
//!   one [`Session`]: modern replies are the core's, byte for byte, whatever
//!   the legacy state; legacy replies follow a small model (the modern reply
//!   to the same call without the modern-only members, plus the lifecycle
//!   rules); every legacy reply validates against its version's schema; and
//!   no tool runs except where the model says so.
//!
//! Regenerate the transcripts with `MCP_UPDATE_GOLDEN=1 cargo test --release
//! --test legacy` and review the diff.

mod support;
#[path = "support/switches.rs"]
mod switches;

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use mcp_reference::Disposition;
use mcp_reference::LEGACY_VERSIONS;
use mcp_reference::LegacyVersion;
use mcp_reference::{Config, Server};
use mcp_reference::{Session, State};
use mcp_reference_testkit::Counting;
use mcp_reference_testkit::schema::Schema;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-reference");

/// Members a 2026-07-28 result has and no legacy result may have.
const MODERN_ONLY: [&str; 4] = ["resultType", "_meta", "ttlMs", "cacheScope"];

fn schema(version: &str) -> &'static Schema {
    static SCHEMAS: OnceLock<Vec<Schema>> = OnceLock::new();
    SCHEMAS
        .get_or_init(|| {
            ["2026-07-28", "2025-11-25", "2025-06-18"]
                .iter()
                .map(|v| Schema::find(v).unwrap_or_else(|e| panic!("{e}")))
                .collect()
        })
        .iter()
        .find(|s| s.version() == version)
        .unwrap_or_else(|| panic!("no schema {version}"))
}

fn validate_in(version: &str, method: Option<&str>, reply: &Value) {
    if let Err(e) = schema(version).validate_reply(method, reply) {
        panic!("{e}\nreply: {reply}");
    }
}

/// A legacy reply: valid for its version, and no modern-only member in a
/// result.
fn check_legacy_reply(version: &str, method: Option<&str>, reply: &Value) {
    validate_in(version, method, reply);
    if let Some(result) = reply.get("result") {
        for key in MODERN_ONLY {
            assert!(
                result.get(key).is_none(),
                "{key} in a legacy reply: {reply}"
            );
        }
    }
}

/// Whether a request line carries modern `_meta`.
fn is_modern(request: &Value) -> bool {
    request["params"]["_meta"]
        .as_object()
        .is_some_and(|m| m.keys().any(|k| k.starts_with("io.modelcontextprotocol/")))
        && request["method"] != "initialize"
}

// ---------------------------------------------------------------------------
// Golden transcripts through the real binary.

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"dual-era-client","version":"1.0.0"}}"#;

fn initialize(id: u32, version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"legacy-host","version":"1.0.0"}}}}}}"#
    )
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn legacy_call(id: u32, name: &str, order: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{"order_id":"{order}"}}}}}}"#
    )
}

fn modern_call(id: u32, name: &str, order: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{{META},"name":"{name}","arguments":{{"order_id":"{order}"}}}}}}"#
    )
}

fn modern(id: u32, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}}}}}"#)
}

fn legacy(id: u32, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
}

struct Script {
    name: &'static str,
    args: Vec<&'static str>,
    lines: Vec<String>,
}

const BOTH: &str = "2025-11-25,2025-06-18";

fn legacy_scripts() -> Vec<Script> {
    ["2025-11-25", "2025-06-18"]
        .into_iter()
        .map(|version| Script {
            name: if version == "2025-11-25" {
                "a 2025-11-25 host: the handshake, then the textbook's four calls"
            } else {
                "a 2025-06-18 host: the handshake, then the textbook's four calls"
            },
            args: vec!["serve", "--legacy", BOTH],
            lines: vec![
                initialize(1, version),
                INITIALIZED.to_string(),
                legacy(2, "tools/list"),
                legacy_call(3, "get_order", "A-104"),
                legacy_call(4, "get_order", "B-205"),
                legacy_call(5, "cancel_order", "A-104"),
            ],
        })
        .collect()
}

fn dual_era_scripts() -> Vec<Script> {
    vec![
        Script {
            name: "a 2026-07-28 client probes with server/discover, finds a modern server, and stays modern",
            args: vec!["serve", "--legacy", BOTH],
            lines: vec![
                modern(1, "server/discover"),
                modern(2, "tools/list"),
                modern_call(3, "get_order", "A-104"),
            ],
        },
        Script {
            name: "a dual-era client whose modern version is not served: the probe's -32022 names the legacy versions too, and the client opens a 2025-11-25 session",
            args: vec!["serve", "--legacy", BOTH],
            lines: vec![
                modern(1, "server/discover").replace("2026-07-28", "2027-01-01"),
                initialize(2, "2025-11-25"),
                INITIALIZED.to_string(),
                legacy_call(3, "get_order", "A-104"),
            ],
        },
        Script {
            name: "both eras on one process: a 2025-06-18 session, with modern requests served statelessly between its requests",
            args: vec!["serve", "--legacy", BOTH],
            lines: vec![
                legacy(1, "tools/list"),
                legacy(2, "ping"),
                initialize(3, "2025-06-18"),
                INITIALIZED.to_string(),
                modern_call(4, "get_order", "A-104"),
                legacy_call(5, "get_order", "A-104"),
                legacy(6, "ping"),
                modern(7, "ping"),
                modern(8, "server/discover"),
                initialize(9, "2025-11-25"),
                r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get_order","arguments":{}}}"#.to_string(),
            ],
        },
    ]
}

/// Runs the binary with `args` on `lines` (stdin closed after the last),
/// and pairs each line with its reply (`null` for a notification).
fn run(args: &[&str], lines: &[String]) -> (Vec<Value>, Option<i32>) {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("MCP_REFERENCE_CONFIG")
        .env_remove("MCP_REFERENCE_USER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let mut replies = text.lines();
    let mut exchanges = Vec::new();
    for line in lines {
        let request: Value = serde_json::from_str(line).unwrap();
        let response = if request.get("id").is_some() {
            let reply = replies
                .next()
                .unwrap_or_else(|| panic!("no reply to {line}"));
            let parsed: Value = serde_json::from_str(reply).unwrap();
            assert_eq!(parsed["id"], request["id"], "replies in order");
            Value::String(reply.to_string())
        } else {
            Value::Null
        };
        exchanges.push(json!({ "request": line, "response": response }));
    }
    assert_eq!(replies.next(), None, "a reply to a notification");
    (exchanges, output.status.code())
}

fn transcript(description: &str, scripts: &[Script]) -> Value {
    let sessions: Vec<Value> = scripts
        .iter()
        .map(|s| {
            let (exchanges, exit_code) = run(&s.args, &s.lines);
            let mut command = vec!["mcp-reference"];
            command.extend(&s.args);
            json!({ "name": s.name, "command": command, "exchanges": exchanges, "exit_code": exit_code })
        })
        .collect();
    json!({ "description": description, "sessions": sessions })
}

/// Compares a fresh transcript with the committed file (or writes it when
/// `MCP_UPDATE_GOLDEN` is set), then checks every reply in it.
fn golden(file: &str, fresh: Value) {
    let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = serde_json::to_string_pretty(&fresh).unwrap() + "\n";
    if switches::update("MCP_UPDATE_GOLDEN") {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        text, committed,
        "data/{file} differs from a fresh run; rerun with MCP_UPDATE_GOLDEN=1 and review the diff"
    );
    check_transcript(&fresh);
}

/// Every reply of a transcript: the id of its request; the 2026-07-28
/// schema for a modern request; the negotiated version's schema (and no
/// modern-only member) for a legacy one, or, before any `initialize`, the
/// schema of every legacy version.
fn check_transcript(transcript: &Value) {
    for session in transcript["sessions"].as_array().unwrap() {
        assert_eq!(session["exit_code"], 0);
        let mut negotiated: Option<String> = None;
        for exchange in session["exchanges"].as_array().unwrap() {
            let request: Value =
                serde_json::from_str(exchange["request"].as_str().unwrap()).unwrap();
            let Some(response) = exchange["response"].as_str() else {
                assert!(request.get("id").is_none());
                continue;
            };
            let reply: Value = serde_json::from_str(response).unwrap();
            assert_eq!(reply["id"], request["id"]);
            let method = request["method"].as_str();
            if is_modern(&request) {
                validate_in("2026-07-28", method, &reply);
                continue;
            }
            if method == Some("initialize")
                && let Some(v) = reply["result"]["protocolVersion"].as_str()
            {
                negotiated = Some(v.to_string());
            }
            match &negotiated {
                Some(v) => check_legacy_reply(v, method, &reply),
                None => {
                    for v in LEGACY_VERSIONS {
                        check_legacy_reply(v, method, &reply);
                    }
                }
            }
        }
    }
}

#[test]
fn legacy_session_matches_the_committed_transcript() {
    let fresh = transcript(
        "A legacy host against `mcp-reference serve --legacy 2025-11-25,2025-06-18`: initialize, notifications/initialized, then the textbook's tools/list and three tools/call requests, under each legacy version. One line each way; notifications get no reply (null).",
        &legacy_scripts(),
    );
    golden("legacy-session.json", fresh.clone());

    // What the transcript must show, read from the replies themselves.
    for session in fresh["sessions"].as_array().unwrap() {
        let replies: Vec<Value> = session["exchanges"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["response"].as_str())
            .map(|r| serde_json::from_str(r).unwrap())
            .collect();
        let requested: Value =
            serde_json::from_str(session["exchanges"][0]["request"].as_str().unwrap()).unwrap();
        assert_eq!(
            replies[0]["result"]["protocolVersion"],
            requested["params"]["protocolVersion"]
        );
        assert_eq!(replies[0]["result"]["capabilities"], json!({"tools": {}}));
        assert_eq!(replies[0]["result"]["serverInfo"]["name"], "book-orders");
        assert_eq!(replies[1]["result"]["tools"][0]["name"], "get_order");
        let a104 = &replies[2]["result"];
        assert_eq!(a104["isError"], false);
        assert_eq!(a104["structuredContent"]["status"], "processing");
        assert_eq!(
            serde_json::from_str::<Value>(a104["content"][0]["text"].as_str().unwrap()).unwrap(),
            a104["structuredContent"]
        );
        let b205 = &replies[3];
        assert_eq!(b205["result"]["isError"], true);
        for secret in ["B-205", "tomas", "shipped"] {
            assert!(!b205.to_string().contains(secret), "leaks {secret}");
        }
        assert_eq!(replies[4]["error"]["code"], -32602);
    }
}

#[test]
fn dual_era_session_matches_the_committed_transcript() {
    let fresh = transcript(
        "What 2026-07-28 clients do with `mcp-reference serve --legacy 2025-11-25,2025-06-18`: probe with server/discover and stay modern; fall back to initialize when the probe names no mutual modern version; and both eras on one process. One line each way; notifications get no reply (null).",
        &dual_era_scripts(),
    );
    golden("dual-era-session.json", fresh.clone());

    let reply = |s: usize, n: usize| -> Value {
        let e = &fresh["sessions"][s]["exchanges"][n];
        serde_json::from_str(e["response"].as_str().unwrap()).unwrap()
    };
    // The probe: modern, listing only what a _meta request may name.
    assert_eq!(
        reply(0, 0)["result"]["supportedVersions"],
        json!(["2026-07-28"])
    );
    // The probe at an unserved version: -32022 naming the legacy versions too.
    assert_eq!(reply(1, 0)["error"]["code"], -32022);
    assert_eq!(
        reply(1, 0)["error"]["data"]["supported"],
        json!(["2026-07-28", "2025-11-25", "2025-06-18"])
    );
    assert_eq!(reply(1, 1)["result"]["protocolVersion"], "2025-11-25");
    // Both eras on one process.
    assert_eq!(reply(2, 0)["error"]["code"], -32602, "before initialize");
    assert_eq!(reply(2, 1)["result"], json!({}), "ping before initialize");
    let modern_a104 = reply(2, 4);
    let legacy_a104 = reply(2, 5);
    assert_eq!(modern_a104["result"]["resultType"], "complete");
    let mut stripped = modern_a104["result"].clone();
    for key in MODERN_ONLY {
        stripped.as_object_mut().unwrap().remove(key);
    }
    assert_eq!(stripped, legacy_a104["result"]);
    assert_eq!(reply(2, 6)["result"], json!({}));
    assert_eq!(reply(2, 7)["error"]["code"], -32601, "ping is not modern");
    assert_eq!(reply(2, 9)["error"]["code"], -32600, "a second initialize");
    // 2025-06-18: arguments that break the inputSchema are a protocol error.
    assert_eq!(reply(2, 10)["error"]["code"], -32602);
}

/// Without `--legacy`, a legacy host's whole session is answered exactly as
/// the core answers each line: `initialize` gets the error naming the
/// supported versions, and nothing else changes.
#[test]
fn without_legacy_the_binary_is_the_core() {
    let core = Server::new(Config::default());
    for script in legacy_scripts().iter().chain(dual_era_scripts().iter()) {
        let (exchanges, code) = run(&["serve"], &script.lines);
        assert_eq!(code, Some(0));
        for e in &exchanges {
            let line = e["request"].as_str().unwrap();
            let expected = core
                .respond(line.as_bytes())
                .map(|r| String::from_utf8(r).unwrap().trim_end().to_string());
            assert_eq!(
                e["response"].as_str().map(str::to_string),
                expected,
                "{line}"
            );
            if let Some(r) = e["response"].as_str() {
                let reply: Value = serde_json::from_str(r).unwrap();
                let request: Value = serde_json::from_str(line).unwrap();
                validate_in("2026-07-28", request["method"].as_str(), &reply);
            }
        }
    }
    let (exchanges, _) = run(&["serve"], &[initialize(1, "2025-11-25")]);
    let reply: Value = serde_json::from_str(exchanges[0]["response"].as_str().unwrap()).unwrap();
    assert_eq!(reply["error"]["code"], -32022);
    assert_eq!(reply["error"]["data"]["supported"], json!(["2026-07-28"]));
    assert_eq!(reply["error"]["data"]["requested"], "2025-11-25");
}

#[test]
fn legacy_flag_and_config_file_agree_and_bad_versions_are_refused() {
    let dir = std::env::temp_dir().join(format!("mcp-legacy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("config.json");
    std::fs::write(&file, r#"{"legacy_versions": ["2025-06-18"]}"#).unwrap();
    let lines = [initialize(1, "2025-11-25")];
    let file_arg = file.to_str().unwrap();
    let (from_file, _) = run(&["serve", "--config", file_arg], &lines);
    let (from_flag, _) = run(&["serve", "--legacy", "2025-06-18"], &lines);
    assert_eq!(from_file, from_flag);
    let reply: Value = serde_json::from_str(from_file[0]["response"].as_str().unwrap()).unwrap();
    assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
    // The flag overrides the file.
    let (both, _) = run(&["serve", "--config", file_arg, "--legacy", BOTH], &lines);
    let reply: Value = serde_json::from_str(both[0]["response"].as_str().unwrap()).unwrap();
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25");
    for bad in ["2024-11-05", "2026-07-28", "", "2025-06-18,2025-06-18"] {
        let out = Command::new(BIN)
            .args(["serve", "--legacy", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--legacy {bad:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "one sentence: {err}");
        assert!(err.contains("--legacy"), "{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

// ---------------------------------------------------------------------------
// Properties: random interleavings on one session.

/// One line of traffic.
#[derive(Debug, Clone)]
enum Op {
    /// A modern request (`_meta` with protocolVersion), any method.
    Modern(Call),
    /// A modern request naming a legacy version in `_meta`.
    ModernAtLegacyVersion(String),
    /// A legacy request.
    Legacy(Call),
    /// A legacy `initialize` asking for this version.
    Initialize(String),
    /// A legacy `initialize` with params that break `InitializeRequest`.
    BadInitialize,
    /// `notifications/initialized` (legacy era).
    Initialized,
    /// Other traffic: a blank line, garbage, some other notification.
    Noise(u8),
}

/// A call either era can make.
#[derive(Debug, Clone)]
enum Call {
    Discover,
    List,
    ListWithCursor,
    GetOrder(&'static str),
    GetOrderBadArgs,
    Cancel,
    Ping,
    Unknown,
}

impl Call {
    fn method(&self) -> &'static str {
        match self {
            Call::Discover => "server/discover",
            Call::List | Call::ListWithCursor => "tools/list",
            Call::GetOrder(_) | Call::GetOrderBadArgs | Call::Cancel => "tools/call",
            Call::Ping => "ping",
            Call::Unknown => "resources/list",
        }
    }

    fn params(&self) -> Value {
        match self {
            Call::ListWithCursor => json!({"cursor": "x"}),
            Call::GetOrder(id) => json!({"name": "get_order", "arguments": {"order_id": id}}),
            Call::GetOrderBadArgs => json!({"name": "get_order", "arguments": {"order_id": 7}}),
            Call::Cancel => json!({"name": "cancel_order", "arguments": {"order_id": "A-104"}}),
            _ => json!({}),
        }
    }

    /// Whether a served call runs a tool.
    fn runs_a_tool(&self) -> bool {
        matches!(self, Call::GetOrder(_))
    }
}

fn call_strategy() -> impl Strategy<Value = Call> {
    prop_oneof![
        Just(Call::Discover),
        Just(Call::List),
        Just(Call::ListWithCursor),
        prop::sample::select(vec!["A-104", "B-205", "Z-999", ""]).prop_map(Call::GetOrder),
        Just(Call::GetOrderBadArgs),
        Just(Call::Cancel),
        Just(Call::Ping),
        Just(Call::Unknown),
    ]
}

fn version_strategy() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "2025-11-25",
        "2025-06-18",
        "2024-11-05",
        "2026-07-28",
        "1900-01-01",
    ])
    .prop_map(str::to_string)
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => call_strategy().prop_map(Op::Modern),
        1 => prop::sample::select(vec!["2025-11-25", "2025-06-18"]).prop_map(|v| Op::ModernAtLegacyVersion(v.to_string())),
        5 => call_strategy().prop_map(Op::Legacy),
        2 => version_strategy().prop_map(Op::Initialize),
        1 => Just(Op::BadInitialize),
        2 => Just(Op::Initialized),
        1 => (0u8..4).prop_map(Op::Noise),
    ]
}

/// The served legacy versions: a non-empty subset, in any order.
fn legacy_config_strategy() -> impl Strategy<Value = Vec<String>> {
    prop::sample::select(vec![
        vec!["2025-11-25"],
        vec!["2025-06-18"],
        vec!["2025-11-25", "2025-06-18"],
        vec!["2025-06-18", "2025-11-25"],
    ])
    .prop_map(|v| v.into_iter().map(str::to_string).collect())
}

fn modern_meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn request(id: usize, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn with_meta(mut params: Value, meta: Value) -> Value {
    params["_meta"] = meta;
    params
}

/// The model's state: the negotiated version, once there is one.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Model {
    version: Option<&'static str>,
    initialized: bool,
}

fn newest(served: &[String]) -> &'static str {
    let max = served.iter().max().unwrap();
    LEGACY_VERSIONS
        .iter()
        .find(|v| **v == max.as_str())
        .unwrap()
}

fn supported_list(served: &[String]) -> Value {
    let mut all = vec!["2026-07-28".to_string()];
    all.extend(served.iter().cloned());
    json!(all)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/legacy.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn interleaved_eras_on_one_session(
        served in legacy_config_strategy(),
        ops in prop::collection::vec(op_strategy(), 1..28),
    ) {
        let config = Config::default().with_legacy_versions(served.clone()).unwrap();
        let server = Server::new(config);
        let mut session = Session::new(&server);
        let mut model = Model { version: None, initialized: false };
        let mut counting = Counting::default();
        let mut expected_runs = 0usize;

        for (n, op) in ops.iter().enumerate() {
            let id = n + 1;
            let (line, legacy_method): (String, Option<&str>) = match op {
                Op::Modern(call) => (request(id, call.method(), with_meta(call.params(), modern_meta("2026-07-28"))), None),
                Op::ModernAtLegacyVersion(v) => (request(id, "tools/list", json!({"_meta": modern_meta(v)})), None),
                Op::Legacy(call) => (request(id, call.method(), call.params()), Some(call.method())),
                Op::Initialize(v) => (request(id, "initialize", json!({"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "p", "version": "1"}})), Some("initialize")),
                Op::BadInitialize => (request(id, "initialize", json!({"protocolVersion": "2025-11-25"})), Some("initialize")),
                Op::Initialized => (json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(), None),
                Op::Noise(0) => (String::from("   "), None),
                Op::Noise(1) => (String::from("{not json"), None),
                Op::Noise(2) => (json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}).to_string(), None),
                Op::Noise(_) => (json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string(), None),
            };
            let mut out = Vec::new();
            let disposition = session.handle_with(line.as_bytes(), &mut out, &mut counting);

            match op {
                // Modern traffic, and traffic of no era: the core's bytes,
                // whatever the legacy state.
                Op::Modern(_) | Op::ModernAtLegacyVersion(_) | Op::Noise(_) => {
                    let core = server.respond(line.as_bytes());
                    prop_assert_eq!(Some(&out).filter(|o| !o.is_empty()), core.as_ref(), "{}", line);
                    if let Op::Modern(call) = op
                        && call.runs_a_tool()
                    {
                        expected_runs += 1;
                    }
                    if let Op::ModernAtLegacyVersion(v) = op {
                        let reply: Value = serde_json::from_slice(&out).unwrap();
                        prop_assert_eq!(&reply["error"]["code"], &json!(-32022));
                        prop_assert_eq!(&reply["error"]["data"]["supported"], &supported_list(&served));
                        prop_assert_eq!(&reply["error"]["data"]["requested"], &json!(v));
                    }
                    if !out.is_empty() {
                        let reply: Value = serde_json::from_slice(&out).unwrap();
                        let method = serde_json::from_str::<Value>(&line).ok()
                            .and_then(|r| r["method"].as_str().map(str::to_string));
                        validate_in("2026-07-28", method.as_deref(), &reply);
                    }
                }
                Op::Initialized => {
                    prop_assert_eq!(disposition, Disposition::Notification);
                    prop_assert!(out.is_empty());
                    if model.version.is_some() {
                        model.initialized = true;
                    }
                }
                Op::Initialize(v) => {
                    let reply: Value = serde_json::from_slice(&out).unwrap();
                    match model.version {
                        None => {
                            let negotiated = if served.contains(v) {
                                LEGACY_VERSIONS.iter().find(|s| **s == v.as_str()).copied().unwrap()
                            } else {
                                newest(&served)
                            };
                            prop_assert_eq!(&reply["result"]["protocolVersion"], &json!(negotiated));
                            prop_assert_eq!(&reply["result"]["capabilities"], &json!({"tools": {}}));
                            model.version = Some(negotiated);
                        }
                        Some(_) => prop_assert_eq!(&reply["error"]["code"], &json!(-32600)),
                    }
                }
                Op::BadInitialize => {
                    let reply: Value = serde_json::from_slice(&out).unwrap();
                    prop_assert_eq!(&reply["error"]["code"], &json!(if model.version.is_some() { -32600 } else { -32602 }));
                }
                Op::Legacy(call) => {
                    let reply: Value = serde_json::from_slice(&out).unwrap();
                    match (model.version, call) {
                        (_, Call::Ping) => prop_assert_eq!(&reply, &json!({"jsonrpc": "2.0", "id": id, "result": {}})),
                        (None, _) => {
                            prop_assert_eq!(&reply["error"]["code"], &json!(-32602));
                            prop_assert_eq!(&reply["error"]["data"]["supported"], &supported_list(&served));
                        }
                        (Some(version), call) => {
                            // The modern reply to the same call, without the
                            // modern-only members...
                            let twin = request(id, call.method(), with_meta(call.params(), modern_meta("2026-07-28")));
                            let mut expected: Value = serde_json::from_slice(&server.respond(twin.as_bytes()).unwrap()).unwrap();
                            if let Some(result) = expected.get_mut("result").and_then(Value::as_object_mut) {
                                for key in MODERN_ONLY {
                                    result.remove(key);
                                }
                            }
                            // ...except where the legacy version differs.
                            match call {
                                Call::GetOrderBadArgs if version == "2025-06-18" => {
                                    prop_assert_eq!(&reply["error"]["code"], &json!(-32602));
                                }
                                Call::Discover => {
                                    prop_assert_eq!(&reply["error"]["code"], &json!(-32601));
                                }
                                _ => prop_assert_eq!(&reply, &expected),
                            }
                            if call.runs_a_tool() {
                                expected_runs += 1;
                            }
                        }
                    }
                }
            }

            // Every legacy reply validates against its version's schema.
            if let Some(method) = legacy_method {
                let reply: Value = serde_json::from_slice(&out).unwrap();
                match model.version {
                    Some(v) => check_legacy_reply(v, Some(method), &reply),
                    None => {
                        for v in &served {
                            check_legacy_reply(v, Some(method), &reply);
                        }
                    }
                }
            }
            // The session's state is the model's.
            let state = match (model.version, model.initialized) {
                (None, _) => State::Fresh,
                (Some(v), false) => State::Initialized(LegacyVersion::parse(v).unwrap()),
                (Some(v), true) => State::Operating(LegacyVersion::parse(v).unwrap()),
            };
            prop_assert_eq!(session.state(), state);
            prop_assert_eq!(counting.ran.len(), expected_runs, "tool runs after {}", line);
        }
    }
}

/// The model's premise holds for every method: the legacy tool results are
/// the modern ones without the modern-only members, so the tools exist once.
#[test]
fn the_legacy_catalog_is_the_modern_one() {
    let server = Server::new(
        Config::default()
            .with_legacy_versions(vec!["2025-11-25".into()])
            .unwrap(),
    );
    let mut session = Session::new(&server);
    let mut out = Vec::new();
    session.handle(initialize(1, "2025-11-25").as_bytes(), &mut out);
    out.clear();
    session.handle(legacy(2, "tools/list").as_bytes(), &mut out);
    let legacy_list: Value = serde_json::from_slice(&out).unwrap();
    let modern_list: Value =
        serde_json::from_slice(&server.respond(modern(2, "tools/list").as_bytes()).unwrap())
            .unwrap();
    assert_eq!(
        legacy_list["result"]["tools"],
        modern_list["result"]["tools"]
    );
    let keys: BTreeSet<_> = legacy_list["result"].as_object().unwrap().keys().collect();
    assert_eq!(keys.into_iter().collect::<Vec<_>>(), ["tools"]);
}

// ---------------------------------------------------------------------------
// One case per row of the "Legacy path" table in docs/behavior.md.

/// A row's case: on a fresh session with both legacy versions on, send
/// `setup`, then `line`; the reply to `line` must be `expected` (`None`: no
/// reply).
struct Row {
    row: &'static str,
    setup: Vec<String>,
    line: String,
    expected: Option<Value>,
}

fn instructions() -> Value {
    json!(Config::default().identity().instructions.clone().unwrap())
}

fn init_result(id: u32, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "book-orders", "version": "1.0.0"},
        "instructions": instructions()
    }})
}

fn error(id: u32, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

const BOTH_LIST: [&str; 3] = ["2026-07-28", "2025-11-25", "2025-06-18"];

fn rows() -> Vec<Row> {
    let open = |v: &str| vec![initialize(1, v), INITIALIZED.to_string()];
    let core = Server::new(
        Config::default()
            .with_legacy_versions(vec!["2025-11-25".into(), "2025-06-18".into()])
            .unwrap(),
    );
    let core_reply = |line: &str| -> Value {
        serde_json::from_slice(&core.respond(line.as_bytes()).unwrap()).unwrap()
    };
    let strip = |mut v: Value| -> Value {
        for key in MODERN_ONLY {
            v["result"].as_object_mut().unwrap().remove(key);
        }
        v
    };
    let a104 = strip(core_reply(&modern_call(2, "get_order", "A-104")));
    let b205 = strip(core_reply(&modern_call(2, "get_order", "B-205")));
    let list = strip(core_reply(&modern(2, "tools/list")));
    let bad_args = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":7}}}"#;
    let bad_args_result = strip(core_reply(&format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{{META},"name":"get_order","arguments":{{"order_id":7}}}}}}"#
    )));
    vec![
        Row { row: "L1", setup: vec![], line: initialize(1, "2025-06-18"), expected: Some(init_result(1, "2025-06-18")) },
        Row { row: "L2", setup: vec![], line: initialize(1, "2024-11-05"), expected: Some(init_result(1, "2025-11-25")) },
        Row { row: "L2", setup: vec![], line: initialize(1, "2026-07-28"), expected: Some(init_result(1, "2025-11-25")) },
        Row {
            row: "L3",
            setup: vec![],
            line: r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#.into(),
            expected: Some(error(1, -32602, "Invalid params: initialize needs protocolVersion (a string), capabilities (an object) and clientInfo (an object)")),
        },
        Row { row: "L4", setup: open("2025-06-18"), line: initialize(2, "2025-11-25"), expected: Some(error(2, -32600, "Invalid request: this process is already initialized; initialize may be sent only once")) },
        Row { row: "L5", setup: vec![initialize(1, "2025-11-25")], line: INITIALIZED.into(), expected: None },
        Row {
            row: "L6",
            setup: vec![],
            line: legacy(1, "tools/list"),
            expected: Some(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602,
                "message": "Invalid params: no protocol version; send initialize first, or name one of data.supported in params._meta as io.modelcontextprotocol/protocolVersion",
                "data": {"supported": BOTH_LIST}}})),
        },
        Row { row: "L7", setup: vec![], line: legacy(1, "ping"), expected: Some(json!({"jsonrpc": "2.0", "id": 1, "result": {}})) },
        Row { row: "L7", setup: open("2025-11-25"), line: legacy(2, "ping"), expected: Some(json!({"jsonrpc": "2.0", "id": 2, "result": {}})) },
        Row { row: "L8", setup: open("2025-11-25"), line: legacy(2, "tools/list"), expected: Some(list) },
        Row {
            row: "L8",
            setup: open("2025-11-25"),
            line: r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}}"#.into(),
            expected: Some(error(2, -32602, "Invalid cursor: this server never issues cursors")),
        },
        Row { row: "L8", setup: vec![initialize(1, "2025-11-25")], line: legacy(2, "tools/list"), expected: Some(strip(core_reply(&modern(2, "tools/list")))) },
        Row { row: "L9", setup: open("2025-06-18"), line: legacy_call(2, "get_order", "A-104"), expected: Some(a104) },
        Row { row: "L9", setup: open("2025-11-25"), line: legacy_call(2, "get_order", "B-205"), expected: Some(b205) },
        Row { row: "L9", setup: open("2025-11-25"), line: legacy_call(2, "cancel_order", "A-104"), expected: Some(error(2, -32602, "Unknown tool: this server offers no tool of that name; see tools/list")) },
        Row { row: "L10", setup: open("2025-06-18"), line: bad_args.into(), expected: Some(error(2, -32602, "Invalid params: the arguments do not match the tool's inputSchema; see tools/list")) },
        Row { row: "L11", setup: open("2025-11-25"), line: bad_args.into(), expected: Some(bad_args_result) },
        Row { row: "L12", setup: open("2025-11-25"), line: legacy(2, "server/discover"), expected: Some(error(2, -32601, "Method not found")) },
        Row { row: "L12", setup: open("2025-11-25"), line: legacy(2, "logging/setLevel"), expected: Some(error(2, -32601, "Method not found")) },
        Row {
            row: "L13",
            setup: open("2025-11-25"),
            line: r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":[]}}"#.into(),
            expected: Some(error(2, -32602, "Invalid params: params._meta must be an object")),
        },
        Row {
            row: "L13",
            setup: vec![],
            line: r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}"#.into(),
            expected: Some(error(2, -32602, "Invalid params: params must be an object")),
        },
        Row { row: "L14", setup: open("2025-06-18"), line: modern_call(2, "get_order", "A-104"), expected: Some(core_reply(&modern_call(2, "get_order", "A-104"))) },
        Row { row: "L14", setup: vec![initialize(1, "2025-11-25")], line: modern(2, "ping"), expected: Some(core_reply(&modern(2, "ping"))) },
        Row {
            row: "L15",
            setup: vec![],
            line: modern(2, "tools/list").replace("2026-07-28", "2025-11-25"),
            expected: Some(json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32022,
                "message": "Unsupported protocol version: a legacy version is served only through the initialize handshake, not in _meta",
                "data": {"supported": BOTH_LIST, "requested": "2025-11-25"}}})),
        },
        Row {
            row: "L16",
            setup: open("2025-11-25"),
            line: modern(2, "server/discover"),
            expected: Some({
                let mut d = core_reply(&modern(2, "server/discover"));
                assert_eq!(d["result"]["supportedVersions"], json!(["2026-07-28"]));
                d["result"]["supportedVersions"] = json!(["2026-07-28"]);
                d
            }),
        },
        Row {
            row: "L17",
            setup: vec![],
            line: modern(2, "tools/list").replace("2026-07-28", "2027-01-01"),
            expected: Some(json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32022,
                "message": "Unsupported protocol version",
                "data": {"supported": BOTH_LIST, "requested": "2027-01-01"}}})),
        },
    ]
}

#[test]
fn every_legacy_row_holds() {
    let server = Server::new(
        Config::default()
            .with_legacy_versions(vec!["2025-11-25".into(), "2025-06-18".into()])
            .unwrap(),
    );
    for case in rows() {
        let mut session = Session::new(&server);
        let mut version = None;
        for line in &case.setup {
            let mut out = Vec::new();
            session.handle(line.as_bytes(), &mut out);
        }
        if let Some(v) = session.state().version() {
            version = Some(v.as_str());
        }
        let mut out = Vec::new();
        session.handle(case.line.as_bytes(), &mut out);
        let got: Option<Value> = (!out.is_empty()).then(|| serde_json::from_slice(&out).unwrap());
        assert_eq!(got, case.expected, "{}: {}", case.row, case.line);
        let Some(reply) = got else { continue };
        let request: Value = serde_json::from_str(&case.line).unwrap();
        let method = request["method"].as_str();
        if is_modern(&request) {
            validate_in("2026-07-28", method, &reply);
        } else if let Some(v) = session.state().version().map(|v| v.as_str()).or(version) {
            check_legacy_reply(v, method, &reply);
        } else {
            for v in LEGACY_VERSIONS {
                check_legacy_reply(v, method, &reply);
            }
        }
    }
}

#[test]
fn every_legacy_row_of_the_contract_has_a_case() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/behavior.md")).unwrap();
    let documented: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(' ').next())
        .filter(|id| {
            id.len() >= 2 && id.starts_with('L') && id[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect();
    let tested: BTreeSet<String> = rows().iter().map(|r| r.row.to_owned()).collect();
    assert_eq!(
        documented, tested,
        "L rows of docs/behavior.md vs cases here"
    );
}
