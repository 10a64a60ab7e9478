//! Multi round-trip requests through the real binary (what the drivers
//! add: the clock they read per request, DEC41): over stdio, a two-round
//! tool completes and a changed state is refused; over HTTP, the rounds of
//! one call land on two replicas of the same configuration and complete
//! (nothing is kept between requests), while a replica configured with
//! another key refuses the state (DEC46). Every wait has a deadline.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[path = "support/http_server.rs"]
mod http_server;
use http_server::{BIN, Server, exchange};
use mcp_reference::Config;
use mcp_reference_testkit::model::input;
use serde_json::{Value, json};

/// The expiry of a state the binary issued for `name` (no arguments) as
/// the configured user, opened with the model's own verifier: the driver's
/// clock plus `state_ttl_seconds`, so it shows the clock reached the core.
fn expiry(method: &str, name: &str, state: &Value) -> u64 {
    let config = Config::load(std::path::Path::new(&conformance())).unwrap();
    let opened = input::open(
        &input::key(&config),
        config.user(),
        method,
        name,
        &serde_json::Map::new(),
        state.as_str().unwrap(),
    );
    opened
        .expect("the state verifies with the configured key")
        .expires
}

/// Seconds since 1970, now.
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn conformance() -> String {
    format!("{}/data/conformance.json", env!("CARGO_MANIFEST_DIR"))
}

fn request(id: u64, name: &str, extra: Value) -> Value {
    let mut params = json!({"name": name, "arguments": {}, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
    }});
    for (k, v) in extra.as_object().into_iter().flatten() {
        params[k] = v.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// The answers the multi-round fixture asks for, by key.
fn answers(result: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for key in result["inputRequests"].as_object().unwrap().keys() {
        let content = match key.as_str() {
            "step2" => json!({"color": "blue"}),
            "confirm" => json!({"ok": true}),
            _ => json!({"name": "Alice"}),
        };
        out.insert(key.clone(), json!({"action": "accept", "content": content}));
    }
    Value::Object(out)
}

#[test]
fn over_stdio_the_rounds_complete_and_a_changed_state_is_refused() {
    let mut child = Command::new(BIN)
        .args(["serve", "--config", &conformance()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    // The deadline: a hung server is killed, which ends the reads below.
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(30));
        let _ = Command::new("kill").arg(pid.to_string()).status();
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &Value| -> Value {
        writeln!(stdin, "{line}").unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}: {reply:?}"))
    };
    let name = "test_input_required_result_multi_round";
    let first = ask(&request(1, name, json!({})));
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].clone();
    let ttl = 300;
    assert!(
        (now() + ttl).abs_diff(expiry("tools/call", name, &state)) <= 5,
        "the clock"
    );
    let second = ask(&request(
        2,
        name,
        json!({"inputResponses": answers(&first["result"]), "requestState": state}),
    ));
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    let forged = format!("{}A", second["result"]["requestState"].as_str().unwrap());
    let refused = ask(&request(
        3,
        name,
        json!({"inputResponses": answers(&second["result"]), "requestState": forged}),
    ));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let done = ask(&request(
        4,
        name,
        json!({"inputResponses": answers(&second["result"]), "requestState": second["result"]["requestState"]}),
    ));
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["isError"], false, "{done}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    drop(watchdog);
}

