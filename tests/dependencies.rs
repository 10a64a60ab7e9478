//! The product stays lean, counted with `cargo tree` on the committed
//! lockfile (offline): a library user of the root package
//! (`default-features = false`) gets serde, serde_json, memchr and base64
//! and nothing else (13 crates with the root and what those four pull
//! in); the binary the README's first command builds (the default
//! features: the HTTP stack, TLS for the issuer's keys, JWT signatures)
//! compiles at most 90 crates, build dependencies included, and links
//! neither the test kit nor the checker (issue 33's budget; README,
//! "Using the crate as an oracle").

use std::collections::BTreeSet;
use std::process::Command;

/// The most crates `cargo run --release -- demo` may compile.
const BINARY_BUDGET: usize = 90;

/// The distinct crates `cargo tree` prints for the root package.
fn tree(args: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "-p", "mcp-reference"])
        .args(["--prefix", "none", "--format", "{p}"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches(" (*)").trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

/// A crate's name: the first word of `name vX.Y.Z (...)`.
fn names(crates: &BTreeSet<String>) -> BTreeSet<&str> {
    crates
        .iter()
        .filter_map(|c| c.split_whitespace().next())
        .collect()
}

#[test]
fn the_library_alone_depends_on_serde_serde_json_memchr_and_base64() {
    let direct = tree(&["--no-default-features", "-e", "normal", "--depth", "1"]);
    let direct: BTreeSet<&str> = names(&direct);
    let expected: BTreeSet<&str> = ["base64", "mcp-reference", "memchr", "serde", "serde_json"]
        .into_iter()
        .collect();
    assert_eq!(direct, expected);
    let all = tree(&["--no-default-features", "-e", "normal"]);
    assert_eq!(all.len(), 13, "{all:#?}");
}

#[test]
fn the_binary_compiles_at_most_ninety_crates_and_no_test_support() {
    let all = tree(&["-e", "normal,build"]);
    assert!(
        all.len() <= BINARY_BUDGET,
        "{} crates, over the budget of {BINARY_BUDGET}: {all:#?}",
        all.len()
    );
    let names = names(&all);
    for support in [
        "mcp-reference-testkit",
        "mcp-reference-tools",
        "proptest",
        "criterion",
    ] {
        assert!(!names.contains(support), "the binary links {support}");
    }
}
