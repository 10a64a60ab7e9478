//! `mcp-reference bench` through the real binaries (`mcp-reference`, which
//! runs `mcp-reference-tools bench`): against the reference itself over
//! stdio and over HTTP (no error, requests measured, ratios present: never
//! a timing), against the fault-injected fixtures (a fault that makes
//! replies invalid is errors and exit 1; a reply sent as an event stream is
//! not a fault), against a server serving other data (errors under the
//! model, none with `--valid result`), and the command lines it refuses
//! (exit 2, one sentence): a non-loopback URL, a bad `--call`, a server that
//! cannot be started.

#[path = "support/fixture.rs"]
mod fixture;

use serde_json::Value;

/// Short rounds, two of them unless the test says otherwise: the shape is
/// asserted, never a timing.
const SHORT: [&str; 4] = ["--duration", "0.5", "--warmup", "0.1"];

fn bench(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["bench"];
    all.extend_from_slice(&SHORT);
    if !args.contains(&"--rounds") {
        all.extend_from_slice(&["--rounds", "2"]);
    }
    all.extend_from_slice(args);
    fixture::cli(&all)
}

fn bench_json(args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, out, err) = bench(&all);
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, report, err)
}

fn example_config() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../data/config.example.json").to_owned()
}

/// A clean report: both servers measured, no error, every ratio there.
fn assert_clean(report: &Value) {
    for server in ["reference", "target"] {
        let s = &report[server];
        assert!(
            s["requests"].as_u64().unwrap_or(0) > 0,
            "{server}: {report}"
        );
        assert_eq!(s["errors"], 0, "{server}: {report}");
        assert_eq!(s["rounds"].as_array().map(Vec::len), Some(2), "{report}");
        for key in ["rate", "p50_ms", "p95_ms", "p99_ms"] {
            assert!(
                s[key].as_f64().is_some_and(|v| v > 0.0),
                "{server} {key}: {report}"
            );
        }
    }
    for key in ["rate", "p50", "p95", "p99"] {
        assert!(
            report["ratios"][key].as_f64().is_some_and(|v| v > 0.0),
            "{key}: {report}"
        );
    }
    assert_eq!(report["workload"]["call"]["name"], "get_order");
    assert_eq!(report["workload"]["call"]["arguments"]["order_id"], "A-104");
    assert_eq!(report["workload"]["valid"], "model");
}

#[test]
fn the_reference_against_itself_over_stdio() {
    let bin = fixture::bin();
    let (code, report, err) = bench_json(&["--concurrency", "4", "--", &bin, "serve"]);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["transport"], "stdio");
    assert_eq!(report["plan"]["concurrency"], 4);
    assert!(report["load_average"]["start"].is_array() || cfg!(not(target_os = "linux")));
    assert_clean(&report);

    // The table says the same.
    let (code, out, err) = bench(&["--", &bin, "serve"]);
    assert_eq!(code, 0, "{out}{err}");
    for word in [
        "reference",
        "target",
        "ratio",
        "req/s",
        "p99 ms",
        "load average",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
}

#[test]
fn the_reference_against_itself_over_http() {
    let server = fixture::serve_http(&[]);
    let (code, report, err) = bench_json(&["--http", &server.url, "--connections", "2"]);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["transport"], "http");
    assert_eq!(report["plan"]["connections"], 2);
    assert_clean(&report);
}

#[test]
fn replies_sent_as_event_streams_are_valid_answers() {
    let server = fixture::start_http(&fixture::faulty_http_server(), &["--sse"]);
    let (code, report, err) = bench_json(&["--http", &server.url, "--rounds", "1"]);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["target"]["errors"], 0, "{report}");
}

