//! `diff --http` against the reference's `serve --http` (no difference, with
//! the textbook configuration and with the HTTP fixture's `x-mcp-header`
//! parameters), and against the fault-injected HTTP fixture
//! (`examples/faulty_http_server.rs`): each fault is found as its rows and
//! parts, and only it; a reply sent as an event stream is no difference;
//! the same seed gives the same report byte for byte; every class's
//! request is small, and its `curl` command, run by bash, gets the status
//! the report shows; a server on another configuration gets the hint to
//! name it with `--config`.

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::Duration;

use fixture::Running;

use mcp_reference::Config;
use mcp_reference_tools::diff::http::{HttpDiffReport, HttpOptions, run_http};

fn reference(args: &[&str]) -> Running {
    fixture::serve_http(args)
}

fn faulty(flags: &[&str]) -> Running {
    fixture::start_http(&fixture::faulty_http_server(), flags)
}

fn http_fixture() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/configs/http.json").to_owned()
}

fn diff(url: &str, cases: u32, config: Option<Config>) -> HttpDiffReport {
    let mut options = HttpOptions::new(url);
    options.cases = cases;
    options.timeout = Duration::from_secs(5);
    options.config = config;
    run_http(&options).unwrap()
}

/// The classes as (row, part).
fn classes(report: &HttpDiffReport) -> BTreeSet<(String, String)> {
    report
        .classes
        .iter()
        .map(|c| (c.row.clone(), c.part.clone()))
        .collect()
}

