//! `check --http URL --auth` against the reference's `serve --http`
//! configured with check's own loopback issuer (every check runs and
//! passes; the server fetches the issuer's metadata and keys at start), as
//! the command line that starts the server itself, and against the HTTP
//! fault fixture with one authorization fault at a time: each fails the
//! check of its statement at its level, and a SHOULD-level fault leaves
//! the verdict PASS.

#[path = "support/fixture.rs"]
mod fixture;

use std::time::Duration;

use mcp_reference_testkit::issuer::Issuer;
use mcp_reference_tools::check::Verdict;
use mcp_reference_tools::check::auth::{AuthCheck, AuthOptions};
use mcp_reference_tools::check::{Level, Outcome, Report};
use serde_json::json;

/// A loopback port free a moment ago (the server under test must know its
/// URL, the token audience, before it starts).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

fn options(url: &str) -> AuthOptions {
    AuthOptions {
        url: url.to_owned(),
        issuer_addr: "127.0.0.1:0".into(),
        scope: "orders:read".into(),
        timeout: Duration::from_secs(5),
        deadline: Duration::from_secs(120),
    }
}

/// A configuration file for a server at `url` trusting `check`'s issuer;
/// with `inline`, the keys are in it (the fault fixture fetches nothing).
fn config(check: &AuthCheck, name: &str, inline: bool) -> String {
    let mut authorization = json!({
        "resource": check.setup().resource,
        "issuer": check.setup().issuer,
        "scopes": [check.setup().scope],
    });
    if inline {
        authorization["jwks"] = Issuer::default().jwks().clone();
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.json"));
    // The path of the resource URL (`http://host:port/path`).
    let resource = &check.setup().resource;
    let endpoint = format!("/{}", resource.splitn(4, '/').nth(3).unwrap_or_default());
    std::fs::write(
        &path,
        json!({"http": {"endpoint": endpoint, "authorization": authorization}}).to_string(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_reference_passes_every_auth_check() {
    passes_every_auth_check_at("/mcp");
}

/// At an endpoint other than `/mcp`: `check --http --auth` takes the
/// endpoint (and so the resource) from the URL it is given, never assumes
/// `/mcp` (a surviving mutant of `AuthCheck::start`, issue 40).
#[test]
fn the_reference_at_another_endpoint_passes_every_auth_check() {
    passes_every_auth_check_at("/rpc/v1");
}

fn passes_every_auth_check_at(path: &str) {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}{path}");
    let check = AuthCheck::start(&options(&url)).unwrap();
    let file = config(
        &check,
        &format!("check-auth-reference{}", path.replace('/', "-")),
        false,
    );
    let server = fixture::start_http(
        std::path::Path::new(&fixture::bin()),
        &[
            "serve",
            "--http",
            &format!("127.0.0.1:{port}"),
            "--config",
            &file,
        ],
    );
    assert_eq!(server.url, url);
    // The keys came from check's issuer, at start.
    assert_eq!(check.jwks_fetches(), 1);
    let report = check.run().unwrap();
    drop(server);
    assert_eq!(report.verdict(), Verdict::Pass, "{}", report.table());
    assert!(
        report.entries.iter().all(|e| e.outcome == Outcome::Pass),
        "{}",
        report.table()
    );
    assert_eq!(report.entries.len(), 35);
}

/// The command line: check binds its issuer at --issuer-addr, prints the
/// configuration values, starts the server after `--` and stops it.
#[test]
fn the_command_line_starts_the_server_after_its_issuer() {
    let (port, issuer) = (free_port(), free_port());
    let url = format!("http://127.0.0.1:{port}/mcp");
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-auth-cli.json");
    std::fs::write(
        &file,
        json!({"http": {"authorization": {
            "resource": url, "issuer": format!("http://127.0.0.1:{issuer}")}}})
        .to_string(),
    )
    .unwrap();
    let bin = fixture::bin();
    let (code, stdout, stderr) = fixture::cli(&[
        "check",
        "--http",
        &url,
        "--auth",
        "--issuer-addr",
        &format!("127.0.0.1:{issuer}"),
        "--",
        &bin,
        "serve",
        "--http",
        &format!("127.0.0.1:{port}"),
        "--config",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("verdict: PASS"), "{stdout}");
    assert!(
        stdout.contains("35 passed, 0 failed (0 MUST), 0 skipped, 0 not run; 1 server process(es)"),
        "{stdout}"
    );
    for line in [
        format!("issuer (iss):          http://127.0.0.1:{issuer}"),
        format!("resource and audience: {url}"),
        "subjects (sub):        mira, tomas".into(),
        "scope:                 orders:read".into(),
    ] {
        assert!(stderr.contains(&line), "{line:?} missing:\n{stderr}");
    }
    // Without a server, one sentence and exit code 2.
    let (code, _, stderr) = fixture::cli(&[
        "check",
        "--http",
        &url,
        "--auth",
        "--issuer-addr",
        "127.0.0.1:0",
        "--wait-ms",
        "300",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("nothing accepted connections"), "{stderr}");
}

/// The fault fixture with `flags`, judged.
fn faulty(name: &str, flags: &[&str]) -> Report {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let check = AuthCheck::start(&options(&url)).unwrap();
    let file = config(&check, name, true);
    let port = port.to_string();
    let mut args = vec!["--config", file.as_str(), "--port", port.as_str()];
    args.extend_from_slice(flags);
    let server = fixture::start_http(&fixture::faulty_http_server(), &args);
    assert_eq!(server.url, url);
    let report = check.run().unwrap();
    drop(server);
    report
}

/// Each fault fails exactly the checks of its statement, at their level.
#[test]
fn each_fault_fails_the_check_of_its_statement() {
    // No fault: the fixture is the reference's binding.
    let report = faulty("check-auth-none", &[]);
    assert_eq!(report.failed(), Vec::<&str>::new(), "{}", report.table());
    for (flag, failing, statement, level) in [
        (
            "--accept-expired",
            &["auth.token-expired"][..],
            "AUTH-10",
            Level::Must,
        ),
        (
            "--accept-no-aud",
            &["auth.token-no-audience"][..],
            "AUTH-09",
            Level::Must,
        ),
        ("--echo-token", &["auth.no-echo"][..], "SEC-07", Level::Must),
        (
            "--echo-token-in-error",
            &["auth.no-echo"][..],
            "SEC-07",
            Level::Must,
        ),
        (
            "--one-user",
            &["auth.user-isolation", "auth.user-indistinguishable"][..],
            "SEC-04",
            Level::Must,
        ),
        (
            "--error-without-credentials",
            &["auth.no-credentials-no-error"][..],
            "AUTH-20",
            Level::Should,
        ),
        (
            "--no-challenge-scope",
            &["auth.challenge-scope", "auth.insufficient-scope"][..],
            "AUTH-05",
            Level::Should,
        ),
    ] {
        let report = faulty(&format!("check-auth{flag}"), &[flag]);
        assert_eq!(report.failed(), failing, "{flag}\n{}", report.table());
        let entry = report
            .entries
            .iter()
            .find(|e| e.check.id == failing[0])
            .unwrap();
        assert_eq!(
            (entry.check.source, entry.check.level),
            (statement, level),
            "{flag}"
        );
        let verdict = if level == Level::Must {
            Verdict::Fail
        } else {
            Verdict::Pass
        };
        assert_eq!(report.verdict(), verdict, "{flag}\n{}", report.table());
        assert!(report.not_run().is_empty(), "{flag}\n{}", report.table());
    }
}

/// A server without authorization at all: no challenge and no metadata
/// (MUST failures), and every invalid token is served.
#[test]
fn a_server_without_authorization_fails_at_must() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let check = AuthCheck::start(&options(&url)).unwrap();
    let port = port.to_string();
    let server = fixture::start_http(&fixture::faulty_http_server(), &["--port", &port]);
    let report = check.run().unwrap();
    drop(server);
    assert_eq!(report.verdict(), Verdict::Fail, "{}", report.table());
    for id in ["auth.no-credentials", "auth.metadata"] {
        assert!(
            matches!(report.outcome(id), Some(Outcome::Fail(_))),
            "{id}\n{}",
            report.table()
        );
    }
    // It serves everyone, so the valid token passes, but not one of the
    // invalid tokens is refused.
    assert_eq!(report.outcome("auth.valid-list"), Some(&Outcome::Pass));
    assert!(
        matches!(
            report.outcome("auth.token-alg-none"),
            Some(Outcome::Fail(_))
        ),
        "{}",
        report.table()
    );
}