#[test]
fn invalid_replies_are_errors_never_throughput() {
    let faulty = fixture::faulty_server();
    let faulty = faulty.to_string_lossy();
    let (code, report, err) = bench_json(&["--", &faulty, "--no-result-type"]);
    assert_eq!(code, 1, "{report}{err}");
    assert_eq!(report["reference"]["errors"], 0, "{report}");
    let target = &report["target"];
    assert!(target["errors"].as_u64().unwrap_or(0) > 0, "{report}");
    assert!(
        target["error_kinds"]["not the model's reply"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{report}"
    );
    assert!(
        target["first_error"]
            .as_str()
            .is_some_and(|e| e.contains("resultType")),
        "{report}"
    );
    // Every reply lacks resultType: none counts as throughput.
    assert_eq!(target["requests"], 0, "{report}");
    assert!(target["rate"].is_null(), "{report}");
    assert!(report["ratios"]["rate"].is_null(), "{report}");

    // A server that stops answering one method: its requests are errors.
    let (code, report, err) = bench_json(&[
        "--timeout-ms",
        "300",
        "--rounds",
        "1",
        "--",
        &faulty,
        "--hang-on",
        "tools/list",
    ]);
    assert_eq!(code, 1, "{report}{err}");
    assert!(
        report["target"]["error_kinds"]["no reply in time"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{report}"
    );
}

#[test]
fn another_configuration_is_errors_under_the_model_and_none_as_results() {
    let bin = fixture::bin();
    let config = example_config();
    let server = [bin.as_str(), "serve", "--config", config.as_str()];
    let mut args = vec!["--rounds", "1", "--"];
    args.extend_from_slice(&server);
    let (code, report, err) = bench_json(&args);
    assert_eq!(code, 1, "{report}{err}");
    assert!(
        report["target"]["errors"].as_u64().unwrap_or(0) > 0,
        "{report}"
    );
    assert_eq!(report["reference"]["errors"], 0, "{report}");

    let mut args = vec!["--valid", "result", "--rounds", "1", "--"];
    args.extend_from_slice(&server);
    let (code, report, err) = bench_json(&args);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["workload"]["valid"], "result");

    // Named with --config, the reference serves it too and the model
    // judges by it.
    let mut args = vec!["--config", config.as_str(), "--rounds", "1", "--"];
    args.extend_from_slice(&server);
    let (code, report, err) = bench_json(&args);
    assert_eq!(code, 0, "{report}{err}");
    assert_eq!(report["target"]["errors"], 0, "{report}");
}

fn assert_refused(args: &[&str], says: &str) {
    let (code, out, err) = fixture::cli(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn refusals_are_one_sentence_and_exit_2() {
    let bin = fixture::bin();
    assert_refused(
        &["bench", "--http", "http://192.0.2.1:8080/mcp"],
        "--allow-remote",
    );
    assert_refused(
        &["bench", "--http", "http://example.com/mcp"],
        "not a loopback address",
    );
    assert_refused(
        &["bench", "--call", "get_order", "--", &bin, "serve"],
        "TOOL=ARGS_JSON",
    );
    assert_refused(
        &["bench", "--call", "get_order=[1]", "--", &bin, "serve"],
        "JSON object",
    );
    assert_refused(
        &["bench", "--duration", "0", "--", &bin, "serve"],
        "seconds",
    );
    assert_refused(&["bench"], "after `--`");
    assert_refused(
        &["bench", "--duration", "0.2", "--", "/nonexistent/server"],
        "could not be run",
    );
    // Nothing listens there (port 9, discard, is closed on a test machine).
    assert_refused(
        &[
            "bench",
            "--duration",
            "0.2",
            "--http",
            "http://127.0.0.1:9/mcp",
        ],
        "could not be reached",
    );
    assert_refused(
        &[
            "bench",
            "--reference",
            "/nonexistent/mcp-reference",
            "--",
            &bin,
            "serve",
        ],
        "the reference could not be run",
    );
}

#[test]
fn a_call_the_model_answers_with_an_error_is_said_and_counted_by_valid() {
    let bin = fixture::bin();
    let call = r#"cancel_order={"order_id":"A-104"}"#;
    let (code, report, err) = bench_json(&["--call", call, "--rounds", "1", "--", &bin, "serve"]);
    // The model's answer is -32602: the valid answer, said on stderr.
    assert_eq!(code, 0, "{report}{err}");
    assert!(err.contains("note:") && err.contains("-32602"), "{err}");
    assert_eq!(report["target"]["errors"], 0, "{report}");
    // As results, every call is an error: exit 1.
    let (code, report, err) = bench_json(&[
        "--call", call, "--valid", "result", "--rounds", "1", "--", &bin, "serve",
    ]);
    assert_eq!(code, 1, "{report}{err}");
    assert!(
        report["target"]["error_kinds"]["an error, not a result"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{report}"
    );
    assert!(!err.contains("note:"), "{err}");
}

/// The caller's MCP_REFERENCE_USER would make the server read another
/// user's orders than the reference's: neither server inherits it.
#[test]
fn neither_server_inherits_the_callers_configuration_variables() {
    let bin = fixture::bin();
    let out = std::process::Command::new(&bin)
        .args(["bench", "--json", "--rounds", "1"])
        .args(SHORT)
        .args(["--", &bin, "serve"])
        .env("MCP_REFERENCE_USER", "tomas")
        .env_remove("MCP_REFERENCE_CONFIG")
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    let report: Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(report["target"]["errors"], 0, "{report}");
}

/// A reference that answers wrongly makes the run no comparison: the
/// target's clean replies get no verdict, exit 3, one sentence on stderr.
#[test]
fn a_reference_with_errors_is_no_comparison() {
    let bin = fixture::bin();
    let faulty = fixture::faulty_server();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-void");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    // A "reference" whose replies lack resultType, whatever it is told.
    let script = dir.join("broken-reference");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec '{}' --no-result-type\n", faulty.display()),
    )
    .expect("the script is written");
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    let script = script.to_string_lossy();
    let (code, report, err) =
        bench_json(&["--rounds", "1", "--reference", &script, "--", &bin, "serve"]);
    assert_eq!(code, 3, "{report}{err}");
    assert_eq!(report["target"]["errors"], 0, "{report}");
    assert!(
        report["reference"]["errors"].as_u64().unwrap_or(0) > 0,
        "{report}"
    );
    assert!(err.contains("no comparison"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A server that dies during the run: the round it dies in counts one
/// transport error per connection (never one per attempt to reconnect),
/// a later round is one error, "stopped during the run", and the rounds
/// already measured are reported: exit 1, not 2. The fixture answers one
/// request per connection and exits after 100: the target's first round
/// is its first request and 50 measured ones, the second dies after 48
/// more, the third finds no server.
#[test]
fn a_server_that_dies_during_the_run_is_errors_and_the_measured_rounds_stay() {
    let server = fixture::start_http(&fixture::faulty_http_server(), &["--exit-after", "100"]);
    let (code, out, err) = fixture::cli(&[
        "bench",
        "--json",
        "--http",
        &server.url,
        "--rounds",
        "3",
        "--connections",
        "4",
        "--warmup",
        "0",
        "--requests",
        "50",
        "--duration",
        "20",
    ]);
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(code, 1, "{report}{err}");
    let target = &report["target"];
    let kinds = &target["error_kinds"];
    let transport = kinds["transport error"].as_u64().unwrap_or(0);
    assert!((1..=4).contains(&transport), "{report}");
    assert_eq!(kinds["stopped during the run"], 1, "{report}");
    assert_eq!(
        target["rounds"].as_array().map(Vec::len),
        Some(3),
        "{report}"
    );
    assert_eq!(target["rounds"][0]["requests"], 50, "{report}");
    assert_eq!(target["rounds"][0]["errors"], 0, "{report}");
    assert_eq!(report["reference"]["errors"], 0, "{report}");
}