/// One call's rounds on two replicas: round 1 on the first, round 2 on
/// the second, done; the state presented to a replica with another key is
/// refused (400, -32602) and that replica runs nothing.
#[test]
fn over_http_the_rounds_land_on_any_replica_with_the_same_key() {
    let other_key = {
        let mut config: Value =
            serde_json::from_slice(&std::fs::read(conformance()).unwrap()).unwrap();
        config["input_required"]["state_key"] =
            json!("b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXktb3RoZXI");
        let dir = std::env::temp_dir().join(format!("mcp-mrtr-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("other-key.json");
        std::fs::write(&path, config.to_string()).unwrap();
        path
    };
    let a = Server::start(&["--config", &conformance()]);
    let b = Server::start(&["--config", &conformance()]);
    let c = Server::start(&["--config", other_key.to_str().unwrap()]);
    let post = |server: &Server, body: &Value| {
        let headers = [
            ("Content-Type", "application/json".to_owned()),
            ("MCP-Protocol-Version", "2026-07-28".to_owned()),
            ("Mcp-Method", "tools/call".to_owned()),
            (
                "Mcp-Name",
                body["params"]["name"].as_str().unwrap().to_owned(),
            ),
        ];
        let reply = exchange("POST", &server.url(), &headers, body.to_string().as_bytes());
        (reply.status, reply.json())
    };
    let name = "test_input_required_result_request_state";
    let (status, first) = post(&a, &request(1, name, json!({})));
    assert_eq!(status, 200, "{first}");
    let expires = expiry("tools/call", name, &first["result"]["requestState"]);
    assert!((now() + 300).abs_diff(expires) <= 5, "the clock");
    let retry = request(
        2,
        name,
        json!({"inputResponses": answers(&first["result"]), "requestState": first["result"]["requestState"]}),
    );
    let (status, refused) = post(&c, &retry);
    assert_eq!(
        (status, refused["error"]["code"].as_i64()),
        (400, Some(-32602)),
        "{refused}"
    );
    let (status, done) = post(&b, &retry);
    assert_eq!(status, 200, "{done}");
    assert!(
        done["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("state-ok"),
        "{done}"
    );
    let _ = std::fs::remove_file(&other_key);
}

/// A request to `name` declaring `caps`, with `extra` params.
fn request_with(id: u64, name: &str, caps: Value, extra: Value) -> Value {
    let mut r = request(id, name, extra);
    r["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = caps;
    r
}

/// Rows I14, I15 through the real binary, over stdio and over HTTP: the
/// URL-mode tool asked by a request declaring form mode only gets `-32021`
/// naming `elicitation.url` (400 over HTTP); declaring URL mode, it asks
/// for the configured URL-mode request, and the retry with an accept
/// without `content` and the state completes; an accept with `content`
/// is refused. The issue's request (a form-mode elicitation to a client
/// of URL mode only) gets `-32021` naming `elicitation.form`.
#[test]
fn url_mode_round_trips_over_stdio_and_http() {
    let url = json!({"elicitation": {"url": {}}});
    let name = "url_elicitation";
    let steps = |ask: &mut dyn FnMut(&Value) -> (u16, Value)| {
        let (status, wrong) = ask(&request_with(
            1,
            name,
            json!({"elicitation": {}}),
            json!({}),
        ));
        assert_eq!(status, 400, "{wrong}");
        assert_eq!(
            wrong["error"]["data"]["requiredCapabilities"],
            json!({"elicitation": {"url": {}}}),
            "{wrong}"
        );
        let (status, issue) = ask(&request_with(
            2,
            "test_input_required_result_elicitation",
            url.clone(),
            json!({}),
        ));
        assert_eq!(status, 400, "{issue}");
        assert_eq!(
            issue["error"]["data"]["requiredCapabilities"],
            json!({"elicitation": {"form": {}}}),
            "{issue}"
        );
        let (status, first) = ask(&request_with(3, name, url.clone(), json!({})));
        assert_eq!(status, 200, "{first}");
        let asked = &first["result"]["inputRequests"]["connect"];
        assert_eq!(asked["method"], "elicitation/create", "{first}");
        assert_eq!(asked["params"]["mode"], "url", "{first}");
        assert_eq!(
            asked["params"]["url"], "https://book-orders.example/connect",
            "{first}"
        );
        let state = first["result"]["requestState"].clone();
        assert!(state.is_string(), "{first}");
        let (status, bad) = ask(&request_with(
            4,
            name,
            url.clone(),
            json!({"inputResponses": {"connect": {"action": "accept", "content": {"x": "y"}}},
                "requestState": state}),
        ));
        assert_eq!(
            (status, bad["error"]["code"].as_i64()),
            (400, Some(-32602)),
            "{bad}"
        );
        let (status, done) = ask(&request_with(
            5,
            name,
            url.clone(),
            json!({"inputResponses": {"connect": {"action": "accept"}}, "requestState": state}),
        ));
        assert_eq!(status, 200, "{done}");
        assert_eq!(done["result"]["resultType"], "complete", "{done}");
        assert_eq!(done["result"]["isError"], false, "{done}");
    };
    // Over stdio (the status is the one HTTP would give: 400 for an error
    // of these codes, 200 for a result).
    let mut child = Command::new(BIN)
        .args(["serve", "--config", &conformance()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(30));
        let _ = Command::new("kill").arg(pid.to_string()).status();
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    steps(&mut |line: &Value| {
        writeln!(stdin, "{line}").unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        let v: Value = serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}: {reply:?}"));
        (if v.get("error").is_some() { 400 } else { 200 }, v)
    });
    drop(stdin);
    assert!(child.wait().unwrap().success());
    drop(watchdog);
    // Over HTTP.
    let server = Server::start(&["--config", &conformance()]);
    steps(&mut |body: &Value| {
        let headers = [
            ("Content-Type", "application/json".to_owned()),
            ("MCP-Protocol-Version", "2026-07-28".to_owned()),
            ("Mcp-Method", "tools/call".to_owned()),
            (
                "Mcp-Name",
                body["params"]["name"].as_str().unwrap().to_owned(),
            ),
        ];
        let reply = exchange("POST", &server.url(), &headers, body.to_string().as_bytes());
        (reply.status, reply.json())
    });
}
