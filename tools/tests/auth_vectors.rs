//! The authorization vectors (`vectors/http-auth.jsonl`, rows A1 to A8;
//! issue 39, item 11) in both replayers, `check --vectors --http URL
//! --fixture http-auth` and `scripts/replay_vectors.py --http URL --fixture
//! http-auth`: the reference started with `vectors/configs/http-auth.json`
//! passes every level; each authorization fault of
//! `examples/faulty_http_server.rs` fails the vectors of the statement it
//! breaks, at its level, and the two replayers give the same lines. The
//! same for row A9 (no authorization configured), whose vectors are the
//! `http` fixture's (`vectors/http.jsonl`), and for the `405` rows A2 and
//! H2 (issue 46, item 3).

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// HTTP fixture `name`'s configuration file.
fn config(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../vectors/configs/{name}.json"))
        .display()
        .to_string()
}

/// Both replayers at `level` against `url`, for HTTP fixture `name`: the
/// exit code, the failing vectors (id and levels) and the per-level line,
/// which must agree.
fn both(url: &str, name: &str, level: &str) -> (i32, BTreeSet<String>, String) {
    let (code, out, err) = fixture::cli(&[
        "check",
        "--vectors",
        "--http",
        url,
        "--fixture",
        name,
        "--level",
        level,
    ]);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/replay_vectors.py");
    let py = Command::new("python3")
        .arg(script)
        .args(["--http", url, "--fixture", name, "--level", level])
        .output()
        .expect("python3 runs");
    let py_out = String::from_utf8_lossy(&py.stdout).into_owned();
    let summary = |text: &str| {
        let failed: BTreeSet<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("FAIL "))
            .map(|l| {
                let id = l.split(' ').next().unwrap_or_default();
                let levels = l.rsplit("fails ").next().unwrap_or_default();
                format!("{id}: {levels}")
            })
            .collect();
        let per = text
            .lines()
            .find(|l| l.starts_with("http vectors: "))
            .unwrap_or_default()
            .to_owned();
        (failed, per)
    };
    let (rust_failed, rust_per) = summary(&out);
    let (py_failed, py_per) = summary(&py_out);
    assert_eq!(
        (code, &rust_failed, &rust_per),
        (py.status.code().unwrap_or(-1), &py_failed, &py_per),
        "the replayers disagree\n{out}{err}\n---\n{py_out}"
    );
    (code, rust_failed, rust_per)
}

#[test]
fn the_reference_passes_every_authorization_vector() {
    let server = fixture::serve_http(&["--config", &config("http-auth")]);
    let (code, failed, per) = both(&server.url, "http-auth", "canonical");
    assert_eq!(code, 0, "{failed:?}");
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(
        per,
        "http vectors: must 17/17, should 2/2, textbook 21/21, canonical 21/21"
    );
}

/// Each fault of `examples/faulty_http_server.rs`, started with fixture
/// `name`'s configuration, fails exactly `want` (id: levels) in both
/// replayers, judged up to its `level`, where it exits 1.
fn faults_fail(name: &str, cases: &[(&str, &str, &[&str])]) {
    for (flag, level, want) in cases {
        let server = fixture::start_http(
            &fixture::faulty_http_server(),
            &["--config", &config(name), flag],
        );
        let (code, failed, _) = both(&server.url, name, level);
        let want: BTreeSet<String> = want.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(failed, want, "{flag}");
        assert_eq!(code, 1, "{flag}");
    }
}

#[test]
fn each_authorization_fault_fails_its_vectors() {
    faults_fail(
        "http-auth",
        &[
            (
                "--accept-expired",
                "should",
                &["http-auth/A5-expired: must, textbook, canonical"],
            ),
            (
                "--accept-no-aud",
                "should",
                &["http-auth/A5-no-aud: must, textbook, canonical"],
            ),
            (
                "--error-without-credentials",
                "should",
                &["http-auth/A3-no-error: should"],
            ),
            (
                "--no-challenge-scope",
                "should",
                &["http-auth/A3-scope: should"],
            ),
            (
                "--echo-token",
                "should",
                &[
                    "http-auth/A4-two-headers: must",
                    "http-auth/A5-expired: must",
                    "http-auth/A5-no-aud: must",
                    "http-auth/A5-other-aud: must",
                    "http-auth/A6-no-scope: must",
                    "http-auth/A8-bad-signature: must",
                    "http-auth/A8-two-tokens: must",
                ],
            ),
            (
                "--one-user",
                "should",
                &[
                    "http-auth/A7-client-mapped: must, textbook, canonical",
                    "http-auth/A7-tomas: must, textbook, canonical",
                ],
            ),
            // Row A8 where an admitted request is answered with an error.
            (
                "--echo-token-in-error",
                "should",
                &["http-auth/A8-unknown-tool: must, canonical"],
            ),
            // Row A2: a 405 at a metadata path without `allow`, judged at
            // `textbook` (the reference's methods, as a set).
            (
                "--no-allow",
                "textbook",
                &[
                    "http-auth/A2-delete-root: textbook, canonical",
                    "http-auth/A2-post-metadata: textbook, canonical",
                ],
            ),
        ],
    );
}

/// The `http` fixture (no authorization configured): `--user-from-token`
/// reads a bearer token's `sub` as the user and fails row A9's vectors
/// (and only them: its data probe goes without a token, so the server is
/// judged, not NOT RUN); `--no-allow` fails H2's 405s at `textbook`.
#[test]
fn each_fault_of_the_http_fixture_fails_its_vectors() {
    faults_fail(
        "http",
        &[
            (
                "--user-from-token",
                "should",
                &[
                    "http/A9-token-ignored: should, textbook, canonical",
                    "http/A9-token-no-user: should, textbook, canonical",
                ],
            ),
            (
                "--no-allow",
                "textbook",
                &[
                    "http/H2-delete: textbook, canonical",
                    "http/H2-get: textbook, canonical",
                ],
            ),
        ],
    );
}
