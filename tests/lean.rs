//! The library as a library user gets it (`default-features = false`: no
//! `jwt`, no `state`), tested by the package `lean/` (its header says
//! what: the stand-ins of `src/http/jws.rs` and the refusal of
//! `src/config/input.rs`). Every test build of this workspace links the
//! test kit, which turns both features on for the library, so those
//! tests cannot run here: this test runs `cargo test` on `lean/` as a
//! subprocess, as tests/dependencies.rs runs `cargo tree` (the same
//! cargo, offline, on the committed lockfile), in a target directory of
//! its own under this build's (never this build's own, whose lock the
//! outer cargo may hold), and fails with the sub-run's output when it
//! fails. Why this layout: docs/fuzzing.md, "The lean library's
//! stand-ins".

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The registry packages of a `Cargo.lock`: `name version` of each
/// `[[package]]` with a `source`.
fn registry_packages(lock: &str) -> BTreeSet<String> {
    lock.split("[[package]]")
        .filter(|block| block.contains("\nsource = "))
        .filter_map(|block| {
            let field = |key: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(key))
                    .map(|v| v.trim_matches([' ', '=', '"']).to_owned())
            };
            Some(format!("{} {}", field("name")?, field("version")?))
        })
        .collect()
}

/// `lean/Cargo.lock` holds only packages of the root lock, at the root
/// lock's versions: what makes the offline sub-run below sure to find
/// them (the workspace's own build fetched them), and what keeps the lean
/// tests on the versions the product is built with.
#[test]
fn the_lean_lockfile_is_part_of_the_root_lockfile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("the lockfile is committed");
    let lean = registry_packages(&read("lean/Cargo.lock"));
    let all = registry_packages(&read("Cargo.lock"));
    assert!(lean.len() > 4, "{lean:?}");
    let foreign: Vec<&String> = lean.difference(&all).collect();
    assert!(
        foreign.is_empty(),
        "lean/Cargo.lock holds packages the root Cargo.lock does not: {foreign:?}"
    );
}

#[test]
fn the_library_without_default_features_passes_its_own_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lean");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["test", "--offline", "--locked", "--manifest-path"])
        .arg(root.join("lean/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(root)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "cargo test --manifest-path lean/Cargo.toml failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // A run that tested nothing proves nothing.
    let passed: usize = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test result: ok. "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<usize>().ok())
        .sum();
    assert!(passed > 0, "the lean tests ran {passed} tests:\n{stdout}");
}