#[test]
fn the_reference_shows_no_difference_through_the_command_line() {
    let server = reference(&[]);
    let (code, out, err) = fixture::cli(&["diff", "--http", &server.url, "--cases", "400"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no difference found"), "{out}");
    assert!(out.contains("seed 0, 400 request(s) generated"), "{out}");

    let config = http_fixture();
    let server = reference(&["--config", &config]);
    let (code, out, err) = fixture::cli(&[
        "diff",
        "--http",
        &server.url,
        "--config",
        &config,
        "--cases",
        "400",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A server started with another configuration (the catalog's) than the
/// one diff answers with (the textbook's, no --config): the differences
/// come with the hint to name the server's file with --config, and with
/// --config naming it there is none (issue 39, item 7).
#[test]
fn another_configuration_gets_the_config_hint() {
    let catalog = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/config.example.json");
    let server = reference(&["--config", catalog]);
    let (code, out, err) = fixture::cli(&["diff", "--http", &server.url, "--cases", "100"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(
            "the reference answered with the textbook configuration; if the server was started \
             with another configuration, name that file with --config FILE"
        ),
        "{err}"
    );
    let (code, out, err) = fixture::cli(&[
        "diff",
        "--http",
        &server.url,
        "--config",
        catalog,
        "--cases",
        "100",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("--config FILE"), "{err}");
}

#[test]
fn a_configuration_the_server_does_not_serve_is_a_difference() {
    // The server has no Mcp-Param-Order-Id header; diff is told it has.
    let server = reference(&[]);
    let config = Config::load(std::path::Path::new(&http_fixture())).unwrap();
    let report = diff(&server.url, 300, Some(config));
    assert!(
        report.classes.iter().any(|c| c.row == "H14"),
        "{}",
        report.text()
    );
}

#[test]
fn each_fault_is_found_and_only_it() {
    let server = faulty(&["--no-allow"]);
    let report = diff(&server.url, 300, None);
    assert_eq!(
        classes(&report),
        BTreeSet::from([("H2".to_owned(), "allow".to_owned())]),
        "{}",
        report.text()
    );

    let server = faulty(&["--errors-as-200"]);
    let report = diff(&server.url, 300, None);
    assert!(!report.classes.is_empty());
    for c in &report.classes {
        assert_eq!(c.part, "status", "{}", report.text());
        assert!(c.reference.status >= 400, "{}", report.text());
        assert_eq!(c.command.as_ref().unwrap().status, 200);
    }

    let server = faulty(&["--trust-headers"]);
    let report = diff(&server.url, 300, None);
    let rows: BTreeSet<String> = report.classes.iter().map(|c| c.row.clone()).collect();
    assert!(rows.contains("H10") && rows.contains("H11"), "{rows:?}");
    for c in &report.classes {
        assert!(
            ["H10", "H11", "H12", "H13", "H14", "H16"].contains(&c.row.as_str()),
            "{}",
            report.text()
        );
        assert!(
            c.part == "status" || c.part == "/error",
            "{}",
            report.text()
        );
    }
    // Every header mismatch is a MUST of the specification.
    for c in &report.classes {
        assert!(c.rule.contains("(must, SHTTP-"), "{}", c.rule);
    }
}

#[test]
fn a_reply_sent_as_an_event_stream_is_no_difference() {
    let server = faulty(&["--sse"]);
    let report = diff(&server.url, 400, None);
    assert!(report.classes.is_empty(), "{}", report.text());
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let server = faulty(&["--trust-headers"]);
    let mut options = HttpOptions::new(&server.url);
    options.cases = 200;
    options.seed = 7;
    let first = run_http(&options).unwrap();
    let second = run_http(&options).unwrap();
    assert!(!first.classes.is_empty());
    assert_eq!(first.text(), second.text());
    options.seed = 8;
    let other = run_http(&options).unwrap();
    assert_ne!(first.text(), other.text(), "another seed, other requests");
}

#[test]
fn requests_are_shrunk_and_their_curl_commands_run() {
    let server = faulty(&["--no-allow"]);
    let report = diff(&server.url, 300, None);
    let class = report.classes.first().unwrap();
    // A method other than POST, at the endpoint, with no header but Host.
    assert!(class.request.body.is_empty(), "{}", report.text());
    let names: Vec<&str> = class
        .request
        .headers
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["Host"], "{}", report.text());

    let trusting = faulty(&["--trust-headers"]);
    let trusted = diff(&trusting.url, 300, None);
    for c in &trusted.classes {
        assert!(
            c.request.body.len() <= 200,
            "{} bytes: {}",
            c.request.body.len(),
            trusted.text()
        );
    }

    let has_curl = Command::new("curl")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_curl {
        assert!(
            std::env::var_os("CI").is_none(),
            "curl is missing: .ci/run installs it"
        );
        eprintln!("curl is not installed: the curl commands were not run");
        return;
    }
    let authority = server.url.trim_start_matches("http://");
    let authority = authority.split('/').next().unwrap();
    let trusting_authority = trusting.url.trim_start_matches("http://");
    let trusting_authority = trusting_authority.split('/').next().unwrap();
    let all = report
        .classes
        .iter()
        .map(|c| (c, authority))
        .chain(trusted.classes.iter().map(|c| (c, trusting_authority)));
    for (c, authority) in all {
        let line = mcp_reference_tools::diff::http::curl(&c.request, authority);
        let out = Command::new("bash").args(["-c", &line]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let status = text
            .lines()
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse::<u16>().ok());
        assert_eq!(
            status,
            Some(c.command.as_ref().unwrap().status),
            "{line}\n{text}"
        );
    }
    // The same commands against the reference get the reference's status
    // (the fixture trusts the mirrored headers: the reference reads them,
    // so curl must send them exactly), with Host written for its port.
    let real = reference(&[]);
    let real_authority = real.url.trim_start_matches("http://");
    let real_authority = real_authority.split('/').next().unwrap();
    let mut checked = 0;
    for c in &trusted.classes {
        let mut request = c.request.clone();
        if request
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("origin"))
        {
            continue;
        }
        for (n, v) in &mut request.headers {
            if n.eq_ignore_ascii_case("host") {
                *v = real_authority.as_bytes().to_vec();
            }
        }
        let line = mcp_reference_tools::diff::http::curl(&request, real_authority);
        let out = Command::new("bash").args(["-c", &line]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with(&format!("HTTP/1.1 {} ", c.reference.status)),
            "{line}\n{text}"
        );
        let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
        assert_eq!(body.as_bytes(), c.reference.body, "{line}");
        checked += 1;
    }
    assert!(checked > 0, "{}", trusted.text());
}

#[test]
fn a_server_that_does_not_answer_is_a_usage_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (code, out, err) = fixture::cli(&["diff", "--http", &url, "--cases", "3"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("did not answer"), "{err}");
}
