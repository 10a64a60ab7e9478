//! `check --http` against the reference's `serve --http` (every check
//! passes) and against a lax HTTP server that answers every POST body with
//! the reference's core and ignores every header, as the official Python
//! SDK 2.3 does with a disagreeing `MCP-Protocol-Version`: the
//! mirrored-header checks fail and name the statement they rest on.

#[path = "support/fixture.rs"]
mod fixture;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

use mcp_reference::{Config, Server};
use mcp_reference_tools::check::http::{HttpOptions, run_http};
use mcp_reference_tools::check::{Outcome, Verdict};

fn options(url: String) -> HttpOptions {
    HttpOptions {
        url,
        timeout: Duration::from_secs(5),
        deadline: Duration::from_secs(60),
        calls: Vec::new(),
    }
}

#[test]
fn the_reference_passes_every_http_check() {
    // With the catalog (resources and prompts declared), every check runs.
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/config.example.json");
    let server = fixture::serve_http(&["--config", example]);
    let url = server.url.clone();
    let report = run_http(&options(url)).unwrap();
    drop(server);
    assert_eq!(report.verdict(), Verdict::Pass, "{}", report.table());
    assert!(
        report.skipped().is_empty() && report.not_run().is_empty(),
        "{}",
        report.table()
    );
    // The textbook's configuration declares neither: those two checks do
    // not apply, and the server is not failed for them.
    let server = fixture::serve_http(&[]);
    let url = server.url.clone();
    let report = run_http(&options(url)).unwrap();
    drop(server);
    assert_eq!(report.verdict(), Verdict::Pass, "{}", report.table());
    assert!(report.not_run().is_empty(), "{}", report.table());
    assert_eq!(report.skipped().len(), 2, "{}", report.table());
}

/// Answers each request on `listener` with the core's reply to its body
/// under `config`, status 200 (202 for no reply), whatever the method,
/// path and headers.
fn lax_server(listener: TcpListener, config: Config) {
    let server = Server::new(config);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut len = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((n, v)) = line.split_once(':')
                && n.eq_ignore_ascii_case("content-length")
            {
                len = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; len];
        let _ = reader.read_exact(&mut body);
        let reply = server.respond(&body).unwrap_or_default();
        let status = if reply.is_empty() {
            "202 Accepted"
        } else {
            "200 OK"
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            reply.len()
        );
        let mut stream = stream;
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(&reply);
    }
}

#[test]
fn a_server_that_ignores_the_headers_fails_and_names_the_statement() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || lax_server(listener, Config::default()));
    let report = run_http(&options(url)).unwrap();
    assert_eq!(report.verdict(), Verdict::Fail, "{}", report.table());
    for id in [
        "http.version-header-missing", // TEXTBOOK: reported, not in the verdict
        "http.version-header-mismatch",
        "http.method-header-mismatch",
        "http.name-header-missing",
        "http.name-header-mismatch",
        "http.unsupported-version",
        "http.unknown-method",
        "http.missing-meta-field",
        "http.origin",
    ] {
        assert!(
            matches!(report.outcome(id), Some(Outcome::Fail(_))),
            "{id} should fail\n{}",
            report.table()
        );
    }
    let entry = report
        .entries
        .iter()
        .find(|e| e.check.id == "http.version-header-mismatch")
        .unwrap();
    assert_eq!(entry.check.source, "SHTTP-20");
    for id in [
        "http.post-json",
        "http.name-base64",
        "http.header-case",
        "http.notification",
    ] {
        assert_eq!(
            report.outcome(id),
            Some(&Outcome::Pass),
            "{id}\n{}",
            report.table()
        );
    }
}

/// A server that answers a Base64 `Mcp-Name` with 500 and an HTML page
/// (the fixture's `--base64-name-500`) fails `http.name-base64`, which
/// passed it before (anything but -32020 was a pass); the fixture without
/// the fault passes it, and every check but that one is as the
/// reference's (none fails, none is not run).
#[test]
fn a_base64_name_answered_with_500_fails_name_base64() {
    let fixture_server = fixture::faulty_http_server();
    let server = fixture::start_http(&fixture_server, &[]);
    let report = run_http(&options(server.url.clone())).unwrap();
    drop(server);
    assert_eq!(
        report.outcome("http.name-base64"),
        Some(&Outcome::Pass),
        "{}",
        report.table()
    );
    let server = fixture::start_http(&fixture_server, &["--base64-name-500"]);
    let report = run_http(&options(server.url.clone())).unwrap();
    drop(server);
    assert_eq!(
        report.failed(),
        vec!["http.name-base64"],
        "{}",
        report.table()
    );
    assert!(report.not_run().is_empty(), "{}", report.table());
    let Some(Outcome::Fail(f)) = report.outcome("http.name-base64") else {
        unreachable!()
    };
    assert!(f.reason.contains("status 500"), "{}", f.reason);
    assert_eq!(report.verdict(), Verdict::Fail);
}

