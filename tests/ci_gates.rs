//! The gates that keep a CI run from going green without having run what
//! it says (issue 40; docs/fuzzing.md, "In CI"): `fuzz/smoke.sh` fails
//! under `CI=true` when it cannot fuzz (no nightly toolchain, or no
//! cargo-fuzz) and skips, saying so, outside CI. The update switches and
//! case counts are held by `tests/support/switches.rs`; the textbook
//! comparison by `tests/golden.rs`.

use std::path::Path;
use std::process::Command;

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
    std::fs::create_dir_all(&bin).expect("a scratch folder");
    let fake = bin.join("rustup");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'error: toolchain nightly is not installed' >&2\nexit 1\n",
    )
    .expect("a fake rustup");
    Command::new("chmod")
        .args(["+x", &fake.to_string_lossy()])
        .status()
        .expect("chmod runs");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
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
