//! Stops a test build at its start when the official schemas are missing:
//! one message, at the start of `cargo test` (or `cargo bench`), instead of
//! a long build and a failure per test. Every other build (`cargo build`,
//! `cargo run --example`, `cargo doc`, `cargo check`, clippy) needs no
//! schema and is never stopped (issue 49, item 1): this crate is a
//! workspace member and a dev-dependency, so those builds run this script
//! too.
//!
//! Which command the build runs under is read from the parent process, the
//! cargo that runs this script (its command line, on Unix through
//! `/proc`). Where it cannot be read, a missing schema is a warning only,
//! and the tests themselves say the same sentence when they load a schema.

#[path = "src/places.rs"]
#[allow(dead_code, unreachable_pub)]
mod places;

use std::path::PathBuf;

/// Cargo's global options that take a value as the next argument, before
/// the subcommand (`cargo --config X test`).
const VALUED: [&str; 5] = ["--color", "--config", "-Z", "-C", "--explain"];

/// The subcommand of a cargo command line (without the program itself):
/// the first argument that is neither a toolchain (`+nightly`), an option,
/// nor an option's value.
fn subcommand(args: &[String]) -> Option<&str> {
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg.starts_with('+') {
            continue;
        }
        if arg.starts_with('-') {
            if VALUED.contains(&arg.as_str()) {
                rest.next();
            }
            continue;
        }
        return Some(arg);
    }
    None
}

/// Whether the parent cargo builds tests or benches: `Some(true)` for
/// `test` (and its alias `t`) and `bench`, `Some(false)` for any other
/// subcommand, `None` when the parent's command line cannot be read.
fn test_build() -> Option<bool> {
    let ppid = parent()?;
    let raw = std::fs::read(format!("/proc/{ppid}/cmdline")).ok()?;
    let args: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let sub = subcommand(args.get(1..)?)?;
    Some(matches!(sub, "test" | "t" | "bench"))
}

#[cfg(unix)]
fn parent() -> Option<u32> {
    Some(std::os::unix::process::parent_id())
}

#[cfg(not(unix))]
fn parent() -> Option<u32> {
    None
}

fn main() {
    println!("cargo::rerun-if-env-changed={}", places::VARIABLE);
    println!("cargo::rerun-if-changed=spec-commit.txt");
    println!("cargo::rerun-if-changed=src/places.rs");
    let found = places::spec_dir();
    let missing: Vec<PathBuf> = match &found {
        Some(dir) => places::VERSIONS
            .iter()
            .map(|v| dir.join(v).join("schema.json"))
            .filter(|p| !p.is_file())
            .collect(),
        None => places::beside_checkout()
            .iter()
            .map(|d| d.join(places::VERSIONS[0]).join("schema.json"))
            .collect(),
    };
    // Watched: the schemas found, or, while they are missing, the places
    // they would be found at. A path that does not exist makes cargo run
    // this script again on every build, so that a `cargo build` without
    // the schemas never leaves a passed gate for the `cargo test` after it.
    let watched: Vec<PathBuf> = match &found {
        Some(dir) => places::VERSIONS
            .iter()
            .map(|v| dir.join(v).join("schema.json"))
            .collect(),
        None => missing.clone(),
    };
    for path in &watched {
        println!("cargo::rerun-if-changed={}", path.display());
    }
    if missing.is_empty() {
        return;
    }
    let place = match &found {
        Some(dir) => format!("no official schema at {}", dir.display()),
        None => format!("no official schema at {}", places::where_looked()),
    };
    // Under MCP_SPEC_DIR, which of the three versions are missing; beside
    // the checkout, the places already name them.
    let which = match &found {
        Some(_) => format!(
            " (missing: {})",
            missing
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => String::new(),
    };
    let sentence = format!(
        "{place}{which}: the tests need them, and this repository does not hold them; {}",
        places::recipe()
    );
    match test_build() {
        Some(true) => {
            eprintln!("mcp-reference: {sentence}");
            std::process::exit(1);
        }
        Some(false) => {}
        None => println!("cargo::warning={sentence}"),
    }
}