/// `check --vectors --http`: the reference, started with the `http`
/// fixture, passes every HTTP vector at every level; the header-ignoring
/// server fails the mirrored-header vectors at `must`.
#[test]
fn the_http_vectors() {
    use mcp_reference_tools::vectors::http::{HttpOptions as VectorOptions, run_http as replay};
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/configs/http.json");
    let server = fixture::serve_http(&["--config", config]);
    let url = server.url.clone();
    let options = |url: String| VectorOptions {
        url,
        fixture: None,
        timeout: Duration::from_secs(5),
        deadline: Duration::from_secs(60),
        level: "canonical".into(),
    };
    let report = replay(&options(url.clone())).unwrap();
    // scripts/replay_vectors.py --http gives the same per-level counts.
    let python = python_levels(&url, "canonical");
    drop(server);
    assert_eq!(report.exit_code(), 0, "{}", report.text());
    assert_eq!(python.0, Some(0));
    assert_eq!(python.1, levels_line(&report.text()));
    assert!(
        report.per_level().iter().all(|(_, p, n)| p == n && *n > 0),
        "{}",
        report.text()
    );

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let lax = format!("http://{}/mcp", listener.local_addr().unwrap());
    // With the fixture's data, so that its vectors run (a server with other
    // data has them NOT RUN: tools/tests/unserved_vectors.rs).
    let data = Config::from_json(&std::fs::read(config).unwrap()).unwrap();
    std::thread::spawn(move || lax_server(listener, data));
    let mut lax_options = options(lax);
    lax_options.level = "must".into();
    let report = replay(&lax_options).unwrap();
    assert_eq!(report.exit_code(), 1, "{}", report.text());
    let python = python_levels(&lax_options.url, "must");
    assert_eq!(python.0, Some(1));
    assert_eq!(python.1, levels_line(&report.text()));
    let failed: Vec<&str> = report
        .outcomes
        .iter()
        .filter(|o| o.failed.as_ref().is_some_and(|f| f.contains(&"must")))
        .map(|o| o.id.as_str())
        .collect();
    for id in [
        "http/H10-version-mismatch",
        "http/H12-name-mismatch",
        "http/H14-param-mismatch",
    ] {
        assert!(
            failed.contains(&id),
            "{id} should fail at must: {failed:?}\n{}",
            report.text()
        );
    }
}

/// The `http vectors: ...` line of a report.
fn levels_line(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("http vectors: "))
        .unwrap_or_default()
        .to_owned()
}

/// `python3 scripts/replay_vectors.py --http URL --level L`: its exit code
/// and its per-level line.
fn python_levels(url: &str, level: &str) -> (Option<i32>, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/replay_vectors.py");
    let out = Command::new("python3")
        .args([script, "--http", url, "--level", level])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        levels_line(&String::from_utf8_lossy(&out.stdout)),
    )
}

/// At an endpoint other than `/mcp` (the configuration's `http.endpoint`),
/// the reference still passes every check: `check --http` takes the
/// endpoint from the URL it is given and never assumes `/mcp` (a surviving
/// mutant of `config_for` that dropped the URL's path, issue 40).
#[test]
fn the_reference_at_another_endpoint_passes_every_http_check() {
    let dir = std::env::temp_dir().join(format!("mcp-check-endpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config.json");
    std::fs::write(&config, r#"{"http":{"endpoint":"/rpc/v1"}}"#).unwrap();
    let server = fixture::serve_http(&["--config", config.to_str().unwrap()]);
    let url = server.url.clone();
    let report = run_http(&options(url.clone())).unwrap();
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(url.ends_with("/rpc/v1"), "{url}");
    assert_eq!(report.verdict(), Verdict::Pass, "{}", report.table());
    assert!(report.not_run().is_empty(), "{}", report.table());
}
