//! The gates that keep a CI run from going green without having run what
//! it says (issue 40; docs/fuzzing.md, "In CI"): `fuzz/smoke.sh` fails
//! under `CI=true` when it cannot fuzz (no nightly toolchain, or no
//! cargo-fuzz) and skips, saying so, outside CI; `scripts/test.sh`, the
//! README's test command, ends with a count in which a skipped test is
//! skipped, not passed (issue 49, item 3). The update switches and
//! case counts are held by `tests/support/switches.rs`; the textbook
//! comparison by `tests/golden.rs`.

use std::path::Path;
use std::process::Command;

/// Writes the executable `script` as `bin/name` (creating `bin`) and
/// returns a PATH with `bin` first, so that `name` runs the stand-in.
fn stand_in(bin: &Path, name: &str, script: &str) -> String {
    std::fs::create_dir_all(bin).expect("a scratch folder");
    let fake = bin.join(name);
    std::fs::write(&fake, script).expect("a stand-in");
    Command::new("chmod")
        .args(["+x", &fake.to_string_lossy()])
        .status()
        .expect("chmod runs");
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `fuzz/smoke.sh` with a `rustup` that knows no toolchain first on the
/// PATH (as on a machine without nightly), `CI` set to `ci` or unset:
/// (exit code, stdout and stderr).
fn smoke_without_nightly(ci: Option<&str>) -> (Option<i32>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A folder per call: the two tests run at once.
    let bin = std::env::temp_dir().join(format!(
        "mcp-no-nightly-{}-{}",
        std::process::id(),
        ci.unwrap_or("unset")
    ));
    let path = stand_in(
        &bin,
        "rustup",
        "#!/bin/sh\necho 'error: toolchain nightly is not installed' >&2\nexit 1\n",
    );
    let mut cmd = Command::new("bash");
    cmd.arg(root.join("fuzz/smoke.sh"))
        .arg("1")
        .env("PATH", path)
        .env_remove("CI");
    if let Some(ci) = ci {
        cmd.env("CI", ci);
    }
    let out = cmd.output().expect("bash runs");
    let _ = std::fs::remove_dir_all(&bin);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// Without nightly, under `CI=true`: exit 1 and a sentence that says why
/// (it was exit 0, "SKIPPED", also under CI).
#[test]
fn the_fuzz_smoke_fails_under_ci_when_it_cannot_run() {
    let (code, text) = smoke_without_nightly(Some("true"));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("fuzz smoke FAILED: no nightly toolchain"),
        "{text}"
    );
}

/// Without nightly, outside CI: a skip that says so, exit 0.
#[test]
fn the_fuzz_smoke_skips_outside_ci_when_it_cannot_run() {
    let (code, text) = smoke_without_nightly(None);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("fuzz smoke SKIPPED: no nightly toolchain"),
        "{text}"
    );
}

/// `scripts/test.sh ARGS` with a stand-in `cargo` first on the PATH that
/// prints `output` (as a `cargo test` run would, stdout and stderr mixed)
/// and exits `code`: (exit code, output). The stand-in also prints its own
/// arguments, so that what the script passes on is seen.
fn test_script(name: &str, output: &str, code: i32) -> (Option<i32>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = std::env::temp_dir().join(format!("mcp-test-sh-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&bin).expect("a scratch folder");
    std::fs::write(bin.join("output.txt"), output).expect("the stand-in's output");
    let script = format!(
        "#!/bin/sh\necho \"args: $*\"\ncat '{}'\nexit {code}\n",
        bin.join("output.txt").display()
    );
    let path = stand_in(&bin, "cargo", &script);
    let out = Command::new("bash")
        .arg(root.join("scripts/test.sh"))
        .args(["--", "--test-threads", "1"])
        .env("PATH", path)
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_dir_all(&bin);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// Two test binaries, three tests that said SKIPPED (each an `ok` to the
/// harness), one ignored: the closing line counts the three as skipped,
/// not passed, and is the last line; the arguments reach cargo.
#[test]
fn the_test_command_counts_skipped_tests_apart_from_passed_ones() {
    let output = "\
running 3 tests
SKIPPED sdk_http::lists (skipped in this test binary: 1): no Python with the mcp package; install: x
test lists ... ok
SKIPPED sdk_http::calls (skipped in this test binary: 2): no Python with the mcp package; install: x
test calls ... ok
test other ... ok
test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

running 5 tests
SKIPPED oidc::login (skipped in this test binary: 1): no oidc-provider; install: y
test result: ok. 4 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.20s
";
    let (code, text) = test_script("skips", output, 0);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with("args: test --release --workspace -- --test-threads 1\n"),
        "{text}"
    );
    let last: Vec<&str> = text.lines().rev().take(2).collect();
    assert_eq!(
        last,
        [
            "summary: 4 passed, 0 failed, 3 skipped",
            "1 ignored (run by hand; each says how)"
        ],
        "{text}"
    );
}

/// A failing run keeps cargo's exit code and says the counts are partial;
/// a build that never reached a test says so instead of counting zeros.
#[test]
fn the_test_command_keeps_cargo_s_exit_code() {
    let failed = "running 2 tests\ntest a ... ok\ntest b ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
    let (code, text) = test_script("failed", failed, 101);
    assert_eq!(code, Some(101), "{text}");
    assert!(
        text.ends_with("summary: 1 passed, 1 failed, 0 skipped\n"),
        "{text}"
    );
    assert!(
        text.contains("cargo test exited 101: the counts below are of the test binaries that ran"),
        "{text}"
    );
    let (code, text) = test_script("unbuilt", "error: could not compile `x`\n", 101);
    assert_eq!(code, Some(101), "{text}");
    assert!(
        text.ends_with("no test ran: cargo test exited 101 before any test binary reported\n"),
        "{text}"
    );
}
