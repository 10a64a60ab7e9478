//! The authorization vectors (`vectors/http-auth.jsonl`, rows A1 to A8;
//! issue 39, item 11) in both replayers, `check --vectors --http URL
//! --fixture http-auth` and `scripts/replay_vectors.py --http URL --fixture
//! http-auth`: the reference started with `vectors/configs/http-auth.json`
//! passes every level; each authorization fault of
//! `examples/faulty_http_server.rs` fails the vectors of the statement it
//! breaks, at its level, and the two replayers give the same lines.

#[path = "support/fixture.rs"]
mod fixture;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

fn config() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors/configs/http-auth.json")
        .display()
        .to_string()
}

/// Both replayers at `level` against `url`: the exit code, the failing
/// vectors (id and levels) and the per-level line, which must agree.
fn both(url: &str, level: &str) -> (i32, BTreeSet<String>, String) {
    let (code, out, err) = fixture::cli(&[
        "check",
        "--vectors",
        "--http",
        url,
        "--fixture",
        "http-auth",
        "--level",
        level,
    ]);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/replay_vectors.py");
    let py = Command::new("python3")
        .arg(script)
        .args(["--http", url, "--fixture", "http-auth", "--level", level])
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
    let server = fixture::serve_http(&["--config", &config()]);
    let (code, failed, per) = both(&server.url, "canonical");
    assert_eq!(code, 0, "{failed:?}");
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(
        per,
        "http vectors: must 17/17, should 2/2, textbook 21/21, canonical 21/21"
    );
}

#[test]
fn each_authorization_fault_fails_its_vectors() {
    let cases: [(&str, &[&str]); 6] = [
        (
            "--accept-expired",
            &["http-auth/A5-expired: must, textbook, canonical"],
        ),
        (
            "--accept-no-aud",
            &["http-auth/A5-no-aud: must, textbook, canonical"],
        ),
        (
            "--error-without-credentials",
            &["http-auth/A3-no-error: should"],
        ),
        ("--no-challenge-scope", &["http-auth/A3-scope: should"]),
        (
            "--echo-token",
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
            &[
                "http-auth/A7-client-mapped: must, textbook, canonical",
                "http-auth/A7-tomas: must, textbook, canonical",
            ],
        ),
    ];
    for (flag, want) in cases {
        let server = fixture::start_http(
            &fixture::faulty_http_server(),
            &["--config", &config(), flag],
        );
        let (code, failed, _) = both(&server.url, "should");
        let want: BTreeSet<String> = want.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(failed, want, "{flag}");
        assert_eq!(code, 1, "{flag}");
    }
}
